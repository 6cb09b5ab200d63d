// conv.h: the patch matrices of a 2-D convolution (NCHW), whose products
// with the filters go to GEMM. Go side: ops_nn_conv.go (tensorops/conv.go's
// deviceConv2D).
//
//   gad_im2col_<t>(long long nimg, long long c, long long h, long long w, long long kh,
//                  long long kw, long long oh, long long ow, long long stride,
//                  long long pad, long long dil, const T *x, T *cols)
//     cols [nimg, c·kh·kw, oh·ow] of the images x [nimg, c, h, w]: at row
//     (ch, p, q), column (i, j), x[ch, i·stride+p·dil−pad, j·stride+q·dil−pad]
//     (dil the dilation, 1 for Conv2D), 0 in the padding (grid-stride over
//     cols).
//   gad_col2im_<t>(same sizes, const T *cols, T *x)
//     x [nimg, c, h, w] = the sum of the columns of cols that read each
//     element: a gather (grid-stride over x, no atomics), adding over
//     (p, q) in the CPU's order (tensorops' col2im), so the same numbers.
#pragma once

#include "geom.h"

struct gad_conv {
  long long c, h, w, kh, kw, oh, ow, stride, pad, dil;
};

template <class T>
__device__ __forceinline__ void gad_im2col(long long nimg, const gad_conv &g, const T *x, T *cols) {
  long long sp = g.oh * g.ow, ckk = g.c * g.kh * g.kw;
  long long total = nimg * ckk * sp;
  for (long long e = gad_tid(); e < total; e += gad_nthreads()) {
    long long s = e % sp, row = (e / sp) % ckk, b = e / (sp * ckk);
    long long q = row % g.kw, p = (row / g.kw) % g.kh, ch = row / (g.kw * g.kh);
    long long y = (s / g.ow) * g.stride + p * g.dil - g.pad, xx = (s % g.ow) * g.stride + q * g.dil - g.pad;
    T v = 0;
    if (y >= 0 && y < g.h && xx >= 0 && xx < g.w) v = x[((b * g.c + ch) * g.h + y) * g.w + xx];
    cols[e] = v;
  }
}

template <class T>
__device__ __forceinline__ void gad_col2im(long long nimg, const gad_conv &g, const T *cols, T *x) {
  long long sp = g.oh * g.ow, ckk = g.c * g.kh * g.kw;
  long long total = nimg * g.c * g.h * g.w;
  for (long long e = gad_tid(); e < total; e += gad_nthreads()) {
    long long xx = e % g.w, y = (e / g.w) % g.h, ch = (e / (g.w * g.h)) % g.c, b = e / (g.w * g.h * g.c);
    const T *cb = cols + b * ckk * sp;
    T acc = 0;
    for (long long p = 0; p < g.kh; p++) {
      long long iy = y + g.pad - p * g.dil;
      if (iy < 0 || iy % g.stride != 0 || iy / g.stride >= g.oh) continue;
      long long i = iy / g.stride;
      for (long long q = 0; q < g.kw; q++) {
        long long jx = xx + g.pad - q * g.dil;
        if (jx < 0 || jx % g.stride != 0 || jx / g.stride >= g.ow) continue;
        acc += cb[((ch * g.kh + p) * g.kw + q) * sp + i * g.ow + jx / g.stride];
      }
    }
    x[e] = acc;
  }
}

#define GAD_CONV_PARAMS                                                                                 \
  long long nimg, long long c, long long h, long long w, long long kh, long long kw, long long oh, long long ow, \
      long long stride, long long pad, long long dil
#define GAD_CONV_GEOM (gad_conv{c, h, w, kh, kw, oh, ow, stride, pad, dil})

extern "C" __global__ void gad_im2col_f64(GAD_CONV_PARAMS, const double *x, double *cols) {
  gad_im2col(nimg, GAD_CONV_GEOM, x, cols);
}
extern "C" __global__ void gad_im2col_f32(GAD_CONV_PARAMS, const float *x, float *cols) {
  gad_im2col(nimg, GAD_CONV_GEOM, x, cols);
}
extern "C" __global__ void gad_col2im_f64(GAD_CONV_PARAMS, const double *cols, double *x) {
  gad_col2im(nimg, GAD_CONV_GEOM, cols, x);
}
extern "C" __global__ void gad_col2im_f32(GAD_CONV_PARAMS, const float *cols, float *x) {
  gad_col2im(nimg, GAD_CONV_GEOM, cols, x);
}
GAD_KERNEL(gad_im2col_f64)
GAD_KERNEL(gad_im2col_f32)
GAD_KERNEL(gad_col2im_f64)
GAD_KERNEL(gad_col2im_f32)
