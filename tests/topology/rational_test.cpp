#include <catch2/catch.hpp>

#include "topology/rational.hpp"

using namespace ccforge::topo;

TEST_CASE("rationals parse from integers, fractions and exact decimals") {
  CHECK(*parseRational("25") == 25);
  CHECK(*parseRational("7/6") == Rational(7, 6));
  CHECK(*parseRational("14/12") == Rational(7, 6));
  CHECK(*parseRational("12.5") == Rational(25, 2));
  CHECK(*parseRational("0.32") == Rational(8, 25));
  CHECK(*parseRational("-1/2") == Rational(-1, 2));
  CHECK_FALSE(parseRational("1/0"));
  CHECK_FALSE(parseRational(""));
  CHECK_FALSE(parseRational("1e3"));
  CHECK_FALSE(parseRational("1/"));
  CHECK_FALSE(parseRational("a/b"));
  CHECK_FALSE(parseRational("1.2.3"));
}

TEST_CASE("rationals print canonically and round half away from zero") {
  CHECK(toString(Rational(14, 12)) == "7/6");
  CHECK(toString(Rational(50)) == "50");
  CHECK(toFixed(Rational(1200, 7), 2) == "171.43");
  CHECK(toFixed(Rational(1040, 3), 2) == "346.67");
  CHECK(toFixed(Rational(1, 8), 2) == "0.13");
  CHECK(toFixed(Rational(-1, 8), 2) == "-0.13");
  CHECK(toFixed(Rational(160), 2) == "160.00");
  CHECK(toFixed(Rational(1, 3), 0) == "0");
  CHECK(toFixed(Rational(1, 1000), 2) == "0.00");
}
