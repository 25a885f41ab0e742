#include "runtime/cuda/cuda_executor.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "runtime/compute_first.hpp"
#include "runtime/core/interpreter.hpp"
#include "runtime/core/poison.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/kernel_args.hpp"
#include "runtime/cuda/kernels.hpp"
#include "runtime/execution_error.hpp"
#include "runtime/fused_operands.hpp"

namespace ccforge::runtime {
namespace {

constexpr int32_t kGpuWordStride = 16;  // sync words 128 bytes apart: polled lines are not shared
constexpr int kThreadChoices[] = {kMaxInterpreterThreads, 256, 128, 64};

template <class T>
DeviceMemory deviceCopy(int device, const std::vector<T>& v) {
  DeviceMemory m(device, v.size() * sizeof(T));
  if (!v.empty()) m.upload(v.data(), v.size() * sizeof(T));
  return m;
}

// One cooperative launch: a group of global tbs on one device, consecutive or listed.
struct LaunchGroup {
  int device = 0;
  int32_t firstTb = 0;
  int32_t blocks = 0;
  int threads = 0;
  DeviceMemory tbs, steps, reduceOffsets, connections, ranks;
  DeviceMemory blockTbs;          // the listed tbs, block by block; empty for a consecutive group
  uint64_t* flags = nullptr;      // the device's flags (CudaExecutor::flags_): groups of a device share them
  Stream ownStream;               // destroyed first: waits for the launches that use the memory above
  cudaStream_t stream = nullptr;  // ownStream's, the caller's (CudaExecutorOptions::stream) or the previous group's
};

class CudaExecutor final : public Executor {
 public:
  CudaExecutor(const ExecutableProgram& program, const CallShape& call, const CudaExecutorOptions& options)
      : program_(program),
        call_(call),
        options_(options),
        plan_(makeLaunchPlan(program, call, options.tuning)),
        abort_(sizeof(uint32_t)),
        records_(program.tbs().size() * sizeof(WatchdogRecord)) {
    const ReduceOp op = reduces(call.collective) ? call.op : ReduceOp::Sum;
    kernel_ = interpreterKernelFor(call.dtype, op);
    const bool perRank = options.mode == GpuMode::GpuPerRank;
    int devices = 0;
    checkCuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
    if (perRank && devices < program.ranks())
      throw std::invalid_argument("gpu-per-rank mode needs one GPU per rank: the program has " +
                                  std::to_string(program.ranks()) + " ranks, this machine " + std::to_string(devices) +
                                  " GPUs");
    if (perRank) enablePeerAccess();
    allocateConnections();
    checkFusedCall(program.algorithm(), call, plan_.tiling.chunkElems);
    for (int32_t r = 0; r < program.ranks(); ++r) {
      scratch_.emplace_back(deviceOf(r), static_cast<size_t>(plan_.scratchBytes[r]));
      scratch_.back().fill(kPoisonByte);  // as the CPU backend: a read of unwritten scratch fails the check
    }
    if (options.computeFirst) {
      if (perRank) throw std::invalid_argument("compute-first runs ranks on one GPU only");
      const ComputeFirstSplit split = splitComputeFirst(program);
      addGroup(0, split.computeTbs);
      addGroup(0, split.otherTbs);
    } else if (perRank) {
      for (int32_t r = 0; r < program.ranks(); ++r)
        addGroup(r, consecutive(program.firstTbOf(r), program.firstTbOf(r + 1)));
    } else {
      addGroup(0, consecutive(0, static_cast<int32_t>(program.tbs().size())));
    }
  }

  const LaunchPlan& plan() const override { return plan_; }

  void launch(std::span<const RankBuffers> buffers) override {
    validateBuffers(call_, buffers);
    if (++epoch_ > kMaxEpoch) {
      wait();
      reset();
      epoch_ = 1;
    }
    uploadRankMemory(buffers);
    for (LaunchGroup& g : groups_) {
      KernelArgs args;
      args.state.program =
          ProgramView{reinterpret_cast<const TbTable*>(g.tbs.data()), reinterpret_cast<const ExecStep*>(g.steps.data()),
                      reinterpret_cast<const int32_t*>(g.reduceOffsets.data())};
      args.state.ranks = reinterpret_cast<const RankMemory*>(g.ranks.data());
      args.state.connections = reinterpret_cast<const ConnectionMemory*>(g.connections.data());
      args.state.flags = g.flags;
      args.state.flagStride = kGpuWordStride;
      args.state.tiling = plan_.tiling;
      args.state.slotStrideBytes = plan_.slotStrideBytes;
      args.state.epoch = epoch_;
      args.firstTb = g.firstTb;
      args.blockTbs = reinterpret_cast<const int32_t*>(g.blockTbs.data());
      args.systemScope = options_.mode == GpuMode::GpuPerRank ? 1 : 0;
      args.timeoutNanoseconds = static_cast<uint64_t>(options_.timeout.count()) * 1000000ull;
      args.abort = static_cast<uint32_t*>(abort_.data());
      args.records = static_cast<WatchdogRecord*>(records_.data());
      void* params[] = {&args};
      checkCuda(cudaSetDevice(g.device), "cudaSetDevice");
      checkCuda(cudaLaunchCooperativeKernel(kernel_, dim3(g.blocks), dim3(g.threads), params, 0, g.stream),
                "cudaLaunchCooperativeKernel (interpreter)");
    }
  }

