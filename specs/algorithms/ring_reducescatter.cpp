// Ring reduce-scatter: chunk i starts on rank i+1 and is reduced on each following rank of the
// ring, ending on rank i. Out of place the last rank reduces straight into its output (after
// copying its own contribution there), so the intermediate sums are only forwarded (rrs) and
// no input buffer is written.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program ringReduceScatter(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks"), channels = arg(a, "channels");
  const CallForm form = callForm(a);
  dsl::Program p("reducescatter_ring",
                 {.type = CollectiveType::ReduceScatter, .ranks = n, .chunkFactor = 1, .form = form},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  const Rings rings(a);
  for (int32_t i = 0; i < n; ++i) {
    const dsl::Directives on{.ch = i % channels};
    const int32_t start = rings.position(i % channels, i);
    dsl::ChunkRef c = p.chunk(rings.rank(i % channels, start + 1), Buffer::Input, i);
    for (int32_t step = 2; step < n; ++step) c = p.chunk(rings.rank(i % channels, start + step), Buffer::Input, i).reduce(c, on);
    dsl::ChunkRef last = p.chunk(i, Buffer::Input, i);
    if (form == CallForm::OutOfPlace) last = last.copy(i, Buffer::Output, 0);
    last.reduce(c, on);
  }
  return p;
}

}  // namespace ccforge::algorithms
