// Executes a program on the CPU: every rank's thread blocks run as cooperative tasks on a few
// worker threads (runtime/cpu/scheduler.hpp), over host buffers. One executor serves repeated
// launches of one (program, call): FIFOs and their counters persist between launches, as NCCL's do.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "runtime/call.hpp"
#include "runtime/launch_plan.hpp"
#include "runtime/program.hpp"

namespace ccforge::runtime {

struct CpuOptions {
  int workers = 0;  // 0: one per hardware thread, at most 8
  std::chrono::milliseconds timeout{30000};
  ExecutionTuning tuning;
};

class CpuExecutor {
 public:
  // Throws std::invalid_argument when the program cannot serve the call.
  CpuExecutor(const ExecutableProgram& program, const CallShape& call, CpuOptions options);
  ~CpuExecutor();
  CpuExecutor(const CpuExecutor&) = delete;
  CpuExecutor& operator=(const CpuExecutor&) = delete;

  // Runs one launch on host buffers (validated). Throws ExecutionFailed on a deadlock or timeout;
  // the outputs are then unspecified and the executor resets its FIFOs for the next launch.
  void launch(std::span<const RankBuffers> buffers);
  // The watchdog's limit for the next launches.
  void setTimeout(std::chrono::milliseconds timeout) { options_.timeout = timeout; }
  const LaunchPlan& plan() const { return plan_; }
  int workers() const { return workers_; }

 private:
  struct State;
  const ExecutableProgram& program_;
  CallShape call_;
  CpuOptions options_;
  LaunchPlan plan_;
  int workers_ = 1;
  std::unique_ptr<State> state_;
};

}  // namespace ccforge::runtime
