// Interpreter kernels for element type f16.
#include "runtime/cuda/kernel_instances.cuh"

CCF_DEFINE_KERNELS(interpreterKernelF16, Half)
