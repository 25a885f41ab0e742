// Interpreter kernels for element type bf16.
#include "runtime/cuda/kernel_instances.cuh"

CCF_DEFINE_KERNELS(interpreterKernelBF16, BFloat16)
