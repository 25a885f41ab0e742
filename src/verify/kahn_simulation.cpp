#include "verify/kahn_simulation.hpp"

#include <fmt/format.h>

#include <deque>
#include <utility>

namespace ccforge::verify {

std::string SimulationConfig::describe() const {
  return fmt::format("tiles={} maxAllowedCount={} slots={}", tiles, maxAllowedCount, slots);
}

BlockedThreadBlock blockedAt(const semantics::FifoMachine& machine, int32_t tb,
                             const semantics::FifoMachine::Requirement& need) {
  const semantics::TbCursor& c = machine.cursor(tb);
  BlockedThreadBlock b{tb, static_cast<int32_t>(c.tile), c.step, WaitKind::Dependency, need.on, need.flagNeeded};
  if (need.need == semantics::Need::Data) b.kind = WaitKind::Data;
  if (need.need == semantics::Need::Slot) b.kind = WaitKind::Slot;
  return b;
}

namespace {

// Parks a blocked thread block on what it waits for and wakes it when that changes.
class KahnDriver {
 public:
  KahnDriver(const semantics::LoadedProgram& p, const semantics::MachineConfig& config)
      : p_(p),
        m_(p, config),
        queued_(static_cast<size_t>(p.threadBlockCount()), false),
        flagWaiters_(static_cast<size_t>(p.threadBlockCount())),
        dataWaiter_(p.connections().size(), -1),
        slotWaiter_(p.connections().size(), -1) {}

  SimulationResult run() {
    for (int32_t g = 0; g < p_.threadBlockCount(); ++g) enqueue(g);
    while (!ready_.empty()) {
      const int32_t g = ready_.front();
      ready_.pop_front();
      queued_[g] = false;
      advance(g);
    }
    SimulationResult result;
    result.unitsMoved = m_.unitsMoved();
    for (int32_t g = 0; g < p_.threadBlockCount(); ++g) {
      const semantics::FifoMachine::Requirement need = m_.next(g);
      if (need.need != semantics::Need::Finished) result.blocked.push_back(blockedAt(m_, g, need));
    }
    result.completed = result.blocked.empty();
    return result;
  }

 private:
  void enqueue(int32_t g) {
    if (g >= 0 && !queued_[g]) {
      queued_[g] = true;
      ready_.push_back(g);
    }
  }

  // The machine runs the block as far as it can; each move may enable another block.
  void advance(int32_t g) {
    const semantics::FifoMachine::Requirement need = m_.runUntilBlocked(g, *this);
    switch (need.need) {
      case semantics::Need::Flag: flagWaiters_[need.on].push_back(g); break;
      case semantics::Need::Data: dataWaiter_[need.on] = g; break;
      case semantics::Need::Slot: slotWaiter_[need.on] = g; break;
      default: break;
    }
  }

 public:
  // A unit moved: the receiver on the outgoing connection may have data, the sender on the
  // incoming one a free slot.
  void unitMoved(int32_t in, int32_t out) {
    if (out >= 0) enqueue(std::exchange(dataWaiter_[out], -1));
    if (in >= 0) enqueue(std::exchange(slotWaiter_[in], -1));
  }
  void published(int32_t g) { publish(g); }

 private:
  void publish(int32_t g) {
    std::vector<int32_t>& waiters = flagWaiters_[g];
    size_t kept = 0;
    for (int32_t w : waiters) {
      const semantics::FifoMachine::Requirement need = m_.next(w);
      if (need.need != semantics::Need::Flag || need.on != g)
        enqueue(w);
      else
        waiters[kept++] = w;
    }
    waiters.resize(kept);
  }

  const semantics::LoadedProgram& p_;
  semantics::FifoMachine m_;
  std::vector<bool> queued_;
  std::vector<std::vector<int32_t>> flagWaiters_;
  std::vector<int32_t> dataWaiter_, slotWaiter_;
  std::deque<int32_t> ready_;
};

}  // namespace

SimulationResult simulate(const semantics::LoadedProgram& program, ir::Protocol protocol,
                          const SimulationConfig& config) {
  return KahnDriver(program, semantics::machineConfig(protocol, config.tiles, config.maxAllowedCount, config.slots))
      .run();
}

}  // namespace ccforge::verify
