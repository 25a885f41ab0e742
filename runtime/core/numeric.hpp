// Element types and reduction operators as host/device functions. 16-bit floats are stored as
// bits and computed in float with round-to-nearest-even conversions written out here, so the
// CPU and the GPU backends produce bit-identical results.
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/core/data_type.hpp"
#include "semantics/host_device.hpp"

namespace ccforge::runtime {

struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

CCF_HD uint32_t floatBits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
CCF_HD float bitsFloat(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

// Rounds a non-negative float holding an integer plus fraction to the nearest integer, ties to even.
CCF_HD uint32_t roundHalfEven(float v) {
  uint32_t whole = static_cast<uint32_t>(v);
  float frac = v - static_cast<float>(whole);
  if (frac > 0.5f || (frac == 0.5f && (whole & 1u))) ++whole;
  return whole;
}

CCF_HD float toFloat(Half h) {
  const uint32_t sign = static_cast<uint32_t>(h.bits & 0x8000u) << 16;
  const uint32_t exponent = (h.bits >> 10) & 0x1fu;
  const uint32_t mantissa = h.bits & 0x3ffu;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return bitsFloat(sign | 0x7f800000u | (mantissa << 13));
  return bitsFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

CCF_HD Half toHalf(float f) {
  uint32_t x = floatBits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x > 0x7f800000u) return Half{static_cast<uint16_t>(sign | 0x7e00u)};   // NaN
  if (x >= 0x477ff000u) return Half{static_cast<uint16_t>(sign | 0x7c00u)};  // rounds to infinity
  if (x < 0x38800000u) {  // below the smallest normal half: subnormal or zero
    const uint32_t m = roundHalfEven(bitsFloat(x) * 16777216.0f);
    return Half{static_cast<uint16_t>(sign | m)};
  }
  const uint32_t rebased = x - 0x38000000u;
  uint32_t h = rebased >> 13;
  const uint32_t rest = rebased & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return Half{static_cast<uint16_t>(sign | h)};
}

CCF_HD float toFloat(BFloat16 b) { return bitsFloat(static_cast<uint32_t>(b.bits) << 16); }

CCF_HD BFloat16 toBFloat16(float f) {
  const uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return BFloat16{static_cast<uint16_t>((x >> 16) | 0x40u)};
  const uint32_t rounded = x + 0x7fffu + ((x >> 16) & 1u);
  return BFloat16{static_cast<uint16_t>(rounded >> 16)};
}

// Arithmetic per element type; integers wrap (two's complement), as NCCL's integer ops do.
template <class T>
struct Arith {
  CCF_HD static T add(T a, T b) { return a + b; }
  CCF_HD static T mul(T a, T b) { return a * b; }
  CCF_HD static T min(T a, T b) { return b < a ? b : a; }
  CCF_HD static T max(T a, T b) { return a < b ? b : a; }
};

template <class T, class U>
struct WrappingArith {
  CCF_HD static T add(T a, T b) { return static_cast<T>(static_cast<U>(a) + static_cast<U>(b)); }
  CCF_HD static T mul(T a, T b) { return static_cast<T>(static_cast<U>(a) * static_cast<U>(b)); }
  CCF_HD static T min(T a, T b) { return b < a ? b : a; }
  CCF_HD static T max(T a, T b) { return a < b ? b : a; }
};
template <>
struct Arith<int32_t> : WrappingArith<int32_t, uint32_t> {};
template <>
struct Arith<int64_t> : WrappingArith<int64_t, uint64_t> {};
template <>
struct Arith<uint8_t> : WrappingArith<uint8_t, uint32_t> {};

template <class T, T (*Convert)(float)>
struct NarrowFloatArith {
  CCF_HD static T add(T a, T b) { return Convert(toFloat(a) + toFloat(b)); }
  CCF_HD static T mul(T a, T b) { return Convert(toFloat(a) * toFloat(b)); }
  CCF_HD static T min(T a, T b) { return toFloat(b) < toFloat(a) ? b : a; }
  CCF_HD static T max(T a, T b) { return toFloat(a) < toFloat(b) ? b : a; }
};
template <>
struct Arith<Half> : NarrowFloatArith<Half, toHalf> {};
template <>
struct Arith<BFloat16> : NarrowFloatArith<BFloat16, toBFloat16> {};

// Reduction operators as types, so the interpreter is instantiated per (type, op).
struct OpSum {
  template <class T>
  CCF_HD static T apply(T a, T b) {
    return Arith<T>::add(a, b);
  }
};
struct OpProd {
  template <class T>
  CCF_HD static T apply(T a, T b) {
    return Arith<T>::mul(a, b);
  }
};
struct OpMin {
  template <class T>
  CCF_HD static T apply(T a, T b) {
    return Arith<T>::min(a, b);
  }
};
struct OpMax {
  template <class T>
  CCF_HD static T apply(T a, T b) {
    return Arith<T>::max(a, b);
  }
};

}  // namespace ccforge::runtime
