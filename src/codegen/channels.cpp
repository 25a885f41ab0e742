#include "codegen/channels.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "codegen/compile_error.hpp"
#include "codegen/lower.hpp"

namespace ccforge::codegen {
namespace {

class ChannelAssigner {
 public:
  ChannelAssigner(InstructionDag& dag, const dsl::Program& program, const semantics::RuntimeProfile& target,
                  int32_t cap, const std::vector<bool>& isolated, Isolation isolation, ChainOrder order)
      : dag_(dag),
        program_(program),
        target_(target),
        cap_(cap),
        owners_(ownersOf(isolated, isolation)),
        order_(order),
        result_{ConnectionGraph(dag.ranks, target), std::vector<int32_t>(dag.instrs.size(), -1),
                std::vector<int32_t>(dag.instrs.size(), -1), 1} {}

  ChannelAssignment run() {
    placeLabelledLocalOps();
    std::vector<int32_t> starts;
    for (size_t i = 0; i < dag_.instrs.size(); ++i) {
      const Instr& in = dag_.instrs[i];
      if (!in.removed && in.sendTo >= 0 && in.recvFrom < 0) starts.push_back(static_cast<int32_t>(i));
    }
    if (order_ == ChainOrder::LongestFirst) {
      std::vector<int32_t> length(dag_.instrs.size(), 0);
      for (int32_t s : starts)
        for (int32_t v = s; v >= 0; v = instr(v).sendTo) ++length[static_cast<size_t>(s)];
      std::stable_sort(starts.begin(), starts.end(), [&](int32_t a, int32_t b) {
        return length[static_cast<size_t>(a)] > length[static_cast<size_t>(b)];
      });
    }
    int32_t used = 0;  // channels replica 0 uses
    for (bool pinned : {true, false})
      for (int32_t s : starts)
        if (instr(s).replica == 0 && (directive(s) >= 0) == pinned) used = std::max(used, place(s, -1) + 1);
    const int32_t stride = std::max(used, 1);
    result_.stride = stride;
    for (int32_t s : starts)
      if (instr(s).replica > 0) place(s, stride);
    return std::move(result_);
  }

 private:
  Instr& instr(int32_t i) { return dag_.instrs[static_cast<size_t>(i)]; }

  // Per chain start, the owner of the connections it creates (ConnectionGraph::kOpen: shared).
  std::vector<int32_t> ownersOf(const std::vector<bool>& isolated, Isolation isolation) {
    std::vector<int32_t> owners(isolated.size(), ConnectionGraph::kOpen);
    std::map<std::vector<std::pair<int32_t, int32_t>>, int32_t> flows;  // links used -> owner
    for (size_t s = 0; s < isolated.size(); ++s) {
      if (!isolated[s]) continue;
      if (isolation == Isolation::PerChain) {
        owners[s] = static_cast<int32_t>(s);
        continue;
      }
      std::vector<std::pair<int32_t, int32_t>> links;
      for (int32_t v = static_cast<int32_t>(s); v >= 0; v = instr(v).sendTo)
        if (instr(v).sendPeer >= 0) links.emplace_back(instr(v).rank, instr(v).sendPeer);
      std::sort(links.begin(), links.end());
      links.erase(std::unique(links.begin(), links.end()), links.end());
      owners[s] = flows.emplace(std::move(links), static_cast<int32_t>(flows.size())).first->second;
    }
    return owners;
  }

  void placeLabelledLocalOps() {
    for (size_t i = 0; i < dag_.instrs.size(); ++i) {
      const Instr& in = dag_.instrs[i];
      if (in.removed || in.sendPeer >= 0 || in.recvPeer >= 0 || in.tbLabel < 0) continue;
      const int32_t node = result_.graph.label(in.rank, in.tbLabel, in.replica);
      result_.graph.attach(node, 0);
      result_.home[i] = node;
    }
  }

  int32_t directive(int32_t start) const { return chainDirective(dag_, start); }

