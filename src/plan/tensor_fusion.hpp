// Tensor fusion: which gradient tensors share an AllReduce. A plan cuts the tensors, in the order
// their gradients become ready, into contiguous buckets; the buckets are AllReduced in that order,
// each starting when its last gradient is ready and a channel is free (docs/plan.md).
//
// On one channel the dynamic program
//   f(0) = start, f(j) = min over i < j of max(R(i+1..j), f(i)) + c(S(i+1..j))
// (R the latest ready time, S the bytes of the tensors i+1..j) is optimal for any bucket cost
// c: for a fixed last bucket the finish time does not decrease with f(i), so keeping the
// earliest finish of each prefix loses nothing. With c the minimum over algorithms it chooses
// the partition and every bucket's algorithm together.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/comm_cost.hpp"

namespace ccforge::plan {

inline constexpr size_t kMaxFusionTensors = 20'000;  // the program is O(L^2) in the worst case

struct FusionInstance {
  std::vector<uint64_t> bytes;  // per tensor, in bucket order
  std::vector<double> readyUs;  // when each gradient is complete
  double channelFreeUs = 0;     // when the channels can first be used
};

struct Bucket {
  int32_t first = 0;  // tensors first..last (inclusive), in instance order
  int32_t last = 0;
  uint64_t bytes = 0;
  int32_t algorithm = -1;  // index into the cost's curves
  int32_t channel = 0;
  double startUs = 0;
  double finishUs = 0;
};

struct BucketPlan {
  std::vector<Bucket> buckets;
  double finishUs = 0;  // when the last bucket is done (channelFreeUs when there is none)
};

// The iteration simulator's communication side: runs the partition whose buckets end at `ends`
// (ascending, the last = tensor count - 1) in order; each bucket takes the first channel to be
// free (lowest index on ties), starts at max(latest ready time, channel free, notBefore[k]) and
// takes c(bytes) with the cheapest algorithm. Throws std::invalid_argument on a malformed
// partition or channels < 1.
BucketPlan runPartition(const FusionInstance& instance, const std::vector<int32_t>& ends, const CommCost& cost,
                        int32_t channels = 1, const std::vector<double>* notBefore = nullptr);

// The dynamic program above, one channel. Throws std::invalid_argument past kMaxFusionTensors
// or when sizes and ready times differ in length.
BucketPlan optimalPartition(const FusionInstance& instance, const CommCost& cost);

// Lower bounds for any contiguous plan on one channel, ignoring how compute and communication
// interleave: max(last ready + cheapest bucket holding the last tensor,
//                 first ready + cheapest total over all partitions).
struct CommBounds {
  double lowerBoundUs = 0;
  double minTotalCommUs = 0;  // min over partitions of the sum of bucket costs
};
CommBounds commBounds(const FusionInstance& instance, const CommCost& cost);

}  // namespace ccforge::plan
