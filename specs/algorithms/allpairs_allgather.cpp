// All-pairs allgather (msccl-tools allgather_allpairs): every rank sends its chunk straight to
// every other rank's output.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program allPairsAllGather(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks");
  const semantics::CallForm form = callForm(a);
  dsl::Program p("allgather_allpairs",
                 {.type = semantics::CollectiveType::AllGather, .ranks = n, .chunkFactor = 1, .form = form},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  for (int32_t from = 0; from < n; ++from) {
    const dsl::ChunkRef c = p.chunk(from, Buffer::Input, 0);
    for (int32_t to = 0; to < n; ++to)
      if (to != from || form == semantics::CallForm::OutOfPlace) c.copy(to, Buffer::Output, from);
  }
  return p;
}

}  // namespace ccforge::algorithms
