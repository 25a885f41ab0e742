// The Chunk DAG: the program's copies and reductions (its trace, at the program's own chunk
// granularity) with the dependencies between them, true (a chunk an operation reads was
// written by the other) and false (an operation overwrites what the other read or wrote).
#pragma once

#include <vector>

#include "codegen/instruction_dag.hpp"
#include "dsl/program.hpp"

namespace ccforge::codegen {

// Nodes are the indices of program.trace(); edges go from earlier to later operations.
std::vector<Edge> chunkDagEdges(const dsl::Program& program);

}  // namespace ccforge::codegen
