// The fallback of gpu-per-rank mode: the call runs as NCCL's own collective (one communicator
// per GPU of this process, created on first use). Only the CUDA build links NCCL.
#pragma once

#include <memory>
#include <span>

#include "runtime/call.hpp"

namespace ccforge::runtime {

class NcclFallback {
 public:
  // Throws std::runtime_error when NCCL cannot initialise the communicators.
  explicit NcclFallback(int32_t ranks);
  ~NcclFallback();
  NcclFallback(const NcclFallback&) = delete;
  NcclFallback& operator=(const NcclFallback&) = delete;
  int32_t ranks() const;
  // Enqueues the call on every GPU (device pointers); synchronize() waits for it.
  void run(const CallShape& call, std::span<const RankBuffers> buffers);
  void synchronize();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ccforge::runtime
