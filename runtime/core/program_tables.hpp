// The loaded program as flat, trivially copyable tables that host and device code index
// directly (runtime/program.hpp builds them from an ir::Algorithm). Thread blocks of all
// ranks are numbered globally: rank 0's tbs first, then rank 1's, ...
#pragma once

#include <cstdint>

#include "ir/kinds.hpp"

namespace ccforge::runtime {

// Buffers of one rank as the interpreter addresses them (ir::Buffer order).
enum BufferIndex : uint8_t { kInputBuffer = 0, kOutputBuffer = 1, kScratchBuffer = 2 };

struct ExecStep {
  ir::OpType kind = ir::OpType::Nop;  // what it does: semantics/step_kinds.hpp
  uint8_t srcBuffer = 0;
  uint8_t dstBuffer = 0;
  uint8_t publishes = 0;  // hasdep: publish the tb's flag after this step
  int32_t srcOffset = 0;  // chunks; for a fused `re` see reduceSources
  int32_t dstOffset = 0;
  int32_t count = 0;              // cnt (for a fused `re`, the last step's cnt)
  int32_t dependencyTb = -1;      // global tb index the step waits for, -1 for none
  int32_t dependencyStep = 0;     // original step index (s) in that tb
  int32_t flagStep = 0;           // original step index published after this step (last of a fused chain)
  int32_t firstReduceSource = 0;  // fused `re`: offsets in reduceSourceOffsets (all in srcBuffer)
  int32_t reduceSourceCount = 0;
};

struct TbTable {
  int32_t rank = 0;
  int32_t tb = 0;         // id within the rank
  int32_t firstStep = 0;  // into the step table
  int32_t stepCount = 0;
  int32_t sendConnection = -1;  // into the connection table, -1 for none
  int32_t recvConnection = -1;
};

// A connection (sender rank, receiver rank, channel): one FIFO with one writer and one reader.
// Host side only: the interpreter reaches FIFOs through TbTable's connection indices.
struct ConnectionTable {
  int32_t sender = 0;
  int32_t receiver = 0;
  int32_t channel = 0;
  int32_t senderTb = -1;  // global tb index, -1 when no tb sends on it
  int32_t receiverTb = -1;
};

// Where the tables the interpreter reads live (host memory for the CPU backend, device memory for CUDA).
struct ProgramView {
  const TbTable* tbs = nullptr;
  const ExecStep* steps = nullptr;
  const int32_t* reduceSourceOffsets = nullptr;
};

}  // namespace ccforge::runtime
