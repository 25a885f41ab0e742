// Issue 32: size and count arithmetic without overflow, near 2^63 and 2^64 as the executor's
// unsigned 64-bit fields allow.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "semantics/protocol.hpp"
#include "semantics/size_arithmetic.hpp"

using namespace ccforge;

TEST_CASE("ceilDiv rounds up exactly at the ends of int64 and uint64") {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();  // 2^63 - 1
  CHECK(ceilDiv<int64_t>(kMax, 8) == int64_t{1} << 60);          // (2^63 - 1) / 8 = 2^60 - 1/8
  CHECK(ceilDiv<int64_t>(kMax - 1, 8) == int64_t{1} << 60);
  CHECK(ceilDiv<int64_t>(kMax, 1) == kMax);
  CHECK(ceilDiv<int64_t>(0, 8) == 0);
  CHECK(ceilDiv<int64_t>(16, 8) == 2);
  CHECK(ceilDiv<int64_t>(17, 8) == 3);
  CHECK(ceilDiv<int64_t>(-5, 2) == -2);                             // a true ceiling for negative numbers too
  constexpr uint64_t kUMax = std::numeric_limits<uint64_t>::max();  // 2^64 - 1
  CHECK(ceilDiv<uint64_t>(kUMax, 8) == uint64_t{1} << 61);
  CHECK(ceilDiv<uint64_t>(kUMax, kUMax) == 1);
  CHECK(roundUp<int64_t>(17, 16) == 32);
  CHECK(roundUp<int64_t>(32, 16) == 32);
}

TEST_CASE("saturating products and sums of sizes") {
  constexpr uint64_t kUMax = std::numeric_limits<uint64_t>::max();
  CHECK(mulSaturated(2147483647, 64) == uint64_t{2147483647} * 64);
  CHECK(mulSaturated(2147483647, uint64_t{1} << 40) == kUMax);
  CHECK(mulSaturated(0, kUMax) == 0);
  CHECK(addSaturated(kUMax - 1, 1) == kUMax);
  CHECK(addSaturated(kUMax, 1) == kUMax);
}

TEST_CASE("tile iterations and transfers of the largest chunks do not overflow") {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t tile = tileBytes(ir::Protocol::Simple);
  CHECK(tileIterations(kMax, tile) == kMax / tile + 1);
  CHECK(transfersOf(2147483647, 1) == 2147483647);
  CHECK(transfersOf(2147483647, 71) == 30246249);  // ceil((2^31 - 1) / 71)
}
