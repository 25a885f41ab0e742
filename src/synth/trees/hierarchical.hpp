// Hierarchical composition for machines of identical boxes: an intra-box broadcast plus an
// inter-box exchange between GPUs of the same local index (the same rail), as trees:
//   root -> every GPU of its box;  root -> its rail peer in every other box;
//   each rail peer -> every GPU of its own box.
// One tree per root of depth 2 (a star on the rail) while a GPU's peers, (box size - 1) +
// (boxes - 1), fit the thread blocks a channel has for them; on more boxes the rail exchange is
// a chain forked at the root, half the boxes ahead on the rail and half behind, so that a GPU
// talks to its box and its two rail neighbours (depth about boxes / 2 + 1; every NIC still
// carries boxes - 1 pieces per root each way, as in the star). Either is lowered like a packing
// (tree_programs.hpp). Its throughput is what the two levels allow: per GPU, (boxes - 1) chunks
// over the NIC and (box size - 1) * boxes chunks over the intra-box fabric, overlapped; below the
// cut bound when the intra-box fabric is the bottleneck, but with few connections and no
// dependence on the splitting. docs/synth-trees.md compares the two.
#pragma once

#include "topology/topology.hpp"
#include "synth/trees/arborescence_packing.hpp"

namespace ccforge::synth::trees {

// Throws std::invalid_argument when the topology is not boxes of equally many GPUs (at least
// two boxes) whose GPUs of one local index reach each other without another GPU.
Packing hierarchicalTrees(const topo::Topology& topology, int32_t peersPerChannel);

}  // namespace ccforge::synth::trees
