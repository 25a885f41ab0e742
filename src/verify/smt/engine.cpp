#include "verify/smt/engine.hpp"

#include <fmt/format.h>

#include <set>

#include "ir/names.hpp"
#include "verify/kahn_simulation.hpp"
#include "verify/smt/deadlock_check.hpp"

namespace ccforge::verify::smt {
namespace {

ccforge::smt::RunSettings settingsOf(const verify::Options& options, const std::string& source) {
  ccforge::smt::RunSettings s;
  switch (options.smt.solvers) {
    case verify::SmtSolvers::Z3: s.solvers = {ccforge::smt::SolverKind::Z3}; break;
    case verify::SmtSolvers::Cvc5: s.solvers = {ccforge::smt::SolverKind::Cvc5}; break;
    case verify::SmtSolvers::Both: s.solvers = {ccforge::smt::SolverKind::Z3, ccforge::smt::SolverKind::Cvc5}; break;
  }
  s.limits.timeoutMs = options.smt.timeoutMs;
  s.limits.rlimit = options.smt.rlimit;
  if (options.smt.dumpDirectory) s.dumpDirectory = *options.smt.dumpDirectory;
  s.dumpPrefix = source;
  return s;
}

ccforge::smt::QueryRunner runnerOf(const verify::Options& options, const std::string& source) {
  if (options.smt.backends.empty()) return ccforge::smt::QueryRunner(settingsOf(options, source));
  return ccforge::smt::QueryRunner(settingsOf(options, source), options.smt.backends);
}

bool decided(const ccforge::smt::QueryOutcome& o) {
  return o.answer == ccforge::smt::Answer::Sat || o.answer == ccforge::smt::Answer::Unsat;
}

}  // namespace

SmtEngine::SmtEngine(const semantics::LoadedProgram& index, const verify::Options& options, const std::string& source)
    : index_(index),
      compare_(options.engine == verify::Engine::Both),
      runner_(runnerOf(options, source)),
      queries_(index, runner_) {
  summary_.engine = compare_ ? "both" : "smt";
  for (ccforge::smt::SolverKind k : runner_.settings().solvers) summary_.solvers.emplace_back(solverName(k));
}

void SmtEngine::disagree(verify::Findings& findings, verify::Check check, std::string message) {
  findings.error(check, kDisagreementRule, index_.algorithm().where, std::move(message));
}

verify::CheckOutcome SmtEngine::deadlock(int32_t slots, verify::Findings& findings,
                                         const verify::DeadlockSummary* simulation,
                                         std::optional<verify::DeadlockSummary>& smtSummary) {
  SmtDeadlockResult r = checkDeadlockSmt(index_, slots, runner_, queries_);
  const auto& records = queries_.records();
  summary_.queries.insert(summary_.queries.end(), records.begin(), records.end());
  summary_.minimumSlots = r.minimumSlots;
  summary_.minimumSlotsProof = r.minimumSlotsProof;
  summary_.maxTilesChecked = r.maxTilesChecked;
  summary_.parametric = r.parametric.text;
  // Witnesses: the deadlock at the checked slot count, the one just below the smallest
  // deadlock-free count, and the parametric counterexample.
  std::set<std::string> shown;
  auto show = [&](const std::optional<ConfigurationAnswer>& a) {
    if (a && a->witness && shown.insert(a->outcome.name).second) summary_.witnesses.push_back(a->witness->witness);
  };
  show(r.deadlock);
  if (r.minimumSlots && *r.minimumSlots > 1) {
    for (const auto& [key, a] : queries_.answers())
      if (a.config.slots == *r.minimumSlots - 1 && a.witness) {
        show(a);
        break;
      }
  }
  show(r.parametric.counterexample);
  for (const std::string& e : r.internalErrors) disagree(findings, verify::Check::Deadlock, e);
  if (simulation) compareDeadlocks(findings, *simulation, r);

  if (!compare_) {
    if (r.deadlock && r.deadlock->witness) {
      const DeadlockWitness& w = *r.deadlock->witness;
      std::vector<std::string> evidence{
          fmt::format("{} of {} thread blocks are blocked", w.blocked.size(), index_.threadBlockCount()),
          fmt::format("witness: a schedule of {} events ({}); {}", w.witness.schedule.size(), w.witness.query,
                      w.witness.replay)};
      findings.error(verify::Check::Deadlock, "deadlock.stuck-state",
                     w.witness.blocked.empty() ? index_.algorithm().where : w.witness.blocked.front().where,
                     fmt::format("deadlock with {} ({}): a reachable state in which every unfinished thread block "
                                 "waits for something that never comes ({})",
                                 r.deadlock->config.describe(), ir::protocolName(index_.algorithm().proto),
                                 r.deadlock->outcome.summary()),
                     w.witness.blocked, std::move(evidence));
    }
    if (r.status != verify::CheckStatus::Inconclusive && r.minimumSlotsDecided) {
      verify::DeadlockSummary d;
      d.slotsChecked = slots;
      d.minimumSlots = r.minimumSlots;
      for (const ConfigurationAnswer& a : r.answers)
        d.configurations.push_back(
            fmt::format("tiles={} maxAllowedCount={}", a.config.tiles, a.config.maxAllowedCount));
      smtSummary = std::move(d);
    }
  }
  return verify::CheckOutcome{verify::Check::Deadlock, r.status, r.note};
}

void SmtEngine::compareDeadlocks(verify::Findings& findings, const verify::DeadlockSummary& simulation,
                                 const SmtDeadlockResult& smt) {
  const ir::Protocol protocol = index_.algorithm().proto;
  for (const auto& [key, a] : queries_.answers()) {
    if (!decided(a.outcome)) continue;
    const bool completes = verify::simulate(index_, protocol, a.config).completed;
    if (completes == (a.outcome.answer == ccforge::smt::Answer::Sat))
      disagree(findings, verify::Check::Deadlock,
               fmt::format("{}: the simulation {}, but the solvers say {} ({})", a.config.describe(),
                           completes ? "completes" : "deadlocks",
                           completes ? "deadlock (sat)" : "deadlock-free (unsat)", a.outcome.summary()));
  }
  if (smt.minimumSlotsDecided && smt.minimumSlots != simulation.minimumSlots) {
    auto show = [](const std::optional<int32_t>& v) { return v ? std::to_string(*v) : std::string("none up to 64"); };
    disagree(findings, verify::Check::Deadlock,
             fmt::format("smallest deadlock-free slot count: the simulation says {}, SMT says {} ({})",
                         show(simulation.minimumSlots), show(smt.minimumSlots), smt.minimumSlotsProof));
  }
  const int32_t slots = simulation.slotsChecked;
  if (smt.parametric.verdict == ParametricResult::Verdict::EveryTileCount) {
    for (int32_t tiles = 1; tiles <= 3; ++tiles)
      if (!verify::simulate(index_, protocol, verify::SimulationConfig{tiles, 1, slots}).completed)
        disagree(findings, verify::Check::Deadlock,
                 fmt::format("every tile count: SMT proves deadlock freedom, but the simulation deadlocks with {} "
                             "tile iterations (maxAllowedCount=1 slots={})",
                             tiles, slots));
  } else if (smt.parametric.verdict == ParametricResult::Verdict::Counterexample &&
             verify::simulate(index_, protocol, verify::SimulationConfig{smt.parametric.counterexampleTiles, 1, slots})
                 .completed) {
    disagree(findings, verify::Check::Deadlock,
             fmt::format("every tile count: SMT shows a deadlock with {} tile iterations, but the simulation completes",
                         smt.parametric.counterexampleTiles));
  }
}

SmtEngine::DataOutcomes SmtEngine::data(const DataCheckInput& input, verify::Findings& findings,
                                        const DataOutcomes* simulation) {
  // With --engine both the simulation's violations are the report's; the SMT witnesses are in its section.
  verify::Findings discarded(findings.file(), 0);
  SmtDataResult r = checkDataSmt(input, runner_, simulation ? discarded : findings);
  summary_.queries.insert(summary_.queries.end(), r.queries.begin(), r.queries.end());
  for (verify::Witness& w : r.witnesses) summary_.witnesses.push_back(std::move(w));
  for (const std::string& e : r.internalErrors) disagree(findings, verify::Check::Races, e);
  DataOutcomes out{{verify::Check::Races, r.races, r.racesNote},
                   {verify::Check::Postcondition, r.postcondition, r.postconditionNote}};
  if (!simulation) return out;
  using verify::CheckStatus;
  const CheckStatus simRaces = simulation->races.status, simPost = simulation->postcondition.status;
  if (r.races == CheckStatus::Failed && simRaces == CheckStatus::Passed)
    disagree(findings, verify::Check::Races,
             "races: an interleaving changes an output chunk (SMT), but happens-before orders every conflicting access "
             "(simulation)");
  if (input.collective && simPost == CheckStatus::Failed && r.postcondition == CheckStatus::Passed)
    disagree(findings, verify::Check::Postcondition,
             "postcondition: the simulation computes a wrong output chunk, but SMT proves every interleaving correct");
  if (input.collective && r.postcondition == CheckStatus::Failed && simPost == CheckStatus::Passed &&
      simRaces == CheckStatus::Passed)
    disagree(findings, verify::Check::Postcondition,
             "postcondition: an interleaving computes a wrong output chunk (SMT), but the simulation finds neither a "
             "wrong chunk nor a race");
  if (simRaces == CheckStatus::Failed && r.races == CheckStatus::Passed)
    out.races.note = "SMT: none of these races changes an output chunk (every interleaving gives the same outputs)";
  return out;
}

}  // namespace ccforge::verify::smt
