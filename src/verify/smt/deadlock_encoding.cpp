#include "verify/smt/deadlock_encoding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "verify/wait_description.hpp"

namespace ccforge::verify::smt {

DeadlockEncoding::DeadlockEncoding(const UnitEventGraph& graph) : graph_(graph) {
  query_.name = "deadlock " + graph.config().describe();
  encode();
}

uint32_t DeadlockEncoding::groupEnd(uint32_t g) const {
  return g + 1 < groups_.size() ? groups_[g + 1].firstEvent : static_cast<uint32_t>(graph_.size());
}

// Events that wait for nothing but their block's previous event run together with it: a group
// starts at a block's first event and at every event with a predecessor.
void DeadlockEncoding::encode() {
  const semantics::LoadedProgram& index = graph_.index();
  ccforge::smt::TermStore& T = query_.terms;
  groupOfEvent_.resize(graph_.size());
  for (int32_t tb = 0; tb < index.threadBlockCount(); ++tb) {
    tbFirstGroup_.push_back(static_cast<uint32_t>(groups_.size()));
    for (uint32_t e = graph_.firstEvent(tb); e < graph_.endEvent(tb); ++e) {
      const UnitEvent& ev = graph_.event(e);
      if (e == graph_.firstEvent(tb) || ev.predecessorCount > 0) {
        std::string id =
            fmt::format("r{}_b{}_t{}_s{}_u{}", index.rankOf(tb), index.idOf(tb), ev.tile, ev.step, ev.unit);
        groups_.push_back(Group{e, T.boolVar("ran_" + id)});
        query_.wanted.push_back(groups_.back().ran);
      }
      groupOfEvent_[e] = static_cast<uint32_t>(groups_.size() - 1);
    }
  }
  tbFirstGroup_.push_back(static_cast<uint32_t>(groups_.size()));

  std::vector<ccforge::smt::Term> someBlockUnfinished;
  for (int32_t tb = 0; tb < index.threadBlockCount(); ++tb) {
    const uint32_t first = tbFirstGroup_[static_cast<size_t>(tb)], end = tbFirstGroup_[static_cast<size_t>(tb) + 1];
    for (uint32_t g = first; g < end; ++g) {
      const Group& group = groups_[g];
      const UnitEvent& ev = graph_.event(group.firstEvent);
      const ccforge::smt::Term previousRan = g == first ? T.boolConst(true) : groups_[g - 1].ran;
      if (g > first) query_.require(T.implies(group.ran, previousRan));
      // Closed: its predecessors ran. Stuck: if the block got this far, one of them has not.
      std::vector<ccforge::smt::Term> someWaitUnmet;
      bool missing = false;
      for (uint32_t p = 0; p < ev.predecessorCount; ++p) {
        const Predecessor& pred = graph_.predecessors(ev)[p];
        if (pred.event == kMissing) {
          missing = true;
          continue;
        }
        const ccforge::smt::Term source = groups_[groupOf(pred.event)].ran;
        query_.require(T.implies(group.ran, source));
        someWaitUnmet.push_back(T.notTerm(source));
      }
      if (missing)
        query_.require(T.notTerm(group.ran));
      else
        query_.require(T.implies(T.andTerm({previousRan, T.notTerm(group.ran)}), T.orTerm(someWaitUnmet)));
    }
    if (end > first) someBlockUnfinished.push_back(T.notTerm(groups_[end - 1].ran));
  }
  query_.require(T.orTerm(someBlockUnfinished));
}

std::vector<uint32_t> DeadlockEncoding::reachableOrder(const std::vector<bool>& ran) const {
  const auto n = static_cast<uint32_t>(groups_.size());
  std::vector<uint32_t> waiting(n, 0);  // predecessors (incl. the block's previous group) not yet placed
  std::vector<std::vector<uint32_t>> successors(n);
  std::deque<uint32_t> ready;
  for (uint32_t g = 0; g < n; ++g) {
    if (!ran[g]) continue;
    const UnitEvent& ev = graph_.event(groups_[g].firstEvent);
    if (groups_[g].firstEvent != graph_.firstEvent(ev.tb)) {
      ++waiting[g];
      successors[g - 1].push_back(g);
    }
    for (uint32_t p = 0; p < ev.predecessorCount; ++p) {
      ++waiting[g];
      successors[groupOf(graph_.predecessors(ev)[p].event)].push_back(g);  // ran implies it exists
    }
    if (waiting[g] == 0) ready.push_back(g);
  }
  std::vector<uint32_t> order;
  while (!ready.empty()) {
    const uint32_t g = ready.front();
    ready.pop_front();
    order.push_back(g);
    for (uint32_t s : successors[g])
      if (--waiting[s] == 0) ready.push_back(s);
  }
  return order;
}

DeadlockWitness DeadlockEncoding::witness(const std::vector<int64_t>& model) const {
  const semantics::LoadedProgram& index = graph_.index();
  DeadlockWitness out;
  verify::Witness& w = out.witness;
  w.kind = "deadlock";
  w.query = query_.name;
  w.tiles = graph_.config().tiles;
  w.maxAllowedCount = graph_.config().maxAllowedCount;
  w.slots = graph_.config().slots;

  std::vector<bool> ran(groups_.size());
  for (size_t g = 0; g < groups_.size(); ++g) ran[g] = model[g] != 0;
  std::vector<bool> reached(groups_.size(), false);
  std::vector<uint32_t> order = reachableOrder(ran);
  out.circularGroups = static_cast<size_t>(std::count(ran.begin(), ran.end(), true)) - order.size();
  for (uint32_t g : order) {
    reached[g] = true;
    for (uint32_t e = groups_[g].firstEvent; e < groupEnd(g); ++e) {
      const UnitEvent& ev = graph_.event(e);
      w.schedule.push_back(
          verify::ScheduleEvent{index.rankOf(ev.tb), index.idOf(ev.tb), ev.step, ev.tile, ev.unit, {}, -1});
    }
  }
  for (int32_t tb = 0; tb < index.threadBlockCount(); ++tb) {
    const uint32_t first = tbFirstGroup_[static_cast<size_t>(tb)], end = tbFirstGroup_[static_cast<size_t>(tb) + 1];
    uint32_t g = first;
    while (g < end && reached[g]) ++g;
    if (g == end) continue;
    const UnitEvent& ev = graph_.event(groups_[g].firstEvent);
    for (uint32_t p = 0; p < ev.predecessorCount; ++p) {
      const Predecessor& pred = graph_.predecessors(ev)[p];
      if (pred.event != kMissing && reached[groupOf(pred.event)]) continue;
      verify::BlockedThreadBlock b{tb, ev.tile, ev.step, pred.kind, pred.on, pred.flagNeeded};
      w.blocked.push_back(verify::blockedStepRef(index, b, ev.unit));
      out.blocked.push_back(b);
      break;
    }
  }
  return out;
}

}  // namespace ccforge::verify::smt
