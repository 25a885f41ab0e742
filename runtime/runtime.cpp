#include "runtime/runtime.hpp"

namespace ccforge::runtime {
namespace {

bool sameShape(const CallShape& a, const CallShape& b) {
  return a.collective == b.collective && a.root == b.root && a.ranks == b.ranks && a.form == b.form &&
         a.count == b.count && a.dtype == b.dtype && a.op == b.op;
}

}  // namespace

Runtime::Runtime(ProgramSet programs, std::unique_ptr<Target> target)
    : programs_(std::move(programs)), target_(std::move(target)) {}

Runtime::~Runtime() = default;

Executor& Runtime::executorFor(const ExecutableProgram& program, const CallShape& call) {
  if (!executor_ || executorProgram_ != &program || !sameShape(executorCall_, call)) {
    executor_.reset();
    executor_ = target_->prepare(program, call);
    executorProgram_ = &program;
    executorCall_ = call;
  }
  return *executor_;
}

void Runtime::runProgram(const ExecutableProgram& program, const CallShape& call, std::span<const RankBuffers> buffers,
                         bool wait) {
  validateBuffers(call, buffers);
  Executor& e = executorFor(program, call);
  if (call.count == 0) return;
  e.launch(buffers);
  if (wait) synchronize();
}

void Runtime::synchronize() {
  if (executor_) executor_->wait();
  target_->synchronize();
}

RunResult Runtime::run(const CallShape& call, std::span<const RankBuffers> buffers, bool wait) {
  validateBuffers(call, buffers);
  const Selection selection = programs_.select(call);
  RunResult result;
  if (selection.program) {
    result.program = selection.program;
    runProgram(*selection.program, call, buffers, wait);
    return result;
  }
  result.why = selection.summary();
  result.path = target_->runFallback(call, buffers);
  if (wait) synchronize();
  return result;
}

}  // namespace ccforge::runtime
