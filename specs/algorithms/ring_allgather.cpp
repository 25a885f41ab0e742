// Ring allgather (msccl-tools allgather_ring): rank i's chunk is copied from neighbour to
// neighbour until every rank has it. Out of place, the owner also copies it into its own output.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program ringAllGatherOn(const Arguments& a, const Rings& rings, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks"), channels = rings.channels();
  const semantics::CallForm form = callForm(a);
  // split: each rank's buffer in channels pieces, piece j around ring j.
  const int32_t pieces = arg(a, "split") ? channels : 1;
  dsl::Program p("allgather_ring",
                 {.type = semantics::CollectiveType::AllGather, .ranks = n, .chunkFactor = pieces, .form = form},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = 0; j < pieces; ++j) {
      const int32_t ring = pieces > 1 ? j : i % channels, out = i * pieces + j;
      dsl::ChunkRef c = p.chunk(i, Buffer::Input, j);
      if (form == semantics::CallForm::OutOfPlace) c.copy(i, Buffer::Output, out);
      const int32_t start = rings.position(ring, i);
      for (int32_t step = 1; step < n; ++step)
        c = c.copy(rings.rank(ring, start + step), Buffer::Output, out, {.ch = ring});
    }
  return p;
}

dsl::Program ringAllGather(const Arguments& a, ir::Protocol protocol) { return ringAllGatherOn(a, Rings(a), protocol); }

}  // namespace ccforge::algorithms
