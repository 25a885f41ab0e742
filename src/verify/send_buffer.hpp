// Check 2: the out-of-place contract. In an out-of-place call buffer `i` is the caller's send
// buffer, which every NCCL and MSCCL entry point takes as `const void* sendbuff`; a step that
// writes `i` there corrupts the caller's data. In-place calls alias `i` with `o`, so writing it
// is what in-place programs do.
#pragma once

#include "semantics/loaded_program.hpp"
#include "verify/findings.hpp"

namespace ccforge::verify {

// Reports `buffers.sendbuf-written` for every step that writes `i` when the program serves
// out-of-place calls.
void checkSendBuffer(const LoadedProgram& program, Findings& findings);

}  // namespace ccforge::verify
