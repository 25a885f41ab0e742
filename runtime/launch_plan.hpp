// What one (program, call) needs at launch, shared by the backends: the tiling, FIFO slot sizes
// and scratch sizes. Built once and reused for every launch of the same call.
#pragma once

#include <cstdint>

#include "runtime/call.hpp"
#include "runtime/core/tiling.hpp"
#include "runtime/program.hpp"

namespace ccforge::runtime {

struct ExecutionTuning {
  int64_t tileBytes = 0;  // 0: the protocol's tile (msccl-ir.md §2); otherwise a multiple of 16
  int32_t slots = 0;      // transfers in flight per connection; 0: the protocol's (Simple 2, LL/LL128 8)
};

struct LaunchPlan {
  Tiling tiling;
  int64_t slotStrideBytes = 0;        // bytes between FIFO slots (a multiple of 16)
  int64_t fifoBytes = 0;              // per connection
  std::vector<int64_t> scratchBytes;  // per rank
};

// Throws std::invalid_argument (user-facing) when the program cannot serve the call (see
// runtime/program_set.hpp mismatch()) or the call is too large for the flag encoding, and
// ProgramRejected (unsupported: `run` exits 1) at the <gpu> element when a rank's scratch is over
// limits::kMaxRunBufferBytes, before anything is allocated.
LaunchPlan makeLaunchPlan(const ExecutableProgram& program, const CallShape& call, const ExecutionTuning& tuning);

// Bytes of scratch each rank takes for `call`: s_chunks x the chunk's bytes (a negative s_chunks
// holds nothing), exact and saturated at UINT64_MAX: a file may declare 2^31 - 1 scratch chunks.
// `call` must be one the program serves (mismatch() empty).
std::vector<uint64_t> scratchBytesOf(const ExecutableProgram& program, const CallShape& call);

}  // namespace ccforge::runtime
