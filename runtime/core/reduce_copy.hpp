// The data loops of the interpreter: out_j = in_0 (op) in_1 (op) ... over a slice, for plain
// memory (user buffers and Simple FIFO slots) and for LL lines (4 bytes of data + a 4-byte flag
// written with one 8-byte store, so a reader that sees the flag sees the data).
// Threads of the block (backend B) stride over packs.
#pragma once

#include <cstdint>

#include "semantics/host_device.hpp"
#include "semantics/protocol.hpp"
#include "semantics/size_arithmetic.hpp"
#include "runtime/core/packs.hpp"

namespace ccforge::runtime {

// dst + the most sources a fused `re` chain takes (LL and LL128: MSCCL_MAX_REDUCE_FUSION + 1).
inline constexpr int kMaxReduceInputs = 1 + semantics::fusedReduceSourceCapacity(ir::Protocol::LL);

struct Operands {
  const unsigned char* in[kMaxReduceInputs];
  int inputs = 0;
  unsigned char* out[2];
  int outputs = 0;
};

// Packs [first, last) with NIN inputs and NOUT outputs known at compile time, so the pointers stay
// in registers; each thread moves U packs per iteration (B::kUnroll) to keep loads in flight.
template <class B, class T, class Op, int N, int NIN, int NOUT>
CCF_HD void reduceCopyFixed(B& b, const Operands& o, int64_t first, int64_t last) {
  constexpr int U = B::kUnroll;
  const unsigned char* in[NIN];
  unsigned char* out[NOUT];
  for (int i = 0; i < NIN; ++i) in[i] = o.in[i];
  for (int i = 0; i < NOUT; ++i) out[i] = o.out[i];
  const int64_t stride = b.threads();
  int64_t p = first + b.thread();
  for (; p + (U - 1) * stride < last; p += U * stride) {
    Bytes<N> acc[U];
    for (int u = 0; u < U; ++u) acc[u] = b.template load<N>(in[0] + (p + u * stride) * N);
    for (int i = 1; i < NIN; ++i)
      for (int u = 0; u < U; ++u) reduceInto<T, Op, N>(acc[u], b.template load<N>(in[i] + (p + u * stride) * N));
    for (int j = 0; j < NOUT; ++j)
      for (int u = 0; u < U; ++u) b.template store<N>(out[j] + (p + u * stride) * N, acc[u]);
  }
  for (; p < last; p += stride) {
    Bytes<N> acc = b.template load<N>(in[0] + p * N);
    for (int i = 1; i < NIN; ++i) reduceInto<T, Op, N>(acc, b.template load<N>(in[i] + p * N));
    for (int j = 0; j < NOUT; ++j) b.template store<N>(out[j] + p * N, acc);
  }
}

// Any number of inputs (a fused `re` chain): pointers are read from the operand list.
template <class B, class T, class Op, int N>
CCF_HD void reduceCopyMany(B& b, const Operands& o, int64_t first, int64_t last) {
  for (int64_t p = first + b.thread(); p < last; p += b.threads()) {
    const int64_t at = p * N;
    Bytes<N> acc = b.template load<N>(o.in[0] + at);
    for (int i = 1; i < o.inputs; ++i) reduceInto<T, Op, N>(acc, b.template load<N>(o.in[i] + at));
    for (int j = 0; j < o.outputs; ++j) b.template store<N>(o.out[j] + at, acc);
  }
}

template <class B, class T, class Op, int N>
CCF_HD void reduceCopyRange(B& b, const Operands& o, int64_t first, int64_t last) {
  const int shape = o.inputs * 4 + o.outputs;
  switch (shape) {
    case 1 * 4 + 1: reduceCopyFixed<B, T, Op, N, 1, 1>(b, o, first, last); break;
    case 1 * 4 + 2: reduceCopyFixed<B, T, Op, N, 1, 2>(b, o, first, last); break;
    case 2 * 4 + 1: reduceCopyFixed<B, T, Op, N, 2, 1>(b, o, first, last); break;
    case 2 * 4 + 2: reduceCopyFixed<B, T, Op, N, 2, 2>(b, o, first, last); break;
    default: reduceCopyMany<B, T, Op, N>(b, o, first, last); break;
  }
}

// Whether every pointer of `o` is aligned to `n` bytes.
CCF_HD bool operandsAligned(const Operands& o, uintptr_t n) {
  uintptr_t bits = 0;
  for (int i = 0; i < o.inputs; ++i) bits |= reinterpret_cast<uintptr_t>(o.in[i]);
  for (int i = 0; i < o.outputs; ++i) bits |= reinterpret_cast<uintptr_t>(o.out[i]);
  return (bits & (n - 1)) == 0;
}

// Plain memory: wide packs when the backend has them and every pointer is aligned, elements otherwise.
template <class B, class T, class Op>
CCF_HD void reduceCopy(B& b, const Operands& o, int64_t elems) {
  constexpr int kWide = B::kVectorBytes;
  constexpr int kElem = static_cast<int>(sizeof(T));
  int64_t done = 0;
  if constexpr (kWide > kElem) {
    if (operandsAligned(o, kWide)) {
      const int64_t packs = elems * kElem / kWide;
      reduceCopyRange<B, T, Op, kWide>(b, o, 0, packs);
      done = packs * (kWide / kElem);
    }
  }
  reduceCopyRange<B, T, Op, kElem>(b, o, done, elems);
}

// LL lines: 2 lines carry one 8-byte pack of payload.
CCF_HD uint64_t makeLine(uint32_t data, uint32_t flag) { return (static_cast<uint64_t>(flag) << 32) | data; }
CCF_HD uint32_t lineFlag(uint64_t line) { return static_cast<uint32_t>(line >> 32); }

// Whether lines [0, lines) all carry `flag` (block-wide, uniform result).
template <class B>
CCF_HD bool linesReady(B& b, const uint64_t* lines, int64_t count, uint32_t flag) {
  bool ready = true;
  for (int64_t i = b.thread(); i < count; i += b.threads()) ready = ready && lineFlag(b.loadLine(lines + i)) == flag;
  return b.allThreads(ready);
}

// Loads `elems` (< a full pack at the tail) elements of T from plain memory into a pack.
template <class B, class T>
CCF_HD Bytes<8> loadPartial(B& b, const unsigned char* p, int elems) {
  Bytes<8> v{};
  for (int e = 0; e < elems; ++e) {
    const Bytes<sizeof(T)> x = b.template load<sizeof(T)>(p + e * sizeof(T));
    memcpy(v.b + e * sizeof(T), x.b, sizeof(T));
  }
  return v;
}
template <class B, class T>
CCF_HD void storePartial(B& b, unsigned char* p, const Bytes<8>& v, int elems) {
  for (int e = 0; e < elems; ++e) {
    Bytes<sizeof(T)> x;
    memcpy(x.b, v.b + e * sizeof(T), sizeof(T));
    b.template store<sizeof(T)>(p + e * sizeof(T), x);
  }
}

// Like reduceCopy, but the first input may be LL lines (`recvLines`, already checked ready) and
// the last output may be LL lines (`sendLines`, written with `sendFlag`).
template <class B, class T, class Op>
CCF_HD void reduceCopyLines(B& b, const uint64_t* recvLines, const Operands& local, uint64_t* sendLines,
                            uint32_t sendFlag, int64_t elems) {
  constexpr int kPerPack = 8 / static_cast<int>(sizeof(T));
  const int64_t packs = semantics::ceilDiv<int64_t>(elems, kPerPack);
  for (int64_t p = b.thread(); p < packs; p += b.threads()) {
    const int64_t at = p * 8;
    const int valid = static_cast<int>(elems - p * kPerPack < kPerPack ? elems - p * kPerPack : kPerPack);
    Bytes<8> acc;
    int next = 0;
    if (recvLines) {
      const uint32_t lo = static_cast<uint32_t>(b.loadLine(recvLines + 2 * p));
      const uint32_t hi = static_cast<uint32_t>(b.loadLine(recvLines + 2 * p + 1));
      memcpy(acc.b, &lo, 4);
      memcpy(acc.b + 4, &hi, 4);
    } else {
      acc = loadPartial<B, T>(b, local.in[0] + at, valid);
      next = 1;
    }
    for (int i = next; i < local.inputs; ++i) reduceInto<T, Op, 8>(acc, loadPartial<B, T>(b, local.in[i] + at, valid));
    for (int i = 0; i < local.outputs; ++i) storePartial<B, T>(b, local.out[i] + at, acc, valid);
    if (sendLines) {
      uint32_t lo, hi;
      memcpy(&lo, acc.b, 4);
      memcpy(&hi, acc.b + 4, 4);
      b.storeLine(sendLines + 2 * p, makeLine(lo, sendFlag));
      b.storeLine(sendLines + 2 * p + 1, makeLine(hi, sendFlag));
    }
  }
}

}  // namespace ccforge::runtime
