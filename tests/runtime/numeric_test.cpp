#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "runtime/core/numeric.hpp"

using namespace ccforge::runtime;

TEST_CASE("half conversions round to nearest even and keep special values") {
  CHECK(toHalf(1.0f).bits == 0x3c00);
  CHECK(toHalf(-2.0f).bits == 0xc000);
  CHECK(toHalf(65504.0f).bits == 0x7bff);
  CHECK(toHalf(65519.0f).bits == 0x7bff);                          // below the halfway point to 65536
  CHECK(toHalf(65520.0f).bits == 0x7c00);                          // the tie rounds to even: infinity
  CHECK(toHalf(std::ldexp(1.0f, -24)).bits == 0x0001);             // smallest subnormal
  CHECK(toHalf(std::ldexp(1.0f, -25)).bits == 0x0000);             // tie between 0 and the smallest subnormal: even
  CHECK(toHalf(std::ldexp(3.0f, -25)).bits == 0x0002);             // 1.5 subnormal steps: tie, rounds to even (2)
  CHECK(toHalf(1.0f + std::ldexp(1.0f, -11)).bits == 0x3c00);      // halfway 1 .. 1+2^-10: even
  CHECK(toHalf(1.0f + 3 * std::ldexp(1.0f, -11)).bits == 0x3c02);  // halfway 1+2^-10 .. 1+2^-9: even
  CHECK(toHalf(std::numeric_limits<float>::infinity()).bits == 0x7c00);
  CHECK(std::isnan(toFloat(toHalf(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(toFloat(Half{0x3555}) == Approx(0.333251953125f));
}

TEST_CASE("every half value survives a round trip through float") {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const Half h{static_cast<uint16_t>(bits)};
    const float f = toFloat(h);
    if (std::isnan(f)) continue;
    INFO("bits " << bits);
    REQUIRE(toHalf(f).bits == h.bits);
  }
}

TEST_CASE("bfloat16 conversions round to nearest even") {
  CHECK(toBFloat16(1.0f).bits == 0x3f80);
  CHECK(toBFloat16(1.0f + std::ldexp(1.0f, -8)).bits == 0x3f80);      // tie: even
  CHECK(toBFloat16(1.0f + 3 * std::ldexp(1.0f, -8)).bits == 0x3f82);  // tie: even
  CHECK(toBFloat16(1.0f + std::ldexp(1.5f, -8)).bits == 0x3f81);      // above the tie
  CHECK(std::isnan(toFloat(toBFloat16(std::numeric_limits<float>::quiet_NaN()))));
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const BFloat16 b{static_cast<uint16_t>(bits)};
    const float f = toFloat(b);
    if (std::isnan(f)) continue;
    REQUIRE(toBFloat16(f).bits == b.bits);
  }
}

TEST_CASE("integer reductions wrap around like two's complement hardware") {
  CHECK(OpSum::apply<int32_t>(std::numeric_limits<int32_t>::max(), 1) == std::numeric_limits<int32_t>::min());
  CHECK(OpSum::apply<uint8_t>(200, 100) == 44);
  CHECK(OpProd::apply<uint8_t>(16, 17) == 16);  // 272 mod 256
  CHECK(OpProd::apply<int64_t>(int64_t{1} << 62, 4) == 0);
  CHECK(OpProd::apply<int32_t>(-3, 5) == -15);
  CHECK(OpMin::apply<int32_t>(-3, 5) == -3);
  CHECK(OpMax::apply<int64_t>(-3, -5) == -3);
  CHECK(OpMax::apply<uint8_t>(3, 250) == 250);
}

TEST_CASE("16-bit float reductions compute in float and round once") {
  const Half a = toHalf(1.0f), b = toHalf(std::ldexp(1.0f, -11));
  CHECK(OpSum::apply<Half>(a, b).bits == a.bits);  // 1 + 2^-11 rounds back to 1
  CHECK(toFloat(OpProd::apply<Half>(toHalf(3.0f), toHalf(-0.5f))) == -1.5f);
  CHECK(toFloat(OpMin::apply<BFloat16>(toBFloat16(-2.0f), toBFloat16(1.0f))) == -2.0f);
  CHECK(toFloat(OpMax::apply<BFloat16>(toBFloat16(-2.0f), toBFloat16(1.0f))) == 1.0f);
}
