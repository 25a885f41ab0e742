// MSCCL-IR emission: the scheduled thread blocks of every rank, numbered the way the runtime
// needs (dense ids sorted by send peer, receive peer and channel; every thread block that is
// waited for gets an id the executor's int8 depid can hold), with the header of the target.
#pragma once

#include "codegen/instruction_dag.hpp"
#include "codegen/lower.hpp"
#include "semantics/runtime_profile.hpp"
#include "codegen/threadblocks.hpp"
#include "dsl/program.hpp"
#include "ir/model.hpp"

namespace ccforge::codegen {

// Throws CompileError when more thread blocks are waited for than depid can name.
ir::Algorithm emitAlgorithm(const dsl::Program& program, const Lowered& lowered, const Schedule& schedule,
                            const semantics::RuntimeProfile& target);

}  // namespace ccforge::codegen
