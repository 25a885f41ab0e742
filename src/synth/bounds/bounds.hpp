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
#include <optional>
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
  semantics::CollectiveType collective = semantics::CollectiveType::AllGather;
  int32_t root = -1;  // rank, for rooted collectives
  int32_t stepsLowerBound = 0;
  topo::Rational roundsPerChunkLowerBound;
  topo::Rational algbwUpperBoundGBps;
  std::string method;     // how the bandwidth bound was obtained, for reports
  bool inSwitch = false;  // allreduce with the reduction in the switch (inSwitchAllReduceBound)
};

// The collectives with a bound, in report order.
const std::vector<semantics::CollectiveType>& boundedCollectives();

// Allreduce is bounded as reducescatter + allgather (see docs/bounds.md). Throws
// LimitExceeded (an std::invalid_argument) past limits::kMaxBoundsWork, and
// std::invalid_argument for a collective without a bound (custom), a root
// out of range or a topology with fewer than 2 GPUs; InputError (naming the topology's file)
// when a GPU the collective needs cannot reach another; BoundsLimit past a work limit.
CollectiveBound collectiveBound(const topo::Topology& topology, semantics::CollectiveType collective, int32_t root = 0);

// Where the NVSwitches reduce (Topology::nvls, NCCL's NVLS and NVLSTree): allreduce with the
// reduction in the switch, which the reducescatter + allgather bound does not cover (an H100
// box's NVLS beats it). Each GPU sends its buffer to its box's switches once and takes the result
// once: algbw <= its switch link (the smaller direction, the weakest GPU); across B boxes each box
// also sends and takes (B - 1)/B of the reduced buffer twice over its network links: algbw <=
// box network x B / (2 (B - 1)). Steps: 1 in one box, else allgather's. nullopt without NVLS.
std::optional<CollectiveBound> inSwitchAllReduceBound(const topo::Topology& topology);

}  // namespace ccforge::synth
