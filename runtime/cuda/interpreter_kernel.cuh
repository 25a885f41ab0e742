// The interpreter kernel: block b runs thread block firstTb + b of the program by calling the
// core's advance() until it finishes. While it is blocked it re-polls; every 64 polls thread 0
// reads the global timer and the shared abort flag, so a block that waits longer than the limit
// records where it is (rank, tb, step, tile) and makes every other block stop too.
#pragma once

#include "runtime/core/interpreter.hpp"
#include "runtime/cuda/device_backend.cuh"
#include "runtime/cuda/kernel_args.hpp"

namespace ccforge::runtime {

__device__ __forceinline__ uint64_t globalTimerNanoseconds() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void recordStop(const KernelArgs& a, int32_t globalTb, const TbCursor& c, uint32_t state) {
  if (threadIdx.x != 0) return;
  WatchdogRecord& r = a.records[globalTb];
  r.waitKind = static_cast<uint32_t>(c.waitKind);
  r.step = c.step;
  r.transfer = c.transfer;
  r.slice = c.slice;
  r.tile = c.tile;
  r.epoch = a.state.epoch;
  __threadfence_system();
  r.state = state;
}

template <class T, class Op>
__global__ void __launch_bounds__(kMaxInterpreterThreads) interpreterKernel(KernelArgs a) {
  const int32_t globalTb = a.blockTbs ? a.blockTbs[blockIdx.x] : a.firstTb + static_cast<int32_t>(blockIdx.x);
  DeviceBackend b(a.systemScope != 0);
  TbCursor c = startCursor(b, a.state, globalTb);
  uint64_t lastProgress = c.progress;
  uint64_t blockedSince = 0;
  uint32_t polls = 0;
  while (!advance<DeviceBackend, T, Op>(b, a.state, globalTb, c)) {
    if (c.progress != lastProgress) {
      lastProgress = c.progress;
      blockedSince = 0;
      polls = 0;
    }
    if (++polls % 64 != 0) continue;
    uint32_t stop = kRecordEmpty;
    if (threadIdx.x == 0) {
      const uint64_t now = globalTimerNanoseconds();
      if (blockedSince == 0) blockedSince = now;
      if (*reinterpret_cast<volatile uint32_t*>(a.abort) != 0) {
        stop = kRecordAborted;
      } else if (now - blockedSince > a.timeoutNanoseconds) {
        stop = kRecordTimedOut;
        atomicExch_system(a.abort, 1u);
      }
    }
    const int timedOut = __syncthreads_or(stop == kRecordTimedOut);
    const int aborted = __syncthreads_or(stop == kRecordAborted);
    if (timedOut || aborted) {
      recordStop(a, globalTb, c, timedOut ? kRecordTimedOut : kRecordAborted);
      return;
    }
  }
}

}  // namespace ccforge::runtime
