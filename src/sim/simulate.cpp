#include "semantics/step_kinds.hpp"
#include "sim/simulate.hpp"

#include <map>
#include <tuple>

#include "ir/input_error.hpp"

namespace ccforge::sim {
namespace {

std::string gpuName(const topo::Topology& t, int32_t rank) {
  return t.vertices()[static_cast<size_t>(t.gpus()[static_cast<size_t>(rank)])].name;
}

// Checks what the runtime would trip over and maps every thread block to its connections.
class Wiring {
 public:
  Wiring(const ir::Algorithm& a, const std::string& source, const topo::Topology& t) : a_(a), source_(source), t_(t) {}

  void build() {
    const auto ranks = static_cast<int32_t>(a_.gpus.size());
    if (ranks > static_cast<int32_t>(t_.gpus().size()))
      throw InputError(source_, a_.where,
                       "the algorithm has " + std::to_string(ranks) + " ranks but topology " + t_.name + " has only " +
                           std::to_string(t_.gpus().size()) + " GPUs");
    for (int32_t rank = 0; rank < ranks; ++rank) {
      const ir::Gpu& gpu = a_.gpus[static_cast<size_t>(rank)];
      blocks.emplace_back();
      for (const ir::ThreadBlock& tb : gpu.threadBlocks) {
        checkSteps(rank, gpu, tb);
        BlockConnections c;
        if (tb.send >= 0) c.send = connection(rank, tb.send, tb, true);
        if (tb.recv >= 0) c.recv = connection(tb.recv, rank, tb, false);
        blocks.back().push_back(c);
      }
    }
  }

  std::vector<Connection> connections;
  std::vector<std::vector<BlockConnections>> blocks;

 private:
  [[noreturn]] void fail(ir::TextLocation where, const std::string& message) const { throw InputError(source_, where, message); }

  void checkSteps(int32_t rank, const ir::Gpu& gpu, const ir::ThreadBlock& tb) const {
    const std::string who = "rank " + std::to_string(rank) + " tb " + std::to_string(tb.id);
    for (int32_t peer : {tb.send, tb.recv}) {
      if (peer == rank) fail(tb.where, who + " names its own rank as a peer");
      if (peer >= static_cast<int32_t>(a_.gpus.size()))
        fail(tb.where, who + ": peer " + std::to_string(peer) + " is out of range (" + std::to_string(a_.gpus.size()) + " ranks)");
    }
    for (const ir::Step& s : tb.steps) {
      const std::string step = who + " step " + std::to_string(s.s);
      if (sends(s.type) && tb.send < 0) fail(s.where, step + " sends, but the thread block has no send peer");
      if (receives(s.type) && tb.recv < 0) fail(s.where, step + " receives, but the thread block has no recv peer");
      if ((sends(s.type) || receives(s.type)) && s.cnt < 1) fail(s.where, step + " moves cnt " + std::to_string(s.cnt) + " chunks");
      if (s.depid >= static_cast<int32_t>(gpu.threadBlocks.size()))
        fail(s.where, step + " depends on tb " + std::to_string(s.depid) + ", which rank " + std::to_string(rank) + " does not have");
    }
  }

  // The connection's index; a second block of the same rank on the same side of it is the
  // FIFO corruption of msccl-ir.md §1.
  int32_t connection(int32_t sender, int32_t receiver, const ir::ThreadBlock& tb, bool sending) {
    auto key = std::tuple{sender, receiver, tb.chan};
    auto [it, fresh] = index_.emplace(key, static_cast<int32_t>(connections.size()));
    int32_t id = it->second;
    if (fresh) {
      auto route = topo::routeBetween(t_, sender, receiver);
      if (!route)
        fail(tb.where, "connection rank " + std::to_string(sender) + " -> rank " + std::to_string(receiver) + " (" +
                           gpuName(t_, sender) + " -> " + gpuName(t_, receiver) + ") has no route in topology " + t_.name +
                           ": neither a direct link nor a path through switches or NICs");
      connections.push_back({sender, receiver, tb.chan, *route});
      sides_.emplace_back(false, false);
    }
    bool& taken = sending ? sides_[static_cast<size_t>(id)].first : sides_[static_cast<size_t>(id)].second;
    if (taken)
      throw SimulationViolation("two thread blocks of rank " + std::to_string(sending ? sender : receiver) + " " +
                                (sending ? "send" : "receive") + " on connection " + std::to_string(sender) + " -> " +
                                std::to_string(receiver) + " channel " + std::to_string(tb.chan));
    taken = true;
    return id;
  }

  const ir::Algorithm& a_;
  const std::string& source_;
  const topo::Topology& t_;
  std::map<std::tuple<int32_t, int32_t, int32_t>, int32_t> index_;
  std::vector<std::pair<bool, bool>> sides_;
};

}  // namespace

double busBandwidthFactor(ir::CollectiveKind kind, int32_t ranks) {
  const double n = ranks;
  switch (kind) {
    case ir::CollectiveKind::AllReduce: return 2 * (n - 1) / n;
    case ir::CollectiveKind::AllGather:
    case ir::CollectiveKind::ReduceScatter:
    case ir::CollectiveKind::AllToAll:
    case ir::CollectiveKind::AllToAllV:
    case ir::CollectiveKind::Gather:
    case ir::CollectiveKind::Scatter: return (n - 1) / n;
    default: return 1;
  }
}

SimulationReport simulate(const ir::Algorithm& algorithm, const std::string& source, const topo::Topology& topology,
                          const SimulationOptions& options) {
  Wiring wiring(algorithm, source, topology);
  wiring.build();
  const CostModel model(algorithm.proto, options.arch);
  ProgramRun run(algorithm, topology, model, std::move(wiring.connections), std::move(wiring.blocks));

  SimulationReport report;
  report.busbwFactor = busBandwidthFactor(algorithm.coll, static_cast<int32_t>(algorithm.gpus.size()));
  for (uint64_t bytes : options.sizes) {
    RunResult r = run.run(static_cast<double>(bytes), options.eventLimit);
    SizeResult s;
    s.bytes = bytes;
    s.timeUs = r.timeUs;
    s.algbwGBps = static_cast<double>(bytes) / (r.timeUs * 1e-6) / 1e9;
    s.busbwGBps = s.algbwGBps * report.busbwFactor;
    const auto low = algorithm.minBytes.value_or(0), high = algorithm.maxBytes.value_or(0);
    s.inSizeWindow = static_cast<int64_t>(bytes) >= low && (high == 0 || static_cast<int64_t>(bytes) <= high);
    s.iterations = r.iterations;
    s.transfers = r.transfers;
    report.results.push_back(s);
  }
  return report;
}

}  // namespace ccforge::sim
