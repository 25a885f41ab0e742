// All-pairs allreduce (msccl-tools allreduce_a100_allpairs): rank r owns chunk r. Every rank
// sends its copy of chunk q to rank q's scratch, each rank reduces its chunk locally, then
// sends the sum to every other rank. Two communication steps, N-1 peers each.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program allPairsAllReduce(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks");
  const bool inplace = arg(a, "inplace") != 0;
  // Scratch slot on rank `to` for the copy coming from rank `from`.
  auto slot = [](int32_t from, int32_t to) { return from < to ? from : from - 1; };
  dsl::Program p("allpairs_allreduce",
                 {.type = semantics::CollectiveType::AllReduce,
                  .ranks = n,
                  .chunkFactor = n,
                  .form = inplace ? semantics::CallForm::InPlace : semantics::CallForm::OutOfPlace},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  // Out of place each rank sums its chunk into its output (the input is the caller's const buffer).
  const Buffer sums = inplace ? Buffer::Input : Buffer::Output;
  for (int32_t from = 0; from < n; ++from)
    for (int32_t to = 0; to < n; ++to)
      if (from != to) p.chunk(from, Buffer::Input, to).copy(to, Buffer::Scratch, slot(from, to));
  for (int32_t r = 0; r < n; ++r) {
    dsl::ChunkRef c = p.chunk(r, Buffer::Input, r);
    if (!inplace) c = c.copy(r, Buffer::Output, r);
    for (int32_t from = 0; from < n; ++from)
      if (from != r) c = c.reduce(p.chunk(r, Buffer::Scratch, slot(from, r)));
  }
  for (int32_t from = 0; from < n; ++from)
    for (int32_t to = 0; to < n; ++to)
      if (from != to) p.chunk(from, sums, from).copy(to, sums, from);
  return p;
}

}  // namespace ccforge::algorithms
