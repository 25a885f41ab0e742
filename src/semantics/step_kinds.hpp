// The table of step kinds: what each MSCCL-IR instruction reads, writes, computes, sends and
// receives when the real runtime executes it (msccl_kernel.cu, mscclRunInterpreter; the
// parser's hasSend/hasRecv/checkSrc/checkDst flags in msccl_parser.cc). The one meaning of a
// step: the verifier, the SMT replay, the simulator, the interpreter (host and device) and the
// compiler all ask this table. Note that rrs/rrc/rrcs reduce the received data with the LOCAL
// srcbuf/srcoff operand, whatever a producer meant by it.
#pragma once

#include <cstdint>

#include "ir/kinds.hpp"
#include "semantics/host_device.hpp"

namespace ccforge::semantics {

struct StepKind {
  bool receives;           // pops a transfer from the receive FIFO
  bool sends;              // pushes a transfer into the send FIFO
  bool readsSource;        // reads the local srcbuf/srcoff operand
  bool readsDestination;   // reads dstbuf/dstoff before writing it (re: dst = dst (+) src)
  bool writesDestination;  // writes dstbuf/dstoff
  bool reduces;            // applies the reduction operator
  bool computes;           // evaluates the rank's operator on its operands (cmp, fused programs)
};

// A switch rather than a table, so that device code can evaluate it.
CCF_HD constexpr StepKind stepKind(ir::OpType t) {
  //                                     recv   send   src    rdDst  wrDst  reduce compute
  switch (t) {
    case ir::OpType::Send: return {false, true, true, false, false, false, false};
    case ir::OpType::Recv: return {true, false, false, false, true, false, false};
    case ir::OpType::RecvCopySend: return {true, true, false, false, true, false, false};
    case ir::OpType::RecvReduceSend: return {true, true, true, false, false, true, false};
    case ir::OpType::RecvReduceCopy: return {true, false, true, false, true, true, false};
    case ir::OpType::RecvReduceCopySend: return {true, true, true, false, true, true, false};
    case ir::OpType::Copy: return {false, false, true, false, true, false, false};
    case ir::OpType::Reduce: return {false, false, true, true, true, true, false};
    // cmp reads no buffer: it reads the rank's operands (read-only, outside the buffers) and
    // defines its destination chunks, the rows [row, row + nrows) of the rank's product.
    case ir::OpType::Compute: return {false, false, false, false, true, false, true};
    case ir::OpType::Nop: break;
  }
  return {false, false, false, false, false, false, false};
}
CCF_HD constexpr bool receives(ir::OpType t) { return stepKind(t).receives; }
CCF_HD constexpr bool sends(ir::OpType t) { return stepKind(t).sends; }
CCF_HD constexpr bool readsLocalSource(ir::OpType t) { return stepKind(t).readsSource; }
CCF_HD constexpr bool readsLocalDestination(ir::OpType t) { return stepKind(t).readsDestination; }
CCF_HD constexpr bool writesLocalDestination(ir::OpType t) { return stepKind(t).writesDestination; }
CCF_HD constexpr bool reduces(ir::OpType t) { return stepKind(t).reduces; }
CCF_HD constexpr bool computes(ir::OpType t) { return stepKind(t).computes; }
// Moves data through a FIFO, so it may block on data or a free slot.
CCF_HD constexpr bool communicates(ir::OpType t) { return receives(t) || sends(t); }
// A receive that also reduces with the local operand (rrs, rrc, rrcs).
CCF_HD constexpr bool reducesReceived(ir::OpType t) { return receives(t) && reduces(t); }

// The value a step writes or sends, element by element, as its flags define it.
enum class StepValue : uint8_t {
  None,                   // nop
  Source,                 // s, cpy: the local source operand
  Incoming,               // r, rcs: the received data
  IncomingPlusSource,     // rrs, rrc, rrcs: the received data (+) the local source operand
  DestinationPlusSource,  // re: the destination's old value (+) the local source operand
  Computed,               // cmp: the rank's operator on its operands
};
CCF_HD constexpr StepValue stepValue(ir::OpType t) {
  const StepKind k = stepKind(t);
  if (k.computes) return StepValue::Computed;
  if (k.reduces) return k.receives ? StepValue::IncomingPlusSource : StepValue::DestinationPlusSource;
  if (k.receives) return StepValue::Incoming;
  return k.readsSource ? StepValue::Source : StepValue::None;
}

}  // namespace ccforge::semantics
