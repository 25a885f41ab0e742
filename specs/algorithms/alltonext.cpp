// AllToNext (MSCCLang paper §7.4, msccl-tools alltonext_forward): rank r's buffer (G chunks)
// goes to rank r+1. Inside a node it is one aggregated transfer. Across nodes, from the last
// GPU (n, G-1) to (n+1, 0), chunk c takes its own path so that all G network links work at
// once: to (n, c), across to (n+1, c), then to (n+1, 0).
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program allToNext(const Arguments& a, ir::Protocol protocol) {
  const int32_t nodes = arg(a, "nodes"), gpus = arg(a, "gpus");
  const int32_t n = nodes * gpus;
  require(n >= 2, "alltonext needs at least 2 ranks");
  auto rank = [&](int32_t node, int32_t gpu) { return node * gpus + gpu; };
  // Scratch slots: 0 for a chunk being scattered on the sending node, 1 on the receiving node.
  dsl::Program p("alltonext",
                 {.type = semantics::CollectiveType::AllToNext,
                  .ranks = n,
                  .chunkFactor = gpus,
                  .form = semantics::CallForm::OutOfPlace},
                 {.protocol = protocol});
  for (int32_t r = 0; r + 1 < n; ++r) {
    const int32_t node = r / gpus;
    if (r % gpus != gpus - 1) {
      p.chunk(r, Buffer::Input, 0, gpus).copy(r + 1, Buffer::Output, 0);
      continue;
    }
    for (int32_t c = 0; c < gpus; ++c) {
      dsl::ChunkRef x = p.chunk(r, Buffer::Input, c);
      if (rank(node, c) != r) x = x.copy(rank(node, c), Buffer::Scratch, 0);
      if (rank(node + 1, c) != r + 1) x = x.copy(rank(node + 1, c), Buffer::Scratch, 1);
      x.copy(r + 1, Buffer::Output, c);
    }
  }
  return p;
}

}  // namespace ccforge::algorithms
