// Exact rationals for bandwidths and bounds (Boost.Multiprecision, header-only).
#pragma once

#include <boost/multiprecision/cpp_int.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace ccforge::topo {

using Rational = boost::multiprecision::cpp_rational;
using BigInt = boost::multiprecision::cpp_int;

// "7", "7/6", "12.5" (an exact decimal), with an optional leading '-'. nullopt when the
// text is none of these or a denominator is zero.
std::optional<Rational> parseRational(std::string_view text);

// "7/6", "25", "-1/2": the canonical form parseRational reads back.
std::string toString(const Rational& value);

// Rounded half away from zero to `digits` decimals: toFixed(1200/7, 2) == "171.43".
std::string toFixed(const Rational& value, int digits);

double toDouble(const Rational& value);

}  // namespace ccforge::topo
