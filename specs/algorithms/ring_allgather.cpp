// Ring allgather (msccl-tools allgather_ring): rank i's chunk is copied from neighbour to
// neighbour until every rank has it. Out of place, the owner also copies it into its own output.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program ringAllGather(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks"), channels = arg(a, "channels");
  const CallForm form = callForm(a);
  dsl::Program p("allgather_ring", {.type = CollectiveType::AllGather, .ranks = n, .chunkFactor = 1, .form = form},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  const Rings rings(a);
  for (int32_t i = 0; i < n; ++i) {
    dsl::ChunkRef c = p.chunk(i, Buffer::Input, 0);
    if (form == CallForm::OutOfPlace) c.copy(i, Buffer::Output, i);
    const int32_t start = rings.position(i % channels, i);
    for (int32_t step = 1; step < n; ++step) c = c.copy(rings.rank(i % channels, start + step), Buffer::Output, i, {.ch = i % channels});
  }
  return p;
}

}  // namespace ccforge::algorithms
