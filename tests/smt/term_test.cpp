// The solver-neutral terms and our SMT-LIB printer.
#include <catch2/catch.hpp>

#include <sstream>

#include "smt/smtlib.hpp"
#include "smt/term.hpp"

using namespace ccforge::smt;

TEST_CASE("terms simplify locally") {
  TermStore t;
  const Term a = t.boolVar("a"), b = t.boolVar("b"), x = t.intVar("x"), y = t.intVar("y");
  CHECK(t.andTerm({a, t.boolConst(true)}) == a);
  CHECK(t.isFalse(t.andTerm({a, t.boolConst(false), b})));
  CHECK(t.isTrue(t.orTerm({b, t.boolConst(true)})));
  CHECK(t.isFalse(t.orTerm({})));
  CHECK(t.isTrue(t.andTerm({})));
  CHECK(t.notTerm(t.notTerm(a)) == a);
  CHECK(t.isTrue(t.implies(t.boolConst(false), a)));
  CHECK(t.isTrue(t.lt(t.intConst(1), t.intConst(2))));
  CHECK(t.isFalse(t.lt(x, x)));
  CHECK(t.isTrue(t.le(x, x)));
  CHECK(t.ite(t.boolConst(true), x, y) == x);
  CHECK(t.ite(a, x, x) == x);
  CHECK(t.ite(a, t.boolConst(true), t.boolConst(false)) == a);
  const Term notA = t.eq(a, t.boolConst(false));
  CHECK((t.node(notA).op == Op::Not && t.kid(t.node(notA), 0) == a));
  const Term nested = t.andTerm({a, t.andTerm({b, t.notTerm(a)})});
  CHECK(t.node(nested).kidCount == 3);
  CHECK(t.node(t.add({x, t.intConst(2), t.intConst(-2)})).op == Op::Var);
  CHECK_THROWS_AS(t.lt(a, x), std::logic_error);
}

TEST_CASE("the SMT-LIB printer writes a standalone script, the same every time") {
  Query q;
  q.name = "example";
  TermStore& t = q.terms;
  const Term a = t.boolVar("ran_r0_b1_t0_s2_u0"), x = t.intVar("x"), y = t.intVar("odd name");
  q.require(t.implies(a, t.lt(t.add({x, t.intConst(-3)}), y)));
  q.require(t.eq(t.countTrue({a, t.notTerm(a)}), t.intConst(1)));
  std::ostringstream first, second;
  printSmtLib(first, q);
  printSmtLib(second, q);
  CHECK(first.str() == second.str());
  CHECK(first.str() ==
        "; ccforge query: example\n"
        "(set-logic QF_LIA)\n"
        "(declare-fun ran_r0_b1_t0_s2_u0 () Bool)\n"
        "(declare-fun x () Int)\n"
        "(declare-fun |odd name| () Int)\n"
        "(assert (or (not ran_r0_b1_t0_s2_u0) (< (+ x (- 3)) |odd name|)))\n"
        "(assert (= (+ (ite ran_r0_b1_t0_s2_u0 1 0) (ite (not ran_r0_b1_t0_s2_u0) 1 0)) 1))\n"
        "(check-sat)\n(exit)\n");
}
