// gather.h: gathering along an axis by integer indices, and its adjoint,
// the scatter-add. Go side: ops_gather.go (tensorops/gather.go's
// deviceGather).
//
//   gad_gather_<t>(long long outer, long long n, long long inner, long long m,
//                  const long long *idx, const T *src, T *dst)
//     dst [outer, m, inner] = src [outer, n, inner] at idx[0..m) along the
//     middle axis (grid-stride over dst).
//   gad_scatter_add_<t>(long long outer, long long n, long long inner, long long m,
//                       const long long *perm, const long long *start, const T *g, T *dst)
//     dst [outer, n, inner]: for each j, the sum of g [outer, m, inner] at
//     the positions perm[start[j]..start[j+1]) along the middle axis, 0
//     where there is none. perm lists 0..m−1 sorted by their index (a
//     stable sort, made on the host), start the first position of each
//     index: a gather (grid-stride over dst), deterministic and free of
//     atomics, adding from zero in increasing position, in T, as the
//     CPU's scatter-add does: the same numbers.
#pragma once

#include "geom.h"

template <class T>
__device__ __forceinline__ void gad_gather(long long outer, long long n, long long inner, long long m,
                                           const long long *idx, const T *src, T *dst) {
  long long total = outer * m * inner;
  for (long long e = gad_tid(); e < total; e += gad_nthreads()) {
    long long i = e % inner, k = (e / inner) % m, o = e / (inner * m);
    dst[e] = src[(o * n + idx[k]) * inner + i];
  }
}

template <class T>
__device__ __forceinline__ void gad_scatter_add(long long outer, long long n, long long inner, long long m,
                                                const long long *perm, const long long *start, const T *g, T *dst) {
  long long total = outer * n * inner;
  for (long long e = gad_tid(); e < total; e += gad_nthreads()) {
    long long i = e % inner, j = (e / inner) % n, o = e / (inner * n);
    T acc = 0;
    for (long long q = start[j]; q < start[j + 1]; q++) acc += g[(o * m + perm[q]) * inner + i];
    dst[e] = acc;
  }
}

extern "C" __global__ void gad_gather_f64(long long outer, long long n, long long inner, long long m,
                                          const long long *idx, const double *src, double *dst) {
  gad_gather(outer, n, inner, m, idx, src, dst);
}
extern "C" __global__ void gad_gather_f32(long long outer, long long n, long long inner, long long m,
                                          const long long *idx, const float *src, float *dst) {
  gad_gather(outer, n, inner, m, idx, src, dst);
}
extern "C" __global__ void gad_scatter_add_f64(long long outer, long long n, long long inner, long long m,
                                               const long long *perm, const long long *start, const double *g,
                                               double *dst) {
  gad_scatter_add(outer, n, inner, m, perm, start, g, dst);
}
extern "C" __global__ void gad_scatter_add_f32(long long outer, long long n, long long inner, long long m,
                                               const long long *perm, const long long *start, const float *g,
                                               float *dst) {
  gad_scatter_add(outer, n, inner, m, perm, start, g, dst);
}
GAD_KERNEL(gad_gather_f64)
GAD_KERNEL(gad_gather_f32)
GAD_KERNEL(gad_scatter_add_f64)
GAD_KERNEL(gad_scatter_add_f32)
