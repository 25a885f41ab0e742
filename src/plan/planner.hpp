// `ccforge plan` as a library call: the tensor-fusion plan (and, on request, the joint operator
// fusion search) for a workload under a bucket cost, next to every baseline and the bounds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/baselines.hpp"
#include "plan/comm_cost.hpp"
#include "plan/disco_search.hpp"
#include "plan/iteration.hpp"
#include "plan/op_fusion.hpp"
#include "plan/workload.hpp"

namespace ccforge::plan {

inline constexpr int32_t kMaxCommChannels = 64;

struct PlanOptions {
  bool opFusion = false;  // run the joint operator + tensor fusion search as well
  // Communication channels the buckets run on (first free channel, in order). The tensor-fusion
  // program and the lower bound are exact for one channel; with more, the one-channel plan and
  // every baseline are run on them, and neither optimality nor the bound is claimed.
  int32_t channels = 1;
  SearchOptions search;
};

struct MethodResult {
  std::string name;
  std::string opFusion;  // "none", "default" (XLA-style element-wise fusion) or "search"
  double iterationUs = 0;
  size_t buckets = 0;
};

struct PlanReport {
  // The plan: operator fusion (none unless searched), its compute schedule, the optimal buckets.
  FusionStrategy strategy;
  ComputeSchedule schedule;
  BucketPlan buckets;
  double iterationUs = 0;
  Bounds bounds;      // for the unfused compute schedule (the methods table)
  Bounds planBounds;  // for the plan's own compute schedule (differs only with operator fusion)
  // Tensor fusion only (no operator fusion): the planner and every baseline, same simulator.
  std::vector<MethodResult> methods;
  // With opFusion: the baselines again with XLA-style default operator fusion, and the search.
  std::vector<MethodResult> fusedMethods;
  Bounds fusedBounds;  // for the default-fused compute schedule
  SearchOptions searchOptions;
  SearchResult search;
  bool searched = false;
};

PlanReport makePlan(const Workload& workload, const CommCost& cost, const PlanOptions& options,
                    const FusedOpEstimator& estimator);

// The tensor-fusion methods of one compute schedule: the planner first, then allBaselines.
std::vector<MethodResult> tensorFusionMethods(const ComputeSchedule& schedule, const CommCost& cost,
                                              const std::string& opFusion, int32_t channels = 1);

}  // namespace ccforge::plan
