// A synthesized schedule through the usual pipeline: DSL program, compiler (which enforces the
// runtime's limits), MSCCL-IR, and the verifier on the result.
#pragma once

#include <optional>
#include <string>

#include "ir/model.hpp"
#include "synth/sccl/problem.hpp"
#include "synth/sccl/schedule.hpp"
#include "synth/sccl/transfer_layout.hpp"
#include "verify/report.hpp"

namespace ccforge::synth::sccl {

struct Emitted {
  ir::Algorithm algorithm;    // the compiled program; meaningless when compilation failed
  verify::FileReport report;  // the verifier's report on the compiled program
  std::string error;          // compilation failure, if any
  bool verified() const { return error.empty() && report.verdict == verify::Verdict::Verified; }
};

// `layout`: the thread blocks and channels of the transfers (transfer_layout.hpp); by default
// ncclize's, or the compiler's where ncclize's exceeds a runtime limit.
Emitted emitVerified(const Problem& problem, const Schedule& schedule, const std::string& name, ir::Protocol protocol,
                     const std::string& source, semantics::CallForm form = semantics::CallForm::OutOfPlace,
                     std::optional<TransferLayout> layout = std::nullopt);
// Allreduce: the reducescatter phase's problem and schedule, then the allgather phase's.
Emitted emitVerifiedAllReduce(const Problem& reduceScatter, const Schedule& reduceScatterSchedule,
                              const Problem& allGather, const Schedule& allGatherSchedule, const std::string& name,
                              ir::Protocol protocol, const std::string& source,
                              semantics::CallForm form = semantics::CallForm::OutOfPlace);

}  // namespace ccforge::synth::sccl
