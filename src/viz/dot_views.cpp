#include "semantics/step_kinds.hpp"
#include "viz/dot_views.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "codegen/chunk_dag.hpp"
#include "codegen/fusion.hpp"
#include "codegen/lower.hpp"
#include "ir/names.hpp"
#include "semantics/size_arithmetic.hpp"

namespace ccforge::viz {
using namespace ccforge::codegen;
namespace {

using ir::OpType;

std::string chunks(ir::Buffer b, int32_t off, int32_t cnt) {
  if (cnt == 1) return fmt::format("{}[{}]", ir::bufferLetter(b), off);
  return fmt::format("{}[{}..{}]", ir::bufferLetter(b), off, int64_t{off} + cnt - 1);
}

// [off, off+cnt) of a step as read from a file: the offsets are any int32 (verify reports the
// out-of-range ones), so the end saturates instead of overflowing.
ChunkRange stepChunks(int32_t off, int32_t cnt) {
  const int64_t end = std::min<int64_t>(int64_t{off} + cnt, std::numeric_limits<int32_t>::max());
  return {off, static_cast<int32_t>(end)};
}

std::string rankLabel(int32_t rank, int32_t) { return fmt::format("rank {}", rank); }

// Chunk range of compiled chunks [off, off+cnt) in DSL chunks.
ChunkRange dslChunks(int32_t off, int32_t cnt, int32_t refinement) {
  if (off < 0 || cnt <= 0) return {};
  const int64_t end = semantics::ceilDiv(int64_t{off} + cnt, int64_t{refinement});
  return {off / refinement, static_cast<int32_t>(std::min<int64_t>(end, std::numeric_limits<int32_t>::max()))};
}

}  // namespace

DotModel chunkDagModel(const dsl::Program& program) {
  DotModel m;
  m.title = program.name() + ": Chunk DAG";
  const auto& trace = program.trace();
  for (size_t t = 0; t < trace.size(); ++t) {
    const dsl::TraceOp& op = trace[t];
    m.nodes.push_back(DotNode{op.dst.rank,
                              -1,
                              static_cast<int32_t>(t),
                              {op.src.index, op.src.index + op.count},
                              {op.dst.index, op.dst.index + op.count}});
  }
  for (const Edge& e : chunkDagEdges(program))
    m.edges.push_back(
        DotEdge{e.from, e.to, e.kind == EdgeKind::True ? DotEdgeKind::TrueDependency : DotEdgeKind::FalseDependency});
  m.label = [&trace](int32_t v) {
    const dsl::TraceOp& op = trace[static_cast<size_t>(v)];
    std::string s =
        op.kind == dsl::TraceOpKind::Compute
            ? fmt::format("{}: compute r{} {}", v, op.dst.rank, chunks(op.dst.buffer, op.dst.index, op.count))
            : fmt::format("{}: {} r{} {} -> r{} {}", v, dsl::traceOpName(op.kind), op.src.rank,
                          chunks(op.src.buffer, op.src.index, op.count), op.dst.rank,
                          chunks(op.dst.buffer, op.dst.index, op.count));
    if (op.directives.ch >= 0) s += fmt::format(" ch{}", op.directives.ch);
    if (op.parallel > 1) s += fmt::format(" parallel x{}", op.parallel);
    return s;
  };
  m.clusterLabel = rankLabel;
  return m;
}

DotModel instructionDagModel(const dsl::Program& program, const semantics::RuntimeProfile& target) {
  Lowered lowered = lower(program, target);
  fuse(lowered);
  auto dag = std::make_shared<InstructionDag>(std::move(lowered.dag));
  DotModel m;
  m.title = program.name() + ": Instruction DAG";
  std::vector<int32_t> node(dag->instrs.size(), -1);
  for (size_t i = 0; i < dag->instrs.size(); ++i) {
    const Instr& in = dag->instrs[i];
    if (in.removed) continue;
    node[i] = static_cast<int32_t>(m.nodes.size());
    m.nodes.push_back(DotNode{in.rank, -1, static_cast<int32_t>(i), dslChunks(in.srcOff, in.cnt, dag->refinement),
                              dslChunks(in.dstOff, in.cnt, dag->refinement)});
  }
  for (const Edge& e : dag->edges)
    m.edges.push_back(DotEdge{node[static_cast<size_t>(e.from)], node[static_cast<size_t>(e.to)],
                              e.kind == EdgeKind::True ? DotEdgeKind::TrueDependency : DotEdgeKind::FalseDependency});
  for (size_t i = 0; i < dag->instrs.size(); ++i)
    if (node[i] >= 0 && dag->instrs[i].sendTo >= 0)
      m.edges.push_back(DotEdge{node[i], node[static_cast<size_t>(dag->instrs[i].sendTo)], DotEdgeKind::Communication});
  std::vector<int32_t> instrOf(m.nodes.size());
  for (size_t i = 0; i < node.size(); ++i)
    if (node[i] >= 0) instrOf[static_cast<size_t>(node[i])] = static_cast<int32_t>(i);
  m.label = [dag, instrOf](int32_t v) {
    const Instr& in = dag->instrs[static_cast<size_t>(instrOf[static_cast<size_t>(v)])];
    std::string s(ir::opTypeName(in.type));
    const bool reads = semantics::readsLocalSource(in.type);
    if (reads) s += fmt::format(" {}", chunks(in.srcBuf, in.srcOff, in.cnt));
    if (semantics::writesLocalDestination(in.type) && !(reads && in.srcBuf == in.dstBuf && in.srcOff == in.dstOff))
      s += fmt::format(" -> {}", chunks(in.dstBuf, in.dstOff, in.cnt));
    if (in.recvPeer >= 0) s += fmt::format(" from r{}", in.recvPeer);
    if (in.sendPeer >= 0) s += fmt::format(" to r{}", in.sendPeer);
    if (in.channelDirective >= 0) s += fmt::format(" ch{}", in.channelDirective);
    return s;
  };
  m.clusterLabel = rankLabel;
  return m;
}

DotModel threadBlockModel(const ir::Algorithm& algo) {
  DotModel m;
  m.title = algo.name + ": thread blocks";
  std::map<std::tuple<int32_t, int32_t, int32_t>, std::vector<int32_t>> sent, received;  // (from, to, chan) -> steps
  std::map<std::pair<int32_t, int32_t>, const ir::ThreadBlock*> tbs;                     // (rank, id)
  std::map<std::pair<int32_t, int32_t>, int32_t> firstNode;                              // (rank, id)
  std::vector<const ir::Step*> stepOf;
  for (const ir::Gpu& g : algo.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks) {
      tbs[{g.id, tb.id}] = &tb;
      firstNode[{g.id, tb.id}] = static_cast<int32_t>(m.nodes.size());
      for (size_t s = 0; s < tb.steps.size(); ++s) {
        const ir::Step& st = tb.steps[s];
        const auto v = static_cast<int32_t>(m.nodes.size());
        const bool local = st.type == OpType::Copy || st.type == OpType::Reduce;
        m.nodes.push_back(
            DotNode{g.id, tb.id, static_cast<int32_t>(s),
                    semantics::readsLocalSource(st.type) || local ? stepChunks(st.srcoff, st.cnt) : ChunkRange{},
                    semantics::writesLocalDestination(st.type) || st.type == OpType::RecvReduceSend
                        ? stepChunks(st.dstoff, st.cnt)
                        : ChunkRange{},
                    NodeMark::None, semantics::computes(st.type)});
        stepOf.push_back(&st);
        if (s > 0) m.edges.push_back(DotEdge{v - 1, v, DotEdgeKind::Order});
        if (semantics::sends(st.type)) sent[{g.id, tb.send, tb.chan}].push_back(v);
        if (semantics::receives(st.type)) received[{tb.recv, g.id, tb.chan}].push_back(v);
      }
    }
  for (const auto& [conn, out] : sent) {
    auto it = received.find(conn);
    if (it == received.end()) continue;
    for (size_t k = 0; k < out.size() && k < it->second.size(); ++k)
      m.edges.push_back(DotEdge{out[k], it->second[k], DotEdgeKind::Communication});
  }
  for (size_t v = 0; v < m.nodes.size(); ++v) {
    const ir::Step& st = *stepOf[v];
    if (st.depid < 0) continue;
    auto it = tbs.find({m.nodes[v].rank, st.depid});
    if (it == tbs.end() || st.deps < 0 || st.deps >= static_cast<int32_t>(it->second->steps.size())) continue;
    m.edges.push_back(DotEdge{firstNode.at(it->first) + st.deps, static_cast<int32_t>(v), DotEdgeKind::Wait});
  }
  m.label = [stepOf](int32_t v) {
    const ir::Step& st = *stepOf[static_cast<size_t>(v)];
    std::string s = fmt::format("{}: {}", st.s, ir::opTypeName(st.type));
    if (st.type == OpType::Nop) return s;
    if (st.type == OpType::Compute)
      return fmt::format("{}: {} rows {}..{} -> {}", st.s, ir::computeOpName(st.op), st.row, st.row + st.nrows - 1,
                         chunks(st.dstbuf, st.dstoff, st.cnt));
    const bool reads = semantics::readsLocalSource(st.type);
    if (reads) s += fmt::format(" {}", chunks(st.srcbuf, st.srcoff, st.cnt));
    if (semantics::writesLocalDestination(st.type) && !(reads && st.srcbuf == st.dstbuf && st.srcoff == st.dstoff))
      s += fmt::format(" -> {}", chunks(st.dstbuf, st.dstoff, st.cnt));
    return s;
  };
  m.clusterLabel = [tbs](int32_t rank, int32_t tb) {
    if (tb < 0) return fmt::format("rank {}", rank);
    const ir::ThreadBlock* t = tbs.at({rank, tb});
    return fmt::format("tb {} (send {}, recv {}, ch {})", tb, t->send, t->recv, t->chan);
  };
  return m;
}

std::optional<int32_t> nodeOfStep(const ir::Algorithm& algo, StepId id) {
  int32_t base = 0;
  for (const ir::Gpu& g : algo.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks) {
      if (g.id == id.rank && tb.id == id.tb)
        return id.step >= 0 && id.step < static_cast<int32_t>(tb.steps.size()) ? std::optional(base + id.step)
                                                                               : std::nullopt;
      base += static_cast<int32_t>(tb.steps.size());
    }
  return std::nullopt;
}

std::vector<StepId> highlight(DotModel& model, const ir::Algorithm& algo, const std::vector<HighlightGroup>& groups) {
  // Lower is stronger: a step a finding names stays red even if a witness also runs it.
  auto strength = [](NodeMark m) {
    switch (m) {
      case NodeMark::Finding: return 0;
      case NodeMark::Blocked: return 1;
      case NodeMark::Witness: return 2;
      case NodeMark::None: return 3;
    }
    return 3;
  };
  std::vector<StepId> missing;
  for (const HighlightGroup& g : groups) {
    std::vector<int32_t> nodes;
    for (const StepId& s : g.steps) {
      if (auto v = nodeOfStep(algo, s)) {
        nodes.push_back(*v);
        NodeMark& mark = model.nodes[static_cast<size_t>(*v)].mark;
        if (strength(g.kind) < strength(mark)) mark = g.kind;
      } else {
        missing.push_back(s);
      }
    }
    const DotEdgeKind path = g.kind == NodeMark::Witness ? DotEdgeKind::WitnessPath : DotEdgeKind::FindingPath;
    for (size_t i = 0; i + 1 < nodes.size(); ++i) model.edges.push_back(DotEdge{nodes[i], nodes[i + 1], path});
    if (g.cycle && nodes.size() > 1) model.edges.push_back(DotEdge{nodes.back(), nodes.front(), path});
  }
  return missing;
}

}  // namespace ccforge::viz
