// The alltoall bandwidth bound: the largest rate at which every GPU can send to every other
// GPU at the same time (maximum concurrent multi-commodity flow, uniform demands), exact.
#pragma once

#include <cstdint>

#include "topology/topology.hpp"

namespace ccforge::synth {

struct ConcurrentFlow {
  topo::Rational rate;  // GB/s per (source, destination) pair
  int32_t rows = 0;     // of the symmetry-reduced master LP
  int32_t columns = 0;  // routing trees generated
  int64_t pivots = 0;   // floating-point then exact
};

// Column generation over shortest-path routing trees on an LP reduced by the topology's
// automorphisms, solved in floating point and then finished and proven in exact rationals.
// The answer is checked against the dual (a length per link); a mismatch throws
// std::logic_error. Requires every GPU to reach every other. Throws std::length_error when
// the reduced LP has more than kMaxAllToAllRows rows.
inline constexpr int32_t kMaxAllToAllRows = 2000;
ConcurrentFlow allToAllRate(const topo::Topology& topology);

}  // namespace ccforge::synth
