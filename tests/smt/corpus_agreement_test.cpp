// On every fixture of the corpus, positive and negative, the SMT engine (Z3 and cvc5, every query
// cross-checked) reaches the simulation's verdicts, and every sat witness replays. Where the
// engines may differ by design (a race the simulation reports that changes no result), the
// exhaustive interleaving oracle decides who is right.
#include <catch2/catch.hpp>

#include <algorithm>

#include <fstream>
#include <sstream>

#include "../verify/fixture_expectation.hpp"
#include "interleaving_oracle.hpp"
#include "programs.hpp"
#include "verify/deadlock.hpp"
#include "verify/kahn_simulation.hpp"
#include "verify/layouts.hpp"
#include "verify/report_writers.hpp"
#include "verify/smt/data_replay.hpp"
#include "verify/smt/witness_replay.hpp"
#include "verify/step_graph.hpp"
#include "verify/verifier.hpp"

using namespace ccforge;
namespace fs = std::filesystem;
using verify::Check;
using verify::CheckStatus;

namespace {

verify::Options fixtureOptions(const fs::path& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  if (first != "<!-- ccforge-expect") return {};  // the msccl-tools samples state nothing: defaults
  return test::readExpectation(path).options(path);
}

CheckStatus statusOf(const verify::FileReport& r, Check check) {
  for (const verify::CheckOutcome& c : r.checks)
    if (c.check == check) return c.status;
  return CheckStatus::Skipped;
}

std::string describe(const verify::FileReport& r) {
  std::string out = std::string(verify::verdictName(r.verdict)) + " " + r.error + "\n";
  for (const verify::CheckOutcome& c : r.checks)
    out += std::string(verify::checkName(c.check)) + " " + std::string(verify::checkStatusName(c.status)) + " " +
           c.note + "\n";
  for (const verify::Violation& v : r.violations) out += v.rule + ": " + v.message + "\n";
  return out;
}

// What every interleaving can produce, per the oracle; nullopt if the program is too large for it.
struct Truth {
  bool resultChanges = false;  // two interleavings give different outputs
  bool someWrong = false;      // some interleaving violates the postcondition
};

std::optional<Truth> oracle(const test::SmtFixture& p, int32_t slots, const verify::BoxLayout& boxes) {
  Truth truth;
  std::vector<semantics::CallForm> forms = verify::callFormsOf(p.algorithm());
  for (semantics::CallForm form : forms) {
    std::vector<semantics::RankLayout> layouts = verify::rankLayouts(p.collective(), form, p.bufferLengths());
    semantics::ChunkValues values;
    verify::smt::DataSetting setting(p.index(), layouts, p.collective(), values);
    verify::smt::SyncGraph bounded(p.index(), {verify::backPressureDistance(p.algorithm().proto, slots), boxes});
    auto outcomes = test::everyOutcome(setting, bounded);
    if (!outcomes) return std::nullopt;
    truth.resultChanges = truth.resultChanges || outcomes->size() > 1;
    if (!p.collective()) continue;
    verify::smt::SyncGraph unbounded(p.index(), verify::BackPressure{});
    auto data = bounded.allRun() ? outcomes : test::everyOutcome(setting, unbounded);
    if (!data) return std::nullopt;
    for (const auto& outputs : *data)
      for (size_t k = 0; k < outputs.size(); ++k)
        if (setting.outputs()[k].expected && outputs[k] != *setting.outputs()[k].expected) truth.someWrong = true;
  }
  return truth;
}

void checkDeadlockWitness(const test::SmtFixture& p, const verify::Witness& w) {
  verify::SimulationConfig config{w.tiles, w.maxAllowedCount, w.slots};
  verify::SimulationResult sim = verify::simulate(p.index(), p.algorithm().proto, config);
  REQUIRE_FALSE(sim.completed);
  REQUIRE(w.blocked.size() == sim.blocked.size());
  for (size_t i = 0; i < sim.blocked.size(); ++i) {
    const verify::StepRef at =
        verify::stepRef(p.index(), p.index().firstStep(sim.blocked[i].tb) + static_cast<uint32_t>(sim.blocked[i].step));
    CHECK(w.blocked[i].rank == at.rank);
    CHECK(w.blocked[i].tb == at.tb);
    CHECK(w.blocked[i].step == at.step);
    CHECK(w.blocked[i].tile == sim.blocked[i].tile);
  }
}

// The witness as JSON, read back, replays against the program; without its first event, it does not.
void checkJsonReplay(const test::SmtFixture& p, const fs::path& path, const verify::Witness& w) {
  std::stringstream json;
  verify::writeWitness(json, path.string(), w);
  verify::Witness back = verify::smt::readWitness(json);
  CHECK(back.schedule.size() == w.schedule.size());
  CHECK(verify::smt::replayWitness(p.index(), p.collective(), p.bufferLengths(), back) == "");
  if (back.schedule.empty()) return;
  back.schedule.erase(back.schedule.begin());
  CHECK_FALSE(verify::smt::replayWitness(p.index(), p.collective(), p.bufferLengths(), back).empty());
}

void checkFixture(const fs::path& path) {
  INFO(path.string());
  verify::Options options = fixtureOptions(path);
  verify::Options smtOptions = options;
  smtOptions.engine = verify::Engine::Smt;
  smtOptions.smt.solvers = verify::SmtSolvers::Both;
  const verify::FileReport sim = verify::verifyFile(path, options);
  const verify::FileReport smt = verify::verifyFile(path, smtOptions);
  INFO("simulation: " << describe(sim) << "smt: " << describe(smt));
  REQUIRE(smt.verdict != verify::Verdict::InternalError);
  for (Check c : {Check::Format, Check::Limits, Check::Connections, Check::Deadlock})
    CHECK(statusOf(smt, c) == statusOf(sim, c));
  if (sim.deadlock && smt.smt && !smt.smt->minimumSlotsProof.starts_with("not searched"))
    CHECK(smt.smt->minimumSlots == sim.deadlock->minimumSlots);

  const CheckStatus simRaces = statusOf(sim, Check::Races), smtRaces = statusOf(smt, Check::Races);
  const CheckStatus simPost = statusOf(sim, Check::Postcondition), smtPost = statusOf(smt, Check::Postcondition);
  std::unique_ptr<test::SmtFixture> program = test::SmtFixture::read(path, options);
  std::optional<Truth> truth;
  if (program && simRaces != CheckStatus::Skipped)
    truth = oracle(*program, options.slots.value_or(semantics::transfersInFlight(program->algorithm().proto)),
                   options.boxes);
  if (truth) {
    CHECK((smtRaces == CheckStatus::Failed) == truth->resultChanges);
    if (simPost != CheckStatus::Skipped) CHECK((smtPost == CheckStatus::Failed) == truth->someWrong);
    if (simRaces == CheckStatus::Passed) CHECK_FALSE(truth->resultChanges);
    if (simPost == CheckStatus::Failed) CHECK(truth->someWrong);
  } else {
    // Too large for the oracle: where happens-before orders every access, one interleaving decides.
    REQUIRE(simRaces != CheckStatus::Failed);
    CHECK(smtRaces == simRaces);
    CHECK(smtPost == simPost);
  }
  // File verdicts: equal, except where every error the simulation reports is a race that changes nothing.
  bool onlyHarmlessRaces = simRaces == CheckStatus::Failed && smtRaces == CheckStatus::Passed &&
                           std::all_of(sim.violations.begin(), sim.violations.end(), [](const verify::Violation& v) {
                             return v.severity == verify::Severity::Warning || v.rule.starts_with("race.");
                           });
  CHECK(smt.verdict == (onlyHarmlessRaces ? verify::Verdict::Verified : sim.verdict));

  if (smt.smt) {
    for (const verify::Witness& w : smt.smt->witnesses) {
      INFO(w.query);
      CHECK(w.replay.starts_with("replayed"));
      if (w.kind == "deadlock") checkDeadlockWitness(*program, w);
      checkJsonReplay(*program, path, w);
    }
  }

  verify::Options both = options;
  both.engine = verify::Engine::Both;
  const verify::FileReport compared = verify::verifyFile(path, both);
  INFO("both: " << describe(compared));
  CHECK(compared.verdict == sim.verdict);
}

void checkDirectory(const std::string& dir) {
  size_t n = 0;
  for (const fs::path& p : test::corpus())
    if (p.parent_path().filename() == dir) {
      checkFixture(p);
      ++n;
    }
  CHECK(n > 0);
}

}  // namespace

