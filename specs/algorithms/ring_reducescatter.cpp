// Ring reduce-scatter: chunk i starts on rank i+1 and is reduced on each following rank of the
// ring, ending on rank i. Out of place the last rank reduces straight into its output (after
// copying its own contribution there), so the intermediate sums are only forwarded (rrs) and
// no input buffer is written.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program ringReduceScatterOn(const Arguments& a, const Rings& rings, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks"), channels = rings.channels();
  const semantics::CallForm form = callForm(a);
  // split: each rank's result in channels pieces, piece j reduced around ring j.
  const int32_t pieces = arg(a, "split") ? channels : 1;
  dsl::Program p("reducescatter_ring",
                 {.type = semantics::CollectiveType::ReduceScatter, .ranks = n, .chunkFactor = pieces, .form = form},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = 0; j < pieces; ++j) {
      const int32_t ring = pieces > 1 ? j : i % channels, chunk = i * pieces + j;
      const dsl::Directives on{.ch = ring};
      const int32_t start = rings.position(ring, i);
      dsl::ChunkRef c = p.chunk(rings.rank(ring, start + 1), Buffer::Input, chunk);
      for (int32_t step = 2; step < n; ++step)
        c = p.chunk(rings.rank(ring, start + step), Buffer::Input, chunk).reduce(c, on);
      dsl::ChunkRef last = p.chunk(i, Buffer::Input, chunk);
      if (form == semantics::CallForm::OutOfPlace) last = last.copy(i, Buffer::Output, j);
      last.reduce(c, on);
    }
  return p;
}

dsl::Program ringReduceScatter(const Arguments& a, ir::Protocol protocol) {
  return ringReduceScatterOn(a, Rings(a), protocol);
}

}  // namespace ccforge::algorithms
