// All-pairs alltoall (msccl-tools alltoall_allpairs): chunk i of rank r goes straight to
// output chunk r of rank i.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program allPairsAllToAll(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks");
  dsl::Program p("alltoall_allpairs",
                 {.type = semantics::CollectiveType::AllToAll,
                  .ranks = n,
                  .chunkFactor = 1,
                  .form = semantics::CallForm::OutOfPlace},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  for (int32_t r = 0; r < n; ++r)
    for (int32_t i = 0; i < n; ++i) p.chunk(r, Buffer::Input, i).copy(i, Buffer::Output, r);
  return p;
}

}  // namespace ccforge::algorithms
