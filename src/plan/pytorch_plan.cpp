#include "plan/pytorch_plan.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "plan/baselines.hpp"
#include "plan/iteration.hpp"

namespace ccforge::plan {
namespace {

double ddpIterationUs(const ComputeSchedule& schedule, const CommCost& cost, int32_t channels, int32_t capMb,
                      size_t* buckets) {
  const BaselinePartition p = ddp(schedule.instance, static_cast<uint64_t>(capMb) * kMiB);
  const BucketPlan plan = runPartition(schedule.instance, p.ends, cost, channels);
  if (buckets) *buckets = plan.buckets.size();
  return runIteration(schedule, "ddp", plan).iterationUs;
}

double percentOverPlan(const DdpSetting& ddp, const PlanReport& report) {
  return 100.0 * (ddp.iterationUs / report.iterationUs - 1.0);
}

// Text from the inputs (a workload's name, a file path, a topology's name) inside a Python comment
// of the module: a line break there would start a line of code, so control characters become spaces.
std::string commentText(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return s;
}

// The hook itself: fixed text, so that what a job runs does not depend on the plan.
constexpr const char* kHookSource = R"py(

class PlannedBuckets:
    """AllReduces a model's gradients in BUCKETS: each bucket, flattened into one tensor, as soon
    as the last of its gradients has been accumulated during backward. Call synchronize() after
    loss.backward() (before optimizer.step()): it waits for every bucket and writes the averaged
    gradients back. Use it instead of DistributedDataParallel's gradient reduction (a model that is
    not wrapped in DDP, its replicas initialised alike)."""

    def __init__(self, model, process_group=None, buckets=BUCKETS):
        import torch.distributed as dist
        self._dist = dist
        self._group = process_group
        params = dict(model.named_parameters())
        planned = [name for bucket in buckets for name in bucket]
        if len(set(planned)) != len(planned):
            raise ValueError("a parameter is planned in two buckets")
        unknown = [name for name in planned if name not in params]
        unplanned = [name for name, p in params.items() if p.requires_grad and name not in set(planned)]
        frozen = [name for name in planned if name in params and not params[name].requires_grad]
        if unknown or unplanned or frozen:
            raise ValueError("the plan does not match the model: not parameters of the model: %s; "
                             "trainable parameters in no bucket: %s; planned but frozen: %s"
                             % (unknown[:5], unplanned[:5], frozen[:5]))
        self.buckets = [[params[name] for name in bucket] for bucket in buckets]
        self.launched = []  # bucket indices in the order their AllReduces started, this step
        self._pending = [len(bucket) for bucket in self.buckets]
        self._work = [None] * len(self.buckets)
        self._accumulators = []  # kept alive: a hook lives as long as its node
        for k, bucket in enumerate(self.buckets):
            for p in bucket:
                accumulator = p.expand_as(p).grad_fn.next_functions[0][0]
                accumulator.register_hook(self._on_accumulated(k))
                self._accumulators.append(accumulator)

    def _on_accumulated(self, k):
        def hook(*_):
            self._pending[k] -= 1
            if self._pending[k] == 0:
                self._launch(k)
        return hook

    def _launch(self, k):
        import torch
        flat = torch.cat([p.grad.reshape(-1) for p in self.buckets[k]])
        self._work[k] = (self._dist.all_reduce(flat, group=self._group, async_op=True), flat)
        self.launched.append(k)

    def synchronize(self):
        world = self._dist.get_world_size(self._group)
        missing = [k for k, work in enumerate(self._work) if work is None]
        if missing:
            raise RuntimeError("buckets %s never became ready: a planned parameter got no gradient" % missing[:5])
        for k, bucket in enumerate(self.buckets):
            work, flat = self._work[k]
            work.wait()
            flat.div_(world)
            offset = 0
            for p in bucket:
                n = p.numel()
                p.grad.copy_(flat[offset:offset + n].view_as(p.grad))
                offset += n
        self._pending = [len(bucket) for bucket in self.buckets]
        self._work = [None] * len(self.buckets)
        self.launched = []
)py";

}  // namespace

DdpSetting nearestDdpSetting(const ComputeSchedule& schedule, const CommCost& cost, int32_t channels) {
  DdpSetting best;
  best.defaultIterationUs = ddpIterationUs(schedule, cost, channels, kDdpDefaultCapMb, nullptr);
  for (int32_t capMb = 1; capMb <= kMaxDdpCapMb; ++capMb) {
    size_t buckets = 0;
    const double us = ddpIterationUs(schedule, cost, channels, capMb, &buckets);
    if (capMb == 1 || us < best.iterationUs) best = {capMb, us, buckets, best.defaultIterationUs};
  }
  return best;
}

std::string pytorchModule(const PlanSetting& setting, const PlanReport& report, const DdpSetting& ddp) {
  const ComputeSchedule& s = report.schedule;
  std::string out = fmt::format(
      "# Written by `ccforge plan` for the workload {} ({}) with {}.\n"
      "# The plan's gradient buckets by parameter name, in the order their AllReduces run (the order\n"
      "# their gradients become ready), and PlannedBuckets, which applies them (docs/plan.md).\n\n",
      commentText(setting.workload.name), commentText(setting.workload.source), commentText(setting.costName));
  out += "BUCKETS = [\n";
  for (const Bucket& b : report.buckets.buckets) {
    out += "    [";
    for (int32_t i = b.first; i <= b.last; ++i)
      out += (i > b.first ? ", " : "") +
             nlohmann::json(setting.workload.tensors[static_cast<size_t>(s.tensorOrder[static_cast<size_t>(i)])].name)
                 .dump();
    out += fmt::format("],  # {} bytes\n", b.bytes);
  }
  out += "]\n\n";
  out += fmt::format("PLAN_ITERATION_US = {:.1f}\n", report.iterationUs);
  out += fmt::format(
      "# The nearest DistributedDataParallel setting: DDP(model, bucket_cap_mb=BUCKET_CAP_MB) makes {} buckets,\n"
      "# predicted {:.1f} us per iteration ({:+.1f} % against the plan; DDP's default 25 MB: {:.1f} us).\n",
      ddp.buckets, ddp.iterationUs, percentOverPlan(ddp, report), ddp.defaultIterationUs);
  out += fmt::format("BUCKET_CAP_MB = {}\n", ddp.capMb);
  out += fmt::format("DDP_ITERATION_US = {:.1f}\n", ddp.iterationUs);
  out += kHookSource;
  return out;
}

std::string pytorchModuleText(const std::string& path, const PlanReport& report, const DdpSetting& ddp) {
  return fmt::format(
      "\nPyTorch: wrote {} ({} bucket{}, PlannedBuckets applies them); the nearest DDP setting, bucket_cap_mb={}, "
      "predicts {:.3f} ms ({:+.1f} % against the plan; the default 25: {:.3f} ms)\n",
      path, report.buckets.buckets.size(), report.buckets.buckets.size() == 1 ? "" : "s", ddp.capMb,
      ddp.iterationUs / 1000.0, percentOverPlan(ddp, report), ddp.defaultIterationUs / 1000.0);
}

}  // namespace ccforge::plan
