// The one table of MSCCL runtimes: their limits, storage widths, header rules and selection
// rule, used by the compiler (to stay inside them), the verifier (to check them), the runtime
// loader and the simulator. Every number cites its source in docs/msccl-ir.md, "Limits".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"
#include "ir/runtime_lexical_scan.hpp"
#include "semantics/selection.hpp"

namespace ccforge::semantics {

// The sizes (total bytes of a call, nccl-tests' size) a file's header lets the runtime select
// it for: minBytes..maxBytes inclusive, maxBytes=0 unbounded (msccl_lifecycle.cc,
// mscclInternalSchedulerSelectAlgo). Files without a window (legacy headers) get the legacy
// runtime's default of 0..128 MiB.
struct SizeWindow {
  int64_t minBytes = 0;
  std::optional<int64_t> maxBytes;  // nullopt: unbounded
  // As the executor compares a call's size_t bytes with the int64 bounds: both sides unsigned, so
  // a negative minBytes takes no call and a negative maxBytes every call from minBytes.
  bool contains(uint64_t bytes) const {
    return bytes >= static_cast<uint64_t>(minBytes) && (!maxBytes || bytes <= static_cast<uint64_t>(*maxBytes));
  }
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
  int32_t maxStoredOffset;         // srcOffset/dstOffset (and reductionSrcOffsets) are int16_t: larger values wrap
  int32_t maxAlgorithmFiles;       // MSCCL_MAX_NUM_ALGOS
  int32_t maxNameLength;           // algo name kept (0: unlimited, the name is ignored)
  // Tile iterations one call may run: the flag of iteration MSCCL_MAX_ITER spills into the work
  // index, and every wait on it spins forever (msccl_kernel.cu COMPUTE_FLAG).
  int64_t maxTileIterations;
  // Bytes of every chunk one tile iteration moves, by protocol (Simple, LL, LL128): the
  // executor's chunkEffectiveSize at its thread counts (semantics/protocol.hpp tileBytes).
  std::array<int64_t, 3> tileBytes;
  // The hand-written XML parser (msccl_parser.h / xml.h).
  int32_t maxChildrenPerElement;     // MAX_SUBS (not checked: more overflow the node)
  int32_t maxNodesPerLoad;           // MAX_NODES - 1: checked before every node read, so the MAX_NODES-th fails
  ir::RuntimeLexicalLimits lexical;  // MAX_ATTR_COUNT, MAX_STR_LEN
  // Thread blocks of a rank spin on each other and must all be resident at once (one per SM
  // of an A100 for the executor's blocks; verify and compile take --max-tbs for other GPUs).
  int32_t maxCoResidentThreadBlocks;
  // Memory of that GPU (an A100 with 80 GiB): no call's buffers are larger, so an unbounded size
  // window is judged by the calls that fit it.
  int64_t deviceMemoryBytes;
  bool requiresExecutorHeader;  // inplace, outofplace, minBytes, maxBytes
  bool checksChunkCounts;       // rejects i_chunks/o_chunks inconsistent with the collective
  bool acceptsLegacyCollNames;  // reduce_scatter, custom
  // Runs fused programs (coll="fused-...", cmp steps, operands): only ccforge's own runtime.
  // The stock parsers refuse the coll name (msccl-executor-nccl src/misc/msccl/msccl_parser.cc,
  // mscclGetAlgoFromXmlFile: "MSCCL: unsupported collective: %s", return ncclInvalidUsage).
  bool runsFusedPrograms;
  // Runs the receive-and-reduce/copy instructions (rcs, rrs, rrc, rrcs); RCCL builds its MSCCL
  // kernels without them and refuses such a program when it launches.
  bool runsRecvCombinedOps;
  // Gathers a fused reduction's sources in srcs[MSCCL_MAX_REDUCE_FUSION + 1] (the executor's and
  // microsoft/msccl's kernels); RCCL's kernel loops over them instead.
  bool fusedReduceSourceArray;
  // Who picks a file of an algorithm directory for a call: the executor with its internal
  // scheduler or with the msccl-scheduler plugin; the legacy runtime from MSCCL_XML_FILES.
  std::vector<Selector> selectors;
};

inline int64_t profileTileBytes(const RuntimeProfile& p, ir::Protocol proto) {
  return p.tileBytes[static_cast<size_t>(proto)];
}

// The thread blocks one rank may have: the runtime's count, and no more than can be resident at once.
inline int32_t residentThreadBlocksPerRank(const RuntimeProfile& p) {
  return p.maxThreadBlocksPerRank < p.maxCoResidentThreadBlocks ? p.maxThreadBlocksPerRank
                                                                : p.maxCoResidentThreadBlocks;
}

// The largest maxBytes with which every call of a program with dependencies stays within
// profile.maxTileIterations tile iterations: nchunksperloop * maxTileIterations * tile bytes
// (docs/msccl-ir.md, "Tile iterations and dependency flags"). nullopt when no int64 size exceeds it.
std::optional<int64_t> largestFlagSafeBytes(ir::Protocol proto, int32_t nchunksperloop, const RuntimeProfile& profile);

const RuntimeProfile& executorProfile();
const RuntimeProfile& legacyProfile();
const RuntimeProfile& rcclProfile();
// ccforge's runtime running fused computation + collective programs (docs/fused.md): the
// executor's limits, plus compute steps and operands.
const RuntimeProfile& fusedProfile();
// "msccl-executor", "msccl-legacy", "rccl" or "ccforge-fused".
std::optional<RuntimeProfile> profileByName(std::string_view name);
// The runtime a file's header is written for; `verify` and `run` check against it when no
// --profile is given. An executor header (outofplace, minBytes or maxBytes present: a file that
// lacks some of them is meant for msccl-executor and is told which are missing) -> msccl-executor;
// a legacy header (inplace only, as msccl-tools and ncclize write it) -> msccl-legacy; a fused
// header (coll="fused-...") -> ccforge-fused.
const RuntimeProfile& profileForHeader(const ir::Algorithm& algorithm);

}  // namespace ccforge::semantics
