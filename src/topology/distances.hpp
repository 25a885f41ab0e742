// Distances between GPUs counted in GPU-to-GPU transfers ("steps"): a route through
// switches and NICs is one step, since one IR connection carries it.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "topology/topology.hpp"

namespace ccforge::topo {

inline constexpr int32_t kUnreachable = -1;

// [from rank][to rank]: the fewest steps, kUnreachable when there is no route.
std::vector<std::vector<int32_t>> stepDistances(const Topology& topology);

// The first (from rank, to rank) pair without a route, in rank order; nullopt when every
// GPU reaches every other.
std::optional<std::pair<int32_t, int32_t>> firstUnreachablePair(const std::vector<std::vector<int32_t>>& distances);

// Largest step distance; nullopt when some pair is unreachable.
std::optional<int32_t> diameter(const std::vector<std::vector<int32_t>>& distances);

}  // namespace ccforge::topo
