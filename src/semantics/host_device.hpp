// Marks functions of the executable semantics and the interpreter core that run on the host
// (verifier, CPU backend) and on the GPU. Only this header knows whether nvcc compiles the code.
#pragma once

#if defined(__CUDACC__)
#define CCF_HD __host__ __device__ __forceinline__
#else
#define CCF_HD inline
#endif
