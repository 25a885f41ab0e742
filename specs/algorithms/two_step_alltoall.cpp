// Two-step alltoall (MSCCLang paper §7.3, msccl-tools alltoall_a100_two_step), N nodes of G
// GPUs. Step 1: GPU (n1,g1) copies its chunk for (n2,g2) to (n1,g2), the GPU with the same local
// index as the destination, into the scratch block kept for node n2. Step 2: (n1,g) sends that
// block of G chunks to (n2,g) in one aggregated transfer. Chunks for the own node go directly.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program twoStepAllToAll(const Arguments& a, ir::Protocol protocol) {
  const int32_t nodes = arg(a, "nodes"), gpus = arg(a, "gpus");
  require(nodes * gpus >= 2, "two-step-alltoall needs at least 2 ranks");
  auto rank = [&](int32_t node, int32_t gpu) { return node * gpus + gpu; };
  // Scratch block of node `to` on the GPUs of node `from`: 0 .. nodes-2.
  auto block = [&](int32_t from, int32_t to) { return (to - from - 1 + nodes) % nodes; };
  dsl::Program p("alltoall_two_step",
                 {.type = semantics::CollectiveType::AllToAll,
                  .ranks = nodes * gpus,
                  .chunkFactor = 1,
                  .form = semantics::CallForm::OutOfPlace},
                 {.protocol = protocol});
  for (int32_t n1 = 0; n1 < nodes; ++n1)
    for (int32_t n2 = 0; n2 < nodes; ++n2) {
      if (n1 == n2) continue;
      for (int32_t g1 = 0; g1 < gpus; ++g1)
        for (int32_t g2 = 0; g2 < gpus; ++g2)
          p.chunk(rank(n1, g1), Buffer::Input, rank(n2, g2))
              .copy(rank(n1, g2), Buffer::Scratch, block(n1, n2) * gpus + g1);
    }
  for (int32_t n1 = 0; n1 < nodes; ++n1)
    for (int32_t n2 = 0; n2 < nodes; ++n2) {
      if (n1 == n2) continue;
      for (int32_t g = 0; g < gpus; ++g)
        p.chunk(rank(n1, g), Buffer::Scratch, block(n1, n2) * gpus, gpus)
            .copy(rank(n2, g), Buffer::Output, rank(n1, 0));
    }
  for (int32_t n = 0; n < nodes; ++n)
    for (int32_t g1 = 0; g1 < gpus; ++g1)
      for (int32_t g2 = 0; g2 < gpus; ++g2)
        p.chunk(rank(n, g1), Buffer::Input, rank(n, g2)).copy(rank(n, g2), Buffer::Output, rank(n, g1));
  return p;
}

}  // namespace ccforge::algorithms
