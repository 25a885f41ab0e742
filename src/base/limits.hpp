// ccforge's own work and memory limits: how large a request any command accepts, so that an
// absurd one is refused up front (exit 1, or 2 for an input file) instead of running for minutes
// or exhausting memory. The MSCCL runtimes' limits (what a program may contain) are a different
// table: src/semantics/runtime_profile.hpp. Every number here is listed, with what it bounds and
// how it was chosen, in docs/limits.md; keep the two in step.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ccforge::base {

// A request beyond one of these limits. An std::invalid_argument, so every command that maps
// nonsensical parameters to exit 1 maps this one there too; the message names the limit.
class LimitExceeded : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace limits {

// Input files (ccforge verify --max-input-size overrides it, up to kMaxInputBytesCeiling).
inline constexpr uint64_t kDefaultMaxInputBytes = uint64_t{1} << 30;  // 1 GiB
inline constexpr uint64_t kMaxInputBytesCeiling = uint64_t{1} << 40;  // 1 TiB

// nccl-tests logs (`calibrate`): a log with NCCL INFO lines of a large job stays far below this.
inline constexpr uint64_t kMaxLogBytes = uint64_t{256} << 20;

// Topologies (the spec reader refuses more with exit 2).
inline constexpr uint64_t kMaxSpecBytes = uint64_t{64} << 20;  // a spec file
inline constexpr int32_t kMaxFamilyGpus = 4096;                // one family generator
inline constexpr int32_t kMaxFullyConnectedGpus = 512;
inline constexpr int32_t kMaxBoxes = 1024;  // "boxes": {"count"}
inline constexpr int kMaxBoxNesting = 8;
inline constexpr int32_t kMaxTopologyGpus = 4096;
inline constexpr int32_t kMaxTopologyVertices = 16384;  // GPUs, switches and NICs
inline constexpr int32_t kMaxTopologyLinks = 1 << 19;   // directed links (a fully connected 512 has 261,632)

// The automorphism search (topo show, bounds, synth): refinement entries before it stops with
// the group found so far (about 30 ns each on the 2-core machine; it was 10^9).
inline constexpr uint64_t kAutomorphismWorkLimit = 50'000'000;

// DSL programs (library algorithms, synthesized trees): ranks, buffer chunks over all ranks and
// recorded transfers. Building and compiling take time and memory growing faster than these.
inline constexpr int32_t kMaxProgramRanks = 4096;
inline constexpr int64_t kMaxProgramChunks = int64_t{1} << 22;  // sum over ranks of the buffer chunks
inline constexpr int64_t kMaxProgramTransfers =
    int64_t{1} << 22;  // copy and reduce operations (a 1024-rank ring allreduce needs 2,095,104)

// `bounds` (and the bounds synth starts from): the cut bounds run one max-flow per GPU (per
// candidate rate), each over the whole graph; refused when GPUs x vertices x links exceeds
// this. At the limit: a 512-GPU ring (about 14 s on the 2-core machine), a 128-GPU fully
// connected topology (3 s), a 512-GPU switch (1.3 s).
inline constexpr int64_t kMaxBoundsWork = int64_t{1} << 28;

// `synth`: GPUs per method, and the largest (C,S,R) one SMT instance may ask for.
inline constexpr int32_t kMaxSmtSynthGpus = 16;  // a 32-GPU switch overruns --timeout 10 by 13 s in one Z3 assertion
inline constexpr int32_t kMaxTreeSynthGpus = 1024;
// The tree packing's switch removal and packing grow quickly with the GPUs (a100-8, 64 GPUs:
// 100 s); past this the tree method offers the compositions of identical boxes only.
inline constexpr int32_t kMaxTreePackingGpus = 256;
inline constexpr int32_t kMaxSmtInstanceSize = 4096;  // --chunks, --steps, --rounds
// One SMT instance: C x R x GPUs (R: rounds, or steps when free). Its encoding is built before
// the solver's time limit applies: at 2048 on the DGX-1 about 6 s; at 8192 (C=2, R=512) 100 s
// and 4 GB. An instance the search reaches past it is unknown; one asked for is refused.
inline constexpr int64_t kMaxSmtInstanceWork = 2048;

// `run`: host memory for the call's buffers over all ranks (inputs, outputs, the reference, the
// program's scratch); the runtime library refuses a rank's scratch over it as well.
inline constexpr uint64_t kMaxRunBufferBytes = uint64_t{16} << 30;  // 16 GiB

// `simulate` keeps its own two (src/sim): at most sim::kMaxSizes sizes per run, and
// sim::kDefaultEventLimit events per size (--max-events), past which a size is inconclusive.

}  // namespace limits
}  // namespace ccforge::base
