#include "verify/smt/replay.hpp"

#include <fmt/format.h>

#include "semantics/fifo_machine.hpp"

namespace ccforge::verify::smt {
namespace {

// Runs one witness event: the block's flag waits, then its unit (or its whole local step).
std::string apply(semantics::FifoMachine& m, const verify::ScheduleEvent& e) {
  const semantics::LoadedProgram& p = m.program();
  if (e.rank < 0 || e.rank >= p.ranks() || e.tb < 0 || e.tb >= p.threadBlocksOfRank(e.rank))
    return "no such thread block";
  const int32_t g = p.globalTb(e.rank, e.tb);
  const semantics::TbCursor& c = m.cursor(g);
  if (m.next(g).need == semantics::Need::Finished) return "the thread block has finished";
  if (e.tile != c.tile || e.step != c.step || e.unit != c.unit)
    return fmt::format("the block's next event is step {} tile {} unit {}", c.step, c.tile, c.unit);
  const semantics::LoadedStep& st = p.step(p.firstStep(g) + static_cast<uint32_t>(c.step));
  while (true) {
    switch (m.next(g).need) {
      case semantics::Need::Flag: return "its dependency flag is not published yet";
      case semantics::Need::Data: return "no data to receive";
      case semantics::Need::Slot: return "no free slot to send into";
      default: break;
    }
    const bool waiting = c.wait < st.waitCount;
    m.take(g);
    if (!waiting) return {};
  }
}

}  // namespace

UnitReplay replayUnitSchedule(const semantics::LoadedProgram& index, ir::Protocol protocol,
                              const verify::SimulationConfig& config,
                              const std::vector<verify::ScheduleEvent>& schedule) {
  semantics::FifoMachine m(index,
                           semantics::machineConfig(protocol, config.tiles, config.maxAllowedCount, config.slots));
  UnitReplay out;
  for (size_t i = 0; i < schedule.size(); ++i) {
    const verify::ScheduleEvent& e = schedule[i];
    std::string error = apply(m, e);
    if (!error.empty()) {
      out.error = fmt::format("event {} (rank {} tb {} step {} tile {} unit {}): {}", i, e.rank, e.tb, e.step, e.tile,
                              e.unit, error);
      return out;
    }
  }
  out.unitsMoved = m.unitsMoved();
  for (int32_t g = 0; g < index.threadBlockCount(); ++g) {
    // The schedule lists unit moves: flag waits the block can pass it passes, as the simulation
    // does, before what it waits for is judged.
    while (m.next(g).need == semantics::Need::Nothing && m.cursor(g).tile < m.config().tiles &&
           m.cursor(g).wait < index.step(index.firstStep(g) + static_cast<uint32_t>(m.cursor(g).step)).waitCount)
      m.take(g);
    const semantics::FifoMachine::Requirement need = m.next(g);
    if (need.need == semantics::Need::Finished) continue;
    if (need.need == semantics::Need::Nothing) {
      out.error = fmt::format("rank {} tb {} could still run step {} of tile {}: the state is not stuck",
                              index.rankOf(g), index.idOf(g), m.cursor(g).step, m.cursor(g).tile);
      return out;
    }
    out.blocked.push_back(verify::blockedAt(m, g, need));
  }
  out.ok = true;
  return out;
}

}  // namespace ccforge::verify::smt
