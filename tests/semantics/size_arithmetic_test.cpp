// Issue 32: size and count arithmetic without overflow, near 2^63 and 2^64 as the executor's
// unsigned 64-bit fields allow.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "semantics/protocol.hpp"
#include "semantics/size_arithmetic.hpp"

using namespace ccforge;

TEST_CASE("ceilDiv rounds up exactly at the ends of int64 and uint64") {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();     // 2^63 - 1
  CHECK(semantics::ceilDiv<int64_t>(kMax, 8) == int64_t{1} << 60);  // (2^63 - 1) / 8 = 2^60 - 1/8
  CHECK(semantics::ceilDiv<int64_t>(kMax - 1, 8) == int64_t{1} << 60);
  CHECK(semantics::ceilDiv<int64_t>(kMax, 1) == kMax);
  CHECK(semantics::ceilDiv<int64_t>(0, 8) == 0);
  CHECK(semantics::ceilDiv<int64_t>(16, 8) == 2);
  CHECK(semantics::ceilDiv<int64_t>(17, 8) == 3);
  CHECK(semantics::ceilDiv<int64_t>(-5, 2) == -2);                  // a true ceiling for negative numbers too
  constexpr uint64_t kUMax = std::numeric_limits<uint64_t>::max();  // 2^64 - 1
  CHECK(semantics::ceilDiv<uint64_t>(kUMax, 8) == uint64_t{1} << 61);
  CHECK(semantics::ceilDiv<uint64_t>(kUMax, kUMax) == 1);
  CHECK(semantics::roundUp<int64_t>(17, 16) == 32);
  CHECK(semantics::roundUp<int64_t>(32, 16) == 32);
}

TEST_CASE("saturating products and sums of sizes") {
  constexpr uint64_t kUMax = std::numeric_limits<uint64_t>::max();
  CHECK(semantics::mulSaturated(2147483647, 64) == uint64_t{2147483647} * 64);
  CHECK(semantics::mulSaturated(2147483647, uint64_t{1} << 40) == kUMax);
  CHECK(semantics::mulSaturated(0, kUMax) == 0);
  CHECK(semantics::addSaturated(kUMax - 1, 1) == kUMax);
  CHECK(semantics::addSaturated(kUMax, 1) == kUMax);
}

TEST_CASE("tile iterations and transfers of the largest chunks do not overflow") {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t tile = semantics::tileBytes(ir::Protocol::Simple);
  CHECK(semantics::tileIterations(kMax, tile) == kMax / tile + 1);
  CHECK(semantics::transfersOf(2147483647, 1) == 2147483647);
  CHECK(semantics::transfersOf(2147483647, 71) == 30246249);  // ceil((2^31 - 1) / 71)
}
