#include "semantics/step_kinds.hpp"
#include "sim/program_run.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <queue>
#include <sstream>
#include <tuple>
#include <utility>

#include "sim/fluid_network.hpp"

namespace ccforge::sim {
namespace {

constexpr int32_t kMaxCount = 71;  // MSCCL_MAX_COUNT - 1
constexpr size_t kBlockedShown = 12;

// The state of one call: thread blocks, connection FIFOs, the network and pending arrivals.
class Execution {
 public:
  Execution(const ir::Algorithm& a, const CostModel& model, const std::vector<Connection>& connections,
            const std::vector<std::vector<BlockConnections>>& blocks, const std::vector<double>& linkCapacity,
            double bytes)
      : a_(a), model_(model), connections_(connections), network_(linkCapacity), fifo_(connections.size()) {
    const double chunk = bytes / a.nchunksperloop;
    const double tile = model.tileBytes();
    chunkBytes_ = chunk;
    tile_ = tile;
    iterations_ = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(chunk / tile)));
    maxCount_ = static_cast<int32_t>(std::clamp<double>(std::floor(tile / chunk), 1, kMaxCount));
    for (size_t rank = 0; rank < a.gpus.size(); ++rank) {
      firstBlock_.push_back(static_cast<int32_t>(blocks_.size()));
      for (size_t tb = 0; tb < a.gpus[rank].threadBlocks.size(); ++tb)
        blocks_.push_back({static_cast<int32_t>(rank), static_cast<int32_t>(tb), blocks[rank][tb]});
    }
    waiters_.resize(blocks_.size());
    for (Block& b : blocks_)
      if (program(b).steps.empty()) {
        b.done = true;
        ++finished_;
      }
    for (const Connection& c : connections) {
      const double perChannel = model.perChannelGBps(c.route.linkClass).value_or(std::numeric_limits<double>::infinity());
      capOf_.push_back(perChannel * model.efficiency() * 1e9);
      latencyOf_.push_back((c.route.alphaUs + model.hopLatencyUs(c.route.linkClass)) * 1e-6);
    }
  }

  RunResult run(uint64_t eventLimit) {
    eventLimit_ = eventLimit;
    for (size_t g = 0; g < blocks_.size(); ++g) wake(static_cast<int32_t>(g));
    drain();
    while (finished_ < blocks_.size()) {
      double next = network_.nextCompletion();
      if (!arrivals_.empty()) next = std::min(next, std::get<0>(arrivals_.top()));
      if (!std::isfinite(next)) throw SimulationViolation(deadlockReport());
      count();
      for (int64_t id : network_.advanceTo(next)) transferDone(id);
      while (!arrivals_.empty() && std::get<0>(arrivals_.top()) <= next) {
        const auto [time, order, conn, head] = arrivals_.top();
        arrivals_.pop();
        Fifo& f = fifo_[static_cast<size_t>(conn)];
        ++(head ? f.headsArrived : f.arrived);
        wakeReceiver(conn);
      }
      drain();
    }
    return {network_.now() * 1e6 + model_.baseLatencyUs(), iterations_, transfers_};
  }

 private:
  enum class Wait : uint8_t { None, Dependency, Data, Slot };

  struct Block {
    int32_t rank;
    int32_t tb;
    BlockConnections conn;
    int64_t iteration = 0;
    int32_t step = 0;
    int32_t sub = 0;  // transfers of the current step already done
    bool depsMet = false;
    bool busy = false;         // its transfer is on the network
    bool awaitingTail = false;  // forwarding: sent, waits for the last incoming byte
    bool done = false;
    Wait wait = Wait::None;
    // Last flag published: (iteration, step); none yet.
    int64_t flagIteration = -1;
    int32_t flagStep = -1;
  };

  struct Fifo {
    int64_t sent = 0;
    int64_t consumed = 0;
    int64_t headsArrived = 0;  // transfers whose first byte reached the receiver
    int64_t arrived = 0;       // transfers complete at the receiver
    std::deque<double> bytes;  // sizes of sent, unconsumed transfers
    int32_t waitingSender = -1;
    int32_t waitingReceiver = -1;
  };

  const ir::ThreadBlock& program(const Block& b) const {
    return a_.gpus[static_cast<size_t>(b.rank)].threadBlocks[static_cast<size_t>(b.tb)];
  }

  int32_t transfersOf(const ir::Step& s) const {
    if (!receives(s.type) && !sends(s.type)) return 0;
    return (s.cnt + maxCount_ - 1) / maxCount_;
  }

