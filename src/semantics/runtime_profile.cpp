#include "semantics/runtime_profile.hpp"

#include <limits>

#include "semantics/protocol.hpp"

namespace ccforge::semantics {
namespace {

// Both runtimes build the same lexer (msccl_parser.h; microsoft/msccl src/graph/xml.h): values and
// names go into MAX_STR_LEN + 1 = 256-byte buffers. A value keeps MAX_STR_LEN bytes plus its
// terminator; a name token errors when its 254th byte (index MAX_STR_LEN - 1) is reached, so a
// name with the character that ends it must fit in 254: at most 253 bytes.
constexpr ir::RuntimeLexicalLimits kLexicalLimits{.maxAttributeSlots = 16, .maxValueBytes = 255, .maxTokenBytes = 253};
constexpr int64_t kA100MemoryBytes = int64_t{80} << 30;
constexpr std::array<int64_t, 3> kExecutorTileBytes{tileBytes(ir::Protocol::Simple), tileBytes(ir::Protocol::LL),
                                                    tileBytes(ir::Protocol::LL128)};

}  // namespace

// Azure/msccl-executor-nccl (NCCL 2.23 base), built with its default MSCCL_MAX_NUM_STEPS.
const RuntimeProfile& executorProfile() {
  static const RuntimeProfile p{.name = "msccl-executor",
                                .maxStepsPerThreadBlock = 64,
                                .maxThreadBlocksPerRank = kMaxPeersPerChannel * kMaxChannels,
                                .maxPeersPerChannel = kMaxPeersPerChannel,
                                .maxChannels = kMaxChannels,
                                .maxCount = kMaxStepCount,
                                .maxFusedReduceSources = kMaxReduceFusion,
                                .maxDepId = 127,
                                .maxStoredOffset = 32767,
                                .maxAlgorithmFiles = 1024,
                                .maxNameLength = 0,
                                .maxTileIterations = kMaxTileIterations,
                                .tileBytes = kExecutorTileBytes,
                                .maxChildrenPerElement = 1024,
                                .maxNodesPerLoad = 4095,
                                .lexical = kLexicalLimits,
                                .maxCoResidentThreadBlocks = 108,
                                .deviceMemoryBytes = kA100MemoryBytes,
                                .requiresExecutorHeader = true,
                                .checksChunkCounts = false,
                                .acceptsLegacyCollNames = false,
                                .runsFusedPrograms = false,
                                .runsRecvCombinedOps = true,
                                .fusedReduceSourceArray = true,
                                .selectors = {Selector::Internal, Selector::External}};
  return p;
}

// ccforge's runtime (runtime/) for fused programs: the executor's storage and header rules, and
// compute steps. Selected only by ccforge's own loader (the internal scheduler's rule).
const RuntimeProfile& fusedProfile() {
  static const RuntimeProfile p = [] {
    RuntimeProfile f = executorProfile();
    f.name = "ccforge-fused";
    f.runsFusedPrograms = true;
    f.selectors = {Selector::Internal};
    return f;
  }();
  return p;
}

// microsoft/msccl (NCCL 2.12 base): 256 steps, 216 thread blocks (two 560-thread blocks per SM
// of an A100), at most 4 algorithm files, names kept to 63 characters.
const RuntimeProfile& legacyProfile() {
  static const RuntimeProfile p{.name = "msccl-legacy",
                                .maxStepsPerThreadBlock = 256,
                                .maxThreadBlocksPerRank = 216,
                                .maxPeersPerChannel = kMaxPeersPerChannel,
                                .maxChannels = kMaxChannels,
                                .maxCount = kMaxStepCount,
                                .maxFusedReduceSources = kMaxReduceFusion,
                                .maxDepId = 127,
                                .maxStoredOffset = 32767,
                                .maxAlgorithmFiles = 4,
                                .maxNameLength = 63,
                                .maxTileIterations = kMaxTileIterations,
                                .tileBytes = kExecutorTileBytes,
                                .maxChildrenPerElement = 1024,
                                .maxNodesPerLoad = 4095,
                                .lexical = kLexicalLimits,
                                .maxCoResidentThreadBlocks = 216,
                                .deviceMemoryBytes = kA100MemoryBytes,
                                .requiresExecutorHeader = false,
                                .checksChunkCounts = true,
                                .acceptsLegacyCollNames = true,
                                .runsFusedPrograms = false,
                                .runsRecvCombinedOps = true,
                                .fusedReduceSourceArray = true,
                                .selectors = {Selector::Legacy}};
  return p;
}

// ROCm/rccl's own MSCCL executor (src/misc/msccl, commit 0cbce2a7): the executor's parser and
// header, 64 thread blocks per rank, MAXCHANNELS 128, 256-thread blocks (smaller LL and LL128
// tiles), kernels without rcs/rrs/rrc/rrcs, an MI300X (304 CUs, 192 GB) as the GPU, and its
// internal scheduler reading the directory in readdir order (docs/design/rccl-profile.md).
const RuntimeProfile& rcclProfile() {
  static const RuntimeProfile p = [] {
    RuntimeProfile r = executorProfile();
    r.name = "rccl";
    r.maxThreadBlocksPerRank = 64;
    r.maxChannels = 128;
    r.tileBytes = {int64_t{2} << 20, int64_t{16} << 10, 50176};
    r.maxCoResidentThreadBlocks = 304;
    r.deviceMemoryBytes = int64_t{192} * 1000 * 1000 * 1000;
    r.runsRecvCombinedOps = false;
    r.fusedReduceSourceArray = false;
    r.selectors = {Selector::Rccl};
    return r;
  }();
  return p;
}

SizeWindow sizeWindowOf(const ir::Algorithm& a) {
  constexpr int64_t kLegacyDefaultMaxBytes = int64_t{128} << 20;  // microsoft/msccl's default maxBytes
  if (!a.minBytes && !a.maxBytes) return {0, kLegacyDefaultMaxBytes};
  const int64_t hi = a.maxBytes.value_or(0);
  return {a.minBytes.value_or(0), hi == 0 ? std::nullopt : std::optional<int64_t>(hi)};
}

std::optional<int64_t> largestFlagSafeBytes(ir::Protocol proto, int32_t nchunksperloop, const RuntimeProfile& profile) {
  const int64_t chunk = profile.maxTileIterations * profileTileBytes(profile, proto);
  if (nchunksperloop < 1 || nchunksperloop > (std::numeric_limits<int64_t>::max() - nchunksperloop) / chunk)
    return std::nullopt;
  return nchunksperloop * chunk;
}

std::optional<RuntimeProfile> profileByName(std::string_view name) {
  if (name == executorProfile().name) return executorProfile();
  if (name == legacyProfile().name) return legacyProfile();
  if (name == fusedProfile().name) return fusedProfile();
  if (name == rcclProfile().name) return rcclProfile();
  return std::nullopt;
}

const RuntimeProfile& profileForHeader(const ir::Algorithm& algorithm) {
  if (algorithm.fused) return fusedProfile();
  return algorithm.headerStyle() == ir::HeaderStyle::Executor ? executorProfile() : legacyProfile();
}

}  // namespace ccforge::semantics
