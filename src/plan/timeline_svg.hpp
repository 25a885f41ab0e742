// The timeline picture of a plan: the compute stream (forward and backward kernels) above the
// communication channel (one box per bucket, labelled with its algorithm), to scale in time.
// Hand-written SVG; the same plan gives byte-identical output.
#pragma once

#include <string>

#include "plan/comm_cost.hpp"
#include "plan/iteration.hpp"
#include "plan/workload.hpp"

namespace ccforge::plan {

std::string timelineSvg(const Workload& workload, const ComputeSchedule& schedule, const BucketPlan& buckets,
                        const CommCost& cost, const std::string& title, double lowerBoundUs);

}  // namespace ccforge::plan
