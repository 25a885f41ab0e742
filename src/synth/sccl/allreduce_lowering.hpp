// An allreduce schedule (docs/synth.md) as one MSCCLang DSL program bound to allreduce with
// chunk factor ranks * C: piece p of origin o is index o * C + p of every rank's buffer. Phase 1
// runs the reducescatter schedule backwards with reductions in scratch (reduction_lowering.hpp),
// leaving piece (o, p) fully reduced in rank o's output and every input untouched (the program
// serves out-of-place calls); phase 2 copies it along the allgather schedule to every rank's
// output at the same index.
#pragma once

#include <string>

#include "dsl/program.hpp"
#include "synth/sccl/problem.hpp"
#include "synth/sccl/schedule.hpp"
#include "synth/sccl/transfer_layout.hpp"

namespace ccforge::synth::sccl {

// `reduceScatter` and `allGather` are the phases' problems for the same C.
dsl::Program lowerAllReduceToDsl(const Problem& reduceScatter, const Schedule& reduceScatterSchedule,
                                 const Problem& allGather, const Schedule& allGatherSchedule, const std::string& name,
                                 ir::Protocol protocol = ir::Protocol::Simple,
                                 semantics::CallForm form = semantics::CallForm::OutOfPlace,
                                 TransferLayout transfers = TransferLayout::PerConnection);

}  // namespace ccforge::synth::sccl
