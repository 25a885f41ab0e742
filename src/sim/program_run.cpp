#include "sim/program_run.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <sstream>
#include <tuple>
#include <utility>

#include "semantics/fifo_machine.hpp"
#include "semantics/size_arithmetic.hpp"
#include "sim/fluid_network.hpp"

namespace ccforge::sim {
namespace {

constexpr size_t kBlockedShown = 12;

semantics::MachineConfig configFor(const semantics::LoadedProgram& p, uint64_t bytes) {
  const int64_t tile = semantics::tileBytes(p.algorithm().proto);
  // The runtime rounds the chunk up (DIVUP(nBytes, nchunksperloop)), in integers: a double
  // quotient rounds above 2^53 bytes. Past 2^63 - 1 bytes the chunk is as large as anything a
  // tile count can tell apart.
  const uint64_t chunkWide =
      semantics::ceilDiv(bytes, static_cast<uint64_t>(std::max(p.algorithm().nchunksperloop, 1)));
  const auto chunk = static_cast<int64_t>(std::min<uint64_t>(chunkWide, std::numeric_limits<int64_t>::max()));
  return semantics::machineConfig(p.algorithm().proto, std::max<int64_t>(1, semantics::tileIterations(chunk, tile)),
                                  semantics::maxAllowedCount(chunk, tile));
}

// The state of one call: the machine, the network, and when units reach their receivers.
class Execution {
 public:
  Execution(const semantics::LoadedProgram& p, const CostModel& model, const std::vector<topo::Route>& routes,
            const std::vector<double>& linkCapacity, uint64_t bytes, std::optional<topo::GpuSpec> gpu)
      : p_(p),
        model_(model),
        routes_(routes),
        network_(linkCapacity),
        machine_(p, configFor(p, bytes)),
        chunkBytes_(static_cast<double>(bytes) / p.algorithm().nchunksperloop),
        tile_(static_cast<double>(semantics::tileBytes(p.algorithm().proto))),
        conn_(p.connections().size()),
        tb_(static_cast<size_t>(p.threadBlockCount())),
        flagWaiters_(static_cast<size_t>(p.threadBlockCount())),
        gpu_(std::move(gpu)),
        computeFree_(static_cast<size_t>(p.ranks()), 0.0),
        rankFinish_(static_cast<size_t>(p.ranks()), 0.0) {
    for (const topo::Route& r : routes) {
      const double perChannel = model.perChannelGBps(r.linkClass).value_or(std::numeric_limits<double>::infinity());
      capOf_.push_back(perChannel * model.efficiency() * 1e9);
      latencyOf_.push_back((r.alphaUs + model.hopLatencyUs(r.linkClass)) * 1e-6);
    }
  }

  RunResult run(uint64_t eventLimit) {
    eventLimit_ = eventLimit;
    // Every unit started is an event, so a call moving more units than the limit is answered
    // before it runs (a file's cnt may be 2^31 - 1).
    uint64_t units = 0;
    for (uint32_t st = 0; st < p_.stepCount(); ++st) units += static_cast<uint64_t>(machine_.unitsOf(p_.step(st)));
    if (units > eventLimit_ / static_cast<uint64_t>(machine_.config().tiles)) throwLimit();
    for (int32_t g = 0; g < p_.threadBlockCount(); ++g) wake(g);
    drain();
    while (finished_ < tb_.size()) {
      double next = network_.nextCompletion();
      if (!arrivals_.empty()) next = std::min(next, std::get<0>(arrivals_.top()));
      if (!computing_.empty()) next = std::min(next, std::get<0>(computing_.top()));
      if (!std::isfinite(next)) throw SimulationViolation(deadlockReport());
      count();
      for (int64_t id : network_.advanceTo(next)) flowDone(id);
      while (!computing_.empty() && std::get<0>(computing_.top()) <= next) {
        const int32_t g = std::get<2>(computing_.top());
        computing_.pop();
        tb_[static_cast<size_t>(g)].busy = false;
        move(g, [&] { machine_.start(g); });  // completes the compute step
        wake(g);
      }
      while (!arrivals_.empty() && std::get<0>(arrivals_.top()) <= next) {
        const auto [time, order, c, head] = arrivals_.top();
        arrivals_.pop();
        ++(head ? conn_[c].headsArrived : conn_[c].tailsArrived);
        wake(p_.connections()[c].recvTb);
      }
      drain();
    }
    return {network_.now() * 1e6 + model_.baseLatencyUs(), machine_.config().tiles, transfers_, rankFinish_};
  }

