// Ring allreduce (msccl-tools allreduce_a100_ring): chunk i starts at position i of its channel's
// ring (rank i with one box), is reduced on each following rank of the ring, and the full sum
// travels once more around to everyone.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program ringAllReduce(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks"), channels = arg(a, "channels");
  const bool inplace = arg(a, "inplace") != 0;
  dsl::Program p("ring_allreduce",
                 {.type = CollectiveType::AllReduce, .ranks = n, .chunkFactor = n,
                  .form = inplace ? CallForm::InPlace : CallForm::OutOfPlace},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  // In place the sums build up in the buffer itself; out of place the input is the caller's const
  // send buffer, so each rank adds into its output (the compiler fuses the copy into the receive).
  const Buffer sums = inplace ? Buffer::Input : Buffer::Output;
  const Rings rings(a);
  for (int32_t i = 0; i < n; ++i) {
    const dsl::Directives on{.ch = i % channels};
    dsl::ChunkRef c = p.chunk(rings.rank(i % channels, i), Buffer::Input, i);
    for (int32_t step = 1; step < n; ++step) {
      const int32_t r = rings.rank(i % channels, i + step);
      dsl::ChunkRef own = p.chunk(r, Buffer::Input, i);
      if (!inplace) own = own.copy(r, Buffer::Output, i);
      c = own.reduce(c, on);
    }
    for (int32_t step = 0; step < n - 1; ++step) c = c.copy(rings.rank(i % channels, i + step), sums, i, on);
  }
  return p;
}

}  // namespace ccforge::algorithms
