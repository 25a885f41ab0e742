// Compute steps of fused programs (docs/fused.md), written once for every backend: element g of
// a rank's product (row g / cols, column g % cols, row-major, filling the input buffer from
// element 0) is one dot product over the rank's read-only operands, accumulated in index order,
// so the result does not depend on how steps, tiles or threads split the rows.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ir/kinds.hpp"
#include "semantics/host_device.hpp"

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

// Product element g of the rank.
template <class T>
CCF_HD T productElement(const ComputeTable& c, int64_t g) {
  const int64_t row = g / c.cols, col = g % c.cols;
  T acc = T(0);
  switch (c.op) {
    case ir::ComputeOp::Gemv:
      for (int32_t k = 0; k < c.inner; ++k) acc += operandAt<T>(c.a, row, k) * operandAt<T>(c.b, k, 0);
      break;
    case ir::ComputeOp::Gemm:
      for (int32_t k = 0; k < c.inner; ++k) acc += operandAt<T>(c.a, row, k) * operandAt<T>(c.b, k, col);
      break;
    case ir::ComputeOp::EmbeddingBag:
      for (int32_t l = 0; l < c.inner; ++l) {
        const int32_t index = operandAt<int32_t>(c.b, row, l);
        if (index >= 0 && index < c.a.rows) acc += operandAt<T>(c.a, index, col);  // the host checks indices
      }
      break;
    case ir::ComputeOp::None: break;
  }
  return acc;
}

// Elements [first, first + length) of the product into dst (which holds element `first`); the
// block's threads stride over them. Fused programs run with f32 data only (the loader refuses others).
template <class B, class T>
CCF_HD void computeRange(B& b, const ComputeTable& c, unsigned char* dst, int64_t first, int64_t length) {
  if constexpr (std::is_same_v<T, float>) {
    T* out = reinterpret_cast<T*>(dst);
    for (int64_t p = b.thread(); p < length; p += b.threads()) out[p] = productElement<T>(c, first + p);
  }
}

}  // namespace ccforge::runtime
