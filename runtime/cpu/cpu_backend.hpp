// The CPU backend of the interpreter core: one thread per thread block (so barriers are no-ops),
// std::atomic_ref for flags, FIFO counters and LL lines, and a wake-up of the scheduler after
// every store another thread block may wait on.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>

#include "runtime/core/packs.hpp"
#include "runtime/cpu/scheduler.hpp"

namespace ccforge::runtime {

class CpuBackend {
 public:
  static constexpr int kVectorBytes = 0;  // element loops; the compiler vectorises them
  static constexpr int kUnroll = 1;
  static constexpr int kWarpLanes = 1;  // compute steps: each element in full (core/compute.hpp)

  explicit CpuBackend(Scheduler& scheduler) : scheduler_(scheduler) {}

  int thread() const { return 0; }
  int threads() const { return 1; }
  void barrier() {}
  bool allThreads(bool v) const { return v; }

  uint64_t loadOwn(const uint64_t* word) const { return ref(word).load(std::memory_order_relaxed); }
  bool acquireAtLeast(const uint64_t* word, uint64_t target) const {
    return ref(word).load(std::memory_order_acquire) >= target;
  }
  bool pollAtLeast(const uint64_t* word, uint64_t target) const { return acquireAtLeast(word, target); }
  void releaseStore(uint64_t* word, uint64_t value) {
    ref(word).store(value, std::memory_order_release);
    scheduler_.wake(word);
  }
  // The scheduler parks LL receivers on the tail, so it is published like any other word.
  void progressStore(uint64_t* word, uint64_t value) { releaseStore(word, value); }

  uint64_t loadLine(const uint64_t* line) const { return ref(line).load(std::memory_order_relaxed); }
  void storeLine(uint64_t* line, uint64_t value) { ref(line).store(value, std::memory_order_relaxed); }

  template <int N>
  Bytes<N> load(const unsigned char* p) const {
    Bytes<N> v;
    std::memcpy(v.b, p, N);
    return v;
  }
  template <int N>
  void store(unsigned char* p, const Bytes<N>& v) const {
    std::memcpy(p, v.b, N);
  }

 private:
  static std::atomic_ref<uint64_t> ref(const uint64_t* word) {
    return std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(word));
  }
  Scheduler& scheduler_;
};

}  // namespace ccforge::runtime
