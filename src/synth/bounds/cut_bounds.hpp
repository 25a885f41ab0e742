// Bandwidth bounds that single-commodity max-flows decide exactly (topologies.md, "Exact
// bounds"). Switches and NICs are vertices that forward but hold no data. All results in
// GB/s, exact.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/topology.hpp"

namespace ccforge::synth {

using topo::Rational;

// min over vertex sets S holding a GPU and missing one of  cap(links leaving S) / |GPUs in S|:
// the rate (per chunk of M/N) at which allgather can move data; reducescatter on the
// reversed links. Found by parametric (Dinkelbach) search over max-flow tests.
Rational allGatherRate(const topo::Topology& topology, bool reversed);

// The GPUs (vertex ids) allGatherRate tests as sinks, one max-flow each: a test is the same up to
// symmetry for GPUs that an automorphism maps onto each other, so on a machine of identical boxes
// whose box rotation (boxes.hpp) is an automorphism only one box's GPUs; else every GPU.
std::vector<int32_t> allGatherSinks(const topo::Topology& topology);

// min over S holding `rootRank` and missing a GPU of  cap(links leaving S) / |GPUs not in S|:
// the rate per chunk of scatter from the root; gather on the reversed links.
Rational scatterRate(const topo::Topology& topology, int32_t rootRank, bool reversed);

// An alltoall bound from cuts alone, for machines whose exact LP (concurrent_flow.hpp) is past its
// size: min over S of cap(links leaving S) / (|GPUs in S| x |GPUs outside S|), S each GPU and each
// box (its GPUs and the switches only they reach, with and without the box's NICs). Every pair
// of GPUs exchanges one chunk, so this is a valid bound, at least the LP's; on rail-optimized
// machines whose NICs are the bottleneck the box cut is the LP's optimum.
Rational allToAllCutRate(const topo::Topology& topology);

// min over GPUs v != root of maxflow(root, v): the broadcast rate; reduce on the reversed links.
Rational broadcastRate(const topo::Topology& topology, int32_t rootRank, bool reversed);

}  // namespace ccforge::synth
