// The Instruction DAG: every copy and reduce of the trace, cut into the compiled chunk
// granularity, replicated for instances and parallelized fragments, and split into the
// runtime's instructions (a remote operation becomes a sending and a receiving instruction
// joined by a communication edge). Dependency edges are per rank and per chunk slot: true
// (read after write) and false (write after read or write). Passes after lowering fill in
// fusion, channels, thread blocks and steps.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ir/model.hpp"

namespace ccforge::codegen {

enum class EdgeKind : uint8_t { True, False };

struct Instr {
  ir::OpType type = ir::OpType::Nop;
  ir::Buffer srcBuf = ir::Buffer::Input;  // local operands, canonical buffers, compiled chunks
  ir::Buffer dstBuf = ir::Buffer::Input;
  bool removed = false;  // fused into another instruction
  int32_t rank = 0;
  int32_t srcOff = -1;
  int32_t dstOff = -1;
  int32_t cnt = 0;
  int32_t sendPeer = -1;
  int32_t recvPeer = -1;
  int32_t sendTo = -1;    // sending instructions: the instruction that receives the data
  int32_t recvFrom = -1;  // receiving instructions: the instruction that sent it
  int32_t traceOp = 0;    // the DSL operation it comes from
  int32_t replica = 0;    // instance x parallel part
  int32_t twin = 0;       // the same instruction of replica 0
  int32_t channelDirective = -1;
  int32_t tbLabel = -1;  // the program's thread block label, -1 for automatic
  // Filled by the passes.
  int32_t channel = -1;
  int32_t depth = 0;   // longest path from the start, communication edges included
  int32_t rdepth = 0;  // longest path to the end
};

struct Edge {
  int32_t from = 0;
  int32_t to = 0;
  EdgeKind kind = EdgeKind::True;
};

class InstructionDag {
 public:
  std::vector<Instr> instrs;
  std::vector<Edge> edges;  // same-rank dependencies, no duplicates
  int32_t ranks = 0;
  int32_t refinement = 1;  // compiled chunks per DSL chunk

  // Predecessors/successors by dependency edges (not communication), after buildAdjacency().
  void buildAdjacency();
  std::span<const int32_t> preds(int32_t i) const;
  std::span<const int32_t> succs(int32_t i) const;

 private:
  std::vector<int32_t> predStart_, pred_, succStart_, succ_;
};

}  // namespace ccforge::codegen
