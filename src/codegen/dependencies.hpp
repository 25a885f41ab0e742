// Cross-thread-block dependencies. Every dependency edge between instructions of one rank
// that sit in different thread blocks becomes a wait (depid, deps) on the later one, unless
// the thread block already waited for that step or a later one of the same block. A step can
// carry one wait; further waits go on nop steps placed just before it (the runtime's rules:
// every nop waits on something, no nop ends a thread block, the step after a run of nops has
// its own wait). Steps that are waited for get hasdep.
#pragma once

#include "codegen/instruction_dag.hpp"
#include "codegen/threadblocks.hpp"

namespace ccforge::codegen {

void insertDependencies(Schedule& schedule, const InstructionDag& dag);

}  // namespace ccforge::codegen
