#include "runtime/cuda/kernels.hpp"

namespace ccforge::runtime {

const void* interpreterKernelFor(DataType type, ReduceOp op) {
  switch (type) {
    case DataType::F32: return interpreterKernelF32(op);
    case DataType::F16: return interpreterKernelF16(op);
    case DataType::BF16: return interpreterKernelBF16(op);
    case DataType::F64: return interpreterKernelF64(op);
    case DataType::I32: return interpreterKernelI32(op);
    case DataType::I64: return interpreterKernelI64(op);
    case DataType::U8: return interpreterKernelU8(op);
  }
  return nullptr;
}

}  // namespace ccforge::runtime
