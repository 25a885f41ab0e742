// The protocol constants of the MSCCL executor and the numbers every engine derives from them
// for one call: tile size, transfers per step, FIFO units in flight. Host/device clean: the
// interpreter's device code includes this header. Sources (Azure/msccl-executor-nccl):
// msccl_struct.h (MSCCL_MAX_COUNT, MSCCL_MAX_REDUCE_FUSION, MSCCL_SLICESTEPS, MSCCL_CHUNKSTEPS),
// msccl_setup.cc mscclSetupCount (chunkEffectiveSize, maxAllowedCount), msccl_kernel.cu
// (MSCCL_MAX_ITER, the tile loop), prims_simple.h/prims_ll.h (slot waits); docs/msccl-ir.md.
#pragma once

#include <cstdint>

#include "ir/kinds.hpp"
#include "semantics/host_device.hpp"
#include "semantics/size_arithmetic.hpp"

namespace ccforge::semantics {

inline constexpr int32_t kNcclSteps = 8;                      // NCCL_STEPS: FIFO slots per connection
inline constexpr int32_t kChunkSteps = kNcclSteps / 2;        // MSCCL_CHUNKSTEPS
inline constexpr int32_t kSliceSteps = kNcclSteps / 4;        // MSCCL_SLICESTEPS
inline constexpr int32_t kMscclMaxCount = 72;                 // MSCCL_MAX_COUNT: the parser takes cnt < 72
inline constexpr int32_t kMaxStepCount = kMscclMaxCount - 1;  // largest cnt, and the cap of maxAllowedCount
inline constexpr int32_t kMaxReduceFusion = 16;               // MSCCL_MAX_REDUCE_FUSION
inline constexpr int32_t kMaxChannels = 32;                   // MAXCHANNELS
inline constexpr int32_t kMaxPeersPerChannel = 32;            // MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL
// Sources one fused reduction can take: the kernel's array srcs[MSCCL_MAX_REDUCE_FUSION + 1]
// (msccl_kernel.cu:289), in which Simple puts the destination too and LL and LL128 only sources.
CCF_HD constexpr int32_t fusedReduceSourceCapacity(ir::Protocol p, int32_t maxReduceFusion = kMaxReduceFusion) {
  return maxReduceFusion + (p == ir::Protocol::Simple ? 0 : 1);
}
// Flags are COMPUTE_FLAG(workIndex, iteration, step) = (workIndex * MSCCL_MAX_ITER + iteration) *
// MSCCL_MAX_NUM_STEPS + step: iteration MSCCL_MAX_ITER spills into the work index, and every
// waiter on such a flag spins forever.
inline constexpr int64_t kMaxTileIterations = 65536;  // MSCCL_MAX_ITER

// Bytes of every chunk one tile iteration moves (the runtime's chunkEffectiveSize at NCCL's
// default buffer sizes): Simple stepSize * MSCCL_CHUNKSTEPS = 512 KiB * 4, LL half of its
// 64 KiB step (the other half is flags), LL128 15/16 of its 614,400-byte step.
CCF_HD constexpr int64_t tileBytes(ir::Protocol p) {
  return p == ir::Protocol::Simple ? int64_t{2} << 20 : p == ir::Protocol::LL ? int64_t{32} << 10 : int64_t{576000};
}
// Bytes of a call that one tile iteration of a program of `nchunksperloop` chunks moves.
CCF_HD constexpr double tileIterationBytes(int64_t nchunksperloop, ir::Protocol p) {
  return static_cast<double>(nchunksperloop) * static_cast<double>(tileBytes(p));
}

// A transfer is one primitive call. Simple splits it into slices of MSCCL_SLICESTEPS FIFO
// steps; LL and LL128 move it as one step. The FIFO unit of every engine is the slice (Simple)
// or the step (LL/LL128).
CCF_HD constexpr int32_t unitsPerTransfer(ir::Protocol p) {
  return p == ir::Protocol::Simple ? kChunkSteps / kSliceSteps : 1;
}
// Units a sender may be ahead of its receiver: NCCL_STEPS slots, a Simple slice takes
// MSCCL_SLICESTEPS of them.
CCF_HD constexpr int32_t unitsInFlight(ir::Protocol p) {
  return p == ir::Protocol::Simple ? kNcclSteps / kSliceSteps : kNcclSteps;
}
// Transfers in flight per connection: Simple 2, LL and LL128 8.
CCF_HD constexpr int32_t transfersInFlight(ir::Protocol p) { return unitsInFlight(p) / unitsPerTransfer(p); }

// Chunks one transfer may carry: the tile divided by the chunk size, at least 1 and at most
// MSCCL_MAX_COUNT - 1. `chunkBytes` is DIVUP(nBytes, nchunksperloop).
CCF_HD constexpr int32_t maxAllowedCount(int64_t chunkBytes, int64_t tile) {
  const int64_t fit = chunkBytes <= 0 ? kMaxStepCount : tile / chunkBytes;
  return static_cast<int32_t>(fit < 1 ? 1 : (fit > kMaxStepCount ? kMaxStepCount : fit));
}
// Transfers a step of `cnt` chunks issues.
// (Summed in 64 bits: a file may claim cnt = 2^31 - 1.)
CCF_HD constexpr int32_t transfersOf(int32_t cnt, int32_t maxAllowed) {
  return static_cast<int32_t>(ceilDiv<int64_t>(cnt, maxAllowed));
}
// Tile iterations of one call: every thread block runs its whole step list once per tile.
CCF_HD constexpr int64_t tileIterations(int64_t chunkBytes, int64_t tile) {
  return chunkBytes <= 0 ? 0 : ceilDiv(chunkBytes, tile);
}

}  // namespace ccforge::semantics