 private:
  struct ConnectionTime {
    uint64_t headsArrived = 0;     // units whose first byte reached the receiver
    uint64_t tailsArrived = 0;     // units complete at the receiver
    std::deque<double> unitBytes;  // sizes of started, unconsumed units
  };
  struct BlockTime {
    bool busy = false;          // its unit is on the network
    bool awaitingTail = false;  // forwarding: sent, waits for the last incoming byte
    bool done = false;
    bool queued = false;
  };

  const semantics::LoadedStep& current(int32_t g) const {
    return p_.step(p_.firstStep(g) + static_cast<uint32_t>(machine_.cursor(g).step));
  }

  // Bytes of unit `unit` of a step in tile iteration `tile`: its transfer's chunks, cut to the
  // tile, shared equally by the transfer's units.
  double unitBytes(const semantics::LoadedStep& st, int32_t unit, int64_t tile) const {
    const semantics::MachineConfig& c = machine_.config();
    const int32_t transfer = unit / c.unitsPerTransfer;
    const double perChunk = std::min(tile_, chunkBytes_ - static_cast<double>(tile) * tile_);
    const int32_t chunks = std::min(c.maxAllowedCount, st.cnt - transfer * c.maxAllowedCount);
    return chunks * perChunk / c.unitsPerTransfer;
  }

  void wake(int32_t g) {
    if (g < 0) return;
    BlockTime& b = tb_[static_cast<size_t>(g)];
    if (b.done || b.queued) return;
    b.queued = true;
    work_.push_back(g);
  }

  // Network events, units started and completed steps all count against the limit.
  void count() {
    if (++events_ > eventLimit_) throwLimit();
  }
  [[noreturn]] void throwLimit() const {
    throw SimulationLimit("the simulation needed more than " + std::to_string(eventLimit_) + " events");
  }

  void drain() {
    while (!work_.empty()) {
      const int32_t g = work_.front();
      work_.pop_front();
      tb_[static_cast<size_t>(g)].queued = false;
      advance(g);
    }
  }

  void publish(int32_t g) {
    for (int32_t w : flagWaiters_[static_cast<size_t>(g)]) wake(w);
    flagWaiters_[static_cast<size_t>(g)].clear();
  }

  // A machine move that may complete a step and publish a flag.
  template <typename Move>
  void move(int32_t g, Move&& m) {
    const int64_t flag = machine_.flag(g);
    const semantics::TbCursor before = machine_.cursor(g);
    m();
    const semantics::TbCursor& after = machine_.cursor(g);
    if (after.step != before.step || after.tile != before.tile) count();
    if (machine_.flag(g) != flag) publish(g);
  }

  void checkPairedSize(int32_t g, const ConnectionTime& in, double bytes) const {
    const double sent = in.unitBytes.front();
    if (std::fabs(sent - bytes) > 1e-9 * bytes)
      throw SimulationViolation(where(g) + ": receives a transfer of " + std::to_string(bytes) +
                                " bytes, but its sender's paired transfer has " + std::to_string(sent) +
                                " (the cnt of paired steps differs)");
  }

  // Schedules the first (head) or last byte of the newest unit on `c` to reach the receiver one
  // route latency from now.
  void arrive(int32_t c, bool head) {
    arrivals_.emplace(network_.now() + latencyOf_[static_cast<size_t>(c)], arrivalSeq_++, c, head);
  }

  // The unit of thread block g ends: the incoming unit is consumed (its slot freed upstream),
  // the outgoing one has left.
  void finishUnit(int32_t g) {
    const semantics::LoadedStep& st = current(g);
    if (semantics::sends(st.type)) arrive(p_.sendConnection(g), false);
    if (semantics::receives(st.type)) {
      const int32_t in = p_.recvConnection(g);
      conn_[static_cast<size_t>(in)].unitBytes.pop_front();
      wake(p_.connections()[static_cast<size_t>(in)].sendTb);
    }
    move(g, [&] { machine_.finish(g); });
  }

