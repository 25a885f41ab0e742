// Operator fusion in DisCo's space (docs/plan.md): fuse an op with its producer into one kernel
// (non-duplicating), or recompute an element-wise producer inside its consumer's kernel
// (duplicating). Kernels are contiguous runs of the op list, so the serial compute stream still
// runs every op after its inputs. What a fused kernel costs comes from a pluggable estimator.
#pragma once

#include <cstdint>
#include <vector>

#include "plan/workload.hpp"

namespace ccforge::plan {

inline constexpr int32_t kMaxKernelOps = 32;

struct FusionStrategy {
  std::vector<uint8_t> joinNext;   // [i]: op i and op i+1 run in one kernel
  std::vector<uint8_t> duplicate;  // [i]: op i, the last of its kernel, is also recomputed in the next kernel
  static FusionStrategy none(size_t ops);
};

struct Kernel {
  int32_t firstOp = 0;
  int32_t lastOp = 0;
  std::vector<int32_t> duplicated;  // producers recomputed at the start of this kernel
  Phase phase = Phase::Forward;
  double timeUs = 0;
  double startUs = 0;
  double endUs = 0;
};

// Estimates fused kernels. Implementations must be deterministic; a single op must cost its
// own time_us.
class FusedOpEstimator {
 public:
  virtual ~FusedOpEstimator() = default;
  // `consumers` is consumersOf(workload).
  virtual double estimateUs(const Workload& workload, const std::vector<std::vector<int32_t>>& consumers,
                            int32_t firstOp, int32_t lastOp, const std::vector<int32_t>& duplicated) const = 0;
  // Whether the kernel [firstOp, lastOp], which holds more than one heavy op, is one this
  // estimator prices honestly; the search forms such kernels only then. Default: never.
  virtual bool pricesSeveralHeavyOps(const Workload& /*workload*/,
                                     const std::vector<std::vector<int32_t>>& /*consumers*/, int32_t /*firstOp*/,
                                     int32_t /*lastOp*/) const {
    return false;
  }
};

// Roofline, calibrated by the ops' own times: the sum of the member ops' time_us, less one launch
// per op merged away, less the memory traffic the fusion saves at `memBytesPerS` (an
// intermediate read by a member: its read; used only inside the kernel or a recomputed copy: its
// write too); never below the roofline of the fused kernel (total flops at `peakFlops`, remaining
// bytes at `memBytesPerS`) plus one launch.
// Two heavy ops share a kernel only when every intermediate a member reads from another member
// fits in `onChipBytes` together (A100's 40 MB L2 by default, the GPU whose HBM the 1.5 TB/s
// is): the saved traffic it credits is real only while those intermediates stay on chip.
class RooflineEstimator : public FusedOpEstimator {
 public:
  RooflineEstimator(double peakFlops = 50e12, double memBytesPerS = 1.5e12, double launchUs = 5.0,
                    double onChipBytes = 40e6)
      : peakFlops_(peakFlops), memBytesPerS_(memBytesPerS), launchUs_(launchUs), onChipBytes_(onChipBytes) {}
  double estimateUs(const Workload& workload, const std::vector<std::vector<int32_t>>& consumers, int32_t firstOp,
                    int32_t lastOp, const std::vector<int32_t>& duplicated) const override;
  bool pricesSeveralHeavyOps(const Workload& workload, const std::vector<std::vector<int32_t>>& consumers,
                             int32_t firstOp, int32_t lastOp) const override;

 private:
  double peakFlops_, memBytesPerS_, launchUs_, onChipBytes_;
};

inline constexpr int32_t kMaxHeavyOpsPerKernel = 2;

// Op -> the ops that read it, ascending.
std::vector<std::vector<int32_t>> consumersOf(const Workload& workload);

// The kernels a strategy makes, with their estimated times (start and end left 0).
std::vector<Kernel> kernelsOf(const Workload& workload, const FusionStrategy& strategy,
                              const FusedOpEstimator& estimator);
std::vector<Kernel> kernelsOf(const Workload& workload, const std::vector<std::vector<int32_t>>& consumers,
                              const FusionStrategy& strategy, const FusedOpEstimator& estimator);

// Whether op i's kernel may merge with the next kernel (method i): same phase, a data edge
// between them, kMaxKernelOps ops together, and one heavy op, or several where `estimator`
// (when given) prices them honestly.
bool canJoin(const Workload& workload, const std::vector<std::vector<int32_t>>& consumers,
             const FusionStrategy& strategy, size_t i, const FusedOpEstimator* estimator = nullptr);
// Whether op i may be recomputed in the next kernel (method ii): element-wise, last of its
// kernel, read by op i+1 and also by an op outside the next kernel.
bool canDuplicate(const Workload& workload, const std::vector<std::vector<int32_t>>& consumers,
                  const FusionStrategy& strategy, size_t i);

// XLA-style default fusion: every element-wise op joins its producer's kernel where canJoin.
FusionStrategy greedyElementwiseFusion(const Workload& workload);

}  // namespace ccforge::plan
