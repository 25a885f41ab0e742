// The limits and header rules of an MSCCL runtime (msccl-ir.md §1 "Limits").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ccforge::verify {

struct RuntimeProfile {
  std::string name;
  int32_t maxStepsPerThreadBlock;
  int32_t maxThreadBlocksPerRank;
  int32_t maxSendThreadBlocksPerChannel = 32;
  int32_t maxRecvThreadBlocksPerChannel = 32;
  int32_t maxChannels = 32;       // MAXCHANNELS
  int32_t maxCount = 71;          // MSCCL_MAX_COUNT - 1
  int32_t maxFusedReduceSources = 16;
  int32_t maxChildrenPerElement = 1024;  // the runtime's XML parser
  int32_t maxAlgorithmFiles;
  // Thread blocks of a rank spin on each other and must all be resident at once.
  int32_t defaultMaxCoResidentThreadBlocks;
  bool requiresExecutorHeader;  // inplace, outofplace, minBytes, maxBytes
  bool depidIsInt8;             // depid > 127 wraps
  bool checksChunkCounts;       // rejects i_chunks/o_chunks inconsistent with the collective
  bool acceptsLegacyCollNames;  // reduce_scatter, custom
};

const RuntimeProfile& executorProfile();
const RuntimeProfile& legacyProfile();
// "msccl-executor" or "msccl-legacy".
std::optional<RuntimeProfile> profileByName(std::string_view name);

}  // namespace ccforge::verify
