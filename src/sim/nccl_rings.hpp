// The rings NCCL's search builds on a machine, one per channel, as rank orders: what "the library
// ring with channels as NCCL would use" runs on (tune's candidates, docs/benchmarks.md's
// comparison with measured rings). NVIDIA/nccl src/graph/search.cc packs rings into the links'
// capacity; rings.cc connects them across nodes on each channel's own NIC (docs/simulate.md).
#pragma once

#include <cstdint>
#include <vector>

#include "topology/topology.hpp"

namespace ccforge::sim {

// `channels` rings over every GPU of `topology`. Inside a box whose GPUs meet at a switch, rank
// order; inside a box of direct links, Hamiltonian cycles packed greedily into the links' capacity
// (NCCL's per-channel speed), both directions, reused round robin once the capacity is spent; a
// box without such a cycle keeps rank order. Across boxes, channel c enters every box at the
// c-th GPU of the box's ring, so that the channels leave and enter the boxes on different rails.
std::vector<std::vector<int32_t>> ncclRings(const topo::Topology& topology, int32_t channels);

}  // namespace ccforge::sim
