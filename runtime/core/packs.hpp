// Raw byte packs and element-wise reduction of packs: the unit the data loops move.
#pragma once

#include <cstdint>
#include <cstring>

#include "semantics/host_device.hpp"

namespace ccforge::runtime {

template <int N>
struct alignas(N) Bytes {
  unsigned char b[N];
};

// acc = acc (op) other, element by element (N / sizeof(T) elements).
template <class T, class Op, int N>
CCF_HD void reduceInto(Bytes<N>& acc, const Bytes<N>& other) {
  constexpr int kElems = N / static_cast<int>(sizeof(T));
  for (int e = 0; e < kElems; ++e) {
    T x, y;
    memcpy(&x, acc.b + e * sizeof(T), sizeof(T));
    memcpy(&y, other.b + e * sizeof(T), sizeof(T));
    x = Op::template apply<T>(x, y);
    memcpy(acc.b + e * sizeof(T), &x, sizeof(T));
  }
}

}  // namespace ccforge::runtime
