// Interpreter kernels for element type i32.
#include "runtime/cuda/kernel_instances.cuh"

CCF_DEFINE_KERNELS(interpreterKernelI32, int32_t)
