// gemm.h: the tiled GEMM used when cuBLAS is not loaded. Go side:
// ops_gemm.go.
//
//   gad_gemm_<t>(long long ta, long long tb, long long m, long long n, long long k,
//                T alpha, const T *A, long long lda, const T *B, long long ldb,
//                T beta, T *C, long long ldc)
//
// C = alpha·op(A)·op(B) + beta·C, row-major as BLAS (C m×n, op(A) m×k,
// op(B) k×n; op transposes when ta or tb is nonzero); with beta = 0, C is
// not read. Block GAD_TILE×GAD_TILE threads, one per element of a C tile;
// grid (⌈n/GAD_TILE⌉, ⌈m/GAD_TILE⌉); tiles of op(A) and op(B) staged in
// shared memory, declared in the extern "C" functions (a __shared__
// variable in a template becomes a .weak symbol in PTX).
#pragma once

#include "geom.h"

#define GAD_TILE 16

template <class T>
__device__ __forceinline__ void gad_gemm(long long ta, long long tb, long long m, long long n, long long k, T alpha,
                                         const T *A, long long lda, const T *B, long long ldb, T beta, T *C,
                                         long long ldc, T (*As)[GAD_TILE + 1], T (*Bs)[GAD_TILE + 1]) {
  long long tx = threadIdx.x, ty = threadIdx.y;
  long long row = (long long)blockIdx.y * GAD_TILE + ty;
  long long col = (long long)blockIdx.x * GAD_TILE + tx;
  T acc = 0;
  for (long long p0 = 0; p0 < k; p0 += GAD_TILE) {
    long long pa = p0 + tx, pb = p0 + ty;
    T a = 0, b = 0;
    if (row < m && pa < k) a = ta ? A[pa * lda + row] : A[row * lda + pa];
    if (pb < k && col < n) b = tb ? B[col * ldb + pb] : B[pb * ldb + col];
    As[ty][tx] = a;
    Bs[ty][tx] = b;
    __syncthreads();
    for (int p = 0; p < GAD_TILE; p++) acc = __builtin_fma(As[ty][p], Bs[p][tx], acc);
    __syncthreads();
  }
  if (row < m && col < n) {
    T *c = &C[row * ldc + col];
    *c = beta == 0 ? alpha * acc : __builtin_fma(beta, *c, alpha * acc);
  }
}

extern "C" __global__ void gad_gemm_f64(long long ta, long long tb, long long m, long long n, long long k, double alpha,
                                        const double *A, long long lda, const double *B, long long ldb, double beta,
                                        double *C, long long ldc) {
  __shared__ double As[GAD_TILE][GAD_TILE + 1], Bs[GAD_TILE][GAD_TILE + 1];
  gad_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, As, Bs);
}
extern "C" __global__ void gad_gemm_f32(long long ta, long long tb, long long m, long long n, long long k, float alpha,
                                        const float *A, long long lda, const float *B, long long ldb, float beta,
                                        float *C, long long ldc) {
  __shared__ float As[GAD_TILE][GAD_TILE + 1], Bs[GAD_TILE][GAD_TILE + 1];
  gad_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, As, Bs);
}
GAD_KERNEL(gad_gemm_f64)
GAD_KERNEL(gad_gemm_f32)
