// What `plan --emit-pytorch` writes: the plan's buckets as a Python module a PyTorch job applies
// (parameter names per bucket and a gradient hook that AllReduces each bucket as soon as its last
// gradient is accumulated), and the DDP `bucket_cap_mb` that comes nearest to the plan.
#pragma once

#include <cstdint>
#include <string>

#include "plan/baselines.hpp"
#include "plan/plan_setting.hpp"
#include "plan/planner.hpp"

namespace ccforge::plan {

// DDP's own bucketing (PyTorch's compute_bucket_assignment_by_size, after its first-iteration
// rebuild in gradient-ready order: the `ddp` baseline) at every whole bucket_cap_mb from 1 to
// kMaxDdpCapMb, run in the planner's simulator; the fastest (the smallest cap on a tie).
inline constexpr int32_t kMaxDdpCapMb = 1024;

struct DdpSetting {
  int32_t capMb = kDdpDefaultCapMb;
  double iterationUs = 0;
  size_t buckets = 0;
  double defaultIterationUs = 0;  // at DDP's default, 25 MB
};

DdpSetting nearestDdpSetting(const ComputeSchedule& schedule, const CommCost& cost, int32_t channels);

// The Python module (docs/plan.md, "Applying a plan in PyTorch"). Deterministic.
std::string pytorchModule(const PlanSetting& setting, const PlanReport& report, const DdpSetting& ddp);
// The text report's paragraph about the module written to `path`.
std::string pytorchModuleText(const std::string& path, const PlanReport& report, const DdpSetting& ddp);

}  // namespace ccforge::plan
