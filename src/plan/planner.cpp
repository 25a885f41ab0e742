#include "plan/planner.hpp"

#include <string>

#include <stdexcept>

namespace ccforge::plan {
namespace {

BucketPlan rerun(const FusionInstance& instance, const BucketPlan& plan, const CommCost& cost, int32_t channels) {
  std::vector<int32_t> ends;
  for (const Bucket& b : plan.buckets) ends.push_back(b.last);
  return runPartition(instance, ends, cost, channels);
}

}  // namespace

std::vector<MethodResult> tensorFusionMethods(const ComputeSchedule& schedule, const CommCost& cost,
                                              const std::string& opFusion, int32_t channels) {
  std::vector<MethodResult> out;
  BucketPlan best = optimalPartition(schedule.instance, cost);
  if (channels > 1) best = rerun(schedule.instance, best, cost, channels);
  out.push_back({"planner", opFusion, runIteration(schedule, "planner", best).iterationUs, best.buckets.size()});
  for (const BaselinePartition& b : allBaselines(schedule.instance, cost)) {
    BucketPlan p =
        runPartition(schedule.instance, b.ends, cost, channels, b.notBeforeUs.empty() ? nullptr : &b.notBeforeUs);
    out.push_back({b.name, opFusion, runIteration(schedule, b.name, p).iterationUs, p.buckets.size()});
  }
  return out;
}

PlanReport makePlan(const Workload& w, const CommCost& cost, const PlanOptions& o, const FusedOpEstimator& estimator) {
  if (o.channels < 1 || o.channels > kMaxCommChannels)
    throw std::invalid_argument("channels must be 1 .. " + std::to_string(kMaxCommChannels));
  PlanReport r;
  r.strategy = FusionStrategy::none(w.ops.size());
  r.schedule = computeSchedule(w, r.strategy, estimator);
  r.buckets = optimalPartition(r.schedule.instance, cost);
  if (o.channels > 1) r.buckets = rerun(r.schedule.instance, r.buckets, cost, o.channels);
  r.iterationUs = std::max(r.schedule.computeEndUs, r.buckets.finishUs);
  r.bounds = iterationBounds(r.schedule, cost);
  r.methods = tensorFusionMethods(r.schedule, cost, "none", o.channels);
  r.planBounds = r.bounds;
  if (o.opFusion) {
    ComputeSchedule fused = computeSchedule(w, greedyElementwiseFusion(w), estimator);
    r.fusedMethods = tensorFusionMethods(fused, cost, "default", o.channels);
    r.fusedBounds = iterationBounds(fused, cost);
    r.searchOptions = o.search;
    r.search = discoSearch(w, estimator, cost, o.search);
    r.searched = true;
    if (r.search.iterationUs < r.iterationUs) {
      r.strategy = r.search.strategy;
      r.schedule = computeSchedule(w, r.strategy, estimator);
      r.buckets = optimalPartition(r.schedule.instance, cost);
      if (o.channels > 1) r.buckets = rerun(r.schedule.instance, r.buckets, cost, o.channels);
      r.iterationUs = std::max(r.schedule.computeEndUs, r.buckets.finishUs);
      r.planBounds = iterationBounds(r.schedule, cost);
    }
  }
  return r;
}

}  // namespace ccforge::plan
