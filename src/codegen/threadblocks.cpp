#include "codegen/threadblocks.hpp"

#include <algorithm>
#include <queue>
#include <tuple>

#include "codegen/compile_error.hpp"
#include "codegen/lower.hpp"

namespace ccforge::codegen {
namespace {

// A sender-only and a receiver-only thread block with the same peer and channel become one.
void pairLoneConnections(ConnectionGraph& g, int32_t cap) {
  const auto n = static_cast<int32_t>(g.size());
  for (int32_t node = 0; node < n; ++node) {
    const auto& info = g.info(node);
    if (info.isLabel || info.dir != Direction::Send) continue;
    const Group& sender = g.group(node);
    if (sender.recvPeer >= 0 || sender.label >= 0) continue;
    const int32_t other = g.findConnection(info.rank, info.channel, Direction::Recv, info.peer);
    if (other < 0) continue;
    const Group& receiver = g.group(other);
    if (receiver.sendPeer < 0 && receiver.label < 0) g.unite(node, other, cap);
  }
}

class Scheduler {
 public:
  Scheduler(const InstructionDag& dag, ChannelAssignment& channels, const dsl::Program& program, int32_t cap,
            int32_t slots, Injection injection)
      : dag_(dag), ch_(channels), program_(program), cap_(cap), slots_(slots), injection_(injection) {
    const size_t n = dag.instrs.size();
    const size_t conns = ch_.graph.size();
    s_.tbOf.assign(n, -1);
    s_.position.assign(n, -1);
    s_.tbsOfRank.resize(static_cast<size_t>(dag.ranks));
    tbOfGroup_.assign(conns, -1);
    remaining_.assign(n, 0);
    nextInQueue_.assign(n, -1);
    head_.assign(conns, -1);
    tail_.assign(conns, -1);
    inFlight_.assign(conns, 0);
    parkedOnConn_.resize(conns);
    parkedStartsOnConn_.resize(conns);
    parkedOnInstr_.resize(n);
    parked_.assign(n, false);
  }

  Schedule run() {
    const auto n = static_cast<int32_t>(dag_.instrs.size());
    int32_t live = 0;
    for (int32_t v = 0; v < n; ++v) {
      const Instr& in = instr(v);
      if (in.removed) continue;
      ++live;
      remaining_[static_cast<size_t>(v)] = static_cast<int32_t>(dag_.preds(v).size()) + (in.recvFrom >= 0 ? 1 : 0);
      if (remaining_[static_cast<size_t>(v)] == 0) push(v);
    }
    for (;;) {
      while (!ready_.empty()) {
        const int32_t v = std::get<2>(ready_.top());
        ready_.pop();
        if (s_.tbOf[static_cast<size_t>(v)] < 0 && !parked_[static_cast<size_t>(v)]) tryTake(v);
      }
      // Nothing can go without overfilling a connection: take the first waiting send anyway.
      const int32_t v = firstWaiting();
      if (v < 0) break;
      parked_[static_cast<size_t>(v)] = false;
      s_.overfull.push_back(chainStart(v));
      take(v);
    }
    if (taken_ != live) reportStuck();
    std::sort(s_.overfull.begin(), s_.overfull.end());
    s_.overfull.erase(std::unique(s_.overfull.begin(), s_.overfull.end()), s_.overfull.end());
    return std::move(s_);
  }

 private:
  using Key = std::tuple<int32_t, int32_t, int32_t>;  // depth, -rdepth, id

  const Instr& instr(int32_t v) const { return dag_.instrs[static_cast<size_t>(v)]; }
  Key key(int32_t v) const { return {instr(v).depth, -instr(v).rdepth, v}; }
  void push(int32_t v) { ready_.push(key(v)); }
  int32_t inConn(int32_t receiver) const { return ch_.sendConn[static_cast<size_t>(instr(receiver).recvFrom)]; }
  int32_t outConn(int32_t sender) const { return ch_.sendConn[static_cast<size_t>(sender)]; }
  int32_t chainStart(int32_t v) const {
    while (instr(v).recvFrom >= 0) v = instr(v).recvFrom;
    return v;
  }

  // The slot a send must leave free on its connection: one for forwarded transfers when a send
  // that starts a chain is held back (Injection::LeaveSlotForForwards).
  int32_t reserveFor(int32_t v) const {
    return injection_ == Injection::LeaveSlotForForwards && instr(v).recvFrom < 0 && slots_ > 1 ? 1 : 0;
  }

