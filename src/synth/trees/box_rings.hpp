// Rings inside boxes whose GPUs are joined by direct links (no switch), for allgather: the
// box's link multigraph (a link of k times the box's smallest GPU-GPU bandwidth counts k
// units) is searched for unit-disjoint Hamiltonian cycles, each used in both directions. A
// ring carries every root's piece around the box; where the reverse of a hop u -> v keeps a
// spare unit after all rings, v's piece is not forwarded the long way round to u but sent
// back over that unit ("truncated"), which takes one piece off the hop into u. On an MI250
// box the eight GCD pairs of one package form a 6-regular multigraph with three such cycles:
// six rings that reach the box's allgather bound exactly (docs/synth-trees.md, "Rings").
//
// On machines of several identical boxes every GPU first sends its share to its rail peer (the
// GPU of the same local index) in every other box; each box's rings then carry the shares of
// every box, one ring pass per source box.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "synth/trees/deadline.hpp"
#include "topology/topology.hpp"

namespace ccforge::synth::trees {

struct BoxRings {
  std::vector<std::vector<int32_t>> boxes;  // ranks by box, in local-index order
  // Each ring: local indices in ring order (the same in every box).
  std::vector<std::vector<int32_t>> rings;
  // truncated[r][i]: in ring r, the piece of ring[r][i] reaches ring[r][i - 1] directly.
  std::vector<std::vector<bool>> truncated;

  int32_t ranks() const { return static_cast<int32_t>(boxes.size() * boxes.front().size()); }
  // Local indices of ring r that root position i's piece visits after it, in order.
  std::vector<int32_t> path(size_t r, size_t i) const;
};

// nullopt when a box has a switch or NIC between its GPUs, links that are not whole
// multiples of its smallest GPU-GPU bandwidth, boxes that differ, GPUs of one rail that cannot
// reach each other directly, or no Hamiltonian cycle within the search's limits. Throws
// SynthesisLimit past the deadline.
std::optional<BoxRings> findBoxRings(const topo::Topology& topology, const Deadline& deadline);

}  // namespace ccforge::synth::trees
