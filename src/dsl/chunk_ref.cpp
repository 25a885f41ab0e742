#include "dsl/chunk_ref.hpp"

#include "dsl/dsl_error.hpp"
#include "dsl/program_state.hpp"

namespace ccforge::dsl {
namespace {

ProgramState& stateOf(ProgramState* state, const char* call, SourcePos where) {
  if (state == nullptr) throw DslError(call, where, "the reference is empty (default-constructed)");
  return *state;
}

}  // namespace

ChunkRef ChunkRef::copy(int32_t rank, ir::Buffer buffer, int32_t index, Directives directives, SourcePos where) const {
  return stateOf(state_, "copy", where).copy(*this, ChunkLocation{rank, buffer, index}, directives, where);
}

ChunkRef ChunkRef::reduce(const ChunkRef& other, Directives directives, SourcePos where) const {
  return stateOf(state_, "reduce", where).reduce(*this, other, directives, where);
}

std::vector<ChunkRef> ChunkRef::split(int32_t parts, SourcePos where) const {
  return stateOf(state_, "split", where).split(*this, parts, where);
}

ChunkRef ChunkRef::group(const ChunkRef& other, SourcePos where) const {
  return stateOf(state_, "group", where).group(*this, other, where);
}

}  // namespace ccforge::dsl