  // Takes v if no connection overfills; otherwise parks it on what it waits for.
  void tryTake(int32_t v) {
    if (instr(v).sendTo < 0) return take(v);
    const int32_t q = outConn(v);
    if (inFlight_[static_cast<size_t>(q)] + instr(v).cnt + reserveFor(v) <= slots_) return take(v);
    if (inFlight_[static_cast<size_t>(q)] > 0) return parkOnConn(v, q);
    // Larger than the slots on an idle connection: the receivers must follow as a pipeline.
    int32_t end = instr(v).sendTo;
    for (;;) {
      if (remaining_[static_cast<size_t>(end)] != 1) return parkOnInstr(v, end);
      if (instr(end).sendTo < 0) break;
      const int32_t q2 = outConn(end);
      if (inFlight_[static_cast<size_t>(q2)] + instr(end).cnt <= slots_) break;
      if (inFlight_[static_cast<size_t>(q2)] > 0) return parkOnConn(v, q2);
      end = instr(end).sendTo;
    }
    take(v);
    for (int32_t x = instr(v).sendTo;; x = instr(x).sendTo) {
      take(x);
      if (x == end) break;
    }
  }

  // Parked instructions wait for a connection to drain or for their receiver; `waiting_` finds
  // the first of them when nothing else is left (entries of woken instructions are skipped).
  void parkOnConn(int32_t v, int32_t q) {
    parked_[static_cast<size_t>(v)] = true;
    auto& heap = (reserveFor(v) ? parkedStartsOnConn_ : parkedOnConn_)[static_cast<size_t>(q)];
    heap.push_back(key(v));
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
    waiting_.push(key(v));
  }
  void parkOnInstr(int32_t v, int32_t receiver) {
    parked_[static_cast<size_t>(v)] = true;
    parkedOnInstr_[static_cast<size_t>(receiver)].push_back(v);
    waiting_.push(key(v));
  }
  void wake(int32_t v) {
    if (!parked_[static_cast<size_t>(v)]) return;
    parked_[static_cast<size_t>(v)] = false;
    push(v);
  }
  // Wakes, in order, the sends that now fit on q (the first one also when q is idle): forwards
  // first, then the held-back chain starts with the slot they leave.
  void wakeConn(int32_t q) {
    int32_t room = slots_ - inFlight_[static_cast<size_t>(q)];
    wakeFitting(parkedOnConn_[static_cast<size_t>(q)], q, room);
    if (injection_ == Injection::LeaveSlotForForwards && room > 1) {
      room -= 1;
      wakeFitting(parkedStartsOnConn_[static_cast<size_t>(q)], q, room);
    }
  }
  void wakeFitting(std::vector<Key>& heap, int32_t q, int32_t& room) {
    while (!heap.empty()) {
      const int32_t v = std::get<2>(heap.front());
      if (parked_[static_cast<size_t>(v)]) {
        if (instr(v).cnt > room && inFlight_[static_cast<size_t>(q)] > 0) break;
        room -= instr(v).cnt;
        wake(v);
      }
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      heap.pop_back();
      if (room <= 0) break;
    }
  }
  int32_t firstWaiting() {
    while (!waiting_.empty()) {
      const int32_t v = std::get<2>(waiting_.top());
      waiting_.pop();
      if (parked_[static_cast<size_t>(v)]) return v;
    }
    return -1;
  }

  void release(int32_t v) {
    int32_t& left = remaining_[static_cast<size_t>(v)];
    --left;
    if (left == 1) {
      for (int32_t p : parkedOnInstr_[static_cast<size_t>(v)]) wake(p);
      parkedOnInstr_[static_cast<size_t>(v)].clear();
    }
    if (left != 0) return;
    if (instr(v).recvFrom < 0 || head_[static_cast<size_t>(inConn(v))] == v) push(v);
  }

  void take(int32_t v) {
    const Instr& in = instr(v);
    place(v);
    ++taken_;
    if (in.recvFrom >= 0) {  // v was its connection's head
      const auto q = static_cast<size_t>(inConn(v));
      inFlight_[q] -= in.cnt;
      head_[q] = nextInQueue_[static_cast<size_t>(v)];
      if (head_[q] < 0)
        tail_[q] = -1;
      else if (remaining_[static_cast<size_t>(head_[q])] == 0)
        push(head_[q]);
      wakeConn(static_cast<int32_t>(q));
    }
    for (int32_t s : dag_.succs(v)) release(s);
    if (in.sendTo >= 0) {
      const auto q = static_cast<size_t>(outConn(v));
      inFlight_[q] += in.cnt;
      if (tail_[q] < 0)
        head_[q] = in.sendTo;
      else
        nextInQueue_[static_cast<size_t>(tail_[q])] = in.sendTo;
      tail_[q] = in.sendTo;
      release(in.sendTo);
    }
  }

