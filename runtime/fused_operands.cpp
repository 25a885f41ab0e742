#include "runtime/fused_operands.hpp"

#include <stdexcept>
#include <string>

#include "ir/names.hpp"

namespace ccforge::runtime {
const ir::Gpu& gpuOfRank(const ir::Algorithm& a, int32_t rank) {
  for (const ir::Gpu& g : a.gpus)
    if (g.id == rank) return g;
  throw std::invalid_argument("no <gpu id=\"" + std::to_string(rank) + "\">");
}

namespace {

OperandView view(const ir::Operand& o, const void* data) {
  OperandView v;
  v.data = data;
  v.rows = o.rows;
  v.cols = o.cols;
  v.rowStride = o.columnMajor ? 1 : o.cols;
  v.colStride = o.columnMajor ? o.rows : 1;
  return v;
}

}  // namespace

void checkFusedCall(const ir::Algorithm& a, const CallShape& call, int64_t chunkElems) {
  if (!a.fused) return;
  if (call.dtype != DataType::F32)
    throw std::invalid_argument("fused program " + a.name + ": compute steps run on f32 data only");
  for (const ir::Gpu& g : a.gpus) {
    if (!g.product) continue;
    const int64_t product = static_cast<int64_t>(g.product->rows) * g.product->cols;
    if (chunkElems * a.nchunksperloop != product)
      throw std::invalid_argument("fused program " + a.name + ": rank " + std::to_string(g.id) + "'s product has " +
                                  std::to_string(product) + " elements, but the call's input buffer has " +
                                  std::to_string(chunkElems * a.nchunksperloop) + " (" +
                                  std::to_string(a.nchunksperloop) + " chunks of " + std::to_string(chunkElems) + ")");
  }
}

ComputeTable computeTableOf(const ir::Algorithm& a, int32_t rank, const RankBuffers& buffers, bool hostOperands) {
  ComputeTable t;
  const ir::Gpu& g = gpuOfRank(a, rank);
  if (!a.fused || !g.product) return t;
  const ir::Product& p = *g.product;
  if (!buffers.operands[0] || !buffers.operands[1])
    throw std::invalid_argument("rank " + std::to_string(rank) + ": the fused program needs operands a and b");
  const ir::Operand& A = g.operands.at(static_cast<size_t>(p.a));
  const ir::Operand& B = g.operands.at(static_cast<size_t>(p.b));
  t.op = p.op;
  t.rows = p.rows;
  t.cols = p.cols;
  t.inner = p.op == ir::ComputeOp::EmbeddingBag ? B.cols : A.cols;
  t.a = view(A, buffers.operands[0]);
  t.b = view(B, buffers.operands[1]);
  if (hostOperands && p.op == ir::ComputeOp::EmbeddingBag)
    for (int32_t i = 0; i < B.rows; ++i)
      for (int32_t l = 0; l < B.cols; ++l) {
        const int32_t index = operandAt<int32_t>(t.b, i, l);
        if (index < 0 || index >= A.rows)
          throw std::invalid_argument("rank " + std::to_string(rank) + ": embedding index " + std::to_string(index) +
                                      " (bag " + std::to_string(i) + ") is outside the table's " +
                                      std::to_string(A.rows) + " rows");
      }
  return t;
}

}  // namespace ccforge::runtime
