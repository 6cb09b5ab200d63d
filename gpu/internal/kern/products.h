// products.h: products other than GEMM (gemm.h). Go side: ops_products.go
// (tensorops/matmul.go's deviceDot, symmetric.go's deviceMirror).
//
//   gad_dot_rows_<t>(long long rows, long long len, long long total,
//                    const T *a, const T *b, double *dst)
//     dst[r] = Σ (double)a[j]·(double)b[j] over j in [r·len, min(total,
//     (r+1)·len)): as gad_sum_rows (reduce.h), a block per part.
//   gad_mirror_upper_<t>(long long n, T *c)
//     c[i][j] = c[j][i] for j < i, c row-major n×n: the lower triangle
//     from the upper (grid-stride over the n² elements).
#pragma once

#include "geom.h"
#include "reduce.h"

template <class T>
__device__ __forceinline__ void gad_dot_rows(long long rows, long long len, long long total, const T *a, const T *b,
                                             double *dst) {
  GAD_DYN_SHARED(double, sh);
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    long long lo = r * len, hi = lo + len < total ? lo + len : total;
    double acc = 0;
    for (long long j = lo + threadIdx.x; j < hi; j += blockDim.x) acc += (double)a[j] * (double)b[j];
    acc = gad_block_reduce<gad_red_sum>(sh, acc);
    if (threadIdx.x == 0) dst[r] = acc;
  }
}

template <class T>
__device__ __forceinline__ void gad_mirror_upper(long long n, T *c) {
  for (long long e = gad_tid(); e < n * n; e += gad_nthreads()) {
    long long i = e / n, j = e % n;
    if (j < i) c[e] = c[j * n + i];
  }
}

extern "C" __global__ void gad_dot_rows_f64(long long rows, long long len, long long total, const double *a,
                                            const double *b, double *dst) {
  gad_dot_rows(rows, len, total, a, b, dst);
}
extern "C" __global__ void gad_dot_rows_f32(long long rows, long long len, long long total, const float *a,
                                            const float *b, double *dst) {
  gad_dot_rows(rows, len, total, a, b, dst);
}
extern "C" __global__ void gad_mirror_upper_f64(long long n, double *c) { gad_mirror_upper(n, c); }
extern "C" __global__ void gad_mirror_upper_f32(long long n, float *c) { gad_mirror_upper(n, c); }
GAD_KERNEL(gad_dot_rows_f64)
GAD_KERNEL(gad_dot_rows_f32)
GAD_KERNEL(gad_mirror_upper_f64)
GAD_KERNEL(gad_mirror_upper_f32)
