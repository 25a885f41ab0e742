// The oracle's model of a loaded program: what msccl-executor-nccl's parser builds from the XML
// (kernel_oracle_parse.cpp) and its kernel runs (kernel_oracle.cpp). Internal to the oracle.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernel_oracle.hpp"

namespace ccforge::property::oracle {

// src/include/msccl/msccl_struct.h:19-20 at c6f6b36.
constexpr int32_t kMaxCount = 72;
constexpr int32_t kMaxReduceFusion = 16;

enum class Kind { Send, Recv, RecvCopySend, RecvReduceSend, RecvReduceCopy, RecvReduceCopySend, Copy, Reduce, Compute };
enum Buf : int32_t { In = 0, Out = 1, Scratch = 2, Operands = 3 };

struct Transmission {
  Kind kind = Kind::Copy;
  int32_t srcBuf = In, srcOff = 0, dstBuf = In, dstOff = 0, count = 0;
  bool hasDependence = false;
  std::vector<std::pair<int32_t, int32_t>> dependences;  // (bid, step)
  std::vector<int32_t> reductionSrcOffsets;
};

struct Block {
  int32_t bid = 0, sendPeer = -1, recvPeer = -1, channel = 0;
  std::vector<Transmission> transmissions;
};

struct Rank {
  int32_t id = 0, scratchChunks = 0;
  std::vector<Block> blocks;
};

struct OracleProgram {
  int32_t ngpus = 0;
  bool fused = false;
  std::vector<Rank> ranks;  // indexed by gpu id
};

inline bool sends(Kind k) {
  return k == Kind::Send || k == Kind::RecvCopySend || k == Kind::RecvReduceSend || k == Kind::RecvReduceCopySend;
}
inline bool receives(Kind k) {
  return k == Kind::Recv || k == Kind::RecvCopySend || k == Kind::RecvReduceSend || k == Kind::RecvReduceCopy ||
         k == Kind::RecvReduceCopySend;
}

// Why the executor would not load or run the program.
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ccforge::property::oracle