  void advance(int32_t g) {
    BlockTime& b = tb_[static_cast<size_t>(g)];
    while (!b.busy) {
      if (b.awaitingTail) {
        const int32_t in = p_.recvConnection(g);
        if (conn_[static_cast<size_t>(in)].tailsArrived <= machine_.consumed(in)) return;
        b.awaitingTail = false;
        finishUnit(g);
        continue;
      }
      const semantics::FifoMachine::Requirement need = machine_.next(g);
      switch (need.need) {
        case semantics::Need::Finished:
          if (!b.done) {
            b.done = true;
            ++finished_;
            double& f = rankFinish_[static_cast<size_t>(p_.rankOf(g))];
            f = std::max(f, network_.now() * 1e6);
          }
          return;
        case semantics::Need::Busy:
        case semantics::Need::Data:
        case semantics::Need::Slot: return;  // woken by the connection's other side
        case semantics::Need::Flag: flagWaiters_[static_cast<size_t>(need.on)].push_back(g); return;
        case semantics::Need::Nothing: break;
      }
      const semantics::LoadedStep& st = current(g);
      const semantics::TbCursor& c = machine_.cursor(g);
      if (c.wait == st.waitCount && semantics::computes(st.type) && gpu_) {
        // A compute step occupies its rank's GPU for its roofline time (docs/fused.md, "Prediction").
        const int32_t rank = p_.rankOf(g);
        double& free = computeFree_[static_cast<size_t>(rank)];
        free = std::max(free, network_.now()) + computeSeconds(rank, st, c.tile);
        computing_.emplace(free, computeSeq_++, g);
        b.busy = true;
        return;
      }
      if (c.wait < st.waitCount || machine_.unitsOf(st) == 0) {
        move(g, [&] { machine_.start(g); });
        continue;
      }
      const bool rx = semantics::receives(st.type), tx = semantics::sends(st.type);
      const double bytes = unitBytes(st, c.unit, c.tile);
      if (rx) {
        // Forwarding starts on the first incoming byte, a plain receive needs the last.
        const int32_t in = p_.recvConnection(g);
        const ConnectionTime& t = conn_[static_cast<size_t>(in)];
        if ((tx ? t.headsArrived : t.tailsArrived) <= machine_.consumed(in)) return;
        checkPairedSize(g, t, bytes);
      }
      count();
      machine_.start(g);
      if (!tx) {
        finishUnit(g);
        continue;
      }
      const int32_t out = p_.sendConnection(g);
      const int64_t id =
          network_.start(routes_[static_cast<size_t>(out)].links, bytes, capOf_[static_cast<size_t>(out)]);
      conn_[static_cast<size_t>(out)].unitBytes.push_back(bytes);
      owner_[id] = g;
      b.busy = true;
      ++transfers_;
      arrive(out, true);
    }
  }

  void flowDone(int64_t id) {
    auto it = owner_.find(id);
    const int32_t g = it->second;
    owner_.erase(it);
    BlockTime& b = tb_[static_cast<size_t>(g)];
    b.busy = false;
    if (semantics::receives(current(g).type))
      b.awaitingTail = true;  // advance() finishes once the incoming unit is complete
    else
      finishUnit(g);
    wake(g);
  }

  // Roofline time of a compute step in tile iteration `tile`: its FLOPs at the GPU's peak or its
  // memory traffic at the GPU's bandwidth, whichever is longer (fp32 elements).
  double computeSeconds(int32_t rank, const semantics::LoadedStep& st, int64_t tile) const {
    const ir::Gpu& g = p_.gpu(rank);
    if (!g.product) return 0;
    const ir::Product& pr = *g.product;
    const double perChunk = std::min(tile_, chunkBytes_ - static_cast<double>(tile) * tile_);
    const double elems = st.cnt * perChunk / 4;
    const double rows = elems / pr.cols;
    const ir::Operand& A = g.operands.at(static_cast<size_t>(pr.a));
    const ir::Operand& B = g.operands.at(static_cast<size_t>(pr.b));
    double flops = 0, bytes = elems * 4;  // the output
    switch (pr.op) {
      case ir::ComputeOp::Gemv:
        flops = 2 * elems * A.cols;
        bytes += rows * A.cols * 4 + static_cast<double>(B.rows) * 4;
        break;
      case ir::ComputeOp::Gemm:
        flops = 2 * elems * A.cols;
        bytes += rows * A.cols * 4 + static_cast<double>(B.rows) * B.cols * 4;
        break;
      case ir::ComputeOp::EmbeddingBag:
        flops = elems * B.cols;
        bytes += elems * B.cols * 4 + rows * B.cols * 4;  // gathered table rows and the indices
        break;
      case ir::ComputeOp::None: break;
    }
    return std::max(flops / (gpu_->peakTflops * 1e12), bytes / (gpu_->memoryGBps * 1e9));
  }

  std::string where(int32_t g) const {
    const semantics::TbCursor& c = machine_.cursor(g);
    return "rank " + std::to_string(p_.rankOf(g)) + " tb " + std::to_string(p_.idOf(g)) + " step " +
           std::to_string(c.step) + " (tile iteration " + std::to_string(c.tile) + ")";
  }