  // Waits for every launch; throws ExecutionFailed when the watchdog stopped one.
  void wait() override {
    for (LaunchGroup& g : groups_) {
      checkCuda(cudaSetDevice(g.device), "cudaSetDevice");
      checkCuda(cudaStreamSynchronize(g.stream), "interpreter kernel");
    }
    if (*static_cast<volatile uint32_t*>(abort_.data()) == 0) return;
    const auto* records = static_cast<const WatchdogRecord*>(records_.data());
    std::vector<BlockedTb> blocked;
    for (int32_t t = 0; t < static_cast<int32_t>(program_.tbs().size()); ++t) {
      const WatchdogRecord& r = records[t];
      if (r.state == kRecordEmpty) continue;
      TbCursor c;
      c.tile = r.tile;
      c.step = r.step;
      c.transfer = r.transfer;
      c.slice = r.slice;
      c.waitKind = static_cast<WaitKind>(r.waitKind);
      blocked.push_back(describeBlocked(program_, t, c));
      if (r.state == kRecordTimedOut) blocked.back().detail += " (timed out)";
    }
    reset();
    char limit[32];
    std::snprintf(limit, sizeof limit, "%.3g s", static_cast<double>(options_.timeout.count()) / 1000);
    const std::string count = std::to_string(blocked.size());
    throw ExecutionFailed(ExecutionFailed::Kind::Timeout,
                          program_.source() +
                              ": the GPU watchdog stopped the launch: a thread block waited more than " + limit +
                              " without progress; " + count + " thread blocks had not finished",
                          std::move(blocked));
  }

 private:
  int deviceOf(int32_t rank) const { return options_.mode == GpuMode::GpuPerRank ? rank : 0; }

  void enablePeerAccess() {
    for (const ConnectionTable& c : program_.connections()) {
      for (auto [from, to] : {std::pair{c.sender, c.receiver}, std::pair{c.receiver, c.sender}}) {
        int can = 0;
        checkCuda(cudaDeviceCanAccessPeer(&can, from, to), "cudaDeviceCanAccessPeer");
        if (!can)
          throw std::invalid_argument("gpu-per-rank mode needs peer access: GPU " + std::to_string(from) +
                                      " cannot access GPU " + std::to_string(to));
        checkCuda(cudaSetDevice(from), "cudaSetDevice");
        const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled)
          cudaGetLastError();
        else
          checkCuda(e, "cudaDeviceEnablePeerAccess");
      }
    }
  }

  void allocateConnections() {
    for (const ConnectionTable& c : program_.connections()) {
      fifos_.emplace_back(deviceOf(c.receiver), static_cast<size_t>(plan_.fifoBytes));
      tails_.emplace_back(deviceOf(c.receiver), sizeof(uint64_t) * kGpuWordStride);
      heads_.emplace_back(deviceOf(c.sender), sizeof(uint64_t) * kGpuWordStride);
    }
    for (size_t i = 0; i < program_.connections().size(); ++i) {
      ConnectionMemory m;
      m.fifo = fifos_[i].data();
      m.head = reinterpret_cast<uint64_t*>(heads_[i].data());
      m.tail = reinterpret_cast<uint64_t*>(tails_[i].data());
      connectionMemory_.push_back(m);
    }
  }

