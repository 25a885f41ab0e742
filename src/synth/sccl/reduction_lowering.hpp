// The reduction phase of a combining collective: the dual's schedule run backwards (step s of
// the dual becomes step S + 1 - s; a send a -> b becomes b's partial sum reduced into a's), for
// out-of-place programs, whose input buffers are the callers' const send buffers: the rank the
// dual chunk started on keeps its partial sum where the full sum belongs, in its output, and
// every other rank in a scratch slot of its own. The first contribution a rank receives for a
// chunk is reduced with its own input into that place (a copy plus a reduction in the DSL, one
// rrc after compilation); inputs are only read (in place, the output is the input). This is the
// schedule in-place reductions would have, with scratch in place of the input: the same steps
// and the same performance, and no copy of the sums at the end.
#pragma once

#include <functional>

#include "dsl/program.hpp"
#include "synth/sccl/problem.hpp"
#include "synth/sccl/schedule.hpp"
#include "synth/sccl/transfer_layout.hpp"

namespace ccforge::synth::sccl {

// `inputIndex(chunk)`: where every rank's contribution to the chunk lies in its input;
// `outputIndex(chunk)`: where the chunk's source puts the sum in its output.
void lowerReductionPhase(dsl::Program& program, const Problem& problem, const Schedule& schedule,
                         const std::function<int32_t(int32_t)>& inputIndex,
                         const std::function<int32_t(int32_t)>& outputIndex, TransferLayout transfers);

}  // namespace ccforge::synth::sccl
