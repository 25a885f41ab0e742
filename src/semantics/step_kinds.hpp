// The table of step kinds: what each MSCCL-IR instruction reads, writes, computes, sends and
// receives when the real runtime executes it (msccl_kernel.cu, mscclRunInterpreter; the
// parser's hasSend/hasRecv/checkSrc/checkDst flags in msccl_parser.cc). The one meaning of a
// step: the verifier, the SMT replay, the simulator, the interpreter (host and device) and the
// compiler all ask this table. Note that rrs/rrc/rrcs reduce the received data with the LOCAL
// srcbuf/srcoff operand, whatever a producer meant by it.
#pragma once

#include "ir/kinds.hpp"
#include "semantics/host_device.hpp"

namespace ccforge {

struct StepKind {
  bool receives;           // pops a transfer from the receive FIFO
  bool sends;              // pushes a transfer into the send FIFO
  bool readsSource;        // reads the local srcbuf/srcoff operand
  bool readsDestination;   // reads dstbuf/dstoff before writing it (re: dst = dst (+) src)
  bool writesDestination;  // writes dstbuf/dstoff
  bool reduces;            // applies the reduction operator
};

// Indexed by ir::OpType.
inline constexpr StepKind kStepKinds[ir::kOpTypeCount] = {
    //  recv   send   src    rdDst  wrDst  reduce
    {false, true, true, false, false, false},  // s
    {true, false, false, false, true, false},  // r
    {true, true, false, false, true, false},   // rcs
    {true, true, true, false, false, true},    // rrs
    {true, false, true, false, true, true},    // rrc
    {true, true, true, false, true, true},     // rrcs
    {false, false, true, false, true, false},  // cpy
    {false, false, true, true, true, true},    // re
    {false, false, false, false, false, false},  // nop
};

CCF_HD constexpr const StepKind& stepKind(ir::OpType t) { return kStepKinds[static_cast<int>(t)]; }
CCF_HD constexpr bool receives(ir::OpType t) { return stepKind(t).receives; }
CCF_HD constexpr bool sends(ir::OpType t) { return stepKind(t).sends; }
CCF_HD constexpr bool readsLocalSource(ir::OpType t) { return stepKind(t).readsSource; }
CCF_HD constexpr bool readsLocalDestination(ir::OpType t) { return stepKind(t).readsDestination; }
CCF_HD constexpr bool writesLocalDestination(ir::OpType t) { return stepKind(t).writesDestination; }
CCF_HD constexpr bool reduces(ir::OpType t) { return stepKind(t).reduces; }
// Moves data through a FIFO, so it may block on data or a free slot.
CCF_HD constexpr bool communicates(ir::OpType t) { return receives(t) || sends(t); }
// A receive that also reduces with the local operand (rrs, rrc, rrcs).
CCF_HD constexpr bool reducesReceived(ir::OpType t) { return receives(t) && reduces(t); }

}  // namespace ccforge
