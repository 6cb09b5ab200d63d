// geom.h: the geometry of elementwise kernels (struct gad_geom, passed
// by value; Go's launch.Geom mirrors it) and the index arithmetic.
#pragma once

#define GAD_MAXDIM 8
#define GAD_MAXOPS 3

// n elements over the row-major index space shape[0..nd); operand k is
// at element offset sum(idx[d]*st[k][d]) from its pointer (which already
// includes the view's offset). Go collapses dimensions first, so a
// contiguous operation has nd == 1 and unit strides.
struct gad_geom {
  long long n, nd;
  long long shape[GAD_MAXDIM];
  long long st[GAD_MAXOPS][GAD_MAXDIM];
};

// gad_offsets sets o[k] to the offset of operand k at linear index i.
template <int K>
__device__ __forceinline__ void gad_offsets(const gad_geom &g, long long i, long long (&o)[K]) {
  if (g.nd == 1) {
    for (int k = 0; k < K; k++) o[k] = i * g.st[k][0];
    return;
  }
  for (int k = 0; k < K; k++) o[k] = 0;
  for (int d = (int)g.nd - 1; d >= 0; d--) {
    long long s = g.shape[d];
    long long x = i % s;
    i /= s;
    for (int k = 0; k < K; k++) o[k] += x * g.st[k][d];
  }
}

// gad_tid and gad_nthreads are a grid-stride loop's start and step.
__device__ __forceinline__ long long gad_tid() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ long long gad_nthreads() { return (long long)blockDim.x * gridDim.x; }
