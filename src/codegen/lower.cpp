#include "codegen/lower.hpp"

#include "codegen/slot_tracker.hpp"
#include "dsl/dsl_error.hpp"
#include "semantics/size_arithmetic.hpp"

namespace ccforge::codegen {

using ir::Buffer;

std::string describeTraceOp(const dsl::Program& program, int32_t traceOp) {
  const dsl::TraceOp& op = program.trace()[static_cast<size_t>(traceOp)];
  return std::string(dsl::traceOpName(op.kind)) + " at " + dsl::describeLocation(op.where);
}

Lowered lower(const dsl::Program& program, const semantics::RuntimeProfile& target) {
  Lowered out;
  InstructionDag& dag = out.dag;
  const int32_t R = program.refinement();
  const int32_t instances = program.options().instances;
  dag.ranks = program.ranks();
  dag.refinement = R;
  const semantics::Collective coll = program.binding().collective(R);

  std::vector<CanonicalBuffers> maps;
  for (int32_t r = 0; r < program.ranks(); ++r) {
    const int32_t scratch = program.scratchChunks(r) * R;
    out.scratchChunks.push_back(scratch);
    maps.emplace_back(coll, r, program.binding().form, scratch);
    const auto [outBuf, outBase] = maps.back().canonical(Buffer::Output, 0);
    out.outputs.push_back(OutputRange{outBuf, outBase, maps.back().layout().view(Buffer::Output).length});
  }

  size_t expected = 0;
  for (const dsl::TraceOp& op : program.trace()) {
    const int64_t width = int64_t{op.count} * R / (int64_t{instances} * op.parallel);
    expected += static_cast<size_t>(instances * op.parallel * semantics::ceilDiv(width, int64_t{target.maxCount}) *
                                    (op.local() ? 1 : 2));
  }
  dag.instrs.reserve(expected);
  out.uses.assign(expected, ResultUse{});
  dag.edges.reserve(expected * 2);
  SlotTracker slots(maps, out.uses);

  for (size_t t = 0; t < program.trace().size(); ++t) {
    const dsl::TraceOp& op = program.trace()[t];
    const int32_t replicas = instances * op.parallel;
    const int32_t width = op.count * R / replicas;
    const int32_t parts = semantics::ceilDiv(width, target.maxCount);
    const int32_t perPart = op.local() ? 1 : 2;
    const auto first = static_cast<int32_t>(dag.instrs.size());
    const auto [srcBuf, srcBase] = maps[static_cast<size_t>(op.src.rank)].canonical(op.src.buffer, op.src.index * R);
    const auto [dstBuf, dstBase] = maps[static_cast<size_t>(op.dst.rank)].canonical(op.dst.buffer, op.dst.index * R);
    const bool reduce = op.kind == dsl::TraceOpKind::Reduce;

    for (int32_t k = 0; k < replicas; ++k)
      for (int32_t p = 0; p < parts; ++p) {
        // Parts of one replica differ in size by at most one chunk.
        const int32_t begin = k * width + p * width / parts;
        const int32_t cnt = k * width + (p + 1) * width / parts - begin;
        Instr base;
        base.traceOp = static_cast<int32_t>(t);
        base.replica = k;
        base.cnt = cnt;
        base.channelDirective = op.directives.ch;
        const auto id = static_cast<int32_t>(dag.instrs.size());
        base.twin = first + p * perPart;
        if (op.local()) {
          const bool compute = op.kind == dsl::TraceOpKind::Compute;
          Instr i = base;
          i.type = compute ? ir::OpType::Compute : reduce ? ir::OpType::Reduce : ir::OpType::Copy;
          i.rank = op.src.rank;
          i.srcBuf = srcBuf;
          i.srcOff = compute ? -1 : srcBase + begin;  // a compute reads the rank's operands
          i.dstBuf = dstBuf;
          i.dstOff = dstBase + begin;
          i.tbLabel = op.directives.sendtb >= 0 ? op.directives.sendtb : op.directives.recvtb;
          dag.instrs.push_back(i);
          if (!compute) slots.read(i.rank, i.srcBuf, i.srcOff, cnt, id);
          slots.write(i.rank, i.dstBuf, i.dstOff, cnt, id, reduce);
          slots.flush(id, dag.edges);
          continue;
        }
        Instr s = base;
        s.type = ir::OpType::Send;
        s.rank = op.src.rank;
        s.srcBuf = srcBuf;
        s.srcOff = srcBase + begin;
        s.sendPeer = op.dst.rank;
        s.sendTo = id + 1;
        s.tbLabel = op.directives.sendtb;
        Instr r = base;
        r.type = reduce ? ir::OpType::RecvReduceCopy : ir::OpType::Recv;
        r.rank = op.dst.rank;
        r.dstBuf = dstBuf;
        r.dstOff = dstBase + begin;
        if (reduce) {  // the local operand of rrc is the destination itself
          r.srcBuf = r.dstBuf;
          r.srcOff = r.dstOff;
        }
        r.recvPeer = op.src.rank;
        r.recvFrom = id;
        r.twin = base.twin + 1;
        r.tbLabel = op.directives.recvtb;
        dag.instrs.push_back(s);
        dag.instrs.push_back(r);
        slots.read(s.rank, s.srcBuf, s.srcOff, cnt, id);
        slots.flush(id, dag.edges);
        slots.write(r.rank, r.dstBuf, r.dstOff, cnt, id + 1, reduce);
        slots.flush(id + 1, dag.edges);
      }
  }
  out.uses.resize(dag.instrs.size());
  return out;
}

}  // namespace ccforge::codegen
