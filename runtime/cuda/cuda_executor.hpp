// Executes a program with CUDA, in either mode (runtime/target.hpp GpuMode): one cooperative
// launch of every rank's tbs on one GPU, or one cooperative launch per rank on its own GPU with
// FIFOs (and their tails) in the receiver's memory and heads in the sender's, as NCCL places them.
// Buffers are device pointers. FIFOs and counters persist across launches; a launch stopped by
// the watchdog resets them.
#pragma once

#include <chrono>
#include <memory>
#include <span>

#include "runtime/target.hpp"

struct CUstream_st;  // cudaStream_t, without the CUDA headers

namespace ccforge::runtime {

struct CudaExecutorOptions {
  GpuMode mode = GpuMode::RanksOnOneGpu;
  std::chrono::milliseconds timeout{30000};
  ExecutionTuning tuning;
  // Ranks-on-one-GPU only: launch on the caller's stream (so that its CUDA events bracket the
  // launch) instead of one the executor creates.
  CUstream_st* stream = nullptr;
  bool computeFirst = false;  // TargetOptions::computeFirst
};

// Throws std::invalid_argument when the program cannot serve the call or does not fit the GPUs
// (more ranks than GPUs, no peer access, too many tbs to be co-resident).
std::unique_ptr<Executor> makeCudaExecutor(const ExecutableProgram& program, const CallShape& call,
                                           const CudaExecutorOptions& options);

}  // namespace ccforge::runtime
