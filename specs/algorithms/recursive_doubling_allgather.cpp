// Recursive doubling allgather (msccl-tools allgather_recursive_doubling, Thakur et al.): in
// round d = 1, 2, 4, ... rank r exchanges the block of d chunks it has with rank r^d.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program recursiveDoublingAllGather(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks");
  require(powerOfTwo(n), "recursive-doubling-allgather needs a power-of-two number of ranks, got " + std::to_string(n));
  const semantics::CallForm form = callForm(a);
  dsl::Program p("allgather_recursive_doubling",
                 {.type = semantics::CollectiveType::AllGather, .ranks = n, .chunkFactor = 1, .form = form},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  if (form == semantics::CallForm::OutOfPlace)
    for (int32_t r = 0; r < n; ++r) p.chunk(r, Buffer::Input, 0).copy(r, Buffer::Output, r);
  for (int32_t count = 1; count < n; count *= 2)
    for (int32_t r = 0; r < n; ++r) {
      const int32_t index = r / count * count;
      p.chunk(r, Buffer::Output, index, count).copy(r ^ count, Buffer::Output, index);
    }
  return p;
}

}  // namespace ccforge::algorithms
