// The runtime a compiled program must run on: its limits (msccl-ir.md §1 "Limits") and the
// header generation it reads. The compiler splits work or fails with a message rather than
// emit a file such a runtime rejects or misreads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ccforge::codegen {

struct TargetProfile {
  std::string name;
  int32_t maxStepsPerThreadBlock = 64;
  int32_t maxThreadBlocksPerRank = 1024;
  // All thread blocks of a rank spin on each other, so all must be resident at once: one per SM
  // of an A100 for the executor's blocks (108), two per SM for the legacy runtime's (216). The
  // same defaults as `ccforge verify` (its --max-tbs).
  int32_t maxCoResidentThreadBlocks = 108;
  int32_t maxPeersPerChannel = 32;  // thread blocks with a send (recv) peer per channel
  int32_t maxChannels = 32;         // MAXCHANNELS
  int32_t maxCount = 71;            // MSCCL_MAX_COUNT - 1
  int32_t maxDepId = 127;           // depid is an int8 in the executor
  bool executorHeader = true;       // inplace, outofplace, minBytes, maxBytes
};

const TargetProfile& executorTarget();
const TargetProfile& legacyTarget();
// "msccl-executor" or "msccl-legacy".
std::optional<TargetProfile> targetByName(std::string_view name);

}  // namespace ccforge::codegen
