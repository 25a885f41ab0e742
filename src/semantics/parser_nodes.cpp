#include "semantics/parser_nodes.hpp"

#include <algorithm>

namespace ccforge {

std::vector<int64_t> parserNodesPerRank(const ir::Algorithm& algorithm) {
  const int64_t shared = 1 + static_cast<int64_t>(algorithm.gpus.size());  // <algo> and every <gpu>
  std::vector<int64_t> nodes(static_cast<size_t>(std::max(algorithm.ngpus, 0)), shared);
  for (const ir::Gpu& gpu : algorithm.gpus) {
    if (gpu.id < 0 || gpu.id >= algorithm.ngpus) continue;  // no rank loads it
    int64_t own = static_cast<int64_t>(gpu.threadBlocks.size());
    for (const ir::ThreadBlock& tb : gpu.threadBlocks) own += static_cast<int64_t>(tb.steps.size());
    nodes[static_cast<size_t>(gpu.id)] += own;
  }
  return nodes;
}

}  // namespace ccforge
