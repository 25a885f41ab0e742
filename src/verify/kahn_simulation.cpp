#include "semantics/step_kinds.hpp"
#include "verify/kahn_simulation.hpp"

#include <fmt/format.h>

#include <deque>
#include <utility>

namespace ccforge::verify {

std::string SimulationConfig::describe() const {
  return fmt::format("tiles={} maxAllowedCount={} slots={}", tiles, maxAllowedCount, slots);
}

int32_t transfersOf(int32_t cnt, int32_t maxAllowedCount) { return (cnt + maxAllowedCount - 1) / maxAllowedCount; }

namespace {

class Simulation {
 public:
  Simulation(const ProgramIndex& index, ir::Protocol protocol, const SimulationConfig& config)
      : index_(index), config_(config), unitsPerTransfer_(protocol == ir::Protocol::Simple ? 2 : 1) {
    capacity_ = static_cast<uint64_t>(config.slots) * unitsPerTransfer_;
    const auto ntbs = static_cast<size_t>(index.threadBlockCount());
    const size_t nconn = index.connections().size();
    tile_.assign(ntbs, 0);
    pc_.assign(ntbs, 0);
    unit_.assign(ntbs, 0);
    depDone_.assign(ntbs, false);
    queued_.assign(ntbs, false);
    flag_.assign(ntbs, -1);
    flagWaiters_.resize(ntbs);
    wait_.resize(ntbs);
    produced_.assign(nconn, 0);
    consumed_.assign(nconn, 0);
    dataWaiter_.assign(nconn, -1);
    slotWaiter_.assign(nconn, -1);
  }

  SimulationResult run() {
    for (int32_t g = 0; g < index_.threadBlockCount(); ++g) enqueue(g);
    while (!ready_.empty()) {
      int32_t g = ready_.front();
      ready_.pop_front();
      queued_[g] = false;
      advance(g);
    }
    SimulationResult result;
    result.unitsMoved = moved_;
    for (int32_t g = 0; g < index_.threadBlockCount(); ++g)
      if (!finished(g)) result.blocked.push_back(wait_[g]);
    result.completed = result.blocked.empty();
    return result;
  }

 private:
  bool finished(int32_t g) const { return tile_[g] >= config_.tiles || index_.stepsOf(g) == 0; }
  void enqueue(int32_t g) {
    if (g >= 0 && !queued_[g]) {
      queued_[g] = true;
      ready_.push_back(g);
    }
  }
  void block(int32_t g, WaitKind kind, int32_t on, int64_t flagNeeded = 0) {
    wait_[g] = BlockedThreadBlock{g, tile_[g], pc_[g], kind, on, flagNeeded};
  }

  // Runs tb g until it blocks or finishes.
  void advance(int32_t g) {
    const int32_t nsteps = index_.stepsOf(g);
    const int32_t rank = index_.rankOf(g);
    while (!finished(g)) {
      const ir::Step& st = index_.threadBlock(g).steps[pc_[g]];
      if (!depDone_[g] && st.depid >= 0) {
        const int32_t target = index_.globalTb(rank, st.depid);
        const int64_t needed = static_cast<int64_t>(tile_[g]) * index_.stepsOf(target) + st.deps;
        if (flag_[target] < needed) {
          block(g, WaitKind::Dependency, target, needed);
          flagWaiters_[target].push_back(g);
          return;
        }
        depDone_[g] = true;
      }
      const bool in = receives(st.type), out = sends(st.type);
      const int32_t units = in || out ? transfersOf(st.cnt, config_.maxAllowedCount) * unitsPerTransfer_ : 0;
      const int32_t inConn = in ? index_.recvConnection(g) : -1, outConn = out ? index_.sendConnection(g) : -1;
      while (unit_[g] < units) {
        if (in && produced_[inConn] <= consumed_[inConn]) {
          block(g, WaitKind::Data, inConn);
          dataWaiter_[inConn] = g;
          return;
        }
        if (out && produced_[outConn] - consumed_[outConn] >= capacity_) {
          block(g, WaitKind::Slot, outConn);
          slotWaiter_[outConn] = g;
          return;
        }
        if (in) {
          ++consumed_[inConn];
          enqueue(std::exchange(slotWaiter_[inConn], -1));
        }
        if (out) {
          ++produced_[outConn];
          enqueue(std::exchange(dataWaiter_[outConn], -1));
        }
        ++unit_[g];
        ++moved_;
      }
      if (st.hasdep) publish(g, static_cast<int64_t>(tile_[g]) * nsteps + pc_[g]);
      unit_[g] = 0;
      depDone_[g] = false;
      if (++pc_[g] == nsteps) {
        pc_[g] = 0;
        ++tile_[g];
      }
    }
  }

  void publish(int32_t g, int64_t value) {
    flag_[g] = value;
    std::vector<int32_t>& waiters = flagWaiters_[g];
    size_t kept = 0;
    for (int32_t w : waiters) {
      if (wait_[w].flagNeeded <= value)
        enqueue(w);
      else
        waiters[kept++] = w;
    }
    waiters.resize(kept);
  }

  const ProgramIndex& index_;
  SimulationConfig config_;
  int32_t unitsPerTransfer_;
  uint64_t capacity_ = 0;
  std::vector<int32_t> tile_, pc_, unit_;
  std::vector<bool> depDone_, queued_;
  std::vector<int64_t> flag_;
  std::vector<std::vector<int32_t>> flagWaiters_;
  std::vector<BlockedThreadBlock> wait_;
  std::vector<uint64_t> produced_, consumed_;
  std::vector<int32_t> dataWaiter_, slotWaiter_;
  std::deque<int32_t> ready_;
  uint64_t moved_ = 0;
};

}  // namespace

SimulationResult simulate(const ProgramIndex& index, ir::Protocol protocol, const SimulationConfig& config) {
  return Simulation(index, protocol, config).run();
}

}  // namespace ccforge::verify