TEST_CASE("SMT agrees with the simulation: send buffer fixtures") { checkDirectory("buffers"); }
TEST_CASE("SMT agrees with the simulation: connection fixtures") { checkDirectory("connections"); }
TEST_CASE("SMT agrees with the simulation: custom collective fixtures") { checkDirectory("custom"); }
TEST_CASE("SMT agrees with the simulation: deadlock fixtures") { checkDirectory("deadlock"); }
TEST_CASE("SMT agrees with the simulation: format fixtures") { checkDirectory("format"); }
TEST_CASE("SMT agrees with the simulation: correct programs") { checkDirectory("good"); }
TEST_CASE("SMT agrees with the simulation: limits fixtures") { checkDirectory("limits"); }
TEST_CASE("SMT agrees with the simulation: postcondition fixtures") { checkDirectory("postcondition"); }
TEST_CASE("SMT agrees with the simulation: race fixtures") { checkDirectory("races"); }
TEST_CASE("SMT agrees with the simulation: suppression fixtures") { checkDirectory("suppressions"); }
TEST_CASE("SMT agrees with the simulation: fixtures from engine disagreements") { checkDirectory("differential"); }
TEST_CASE("SMT agrees with the simulation: msccl-tools samples") {
  checkDirectory("valid");
  checkDirectory("invalid");
}
// Fused programs: the SMT encodings do not model compute steps, so --engine smt and both fall back to
// the simulation engine (docs/fused.md), say so, and reach its verdict.
TEST_CASE("SMT on fused programs falls back to the simulation, with a note") {
  size_t n = 0;
  for (const fs::path& p : test::corpus()) {
    if (p.parent_path().filename() != "fused") continue;
    INFO(p.string());
    verify::Options options = fixtureOptions(p);
    const verify::FileReport sim = verify::verifyFile(p, options);
    for (verify::Engine engine : {verify::Engine::Smt, verify::Engine::Both}) {
      verify::Options o = options;
      o.engine = engine;
      const verify::FileReport r = verify::verifyFile(p, o);
      CHECK(r.verdict == sim.verdict);
      CHECK(std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& note) {
        return note.find("the SMT engine does not model compute steps") != std::string::npos;
      }));
    }
    ++n;
  }
  CHECK(n >= 8);
}

TEST_CASE("the corpus is all covered") {
  size_t covered = 0;
  for (const fs::path& p : test::corpus())
    for (const char* dir : {"buffers", "connections", "custom", "deadlock", "differential", "format", "fused", "good",
                            "limits", "postcondition", "races", "suppressions", "valid", "invalid"})
      covered += p.parent_path().filename() == dir;
  CHECK(covered == test::corpus().size());
}