  double bytesOf(const ir::Step& s, int32_t sub, int64_t iteration) const {
    const double perChunk = std::min(tile_, chunkBytes_ - static_cast<double>(iteration) * tile_);
    const int32_t chunks = std::min(maxCount_, s.cnt - sub * maxCount_);
    return chunks * perChunk;
  }

  void wake(int32_t g) {
    Block& b = blocks_[static_cast<size_t>(g)];
    if (b.done || b.busy) return;
    work_.push_back(g);
  }
  void wakeReceiver(int32_t conn) {
    Fifo& f = fifo_[static_cast<size_t>(conn)];
    if (f.waitingReceiver >= 0) wake(std::exchange(f.waitingReceiver, -1));
  }
  void wakeSender(int32_t conn) {
    Fifo& f = fifo_[static_cast<size_t>(conn)];
    if (f.waitingSender >= 0) wake(std::exchange(f.waitingSender, -1));
  }

  // Network events and completed steps both count against the limit.
  void count() {
    if (++events_ > eventLimit_)
      throw SimulationLimit("the simulation needed more than " + std::to_string(eventLimit_) + " events");
  }

  void drain() {
    while (!work_.empty()) {
      int32_t g = work_.front();
      work_.pop_front();
      advance(g);
    }
  }

  void consume(int32_t conn) {
    Fifo& f = fifo_[static_cast<size_t>(conn)];
    ++f.consumed;
    f.bytes.pop_front();
    wakeSender(conn);
  }

  std::string where(const Block& b) const {
    return "rank " + std::to_string(b.rank) + " tb " + std::to_string(b.tb) + " step " + std::to_string(b.step) +
           " (tile iteration " + std::to_string(b.iteration) + ")";
  }

  // Whether the next incoming transfer has its first byte (head) or all of it at the
  // receiver; if not, the block waits on the connection.
  bool ready(Block& b, int32_t g, int32_t conn, bool head) {
    Fifo& in = fifo_[static_cast<size_t>(conn)];
    if ((head ? in.headsArrived : in.arrived) > in.consumed) return true;
    b.wait = Wait::Data;
    in.waitingReceiver = g;
    return false;
  }

  void checkPairedSize(const Block& b, double bytes) const {
    const double sent = fifo_[static_cast<size_t>(b.conn.recv)].bytes.front();
    if (std::fabs(sent - bytes) > 1e-9 * bytes)
      throw SimulationViolation(where(b) + ": receives a transfer of " + std::to_string(bytes) +
                                " bytes, but its sender's paired transfer has " + std::to_string(sent) +
                                " (the cnt of paired steps differs)");
  }

  // Schedules the first (head) or last byte of the newest transfer on `conn` to reach the
  // receiver one route latency from now.
  void arrive(int32_t conn, bool head) {
    arrivals_.emplace(network_.now() + latencyOf_[static_cast<size_t>(conn)], arrivalSeq_++, conn, head);
  }

  void advance(int32_t g) {
    Block& b = blocks_[static_cast<size_t>(g)];
    while (!b.done && !b.busy) {
      const ir::Step& s = program(b).steps[static_cast<size_t>(b.step)];
      if (!b.depsMet) {
        if (s.depid >= 0) {
          const int32_t dep = firstBlock_[static_cast<size_t>(b.rank)] + s.depid;
          const Block& d = blocks_[static_cast<size_t>(dep)];
          if (std::tie(d.flagIteration, d.flagStep) < std::tie(b.iteration, s.deps)) {
            b.wait = Wait::Dependency;
            waiters_[static_cast<size_t>(dep)].push_back(g);
            return;
          }
        }
        b.depsMet = true;
        b.sub = 0;
      }
      if (b.sub < transfersOf(s)) {
        const bool rx = receives(s.type), tx = sends(s.type);
        const double bytes = bytesOf(s, b.sub, b.iteration);
        if (b.awaitingTail) {
          if (!ready(b, g, b.conn.recv, false)) return;
          b.awaitingTail = false;
          consume(b.conn.recv);
          arrive(b.conn.send, false);
          ++b.sub;
          continue;
        }
        // Forwarding steps start sending when the first incoming byte is there (cut-through).
        if (rx && !ready(b, g, b.conn.recv, tx)) return;
        if (rx) checkPairedSize(b, bytes);
        if (tx) {
          Fifo& out = fifo_[static_cast<size_t>(b.conn.send)];
          if (out.sent - out.consumed >= model_.slots()) {
            b.wait = Wait::Slot;
            out.waitingSender = g;
            return;
          }
          const Connection& c = connections_[static_cast<size_t>(b.conn.send)];
          int64_t id = network_.start(c.route.links, bytes, capOf_[static_cast<size_t>(b.conn.send)]);
          ++out.sent;
          out.bytes.push_back(bytes);
          owner_[id] = g;
          b.busy = true;
          b.wait = Wait::None;
          ++transfers_;
          arrive(b.conn.send, true);
          return;
        }
        consume(b.conn.recv);
        ++b.sub;
        continue;
      }
      b.wait = Wait::None;
      count();
      if (s.hasdep) {
        b.flagIteration = b.iteration;
        b.flagStep = b.step;
        for (int32_t w : waiters_[static_cast<size_t>(g)]) wake(w);
        waiters_[static_cast<size_t>(g)].clear();
      }
      b.depsMet = false;
      if (++b.step == static_cast<int32_t>(program(b).steps.size())) {
        b.step = 0;
        if (++b.iteration == iterations_) {
          b.done = true;
          ++finished_;
        }
      }
    }
  }

