#include "verify/smt/deadlock_check.hpp"

#include <fmt/format.h>

#include "verify/deadlock.hpp"

namespace ccforge::verify::smt {
namespace {

constexpr int32_t kMaxSlotsSearched = 64;  // as the simulation's search

// A deadlock counts only with a witness that replays; a sat answer without one is a bug, not a verdict.
enum class Finding { Deadlock, DeadlockFree, Unknown };
Finding findingOf(const ConfigurationAnswer& a) {
  if (a.outcome.answer == ccforge::smt::Answer::Sat)
    return a.replayError.empty() ? Finding::Deadlock : Finding::Unknown;
  return a.outcome.answer == ccforge::smt::Answer::Unsat ? Finding::DeadlockFree : Finding::Unknown;
}
std::string reasonOf(const ConfigurationAnswer& a) {
  return a.outcome.answer == ccforge::smt::Answer::Sat ? "a sat answer whose witness does not replay"
                                                       : a.outcome.reason;
}

// Whether some configuration deadlocks with `slots`: nullopt when a solver gave no answer.
class SlotProbe {
 public:
  SlotProbe(DeadlockQueries& queries, std::vector<verify::SimulationConfig> configs, SmtDeadlockResult& result)
      : queries_(queries), configs_(std::move(configs)), result_(result) {}

  std::optional<bool> deadlocks(int32_t slots) {
    bool unknown = false;
    for (verify::SimulationConfig c : configs_) {
      c.slots = slots;
      const ConfigurationAnswer& a = queries_.check(c);
      noteProblems(a, result_);
      const Finding f = findingOf(a);
      if (f == Finding::Deadlock) return true;
      if (f == Finding::Unknown && !unknown) {
        unknown = true;
        reason_ = fmt::format("no answer with {} slots ({}): {}", slots, c.describe(), reasonOf(a));
      }
    }
    if (unknown) return std::nullopt;
    return false;
  }
  const std::string& reason() const { return reason_; }
  // The first configuration (in the size window's order) that deadlocks with `slots`.
  std::string satConfiguration(int32_t slots) {  // answered already: no new query
    for (verify::SimulationConfig c : configs_) {
      c.slots = slots;
      if (findingOf(queries_.check(c)) == Finding::Deadlock) return c.describe();
    }
    return {};
  }
  static void noteProblems(const ConfigurationAnswer& a, SmtDeadlockResult& result) {
    if (a.outcome.disagreement)
      result.internalErrors.push_back(fmt::format("{}: the solvers disagree: {}", a.outcome.name, a.outcome.reason));
    if (!a.replayError.empty())
      result.internalErrors.push_back(
          fmt::format("{}: the witness does not replay: {}", a.outcome.name, a.replayError));
  }

 private:
  DeadlockQueries& queries_;
  std::vector<verify::SimulationConfig> configs_;
  SmtDeadlockResult& result_;
  std::string reason_;
};

// Deadlock freedom is monotone in the slot count (msccl-ir.md §2): binary search, as the simulation does.
void searchMinimumSlots(SlotProbe& probe, int32_t checked, bool deadlocksAtChecked, SmtDeadlockResult& result) {
  int32_t lo = 1, hi = checked;
  if (deadlocksAtChecked) {
    lo = checked + 1;
    hi = checked + 1;
    for (;;) {
      if (hi > kMaxSlotsSearched) hi = kMaxSlotsSearched;
      std::optional<bool> d = probe.deadlocks(hi);
      if (!d) {
        result.minimumSlotsProof = probe.reason();
        return;
      }
      if (!*d) break;
      if (hi == kMaxSlotsSearched) {
        result.minimumSlotsDecided = true;
        result.minimumSlotsProof = fmt::format("deadlocks even with {} slots (sat: {})", kMaxSlotsSearched,
                                               probe.satConfiguration(kMaxSlotsSearched));
        return;
      }
      lo = hi + 1;
      hi *= 2;
    }
  }
  while (lo < hi) {
    const int32_t mid = lo + (hi - lo) / 2;
    std::optional<bool> d = probe.deadlocks(mid);
    if (!d) {
      result.minimumSlotsProof = probe.reason();
      return;
    }
    if (*d)
      lo = mid + 1;
    else
      hi = mid;
  }
  result.minimumSlotsDecided = true;
  result.minimumSlots = hi;
  result.minimumSlotsProof =
      fmt::format("deadlock-free with {} slot{} (unsat in every configuration)", hi, hi == 1 ? "" : "s");
  if (hi > 1)
    result.minimumSlotsProof += fmt::format("; deadlocks with {} (sat: {})", hi - 1, probe.satConfiguration(hi - 1));
}

}  // namespace

SmtDeadlockResult checkDeadlockSmt(const semantics::LoadedProgram& index, int32_t slotsChecked,
                                   ccforge::smt::QueryRunner& runner, DeadlockQueries& queries) {
  SmtDeadlockResult result;
  std::vector<verify::SimulationConfig> configs = verify::reachableConfigurations(index);
  bool unknown = false;
  std::string unknownReason;
  for (verify::SimulationConfig c : configs) {
    c.slots = slotsChecked;
    const ConfigurationAnswer& a = queries.check(c);
    SlotProbe::noteProblems(a, result);
    result.answers.push_back(a);
    result.maxTilesChecked = std::max(result.maxTilesChecked, c.tiles);
    const Finding f = findingOf(a);
    if (f == Finding::Deadlock && !result.deadlock) result.deadlock = a;
    if (f == Finding::Unknown && !unknown) {
      unknown = true;
      unknownReason = fmt::format("{}: {}", c.describe(), reasonOf(a));
    }
  }
  const std::string solvers = runner.settings().solvers.size() > 1 ? "z3 and cvc5 agree" : "";
  if (result.deadlock) {
    result.status = verify::CheckStatus::Failed;
  } else if (unknown) {
    result.status = verify::CheckStatus::Inconclusive;
    result.note = "SMT: no answer for " + unknownReason;
  } else {
    result.status = verify::CheckStatus::Passed;
  }
  if (result.status != verify::CheckStatus::Inconclusive)
    result.note = fmt::format("SMT: {} configuration(s) with {} slots per connection{}", configs.size(), slotsChecked,
                              solvers.empty() ? "" : "; " + solvers);

  SlotProbe probe(queries, configs, result);
  if (result.status != verify::CheckStatus::Inconclusive)
    searchMinimumSlots(probe, slotsChecked, result.deadlock.has_value(), result);
  else
    result.minimumSlotsProof = "not searched: " + result.note;
  result.parametric = checkEveryTileCount(index, slotsChecked, runner, queries);
  if (!result.parametric.internalError.empty()) result.internalErrors.push_back(result.parametric.internalError);
  return result;
}

}  // namespace ccforge::verify::smt
