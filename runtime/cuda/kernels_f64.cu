// Interpreter kernels for element type f64.
#include "runtime/cuda/kernel_instances.cuh"

CCF_DEFINE_KERNELS(interpreterKernelF64, double)
