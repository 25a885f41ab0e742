// A schedule as an MSCCLang DSL program. Non-combining collectives copy each chunk along its
// tree in step order (a rank keeps a chunk in its output buffer if it wants it, else in scratch).
// Combining collectives run the dual's schedule backwards, reducing partial sums in scratch, and
// the rank the dual chunk started on copies the full sum to its output (reduction_lowering.hpp);
// the input buffers, the callers' const send buffers, are only read. Scatter runs its dual gather's
// schedule backwards the same way, with copies.
#pragma once

#include <string>

#include "dsl/program.hpp"
#include "synth/sccl/problem.hpp"
#include "synth/sccl/schedule.hpp"
#include "synth/sccl/transfer_layout.hpp"

namespace ccforge::synth::sccl {

// `form`: in place, a rank's input is part of its output (allgather) or its output part of its
// input (reducescatter); a copy of a chunk onto itself is left out. `transfers`: the thread blocks
// and channels of the transfers (transfer_layout.hpp).
dsl::Program lowerToDsl(const Problem& problem, const Schedule& schedule, const std::string& name,
                        ir::Protocol protocol = ir::Protocol::Simple,
                        semantics::CallForm form = semantics::CallForm::OutOfPlace,
                        TransferLayout transfers = TransferLayout::PerConnection);

}  // namespace ccforge::synth::sccl
