#include "dsl/program.hpp"

#include "dsl/program_state.hpp"

#include <stdexcept>

namespace ccforge::dsl {

Program::Program(std::string name, CollectiveBinding binding, ProgramOptions options)
    : state_(std::make_unique<ProgramState>(std::move(name), std::move(binding), options)) {}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

ChunkRef Program::chunk(int32_t rank, ir::Buffer buffer, int32_t index, int32_t count, SourcePos where) {
  return state_->chunk(ChunkLocation{rank, buffer, index}, count, where);
}

ChunkRef Program::compute(int32_t rank, int32_t index, int32_t count, Directives directives, SourcePos where) {
  return state_->compute(ChunkLocation{rank, ir::Buffer::Input, index}, count, directives, where);
}

void Program::parallelize(int32_t n, const std::function<void()>& fragment, SourcePos where) {
  state_->parallelize(n, fragment, where);
}

const std::string& Program::name() const { return state_->name; }
const CollectiveBinding& Program::binding() const { return state_->binding; }
const ProgramOptions& Program::options() const { return state_->options; }
const std::vector<TraceOp>& Program::trace() const { return state_->trace; }
int32_t Program::scratchChunks(int32_t rank) const { return state_->scratchChunks(rank); }
bool Program::sharesMemory(ChunkLocation a, int32_t countA, ChunkLocation b, int32_t countB) const {
  if (a.rank < 0 || a.rank >= ranks() || b.rank < 0 || b.rank >= ranks() || a.index < 0 || b.index < 0) return false;
  return state_->overlap(a, countA, b, countB);
}
void Program::replaceCustomPostcondition(std::vector<semantics::ChunkMapEntry> post) {
  if (!state_->binding.custom) throw std::invalid_argument("only a custom collective's postcondition can be replaced");
  semantics::CustomCollectiveSpec spec = *state_->binding.custom;
  spec.post = std::move(post);
  (void)semantics::Collective::custom(spec);  // its checks (ranks and indices in range)
  state_->binding.custom = std::move(spec);
}
int32_t Program::parallelFactors() const { return state_->parallelLcm; }
const semantics::ChunkValues& Program::values() const { return state_->values; }

semantics::ChunkValues::Id Program::valueAt(int32_t rank, ir::Buffer buffer, int32_t index) const {
  const ProgramState::Slot* s = state_->find(ChunkLocation{rank, buffer, index});
  return s ? s->value : semantics::ChunkValues::kUninitialized;
}

int64_t Program::lastWriter(int32_t rank, ir::Buffer buffer, int32_t index) const {
  const ProgramState::Slot* s = state_->find(ChunkLocation{rank, buffer, index});
  return s ? int64_t{s->lastWrite} - 1 : -1;
}

}  // namespace ccforge::dsl
