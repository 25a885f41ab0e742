// The runtime's entry point: a set of programs on a target. run() selects a program for the call
// (runtime/program_set.hpp), executes it with the interpreter, or runs the fallback when no
// program serves the call; the result says which path ran and why.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "runtime/program_set.hpp"
#include "runtime/target.hpp"

namespace ccforge::runtime {

struct RunResult {
  Path path = Path::Interpreter;
  const ExecutableProgram* program = nullptr;  // the program that ran (interpreter path)
  std::string why;                             // fallback: why no program served the call
};

class Runtime {
 public:
  Runtime(ProgramSet programs, std::unique_ptr<Target> target);
  ~Runtime();

  const ProgramSet& programs() const { return programs_; }
  Target& target() { return *target_; }

  // Validates the call and its buffers first (std::invalid_argument; nothing is written then),
  // then runs it. With `wait`, returns after the call completed; otherwise call synchronize().
  // Throws ExecutionFailed when the watchdog stops a launch.
  RunResult run(const CallShape& call, std::span<const RankBuffers> buffers, bool wait = true);
  // Runs `program` for the call, without selection: std::invalid_argument when it cannot serve it.
  void runProgram(const ExecutableProgram& program, const CallShape& call, std::span<const RankBuffers> buffers,
                  bool wait = true);
  void synchronize();
  // The executor of the last interpreted call (its launch plan), if any.
  const Executor* lastExecutor() const { return executor_.get(); }

 private:
  Executor& executorFor(const ExecutableProgram& program, const CallShape& call);

  ProgramSet programs_;
  std::unique_ptr<Target> target_;
  std::unique_ptr<Executor> executor_;  // cached for repeated calls of the same shape
  const ExecutableProgram* executorProgram_ = nullptr;
  CallShape executorCall_;
};

}  // namespace ccforge::runtime
