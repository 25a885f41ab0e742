#include "codegen/fusion.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace ccforge::codegen {
namespace {

bool compatible(int32_t a, int32_t b) { return a < 0 || b < 0 || a == b; }
int32_t merged(int32_t a, int32_t b) { return a >= 0 ? a : b; }

bool inOutput(const Instr& r, const OutputRange& out) {
  return r.dstBuf == out.buffer && r.dstOff < out.base + out.length && out.base < r.dstOff + r.cnt;
}

bool directivesAgree(const Instr& a, const Instr& b) {
  return compatible(a.channelDirective, b.channelDirective) && compatible(a.tbLabel, b.tbLabel);
}

// The local copy that produced exactly rrc r's local operand, if r can read the copy's source
// instead: r is the only reader of what the copy wrote and nothing else is ordered after the
// copy (no later write of its source, which r would now read).
int32_t fusableCopy(const Lowered& lowered, int32_t rid) {
  const InstructionDag& dag = lowered.dag;
  const Instr& r = dag.instrs[static_cast<size_t>(rid)];
  for (int32_t cid : dag.preds(rid)) {
    const Instr& c = dag.instrs[static_cast<size_t>(cid)];
    if (c.type != ir::OpType::Copy || c.removed || c.dstBuf != r.srcBuf || c.dstOff != r.srcOff || c.cnt != r.cnt)
      continue;
    if (lowered.uses[static_cast<size_t>(cid)].soleReader != rid || dag.succs(cid).size() != 1) continue;
    if (directivesAgree(c, r)) return cid;
  }
  return -1;
}

// The plain send on r's rank that forwards exactly what r received, if fusing it is allowed.
int32_t fusableSend(const InstructionDag& dag, int32_t rid) {
  const Instr& r = dag.instrs[static_cast<size_t>(rid)];
  for (int32_t sid : dag.succs(rid)) {
    const Instr& s = dag.instrs[static_cast<size_t>(sid)];
    if (s.type != ir::OpType::Send || s.removed || s.srcBuf != r.dstBuf || s.srcOff != r.dstOff || s.cnt != r.cnt)
      continue;
    if (dag.preds(sid).size() != 1) continue;
    if (directivesAgree(r, s)) return sid;
  }
  return -1;
}

// Moves the edges of every absorbed instruction (into[v] >= 0) to the one that absorbed it.
void redirectEdges(InstructionDag& dag, const std::vector<int32_t>& into) {
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
  edges.erase(std::unique(edges.begin(), edges.end(),
                          [](const Edge& x, const Edge& y) { return x.to == y.to && x.from == y.from; }),
              edges.end());
  dag.edges = std::move(edges);
  dag.buildAdjacency();
}

void fuseCopies(Lowered& lowered, FusionStats& stats) {
  InstructionDag& dag = lowered.dag;
  std::vector<int32_t> into(dag.instrs.size(), -1);  // fused copy -> the rrc that absorbed it
  for (size_t i = 0; i < dag.instrs.size(); ++i) {
    Instr& r = dag.instrs[i];
    if (r.type != ir::OpType::RecvReduceCopy) continue;
    const auto rid = static_cast<int32_t>(i);
    const int32_t cid = fusableCopy(lowered, rid);
    if (cid < 0) continue;
    Instr& c = dag.instrs[static_cast<size_t>(cid)];
    r.srcBuf = c.srcBuf;
    r.srcOff = c.srcOff;
    r.channelDirective = merged(r.channelDirective, c.channelDirective);
    r.tbLabel = merged(r.tbLabel, c.tbLabel);
    for (int32_t p : dag.preds(cid))
      if (lowered.uses[static_cast<size_t>(p)].soleReader == cid) lowered.uses[static_cast<size_t>(p)].soleReader = rid;
    c.removed = true;
    into[static_cast<size_t>(cid)] = rid;
    ++stats.copies;
  }
  redirectEdges(dag, into);
}

// The peers (receive, send) an instruction of a chain has on its rank; -1: none.
struct Ends {
  int32_t recv = -1;
  int32_t send = -1;
};

// Two instructions of one chain on one rank share a thread block when they share a peer; they
// cannot when the other peer then differs (a thread block has one send and one receive peer).
bool clash(Ends a, Ends b) {
  const bool sameSend = a.send >= 0 && a.send == b.send;
  const bool sameRecv = a.recv >= 0 && a.recv == b.recv;
  return (sameSend && a.recv >= 0 && b.recv >= 0 && a.recv != b.recv) ||
         (sameRecv && a.send >= 0 && b.send >= 0 && a.send != b.send);
}

// A chain of fused transfers runs on one channel, one thread block per rank it passes, so a chain
// that comes back to a rank with one peer the same and the other different can be placed on no
// channel (hierarchical rings: rank 0 forwards from its node ring to the cross-node ring, and later
// from the cross-node ring to the same peer). Walks every chain the candidate fusions would make and
// drops the fusion where such a clash starts: the receive ends one chain, the send starts the next.
// A chain without a clash, the only kind that could be placed before, is kept whole.
void dropClashingFusions(const InstructionDag& dag, std::vector<int32_t>& fusedSend) {
  std::vector<int8_t> isFusedSend(dag.instrs.size(), 0);
  for (int32_t sid : fusedSend)
    if (sid >= 0) isFusedSend[static_cast<size_t>(sid)] = 1;
  std::vector<std::vector<Ends>> seen(static_cast<size_t>(dag.ranks));  // this chain's instructions per rank
  std::vector<int32_t> touched;
  auto restart = [&] {
    for (int32_t rank : touched) seen[static_cast<size_t>(rank)].clear();
    touched.clear();
  };
  auto visit = [&](int32_t rank, Ends e) {
    std::vector<Ends>& here = seen[static_cast<size_t>(rank)];
    if (std::any_of(here.begin(), here.end(), [&](Ends o) { return clash(o, e); })) return false;
    if (here.empty()) touched.push_back(rank);
    here.push_back(e);
    return true;
  };
  for (size_t i = 0; i < dag.instrs.size(); ++i) {
    const Instr& start = dag.instrs[i];
    if (start.removed || start.type != ir::OpType::Send || isFusedSend[i]) continue;
    restart();
    visit(start.rank, Ends{-1, start.sendPeer});
    for (int32_t rid = start.sendTo; rid >= 0;) {
      const Instr& r = dag.instrs[static_cast<size_t>(rid)];
      int32_t& sid = fusedSend[static_cast<size_t>(rid)];
      if (sid < 0) break;
      const Instr& s = dag.instrs[static_cast<size_t>(sid)];
      if (!visit(r.rank, Ends{r.recvPeer, s.sendPeer})) {
        sid = -1;
        restart();
        visit(s.rank, Ends{-1, s.sendPeer});
      }
      rid = s.sendTo;
    }
  }
  restart();
}

// The peer most of a connection's forwarded transfers pair with (the lowest on a tie).
int32_t mostCommon(const std::map<int32_t, int64_t>& counts) {
  int32_t best = -1;
  int64_t most = 0;
  for (const auto& [peer, n] : counts)
    if (n > most) {
      best = peer;
      most = n;
    }
  return best;
}

// Keeps a fusion only when its receive peer is the one most fusions sending over the same
// connection receive from, and its send peer the one most fusions receiving over the same
// connection send to: afterwards every connection of a rank has one pairing.
void keepOnePairingPerConnection(const InstructionDag& dag, std::vector<int32_t>& fusedSend) {
  std::map<std::pair<int32_t, int32_t>, std::map<int32_t, int64_t>> recvPeersBySend, sendPeersByRecv;
  for (size_t i = 0; i < dag.instrs.size(); ++i) {
    if (fusedSend[i] < 0) continue;
    const Instr& r = dag.instrs[i];
    const Instr& s = dag.instrs[static_cast<size_t>(fusedSend[i])];
    ++recvPeersBySend[{r.rank, s.sendPeer}][r.recvPeer];
    ++sendPeersByRecv[{r.rank, r.recvPeer}][s.sendPeer];
  }
  for (size_t i = 0; i < dag.instrs.size(); ++i) {
    if (fusedSend[i] < 0) continue;
    const Instr& r = dag.instrs[i];
    const Instr& s = dag.instrs[static_cast<size_t>(fusedSend[i])];
    if (mostCommon(recvPeersBySend[{r.rank, s.sendPeer}]) != r.recvPeer ||
        mostCommon(sendPeersByRecv[{r.rank, r.recvPeer}]) != s.sendPeer)
      fusedSend[i] = -1;
  }
}

void fuseSends(Lowered& lowered, Pairing pairing, FusionStats& stats) {
  InstructionDag& dag = lowered.dag;
  std::vector<int32_t> fusedSend(dag.instrs.size(), -1);  // receive -> the send it absorbs
  for (size_t i = 0; i < dag.instrs.size(); ++i) {
    const Instr& r = dag.instrs[i];
    if (!r.removed && (r.type == ir::OpType::Recv || r.type == ir::OpType::RecvReduceCopy))
      fusedSend[i] = fusableSend(dag, static_cast<int32_t>(i));
  }
  dropClashingFusions(dag, fusedSend);
  if (pairing == Pairing::OnePerConnection) keepOnePairingPerConnection(dag, fusedSend);
  std::vector<int32_t> into(dag.instrs.size(), -1);  // fused send -> the receive that absorbed it
  for (size_t i = 0; i < dag.instrs.size(); ++i) {
    const auto rid = static_cast<int32_t>(i);
    Instr& r = dag.instrs[i];
    const int32_t sid = fusedSend[i];
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
  redirectEdges(dag, into);
}

}  // namespace

FusionStats fuse(Lowered& lowered, Pairing pairing) {
  lowered.dag.buildAdjacency();
  FusionStats stats;
  fuseCopies(lowered, stats);
  fuseSends(lowered, pairing, stats);
  return stats;
}

}  // namespace ccforge::codegen
