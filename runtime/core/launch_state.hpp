// Everything a thread block needs to run one launch: the program tables, each rank's buffers,
// each connection's FIFO and counters, the dependency flags and the tiling of the call.
#pragma once

#include <cstdint>

#include "semantics/host_device.hpp"
#include "runtime/core/compute.hpp"
#include "runtime/core/program_tables.hpp"
#include "runtime/core/tiling.hpp"

namespace ccforge::runtime {

struct RankMemory {
  unsigned char* buffers[3] = {nullptr, nullptr, nullptr};  // indexed by BufferIndex
  ComputeTable compute;                                     // fused programs: the rank's operator and operands
};

// FIFO of a connection. `head` counts slices the receiver has consumed (written only by the
// receiver), `tail` slices the sender has produced (written only by the sender). Both grow
// monotonically across launches; slice k uses slot k % slotsInFlight.
struct ConnectionMemory {
  unsigned char* fifo = nullptr;  // slots of slotStrideBytes each (plain data or LL lines)
  uint64_t* head = nullptr;
  uint64_t* tail = nullptr;
};

struct LaunchState {
  ProgramView program;
  const RankMemory* ranks = nullptr;
  const ConnectionMemory* connections = nullptr;
  uint64_t* flags = nullptr;  // one per global tb, at flagStride words apart
  int32_t flagStride = 1;
  Tiling tiling;
  int64_t slotStrideBytes = 0;
  uint64_t epoch = 1;  // launch number: flags of earlier launches compare lower
};

// Flags are (launch, tile iteration, step) in lexicographic order, so waits are monotone.
inline constexpr int kFlagStepBits = 16;
inline constexpr int kFlagTileBits = 24;
inline constexpr int64_t kMaxStepsPerTb = (int64_t{1} << kFlagStepBits) - 1;
inline constexpr int64_t kMaxTiles = int64_t{1} << kFlagTileBits;
inline constexpr uint64_t kMaxEpoch = (uint64_t{1} << (64 - kFlagStepBits - kFlagTileBits)) - 1;

CCF_HD uint64_t flagValue(uint64_t epoch, int64_t tile, int32_t step) {
  return (epoch << (kFlagStepBits + kFlagTileBits)) | (static_cast<uint64_t>(tile) << kFlagStepBits) |
         static_cast<uint64_t>(step + 1);
}

CCF_HD uint64_t* flagOf(const LaunchState& s, int32_t globalTb) {
  return s.flags + static_cast<int64_t>(globalTb) * s.flagStride;
}

}  // namespace ccforge::runtime
