#include "semantics/runtime_profile.hpp"

namespace ccforge::verify {

const RuntimeProfile& executorProfile() {
  // Co-residency default: one block per SM of an A100 (108 SMs), the safe assumption for the
  // executor's 640-thread blocks; --max-tbs overrides it for other GPUs.
  static const RuntimeProfile p{.name = "msccl-executor",
                                .maxStepsPerThreadBlock = 64,
                                .maxThreadBlocksPerRank = 1024,
                                .maxAlgorithmFiles = 1024,
                                .defaultMaxCoResidentThreadBlocks = 108,
                                .requiresExecutorHeader = true,
                                .depidIsInt8 = true,
                                .checksChunkCounts = false,
                                .acceptsLegacyCollNames = false};
  return p;
}

const RuntimeProfile& legacyProfile() {
  // Two 560-thread blocks per SM of an A100.
  static const RuntimeProfile p{.name = "msccl-legacy",
                                .maxStepsPerThreadBlock = 256,
                                .maxThreadBlocksPerRank = 216,
                                .maxAlgorithmFiles = 4,
                                .defaultMaxCoResidentThreadBlocks = 216,
                                .requiresExecutorHeader = false,
                                .depidIsInt8 = false,
                                .checksChunkCounts = true,
                                .acceptsLegacyCollNames = true};
  return p;
}

std::optional<RuntimeProfile> profileByName(std::string_view name) {
  if (name == executorProfile().name) return executorProfile();
  if (name == legacyProfile().name) return legacyProfile();
  return std::nullopt;
}

}  // namespace ccforge::verify
