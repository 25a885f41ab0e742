// Compute steps of fused programs (docs/fused.md), written once for every backend: element g of
// a rank's product (row g / cols, column g % cols, row-major, filling the input buffer from
// element 0) is one sum over the rank's read-only operands, in the order described below.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "ir/kinds.hpp"
#include "semantics/host_device.hpp"
#include "semantics/size_arithmetic.hpp"

namespace ccforge::runtime {

// A matrix operand as the interpreter reads it: element (i, j) at data[i * rowStride + j * colStride].
struct OperandView {
  const void* data = nullptr;
  int32_t rows = 0;
  int32_t cols = 0;
  int64_t rowStride = 0;
  int64_t colStride = 0;
};

// The operator of one rank (ir::Product with its operands bound to memory).
struct ComputeTable {
  ir::ComputeOp op = ir::ComputeOp::None;
  int32_t rows = 0;
  int32_t cols = 0;
  int32_t inner = 0;  // gemv: K, gemm: H, embag: indices per bag
  OperandView a, b;
};

template <class T>
CCF_HD T operandAt(const OperandView& v, int64_t i, int64_t j) {
  return static_cast<const T*>(v.data)[i * v.rowStride + j * v.colStride];
}

// Every product element is a sum over the inner index k, taken in one order on every backend.
// The terms go in quads (k = 4q .. 4q+3); lane l of kDotLanes takes quads l, l + kDotLanes, ...
// and adds their terms in index order (products by fused multiply-add); the lanes' partial sums
// are then combined pairwise by the butterfly: lanes l and l ^ h for h = 16, 8, 4, 2, 1. A GPU
// warp does exactly this, a quad per 16-byte load and shuffles for the butterfly; the CPU
// emulates it. So the result is the same bits on every backend and does not depend on how
// steps, tiles or threads split rows.
inline constexpr int kDotLanes = 32;
inline constexpr int kQuad = 4;
inline constexpr int kQuadsInFlight = 4;  // quads a GPU lane loads before adding them

CCF_HD float multiplyAdd(float a, float b, float c) {  // one rounding on every backend
#ifdef __CUDA_ARCH__
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// The `count` (<= kQuad) elements p[0], p[stride], ... into out: one 16-byte load on a GPU
// when they are four contiguous aligned floats.
CCF_HD void loadQuad(float (&out)[kQuad], const float* p, int64_t stride, int32_t count) {
#ifdef __CUDA_ARCH__
  if (count == kQuad && stride == 1 && reinterpret_cast<uintptr_t>(p) % 16 == 0) {
    const float4 v = *reinterpret_cast<const float4*>(p);
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    out[3] = v.w;
    return;
  }
#endif
  for (int32_t v = 0; v < kQuad; ++v)  // constant indices: the quad stays in registers
    if (v < count) out[v] = p[v * stride];
}

// Lane `lane`'s partial sum of product element (row, col).
CCF_HD float lanePartialSum(const ComputeTable& c, int64_t row, int64_t col, int32_t lane) {
  const int32_t quads = semantics::ceilDiv<int32_t>(c.inner, kQuad);
  float acc = 0.0f;
  switch (c.op) {
    case ir::ComputeOp::Gemv:
    case ir::ComputeOp::Gemm: {
      const float* a = static_cast<const float*>(c.a.data) + row * c.a.rowStride;
      const float* b = static_cast<const float*>(c.b.data) + (c.op == ir::ComputeOp::Gemm ? col * c.b.colStride : 0);
#ifdef __CUDA_ARCH__
      // Both operands' terms contiguous and 16-byte aligned (a GEMV's rows and vector): whole
      // quads, loads without per-term branches; the weights stream past L1, the vector stays.
      if (c.a.colStride == 1 && c.b.rowStride == 1 && c.inner % kQuad == 0 &&
          reinterpret_cast<uintptr_t>(a) % 16 == 0 && reinterpret_cast<uintptr_t>(b) % 16 == 0) {
        const auto* a4 = reinterpret_cast<const float4*>(a);
        const auto* b4 = reinterpret_cast<const float4*>(b);
        for (int32_t q0 = lane; q0 < quads; q0 += kDotLanes * kQuadsInFlight) {
          float4 x[kQuadsInFlight], y[kQuadsInFlight];
          for (int32_t u = 0; u < kQuadsInFlight; ++u)
            if (q0 + u * kDotLanes < quads) {
              x[u] = __ldcs(a4 + q0 + u * kDotLanes);
              y[u] = __ldg(b4 + q0 + u * kDotLanes);
            }
          for (int32_t u = 0; u < kQuadsInFlight; ++u)
            if (q0 + u * kDotLanes < quads) {
              acc = multiplyAdd(x[u].x, y[u].x, acc);
              acc = multiplyAdd(x[u].y, y[u].y, acc);
              acc = multiplyAdd(x[u].z, y[u].z, acc);
              acc = multiplyAdd(x[u].w, y[u].w, acc);
            }
        }
        return acc;
      }
#endif
      for (int32_t q = lane; q < quads; q += kDotLanes) {  // any layout: quad by quad
        const int32_t k = q * kQuad;
        const int32_t count = c.inner - k < kQuad ? c.inner - k : kQuad;
        float x[kQuad] = {}, y[kQuad] = {};
        loadQuad(x, a + k * c.a.colStride, c.a.colStride, count);
        loadQuad(y, b + k * c.b.rowStride, c.b.rowStride, count);
        for (int32_t v = 0; v < kQuad; ++v)
          if (v < count) acc = multiplyAdd(x[v], y[v], acc);
      }
      break;
    }
    case ir::ComputeOp::EmbeddingBag:
      for (int32_t q = lane; q < quads; q += kDotLanes)
        for (int32_t l = q * kQuad; l < q * kQuad + kQuad && l < c.inner; ++l) {
          const int32_t index = operandAt<int32_t>(c.b, row, l);
          if (index >= 0 && index < c.a.rows) acc += operandAt<float>(c.a, index, col);  // the host checks indices
        }
      break;
    case ir::ComputeOp::None: break;
  }
  return acc;
}

// Product element g of the rank (row g / cols, column g % cols, row-major), lane by lane.
CCF_HD float productElement(const ComputeTable& c, int64_t g) {
  const int64_t row = g / c.cols, col = g % c.cols;
  float lanes[kDotLanes];
  for (int32_t l = 0; l < kDotLanes; ++l) lanes[l] = lanePartialSum(c, row, col, l);
  for (int32_t h = kDotLanes / 2; h > 0; h /= 2) {
    float next[kDotLanes];
    for (int32_t l = 0; l < kDotLanes; ++l) next[l] = lanes[l] + lanes[l ^ h];
    for (int32_t l = 0; l < kDotLanes; ++l) lanes[l] = next[l];
  }
  return lanes[0];
}

#ifdef __CUDA_ARCH__
// A GEMV whose rows and vector are contiguous, 16-byte aligned whole quads.
__device__ inline bool quadAligned(const ComputeTable& c) {
  return c.op == ir::ComputeOp::Gemv && c.a.colStride == 1 && c.b.rowStride == 1 && c.inner % kQuad == 0 &&
         c.a.rowStride % kQuad == 0 && reinterpret_cast<uintptr_t>(c.a.data) % 16 == 0 &&
         reinterpret_cast<uintptr_t>(c.b.data) % 16 == 0;
}

// Rows [first, first + length) of a quad-aligned GEMV whose rows are at most kPerLane quads per
// lane: a warp sums kRows rows at once, so that their loads are in flight together instead of
// one short row's memory latency after another's. Each element's order is lanePartialSum's.
template <int kRows, int kPerLane, class B>
__device__ void gemvRowsTogether(B& b, const ComputeTable& c, float* out, int64_t first, int64_t length) {
  const int lane = b.thread() % kDotLanes, warps = b.threads() / kDotLanes;
  const int32_t quads = c.inner / kQuad;
  const auto* vector = static_cast<const float4*>(c.b.data);
  float4 y[kPerLane];
  for (int u = 0; u < kPerLane; ++u)
    if (lane + u * kDotLanes < quads) y[u] = __ldg(vector + lane + u * kDotLanes);
  for (int64_t p0 = int64_t{b.thread() / kDotLanes} * kRows; p0 < length; p0 += int64_t{warps} * kRows) {
    float4 x[kRows][kPerLane] = {};
    for (int e = 0; e < kRows; ++e) {
      const auto* row =
          reinterpret_cast<const float4*>(static_cast<const float*>(c.a.data) + (first + p0 + e) * c.a.rowStride);
      for (int u = 0; u < kPerLane; ++u)
        if (p0 + e < length && lane + u * kDotLanes < quads) x[e][u] = __ldcs(row + lane + u * kDotLanes);
    }
    for (int e = 0; e < kRows; ++e) {
      float acc = 0.0f;
      for (int u = 0; u < kPerLane; ++u)
        if (lane + u * kDotLanes < quads) {
          acc = multiplyAdd(x[e][u].x, y[u].x, acc);
          acc = multiplyAdd(x[e][u].y, y[u].y, acc);
          acc = multiplyAdd(x[e][u].z, y[u].z, acc);
          acc = multiplyAdd(x[e][u].w, y[u].w, acc);
        }
      acc = b.butterflySum(acc);
      if (lane == 0 && p0 + e < length) out[p0 + e] = acc;
    }
  }
}
#endif

// Elements [first, first + length) of the product into dst (which holds element `first`).
// Fused programs run with f32 data only (the loader refuses others). A backend with warps
// (B::kWarpLanes == kDotLanes) gives each element to a warp; else each thread takes elements.
template <class B, class T>
CCF_HD void computeRange(B& b, const ComputeTable& c, unsigned char* dst, int64_t first, int64_t length) {
  if constexpr (std::is_same_v<T, float>) {
    T* out = reinterpret_cast<T*>(dst);
    if constexpr (B::kWarpLanes == kDotLanes) {
#ifdef __CUDA_ARCH__
      // Rows of at most 64 quads, kQuadsInFlight at once per warp (more registers spill).
      if (quadAligned(c)) {
        const int32_t quads = c.inner / kQuad;
        if (quads <= kDotLanes) return gemvRowsTogether<kQuadsInFlight, 1>(b, c, out, first, length);
        if (quads <= 2 * kDotLanes) return gemvRowsTogether<kQuadsInFlight, 2>(b, c, out, first, length);
      }
#endif
      const int lane = b.thread() % kDotLanes, warps = b.threads() / kDotLanes;
      for (int64_t p = b.thread() / kDotLanes; p < length; p += warps) {
        const int64_t g = first + p;
        const T sum = b.butterflySum(lanePartialSum(c, g / c.cols, g % c.cols, lane));
        if (lane == 0) out[p] = sum;
      }
    } else {
      for (int64_t p = b.thread(); p < length; p += b.threads()) out[p] = productElement(c, first + p);
    }
  }
}

}  // namespace ccforge::runtime
