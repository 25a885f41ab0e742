// Size and count arithmetic as the runtimes do it, without the overflow of the usual idioms.
// The executor reads minBytes/maxBytes and call sizes as unsigned 64-bit values (size_t), so a
// file may name sizes up to 2^64 - 1; `(n + d - 1) / d` wraps there (and is undefined behaviour
// in int64 from 2^63 - d). Every ceiling division and rounding-up of a size or count in the
// verifier and the runtime goes through these. Host/device clean: the interpreter includes it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "semantics/host_device.hpp"

namespace ccforge::semantics {

// ceil(n / d) for d > 0 (the runtime's DIVUP), exact for every n of the type: no n + d - 1.
template <class T>
CCF_HD constexpr T ceilDiv(T n, T d) {
  static_assert(std::is_integral_v<T>, "ceilDiv is for integers");
  return static_cast<T>(n / d + (n % d > 0 ? 1 : 0));  // a negative n truncates towards 0: already its ceiling
}

// n rounded up to a multiple of d, for n >= 0 and d > 0 (the runtime's ALIGN_SIZE); the caller
// keeps n a size that stays a size when rounded (FIFO slots, pack counts).
template <class T>
CCF_HD constexpr T roundUp(T n, T d) {
  return static_cast<T>(ceilDiv(n, d) * d);
}

// a x b and a + b, saturated at UINT64_MAX: sizes of what a file declares (2^31 - 1 chunks of
// any size), compared with a limit before anything is allocated.
CCF_HD constexpr uint64_t mulSaturated(uint64_t a, uint64_t b) {
  return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}
CCF_HD constexpr uint64_t addSaturated(uint64_t a, uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

}  // namespace ccforge::semantics
