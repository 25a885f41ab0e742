// A training step as `ccforge plan` sees it (docs/plan.md): the ops of one worker's forward and
// backward pass in the order one compute stream runs them, their data dependencies, and the
// gradient tensors the backward ops complete (each AllReduced across the data-parallel workers).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"

namespace ccforge::plan {

enum class Phase : uint8_t { Forward, Backward };
std::string_view phaseName(Phase p);

inline constexpr size_t kMaxOps = 100'000;
inline constexpr size_t kMaxTensors = 100'000;
inline constexpr size_t kMaxOpInputs = 1'000;
inline constexpr uint64_t kMaxWorkloadBytes = uint64_t{64} << 20;
inline constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 40;  // 1 TiB

struct Op {
  std::string name;
  Phase phase = Phase::Forward;
  // "elementwise" ops fuse with anything; every other kind (conv, matmul, ...) is a heavy op, at
  // most one of which may sit in a fused op.
  std::string kind = "elementwise";
  double timeUs = 0;               // measured or estimated kernel time, launch included
  double flops = 0;                // optional (0: unknown), for the fused-op estimator
  double bytes = 0;                // memory traffic, optional
  double outputBytes = 0;          // size of the op's result, what fusion with a consumer saves
  std::vector<int32_t> inputs;     // ops whose results this op reads; all earlier in the list
  std::vector<int32_t> gradients;  // tensors this op contributes to
  base::TextLocation where;

  bool elementwise() const { return kind == "elementwise"; }
};

struct Tensor {
  std::string name;
  uint64_t bytes = 0;
  std::vector<int32_t> producers;  // ops that contribute to it; complete when the last has run
  base::TextLocation where;
};

struct Workload {
  std::string name;
  std::string description;
  std::string units;   // what one step processes per worker ("32 images")
  std::string source;  // file name, "builtin:NAME" or "astra-sim:FILE"
  std::vector<Op> ops;
  std::vector<Tensor> tensors;

  double forwardUs() const;
  double backwardUs() const;
  uint64_t gradientBytes() const;
};

// Fills Tensor::producers from Op::gradients and checks the whole: unique names, inputs earlier
// than their op, every tensor produced, sizes and times in range. Throws InputError located at
// the offending op or tensor of `workload.source`.
void finishWorkload(Workload& workload);

}  // namespace ccforge::plan
