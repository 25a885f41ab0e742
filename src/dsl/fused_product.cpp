#include "dsl/fused_product.hpp"

#include <stdexcept>

namespace ccforge::dsl {

void FusedProduct::validate() const {
  if (op == ir::ComputeOp::None) throw std::invalid_argument("a fused product needs an operator (gemv, embag or gemm)");
  if (rows < 1 || cols < 1 || inner < 1 || (op == ir::ComputeOp::EmbeddingBag && tableRows < 1))
    throw std::invalid_argument("every shape parameter must be at least 1");
  if (op == ir::ComputeOp::Gemv && cols != 1) throw std::invalid_argument("a GEMV product has one column");
}

void FusedProduct::declareOn(ir::Gpu& gpu) const {
  auto operand = [&](int32_t id, const char* name, ir::OperandType type, int32_t r, int32_t c) {
    ir::Operand o;
    o.id = id;
    o.name = name;
    o.dtype = type;
    o.rows = r;
    o.cols = c;
    gpu.operands.push_back(o);
  };
  switch (op) {
    case ir::ComputeOp::Gemv:
      operand(0, "W", ir::OperandType::F32, rows, inner);
      operand(1, "x", ir::OperandType::F32, inner, 1);
      break;
    case ir::ComputeOp::EmbeddingBag:
      operand(0, "table", ir::OperandType::F32, tableRows, cols);
      operand(1, "indices", ir::OperandType::I32, rows, inner);
      break;
    case ir::ComputeOp::Gemm:
      operand(0, "X", ir::OperandType::F32, rows, inner);
      operand(1, "W", ir::OperandType::F32, inner, cols);
      break;
    case ir::ComputeOp::None: break;
  }
  ir::Product p;
  p.op = op;
  p.a = 0;
  p.b = 1;
  p.rows = rows;
  p.cols = cols;
  gpu.product = p;
}

}  // namespace ccforge::dsl
