// Check 2: what the caller's buffers allow.
// - In an out-of-place call buffer `i` is the caller's send buffer, which every NCCL and MSCCL
//   entry point takes as `const void* sendbuff`; a step that writes `i` there corrupts the
//   caller's data. In-place calls alias `i` with `o`, so writing it is what in-place programs do.
// - A rooted collective's non-root ranks may pass NULL for the buffer only the root uses (NCCL's
//   API: ncclReduce's recvbuff and ncclBroadcast's sendbuff are significant on the root only; the
//   same for MSCCL's gather and scatter); the runtimes hand that pointer to the kernel unchanged.
#pragma once

#include <optional>

#include "semantics/collective.hpp"
#include "semantics/loaded_program.hpp"
#include "verify/findings.hpp"

namespace ccforge::verify {

// Reports `buffers.sendbuf-written` for every step that writes `i` when the program serves
// out-of-place calls, and `buffers.root-only` for every step of a non-root rank of an
// out-of-place rooted collective that touches the buffer only the root passes.
void checkCallerBuffers(const semantics::LoadedProgram& program, const std::optional<semantics::Collective>& collective,
                        Findings& findings);

}  // namespace ccforge::verify
