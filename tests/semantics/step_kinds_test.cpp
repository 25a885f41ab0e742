// The value each MSCCL-IR instruction produces, as the executor's interpreter computes it
// (msccl-executor-nccl src/device/msccl_kernel.cu, mscclRunInterpreter: s sends its source, r/rcs store or forward
// what arrives, rrs/rrc/rrcs reduce it with the local source, re reduces source into destination).
// Written by hand from the runtime, not from the flags table.
#include <catch2/catch.hpp>

#include "semantics/step_kinds.hpp"

using ccforge::ir::OpType;
using ccforge::semantics::StepValue;
using ccforge::semantics::stepValue;

TEST_CASE("the value each step kind produces") {
  CHECK(stepValue(OpType::Send) == StepValue::Source);
  CHECK(stepValue(OpType::Copy) == StepValue::Source);
  CHECK(stepValue(OpType::Recv) == StepValue::Incoming);
  CHECK(stepValue(OpType::RecvCopySend) == StepValue::Incoming);
  CHECK(stepValue(OpType::RecvReduceSend) == StepValue::IncomingPlusSource);
  CHECK(stepValue(OpType::RecvReduceCopy) == StepValue::IncomingPlusSource);
  CHECK(stepValue(OpType::RecvReduceCopySend) == StepValue::IncomingPlusSource);
  CHECK(stepValue(OpType::Reduce) == StepValue::DestinationPlusSource);
  CHECK(stepValue(OpType::Compute) == StepValue::Computed);
  CHECK(stepValue(OpType::Nop) == StepValue::None);
}
