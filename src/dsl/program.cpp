#include "dsl/program.hpp"

#include "dsl/program_state.hpp"

namespace ccforge::dsl {

Program::Program(std::string name, CollectiveBinding binding, ProgramOptions options)
    : state_(std::make_unique<ProgramState>(std::move(name), std::move(binding), options)) {}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

ChunkRef Program::chunk(int32_t rank, ir::Buffer buffer, int32_t index, int32_t count, SourceLocation where) {
  return state_->chunk(ChunkLocation{rank, buffer, index}, count, where);
}

void Program::parallelize(int32_t n, const std::function<void()>& fragment, SourceLocation where) {
  state_->parallelize(n, fragment, where);
}

const std::string& Program::name() const { return state_->name; }
const CollectiveBinding& Program::binding() const { return state_->binding; }
const ProgramOptions& Program::options() const { return state_->options; }
const std::vector<TraceOp>& Program::trace() const { return state_->trace; }
int32_t Program::scratchChunks(int32_t rank) const { return state_->scratchChunks(rank); }
int32_t Program::parallelFactors() const { return state_->parallelLcm; }
const ChunkValues& Program::values() const { return state_->values; }

ChunkValues::Id Program::valueAt(int32_t rank, ir::Buffer buffer, int32_t index) const {
  const ProgramState::Slot* s = state_->find(ChunkLocation{rank, buffer, index});
  return s ? s->value : ChunkValues::kUninitialized;
}

int64_t Program::lastWriter(int32_t rank, ir::Buffer buffer, int32_t index) const {
  const ProgramState::Slot* s = state_->find(ChunkLocation{rank, buffer, index});
  return s ? int64_t{s->lastWrite} - 1 : -1;
}

}  // namespace ccforge::dsl
