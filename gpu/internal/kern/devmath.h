// devmath.h: the math functions kernels call. Without the CUDA toolkit
// there is no libdevice, so none exist on the device: each is written
// here with only +, *, __builtin_fma, __builtin_rint and bit casts, and
// the same code runs on the host (the tests compare it with Go's math).
// A float version goes through the double one unless it has its own.
#pragma once

__device__ __forceinline__ long long gad_bits(double x) { return __builtin_bit_cast(long long, x); }
__device__ __forceinline__ double gad_from_bits(long long b) { return __builtin_bit_cast(double, b); }

// gad_exp returns e^x within 1 ulp: x = k·ln2 + r with |r| ≤ ln2/2
// (Cody–Waite, ln2 split in two), e^r by its Taylor polynomial of degree
// 13 (truncation error below 2^-58), then scaling by 2^k in two steps so
// that subnormal results are right.
__device__ __forceinline__ double gad_exp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return __builtin_bit_cast(double, 0x7ff0000000000000LL); // +Inf
  if (x < -745.1332191019412) return 0.0;
  const double log2e = 1.4426950408889634;
  const double ln2hi = 6.93147180369123816490e-01; // high bits of ln 2, k·ln2hi exact
  const double ln2lo = 1.90821492927058770002e-10;
  double k = __builtin_rint(x * log2e);
  double r = __builtin_fma(-k, ln2hi, x);
  r = __builtin_fma(-k, ln2lo, r);
  // Horner on 1/n!, n = 13 down to 0.
  double p = 1.0 / 6227020800.0;
  p = __builtin_fma(p, r, 1.0 / 479001600.0);
  p = __builtin_fma(p, r, 1.0 / 39916800.0);
  p = __builtin_fma(p, r, 1.0 / 3628800.0);
  p = __builtin_fma(p, r, 1.0 / 362880.0);
  p = __builtin_fma(p, r, 1.0 / 40320.0);
  p = __builtin_fma(p, r, 1.0 / 5040.0);
  p = __builtin_fma(p, r, 1.0 / 720.0);
  p = __builtin_fma(p, r, 1.0 / 120.0);
  p = __builtin_fma(p, r, 1.0 / 24.0);
  p = __builtin_fma(p, r, 1.0 / 6.0);
  p = __builtin_fma(p, r, 0.5);
  p = __builtin_fma(p, r, 1.0);
  p = __builtin_fma(p, r, 1.0);
  long long ki = (long long)k;
  long long k1 = ki / 2, k2 = ki - k1; // each in [-538, 512]: 2^k1, 2^k2 are normal
  double s1 = gad_from_bits((k1 + 1023) << 52);
  double s2 = gad_from_bits((k2 + 1023) << 52);
  return p * s1 * s2;
}

__device__ __forceinline__ float gad_exp(float x) { return (float)gad_exp((double)x); }
