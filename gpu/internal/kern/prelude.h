// prelude.h makes one CUDA C source compile three ways: for the GPU by
// clang without the CUDA toolkit (clang++ -x cuda -nocudainc -nocudalib,
// see gen.go), by nvcc, and as host C++ run by the fiber shim of
// hostshim.h (the tests). It is the only file that knows which.
//
// What kernels may use: threadIdx, blockIdx, blockDim, gridDim,
// __syncthreads(), __shared__ arrays, GAD_DYN_SHARED, __builtin_fma,
// __builtin_rint, __builtin_bit_cast, the functions of devmath.h, and
// plain C++ (templates, structs); GCC's vector types (vector_size(16),
// which clang and g++ share) for 16-byte loads and stores, as gemm.h's
// gad_v16. Not allowed: warp-level intrinsics
// (__shfl_*, warp-synchronous code), atomics other than gad_atomic_add,
// libdevice or libm functions (exp, log, ...: none exist on the device
// without the toolkit; write them in devmath.h), and printf.
#pragma once

#if defined(__CUDA__) && defined(__CUDA_ARCH__) && !defined(__NVCC__)
// clang, device side, no CUDA headers.
#include <__clang_cuda_builtin_vars.h> // threadIdx, blockIdx, blockDim, gridDim
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __forceinline__ __attribute__((always_inline)) inline
#define GAD_DEVICE 1
#elif defined(__NVCC__)
#define GAD_DEVICE 1
#elif !defined(__CUDA__)
#define GAD_HOST 1
#include "hostshim.h"
#endif

#if defined(GAD_DEVICE)
// GAD_KERNEL(name) registers kernel name with the host shim; nothing on
// the device. Every extern "C" __global__ function must be followed by
// one (the elementwise macros do it).
#define GAD_KERNEL(name)
// GAD_DYN_SHARED(T, name) declares the dynamic shared memory, as T name[].
#define GAD_DYN_SHARED(T, name) extern __shared__ T name[]
__device__ __forceinline__ double gad_atomic_add(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }
__device__ __forceinline__ float gad_atomic_add(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
#endif

#if defined(__CUDA__) && !defined(__CUDA_ARCH__)
// clang's host-side pass of a CUDA compilation (not used: gen.go passes
// --cuda-device-only); keep the macros defined so the file parses.
#define GAD_KERNEL(name)
#define GAD_DYN_SHARED(T, name) extern __shared__ T name[]
#endif
