// Ring allreduce (msccl-tools allreduce_a100_ring): chunk i starts on rank i, is reduced on
// each following rank of the ring, and the full sum travels once more around to everyone.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program ringAllReduce(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks"), channels = arg(a, "channels");
  dsl::Program p("ring_allreduce",
                 {.type = CollectiveType::AllReduce, .ranks = n, .chunkFactor = n, .form = CallForm::InPlace},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  for (int32_t i = 0; i < n; ++i) {
    const dsl::Directives on{.ch = i % channels};
    dsl::ChunkRef c = p.chunk(i, Buffer::Input, i);
    for (int32_t step = 1; step < n; ++step) c = p.chunk((i + step) % n, Buffer::Input, i).reduce(c, on);
    for (int32_t step = 0; step < n - 1; ++step) c = c.copy((i + step) % n, Buffer::Input, i, on);
  }
  return p;
}

}  // namespace ccforge::algorithms
