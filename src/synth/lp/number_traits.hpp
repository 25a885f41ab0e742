// How the simplex compares numbers: exactly for rationals, with a tolerance for doubles.
#pragma once

#include <cmath>

#include "topology/rational.hpp"

namespace ccforge::synth {

template <typename T>
struct NumberTraits;

template <>
struct NumberTraits<double> {
  static constexpr double kEpsilon = 1e-9;
  static bool positive(double x) { return x > kEpsilon; }
  static bool negative(double x) { return x < -kEpsilon; }
  static bool zero(double x) { return std::fabs(x) <= kEpsilon; }
  static double magnitude(double x) { return std::fabs(x); }
};

template <>
struct NumberTraits<topo::Rational> {
  static bool positive(const topo::Rational& x) { return x > 0; }
  static bool negative(const topo::Rational& x) { return x < 0; }
  static bool zero(const topo::Rational& x) { return x == 0; }
  static double magnitude(const topo::Rational& x) { return std::fabs(topo::toDouble(x)); }
};

}  // namespace ccforge::synth
