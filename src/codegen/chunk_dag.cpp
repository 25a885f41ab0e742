#include "codegen/chunk_dag.hpp"

#include "codegen/slot_tracker.hpp"

namespace ccforge::codegen {

std::vector<Edge> chunkDagEdges(const dsl::Program& program) {
  const semantics::Collective coll = program.binding().collective();
  std::vector<CanonicalBuffers> ranks;
  for (int32_t r = 0; r < program.ranks(); ++r)
    ranks.emplace_back(coll, r, program.binding().form, program.scratchChunks(r));
  std::vector<ResultUse> uses(program.trace().size());
  SlotTracker slots(ranks, uses);
  std::vector<Edge> edges;
  for (size_t t = 0; t < program.trace().size(); ++t) {
    const dsl::TraceOp& op = program.trace()[t];
    const auto id = static_cast<int32_t>(t);
    const auto [sb, so] = ranks[static_cast<size_t>(op.src.rank)].canonical(op.src.buffer, op.src.index);
    const auto [db, dof] = ranks[static_cast<size_t>(op.dst.rank)].canonical(op.dst.buffer, op.dst.index);
    if (op.kind != dsl::TraceOpKind::Compute) slots.read(op.src.rank, sb, so, op.count, id);
    slots.write(op.dst.rank, db, dof, op.count, id, op.kind == dsl::TraceOpKind::Reduce);
    slots.flush(id, edges);
  }
  return edges;
}

}  // namespace ccforge::codegen
