// Exact lower bounds on the time of a collective on a topology (docs/bounds.md): a steps
// bound from hop distances and a bandwidth bound as an exact rational.
//
// For a collective of M bytes (nccl-tests' size: allgather output, reducescatter input,
// alltoall per-rank buffer, broadcast/reduce buffer, scatter/gather root buffer) on N GPUs,
// "a chunk" is M/N, except for broadcast and reduce where it is M. Then
//   time >= roundsPerChunk * (chunk bytes) / (unit bandwidth of the topology), and
//   algbw = M / time <= algbwUpperBound.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "semantics/collective.hpp"
#include "topology/topology.hpp"

namespace ccforge::synth {

// A bound that needs more work than allowed (the alltoall LP of a large, barely symmetric
// topology); reported as inconclusive.
class BoundsLimit : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CollectiveBound {
  CollectiveType collective = CollectiveType::AllGather;
  int32_t root = -1;  // rank, for rooted collectives
  int32_t stepsLowerBound = 0;
  topo::Rational roundsPerChunkLowerBound;
  topo::Rational algbwUpperBoundGBps;
  std::string method;  // how the bandwidth bound was obtained, for reports
};

// The collectives with a bound, in report order.
const std::vector<CollectiveType>& boundedCollectives();

// Allreduce is bounded as reducescatter + allgather (see docs/bounds.md). Throws
// LimitExceeded (an std::invalid_argument) past limits::kMaxBoundsWork, and
// std::invalid_argument for a collective without a bound (custom), a root
// out of range or a topology with fewer than 2 GPUs; InputError (naming the topology's file)
// when a GPU the collective needs cannot reach another; BoundsLimit past a work limit.
CollectiveBound collectiveBound(const topo::Topology& topology, CollectiveType collective, int32_t root = 0);

}  // namespace ccforge::synth
