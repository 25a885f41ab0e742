// The enumerations of MSCCL-IR (protocol, collective, buffer, instruction type) as plain
// one-byte enums with no dependencies, so that device code can name them too. What each
// instruction type does is the semantics' business (semantics/step_kinds.hpp).
#pragma once

#include <cstdint>

namespace ccforge::ir {

enum class Protocol : uint8_t { Simple, LL, LL128 };

// The collective named by algo.coll. Both spellings of the msccl-tools versions map here;
// Algorithm::collName keeps the spelling found in the file.
enum class CollectiveKind : uint8_t {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  Broadcast,
  Reduce,
  Gather,
  Scatter,
  Send,
  Recv,
  AllToAllV,
  Custom,
};

// The order matches the runtime's buffer numbers (MSCCL_INPUT_BUFFER 0, OUTPUT 1, SCRATCH 2).
enum class Buffer : uint8_t { Input, Output, Scratch };

enum class OpType : uint8_t {
  Send,                // s
  Recv,                // r
  RecvCopySend,        // rcs
  RecvReduceSend,      // rrs
  RecvReduceCopy,      // rrc
  RecvReduceCopySend,  // rrcs
  Copy,                // cpy
  Reduce,              // re
  Nop,                 // nop
  Compute,             // cmp: a fused program's compute step (docs/fused.md)
};

// The operator of a fused program (docs/fused.md): what a compute step evaluates.
enum class ComputeOp : uint8_t {
  None,
  Gemv,          // gemv:  out[i]    = sum_k A[i,k] * B[k]
  EmbeddingBag,  // embag: out[b,d]  = sum_l A[B[b,l], d]   (B holds i32 row indices)
  Gemm,          // gemm:  out[t,f]  = sum_h A[t,h] * B[h,f]
};

// Element type of an operand.
enum class OperandType : uint8_t { F32, I32 };

}  // namespace ccforge::ir
