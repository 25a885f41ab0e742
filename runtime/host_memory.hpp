// The host memory a call takes on the CPU side of a run (every rank's buffers, the inputs kept for
// the check, the reference's outputs, and the program's scratch), refused up front past
// limits::kMaxRunBufferBytes or three quarters of the machine's memory, whichever is less
// (docs/limits.md), so that a run never ends in bad_alloc.
#pragma once

#include "runtime/call.hpp"
#include "runtime/program.hpp"

namespace ccforge::runtime {

// `program` null: the buffers only (the fallback, or before selection). Throws LimitExceeded (an
// std::invalid_argument) when the buffers do not fit, and ProgramRejected at the <gpu> of the rank
// with the most scratch when the file's scratch is what does not fit.
void checkHostMemory(const CallShape& call, const ExecutableProgram* program);

}  // namespace ccforge::runtime
