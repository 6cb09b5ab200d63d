// nn.h: softmax, log-softmax, log-sum-exp and softmax cross-entropy
// along an axis. Go side: ops_nn.go (tensorops/nn.go reaches it through
// its optional interfaces deviceSoftmax and deviceCrossEntropy).
//
// A tensor is seen as [outer, n, inner] and reduced along n: row r <
// outer·inner is (o, i) = (r / inner, r % inner), its elements at
// o·n·inner + i + j·inner for j < n. Each kernel comes in two forms:
//   _block: one block per row (grid-stride over rows), the max and the
//     sum reduced in shared memory (blockDim.x doubles, a power of two);
//     for long rows;
//   _thread: one thread per row (grid-stride), in the CPU's order (so
//     the same numbers as tensorops' CPU kernels); for short rows and
//     strided rows (inner > 1, where neighbouring threads read
//     neighbouring elements).
//
//   gad_softmax_{block,thread}_<t>(long long kind, long long outer, long long n,
//                                  long long inner, const T *src, T *dst)
//     kind GAD_SM_SOFTMAX, GAD_SM_LOG_SOFTMAX: dst like src, contiguous;
//     kind GAD_SM_LOG_SUM_EXP: dst [outer, inner].
//   gad_xent_{block,thread}_<t>(long long rows, long long c, const T *logits,
//                               const T *labels, double *part)
//     part[r] = Σ_j labels[r,j]·(T)LogSoftmax(logits)[r,j] (in double)
//     for contiguous [rows, c] operands; the Go side sums part.
//
// The arithmetic is tensorops' softmaxAxis (nn.go): the maximum m (NaN if
// one is NaN; 0 if all are −Inf), s = Σ exp(x−m) in double; softmax is
// (T)exp(x−m) · (T)(1/s), log-softmax (T)(x − (m + log s)), log-sum-exp
// (T)(m + log s).
#pragma once

#include "devmath.h"
#include "geom.h"
#include "reduce.h"

#define GAD_SM_SOFTMAX 0
#define GAD_SM_LOG_SOFTMAX 1
#define GAD_SM_LOG_SUM_EXP 2

// gad_row_max returns the maximum of x[j·stride], j < n (NaN if one is),
// or 0 when it is −Inf (all −Inf, or n = 0): the shift of the softmax.
template <class P, class T>
__device__ __forceinline__ double gad_row_max(double *sh, const T *x, long long n, long long stride) {
  double m = gad_red_max::init();
  for (long long j = P::j0(); j < n; j += P::dj()) m = gad_red_max::op(m, (double)x[j * stride]);
  m = P::template all<gad_red_max>(sh, m);
  return m == gad_red_max::init() ? 0.0 : m;
}

template <class P, class T>
__device__ __forceinline__ void gad_softmax(long long kind, long long outer, long long n, long long inner,
                                            const T *src, T *dst) {
  GAD_DYN_SHARED(double, sh);
  long long rows = outer * inner;
  for (long long r = P::first(); r < rows; r += P::step()) {
    long long base = (r / inner) * n * inner + r % inner;
    const T *x = src + base;
    double m = gad_row_max<P>(sh, x, n, inner);
    double s = 0;
    if (kind == GAD_SM_SOFTMAX) {
      T *d = dst + base;
      for (long long j = P::j0(); j < n; j += P::dj()) {
        double e = gad_exp((double)x[j * inner] - m);
        s += e;
        d[j * inner] = (T)e;
      }
      s = P::template all<gad_red_sum>(sh, s);
      T inv = (T)(1 / s);
      for (long long j = P::j0(); j < n; j += P::dj()) d[j * inner] *= inv;
      continue;
    }
    for (long long j = P::j0(); j < n; j += P::dj()) s += gad_exp((double)x[j * inner] - m);
    s = P::template all<gad_red_sum>(sh, s);
    double ls = m + gad_log(s);
    if (kind == GAD_SM_LOG_SOFTMAX) {
      T *d = dst + base;
      for (long long j = P::j0(); j < n; j += P::dj()) d[j * inner] = (T)((double)x[j * inner] - ls);
    } else if (P::lead()) {
      dst[r] = (T)ls;
    }
  }
}

template <class P, class T>
__device__ __forceinline__ void gad_xent(long long rows, long long c, const T *logits, const T *labels, double *part) {
  GAD_DYN_SHARED(double, sh);
  for (long long r = P::first(); r < rows; r += P::step()) {
    const T *x = logits + r * c, *y = labels + r * c;
    double m = gad_row_max<P>(sh, x, c, 1);
    double s = 0;
    for (long long j = P::j0(); j < c; j += P::dj()) s += gad_exp((double)x[j] - m);
    s = P::template all<gad_red_sum>(sh, s);
    double ls = m + gad_log(s);
    double acc = 0;
    for (long long j = P::j0(); j < c; j += P::dj()) acc += (double)(T)((double)x[j] - ls) * (double)y[j];
    acc = P::template all<gad_red_sum>(sh, acc);
    if (P::lead()) part[r] = acc;
  }
}

#define GAD_SOFTMAX(name, P, T)                                                                              \
  extern "C" __global__ void name(long long kind, long long outer, long long n, long long inner, const T *src, \
                                  T *dst) {                                                                  \
    gad_softmax<P>(kind, outer, n, inner, src, dst);                                                         \
  }                                                                                                          \
  GAD_KERNEL(name)

#define GAD_XENT(name, P, T)                                                                                   \
  extern "C" __global__ void name(long long rows, long long c, const T *logits, const T *labels, double *part) { \
    gad_xent<P>(rows, c, logits, labels, part);                                                                \
  }                                                                                                            \
  GAD_KERNEL(name)

GAD_SOFTMAX(gad_softmax_block_f64, gad_by_block, double)
GAD_SOFTMAX(gad_softmax_block_f32, gad_by_block, float)
GAD_SOFTMAX(gad_softmax_thread_f64, gad_by_thread, double)
GAD_SOFTMAX(gad_softmax_thread_f32, gad_by_thread, float)
GAD_XENT(gad_xent_block_f64, gad_by_block, double)
GAD_XENT(gad_xent_block_f32, gad_by_block, float)
GAD_XENT(gad_xent_thread_f64, gad_by_thread, double)
GAD_XENT(gad_xent_thread_f32, gad_by_thread, float)