  int32_t newTb(int32_t rank, int32_t send, int32_t recv, int32_t channel, int32_t planned) {
    const auto id = static_cast<int32_t>(s_.tbs.size());
    s_.tbs.push_back(ScheduledTb{rank, send, recv, channel < 0 ? 0 : channel, {}, {}, 0, planned});
    s_.tbsOfRank[static_cast<size_t>(rank)].push_back(id);
    return id;
  }

  int32_t tbOfNode(int32_t node) {
    const int32_t root = ch_.graph.find(node);
    int32_t& tb = tbOfGroup_[static_cast<size_t>(root)];
    if (tb < 0) {
      const Group& g = ch_.graph.group(root);
      tb = newTb(g.rank, g.sendPeer, g.recvPeer, g.channel, g.ops);
    }
    return tb;
  }

  // Earliest free thread block of the rank with room left; a new one if there is none.
  int32_t tbForLocal(const Instr& in) {
    int32_t best = -1;
    for (int32_t tb : s_.tbsOfRank[static_cast<size_t>(in.rank)]) {
      const ScheduledTb& t = s_.tbs[static_cast<size_t>(tb)];
      if (cap_ > 0 && t.planned >= cap_) continue;
      if (best < 0 || t.freeAt < s_.tbs[static_cast<size_t>(best)].freeAt) best = tb;
    }
    if (best < 0) best = newTb(in.rank, -1, -1, 0, 0);
    ++s_.tbs[static_cast<size_t>(best)].planned;
    return best;
  }

  void place(int32_t v) {
    const Instr& in = instr(v);
    const int32_t home = ch_.home[static_cast<size_t>(v)];
    const int32_t tb = home >= 0 ? tbOfNode(home) : tbForLocal(in);
    ScheduledTb& t = s_.tbs[static_cast<size_t>(tb)];
    s_.tbOf[static_cast<size_t>(v)] = tb;
    s_.position[static_cast<size_t>(v)] = static_cast<int32_t>(t.ops.size());
    t.ops.push_back(v);
    t.freeAt = std::max(t.freeAt, in.depth + 1);
  }

  [[noreturn]] void reportStuck() const {
    for (size_t v = 0; v < dag_.instrs.size(); ++v) {
      const Instr& in = dag_.instrs[v];
      if (in.removed || s_.tbOf[v] >= 0 || in.recvFrom < 0) continue;
      if (remaining_[v] == 0) {  // ready but not its connection's next receive
        throw CompileError(describeTraceOp(program_, in.traceOp) + ": the receive on rank " + std::to_string(in.rank) +
                           " from rank " + std::to_string(in.recvPeer) + " on channel " + std::to_string(in.channel) +
                           " cannot keep the connection's order (an earlier transfer on it waits for this one); "
                           "put these transfers on different channels");
      }
    }
    throw CompileError("the instructions cannot be ordered: the dependencies form a cycle");
  }

  const InstructionDag& dag_;
  ChannelAssignment& ch_;
  const dsl::Program& program_;
  int32_t cap_;
  int32_t slots_;
  Injection injection_;
  Schedule s_;
  int32_t taken_ = 0;
  std::vector<int32_t> tbOfGroup_;
  std::vector<int32_t> remaining_;
  std::vector<int32_t> nextInQueue_, head_, tail_;    // per connection: receives in send order
  std::vector<int32_t> inFlight_;                     // per connection: transfers sent, not yet received
  std::vector<std::vector<Key>> parkedOnConn_;        // min-heaps
  std::vector<std::vector<Key>> parkedStartsOnConn_;  // min-heaps of held-back chain starts
  std::vector<std::vector<int32_t>> parkedOnInstr_;
  std::vector<bool> parked_;
  std::priority_queue<Key, std::vector<Key>, std::greater<>> waiting_;
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ready_;
};

}  // namespace

Schedule assignThreadBlocks(const InstructionDag& dag, ChannelAssignment& channels, const dsl::Program& program,
                            int32_t cap, int32_t slots, Injection injection) {
  pairLoneConnections(channels.graph, cap);
  return Scheduler(dag, channels, program, cap, slots, injection).run();
}

}  // namespace ccforge::codegen
