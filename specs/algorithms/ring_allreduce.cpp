// Ring allreduce (msccl-tools allreduce_a100_ring): chunk i starts at position i of its channel's
// ring (rank i with one box), is reduced on each following rank of the ring, and the full sum
// travels once more around to everyone.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program ringAllReduceOn(const Arguments& a, const Rings& rings, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks"), channels = rings.channels();
  const bool inplace = arg(a, "inplace") != 0;
  // split: channels x ranks chunks, chunk i on ring i mod channels from position i / channels.
  const int32_t pieces = arg(a, "split") ? channels : 1;
  dsl::Program p("ring_allreduce",
                 {.type = semantics::CollectiveType::AllReduce,
                  .ranks = n,
                  .chunkFactor = n * pieces,
                  .form = inplace ? semantics::CallForm::InPlace : semantics::CallForm::OutOfPlace},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  // In place the sums build up in the buffer itself; out of place the input is the caller's const
  // send buffer, so each rank adds into its output (the compiler fuses the copy into the receive).
  const Buffer sums = inplace ? Buffer::Input : Buffer::Output;
  for (int32_t i = 0; i < n * pieces; ++i) {
    const dsl::Directives on{.ch = i % channels};
    const int32_t start = pieces > 1 ? i / channels : i;
    dsl::ChunkRef c = p.chunk(rings.rank(i % channels, start), Buffer::Input, i);
    for (int32_t step = 1; step < n; ++step) {
      const int32_t r = rings.rank(i % channels, start + step);
      dsl::ChunkRef own = p.chunk(r, Buffer::Input, i);
      if (!inplace) own = own.copy(r, Buffer::Output, i);
      c = own.reduce(c, on);
    }
    for (int32_t step = 0; step < n - 1; ++step) c = c.copy(rings.rank(i % channels, start + step), sums, i, on);
  }
  return p;
}

dsl::Program ringAllReduce(const Arguments& a, ir::Protocol protocol) { return ringAllReduceOn(a, Rings(a), protocol); }

}  // namespace ccforge::algorithms
