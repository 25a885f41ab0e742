// Interpreter kernels for element type f32.
#include "runtime/cuda/kernel_instances.cuh"

CCF_DEFINE_KERNELS(interpreterKernelF32, float)
