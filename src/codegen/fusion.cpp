#include "codegen/fusion.hpp"

#include <algorithm>

namespace ccforge::codegen {
namespace {

bool compatible(int32_t a, int32_t b) { return a < 0 || b < 0 || a == b; }
int32_t merged(int32_t a, int32_t b) { return a >= 0 ? a : b; }

bool inOutput(const Instr& r, const OutputRange& out) {
  return r.dstBuf == out.buffer && r.dstOff < out.base + out.length && out.base < r.dstOff + r.cnt;
}

// The plain send on r's rank that forwards exactly what r received, if fusing it is allowed.
int32_t fusableSend(const InstructionDag& dag, int32_t rid) {
  const Instr& r = dag.instrs[static_cast<size_t>(rid)];
  for (int32_t sid : dag.succs(rid)) {
    const Instr& s = dag.instrs[static_cast<size_t>(sid)];
    if (s.type != ir::OpType::Send || s.removed || s.srcBuf != r.dstBuf || s.srcOff != r.dstOff || s.cnt != r.cnt)
      continue;
    if (dag.preds(sid).size() != 1) continue;
    if (!compatible(r.channelDirective, s.channelDirective) || !compatible(r.tbLabel, s.tbLabel)) continue;
    return sid;
  }
  return -1;
}

}  // namespace

FusionStats fuse(Lowered& lowered) {
  InstructionDag& dag = lowered.dag;
  dag.buildAdjacency();
  FusionStats stats;
  std::vector<int32_t> into(dag.instrs.size(), -1);  // fused send -> the receive that absorbed it
  for (size_t i = 0; i < dag.instrs.size(); ++i) {
    const auto rid = static_cast<int32_t>(i);
    Instr& r = dag.instrs[i];
    if (r.type != ir::OpType::Recv && r.type != ir::OpType::RecvReduceCopy) continue;
    const int32_t sid = fusableSend(dag, rid);
    if (sid < 0) continue;
    Instr& s = dag.instrs[static_cast<size_t>(sid)];
    if (r.type == ir::OpType::Recv) {
      r.type = ir::OpType::RecvCopySend;
      ++stats.rcs;
    } else {
      const ResultUse& use = lowered.uses[i];
      const bool dead = use.soleReader == sid &&
                        (use.overwritten == r.cnt || !inOutput(r, lowered.outputs[static_cast<size_t>(r.rank)]));
      r.type = dead ? ir::OpType::RecvReduceSend : ir::OpType::RecvReduceCopySend;
      ++(dead ? stats.rrs : stats.rrcs);
    }
    r.sendPeer = s.sendPeer;
    r.sendTo = s.sendTo;
    dag.instrs[static_cast<size_t>(s.sendTo)].recvFrom = rid;
    r.channelDirective = merged(r.channelDirective, s.channelDirective);
    r.tbLabel = merged(r.tbLabel, s.tbLabel);
    s.removed = true;
    into[static_cast<size_t>(sid)] = rid;
  }

  auto rep = [&](int32_t v) { return into[static_cast<size_t>(v)] >= 0 ? into[static_cast<size_t>(v)] : v; };
  std::vector<Edge> edges;
  edges.reserve(dag.edges.size());
  for (const Edge& e : dag.edges) {
    const int32_t a = rep(e.from), b = rep(e.to);
    if (a != b) edges.push_back(Edge{a, b, e.kind});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
    return x.to != y.to ? x.to < y.to : x.from != y.from ? x.from < y.from : x.kind < y.kind;
  });
  edges.erase(std::unique(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
                return x.to == y.to && x.from == y.from;
              }),
              edges.end());
  dag.edges = std::move(edges);
  dag.buildAdjacency();
  return stats;
}

}  // namespace ccforge::codegen
