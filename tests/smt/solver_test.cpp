// Both backends: answers, models, the reason kept for unknown answers, and cross-checking.
#include <catch2/catch.hpp>

#include "smt/query_runner.hpp"
#include "smt/solver.hpp"
#include "fixed_solver.hpp"

using namespace ccforge::smt;

namespace {

// n + 1 pigeons in n holes: unsat, and hard enough for both solvers to need a while for n >= 9.
Query pigeons(int n) {
  Query q;
  q.name = "pigeons";
  std::vector<Term> x;
  for (int i = 0; i <= n; ++i) {
    std::string name = "p";  // appended in two statements: GCC 12 warns falsely on "p" + std::to_string(i)
    name += std::to_string(i);
    x.push_back(q.terms.intVar(name));
    q.require(q.terms.andTerm({q.terms.le(q.terms.intConst(0), x.back()), q.terms.lt(x.back(), q.terms.intConst(n))}));
  }
  for (int i = 0; i <= n; ++i)
    for (int j = i + 1; j <= n; ++j) q.require(q.terms.notTerm(q.terms.eq(x[i], x[j])));
  return q;
}

}  // namespace

TEST_CASE("both solvers answer sat with a model, and unsat") {
  for (SolverKind kind : {SolverKind::Z3, SolverKind::Cvc5}) {
    INFO(solverName(kind));
    Query q;
    q.name = "order";
    TermStore& t = q.terms;
    const Term x = t.intVar("x"), y = t.intVar("y"), a = t.boolVar("a"), b = t.boolVar("b"), c = t.boolVar("c");
    q.require(t.andTerm({t.le(t.intConst(1), x), t.lt(x, y), t.lt(y, t.intConst(3))}));
    q.require(t.eq(t.countTrue({a, b, c}), t.intConst(2)));
    q.require(t.andTerm({a, t.notTerm(b)}));
    q.wanted = {x, y, c};
    SolverResult r = makeSolver(kind)->check(q, Limits{});
    REQUIRE(r.answer == Answer::Sat);
    CHECK(r.model == std::vector<int64_t>{1, 2, 1});
    q.require(t.lt(y, x));
    CHECK(makeSolver(kind)->check(q, Limits{}).answer == Answer::Unsat);
  }
}

TEST_CASE("a query beyond its time limit is unknown, with the reason") {
  for (SolverKind kind : {SolverKind::Z3, SolverKind::Cvc5}) {
    INFO(solverName(kind));
    SolverResult r = makeSolver(kind)->check(pigeons(10), Limits{100, 0});
    CHECK(r.answer == Answer::Unknown);
    CHECK(r.reason == "timeout: no answer within 100 ms");
    CHECK(r.seconds < 20);
  }
}

TEST_CASE("a query beyond its resource limit is unknown, with the reason") {
  for (SolverKind kind : {SolverKind::Z3, SolverKind::Cvc5}) {
    INFO(solverName(kind));
    SolverResult r = makeSolver(kind)->check(pigeons(9), Limits{60'000, 2000});
    CHECK(r.answer == Answer::Unknown);
    CHECK(r.reason == "resource limit reached (rlimit 2000)");
  }
}

TEST_CASE("a query a solver rejects is an error, not a verdict") {
  Query q = pigeons(2);
  q.logic = "QF_NO_SUCH_LOGIC";
  SolverResult r = makeSolver(SolverKind::Cvc5)->check(q, Limits{});
  CHECK(r.answer == Answer::Error);
  CHECK(r.reason.starts_with("cvc5: "));
}

TEST_CASE("cross-checking: an answer counts only when every solver gives it") {
  Query q = pigeons(2);
  q.wanted = {};
  auto run = [&](Answer first, Answer second) {
    QueryRunner runner(RunSettings{}, {std::make_shared<ccforge::test::FixedSolver>(SolverKind::Z3, first),
                                       std::make_shared<ccforge::test::FixedSolver>(SolverKind::Cvc5, second)});
    return runner.run(q);
  };
  QueryOutcome agree = run(Answer::Unsat, Answer::Unsat);
  CHECK(agree.answer == Answer::Unsat);
  CHECK_FALSE(agree.disagreement);
  QueryOutcome disagree = run(Answer::Sat, Answer::Unsat);
  CHECK(disagree.disagreement);
  CHECK(disagree.answer == Answer::Unknown);
  CHECK(disagree.reason == "z3 sat, cvc5 unsat");
  QueryOutcome partial = run(Answer::Unsat, Answer::Unknown);
  CHECK(partial.answer == Answer::Unknown);
  CHECK_FALSE(partial.disagreement);
  CHECK(partial.reason == "z3 unsat, cvc5 unknown (timeout: no answer within 1 ms)");
  CHECK(run(Answer::Sat, Answer::Error).answer == Answer::Error);
  // The real solvers agree on a real query.
  QueryRunner both(RunSettings{{SolverKind::Z3, SolverKind::Cvc5}, Limits{}, std::nullopt, ""});
  CHECK(both.run(pigeons(4)).answer == Answer::Unsat);
}