  void transferDone(int64_t id) {
    auto it = owner_.find(id);
    const int32_t g = it->second;
    owner_.erase(it);
    Block& b = blocks_[static_cast<size_t>(g)];
    const ir::Step& s = program(b).steps[static_cast<size_t>(b.step)];
    b.busy = false;
    if (receives(s.type)) {
      b.awaitingTail = true;  // advance() finishes once the incoming transfer is complete
    } else {
      arrive(b.conn.send, false);
      ++b.sub;
    }
    wake(g);
  }

  std::string deadlockReport() const {
    std::ostringstream out;
    out << "deadlock: no thread block can move and nothing is in flight";
    size_t shown = 0, blocked = 0;
    for (const Block& b : blocks_) {
      if (b.done) continue;
      ++blocked;
      if (shown++ >= kBlockedShown) continue;
      const ir::ThreadBlock& tb = program(b);
      const ir::Step& s = tb.steps[static_cast<size_t>(b.step)];
      out << "\n  " << where(b) << ": waits for ";
      switch (b.wait) {
        case Wait::Dependency: out << "tb " << s.depid << " to finish step " << s.deps; break;
        case Wait::Data: out << "data from rank " << tb.recv << " on channel " << tb.chan; break;
        case Wait::Slot: out << "a free slot towards rank " << tb.send << " on channel " << tb.chan; break;
        case Wait::None: out << "nothing (internal state)"; break;
      }
    }
    if (blocked > kBlockedShown) out << "\n  ... and " << blocked - kBlockedShown << " more blocked thread blocks";
    return out.str();
  }

  const ir::Algorithm& a_;
  const CostModel& model_;
  const std::vector<Connection>& connections_;
  FluidNetwork network_;
  std::vector<Fifo> fifo_;
  std::vector<Block> blocks_;
  std::vector<int32_t> firstBlock_;
  std::vector<std::vector<int32_t>> waiters_;
  std::vector<double> capOf_;
  std::vector<double> latencyOf_;
  std::deque<int32_t> work_;
  std::map<int64_t, int32_t> owner_;
  using Arrival = std::tuple<double, int64_t, int32_t, bool>;  // time, order, connection, head
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> arrivals_;
  int64_t arrivalSeq_ = 0;
  double chunkBytes_ = 0;
  double tile_ = 0;
  int64_t iterations_ = 1;
  int32_t maxCount_ = 1;
  size_t finished_ = 0;
  int64_t transfers_ = 0;
  uint64_t events_ = 0;
  uint64_t eventLimit_ = 0;
};

}  // namespace

ProgramRun::ProgramRun(const ir::Algorithm& algorithm, const topo::Topology& topology, const CostModel& model,
                       std::vector<Connection> connections, std::vector<std::vector<BlockConnections>> blocks)
    : algorithm_(algorithm),
      topology_(topology),
      model_(model),
      connections_(std::move(connections)),
      blocks_(std::move(blocks)) {}

RunResult ProgramRun::run(double bytes, uint64_t eventLimit) const {
  std::vector<double> capacity;
  for (const topo::Link& l : topology_.links()) capacity.push_back(topo::toDouble(l.bandwidthGBps) * model_.efficiency() * 1e9);
  Execution e(algorithm_, model_, connections_, blocks_, capacity, bytes);
  return e.run(eventLimit);
}

}  // namespace ccforge::sim