  int chooseThreads(int device, int32_t blocks) const {
    int sms = 0, cooperative = 0;
    checkCuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    checkCuda(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device), "cudaDeviceGetAttribute");
    if (!cooperative)
      throw std::invalid_argument("GPU " + std::to_string(device) + " does not support cooperative launches");
    int fit = 0;
    for (int threads : kThreadChoices) {
      int perSm = 0;
      checkCuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel_, threads, 0),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      fit = std::max(fit, perSm * sms);
      if (perSm * sms >= blocks) return threads;
    }
    throw std::invalid_argument("the program's " + std::to_string(blocks) +
                                " thread blocks cannot all be resident on GPU " + std::to_string(device) +
                                " at once (at most " + std::to_string(fit) +
                                " blocks fit); every tb must run concurrently");
  }

  static std::vector<int32_t> consecutive(int32_t first, int32_t end) {
    std::vector<int32_t> tbs;
    for (int32_t t = first; t < end; ++t) tbs.push_back(t);
    return tbs;
  }

  // A launch of `tbs` (ascending global indices) on `device`, after the previous group's on the
  // same device when there is one (compute-first: on its stream, so the two run in order).
  void addGroup(int device, const std::vector<int32_t>& tbs) {
    LaunchGroup g;
    g.device = device;
    g.firstTb = tbs.front();
    g.blocks = static_cast<int32_t>(tbs.size());
    checkCuda(cudaSetDevice(device), "cudaSetDevice");
    g.threads = chooseThreads(device, g.blocks);
    if (tbs.back() - tbs.front() + 1 != g.blocks) g.blockTbs = deviceCopy(device, tbs);
    const bool sameDevice = !groups_.empty() && groups_.back().device == device;
    if (options_.stream && options_.mode == GpuMode::RanksOnOneGpu) {
      g.stream = options_.stream;
    } else if (sameDevice) {
      g.stream = groups_.back().stream;
    } else {
      g.ownStream = Stream(device);
      g.stream = g.ownStream.get();
    }
    if (!sameDevice) flags_.emplace_back(device, sizeof(uint64_t) * kGpuWordStride * program_.tbs().size());
    g.flags = reinterpret_cast<uint64_t*>(flags_.back().data());
    g.tbs = deviceCopy(device, program_.tbs());
    g.steps = deviceCopy(device, program_.steps());
    g.reduceOffsets = deviceCopy(device, program_.reduceSourceOffsets());
    g.connections = deviceCopy(device, connectionMemory_);
    g.ranks = DeviceMemory(device, sizeof(RankMemory) * program_.ranks());
    groups_.push_back(std::move(g));
  }

  void uploadRankMemory(std::span<const RankBuffers> buffers) {
    std::vector<RankMemory> ranks(call_.ranks);
    for (int32_t r = 0; r < call_.ranks; ++r) {
      ranks[r].buffers[kInputBuffer] = static_cast<unsigned char*>(const_cast<void*>(buffers[r].send));
      ranks[r].buffers[kOutputBuffer] = static_cast<unsigned char*>(buffers[r].recv);
      ranks[r].buffers[kScratchBuffer] = scratch_[r].data();
      ranks[r].compute = computeTableOf(program_.algorithm(), r, buffers[r], false);
    }
    const bool same =
        ranks.size() == uploaded_.size() &&
        std::equal(ranks.begin(), ranks.end(), uploaded_.begin(), [](const RankMemory& a, const RankMemory& b) {
          return std::equal(std::begin(a.buffers), std::end(a.buffers), std::begin(b.buffers)) &&
                 a.compute.a.data == b.compute.a.data && a.compute.b.data == b.compute.b.data;
        });
    if (same) return;
    for (LaunchGroup& g : groups_) {  // launches in flight still read the old table
      checkCuda(cudaSetDevice(g.device), "cudaSetDevice");
      checkCuda(cudaStreamSynchronize(g.stream), "interpreter kernel");
      g.ranks.upload(ranks.data(), sizeof(RankMemory) * ranks.size());
    }
    uploaded_ = ranks;
  }

  void reset() {
    for (auto* list : {&flags_, &fifos_, &heads_, &tails_})
      for (DeviceMemory& m : *list) m.zero();
    abort_.clear();
    records_.clear();
    epoch_ = 0;
  }

  const ExecutableProgram& program_;
  CallShape call_;
  CudaExecutorOptions options_;
  LaunchPlan plan_;
  const void* kernel_ = nullptr;
  MappedHostMemory abort_;
  MappedHostMemory records_;
  std::vector<DeviceMemory> fifos_, heads_, tails_, scratch_;
  std::vector<DeviceMemory> flags_;  // per device, in the order of the groups' devices
  std::vector<ConnectionMemory> connectionMemory_;
  std::vector<LaunchGroup> groups_;
  std::vector<RankMemory> uploaded_;
  uint64_t epoch_ = 0;
};

}  // namespace

std::unique_ptr<Executor> makeCudaExecutor(const ExecutableProgram& program, const CallShape& call,
                                           const CudaExecutorOptions& options) {
  return std::make_unique<CudaExecutor>(program, call, options);
}

}  // namespace ccforge::runtime
