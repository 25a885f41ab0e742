#include "runtime/cpu/cpu_executor.hpp"

#include "runtime/fused_operands.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <thread>

#include "runtime/core/interpreter.hpp"
#include "runtime/core/poison.hpp"
#include "runtime/cpu/cpu_backend.hpp"
#include "runtime/cpu/scheduler.hpp"
#include "runtime/execution_error.hpp"
#include "runtime/type_dispatch.hpp"

namespace ccforge::runtime {
namespace {

constexpr size_t kCpuWordStride = 8;  // one sync word per cache line

std::string formatSeconds(std::chrono::milliseconds t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", static_cast<double>(t.count()) / 1000);
  return text;
}

}  // namespace

struct CpuExecutor::State {
  // Memory aligned to cache lines, filled with `fill`: zero for sync words and FIFOs, the poison
  // byte for scratch (runtime/core/poison.hpp), so that a read of scratch nothing wrote fails the check.
  struct AlignedBytes {
    explicit AlignedBytes(size_t n, unsigned char fill = 0)
        : size(n), data(static_cast<unsigned char*>(::operator new (n ? n : 1, std::align_val_t{64}))) {
      std::memset(data, fill, size);
    }
    ~AlignedBytes() { ::operator delete (data, std::align_val_t{64}); }
    AlignedBytes(const AlignedBytes&) = delete;
    AlignedBytes& operator=(const AlignedBytes&) = delete;
    size_t size;
    unsigned char* data;
  };

  State(const ExecutableProgram& p, const LaunchPlan& plan, int workers)
      : tbs(static_cast<int32_t>(p.tbs().size())),
        connections(static_cast<int32_t>(p.connections().size())),
        words(static_cast<size_t>(tbs + 2 * connections) * kCpuWordStride, 0),
        fifos(static_cast<size_t>(plan.fifoBytes) * connections),
        scheduler(words.data(), tbs + 2 * connections, kCpuWordStride, workers) {
    for (int64_t bytes : plan.scratchBytes)
      scratch.push_back(std::make_unique<AlignedBytes>(static_cast<size_t>(bytes), kPoisonByte));
    for (int32_t c = 0; c < connections; ++c) {
      ConnectionMemory m;
      m.fifo = fifos.data + static_cast<size_t>(c) * plan.fifoBytes;
      m.head = &words[static_cast<size_t>(tbs + c) * kCpuWordStride];
      m.tail = &words[static_cast<size_t>(tbs + connections + c) * kCpuWordStride];
      connectionMemory.push_back(m);
    }
  }
  void reset() {
    std::fill(words.begin(), words.end(), 0);
    std::memset(fifos.data, 0, fifos.size);
    epoch = 0;
  }
  int32_t tbs;
  int32_t connections;
  std::vector<uint64_t> words;  // flags, then heads, then tails
  AlignedBytes fifos;
  std::vector<std::unique_ptr<AlignedBytes>> scratch;
  std::vector<ConnectionMemory> connectionMemory;
  Scheduler scheduler;
  uint64_t epoch = 0;
};

CpuExecutor::CpuExecutor(const ExecutableProgram& program, const CallShape& call, CpuOptions options)
    : program_(program), call_(call), options_(options), plan_(makeLaunchPlan(program, call, options.tuning)) {
  const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  workers_ = options.workers > 0 ? options.workers : std::min(hardware, 8);
  workers_ = std::max(1, std::min<int>(workers_, static_cast<int>(program.tbs().size())));
  checkFusedCall(program.algorithm(), call, plan_.tiling.chunkElems);
  state_ = std::make_unique<State>(program, plan_, workers_);
}

CpuExecutor::~CpuExecutor() = default;

void CpuExecutor::launch(std::span<const RankBuffers> buffers) {
  validateBuffers(call_, buffers);
  State& s = *state_;
  if (++s.epoch > kMaxEpoch) {
    s.reset();
    s.epoch = 1;
  }
  std::vector<RankMemory> ranks(call_.ranks);
  for (int32_t r = 0; r < call_.ranks; ++r) {
    ranks[r].buffers[kInputBuffer] = static_cast<unsigned char*>(const_cast<void*>(buffers[r].send));
    ranks[r].buffers[kOutputBuffer] = static_cast<unsigned char*>(buffers[r].recv);
    ranks[r].buffers[kScratchBuffer] = s.scratch[r]->data;
    ranks[r].compute = computeTableOf(program_.algorithm(), r, buffers[r], true);
  }
  LaunchState launch;
  launch.program = program_.hostView();
  launch.ranks = ranks.data();
  launch.connections = s.connectionMemory.data();
  launch.flags = s.words.data();
  launch.flagStride = static_cast<int32_t>(kCpuWordStride);
  launch.tiling = plan_.tiling;
  launch.slotStrideBytes = plan_.slotStrideBytes;
  launch.epoch = s.epoch;

  CpuBackend backend(s.scheduler);
  std::vector<TbCursor> cursors(s.tbs);
  for (int32_t t = 0; t < s.tbs; ++t) cursors[t] = startCursor(backend, launch, t);
  const ReduceOp op = reduces(call_.collective) ? call_.op : ReduceOp::Sum;
  const Scheduler::Step step = dispatchTypeOp(call_.dtype, op, [&]<class T, class Op>() -> Scheduler::Step {
    return [&](int32_t t, Scheduler::Blocked& blocked) {
      CpuBackend b(s.scheduler);
      if (advance<CpuBackend, T, Op>(b, launch, t, cursors[t])) return true;
      blocked = Scheduler::Blocked{cursors[t].waitWord, cursors[t].waitTarget};
      return false;
    };
  });
  const Scheduler::Result result = s.scheduler.run(s.tbs, options_.timeout, step);
  if (result.outcome == Scheduler::Outcome::Finished) return;

  std::vector<BlockedTb> blocked;
  for (int32_t t : result.unfinished) blocked.push_back(describeBlocked(program_, t, cursors[t]));
  s.reset();
  const std::string count = std::to_string(blocked.size());
  if (result.outcome == Scheduler::Outcome::Deadlock)
    throw ExecutionFailed(ExecutionFailed::Kind::Deadlock,
                          program_.source() + ": deadlock: " + count + " thread blocks wait and none can make progress",
                          std::move(blocked));
  throw ExecutionFailed(ExecutionFailed::Kind::Timeout,
                        program_.source() + ": the watchdog stopped the launch after " +
                            formatSeconds(options_.timeout) + "; " + count + " thread blocks had not finished",
                        std::move(blocked));
}

}  // namespace ccforge::runtime
