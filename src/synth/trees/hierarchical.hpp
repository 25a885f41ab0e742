// Hierarchical composition for machines of identical boxes: an intra-box broadcast plus an
// inter-box exchange between GPUs of the same local index (the same rail), as trees:
//   root -> every GPU of its box;  the root's piece along its rail to every other box;
//   each rail peer -> every GPU of its own box.
// The rail exchange is a star (the root sends to its rail peer in every box: depth 2) or a chain
// forked at the root (half the boxes ahead on the rail, half behind: a GPU talks to its box and
// its two rail neighbours; depth about boxes / 2 + 1). Every NIC carries boxes - 1 pieces per
// root each way in both. The star gives a GPU (box size - 1) + (boxes - 1) peers, from some size
// on more than a channel has thread blocks for; synthesis lowers each shape that fits and keeps
// the faster (tree_synthesis.cpp). Either is lowered like a packing (tree_programs.hpp). Its
// throughput is what the two levels allow: per GPU, (boxes - 1) chunks over the NIC and
// (box size - 1) * boxes chunks over the intra-box fabric, overlapped; below the cut bound when
// the intra-box fabric is the bottleneck, but with few connections and no dependence on the
// splitting. docs/synth-trees.md compares the two.
#pragma once

#include <cstdint>
#include <vector>

#include "synth/trees/arborescence_packing.hpp"
#include "topology/topology.hpp"

namespace ccforge::synth::trees {

enum class RailShape : uint8_t { Star, Chain };

// Ranks by box, each box's in rank order (entry i: local index i). Throws std::invalid_argument
// unless there are two boxes or more, of equally many GPUs.
std::vector<std::vector<int32_t>> gpusByBox(const topo::Topology& topology);

// The shapes worth lowering: the chain, and the star where a GPU's peers fit `peersPerChannel`
// (on two boxes the two are the same trees: the star only).
std::vector<RailShape> railShapes(const topo::Topology& topology, int32_t peersPerChannel);

// Throws std::invalid_argument when the topology is not boxes of equally many GPUs (at least
// two boxes) whose GPUs of one local index reach each other without another GPU.
Packing hierarchicalTrees(const topo::Topology& topology, RailShape shape);

}  // namespace ccforge::synth::trees