  std::string deadlockReport() const {
    std::ostringstream out;
    out << "deadlock: no thread block can move and nothing is in flight";
    size_t shown = 0, blocked = 0;
    for (int32_t g = 0; g < p_.threadBlockCount(); ++g) {
      const semantics::FifoMachine::Requirement need = machine_.next(g);
      if (need.need == semantics::Need::Finished) continue;
      ++blocked;
      if (shown++ >= kBlockedShown) continue;
      out << "\n  " << where(g) << ": waits for ";
      switch (need.need) {
        case semantics::Need::Flag:
          out << "tb " << p_.idOf(need.on) << " to publish step " << semantics::FifoMachine::flagStep(need.flagNeeded);
          break;
        case semantics::Need::Data:
          out << "data on connection " << p_.connections()[static_cast<size_t>(need.on)].describe();
          break;
        case semantics::Need::Slot:
          out << "a free slot on connection " << p_.connections()[static_cast<size_t>(need.on)].describe();
          break;
        default: out << "the last byte of its incoming transfer"; break;
      }
    }
    if (blocked > kBlockedShown) out << "\n  ... and " << blocked - kBlockedShown << " more blocked thread blocks";
    return out.str();
  }

  const semantics::LoadedProgram& p_;
  const CostModel& model_;
  const std::vector<topo::Route>& routes_;
  FluidNetwork network_;
  semantics::FifoMachine machine_;
  double chunkBytes_;
  double tile_;
  std::vector<ConnectionTime> conn_;
  std::vector<BlockTime> tb_;
  std::vector<std::vector<int32_t>> flagWaiters_;
  std::vector<double> capOf_;
  std::vector<double> latencyOf_;
  std::deque<int32_t> work_;
  std::map<int64_t, int32_t> owner_;
  using Arrival = std::tuple<double, int64_t, int32_t, bool>;  // time, order, connection, head
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> arrivals_;
  int64_t arrivalSeq_ = 0;
  std::optional<topo::GpuSpec> gpu_;
  std::vector<double> computeFree_;  // per rank
  std::vector<double> rankFinish_;   // per rank: when its last thread block finished, us: when its GPU finishes the
                                     // compute steps started so far
  using Computing = std::tuple<double, int64_t, int32_t>;  // finish time, order, thread block
  std::priority_queue<Computing, std::vector<Computing>, std::greater<Computing>> computing_;
  int64_t computeSeq_ = 0;
  size_t finished_ = 0;
  int64_t transfers_ = 0;
  uint64_t events_ = 0;
  uint64_t eventLimit_ = 0;
};

}  // namespace

ProgramRun::ProgramRun(const semantics::LoadedProgram& program, const topo::Topology& topology, const CostModel& model,
                       std::vector<topo::Route> routes)
    : program_(program), topology_(topology), model_(model), routes_(std::move(routes)) {}

RunResult ProgramRun::run(uint64_t bytes, uint64_t eventLimit) const {
  std::vector<double> capacity;
  const ModelParameters& m = model_.parameters();
  for (const topo::Link& l : topology_.links())
    capacity.push_back(topo::toDouble(l.bandwidthGBps) * m.linkEfficiency(topology_, l) * model_.efficiency() * 1e9);
  if (topology_.hostPath)  // the host path's links, hostUpLink and hostDownLink of every GPU
    capacity.insert(
        capacity.end(), 2 * topology_.gpus().size(),
        topo::toDouble(topology_.hostPath->bandwidthGBps) * m.hostPathEfficiency() * model_.efficiency() * 1e9);
  std::vector<topo::Route> routes = routes_;
  if (const std::optional<double> ll = m.llCapGBps(std::max(topology_.boxCount(), 1));
      ll && model_.protocol() == ir::Protocol::LL) {
    // NCCL's LL bandwidth cap bounds what each GPU sends: one more link per sending GPU, which
    // every route leaving it crosses.
    const auto first = static_cast<int32_t>(capacity.size());
    capacity.insert(capacity.end(), topology_.gpus().size(), *ll * 1e9);
    for (size_t c = 0; c < routes.size(); ++c) routes[c].links.push_back(first + program_.connections()[c].sender);
  }
  Execution e(program_, model_, routes, capacity, bytes, topology_.gpu);
  RunResult r = e.run(eventLimit);
  r.timeUs = m.callUs(r.timeUs, 1);
  return r;
}

}  // namespace ccforge::sim
