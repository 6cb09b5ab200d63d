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
//   gad_argmax_{block,thread}_<t>: the first maximum along an axis (the
//     index, Max's adjoint or its tangent); see below. Go side:
//     ops_reduce_argmax.go.
// gad_block_reduce, gad_by_block and gad_by_thread are shared with nn.h.
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

// The two ways of covering rows: a block per row or a thread per row.
// first/step walk the rows, j0/dj a row's elements; all combines the
// threads' partial results (the block's, or the thread's own); lead is
// the thread that writes a row's single result.
struct gad_by_block {
  static __device__ __forceinline__ long long first() { return blockIdx.x; }
  static __device__ __forceinline__ long long step() { return gridDim.x; }
  static __device__ __forceinline__ long long j0() { return threadIdx.x; }
  static __device__ __forceinline__ long long dj() { return blockDim.x; }
  template <class R> static __device__ __forceinline__ double all(double *sh, double v) {
    return gad_block_reduce<R>(sh, v);
  }
  static __device__ __forceinline__ long long argmax(double *sh, double v, long long i);
  static __device__ __forceinline__ bool lead() { return threadIdx.x == 0; }
};

struct gad_by_thread {
  static __device__ __forceinline__ long long first() { return gad_tid(); }
  static __device__ __forceinline__ long long step() { return gad_nthreads(); }
  static __device__ __forceinline__ long long j0() { return 0; }
  static __device__ __forceinline__ long long dj() { return 1; }
  template <class R> static __device__ __forceinline__ double all(double *, double v) { return v; }
  static __device__ __forceinline__ long long argmax(double *, double, long long i) { return i; }
  static __device__ __forceinline__ bool lead() { return true; }
};

// gad_argmax_before reports whether candidate (v, i) precedes (w, k) as
// the argmax: the first NaN, else the first maximum. It is a total order
// on distinct indices, so any tree of comparisons finds the sequential
// scan's answer (tensorops' argMaxOf).
__device__ __forceinline__ bool gad_argmax_before(double v, long long i, double w, long long k) {
  bool vn = v != v, wn = w != w;
  if (vn || wn) return vn && (!wn || i < k);
  return v > w || (v == w && i < k);
}

// The block's argmax of the threads' candidates (v, i), to every thread.
__device__ __forceinline__ long long gad_by_block::argmax(double *sh, double v, long long i) {
  long long *si = reinterpret_cast<long long *>(sh + blockDim.x);
  sh[threadIdx.x] = v;
  si[threadIdx.x] = i;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    unsigned t = threadIdx.x;
    if (t < s && gad_argmax_before(sh[t + s], si[t + s], sh[t], si[t])) {
      sh[t] = sh[t + s];
      si[t] = si[t + s];
    }
    __syncthreads();
  }
  long long r = si[0];
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

// gad_argmax_{block,thread}_<t>(long long mode, long long outer, long long n, long long inner,
//                               const T *a, const T *g, T *d, long long *idx)
//   For each row r of contiguous a [outer, n, inner] (rows as in nn.h:
//   elements (r/inner)·n·inner + r%inner + j·inner, j < n; n > 0), with k
//   the index of its first maximum (of its first NaN):
//     GAD_ARGMAX_INDEX:    idx[r] = k;
//     GAD_ARGMAX_MAX_GRAD: d (a's shape) is zero except d at (r, k) = g[r]
//                          (g [outer, inner]): the adjoint of Max;
//     GAD_ARGMAX_MAX_JVP:  d[r] = g at (r, k) (g of a's shape): its tangent.
//   Pointers a mode does not use may be null. _block: a block per row,
//   2·blockDim.x·8 bytes of dynamic shared memory; _thread: a thread per row.
#define GAD_ARGMAX_INDEX 0
#define GAD_ARGMAX_MAX_GRAD 1
#define GAD_ARGMAX_MAX_JVP 2

template <class P, class T>
__device__ __forceinline__ void gad_argmax(long long mode, long long outer, long long n, long long inner, const T *a,
                                           const T *g, T *d, long long *idx) {
  GAD_DYN_SHARED(double, sh);
  long long rows = outer * inner;
  for (long long r = P::first(); r < rows; r += P::step()) {
    long long base = (r / inner) * n * inner + r % inner;
    double v = -__builtin_huge_val();
    long long k = n;
    for (long long j = P::j0(); j < n; j += P::dj()) {
      double w = (double)a[base + j * inner];
      if (gad_argmax_before(w, j, v, k)) {
        v = w;
        k = j;
      }
    }
    k = P::argmax(sh, v, k);
    if (mode == GAD_ARGMAX_MAX_GRAD) {
      for (long long j = P::j0(); j < n; j += P::dj()) d[base + j * inner] = j == k ? g[r] : (T)0;
    } else if (P::lead()) {
      if (mode == GAD_ARGMAX_INDEX)
        idx[r] = k;
      else
        d[r] = g[base + k * inner];
    }
  }
}

#define GAD_ARGMAX(name, P, T)                                                                                  \
  extern "C" __global__ void name(long long mode, long long outer, long long n, long long inner, const T *a,     \
                                  const T *g, T *d, long long *idx) {                                           \
    gad_argmax<P>(mode, outer, n, inner, a, g, d, idx);                                                         \
  }                                                                                                             \
  GAD_KERNEL(name)

GAD_ARGMAX(gad_argmax_block_f64, gad_by_block, double)
GAD_ARGMAX(gad_argmax_block_f32, gad_by_block, float)
GAD_ARGMAX(gad_argmax_thread_f64, gad_by_thread, double)
GAD_ARGMAX(gad_argmax_thread_f32, gad_by_thread, float)
