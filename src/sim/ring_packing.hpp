// Rings packed into a graph's link capacity: the most Hamiltonian cycles a box of GPUs joined by
// direct links holds, each directed link carrying at most its units (channels of one speed). NCCL's
// topology search packs its rings so (NVIDIA/nccl src/graph/search.cc); the NCCL model counts them
// (sim/nccl_machine.hpp) and the library's rings follow them (sim/nccl_rings.hpp).
#pragma once

#include <cstdint>
#include <vector>

namespace ccforge::sim {

// units[from][to]: how many rings the directed link from GPU `from` to GPU `to` carries. At most
// `limit` cycles, each a rank order from GPU 0; among packings of equal size the first found
// (cycles in depth-first order, lowest indexes first). Searches are bounded (kRingSearchBudget
// steps): past it, the best found so far.
std::vector<std::vector<int32_t>> packRings(const std::vector<std::vector<int32_t>>& units, int32_t limit);

inline constexpr int64_t kRingSearchBudget = 1'000'000;

}  // namespace ccforge::sim
