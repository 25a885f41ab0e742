// Interpreter kernels for element type i64.
#include "runtime/cuda/kernel_instances.cuh"

CCF_DEFINE_KERNELS(interpreterKernelI64, int64_t)
