// The MSCCLang compiler: DSL program -> MSCCL-IR for a target runtime.
//   trace postcondition check -> lowering (Instruction DAG) -> fusion -> depths ->
//   channel assignment -> thread-block assignment -> cross-tb dependencies -> emission.
// When a thread block would exceed the runtime's steps limit, the automatic parts of the
// schedule are redone with fewer instructions per thread block; directives are never changed.
// A rank whose share of the file exceeds the XML nodes the runtime's parser stores per load
// (semantics/parser_nodes.hpp) is an error: no schedule of the same instructions is smaller.
// Output is deterministic: the same program gives byte-identical IR.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "semantics/runtime_profile.hpp"
#include "dsl/program.hpp"
#include "ir/model.hpp"

namespace ccforge::codegen {

struct CompileOptions {
  semantics::RuntimeProfile target = semantics::executorProfile();
};

struct CompileStats {
  int64_t traceOps = 0;
  int64_t instructions = 0;  // after fusion
  int64_t rcs = 0, rrcs = 0, rrs = 0;
  int64_t fusedCopies = 0;  // local copies an rrc absorbed (it reads their source)
  int64_t threadBlocks = 0;
  int64_t steps = 0;
  int64_t nops = 0;
  int32_t channels = 0;
  int32_t stepCap = 0;   // instructions per thread block the final schedule allowed itself
  int32_t attempts = 0;  // schedules tried
};

struct Compiled {
  ir::Algorithm algorithm;
  CompileStats stats;
  std::vector<std::string> notes;  // things the user may want to know (shared channels, ...)
};

// Throws CompileError (postcondition violated on the trace, or no schedule within the limits).
Compiled compile(const dsl::Program& program, const CompileOptions& options = {});

}  // namespace ccforge::codegen
