// The CUDA backend of the interpreter core: one CUDA block per thread block. Thread 0 polls and
// publishes FIFO counters and flags, a thread each polls a run of dependency flags (volatile
// accesses with fences, at GPU scope when all ranks share a GPU, at system scope across GPUs),
// __syncthreads_or/_and make the answer uniform,
// and data moves in 16-byte packs through L2 (ld/st.global.cg): other blocks read and write it.
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/core/packs.hpp"

namespace ccforge::runtime {

class DeviceBackend {
 public:
  static constexpr int kVectorBytes = 16;
  static constexpr int kUnroll = 4;      // packs in flight per thread
  static constexpr int kWarpLanes = 32;  // compute steps: a warp per product element (core/compute.hpp)

  __device__ explicit DeviceBackend(bool systemScope) : systemScope_(systemScope) {}

  __device__ int thread() const { return static_cast<int>(threadIdx.x); }
  __device__ int threads() const { return static_cast<int>(blockDim.x); }
  __device__ void barrier() const { __syncthreads(); }
  // The butterfly of core/compute.hpp over the warp's lanes; every lane gets the sum.
  __device__ float butterflySum(float v) const {
    for (int h = kWarpLanes / 2; h > 0; h /= 2) v += __shfl_xor_sync(0xffffffffu, v, h);
    return v;
  }
  __device__ bool allThreads(bool v) const { return __syncthreads_and(v) != 0; }

  __device__ uint64_t loadOwn(const uint64_t* word) const { return *reinterpret_cast<const volatile uint64_t*>(word); }
  // This thread alone; callers make the answer uniform (allThreads) before anyone reads data.
  __device__ bool acquireAtLeast(const uint64_t* word, uint64_t target) const {
    const bool ready = *reinterpret_cast<const volatile uint64_t*>(word) >= target;
    if (ready) fence();  // acquire: what was published before the word is visible after it
    return ready;
  }
  __device__ bool pollAtLeast(const uint64_t* word, uint64_t target) const {
    const int ready = threadIdx.x == 0 && acquireAtLeast(word, target);
    return __syncthreads_or(ready) != 0;
  }
  // Callers have synchronised the block: thread 0 publishes for all of it.
  __device__ void releaseStore(uint64_t* word, uint64_t value) const {
    if (threadIdx.x == 0) {
      fence();
      *reinterpret_cast<volatile uint64_t*>(word) = value;
    }
  }
  // LL tails: receivers poll the lines' flags, the tail only carries the count to the next launch.
  __device__ void progressStore(uint64_t* word, uint64_t value) const {
    if (threadIdx.x == 0) *reinterpret_cast<volatile uint64_t*>(word) = value;
  }

  __device__ uint64_t loadLine(const uint64_t* line) const { return *reinterpret_cast<const volatile uint64_t*>(line); }
  __device__ void storeLine(uint64_t* line, uint64_t value) const {
    *reinterpret_cast<volatile uint64_t*>(line) = value;
  }

  template <int N>
  __device__ Bytes<N> load(const unsigned char* p) const {
    Bytes<N> v;
    if constexpr (N == 16) {
      const uint4 x = __ldcg(reinterpret_cast<const uint4*>(p));
      memcpy(v.b, &x, 16);
    } else if constexpr (N == 8) {
      const unsigned long long x = __ldcg(reinterpret_cast<const unsigned long long*>(p));
      memcpy(v.b, &x, 8);
    } else if constexpr (N == 4) {
      const unsigned int x = __ldcg(reinterpret_cast<const unsigned int*>(p));
      memcpy(v.b, &x, 4);
    } else if constexpr (N == 2) {
      const unsigned short x = __ldcg(reinterpret_cast<const unsigned short*>(p));
      memcpy(v.b, &x, 2);
    } else {
      static_assert(N == 1, "pack sizes are 1, 2, 4, 8 or 16 bytes");
      v.b[0] = __ldcg(p);
    }
    return v;
  }
  template <int N>
  __device__ void store(unsigned char* p, const Bytes<N>& v) const {
    if constexpr (N == 16) {
      uint4 x;
      memcpy(&x, v.b, 16);
      __stcg(reinterpret_cast<uint4*>(p), x);
    } else if constexpr (N == 8) {
      unsigned long long x;
      memcpy(&x, v.b, 8);
      __stcg(reinterpret_cast<unsigned long long*>(p), x);
    } else if constexpr (N == 4) {
      unsigned int x;
      memcpy(&x, v.b, 4);
      __stcg(reinterpret_cast<unsigned int*>(p), x);
    } else if constexpr (N == 2) {
      unsigned short x;
      memcpy(&x, v.b, 2);
      __stcg(reinterpret_cast<unsigned short*>(p), x);
    } else {
      __stcg(p, v.b[0]);
    }
  }

 private:
  __device__ void fence() const {
    if (systemScope_)
      __threadfence_system();
    else
      __threadfence();
  }
  bool systemScope_;
};

}  // namespace ccforge::runtime
