#include <catch2/catch.hpp>

#include "synth/lp/exact_linear_solve.hpp"
#include "synth/lp/revised_simplex.hpp"

using namespace ccforge::synth;
using ccforge::topo::Rational;

TEST_CASE("the revised simplex maximises a small LP exactly") {
  // max 3x + 2y  s.t.  x + y + s1 = 4,  x + 3y + s2 = 6,  x <= 3 (x + s3 = 3). Optimum x=3, y=1: 11.
  RevisedSimplex<Rational> lp(3, {4, 6, 3});
  lp.addColumn({{{0, 1}, {1, 1}, {2, 1}}, 3});
  lp.addColumn({{{0, 1}, {1, 3}}, 2});
  for (int32_t r = 0; r < 3; ++r) lp.addColumn({{{r, 1}}, 0});
  REQUIRE(lp.setBasis({2, 3, 4}));
  for (int guard = 0; guard < 10; ++guard) {
    auto y = lp.duals();
    int32_t entering = -1;
    for (int32_t j = 0; j < lp.columnCount() && entering < 0; ++j)
      if (RevisedSimplex<Rational>::reducedCost(lp.column(j), y) > 0) entering = j;
    if (entering < 0) break;
    REQUIRE(lp.pivot(entering));
  }
  CHECK(lp.objective() == 11);
  auto y = lp.duals();
  CHECK(y == std::vector<Rational>{2, 0, 1});
}

TEST_CASE("exact solve by refinement recovers fractions from a rough inverse") {
  // [[3, 1], [1, 7]] x = [1, 2]: x = [5/20, 5/20] = [1/4, 1/4].
  SparseMatrix a{2, {{0, 0, 3}, {0, 1, 1}, {1, 0, 1}, {1, 1, 7}}};
  std::vector<std::vector<double>> inverse{{0.35, -0.05}, {-0.05, 0.15}};  // exact inverse, rounded
  auto x = solveExactly(a, {1, 2}, inverse);
  REQUIRE(x);
  CHECK((*x)[0] == Rational(1, 4));
  CHECK((*x)[1] == Rational(1, 4));
  SparseMatrix singular{2, {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}}};
  CHECK_FALSE(solveExactly(singular, {1, 3}, {{1, 0}, {0, 1}}, 8));
}
