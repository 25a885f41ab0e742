// Program::checkPostcondition: the trace-level check, so that a wrong route is reported in
// DSL terms (which chunk, which call wrote it) before anything is lowered.
#include "dsl/dsl_error.hpp"
#include "dsl/program.hpp"
#include "dsl/program_state.hpp"

namespace ccforge::dsl {

Program::PostconditionResult Program::checkPostcondition(size_t maxDetails) const {
  PostconditionResult result;
  const semantics::Collective coll = state_->binding.collective();
  semantics::ChunkValues& values = state_->values;
  for (int32_t r = 0; r < ranks(); ++r)
    for (int32_t i = 0; i < coll.outputChunks(); ++i) {
      const auto expected = coll.expectedOutput(values, r, i);
      const semantics::ChunkValues::Id actual = valueAt(r, ir::Buffer::Output, i);
      if (!expected || *expected == actual) continue;
      ++result.mismatches;
      if (result.details.size() >= maxDetails) continue;
      std::string line = describeChunks(ChunkLocation{r, ir::Buffer::Output, i}) + " holds " + values.describe(actual) +
                         ", expected " + values.describe(*expected);
      const int64_t writer = lastWriter(r, ir::Buffer::Output, i);
      if (writer >= 0) {
        const TraceOp& op = trace()[static_cast<size_t>(writer)];
        line += " (last written by " + std::string(traceOpName(op.kind)) + " at " + describeLocation(op.where) + ")";
      } else if (actual == semantics::ChunkValues::kUninitialized) {
        line += " (never written)";
      }
      result.details.push_back(std::move(line));
    }
  return result;
}

}  // namespace ccforge::dsl
