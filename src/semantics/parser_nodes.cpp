#include "semantics/parser_nodes.hpp"

#include <algorithm>

namespace ccforge::semantics {

std::vector<int64_t> parserNodesPerRank(const ir::Algorithm& algorithm) {
  const int64_t shared = 1 + static_cast<int64_t>(algorithm.gpus.size());  // <algo> and every <gpu>
  // Ranks past the last <gpu> store only the shared nodes: the vector stops at the last one, so
  // that a header claiming 2^31 GPUs costs nothing.
  int32_t ranks = 0;
  for (const ir::Gpu& gpu : algorithm.gpus)
    if (gpu.id >= 0 && gpu.id < algorithm.ngpus) ranks = std::max(ranks, gpu.id + 1);
  if (algorithm.ngpus > 0 && ranks == 0) ranks = 1;
  std::vector<int64_t> nodes(static_cast<size_t>(ranks), shared);
  for (const ir::Gpu& gpu : algorithm.gpus) {
    if (gpu.id < 0 || gpu.id >= algorithm.ngpus) continue;  // no rank loads it
    int64_t own = static_cast<int64_t>(gpu.threadBlocks.size());
    for (const ir::ThreadBlock& tb : gpu.threadBlocks) own += static_cast<int64_t>(tb.steps.size());
    nodes[static_cast<size_t>(gpu.id)] += own;
  }
  return nodes;
}

}  // namespace ccforge::semantics
