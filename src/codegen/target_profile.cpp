#include "codegen/target_profile.hpp"

namespace ccforge::codegen {

const TargetProfile& executorTarget() {
  static const TargetProfile p{"msccl-executor", 64, 1024, 108, 32, 32, 71, 127, true};
  return p;
}

// The NCCL 2.12 based runtime: 256 steps and 216 thread blocks; depid is kept at 127 too so
// that one file serves both runtimes where it can.
const TargetProfile& legacyTarget() {
  static const TargetProfile p{"msccl-legacy", 256, 216, 216, 32, 32, 71, 127, false};
  return p;
}

std::optional<TargetProfile> targetByName(std::string_view name) {
  if (name == executorTarget().name) return executorTarget();
  if (name == legacyTarget().name) return legacyTarget();
  return std::nullopt;
}

}  // namespace ccforge::codegen
