#include "synth/lp/exact_linear_solve.hpp"

#include <cmath>
#include <utility>

namespace ccforge::synth {
namespace {

using topo::BigInt;
using topo::Rational;

constexpr int kBitsPerStep = 26;

// The last continued-fraction convergent p/q of num/den with q <= limit, as (p, q) in
// lowest terms.
std::pair<BigInt, BigInt> convergent(const BigInt& num, const BigInt& den, const BigInt& limit) {
  BigInt a = num, b = den;
  bool negative = a < 0;
  if (negative) a = -a;
  BigInt h0 = 0, h1 = 1, k0 = 1, k1 = 0;
  while (b != 0) {
    BigInt q = a / b;
    BigInt h2 = q * h1 + h0, k2 = q * k1 + k0;
    if (k2 > limit) break;
    h0 = h1;
    h1 = h2;
    k0 = k1;
    k1 = k2;
    BigInt r = a - q * b;
    a = b;
    b = r;
  }
  if (k1 == 0) return {0, 1};
  return {negative ? BigInt(-h1) : h1, k1};
}

}  // namespace

std::optional<std::vector<Rational>> solveExactly(const SparseMatrix& a, const std::vector<Rational>& b,
                                                  const std::vector<std::vector<double>>& approximateInverse,
                                                  int maxSteps) {
  const auto n = static_cast<size_t>(a.size);
  // One common factor makes the system integral.
  BigInt scale = 1;
  for (const auto& [row, col, value] : a.entries)
    scale = boost::multiprecision::lcm(scale, boost::multiprecision::denominator(value));
  for (const Rational& v : b) scale = boost::multiprecision::lcm(scale, boost::multiprecision::denominator(v));
  std::vector<std::tuple<size_t, size_t, BigInt>> entries;
  for (const auto& [row, col, value] : a.entries)
    entries.emplace_back(static_cast<size_t>(row), static_cast<size_t>(col),
                         boost::multiprecision::numerator(Rational(value * scale)));
  std::vector<BigInt> residual;
  for (const Rational& v : b) residual.push_back(boost::multiprecision::numerator(Rational(v * scale)));
  const std::vector<BigInt> target = residual;

  // A^-1 b = sum_k d_k 2^(-s k) + 2^(-s K) A^-1 r_K with r_k = 2^s r_(k-1) - A d_k.
  std::vector<BigInt> accumulated(n, 0);
  BigInt denominator = 1;
  const BigInt step = BigInt(1) << kBitsPerStep;
  std::vector<double> r(n), c(n);
  for (int k = 1; k <= maxSteps; ++k) {
    for (size_t i = 0; i < n; ++i) r[i] = residual[i].convert_to<double>();
    for (size_t i = 0; i < n; ++i) {
      double sum = 0;
      for (size_t j = 0; j < n; ++j) sum += approximateInverse[i][j] * r[j];
      c[i] = sum;
    }
    std::vector<BigInt> d(n);
    for (size_t i = 0; i < n; ++i) {
      double scaled = std::ldexp(c[i], kBitsPerStep);
      if (!std::isfinite(scaled) || std::fabs(scaled) > 9e18) return std::nullopt;  // diverging
      d[i] = static_cast<int64_t>(std::llround(scaled));
    }
    for (size_t i = 0; i < n; ++i) {
      residual[i] *= step;
      accumulated[i] = accumulated[i] * step + d[i];
    }
    for (const auto& [row, col, value] : entries) residual[row] -= value * d[col];
    denominator *= step;
    if ((k & (k - 1)) != 0 || k < 2) continue;  // check at k = 2, 4, 8, ...
    // Convergents with denominators below sqrt(2^(sk)) are determined by the digits so far.
    const BigInt limit = BigInt(1) << (kBitsPerStep * k / 2 - 8);
    std::vector<std::pair<BigInt, BigInt>> x;
    BigInt common = 1;
    for (size_t i = 0; i < n; ++i) {
      x.push_back(convergent(accumulated[i], denominator, limit));
      if (common % x.back().second != 0) common = boost::multiprecision::lcm(common, x.back().second);
    }
    // Exact check in integers: A (x * common) == b * common, all scaled by `scale`.
    std::vector<BigInt> xi;
    for (const auto& [p, q] : x) xi.push_back(p * (common / q));
    std::vector<BigInt> lhs(n, 0);
    for (const auto& [row, col, value] : entries) lhs[row] += value * xi[col];
    bool exact = true;
    for (size_t i = 0; i < n && exact; ++i) exact = lhs[i] == target[i] * common;
    if (exact) {
      std::vector<Rational> solution;
      for (const auto& [p, q] : x) solution.emplace_back(p, q);
      return solution;
    }
  }
  return std::nullopt;
}

}  // namespace ccforge::synth
