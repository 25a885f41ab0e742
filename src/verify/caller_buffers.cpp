#include "verify/caller_buffers.hpp"

#include <fmt/format.h>

#include "ir/names.hpp"
#include "semantics/step_kinds.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::verify {
namespace {

// A fused program's input buffer holds its product, which its compute steps define (docs/fused.md).
bool writesSendBuffer(const semantics::LoadedStep& step) {
  return semantics::writesLocalDestination(step.type) && step.dstbuf == ir::Buffer::Input &&
         !semantics::computes(step.type);
}

void checkSendBuffer(const semantics::LoadedProgram& program, Findings& findings) {
  const ir::Algorithm& algo = program.algorithm();
  uint32_t writers = 0;
  for (const semantics::LoadedStep& step : program.steps()) writers += writesSendBuffer(step) ? 1 : 0;
  if (writers == 0) return;
  const std::string form = algo.outofplace ? "outofplace=\"1\""
                           : algo.inplace  ? "inplace=\"0\""
                                           : "no inplace attribute: the runtime reads 0";
  for (uint32_t s = 0; s < program.stepCount(); ++s) {
    const semantics::LoadedStep& step = program.step(s);
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

// The buffer a non-root rank may pass as NULL, if the collective has one.
std::optional<ir::Buffer> rootOnlyBuffer(semantics::CollectiveType type) {
  switch (type) {
    case semantics::CollectiveType::Reduce:
    case semantics::CollectiveType::Gather: return ir::Buffer::Output;
    case semantics::CollectiveType::Broadcast:
    case semantics::CollectiveType::Scatter: return ir::Buffer::Input;
    default: return std::nullopt;
  }
}

void checkRootOnlyBuffer(const semantics::LoadedProgram& program, const semantics::Collective& collective,
                         Findings& findings) {
  const std::optional<ir::Buffer> buffer = rootOnlyBuffer(collective.type());
  if (!buffer) return;
  for (uint32_t s = 0; s < program.stepCount(); ++s) {
    const semantics::LoadedStep& step = program.step(s);
    const int32_t rank = program.rankOf(program.tbOfStep(s));
    if (rank == collective.root() || step.type == ir::OpType::Nop) continue;
    const bool reads = semantics::readsLocalSource(step.type) && step.srcbuf == *buffer;
    const bool writes = semantics::writesLocalDestination(step.type) && step.dstbuf == *buffer;
    if (!reads && !writes) continue;
    const int32_t offset = writes ? step.dstoff : step.srcoff;
    const StepRef where =
        stepRef(program, s,
                fmt::format("'{}' {} {}[{}..{})", ir::opTypeName(step.type), writes ? "writes" : "reads",
                            ir::bufferLetter(*buffer), offset, int64_t{offset} + step.cnt));
    findings.error(Check::Buffers, "buffers.root-only", step.where,
                   fmt::format("rank {} tb {} step {}: '{}' {} {}[{}..{}) on a rank that is not the root ({}) of an "
                               "out-of-place {}; NCCL lets a non-root rank pass NULL as its {} buffer, which only the "
                               "root uses: keep the values in s",
                               where.rank, where.tb, where.step, ir::opTypeName(step.type), writes ? "writes" : "reads",
                               ir::bufferLetter(*buffer), offset, int64_t{offset} + step.cnt, collective.root(),
                               collectiveTypeName(collective.type()), ir::bufferName(*buffer)),
                   {where});
  }
}

}  // namespace

void checkCallerBuffers(const semantics::LoadedProgram& program, const std::optional<semantics::Collective>& collective,
                        Findings& findings) {
  if (!program.algorithm().servesOutOfPlace()) return;
  checkSendBuffer(program, findings);
  if (collective) checkRootOnlyBuffer(program, *collective, findings);
}

}  // namespace ccforge::verify
