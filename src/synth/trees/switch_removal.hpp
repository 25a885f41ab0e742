// Switch removal (ForestColl's edge splitting): turns a topology with switches and NICs into
// a graph on its GPUs alone whose capacities still admit the allgather rate of the original.
//
// Capacities are scaled so that the rate is `treesPerRoot` per time unit: k out-trees per root,
// each carrying 1/k of the root's chunk. A pair of links u -> w -> t through a switch or NIC w
// is split off by gamma (both lowered by gamma, u -> t raised by gamma) only while every GPU
// keeps connectivity k*N from a super source with capacity k to each GPU (Edmonds' condition
// for k arborescences per root). A GPU-to-GPU edge is only created through a vertex on the
// route the runtime would take between them (sim/routes), so the logical graph matches the
// wires the simulator and the hardware use.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "topology/topology.hpp"
#include "synth/trees/capacity_graph.hpp"
#include "synth/trees/deadline.hpp"

namespace ccforge::synth::trees {

// The packing would need more trees per root than allowed: this composition has no schedule
// (the others of a run still go on).
class TreeCountLimit : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct LogicalGraph {
  CapacityGraph graph{0};    // vertices are ranks; fromSource(r) = treesPerRoot
  int64_t treesPerRoot = 0;  // below the original rate's when the route rule left capacity behind
  int64_t maxFlows = 0;
};

// `reversed`: on the reversed links (reducescatter's in-trees become out-trees). `rateGBps` is
// the topology's allgather rate (synth/bounds' allGatherRate). Throws TreeCountLimit when more
// than `maxTreesPerRoot` trees per root would be needed, SynthesisLimit past the deadline.
LogicalGraph removeSwitches(const topo::Topology& topology, bool reversed, const topo::Rational& rateGBps,
                            int64_t maxTreesPerRoot, const Deadline& deadline);

}  // namespace ccforge::synth::trees