  // Places the chain starting at `start`; returns its channel. `stride` < 0 for replica 0.
  int32_t place(int32_t start, int32_t stride) {
    const int32_t k = instr(start).replica;
    const int32_t pinned = directive(start);
    const int32_t limit = target_.maxChannels;
    if (pinned >= 0) {
      const int32_t c = stride < 0 ? pinned : (pinned + k * stride) % limit;
      if (!tryChannel(start, c, 0))
        throw NoChannelError(describeTraceOp(program_, failedOp_) + ": channel " + std::to_string(c) +
                             (c != pinned
                                  ? " (channel " + std::to_string(pinned) + " of replica " + std::to_string(k) + ")"
                                  : std::string()) +
                             " cannot carry this transfer: " + result_.graph.failure());
      return c;
    }
    int32_t first = 0;
    if (stride >= 0) {
      const int32_t twin = instr(start).twin;
      const int32_t twinChannel = instr(twin).channel;
      first = ((twinChannel >= 0 ? twinChannel : 0) + k * stride) % limit;
    }
    for (int32_t i = 0; i < limit; ++i) {
      const int32_t c = (first + i) % limit;
      if (tryChannel(start, c, cap_, owners_[static_cast<size_t>(start)])) return c;
    }
    throw NoChannelError(describeTraceOp(program_, failedOp_) + ": no channel can carry this transfer from rank " +
                         std::to_string(instr(start).rank) + ": on every channel, " + result_.graph.failure());
  }

  bool tryChannel(int32_t start, int32_t c, int32_t cap, int32_t owner = ConnectionGraph::kOpen) {
    ConnectionGraph& g = result_.graph;
    g.begin();
    for (int32_t v = start; v >= 0; v = instr(v).sendTo) {
      const Instr& in = instr(v);
      failedOp_ = in.traceOp;
      const int32_t sc = in.sendPeer >= 0 ? g.connection(in.rank, c, Direction::Send, in.sendPeer, owner) : -1;
      const int32_t rc = in.recvPeer >= 0 ? g.connection(in.rank, c, Direction::Recv, in.recvPeer, owner) : -1;
      const int32_t home = sc >= 0 ? sc : rc;
      bool ok = (in.sendPeer < 0 || sc >= 0) && (in.recvPeer < 0 || rc >= 0);
      ok = ok && (sc < 0 || rc < 0 || g.unite(sc, rc, cap));
      ok = ok && (in.tbLabel < 0 || g.unite(home, g.label(in.rank, in.tbLabel, in.replica), cap));
      ok = ok && g.attach(home, cap);
      if (!ok) {
        g.rollback();
        return false;
      }
    }
    g.commit();
    for (int32_t v = start; v >= 0; v = instr(v).sendTo) {
      Instr& in = instr(v);
      in.channel = c;
      const size_t i = static_cast<size_t>(v);
      result_.sendConn[i] = in.sendPeer >= 0 ? g.findConnection(in.rank, c, Direction::Send, in.sendPeer) : -1;
      result_.home[i] =
          in.sendPeer >= 0 ? result_.sendConn[i] : g.findConnection(in.rank, c, Direction::Recv, in.recvPeer);
    }
    return true;
  }

  InstructionDag& dag_;
  const dsl::Program& program_;
  const semantics::RuntimeProfile& target_;
  int32_t cap_;
  std::vector<int32_t> owners_;
  ChainOrder order_;
  ChannelAssignment result_;
  int32_t failedOp_ = 0;
};

}  // namespace

int32_t chainDirective(const InstructionDag& dag, int32_t start) {
  bool labelled = false;
  for (int32_t v = start; v >= 0; v = dag.instrs[static_cast<size_t>(v)].sendTo) {
    const Instr& in = dag.instrs[static_cast<size_t>(v)];
    if (in.channelDirective >= 0) return in.channelDirective;
    labelled = labelled || in.tbLabel >= 0;
  }
  return labelled ? 0 : -1;
}

ChannelAssignment assignChannels(InstructionDag& dag, const dsl::Program& program,
                                 const semantics::RuntimeProfile& target, int32_t cap,
                                 const std::vector<bool>& isolated, Isolation isolation, ChainOrder order) {
  return ChannelAssigner(dag, program, target, cap, isolated, isolation, order).run();
}

}  // namespace ccforge::codegen
