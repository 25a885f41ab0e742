// Three-step alltoall (MSCCLang paper §7.3, msccl-tools alltoall_a100_three_step), N nodes of G
// GPUs. For each ordered node pair (n1, n2) one GPU of n1 gathers everything n1 sends to n2
// (G x G chunks), sends it in one aggregated transfer to one GPU of n2, which scatters it to the
// destinations. Chunks for the own node go directly.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program threeStepAllToAll(const Arguments& a, ir::Protocol protocol) {
  const int32_t nodes = arg(a, "nodes"), gpus = arg(a, "gpus");
  require(nodes * gpus >= 2, "three-step-alltoall needs at least 2 ranks");
  auto rank = [&](int32_t node, int32_t gpu) { return node * gpus + gpu; };
  // The GPU of node `self` that handles the traffic between `self` and `other`.
  auto handler = [&](int32_t self, int32_t other) { return (other > self ? other - 1 : other) % gpus; };
  const int32_t block = gpus * gpus;
  // Scratch blocks: on each GPU, first those it gathers (by destination node), then those it
  // scatters (by source node).
  std::vector<int32_t> gathered(static_cast<size_t>(nodes * gpus), 0);
  std::vector<int32_t> gatherSlot(static_cast<size_t>(nodes * nodes), 0),
      scatterSlot(static_cast<size_t>(nodes * nodes), 0);
  for (int32_t n1 = 0; n1 < nodes; ++n1)
    for (int32_t n2 = 0; n2 < nodes; ++n2)
      if (n1 != n2)
        gatherSlot[static_cast<size_t>(n1 * nodes + n2)] = gathered[static_cast<size_t>(rank(n1, handler(n1, n2)))]++;
  std::vector<int32_t> scattered(gathered);
  for (int32_t n1 = 0; n1 < nodes; ++n1)
    for (int32_t n2 = 0; n2 < nodes; ++n2)
      if (n1 != n2)
        scatterSlot[static_cast<size_t>(n1 * nodes + n2)] = scattered[static_cast<size_t>(rank(n2, handler(n2, n1)))]++;

  dsl::Program p("alltoall_three_step",
                 {.type = semantics::CollectiveType::AllToAll,
                  .ranks = nodes * gpus,
                  .chunkFactor = 1,
                  .form = semantics::CallForm::OutOfPlace},
                 {.protocol = protocol});
  for (int32_t n1 = 0; n1 < nodes; ++n1)
    for (int32_t g1 = 0; g1 < gpus; ++g1)
      for (int32_t n2 = 0; n2 < nodes; ++n2) {
        if (n1 == n2) {
          for (int32_t g2 = 0; g2 < gpus; ++g2)
            p.chunk(rank(n1, g1), Buffer::Input, rank(n2, g2)).copy(rank(n2, g2), Buffer::Output, rank(n1, g1));
          continue;
        }
        const int32_t at = gatherSlot[static_cast<size_t>(n1 * nodes + n2)] * block + g1 * gpus;
        p.chunk(rank(n1, g1), Buffer::Input, rank(n2, 0), gpus).copy(rank(n1, handler(n1, n2)), Buffer::Scratch, at);
      }
  for (int32_t n1 = 0; n1 < nodes; ++n1)
    for (int32_t n2 = 0; n2 < nodes; ++n2) {
      if (n1 == n2) continue;
      const int32_t from = gatherSlot[static_cast<size_t>(n1 * nodes + n2)] * block;
      const int32_t to = scatterSlot[static_cast<size_t>(n1 * nodes + n2)] * block;
      const int32_t scatterer = rank(n2, handler(n2, n1));
      p.chunk(rank(n1, handler(n1, n2)), Buffer::Scratch, from, block).copy(scatterer, Buffer::Scratch, to);
      for (int32_t g1 = 0; g1 < gpus; ++g1)
        for (int32_t g2 = 0; g2 < gpus; ++g2)
          p.chunk(scatterer, Buffer::Scratch, to + g1 * gpus + g2).copy(rank(n2, g2), Buffer::Output, rank(n1, g1));
    }
  return p;
}

}  // namespace ccforge::algorithms
