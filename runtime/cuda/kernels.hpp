// Host-side handles of the interpreter kernel instantiations (one per element type and op),
// defined in kernels_<type>.cu.
#pragma once

#include "runtime/core/data_type.hpp"

namespace ccforge::runtime {

// The kernel function for (type, op), usable with cudaLaunchCooperativeKernel and the occupancy API.
const void* interpreterKernelFor(DataType type, ReduceOp op);

const void* interpreterKernelF32(ReduceOp op);
const void* interpreterKernelF16(ReduceOp op);
const void* interpreterKernelBF16(ReduceOp op);
const void* interpreterKernelF64(ReduceOp op);
const void* interpreterKernelI32(ReduceOp op);
const void* interpreterKernelI64(ReduceOp op);
const void* interpreterKernelU8(ReduceOp op);

}  // namespace ccforge::runtime
