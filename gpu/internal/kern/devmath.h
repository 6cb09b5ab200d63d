// devmath.h: the math functions kernels call. Without the CUDA toolkit
// there is no libdevice, so none exist on the device: each is written
// here with only +, −, *, /, __builtin_fma, __builtin_rint,
// __builtin_sqrt (PTX sqrt.rn), __builtin_clzll, 64-bit integer
// arithmetic and bit casts, and the same code runs on the host (the tests
// compare it with Go's math; the maximum errors are stated there, in
// gpu/devmath_host_test.go). The float versions compute in double and
// round, as tensorops' CPU kernels do (float32(math.F(float64(x)))).
//
// Contraction: clang compiles CUDA with -ffp-contract=fast, which fuses
// a*b+c into an fma on the device (not on the host) and ignores
// #pragma clang fp contract. The algorithms below are written so that a
// fused multiply-add only makes them more accurate (products whose
// rounding matters are explicit __builtin_fma); a formula that must round
// a product as Go does (tensorops' TanhGrad, Affine) uses gad_mul.
#pragma once

__device__ __forceinline__ long long gad_bits(double x) { return __builtin_bit_cast(long long, x); }
__device__ __forceinline__ double gad_from_bits(long long b) { return __builtin_bit_cast(double, b); }
__device__ __forceinline__ int gad_bits(float x) { return __builtin_bit_cast(int, x); }
__device__ __forceinline__ float gad_from_bits(int b) { return __builtin_bit_cast(float, b); }

