// Defines interpreterKernel<NAME>(op) for one element type: included once per kernels_<type>.cu
// so the instantiations compile in parallel.
#pragma once

#include "runtime/core/numeric.hpp"
#include "runtime/cuda/interpreter_kernel.cuh"
#include "runtime/cuda/kernels.hpp"

#define CCF_DEFINE_KERNELS(FUNCTION, TYPE)                                                         \
  namespace ccforge::runtime {                                                                     \
  const void* FUNCTION(ReduceOp op) {                                                              \
    switch (op) {                                                                                  \
      case ReduceOp::Sum: return reinterpret_cast<const void*>(&interpreterKernel<TYPE, OpSum>);   \
      case ReduceOp::Prod: return reinterpret_cast<const void*>(&interpreterKernel<TYPE, OpProd>); \
      case ReduceOp::Min: return reinterpret_cast<const void*>(&interpreterKernel<TYPE, OpMin>);   \
      case ReduceOp::Max: return reinterpret_cast<const void*>(&interpreterKernel<TYPE, OpMax>);   \
      case ReduceOp::Avg: break;                                                                   \
    }                                                                                              \
    return nullptr;                                                                                \
  }                                                                                                \
  }
