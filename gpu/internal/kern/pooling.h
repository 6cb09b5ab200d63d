// pooling.h: 2-D max and average pooling over planes (the n·c images of
// an NCHW tensor) and their derivatives. Go side: ops_nn_pool.go
// (tensorops/pool.go's devicePool2D).
//
//   gad_maxpool_<t>(long long mode, long long planes, long long h, long long w, long long oh,
//                   long long ow, long long size, long long stride, long long pad,
//                   const T *x, const T *src, T *dst)
//     x [planes, h, w]; windows of size×size every stride with pad on
//     every side, each with its first maximum in row-major order (its
//     first NaN), as tensorops' windowArgMax:
//       mode 0 (MaxPool2D): dst [planes, oh, ow] the maximum (src unused);
//       mode 1 (MaxPool2DJVP): dst [planes, oh, ow] src [planes, h, w] at
//         the maximum;
//       mode 2 (MaxPool2DGrad): dst [planes, h, w] the sum of src
//         [planes, oh, ow] over the windows whose maximum the element is.
//     Mode 2 is a gather, deterministic and free of atomics: each thread
//     owns an element of dst, finds the windows covering it, computes
//     their maxima again and adds in the order of the windows, from zero,
//     in T, which is the order in which the CPU's scatter adds: the same
//     numbers.
//   gad_avgpool_<t>(long long grad, same sizes, const T *src, T *dst)
//     grad 0 (AvgPool2D): dst [planes, oh, ow] the sum of the window of
//       src [planes, h, w], in double in row-major order, / size²;
//     grad 1 (AvgPool2DGrad): dst [planes, h, w] the sum of src [planes,
//       oh, ow] over the windows covering the element, in double in
//       row-major order of the windows, / size².
// Every kernel is grid-stride over dst.
#pragma once

#include "geom.h"

struct gad_pool {
  long long h, w, oh, ow, size, stride, pad;
};

// gad_pool_covering sets [*i0, *i1) to the windows along one axis (n of
// them) that cover position y: i·stride − pad ≤ y < i·stride − pad + size.
__device__ __forceinline__ void gad_pool_covering(const gad_pool &g, long long y, long long n, long long *i0,
                                                  long long *i1) {
  long long lo = y + g.pad - g.size + 1;
  *i0 = lo > 0 ? (lo + g.stride - 1) / g.stride : 0;
  long long hi = (y + g.pad) / g.stride + 1;
  *i1 = hi < n ? hi : n;
}

// gad_window_argmax returns the index y·w + x in plane p of the first
// maximum of window (i, j) (of its first NaN); windows are never empty.
template <class T>
__device__ __forceinline__ long long gad_window_argmax(const gad_pool &g, const T *p, long long i, long long j) {
  long long y0 = i * g.stride - g.pad, x0 = j * g.stride - g.pad;
  long long y1 = y0 + g.size < g.h ? y0 + g.size : g.h, x1 = x0 + g.size < g.w ? x0 + g.size : g.w;
  y0 = y0 > 0 ? y0 : 0;
  x0 = x0 > 0 ? x0 : 0;
  long long best = y0 * g.w + x0;
  T m = p[best];
  if (m != m) return best;
  for (long long y = y0; y < y1; y++)
    for (long long x = x0; x < x1; x++) {
      long long k = y * g.w + x;
      T v = p[k];
      if (v > m) {
        m = v;
        best = k;
      } else if (v != v) {
        return k;
      }
    }
  return best;
}

template <class T>
__device__ __forceinline__ void gad_maxpool(long long mode, long long planes, const gad_pool &g, const T *x, const T *src,
                                            T *dst) {
  long long in = g.h * g.w, res = g.oh * g.ow;
  long long total = planes * (mode == 2 ? in : res);
  for (long long e = gad_tid(); e < total; e += gad_nthreads()) {
    if (mode != 2) {
      long long pl = e / res, r = e % res;
      long long k = gad_window_argmax(g, x + pl * in, r / g.ow, r % g.ow);
      dst[e] = mode == 0 ? x[pl * in + k] : src[pl * in + k];
      continue;
    }
    long long pl = e / in, k = e % in;
    long long i0, i1, j0, j1;
    gad_pool_covering(g, k / g.w, g.oh, &i0, &i1);
    gad_pool_covering(g, k % g.w, g.ow, &j0, &j1);
    T acc = 0;
    for (long long i = i0; i < i1; i++)
      for (long long j = j0; j < j1; j++)
        if (gad_window_argmax(g, x + pl * in, i, j) == k) acc += src[pl * res + i * g.ow + j];
    dst[e] = acc;
  }
}

template <class T>
__device__ __forceinline__ void gad_avgpool(long long grad, long long planes, const gad_pool &g, const T *src, T *dst) {
  long long in = g.h * g.w, res = g.oh * g.ow;
  double area = (double)(g.size * g.size);
  long long total = planes * (grad ? in : res);
  for (long long e = gad_tid(); e < total; e += gad_nthreads()) {
    double s = 0;
    if (!grad) {
      long long pl = e / res, r = e % res;
      long long y0 = (r / g.ow) * g.stride - g.pad, x0 = (r % g.ow) * g.stride - g.pad;
      long long y1 = y0 + g.size < g.h ? y0 + g.size : g.h, x1 = x0 + g.size < g.w ? x0 + g.size : g.w;
      const T *p = src + pl * in;
      for (long long y = y0 > 0 ? y0 : 0; y < y1; y++)
        for (long long x = x0 > 0 ? x0 : 0; x < x1; x++) s += (double)p[y * g.w + x];
    } else {
      long long pl = e / in, k = e % in;
      long long i0, i1, j0, j1;
      gad_pool_covering(g, k / g.w, g.oh, &i0, &i1);
      gad_pool_covering(g, k % g.w, g.ow, &j0, &j1);
      const T *p = src + pl * res;
      for (long long i = i0; i < i1; i++)
        for (long long j = j0; j < j1; j++) s += (double)p[i * g.ow + j];
    }
    dst[e] = (T)(s / area);
  }
}

#define GAD_POOL_PARAMS                                                                                       \
  long long planes, long long h, long long w, long long oh, long long ow, long long size, long long stride, \
      long long pad
#define GAD_POOL_GEOM (gad_pool{h, w, oh, ow, size, stride, pad})

extern "C" __global__ void gad_maxpool_f64(long long mode, GAD_POOL_PARAMS, const double *x, const double *src,
                                           double *dst) {
  gad_maxpool(mode, planes, GAD_POOL_GEOM, x, src, dst);
}
extern "C" __global__ void gad_maxpool_f32(long long mode, GAD_POOL_PARAMS, const float *x, const float *src,
                                           float *dst) {
  gad_maxpool(mode, planes, GAD_POOL_GEOM, x, src, dst);
}
extern "C" __global__ void gad_avgpool_f64(long long grad, GAD_POOL_PARAMS, const double *src, double *dst) {
  gad_avgpool(grad, planes, GAD_POOL_GEOM, src, dst);
}
extern "C" __global__ void gad_avgpool_f32(long long grad, GAD_POOL_PARAMS, const float *src, float *dst) {
  gad_avgpool(grad, planes, GAD_POOL_GEOM, src, dst);
}
GAD_KERNEL(gad_maxpool_f64)
GAD_KERNEL(gad_maxpool_f32)
GAD_KERNEL(gad_avgpool_f64)
GAD_KERNEL(gad_avgpool_f32)
