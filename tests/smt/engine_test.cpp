// The verifier with the SMT engine: disagreements are internal errors that show both answers;
// a solver without an answer makes a check inconclusive, never decided.
#include <catch2/catch.hpp>

#include "verify/smt/engine.hpp"
#include "smt/solver.hpp"
#include "verify/verifier.hpp"
#include "support/verify_support.hpp"
#include "fixed_solver.hpp"

using namespace ccforge;
namespace fs = std::filesystem;

namespace {

verify::Options withBackends(verify::Engine engine, std::vector<std::shared_ptr<const smt::Solver>> backends) {
  verify::Options o;
  o.engine = engine;
  o.smt.backends = std::move(backends);
  return o;
}

bool reports(const verify::FileReport& r, const std::string& rule, const std::string& text) {
  return std::any_of(r.violations.begin(), r.violations.end(), [&](const verify::Violation& v) {
    return v.rule == rule && v.message.find(text) != std::string::npos;
  });
}

}  // namespace

TEST_CASE("two solvers that disagree make the file an internal error that shows both answers") {
  auto z3Sat = std::make_shared<test::FixedSolver>(smt::SolverKind::Z3, smt::Answer::Sat);
  auto cvc5Unsat = std::make_shared<test::FixedSolver>(smt::SolverKind::Cvc5, smt::Answer::Unsat);
  const verify::FileReport r = verify::verifyFile(test::fixture("verify/good/allreduce_pairs_n2.xml"),
                                                  withBackends(verify::Engine::Smt, {z3Sat, cvc5Unsat}));
  CHECK(r.verdict == verify::Verdict::InternalError);
  CHECK(reports(r, verify::smt::kDisagreementRule, "the solvers disagree: z3 sat, cvc5 unsat"));
  CHECK(r.errorMessage == "the engines disagree or an SMT witness does not replay (see engines.disagree)");
  CHECK(r.error.ends_with(
      ": error: the engines disagree or an SMT witness does not replay (see engines.disagree) [internal.error]"));
}

TEST_CASE("an SMT answer that contradicts the simulation is a disagreement (--engine both)") {
  auto unsat = std::make_shared<test::FixedSolver>(smt::SolverKind::Z3, smt::Answer::Unsat);
  const verify::FileReport r = verify::verifyFile(test::fixture("verify/deadlock/receive_before_send.xml"),
                                                  withBackends(verify::Engine::Both, {unsat}));
  CHECK(r.verdict == verify::Verdict::InternalError);
  CHECK(reports(
      r, verify::smt::kDisagreementRule,
      "tiles=1 maxAllowedCount=71 slots=2: the simulation deadlocks, but the solvers say deadlock-free (unsat)"));
  CHECK(reports(r, verify::smt::kDisagreementRule,
                "the simulation computes a wrong output chunk, but SMT proves every interleaving correct"));
}

TEST_CASE("a sat answer whose witness does not replay is an internal error, not a violation") {
  auto sat = std::make_shared<test::FixedSolver>(smt::SolverKind::Z3, smt::Answer::Sat);
  const verify::FileReport r =
      verify::verifyFile(test::fixture("verify/good/allreduce_pairs_n2.xml"), withBackends(verify::Engine::Smt, {sat}));
  CHECK(r.verdict == verify::Verdict::InternalError);
  CHECK(reports(r, verify::smt::kDisagreementRule, "the witness does not replay"));
  CHECK_FALSE(std::any_of(r.violations.begin(), r.violations.end(),
                          [](const verify::Violation& v) { return v.rule == "deadlock.stuck-state"; }));
}

TEST_CASE("a solver without an answer leaves the checks inconclusive with its reason") {
  auto unknown = std::make_shared<test::FixedSolver>(smt::SolverKind::Cvc5, smt::Answer::Unknown);
  for (const char* file :
       {"good/allreduce_pairs_n2.xml", "deadlock/receive_before_send.xml", "races/write_read_unordered.xml"}) {
    INFO(file);
    const verify::FileReport r =
        verify::verifyFile(test::fixture(std::string("verify/") + file), withBackends(verify::Engine::Smt, {unknown}));
    CHECK(r.verdict == verify::Verdict::Inconclusive);
    CHECK(r.errorCount() == 0);
    REQUIRE(r.smt);
    for (const verify::CheckOutcome& c : r.checks) {
      if (c.check != verify::Check::Deadlock && c.check != verify::Check::Races &&
          c.check != verify::Check::Postcondition)
        continue;
      const std::string name(verify::checkName(c.check));
      const bool simplified = std::all_of(
          r.smt->queries.begin(), r.smt->queries.end(),
          [&](const verify::SmtQueryRecord& q) { return q.check != name || q.decidedBy == "simplification"; });
      INFO(name);
      // Only a query that simplified to false is decided without the solver.
      if (simplified) {
        CHECK(c.status == verify::CheckStatus::Passed);
        continue;
      }
      CHECK(c.status == verify::CheckStatus::Inconclusive);
      CHECK(c.note.find("cvc5 unknown (timeout: no answer within 1 ms)") != std::string::npos);
    }
  }
}

TEST_CASE("a real solver out of resources is inconclusive, with the reason") {
  verify::Options o;
  o.engine = verify::Engine::Smt;
  o.smt.solvers = verify::SmtSolvers::Both;
  o.smt.rlimit = 1;
  const verify::FileReport r = verify::verifyFile(test::fixture("verify/deadlock/allreduce_pairs_one_slot.xml"), o);
  CHECK(r.verdict == verify::Verdict::Inconclusive);
  auto deadlock = std::find_if(r.checks.begin(), r.checks.end(),
                               [](const verify::CheckOutcome& c) { return c.check == verify::Check::Deadlock; });
  REQUIRE(deadlock != r.checks.end());
  CHECK(deadlock->status == verify::CheckStatus::Inconclusive);
  CHECK(deadlock->note.find("z3 unknown (resource limit reached (rlimit 1))") != std::string::npos);
}
