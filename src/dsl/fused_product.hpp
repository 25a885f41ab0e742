// The operator of a fused computation + collective program (docs/fused.md): what every rank's
// compute steps evaluate, one shape for all ranks. The library's generator and the DSL's
// compute() both declare it through declareOn(), so a <gpu> names its operands one way.
#pragma once

#include <cstdint>

#include "ir/model.hpp"

namespace ccforge::dsl {

struct FusedProduct {
  ir::ComputeOp op = ir::ComputeOp::Gemv;
  // gemv: rows = M, inner = K. embag: rows = batch, cols = dim, inner = pooling, tableRows.
  // gemm: rows = tokens, inner = hidden, cols = ffn.
  int32_t rows = 0;
  int32_t cols = 1;
  int32_t inner = 0;
  int32_t tableRows = 0;

  // Throws std::invalid_argument for a shape parameter below 1 (or gemv with cols != 1).
  void validate() const;
  // GEMV products are allreduced, embedding bags and GEMM tiles go through an alltoall.
  bool allreduce() const { return op == ir::ComputeOp::Gemv; }
  // The rank's operands (W and x; table and indices; X and W) and its <product>.
  void declareOn(ir::Gpu& gpu) const;
};

}  // namespace ccforge::dsl
