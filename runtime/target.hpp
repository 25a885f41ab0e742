// Where programs run: the CPU, or CUDA in one of two modes. A Target prepares executors for
// (program, call) pairs, runs the fallback path, and owns the memory the buffers live in (host
// memory for the CPU; device memory for CUDA, on device 0 when all ranks share one GPU, on
// device r for rank r otherwise).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "runtime/call.hpp"
#include "runtime/launch_plan.hpp"
#include "runtime/program.hpp"

namespace ccforge::runtime {

enum class BackendKind { Cpu, Cuda };
enum class GpuMode {
  RanksOnOneGpu,  // every rank's buffers and FIFOs on one GPU, all tbs in one cooperative launch
  GpuPerRank,     // rank r on GPU r of this process, FIFOs on the receiver's GPU, peer access
};
// Which code produced a call's result.
enum class Path { Interpreter, Reference, Nccl };
std::string_view pathName(Path p);

struct TargetOptions {
  BackendKind backend = BackendKind::Cpu;
  GpuMode mode = GpuMode::RanksOnOneGpu;
  int cpuWorkers = 0;                        // CPU: 0 = one per hardware thread, at most 8
  std::chrono::milliseconds timeout{30000};  // watchdog: a launch (CPU) or a wait (GPU) longer than this fails
  ExecutionTuning tuning;
  // CUDA, ranks on one GPU, fused programs: the thread blocks that only compute as a launch of
  // their own before the others (runtime/compute_first.hpp). The CPU backend refuses it.
  bool computeFirst = false;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Starts one launch. The CPU finishes it before returning; CUDA may return early, and wait()
  // then waits and reports failures (Target::synchronize() waits only for the fallback's work).
  // Throws ExecutionFailed.
  virtual void launch(std::span<const RankBuffers> buffers) = 0;
  // Waits until every launch has completed; throws ExecutionFailed if the watchdog stopped one.
  virtual void wait() {}
  virtual const LaunchPlan& plan() const = 0;
};

class Target {
 public:
  virtual ~Target() = default;
  virtual std::string describe() const = 0;
  // Throws std::invalid_argument when the program cannot serve the call or the target cannot
  // run it (too many tbs to be co-resident, more ranks than GPUs).
  virtual std::unique_ptr<Executor> prepare(const ExecutableProgram& program, const CallShape& call) = 0;
  // Runs the call without a program: the reference (CPU, ranks-on-one-gpu) or NCCL (gpu-per-rank).
  virtual Path runFallback(const CallShape& call, std::span<const RankBuffers> buffers) = 0;
  virtual void synchronize() = 0;

  virtual void* allocate(int32_t rank, size_t bytes) = 0;
  virtual void release(int32_t rank, void* p) = 0;
  virtual void upload(int32_t rank, void* dst, const void* src, size_t bytes) = 0;
  virtual void download(int32_t rank, void* dst, const void* src, size_t bytes) = 0;
};

// Throws std::runtime_error with a user-facing message when CUDA is requested but this build has
// no CUDA support or no usable GPU is present (see cudaUnavailableReason()).
std::unique_ptr<Target> makeTarget(const TargetOptions& options);
std::unique_ptr<Target> makeCpuTarget(const TargetOptions& options);
std::unique_ptr<Target> makeCudaTarget(const TargetOptions& options);

// Thrown when CUDA execution is impossible here (not built with CUDA, no device, driver too old).
class CudaUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
bool builtWithCuda();
// Empty when a GPU is usable; otherwise why not ("built without CUDA", "no CUDA device: ...").
std::string cudaUnavailableReason();
// GPUs usable by this process (0 without CUDA).
int cudaDeviceCount();

}  // namespace ccforge::runtime
