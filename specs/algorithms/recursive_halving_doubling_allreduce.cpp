// Recursive halving/doubling allreduce (msccl-tools allreduce_recursive_doubling_halving,
// Thakur et al.): reduce-scatter where rank r and r^d (d = N/2, N/4, ..., 1) exchange and reduce
// halves of what they hold, then allgather where they exchange doubling blocks (d = 1, 2, ...).
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program recursiveHalvingDoublingAllReduce(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks");
  require(powerOfTwo(n),
          "recursive-halving-doubling-allreduce needs a power-of-two number of ranks, got " + std::to_string(n));
  dsl::Program p("allreduce_recursive_halving_doubling",
                 {.type = semantics::CollectiveType::AllReduce,
                  .ranks = n,
                  .chunkFactor = n,
                  .form = semantics::CallForm::InPlace},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  for (int32_t count = n / 2; count >= 1; count /= 2)
    for (int32_t r = 0; r < n; ++r) {
      const int32_t peer = r ^ count, index = peer / count * count;
      p.chunk(peer, Buffer::Input, index, count).reduce(p.chunk(r, Buffer::Input, index, count));
    }
  for (int32_t count = 1; count < n; count *= 2)
    for (int32_t r = 0; r < n; ++r) {
      const int32_t index = r / count * count;
      p.chunk(r, Buffer::Input, index, count).copy(r ^ count, Buffer::Input, index);
    }
  return p;
}

}  // namespace ccforge::algorithms
