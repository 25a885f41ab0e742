// Lowering: DSL trace -> Instruction DAG. Every DSL chunk becomes `refinement` compiled chunks
// (instances x the parallelize factors); an operation under factor f is replicated
// instances x f times, each replica taking a contiguous equal part of its range, and parts
// longer than the runtime's cnt limit are split. Buffers are canonicalised (in-place calls
// name one memory once), and dependency edges are derived per chunk slot in trace order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/instruction_dag.hpp"
#include "codegen/slot_tracker.hpp"
#include "semantics/runtime_profile.hpp"
#include "dsl/program.hpp"

namespace ccforge::codegen {

// The output buffer of a rank in canonical terms: values left there are observable.
struct OutputRange {
  ir::Buffer buffer = ir::Buffer::Output;
  int32_t base = 0;
  int32_t length = 0;
};

struct Lowered {
  InstructionDag dag;
  std::vector<ResultUse> uses;         // per instruction
  std::vector<OutputRange> outputs;    // per rank
  std::vector<int32_t> scratchChunks;  // per rank, compiled chunks
};

Lowered lower(const dsl::Program& program, const semantics::RuntimeProfile& target);

// "copy at file.cpp:12" / "reduce at file.cpp:40", for messages about an instruction.
std::string describeTraceOp(const dsl::Program& program, int32_t traceOp);

}  // namespace ccforge::codegen
