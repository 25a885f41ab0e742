#include "verify/smt/deadlock_queries.hpp"

#include <fmt/format.h>

#include "verify/smt/replay.hpp"

namespace ccforge::verify::smt {

verify::SmtQueryRecord queryRecord(const std::string& check, const ccforge::smt::QueryOutcome& outcome) {
  verify::SmtQueryRecord r;
  r.check = check;
  r.query = outcome.name;
  r.answer = outcome.disagreement ? "disagreement" : std::string(answerName(outcome.answer));
  r.decidedBy = outcome.decidedBySimplification ? "simplification" : "solvers";
  for (const ccforge::smt::SolverResult& s : outcome.results)
    r.solvers.push_back({std::string(solverName(s.solver)), std::string(answerName(s.answer)), s.reason});
  return r;
}

void DeadlockQueries::record(const std::string& check, const ccforge::smt::QueryOutcome& outcome) {
  records_.push_back(queryRecord(check, outcome));
}

namespace {

bool sameWait(const verify::BlockedThreadBlock& a, const verify::BlockedThreadBlock& b) {
  return a.tb == b.tb && a.tile == b.tile && a.step == b.step && a.kind == b.kind && a.on == b.on &&
         a.flagNeeded == b.flagNeeded;
}

}  // namespace

const ConfigurationAnswer& DeadlockQueries::check(const verify::SimulationConfig& config) {
  auto key = std::make_tuple(config.tiles, config.maxAllowedCount, config.slots);
  if (auto it = answers_.find(key); it != answers_.end()) return it->second;
  ConfigurationAnswer answer;
  answer.config = config;
  if (const uint64_t events = countUnitEvents(index_, index_.algorithm().proto, config); events > kMaxUnitEvents) {
    answer.outcome.name = "deadlock " + config.describe();
    answer.outcome.reason =
        fmt::format("{} FIFO-unit events, more than the {} the encoding builds", events, kMaxUnitEvents);
    record("deadlock", answer.outcome);
    return answers_.emplace(key, std::move(answer)).first->second;
  }
  UnitEventGraph graph(index_, index_.algorithm().proto, config);
  DeadlockEncoding encoding(graph);
  answer.outcome = runner_.run(encoding.query());
  record("deadlock", answer.outcome);
  if (answer.outcome.answer == ccforge::smt::Answer::Sat ||
      (answer.outcome.disagreement && !answer.outcome.model().empty())) {
    answer.witness = encoding.witness(answer.outcome.model());
    UnitReplay replay = replayUnitSchedule(index_, index_.algorithm().proto, config, answer.witness->witness.schedule);
    const auto& claimed = answer.witness->blocked;
    if (!replay.ok)
      answer.replayError = replay.error;
    else if (replay.blocked.size() != claimed.size() ||
             !std::equal(claimed.begin(), claimed.end(), replay.blocked.begin(), sameWait))
      answer.replayError = "the replayed schedule ends stuck in a different state than the witness claims";
    answer.witness->witness.replay =
        answer.replayError.empty()
            ? fmt::format(
                  "replayed: all {} events run in order, each enabled when it runs, and the {} unfinished "
                  "thread blocks are blocked as listed",
                  answer.witness->witness.schedule.size(), replay.blocked.size())
            : "does not replay: " + answer.replayError;
  }
  return answers_.emplace(key, std::move(answer)).first->second;
}

}  // namespace ccforge::verify::smt
