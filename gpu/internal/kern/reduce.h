// reduce.h: reductions, accumulated in double. Go side: ops_reduce.go.
//
//   gad_<op>_rows_<in>[_<out>](long long rows, long long len, long long total,
//                              const In *src, Out *dst)
//     dst[r] = op(src[r*len .. min(total, (r+1)*len))) for r < rows: one
//     block per row (grid-stride over rows), a shared-memory tree over
//     blockDim.x (a power of two) partials; dynamic shared memory
//     blockDim.x doubles. Out is In unless named.
//   gad_<op>_cols_<t>(long long outer, long long n, long long inner,
//                     const T *src, T *dst)
//     dst[o*inner+i] = op over j < n of src[(o*n+j)*inner+i]: one thread
//     per output element (grid-stride).
#pragma once

#include "geom.h"

struct gad_red_sum {
  static __device__ __forceinline__ double init() { return 0.0; }
  static __device__ __forceinline__ double op(double a, double b) { return a + b; }
};

// The maximum: a NaN wins and stays.
struct gad_red_max {
  static __device__ __forceinline__ double init() { return -__builtin_huge_val(); }
  static __device__ __forceinline__ double op(double a, double b) { return (b > a || b != b) ? b : a; }
};

// gad_block_reduce returns R over the v of the block's threads, to every
// thread: a tree in sh (blockDim.x doubles, blockDim.x a power of two),
// left free for reuse when it returns. Every thread of the block must
// call it (it has barriers).
template <class R>
__device__ __forceinline__ double gad_block_reduce(double *sh, double v) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] = R::op(sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  double r = sh[0];
  __syncthreads();
  return r;
}

template <class R, class In, class Out>
__device__ __forceinline__ void gad_reduce_rows(long long rows, long long len, long long total, const In *src, Out *dst) {
  GAD_DYN_SHARED(double, sh);
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    long long lo = r * len, hi = lo + len < total ? lo + len : total;
    double acc = R::init();
    for (long long j = lo + threadIdx.x; j < hi; j += blockDim.x) acc = R::op(acc, (double)src[j]);
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) sh[threadIdx.x] = R::op(sh[threadIdx.x], sh[threadIdx.x + s]);
      __syncthreads();
    }
    if (threadIdx.x == 0) dst[r] = (Out)sh[0];
    __syncthreads(); // sh is reused for the next row
  }
}

template <class R, class T>
__device__ __forceinline__ void gad_reduce_cols(long long outer, long long n, long long inner, const T *src, T *dst) {
  for (long long i = gad_tid(); i < outer * inner; i += gad_nthreads()) {
    long long o = i / inner, c = i % inner;
    const T *s = src + o * n * inner + c;
    double acc = R::init();
    for (long long j = 0; j < n; j++) acc = R::op(acc, (double)s[j * inner]);
    dst[i] = (T)acc;
  }
}

#define GAD_REDUCE_ROWS(name, R, In, Out)                                                              \
  extern "C" __global__ void name(long long rows, long long len, long long total, const In *src, Out *dst) { \
    gad_reduce_rows<R>(rows, len, total, src, dst);                                                     \
  }                                                                                                     \
  GAD_KERNEL(name)

#define GAD_REDUCE_COLS(name, R, T)                                                                    \
  extern "C" __global__ void name(long long outer, long long n, long long inner, const T *src, T *dst) { \
    gad_reduce_cols<R>(outer, n, inner, src, dst);                                                      \
  }                                                                                                     \
  GAD_KERNEL(name)

GAD_REDUCE_ROWS(gad_sum_rows_f64, gad_red_sum, double, double)
GAD_REDUCE_ROWS(gad_sum_rows_f32, gad_red_sum, float, float)
GAD_REDUCE_ROWS(gad_sum_rows_f32_f64, gad_red_sum, float, double)
GAD_REDUCE_ROWS(gad_max_rows_f64, gad_red_max, double, double)
GAD_REDUCE_ROWS(gad_max_rows_f32, gad_red_max, float, float)
GAD_REDUCE_COLS(gad_sum_cols_f64, gad_red_sum, double)
GAD_REDUCE_COLS(gad_sum_cols_f32, gad_red_sum, float)
GAD_REDUCE_COLS(gad_max_cols_f64, gad_red_max, double)
GAD_REDUCE_COLS(gad_max_cols_f32, gad_red_max, float)
