// The tensor-fusion policies of production systems and the literature, as partitions of the same
// instance, run in the same simulator as the planner (docs/plan.md names each source).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/comm_cost.hpp"
#include "plan/tensor_fusion.hpp"

namespace ccforge::plan {

struct BaselinePartition {
  std::string name;
  std::vector<int32_t> ends;        // bucket ends, as runPartition takes them
  std::vector<double> notBeforeUs;  // per bucket, or empty (Horovod's cycle ticks)
};

inline constexpr uint64_t kMiB = uint64_t{1} << 20;

// One AllReduce per tensor.
BaselinePartition perTensor(const FusionInstance& instance);
// Everything in one bucket, sent after the last gradient.
BaselinePartition oneBucket(const FusionInstance& instance);
// PyTorch DDP: tensors join the open bucket in order; it closes once it holds >= cap bytes
// (the first bucket >= firstCap). Defaults: 25 MiB, first 1 MiB.
inline constexpr int32_t kDdpDefaultCapMb = 25;  // DistributedDataParallel's bucket_cap_mb default
BaselinePartition ddp(const FusionInstance& instance, uint64_t capBytes = kDdpDefaultCapMb * kMiB,
                      uint64_t firstCapBytes = kMiB);
// A combine threshold: a tensor that would take the bucket past `capBytes` starts a new one
// (XLA: 30 MiB + 7).
BaselinePartition threshold(const FusionInstance& instance, uint64_t capBytes, const std::string& name);
// Horovod: every `cycleUs` the background thread fuses the tensors that became ready since the
// last cycle into buckets of at most `capBytes`, which start no earlier than that cycle.
BaselinePartition horovod(const FusionInstance& instance, uint64_t capBytes, double cycleUs, const std::string& name);
// MG-WFBP's greedy merge: walking the tensors in order, tensor k+1 joins the open bucket when the
// bucket could not start before k+1 is ready anyway, or when waiting for it costs less than the
// AllReduce start-up merging saves (c(a) + c(b) - c(a + b)).
BaselinePartition mgwfbp(const FusionInstance& instance, const CommCost& cost);

// All of the above with their default settings, in a fixed order.
std::vector<BaselinePartition> allBaselines(const FusionInstance& instance, const CommCost& cost);

}  // namespace ccforge::plan
