// Interpreter kernels for element type u8.
#include "runtime/cuda/kernel_instances.cuh"

CCF_DEFINE_KERNELS(interpreterKernelU8, uint8_t)
