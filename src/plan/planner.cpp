#include "plan/planner.hpp"

namespace ccforge::plan {

std::vector<MethodResult> tensorFusionMethods(const ComputeSchedule& schedule, const CommCost& cost,
                                              const std::string& opFusion) {
  std::vector<MethodResult> out;
  BucketPlan best = optimalPartition(schedule.instance, cost);
  out.push_back({"planner", opFusion, runIteration(schedule, "planner", best).iterationUs, best.buckets.size()});
  for (const BaselinePartition& b : allBaselines(schedule.instance, cost)) {
    BucketPlan p = runPartition(schedule.instance, b.ends, cost, 1, b.notBeforeUs.empty() ? nullptr : &b.notBeforeUs);
    out.push_back({b.name, opFusion, runIteration(schedule, b.name, p).iterationUs, p.buckets.size()});
  }
  return out;
}

PlanReport makePlan(const Workload& w, const CommCost& cost, const PlanOptions& o, const FusedOpEstimator& estimator) {
  PlanReport r;
  r.strategy = FusionStrategy::none(w.ops.size());
  r.schedule = computeSchedule(w, r.strategy, estimator);
  r.buckets = optimalPartition(r.schedule.instance, cost);
  r.iterationUs = std::max(r.schedule.computeEndUs, r.buckets.finishUs);
  r.bounds = iterationBounds(r.schedule, cost);
  r.methods = tensorFusionMethods(r.schedule, cost, "none");
  r.planBounds = r.bounds;
  if (o.opFusion) {
    ComputeSchedule fused = computeSchedule(w, greedyElementwiseFusion(w), estimator);
    r.fusedMethods = tensorFusionMethods(fused, cost, "default");
    r.fusedBounds = iterationBounds(fused, cost);
    r.search = discoSearch(w, estimator, cost, o.search);
    r.searched = true;
    if (r.search.iterationUs < r.iterationUs) {
      r.strategy = r.search.strategy;
      r.schedule = computeSchedule(w, r.strategy, estimator);
      r.buckets = optimalPartition(r.schedule.instance, cost);
      r.iterationUs = std::max(r.schedule.computeEndUs, r.buckets.finishUs);
      r.planBounds = iterationBounds(r.schedule, cost);
    }
  }
  return r;
}

}  // namespace ccforge::plan
