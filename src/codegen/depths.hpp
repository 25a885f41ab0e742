// Depth (longest path from the start) and reverse depth (longest path to the end) of every
// instruction, counting dependency and communication edges: the priorities of the paper's
// greedy scheduler.
#pragma once

#include "codegen/instruction_dag.hpp"

namespace ccforge::codegen {

// Instruction ids are a topological order (lowering follows the trace; fusion only merges a
// send into an earlier receive), so one pass each way suffices.
void computeDepths(InstructionDag& dag);

}  // namespace ccforge::codegen
