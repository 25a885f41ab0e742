#include "semantics/step_kinds.hpp"
#include "verify/smt/replay.hpp"

#include <fmt/format.h>

#include <optional>

namespace ccforge::smt {
namespace {

using verify::BlockedThreadBlock;
using verify::WaitKind;

class Replay {
 public:
  Replay(const verify::ProgramIndex& index, ir::Protocol protocol, const verify::SimulationConfig& config)
      : index_(index), config_(config), unitsPerTransfer_(protocol == ir::Protocol::Simple ? 2 : 1) {
    capacity_ = static_cast<uint64_t>(config.slots) * static_cast<uint64_t>(unitsPerTransfer_);
    const auto ntbs = static_cast<size_t>(index.threadBlockCount());
    tile_.assign(ntbs, 0);
    pc_.assign(ntbs, 0);
    unit_.assign(ntbs, 0);
    flag_.assign(ntbs, -1);
    produced_.assign(index.connections().size(), 0);
    consumed_.assign(index.connections().size(), 0);
  }

  UnitReplay run(const std::vector<verify::ScheduleEvent>& schedule) {
    UnitReplay out;
    for (size_t i = 0; i < schedule.size(); ++i) {
      const verify::ScheduleEvent& e = schedule[i];
      std::string error = apply(e);
      if (!error.empty()) {
        out.error = fmt::format("event {} (rank {} tb {} step {} tile {} unit {}): {}", i, e.rank, e.tb, e.step, e.tile,
                                e.unit, error);
        return out;
      }
    }
    out.unitsMoved = moved_;
    for (int32_t g = 0; g < index_.threadBlockCount(); ++g) {
      if (finished(g)) continue;
      std::optional<BlockedThreadBlock> wait = waitOf(g);
      if (!wait) {
        out.error = fmt::format("rank {} tb {} could still run step {} of tile {}: the state is not stuck",
                                index_.rankOf(g), index_.idOf(g), pc_[g], tile_[g]);
        return out;
      }
      out.blocked.push_back(*wait);
    }
    out.ok = true;
    return out;
  }

 private:
  bool finished(int32_t g) const { return tile_[g] >= config_.tiles || index_.stepsOf(g) == 0; }
  const ir::Step& current(int32_t g) const { return index_.threadBlock(g).steps[static_cast<size_t>(pc_[g])]; }
  int32_t unitsOf(const ir::Step& st) const {
    return receives(st.type) || sends(st.type)
               ? verify::transfersOf(st.cnt, config_.maxAllowedCount) * unitsPerTransfer_
               : 0;
  }

  // What block g's next event waits for, or nothing if it is enabled.
  std::optional<BlockedThreadBlock> waitOf(int32_t g) const {
    const ir::Step& st = current(g);
    BlockedThreadBlock b{g, tile_[g], pc_[g], WaitKind::Dependency, -1, 0};
    if (unit_[g] == 0 && st.depid >= 0) {
      b.on = index_.globalTb(index_.rankOf(g), st.depid);
      b.flagNeeded = static_cast<int64_t>(tile_[g]) * index_.stepsOf(b.on) + st.deps;
      if (flag_[b.on] < b.flagNeeded) return b;
    }
    if (unitsOf(st) == 0) return std::nullopt;
    if (receives(st.type)) {
      const int32_t c = index_.recvConnection(g);
      if (c < 0 || produced_[c] <= consumed_[c]) return BlockedThreadBlock{g, tile_[g], pc_[g], WaitKind::Data, c, 0};
    }
    if (sends(st.type)) {
      const int32_t c = index_.sendConnection(g);
      if (c < 0 || produced_[c] - consumed_[c] >= capacity_)
        return BlockedThreadBlock{g, tile_[g], pc_[g], WaitKind::Slot, c, 0};
    }
    return std::nullopt;
  }

  std::string apply(const verify::ScheduleEvent& e) {
    if (e.rank < 0 || e.rank >= index_.ranks() || e.tb < 0 || e.tb >= index_.threadBlocksOfRank(e.rank))
      return "no such thread block";
    const int32_t g = index_.globalTb(e.rank, e.tb);
    if (finished(g)) return "the thread block has finished";
    if (e.tile != tile_[g] || e.step != pc_[g] || e.unit != unit_[g])
      return fmt::format("the block's next event is step {} tile {} unit {}", pc_[g], tile_[g], unit_[g]);
    if (auto wait = waitOf(g))
      return wait->kind == WaitKind::Dependency ? "its dependency flag is not published yet"
             : wait->kind == WaitKind::Data     ? "no data to receive"
                                                : "no free slot to send into";
    const ir::Step& st = current(g);
    const int32_t units = unitsOf(st);
    if (units > 0) {
      if (receives(st.type)) ++consumed_[index_.recvConnection(g)];
      if (sends(st.type)) ++produced_[index_.sendConnection(g)];
      ++moved_;
    }
    if (++unit_[g] < units) return {};
    if (st.hasdep) flag_[g] = static_cast<int64_t>(tile_[g]) * index_.stepsOf(g) + pc_[g];
    unit_[g] = 0;
    if (++pc_[g] == index_.stepsOf(g)) {
      pc_[g] = 0;
      ++tile_[g];
    }
    return {};
  }

  const verify::ProgramIndex& index_;
  verify::SimulationConfig config_;
  int32_t unitsPerTransfer_;
  uint64_t capacity_ = 0;
  std::vector<int32_t> tile_, pc_, unit_;
  std::vector<int64_t> flag_;
  std::vector<uint64_t> produced_, consumed_;
  uint64_t moved_ = 0;
};

}  // namespace

UnitReplay replayUnitSchedule(const verify::ProgramIndex& index, ir::Protocol protocol,
                              const verify::SimulationConfig& config, const std::vector<verify::ScheduleEvent>& schedule) {
  return Replay(index, protocol, config).run(schedule);
}

}  // namespace ccforge::smt
