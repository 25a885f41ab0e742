#include "plan/iteration.hpp"

#include <algorithm>
#include <numeric>

namespace ccforge::plan {

ComputeSchedule computeSchedule(const Workload& w, const FusionStrategy& s, const FusedOpEstimator& estimator) {
  return computeSchedule(w, consumersOf(w), s, estimator);
}

ComputeSchedule computeSchedule(const Workload& w, const std::vector<std::vector<int32_t>>& consumers,
                                const FusionStrategy& s, const FusedOpEstimator& estimator) {
  ComputeSchedule out;
  out.kernels = kernelsOf(w, consumers, s, estimator);
  std::vector<double> opEnd(w.ops.size(), 0);
  double t = 0;
  for (Kernel& k : out.kernels) {
    k.startUs = t;
    t += k.timeUs;
    k.endUs = t;
    for (int32_t op = k.firstOp; op <= k.lastOp; ++op) opEnd[static_cast<size_t>(op)] = t;
    if (k.phase == Phase::Forward) out.forwardEndUs = t;
  }
  out.computeEndUs = t;
  std::vector<double> ready(w.tensors.size(), 0);
  for (size_t i = 0; i < w.tensors.size(); ++i)
    for (int32_t p : w.tensors[i].producers) ready[i] = std::max(ready[i], opEnd[static_cast<size_t>(p)]);
  out.tensorOrder.resize(w.tensors.size());
  std::iota(out.tensorOrder.begin(), out.tensorOrder.end(), 0);
  // Ready time first; among tensors ready together, backward (reverse declaration) order.
  std::sort(out.tensorOrder.begin(), out.tensorOrder.end(), [&](int32_t a, int32_t b) {
    if (ready[static_cast<size_t>(a)] != ready[static_cast<size_t>(b)])
      return ready[static_cast<size_t>(a)] < ready[static_cast<size_t>(b)];
    return a > b;
  });
  for (int32_t t2 : out.tensorOrder) {
    out.instance.bytes.push_back(w.tensors[static_cast<size_t>(t2)].bytes);
    out.instance.readyUs.push_back(ready[static_cast<size_t>(t2)]);
  }
  out.instance.channelFreeUs = 0;
  return out;
}

IterationResult runIteration(const ComputeSchedule& schedule, const std::string& method, const BucketPlan& buckets) {
  IterationResult r;
  r.method = method;
  r.buckets = buckets;
  r.iterationUs = std::max(schedule.computeEndUs, buckets.finishUs);
  return r;
}

Bounds iterationBounds(const ComputeSchedule& schedule, const CommCost& cost) {
  CommBounds c = commBounds(schedule.instance, cost);
  Bounds b;
  b.lowerBoundUs = std::max(schedule.computeEndUs, c.lowerBoundUs);
  b.fullyOverlappedUs = std::max(schedule.computeEndUs, c.minTotalCommUs);
  return b;
}

}  // namespace ccforge::plan
