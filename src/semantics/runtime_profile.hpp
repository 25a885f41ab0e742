// The one table of MSCCL runtimes: their limits, storage widths, header rules and selection
// rule, used by the compiler (to stay inside them), the verifier (to check them), the runtime
// loader and the simulator. Every number cites its source in docs/msccl-ir.md, "Limits".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"
#include "semantics/selection.hpp"

namespace ccforge {

// The sizes (total bytes of a call, nccl-tests' size) a file's header lets the runtime select
// it for: minBytes..maxBytes inclusive, maxBytes=0 unbounded (msccl_lifecycle.cc,
// mscclInternalSchedulerSelectAlgo). Files without a window (legacy headers) get the legacy
// runtime's default of 0..128 MiB.
struct SizeWindow {
  int64_t minBytes = 0;
  std::optional<int64_t> maxBytes;  // nullopt: unbounded
  bool contains(int64_t bytes) const { return bytes >= minBytes && (!maxBytes || bytes <= *maxBytes); }
};
SizeWindow sizeWindowOf(const ir::Algorithm& algorithm);

struct RuntimeProfile {
  std::string name;
  // Storage of the parsed program (msccl_struct.h): arrays sized at build time.
  int32_t maxStepsPerThreadBlock;  // MSCCL_MAX_NUM_STEPS
  int32_t maxThreadBlocksPerRank;  // MSCCL_MAX_NUM_THREAD_BLOCKS
  int32_t maxPeersPerChannel;      // thread blocks with a send (and with a recv) peer per channel
  int32_t maxChannels;             // MAXCHANNELS
  int32_t maxCount;                // largest cnt (MSCCL_MAX_COUNT - 1)
  int32_t maxFusedReduceSources;   // MSCCL_MAX_REDUCE_FUSION
  int32_t maxDepId;                // dependentBid is an int8_t: a larger depid wraps
  int32_t maxStoredOffset;         // srcoff/dstoff/deps are int16_t: larger values wrap
  int32_t maxAlgorithmFiles;       // MSCCL_MAX_NUM_ALGOS
  int32_t maxNameLength;           // algo name kept (0: unlimited, the name is ignored)
  // The hand-written XML parser (msccl_parser.h / xml.h).
  int32_t maxChildrenPerElement;   // MAX_SUBS (not checked: more overflow the node)
  int32_t maxNodesPerLoad;         // MAX_NODES - 1: the 4096th stored node trips the check
  int32_t maxAttributesPerElement; // MAX_ATTR_COUNT: later attributes are dropped
  int32_t maxAttributeValueLength; // MAX_STR_LEN: a longer value overruns its buffer
  // Thread blocks of a rank spin on each other and must all be resident at once (one per SM
  // of an A100 for the executor's blocks; verify and compile take --max-tbs for other GPUs).
  int32_t maxCoResidentThreadBlocks;
  bool requiresExecutorHeader;  // inplace, outofplace, minBytes, maxBytes
  bool checksChunkCounts;       // rejects i_chunks/o_chunks inconsistent with the collective
  bool acceptsLegacyCollNames;  // reduce_scatter, custom
  // Who picks a file of an algorithm directory for a call: the executor with its internal
  // scheduler or with the msccl-scheduler plugin; the legacy runtime from MSCCL_XML_FILES.
  std::vector<Selector> selectors;
};

const RuntimeProfile& executorProfile();
const RuntimeProfile& legacyProfile();
// "msccl-executor" or "msccl-legacy".
std::optional<RuntimeProfile> profileByName(std::string_view name);
// The runtime a file's header is written for; `verify` and `run` check against it when no
// --profile is given. An executor header (outofplace, minBytes or maxBytes present: a file that
// lacks some of them is meant for msccl-executor and is told which are missing) -> msccl-executor;
// a legacy header (inplace only, as msccl-tools and ncclize write it) -> msccl-legacy.
const RuntimeProfile& profileForHeader(const ir::Algorithm& algorithm);

}  // namespace ccforge
