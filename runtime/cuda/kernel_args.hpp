// What the host passes to the interpreter kernel, and what the kernel's watchdog reports back.
// Plain data, shared by host code (compiled without nvcc) and device code.
#pragma once

#include <cstdint>

#include "runtime/core/launch_state.hpp"

namespace ccforge::runtime {

// Threads per block the executor launches the interpreter with, at most; the kernel is compiled
// for it (__launch_bounds__), which caps its registers so that one such block fits an SM.
inline constexpr int kMaxInterpreterThreads = 512;

// Written by a block that stops without finishing (host-mapped memory, one per global tb).
struct WatchdogRecord {
  uint32_t state;  // kRecordEmpty, kRecordTimedOut or kRecordAborted
  uint32_t waitKind;
  int32_t step;  // index in the tb's step list
  int32_t transfer;
  int32_t slice;
  int32_t pad;
  int64_t tile;
  uint64_t epoch;
};
inline constexpr uint32_t kRecordEmpty = 0;
inline constexpr uint32_t kRecordTimedOut = 1;  // this block waited longer than the limit
inline constexpr uint32_t kRecordAborted = 2;   // another block timed out

struct KernelArgs {
  LaunchState state;
  int32_t firstTb = 0;                // global tb index of block 0
  const int32_t* blockTbs = nullptr;  // when set, the global tb of each block instead
  int32_t systemScope = 0;            // fences at system scope (GPUs talk to each other)
  uint64_t timeoutNanoseconds = 0;
  uint32_t* abort = nullptr;          // host-mapped: set by the first block that times out
  WatchdogRecord* records = nullptr;  // host-mapped, indexed by global tb
};

}  // namespace ccforge::runtime
