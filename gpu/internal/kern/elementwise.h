// elementwise.h: the bodies and the defining macros of the elementwise
// kernels. An op group file (unary.h, binary.h, ...) defines one kernel
// pair per op with a macro of this file; the Go side (package gpu,
// ops_*.go) names the pair by its prefix and launches it with a gad_geom
// collapsed from the tensors' shapes and strides.
#pragma once

#include "geom.h"

// gad_unary: d = F(a, p, q) elementwise, a grid-stride loop.
template <class F, class T>
__device__ __forceinline__ void gad_unary(const gad_geom &g, T *d, const T *a, T p, T q) {
  for (long long i = gad_tid(); i < g.n; i += gad_nthreads()) {
    long long o[2];
    gad_offsets(g, i, o);
    d[o[0]] = F::f(a[o[1]], p, q);
  }
}

// gad_binary: d = F(a, b) elementwise; a and b broadcast (zero strides).
template <class F, class T>
__device__ __forceinline__ void gad_binary(const gad_geom &g, T *d, const T *a, const T *b) {
  for (long long i = gad_tid(); i < g.n; i += gad_nthreads()) {
    long long o[3];
    gad_offsets(g, i, o);
    d[o[0]] = F::f(a[o[1]], b[o[2]]);
  }
}

// GAD_UNARY(name, expr) defines the kernels
//   gad_<name>_f64(gad_geom g, double *d, const double *a, double p, double q)
//   gad_<name>_f32(gad_geom g, float *d, const float *a, float p, float q)
// computing d = expr, an expression in x (the element of a), p and q of
// type T.
#define GAD_UNARY(name, expr)                                                                        \
  struct gad_un_##name {                                                                              \
    template <class T> __device__ static __forceinline__ T f(T x, T p, T q) {                         \
      (void)p;                                                                                        \
      (void)q;                                                                                        \
      return (expr);                                                                                  \
    }                                                                                                 \
  };                                                                                                  \
  extern "C" __global__ void gad_##name##_f64(gad_geom g, double *d, const double *a, double p, double q) { \
    gad_unary<gad_un_##name>(g, d, a, p, q);                                                          \
  }                                                                                                   \
  extern "C" __global__ void gad_##name##_f32(gad_geom g, float *d, const float *a, float p, float q) { \
    gad_unary<gad_un_##name>(g, d, a, p, q);                                                          \
  }                                                                                                   \
  GAD_KERNEL(gad_##name##_f64)                                                                        \
  GAD_KERNEL(gad_##name##_f32)

// GAD_BINARY(name, expr) defines the kernels
//   gad_<name>_f64(gad_geom g, double *d, const double *a, const double *b)
//   gad_<name>_f32(gad_geom g, float *d, const float *a, const float *b)
// computing d = expr, an expression in x (from a) and y (from b).
#define GAD_BINARY(name, expr)                                                                       \
  struct gad_bin_##name {                                                                             \
    template <class T> __device__ static __forceinline__ T f(T x, T y) { return (expr); }             \
  };                                                                                                  \
  extern "C" __global__ void gad_##name##_f64(gad_geom g, double *d, const double *a, const double *b) { \
    gad_binary<gad_bin_##name>(g, d, a, b);                                                           \
  }                                                                                                   \
  extern "C" __global__ void gad_##name##_f32(gad_geom g, float *d, const float *a, const float *b) { \
    gad_binary<gad_bin_##name>(g, d, a, b);                                                           \
  }                                                                                                   \
  GAD_KERNEL(gad_##name##_f64)                                                                        \
  GAD_KERNEL(gad_##name##_f32)
