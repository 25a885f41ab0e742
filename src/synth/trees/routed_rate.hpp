// The exact rate of a set of trees on the physical topology: every tree edge is routed the
// way the runtime routes it (sim/routes), every link's load counted, and the rate is what the
// most loaded link allows. Independent of how the trees were made, so it checks the packing
// against the cut bound.
#pragma once

#include "topology/topology.hpp"
#include "synth/trees/arborescence_packing.hpp"

namespace ccforge::synth::trees {

// GB/s per chunk (of M/N): trees of one root carry the root's chunk in treesPerRoot pieces.
// `reversed`: edges (parent, child) move data child -> parent. Throws std::invalid_argument
// when an edge has no route.
topo::Rational routedRate(const topo::Topology& topology, const Packing& trees, bool reversed);

}  // namespace ccforge::synth::trees
