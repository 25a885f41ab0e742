#include "verify/send_buffer.hpp"

#include <fmt/format.h>

#include "ir/names.hpp"
#include "semantics/step_kinds.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::verify {
namespace {

// A fused program's input buffer holds its product, which its compute steps define (docs/fused.md).
bool writesSendBuffer(const LoadedStep& step) {
  return writesLocalDestination(step.type) && step.dstbuf == ir::Buffer::Input && !computes(step.type);
}

}  // namespace

void checkSendBuffer(const LoadedProgram& program, Findings& findings) {
  const ir::Algorithm& algo = program.algorithm();
  if (!algo.servesOutOfPlace()) return;
  uint32_t writers = 0;
  for (const LoadedStep& step : program.steps()) writers += writesSendBuffer(step) ? 1 : 0;
  if (writers == 0) return;
  const std::string form = algo.outofplace ? "outofplace=\"1\""
                           : algo.inplace  ? "inplace=\"0\""
                                           : "no inplace attribute: the runtime reads 0";
  for (uint32_t s = 0; s < program.stepCount(); ++s) {
    const LoadedStep& step = program.step(s);
    if (!writesSendBuffer(step)) continue;
    const StepRef where =
        stepRef(program, s,
                fmt::format("'{}' writes i[{}..{})", ir::opTypeName(step.type), step.dstoff, step.dstoff + step.cnt));
    findings.error(Check::Buffers, "buffers.sendbuf-written", step.where,
                   fmt::format("rank {} tb {} step {}: '{}' writes i[{}..{}), the caller's const send buffer in an "
                               "out-of-place call ({}); {} step{} of the file write i: keep intermediate values in s "
                               "or o, or declare inplace=\"1\" outofplace=\"0\" if the program only serves in-place "
                               "calls",
                               where.rank, where.tb, where.step, ir::opTypeName(step.type), step.dstoff,
                               step.dstoff + step.cnt, form, writers, writers == 1 ? "" : "s"),
                   {where});
  }
}

}  // namespace ccforge::verify
