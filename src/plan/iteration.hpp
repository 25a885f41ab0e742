// The iteration simulator (docs/plan.md): one compute stream runs the workload's ops, fused into
// kernels by an operator-fusion strategy, in list order; a gradient tensor is ready when the
// kernel holding its last producer ends; its bucket's AllReduce then runs on a communication
// channel (tensor_fusion.hpp). The iteration ends when both streams are done.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/comm_cost.hpp"
#include "plan/op_fusion.hpp"
#include "plan/tensor_fusion.hpp"
#include "plan/workload.hpp"

namespace ccforge::plan {

struct ComputeSchedule {
  std::vector<Kernel> kernels;
  double forwardEndUs = 0;
  double computeEndUs = 0;
  std::vector<int32_t> tensorOrder;  // workload tensors in bucket order (ready time, then backward order)
  FusionInstance instance;           // sizes and ready times in that order
};

ComputeSchedule computeSchedule(const Workload& workload, const FusionStrategy& strategy,
                                const FusedOpEstimator& estimator);
ComputeSchedule computeSchedule(const Workload& workload, const std::vector<std::vector<int32_t>>& consumers,
                                const FusionStrategy& strategy, const FusedOpEstimator& estimator);

struct IterationResult {
  std::string method;
  BucketPlan buckets;
  double iterationUs = 0;
};

// The iteration of a bucket plan of the schedule's instance: the later of compute end and last bucket.
IterationResult runIteration(const ComputeSchedule& schedule, const std::string& method, const BucketPlan& buckets);

struct Bounds {
  double lowerBoundUs = 0;       // max(compute end, comm bounds of tensor_fusion.hpp): no plan on one channel beats it
  double fullyOverlappedUs = 0;  // DisCo's FO: max(compute, cheapest total communication), dependencies ignored
};
Bounds iterationBounds(const ComputeSchedule& schedule, const CommCost& cost);

}  // namespace ccforge::plan
