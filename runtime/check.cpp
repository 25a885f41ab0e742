#include "runtime/check.hpp"

#include <cmath>
#include <cstring>
#include <future>
#include <sstream>

#include "runtime/core/numeric.hpp"
#include "runtime/reference.hpp"
#include "runtime/type_dispatch.hpp"

namespace ccforge::runtime {
namespace {

template <class T>
double asDouble(T v) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
    return toFloat(v);
  else
    return static_cast<double>(v);
}

// Unit roundoff and smallest positive (subnormal) value of a floating-point type.
template <class T>
double unitRoundoff() {
  if constexpr (std::is_same_v<T, float>)
    return std::ldexp(1.0, -24);
  else if constexpr (std::is_same_v<T, double>)
    return std::ldexp(1.0, -53);
  else if constexpr (std::is_same_v<T, Half>)
    return std::ldexp(1.0, -11);
  else
    return std::ldexp(1.0, -8);
}
template <class T>
double smallest() {
  if constexpr (std::is_same_v<T, float>)
    return std::ldexp(1.0, -149);
  else if constexpr (std::is_same_v<T, double>)
    return std::ldexp(1.0, -1074);
  else if constexpr (std::is_same_v<T, Half>)
    return std::ldexp(1.0, -24);
  else
    return std::ldexp(1.0, -133);
}

struct Expected {
  double value;
  double tolerance;
};

// Integers: the exact wrapped result, computed in 64-bit unsigned arithmetic.
template <class T>
T expectedInteger(ReduceOp op, bool reduction, const std::vector<T>& xs, int32_t ranks) {
  using U = std::make_unsigned_t<T>;
  T acc = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) {
    switch (op) {
      case ReduceOp::Sum:
      case ReduceOp::Avg:
        acc = static_cast<T>(static_cast<U>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(xs[i])));
        break;
      case ReduceOp::Prod:
        acc = static_cast<T>(static_cast<U>(static_cast<uint64_t>(acc) * static_cast<uint64_t>(xs[i])));
        break;
      case ReduceOp::Min: acc = xs[i] < acc ? xs[i] : acc; break;
      case ReduceOp::Max: acc = xs[i] > acc ? xs[i] : acc; break;
    }
  }
  if (op == ReduceOp::Avg && reduction) acc = static_cast<T>(acc / static_cast<T>(ranks));
  return acc;
}

template <class T>
Expected expectedFloat(ReduceOp op, bool reduction, const std::vector<double>& xs, int32_t ranks) {
  const double u = unitRoundoff<T>();
  const double n = static_cast<double>(xs.size());
  if (xs.size() == 1 && !(op == ReduceOp::Avg && reduction)) return {xs[0], 0};
  switch (op) {
    case ReduceOp::Min:
    case ReduceOp::Max: {
      double v = xs[0];
      for (double x : xs) v = op == ReduceOp::Min ? std::min(v, x) : std::max(v, x);
      return {v, 0};
    }
    case ReduceOp::Prod: {
      double v = 1;
      for (double x : xs) v *= x;
      return {v, 1.01 * n * u * std::fabs(v) + n * smallest<T>()};
    }
    case ReduceOp::Sum:
    case ReduceOp::Avg: {
      double sum = 0, magnitude = 0;
      for (double x : xs) {
        sum += x;
        magnitude += std::fabs(x);
      }
      double tolerance = 1.01 * ((n - 1) * u * magnitude + u * std::fabs(sum)) + n * smallest<T>();
      if (op == ReduceOp::Avg) {
        sum /= ranks;
        tolerance = tolerance / ranks + u * std::fabs(sum) + smallest<T>();
      }
      return {sum, tolerance};
    }
  }
  return {0, 0};
}

// One rank's outputs against the reference; `result.exact` is left to the caller.
template <class T>
CheckResult checkRank(const CallShape& call, std::span<const void* const> inputs, const T* out, int32_t r) {
  CheckResult result;
  const int64_t chunk = canonicalChunkElems(call);
  const bool reduction = reduces(call.collective);
  std::vector<T> ints;
  std::vector<double> floats;
  const auto sources = outputSources(call, r);
  for (size_t k = 0; k < sources.size(); ++k) {
    if (sources[k].empty()) continue;
    for (int64_t e = 0; e < chunk; ++e) {
      const int64_t index = static_cast<int64_t>(k) * chunk + e;
      ++result.checked;
      Mismatch m{r, index, asDouble(out[index]), 0, 0};
      bool ok;
      if constexpr (std::is_integral_v<T>) {
        ints.clear();
        for (const ChunkSource& s : sources[k])
          ints.push_back(static_cast<const T*>(inputs[s.rank])[s.chunk * chunk + e]);
        const T want = expectedInteger<T>(call.op, reduction, ints, call.ranks);
        m.expected = static_cast<double>(want);
        ok = out[index] == want;
      } else {
        floats.clear();
        for (const ChunkSource& s : sources[k])
          floats.push_back(asDouble(static_cast<const T*>(inputs[s.rank])[s.chunk * chunk + e]));
        const Expected want = expectedFloat<T>(reduction ? call.op : ReduceOp::Sum, reduction, floats, call.ranks);
        m.expected = want.value;
        m.tolerance = want.tolerance;
        ok = std::fabs(m.got - want.value) <= want.tolerance;  // false for NaN
      }
      if (ok) continue;
      ++result.mismatches;
      if (result.first.size() < 8) result.first.push_back(m);
    }
  }
  return result;
}

// Ranks are checked concurrently (large calls take seconds per rank) and merged in rank
// order, so the report does not depend on which thread finished first.
template <class T>
CheckResult check(const CallShape& call, std::span<const void* const> inputs, std::span<const void* const> outputs) {
  std::vector<std::future<CheckResult>> ranks;
  for (int32_t r = 0; r < call.ranks; ++r)
    ranks.push_back(std::async(std::launch::async,
                               [&, r] { return checkRank<T>(call, inputs, static_cast<const T*>(outputs[r]), r); }));
  CheckResult result;
  result.exact = !isFloatingPoint(call.dtype) || (!reduces(call.collective) && call.op != ReduceOp::Avg) ||
                 call.op == ReduceOp::Min || call.op == ReduceOp::Max;
  for (std::future<CheckResult>& f : ranks) {
    const CheckResult rank = f.get();
    result.checked += rank.checked;
    result.mismatches += rank.mismatches;
    for (const Mismatch& m : rank.first)
      if (result.first.size() < 8) result.first.push_back(m);
  }
  return result;
}

}  // namespace

std::string CheckResult::describe() const {
  std::ostringstream s;
  s.precision(9);
  if (passed()) {
    s << "all " << checked << " constrained output elements match the reference"
      << (exact ? " exactly" : " within the reduction-order bound");
    return s.str();
  }
  s << mismatches << " of " << checked << " output elements differ from the reference";
  for (const Mismatch& m : first) {
    s << "\n  rank " << m.rank << " output[" << m.index << "]: got " << m.got << ", expected " << m.expected;
    if (m.tolerance > 0) s << " (tolerance " << m.tolerance << ")";
  }
  return s.str();
}

CheckResult checkOutputs(const CallShape& call, std::span<const void* const> inputs,
                         std::span<const void* const> outputs) {
  if (call.count == 0) return {};
  return dispatchType(call.dtype, [&]<class T>() { return check<T>(call, inputs, outputs); });
}

}  // namespace ccforge::runtime
