// copy.h: fills and dtype conversions (strided, as the elementwise
// kernels). Copies within a dtype are the unary kernel gad_copy. Go side:
// ops_copy.go.
#pragma once

#include "geom.h"

// gad_fill_f64/_f32(gad_geom g, T *d, T v): d = v (operand 0 of g).
template <class T>
__device__ __forceinline__ void gad_fill(const gad_geom &g, T *d, T v) {
  for (long long i = gad_tid(); i < g.n; i += gad_nthreads()) {
    long long o[1];
    gad_offsets(g, i, o);
    d[o[0]] = v;
  }
}
extern "C" __global__ void gad_fill_f64(gad_geom g, double *d, double v) { gad_fill(g, d, v); }
extern "C" __global__ void gad_fill_f32(gad_geom g, float *d, float v) { gad_fill(g, d, v); }
GAD_KERNEL(gad_fill_f64)
GAD_KERNEL(gad_fill_f32)

// gad_convert_<to>_<from>(gad_geom g, To *d, const From *s): d = (To)s.
template <class D, class S>
__device__ __forceinline__ void gad_convert(const gad_geom &g, D *d, const S *s) {
  for (long long i = gad_tid(); i < g.n; i += gad_nthreads()) {
    long long o[2];
    gad_offsets(g, i, o);
    d[o[0]] = (D)s[o[1]];
  }
}
extern "C" __global__ void gad_convert_f64_f32(gad_geom g, double *d, const float *s) { gad_convert(g, d, s); }
extern "C" __global__ void gad_convert_f32_f64(gad_geom g, float *d, const double *s) { gad_convert(g, d, s); }
GAD_KERNEL(gad_convert_f64_f32)
GAD_KERNEL(gad_convert_f32_f64)