// gad_mul returns a·b rounded, never fused with an addition that
// follows (PTX mul.rn is not contracted).
__device__ __forceinline__ double gad_mul(double a, double b) {
#if defined(GAD_DEVICE)
  double r;
  asm("mul.rn.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b));
  return r;
#else
  return a * b;
#endif
}

__device__ __forceinline__ float gad_mul(float a, float b) {
#if defined(GAD_DEVICE)
  float r;
  asm("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return a * b;
#endif
}

// gad_mulhi returns the high 64 bits of the 128-bit product a·b.
__device__ __forceinline__ unsigned long long gad_mulhi(unsigned long long a, unsigned long long b) {
#if defined(__NVCC__)
  return __umul64hi(a, b);
#elif defined(GAD_DEVICE)
  return __nvvm_mulhi_ull(a, b);
#else
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
#endif
}

__device__ __forceinline__ double gad_inf() { return gad_from_bits(0x7ff0000000000000LL); }
__device__ __forceinline__ double gad_nan() { return gad_from_bits(0x7ff8000000000000LL); }
__device__ __forceinline__ double gad_fabs(double x) { return gad_from_bits(gad_bits(x) & 0x7fffffffffffffffLL); }
__device__ __forceinline__ float gad_fabs(float x) { return gad_from_bits(gad_bits(x) & 0x7fffffff); }
__device__ __forceinline__ bool gad_signbit(double x) { return gad_bits(x) < 0; }

// gad_copysign returns |x| with the sign of s.
__device__ __forceinline__ double gad_copysign(double x, double s) {
  return gad_from_bits((gad_bits(x) & 0x7fffffffffffffffLL) | (gad_bits(s) & (long long)0x8000000000000000ULL));
}

// gad_pow2 returns 2^k for k in [-1022, 1023].
__device__ __forceinline__ double gad_pow2(long long k) { return gad_from_bits((k + 1023) << 52); }

// gad_exp_dd returns e^(x+xl) within 1 ulp, where xl is a small
// correction (|xl| ≤ ulp(x)): x = k·ln2 + r with |r| ≤ ln2/2
// (Cody–Waite, ln2 split in two), e^r by its Taylor polynomial of degree
// 13 (truncation error below 2^-58), then scaling by 2^k in two steps so
// that subnormal results are right.
__device__ __forceinline__ double gad_exp_dd(double x, double xl) {
  if (x != x) return x;
  if (x > 709.782712893384) return gad_inf();
  if (x < -745.1332191019412) return 0.0;
  const double log2e = 1.4426950408889634;
  const double ln2hi = 6.93147180369123816490e-01; // high bits of ln 2, k·ln2hi exact
  const double ln2lo = 1.90821492927058770002e-10;
  double k = __builtin_rint(x * log2e);
  double r = __builtin_fma(-k, ln2hi, x);
  r = __builtin_fma(-k, ln2lo, r) + xl;
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
  return p * gad_pow2(k1) * gad_pow2(k2);
}

// gad_exp returns e^x within 1 ulp.
__device__ __forceinline__ double gad_exp(double x) { return gad_exp_dd(x, 0.0); }

// gad_expm1 returns e^x − 1: x = k·ln2 + r + c as in exp (c the rounding
// error of r), e^r − 1 = r + r²·P(r) by its Taylor polynomial of degree
// 14 (exact leading term, so small x keep full relative accuracy), then
// 2^k·(e^(r+c) − 1) + (2^k − 1) summed in double-double; e^x − 1
// directly where 2^k − 1 is not exact or the subtraction cannot cancel.
__device__ __forceinline__ double gad_expm1(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return gad_inf();
  if (x < -38.0) return -1.0; // e^x < 2^-54: −1 + e^x rounds to −1
  if (gad_fabs(x) < 5.551115123125783e-17) return x; // 2^-54: e^x − 1 rounds to x (±0 kept)
  const double log2e = 1.4426950408889634;
  const double ln2hi = 6.93147180369123816490e-01;
  const double ln2lo = 1.90821492927058770002e-10;
  double k = __builtin_rint(x * log2e);
  if (k > 56.0 || k < -1.0) return gad_exp(x) - 1.0;
  double hi = __builtin_fma(-k, ln2hi, x); // exact
  double lo = k * ln2lo;
  double r = hi - lo;
  double c = (hi - r) - lo;
  // Horner on 1/n!, n = 14 down to 2.
  double p = 1.0 / 87178291200.0;
  p = __builtin_fma(p, r, 1.0 / 6227020800.0);
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
  // e^r − 1 = em + el: r + r²·P(r) in double-double (the product kept
  // apart from the sum, which the device would fuse).
  double tail = gad_mul(r * r, p);
  double em = r + tail;
  if (k == 0.0) return em;
  double el = (r - em) + tail;     // |r| ≥ |tail|
  el += __builtin_fma(c, em, c);   // e^(r+c) − 1 ≈ em + el + c·(1 + em)
  double t = gad_pow2((long long)k); // 2^k·em exact; 2^k − 1 exact
  double a = t * em, b = t - 1.0;
  double sum = a + b; // two-sum
  double bb = sum - a;
  double e = (a - (sum - bb)) + (b - bb);
  return sum + (e + t * el);
}

// gad_log_core returns k·ln2 + log(1+f) + c as hi + *lo (|*lo| ≤
// ulp(hi)/2) with a relative error near 2^-64, for f in [√½−1, √2−1] and
// a small correction c: log(1+f) = 2s + s·Q(s²) with s = f/(2+f) and
// Q(z) = 2z/3 + 2z²/5 + … (the series of 2·atanh), s, the leading term of
// Q and the sums carried in double-double.
__device__ __forceinline__ double gad_log_core(double k, double f, double c, double *lo) {
  double s = f / (2.0 + f);
  // f − s·(2+f) exactly (f − 2s is exact: 2s is within a factor 2 of f).
  double sl = __builtin_fma(-s, f, f - 2.0 * s) / (2.0 + f);
  double z = s * s;
  double zl = __builtin_fma(s, s, -z) + 2.0 * s * sl;
  // Tail of Q: 2/5 + 2z/7 + … + 2z⁹/23 (truncation below 2^-59 of Q).
  double t = 2.0 / 23;
  t = __builtin_fma(t, z, 2.0 / 21);
  t = __builtin_fma(t, z, 2.0 / 19);
  t = __builtin_fma(t, z, 2.0 / 17);
  t = __builtin_fma(t, z, 2.0 / 15);
  t = __builtin_fma(t, z, 2.0 / 13);
  t = __builtin_fma(t, z, 2.0 / 11);
  t = __builtin_fma(t, z, 2.0 / 9);
  t = __builtin_fma(t, z, 2.0 / 7);
  t = __builtin_fma(t, z, 2.0 / 5);
  t = t * z * z;
  // Q = z·(2/3) + t in double-double.
  const double c3h = 0.6666666666666666, c3l = 3.700743415417188e-17;
  double qh = z * c3h;
  double ql = __builtin_fma(z, c3h, -qh) + (z * c3l + zl * c3h);
  double q2 = qh + t;
  ql += (qh - q2) + t;
  qh = q2;
  // s·Q.
  double ph = s * qh;
  double pl = __builtin_fma(s, qh, -ph) + (s * ql + sl * qh);
  // 2s + s·Q (|2s| ≥ |s·Q|).
  double h = 2.0 * s + ph;
  double l = (2.0 * s - h) + ph + (pl + 2.0 * sl + c);
  // + k·ln2, ln2 in double-double.
  const double ln2h = 0.6931471805599453, ln2l = 2.3190468138462996e-17;
  double kh = k * ln2h;
  double kl = __builtin_fma(k, ln2h, -kh) + k * ln2l;
  double sum = kh + h; // two-sum
  double bb = sum - kh;
  double e = (kh - (sum - bb)) + (h - bb);
  l += e + kl;
  double hi = sum + l;
  *lo = l - (hi - sum);
  return hi;
}

// gad_log_dd returns log(x) as hi + *lo for finite x > 0 (normal or
// subnormal): x = 2^k·m with m in [√½, √2), f = m − 1 exact.
__device__ __forceinline__ double gad_log_dd(double x, double *lo) {
  long long k = 0;
  if (x < 2.2250738585072014e-308) { // subnormal: scale by 2^54
    x *= 18014398509481984.0;
    k = -54;
  }
  long long b = gad_bits(x);
  k += (b >> 52) - 1023;
  b = (b & 0x000fffffffffffffLL) | 0x3ff0000000000000LL; // m in [1, 2)
  if (b > 0x3ff6a09e667f3bcdLL) {                        // m > √2: m/2
    b -= 0x0010000000000000LL;
    k++;
  }
  return gad_log_core((double)k, gad_from_bits(b) - 1.0, 0.0, lo);
}

// gad_log returns the natural logarithm of x, as Go's math.Log for the
// special values (log 0 = −Inf, log of x < 0 or NaN is NaN).
__device__ __forceinline__ double gad_log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -gad_inf() : gad_nan();
  if (x == gad_inf()) return x;
  double lo;
  return gad_log_dd(x, &lo);
}

// gad_log1p returns log(1+x): u = 1+x rounded, with its rounding error
// c = (1+x) − u exact (two-sum), log(1+x) = log(u) + c/u.
__device__ __forceinline__ double gad_log1p(double x) {
  if (x != x || x == gad_inf()) return x;
  if (!(x > -1.0)) return x == -1.0 ? -gad_inf() : gad_nan();
  if (gad_fabs(x) < 5.551115123125783e-17) return x; // 2^-54: log1p(x) rounds to x
  double u = 1.0 + x;
  double c = gad_fabs(x) <= 1.0 ? (1.0 - u) + x : (x - u) + 1.0;
  c /= u;
  long long b = gad_bits(u);
  long long k = (b >> 52) - 1023;
  b = (b & 0x000fffffffffffffLL) | 0x3ff0000000000000LL;
  if (b > 0x3ff6a09e667f3bcdLL) {
    b -= 0x0010000000000000LL;
    k++;
  }
  double lo;
  return gad_log_core((double)k, gad_from_bits(b) - 1.0, c, &lo);
}

// gad_tanh returns tanh x = e/(e+2) with e = expm1(2|x|), the division
// corrected for the rounding of e+2 and of the quotient.
__device__ __forceinline__ double gad_tanh(double x) {
  double ax = gad_fabs(x);
  if (!(ax < 22.0)) return ax != ax ? x : gad_copysign(1.0, x); // 1 − tanh 22 < 2^-63
  if (ax < 3.725290298461914e-09) return x;                     // 2^-28: tanh x rounds to x
  double e = gad_expm1(2.0 * ax);
  double d = e + 2.0;
  double dl = (2.0 - d) + e; // d + dl = e + 2 exactly
  double q = e / d;
  double rem = __builtin_fma(-q, d, e); // e − q·d exactly
  q += (rem - q * dl) / d;
  return gad_copysign(q, x);
}

// gad_sigmoid returns 1/(1+e^−x), by tensorops' formula (kernels.go:
// sigmoid): 1/(1+e^−x) for x ≥ 0, e^x/(1+e^x) below.
__device__ __forceinline__ double gad_sigmoid(double x) {
  if (x >= 0.0) return 1.0 / (1.0 + gad_exp(-x));
  double e = gad_exp(x);
  return e / (1.0 + e);
}

// Double-double arithmetic (an unevaluated sum h + l, |l| ≤ ulp(h)/2)
// for the error function's series: error-free sums (two-sum, fast
// two-sum) and products (fma). Contraction leaves them exact: they have
// no product to fuse but the explicit fma's.
struct gad_dd {
  double h, l;
};

__device__ __forceinline__ gad_dd gad_two_sum(double a, double b) {
  double s = a + b, bb = s - a;
  return gad_dd{s, (a - (s - bb)) + (b - bb)};
}

__device__ __forceinline__ gad_dd gad_fast_two_sum(double a, double b) { // |a| ≥ |b|
  double s = a + b;
  return gad_dd{s, b - (s - a)};
}

__device__ __forceinline__ gad_dd gad_dd_add(gad_dd x, gad_dd y) {
  gad_dd s = gad_two_sum(x.h, y.h), t = gad_two_sum(x.l, y.l);
  s = gad_fast_two_sum(s.h, s.l + t.h);
  return gad_fast_two_sum(s.h, s.l + t.l);
}

__device__ __forceinline__ gad_dd gad_dd_mul(gad_dd x, gad_dd y) {
  double p = x.h * y.h;
  double e = __builtin_fma(x.h, y.h, -p);
  return gad_fast_two_sum(p, e + (x.h * y.l + x.l * y.h));
}

// gad_dd_div_int returns x/k for a small positive integer k: the
// remainder x.h − q·k is exact (fma).
__device__ __forceinline__ gad_dd gad_dd_div_int(gad_dd x, double k) {
  double q = x.h / k;
  double r = __builtin_fma(-q, k, x.h);
  return gad_fast_two_sum(q, (r + x.l) / k);
}

// gad_erf_series returns erf x for 0 ≤ x < 2 in double-double: 2/√π ·
// Σₙ (−1)ⁿ x^(2n+1)/(n!·(2n+1)) (Maclaurin), every term and sum in
// double-double, x² = x·x exactly (fma), until a term is below 1e-21 of
// the sum (at most about 40 terms at x = 2, whose largest term is 2.4
// against a sum of 0.88). The result is good to about 1e-30, so that
// 1 − erf x (erfc x ≥ 0.0046 here) keeps full double accuracy.
__device__ __forceinline__ gad_dd gad_erf_series(double x) {
  const gad_dd two_over_sqrt_pi = {1.1283791670955126, 1.533545961316588e-17};
  double zh = x * x;
  gad_dd z = {zh, __builtin_fma(x, x, -zh)};
  gad_dd p = {x, 0.0}, s = {0.0, 0.0};
  for (int n = 0;; n++) {
    gad_dd t = gad_dd_div_int(p, (double)(2 * n + 1));
    if (n & 1) t = gad_dd{-t.h, -t.l};
    s = gad_dd_add(s, t);
    if (gad_fabs(t.h) <= 1e-21 * s.h) break;
    p = gad_dd_div_int(gad_dd_mul(p, z), (double)(n + 1));
  }
  return gad_dd_mul(two_over_sqrt_pi, s);
}

// gad_erfc_cf returns erfc x for 2 ≤ x < 27.3 by Laplace's continued
// fraction, e^(−x²)/√π / (x + (1/2)/(x + 1/(x + (3/2)/(x + …)))),
// evaluated from its n-th term back (every step x + (k/2)/t adds positive
// numbers: stable), with n = ⌈(20/x)²⌉ + 8 terms (108 at x = 2, 12 at
// x = 27), where its truncation error is below 1e-18; e^(−x²) with x² in
// double-double (gad_exp_dd), within 3 ulps of erfc.
__device__ __forceinline__ double gad_erfc_cf(double x) {
  const double inv_sqrt_pi = 0.5641895835477563;
  double r = 20.0 / x;
  int n = (int)(r * r) + 9;
  double t = x;
  for (int k = n; k >= 1; k--) t = x + (0.5 * k) / t;
  double zh = x * x;
  return gad_exp_dd(-zh, -__builtin_fma(x, x, -zh)) * inv_sqrt_pi / t;
}

// gad_erf returns the error function, within 1 ulp of Go's math.Erf:
// the double-double series below 2, 1 − erfc x up to 6, ±1 beyond
// (erfc 6 < 2^-55).
__device__ __forceinline__ double gad_erf(double x) {
  if (x != x) return x;
  double ax = gad_fabs(x), r;
  if (ax < 2.0) {
    gad_dd e = gad_erf_series(ax);
    r = e.h + e.l;
  } else if (ax < 6.0) {
    r = 1.0 - gad_erfc_cf(ax);
  } else {
    r = 1.0;
  }
  return gad_copysign(r, x);
}

// gad_erfc returns the complementary error function 1 − erf x: for
// |x| < 2, 1 ∓ the double-double series (the sum exact, rounded once);
// 2 − erfc(−x) for x ≤ −2; the continued fraction for x ≥ 2; 0 from
// 27.3 (erfc x < 2^-1075).
__device__ __forceinline__ double gad_erfc(double x) {
  if (x != x) return x;
  double ax = gad_fabs(x);
  if (ax < 2.0) {
    gad_dd e = gad_erf_series(ax);
    if (x < 0.0) {
      gad_dd s = gad_two_sum(1.0, e.h);
      return s.h + (s.l + e.l);
    }
    gad_dd s = gad_two_sum(1.0, -e.h);
    return s.h + (s.l - e.l);
  }
  if (x < 0.0) return 2.0 - (ax < 27.3 ? gad_erfc_cf(ax) : 0.0);
  return x < 27.3 ? gad_erfc_cf(x) : 0.0;
}

// The activations of tensorops' activation.go, by its formulas: GELU
// x/2·erfc(−x/√2), its derivative Φ(x) + x·φ(x) = erfc(−x/√2)/2 +
// x·e^(−x²/2)/√(2π), SiLU x·σ(x) and its derivative σ(x)·(1 + x·(1 −
// σ(x))), Softplus max(x, 0) + log1p(e^−|x|) (NaN for NaN).
__device__ __forceinline__ double gad_gelu(double x) { return 0.5 * x * gad_erfc(-x * 0.7071067811865476); }
__device__ __forceinline__ double gad_gelu_grad(double x) {
  return 0.5 * gad_erfc(-x * 0.7071067811865476) + x * gad_exp(-0.5 * x * x) * 0.3989422804014327;
}
__device__ __forceinline__ double gad_silu(double x) { return x * gad_sigmoid(x); }
__device__ __forceinline__ double gad_silu_grad(double x) {
  double s = gad_sigmoid(x);
  return s * (1.0 + x * (1.0 - s));
}
__device__ __forceinline__ double gad_softplus(double x) {
  double m = x != x ? x : (x > 0.0 ? x : 0.0);
  return m + gad_log1p(gad_exp(-gad_fabs(x)));
}

__device__ __forceinline__ double gad_sqrt(double x) { return __builtin_sqrt(x); }
__device__ __forceinline__ float gad_sqrt(float x) { return __builtin_sqrtf(x); }

// gad_2opi holds the bits of 2/π after the binary point, most significant
// first: 1280 bits, enough for the Payne–Hanek reduction of any double.
__device__ static const unsigned long long gad_2opi[20] = {
    0xa2f9836e4e441529ULL, 0xfc2757d1f534ddc0ULL, 0xdb6295993c439041ULL, 0xfe5163abdebbc561ULL,
    0xb7246e3a424dd2e0ULL, 0x06492eea09d1921cULL, 0xfe1deb1cb129a73eULL, 0xe88235f52ebb4484ULL,
    0xe99c7026b45f7e41ULL, 0x3991d639835339f4ULL, 0x9c845f8bbdf9283bULL, 0x1ff897ffde05980fULL,
    0xef2f118b5a0a6d1fULL, 0x6d367ecf27cb09b7ULL, 0x4f463f669e5fea2dULL, 0x7527bac7ebe5f17bULL,
    0x3d0739f78a5292eaULL, 0x6bfb5fb11f8d5d08ULL, 0x56033046fc7b6babULL, 0xf0cfbc209af4361dULL,
};

// gad_2opi_bits returns the 64 bits of 2/π from bit i on (i = 1 is the
// first after the binary point; bits before it are 0).
__device__ __forceinline__ unsigned long long gad_2opi_bits(int i) {
  int p = i - 1;
  if (p <= -64) return 0;
  if (p < 0) return gad_2opi[0] >> -p;
  int w = p >> 6, sh = p & 63;
  if (sh == 0) return gad_2opi[w];
  return (gad_2opi[w] << sh) | (gad_2opi[w + 1] >> (64 - sh));
}

// gad_rem_pio2 reduces x to r = x − k·π/2 with |r| ≤ π/4 (about), r as
// *rh + *rl, and returns k mod 4. For |x| < 2^28, Cody–Waite with π/2 in
// three doubles (k·C1 exact by fma, k·C2 exact as a double-double); above,
// Payne–Hanek: the fraction of x·2/π from a 192-bit window of 2/π's bits,
// so that every finite double is reduced to full accuracy.
__device__ __forceinline__ int gad_rem_pio2(double x, double *rh, double *rl) {
  const double C1 = 1.5707963267948966, C2 = 6.123233995736766e-17, C3 = -1.4973849048591698e-33;
  if (gad_fabs(x) < 268435456.0) {
    double k = __builtin_rint(x * 0.6366197723675814);
    double t = __builtin_fma(-k, C1, x); // exact
    double ph = k * C2;
    double pl = __builtin_fma(k, C2, -ph);
    double s = t - ph; // two-sum
    double bb = s - t;
    double e = (t - (s - bb)) + (-ph - bb);
    double lo = (e - pl) - k * C3;
    double h = s + lo;
    *rh = h;
    *rl = lo - (h - s);
    return (int)((long long)k & 3);
  }
  // |x| = m·2^e, m a 53-bit integer, e ≥ −24. Bits i < e−1 of 2/π give
  // multiples of 4 in x·2/π: the window starts at bit e−1, and
  // m·window·2^-190 holds k mod 4 in its bits 191..190 of the product
  // (mod 2^192) and the fraction below.
  unsigned long long b = (unsigned long long)gad_bits(x);
  int e = (int)((b >> 52) & 0x7ff) - 1075;
  unsigned long long m = (b & 0x000fffffffffffffULL) | 0x0010000000000000ULL;
  int s = e - 1;
  unsigned long long w0 = gad_2opi_bits(s), w1 = gad_2opi_bits(s + 64), w2 = gad_2opi_bits(s + 128);
  unsigned long long p0 = m * w2, h2 = gad_mulhi(m, w2);
  unsigned long long l1 = m * w1, h1 = gad_mulhi(m, w1);
  unsigned long long p1 = h2 + l1;
  unsigned long long p2 = m * w0 + h1 + (p1 < l1 ? 1 : 0);
  int q = (int)(p2 >> 62);
  unsigned long long f1 = (p2 << 2) | (p1 >> 62), f0 = (p1 << 2) | (p0 >> 62); // fraction, 128 bits
  bool neg = false;
  if (f1 >> 63) { // fraction ≥ 1/2: r = (fraction − 1)·π/2, k + 1
    q++;
    neg = true;
    f0 = ~f0 + 1;
    f1 = ~f1 + (f0 == 0 ? 1 : 0);
  }
  // Normalize the 128-bit fraction and take two 53-bit pieces.
  int lz = f1 ? __builtin_clzll(f1) : 64 + (f0 ? __builtin_clzll(f0) : 63);
  unsigned long long a1, a0;
  if (lz >= 64) {
    a1 = f0 << (lz - 64);
    a0 = 0;
  } else if (lz > 0) {
    a1 = (f1 << lz) | (f0 >> (64 - lz));
    a0 = f0 << lz;
  } else {
    a1 = f1;
    a0 = f0;
  }
  double fh = (double)(long long)(a1 >> 11);                              // 53 bits
  double fl = (double)(long long)(((a1 & 0x7ff) << 42) | (a0 >> 22));      // next 53 bits
  double sc = gad_pow2(-53 - lz);                                        // fh·sc in [1/2, 1)·2^-lz
  fh *= sc;
  fl *= sc * 1.1102230246251565e-16;                                      // 2^-53
  // r = f·π/2 in double-double.
  double h = fh * C1;
  double l = __builtin_fma(fh, C1, -h) + (fh * C2 + fl * C1);
  double r = h + l;
  l = l - (r - h);
  if (neg) {
    r = -r;
    l = -l;
  }
  if (x < 0) {
    r = -r;
    l = -l;
    q = -q;
  }
  *rh = r;
  *rl = l;
  return q & 3;
}

// gad_ksin returns sin(x+y) for |x| ≤ π/4, |y| ≤ ulp(x): the Taylor
// polynomial of degree 19 (truncation below 2^-60), y·cos x as y·(1−x²/2).
__device__ __forceinline__ double gad_ksin(double x, double y) {
  double z = x * x;
  double p = -1.0 / 121645100408832000.0;
  p = __builtin_fma(p, z, 1.0 / 355687428096000.0);
  p = __builtin_fma(p, z, -1.0 / 1307674368000.0);
  p = __builtin_fma(p, z, 1.0 / 6227020800.0);
  p = __builtin_fma(p, z, -1.0 / 39916800.0);
  p = __builtin_fma(p, z, 1.0 / 362880.0);
  p = __builtin_fma(p, z, -1.0 / 5040.0);
  p = __builtin_fma(p, z, 1.0 / 120.0);
  p = __builtin_fma(p, z, -1.0 / 6.0);
  return x + __builtin_fma(z * x, p, y * (1.0 - 0.5 * z));
}

// gad_kcos returns cos(x+y) for |x| ≤ π/4, |y| ≤ ulp(x): 1 − x²/2 with
// the rounding errors of x² and of 1 − x²/2 carried, plus x⁴·C(x²) (the
// Taylor terms to x¹⁸/18!), minus y·sin x as y·x.
__device__ __forceinline__ double gad_kcos(double x, double y) {
  double z = x * x;
  double zl = __builtin_fma(x, x, -z);
  // C(z) = 1/4! − z/6! + … − z⁷/18!.
  double p = -1.0 / 6402373705728000.0;
  p = __builtin_fma(p, z, 1.0 / 20922789888000.0);
  p = __builtin_fma(p, z, -1.0 / 87178291200.0);
  p = __builtin_fma(p, z, 1.0 / 479001600.0);
  p = __builtin_fma(p, z, -1.0 / 3628800.0);
  p = __builtin_fma(p, z, 1.0 / 40320.0);
  p = __builtin_fma(p, z, -1.0 / 720.0);
  p = __builtin_fma(p, z, 1.0 / 24.0);
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  double corr = ((1.0 - w) - hz) - 0.5 * zl - x * y;
  return w + __builtin_fma(z * z, p, corr);
}

// gad_sin returns sin x; NaN for ±Inf and NaN, x for |x| < 2^-27 (±0
// kept).
__device__ __forceinline__ double gad_sin(double x) {
  if (gad_fabs(x) < 7.450580596923828e-09) return x;
  if (x - x != 0.0) return gad_nan();
  double rh, rl;
  switch (gad_rem_pio2(x, &rh, &rl)) {
  case 0:
    return gad_ksin(rh, rl);
  case 1:
    return gad_kcos(rh, rl);
  case 2:
    return -gad_ksin(rh, rl);
  default:
    return -gad_kcos(rh, rl);
  }
}

// gad_cos returns cos x; NaN for ±Inf and NaN.
__device__ __forceinline__ double gad_cos(double x) {
  if (gad_fabs(x) < 7.450580596923828e-09) return 1.0;
  if (x - x != 0.0) return gad_nan();
  double rh, rl;
  switch (gad_rem_pio2(x, &rh, &rl)) {
  case 0:
    return gad_kcos(rh, rl);
  case 1:
    return -gad_ksin(rh, rl);
  case 2:
    return -gad_kcos(rh, rl);
  default:
    return gad_ksin(rh, rl);
  }
}

// gad_is_odd_int reports whether y is an odd integer (|y| < 2^53).
__device__ __forceinline__ bool gad_is_odd_int(double y) {
  if (!(gad_fabs(y) < 9007199254740992.0) || __builtin_rint(y) != y) return false;
  double h = 0.5 * y;
  return __builtin_rint(h) != h;
}

// gad_pow returns x^y with the special cases of Go's math.Pow (in its
// order), y = 2 as x·x and y = −1 as 1/x (Go's Pow computes small integer
// powers by multiplication), and otherwise ±e^(y·log|x|) with log|x| and
// the product in double-double.
__device__ __forceinline__ double gad_pow(double x, double y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (y == 1.0) return x;
  if (x != x || y != y) return gad_nan();
  double inf = gad_inf();
  if (x == 0.0) {
    bool odd = gad_signbit(x) && gad_is_odd_int(y);
    if (y < 0.0) return odd ? -inf : inf;
    return odd ? x : 0.0;
  }
  double ax = gad_fabs(x);
  if (gad_fabs(y) == inf) {
    if (x == -1.0) return 1.0;
    return ((ax < 1.0) == (y > 0.0)) ? 0.0 : inf;
  }
  if (ax == inf) {
    if (x < 0.0) { // Pow(−0, −y)
      bool odd = gad_is_odd_int(-y);
      if (y > 0.0) return odd ? -inf : inf;
      return odd ? -0.0 : 0.0;
    }
    return y < 0.0 ? 0.0 : inf;
  }
  if (y == 0.5) return __builtin_sqrt(x);
  if (y == -0.5) return 1.0 / __builtin_sqrt(x);
  if (y == 2.0) return x * x;
  if (y == -1.0) return 1.0 / x;
  bool neg = false;
  if (x < 0.0) {
    if (__builtin_rint(y) != y) return gad_nan();
    neg = gad_is_odd_int(y);
  }
  double ll;
  double lh = gad_log_dd(ax, &ll);
  double ph = y * lh;
  double pl = __builtin_fma(y, lh, -ph) + y * ll;
  double r;
  if (ph > 709.8)
    r = inf;
  else if (ph < -745.2)
    r = 0.0;
  else
    r = gad_exp_dd(ph, pl);
  return neg ? -r : r;
}

// The float versions: computed in double and rounded, as the CPU kernels
// do.
__device__ __forceinline__ float gad_exp(float x) { return (float)gad_exp((double)x); }
__device__ __forceinline__ float gad_expm1(float x) { return (float)gad_expm1((double)x); }
__device__ __forceinline__ float gad_log(float x) { return (float)gad_log((double)x); }
__device__ __forceinline__ float gad_log1p(float x) { return (float)gad_log1p((double)x); }
__device__ __forceinline__ float gad_tanh(float x) { return (float)gad_tanh((double)x); }
__device__ __forceinline__ float gad_sigmoid(float x) { return (float)gad_sigmoid((double)x); }
__device__ __forceinline__ float gad_sin(float x) { return (float)gad_sin((double)x); }
__device__ __forceinline__ float gad_cos(float x) { return (float)gad_cos((double)x); }
__device__ __forceinline__ float gad_pow(float x, float y) { return (float)gad_pow((double)x, (double)y); }
__device__ __forceinline__ float gad_erf(float x) { return (float)gad_erf((double)x); }
__device__ __forceinline__ float gad_gelu(float x) { return (float)gad_gelu((double)x); }
__device__ __forceinline__ float gad_silu(float x) { return (float)gad_silu((double)x); }
__device__ __forceinline__ float gad_softplus(float x) { return (float)gad_softplus((double)x); }

// gad_gelu_mul and gad_silu_mul are the fused derivatives y·GELU′(x) and
// y·SiLU′(x), computed in double and rounded for float (tensorops'
// binScalar for GELUGrad and SiLUGrad).
__device__ __forceinline__ double gad_gelu_mul(double x, double y) { return y * gad_gelu_grad(x); }
__device__ __forceinline__ float gad_gelu_mul(float x, float y) { return (float)((double)y * gad_gelu_grad((double)x)); }
__device__ __forceinline__ double gad_silu_mul(double x, double y) { return y * gad_silu_grad(x); }
__device__ __forceinline__ float gad_silu_mul(float x, float y) { return (float)((double)y * gad_silu_grad((double)x)); }
