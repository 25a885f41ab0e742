// The trace of a DSL program: every copy, reduce and compute it made, in program order, with the
// scheduling directives given at the call and where the call was made. This is what the
// compiler lowers; it refers to buffers as the program named them (in-place aliasing is the
// compiler's business).
#pragma once

#include <cstdint>
#include "dsl/source_pos.hpp"

#include "ir/model.hpp"
#include "semantics/protocol.hpp"  // kMaxChannels

namespace ccforge::dsl {

// Scheduling directives of one operation; -1 leaves the choice to the compiler.
// For a local operation (same rank) sendtb names its thread block (recvtb if sendtb is -1).
struct Directives {
  int32_t ch = -1;      // channel
  int32_t sendtb = -1;  // thread block (a label of the program) on the sending rank
  int32_t recvtb = -1;  // thread block on the receiving rank
};

struct ChunkLocation {
  int32_t rank = 0;
  ir::Buffer buffer = ir::Buffer::Input;
  int32_t index = 0;
};

// Compute (fused programs): defines dst's chunks, input chunks of its rank, from the rank's
// operands; src is dst.
enum class TraceOpKind : uint8_t { Copy, Reduce, Compute };

constexpr const char* traceOpName(TraceOpKind k) {
  switch (k) {
    case TraceOpKind::Copy: return "copy";
    case TraceOpKind::Reduce: return "reduce";
    case TraceOpKind::Compute: return "compute";
  }
  return "";
}

struct TraceOp {
  TraceOpKind kind = TraceOpKind::Copy;
  ChunkLocation src;  // read
  ChunkLocation dst;  // written (a reduce also reads it: dst = dst (+) src)
  int32_t count = 1;
  Directives directives;
  int32_t parallel = 1;  // the parallelize(n) factor in force at the call (product when nested)
  SourcePos where;

  bool local() const { return src.rank == dst.rank; }
};

}  // namespace ccforge::dsl
