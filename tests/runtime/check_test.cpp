#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "runtime/check.hpp"
#include "runtime/core/numeric.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

namespace {

CallShape allreduce(int32_t ranks, int64_t count, DataType t, ReduceOp op = ReduceOp::Sum) {
  CallShape c;
  c.collective = semantics::CollectiveType::AllReduce;
  c.ranks = ranks;
  c.count = count;
  c.dtype = t;
  c.op = op;
  return c;
}

template <class T>
std::vector<const void*> pointers(const std::vector<std::vector<T>>& v) {
  std::vector<const void*> p;
  for (const auto& x : v) p.push_back(x.data());
  return p;
}

}  // namespace

TEST_CASE("the check finds one wrong integer element and reports where") {
  std::vector<std::vector<int32_t>> in{{1, 2, 3}, {4, 5, 6}}, out{{5, 7, 9}, {5, 7, 9}};
  const CallShape c = allreduce(2, 3, DataType::I32);
  CHECK(checkOutputs(c, pointers(in), pointers(out)).passed());
  out[1][2] = 10;
  const CheckResult r = checkOutputs(c, pointers(in), pointers(out));
  CHECK(r.mismatches == 1);
  REQUIRE(r.first.size() == 1);
  CHECK(r.first[0].rank == 1);
  CHECK(r.first[0].index == 2);
  CHECK_THAT(r.describe(), Catch::Contains("rank 1 output[2]: got 10, expected 9"));
}

TEST_CASE("integer sums are checked with wrap-around") {
  std::vector<std::vector<uint8_t>> in{{200}, {100}}, out{{44}, {44}};
  CHECK(checkOutputs(allreduce(2, 1, DataType::U8), pointers(in), pointers(out)).passed());
}

TEST_CASE("floating-point sums pass in any order but not when a contribution is missing") {
  const int ranks = 64;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<std::vector<float>> in(ranks, std::vector<float>(1)), reversed(ranks, std::vector<float>(1)),
      missing(ranks, std::vector<float>(1));
  for (auto& v : in) v[0] = u(rng);
  float backward = 0, partial = 0;
  for (int r = ranks - 1; r >= 0; --r) backward += in[r][0];
  for (int r = 1; r < ranks; ++r) partial += in[r][0];  // rank 0's contribution lost
  for (int r = 0; r < ranks; ++r) {
    reversed[r][0] = backward;
    missing[r][0] = partial;
  }
  const CallShape c = allreduce(ranks, 1, DataType::F32);
  const CheckResult ok = checkOutputs(c, pointers(in), pointers(reversed));
  CHECK(ok.passed());
  CHECK_FALSE(ok.exact);
  CHECK_FALSE(checkOutputs(c, pointers(in), pointers(missing)).passed());
}

TEST_CASE("min and max are exact, and NaN never passes") {
  std::vector<std::vector<float>> in{{1.5f}, {-2.0f}}, out{{-2.0f}, {-2.0f}};
  const CallShape c = allreduce(2, 1, DataType::F32, ReduceOp::Min);
  const CheckResult r = checkOutputs(c, pointers(in), pointers(out));
  CHECK(r.passed());
  CHECK(r.exact);
  out[0][0] = std::nextafter(-2.0f, 0.0f);
  CHECK_FALSE(checkOutputs(c, pointers(in), pointers(out)).passed());
  out[0][0] = std::nanf("");
  CHECK_FALSE(checkOutputs(allreduce(2, 1, DataType::F32), pointers(in), pointers(out)).passed());
}

TEST_CASE("outputs the collective leaves unconstrained are not checked") {
  CallShape reduce = allreduce(2, 1, DataType::I32);
  reduce.collective = semantics::CollectiveType::Reduce;
  reduce.root = 1;
  std::vector<std::vector<int32_t>> in{{1}, {2}}, out{{12345}, {3}};
  const CheckResult r = checkOutputs(reduce, pointers(in), pointers(out));
  CHECK(r.passed());
  CHECK(r.checked == 1);
}
