// gemm.h: the tiled GEMM used when cuBLAS is not loaded. Go side:
// ops_gemm.go.
//
//   gad_gemm_<t>(long long ta, long long tb, long long m, long long n, long long k,
//                T alpha, const T *A, long long lda, const T *B, long long ldb,
//                T beta, T *C, long long ldc)
//
// C = alpha·op(A)·op(B) + beta·C, row-major as BLAS (C m×n, op(A) m×k,
// op(B) k×n; op transposes when ta or tb is nonzero); with beta = 0, C is
// not read (NaNs in C do not propagate). Any m, n, k ≥ 0 and leading
// dimensions ≥ the rows' widths.
//
// Design: a register-blocked kernel. A block of GAD_GEMM_THREADS = 256
// threads (1-D) computes a BM×BN tile of C; the k dimension is walked in
// slices of BK = 8: the block stages the BM×BK slice of op(A) and the
// BK×BN slice of op(B) in shared memory, and each thread multiplies them
// into a TM×TN micro-tile of C held in registers (TM·TN accumulators, TM
// values of A and TN of B loaded from shared memory per step of k: TM·TN
// fmas for TM+TN loads, where the one-element-per-thread kernel did 1 for
// 2). Per dtype:
//
//   float64: BM = BN = 64,  TM = TN = 4 (16 accumulators, 32 registers)
//   float32: BM = BN = 128, TM = TN = 8 (64 accumulators)
//
// so both use 256 threads, 2·BK·(BM+BN) elements = 16 KiB of static shared
// memory, and at most 128 registers per thread (launch_bounds(256, 2): two
// blocks, 16 warps, resident per SM; 8×8 doubles would need 128 registers
// for the accumulators alone). The float32 tile is twice as wide because
// the same bytes hold twice the elements, and the same register budget
// twice the accumulators. ptxas 11.8 for sm_80: float64 126 registers,
// float32 128, no spills, 16384 bytes smem each (for sm_90 it spills
// about 100 bytes of float32's; the driver's JIT may differ).
//
// Details:
//   - Shared memory holds both slices k-major, As[p][i] = op(A)(i, p) and
//     Bs[p][j] = op(B)(p, j): A is stored transposed, so that a thread's
//     TM values of A for one p are contiguous, as its TN values of B are.
//   - A thread's rows are not one contiguous run of TM but TM/V runs of V
//     (V = 16 bytes: 4 floats, 2 doubles) BM/(TM/V) apart, and the same for
//     its columns: each run is one 16-byte shared-memory load, and the 8
//     threads of a quarter warp read 128 consecutive bytes (no bank
//     conflicts; the threads of a warp that share rows read the same
//     address: a broadcast).
//   - Two shared-memory buffers: the global loads of slice s+1 are issued
//     into registers before the fmas of slice s and stored to the other
//     buffer after them, so memory latency overlaps the arithmetic and
//     one __syncthreads per slice suffices.
//   - Global loads are 16-byte vectors (V elements along the operand's
//     contiguous dimension, whichever op makes it) when the operand's
//     pointer is 16-byte aligned, its leading dimension a multiple of V
//     and the vector inside the matrix; otherwise element by element.
//     Consecutive threads read consecutive vectors either way (coalesced).
//     C is read (beta ≠ 0) and written the same way.
//   - Edges: elements of op(A) and op(B) outside the matrices are staged
//     as zeros (never read), so the k loop is the same for every slice,
//     and only C's elements inside m×n are stored. A thread whose whole
//     micro-tile lies outside C skips the fmas (it still loads its share
//     and reaches every barrier): on the GPU only edge blocks diverge, and
//     through the host shim a small GEMM costs about what it did with
//     16×16 tiles instead of a full tile's work.
//   - Each element of C is one fma chain over p = 0, 1, ..., k-1 from 0,
//     then alpha·acc (beta = 0) or fma(beta, c, alpha·acc): the order of
//     the one-element-per-thread kernel this replaces, with the fmas in T
//     (that kernel's float32 fmas went through double: __builtin_fma).
//
// The shared arrays are declared in the extern "C" functions (a __shared__
// variable in a template becomes a .weak symbol in PTX).
#pragma once

#include "geom.h"

#define GAD_GEMM_THREADS 256
#define GAD_GEMM_BK 8
#define GAD_GEMM_F64_TILE 64
#define GAD_GEMM_F64_MICRO 4
#define GAD_GEMM_F32_TILE 128
#define GAD_GEMM_F32_MICRO 8

// GAD_GEMM_BOUNDS(b): launched with GAD_GEMM_THREADS threads, b blocks
// resident per SM: ptxas keeps to 65536 / (b·256) registers per thread
// (128 for b = 2).
#if defined(GAD_DEVICE) && !defined(__NVCC__)
#define GAD_GEMM_BOUNDS(b) __attribute__((launch_bounds(GAD_GEMM_THREADS, b)))
#elif defined(GAD_DEVICE)
#define GAD_GEMM_BOUNDS(b) __launch_bounds__(GAD_GEMM_THREADS, b)
#else
#define GAD_GEMM_BOUNDS(b)
#endif

// gad_v16<T> is a vector of 16 bytes of T (GCC's vector extension, which
// clang and g++ share; v[i] is element i): reading or writing one through
// a cast pointer, 16-byte aligned, is one vector load or store (ld.v4.f32,
// ld.v2.f64), which clang does not reliably make of scalar accesses (with
// a struct of 4 floats it merged the last element's load with the edge
// path's and split the rest).
template <class T>
struct gad_vec16;
template <>
struct gad_vec16<double> {
  typedef double type __attribute__((vector_size(16)));
};
template <>
struct gad_vec16<float> {
  typedef float type __attribute__((vector_size(16)));
};
template <class T>
using gad_v16 = typename gad_vec16<T>::type;

template <class T>
__device__ __forceinline__ gad_v16<T> gad_load16(const T *p) {
  return *reinterpret_cast<const gad_v16<T> *>(p);
}
template <class T>
__device__ __forceinline__ void gad_store16(T *p, const gad_v16<T> &v) {
  *reinterpret_cast<gad_v16<T> *>(p) = v;
}

// gad_gemm_slice is one thread's share of the BK×BW slices of an operand
// (BW = BM for op(A), BN for op(B)) on their way from global memory to
// shared memory: NV vectors of V elements, held in registers.
//
// Slice s is S[p][i] = op(X)(i0+i, p0+p), p0 = s·BK, for p < BK, i < BW
// (i along m for A, n for B), zero where i0+i ≥ iend or p0+p ≥ k. In
// memory, op(X)(i, p) is X[p·ld + i] when alongI (contiguous along i: A
// with ta, B without tb), else X[i·ld + p]. Vector c = t + v·256 (t the
// thread) is the V elements contiguous in memory at (p, i) = (c / (BW/V),
// c % (BW/V)·V) when alongI, (c % (BK/V)·V, c / (BK/V)) else.
template <class T, int BK, int BW>
struct gad_gemm_slice {
  static constexpr int V = 16 / sizeof(T);
  static constexpr int NV = BK * BW / (GAD_GEMM_THREADS * V);
  static_assert(NV >= 1 && NV * GAD_GEMM_THREADS * V == BK * BW, "slice must split into whole vectors per thread");
  static_assert(BK % V == 0 && BW % V == 0, "tile sizes must be multiples of the vector width");
  gad_v16<T> r[NV];
  const T *src[NV]; // vector v's first element in the next slice to load
  int pv[NV];       // its p in the slice
  int fixedN[NV];   // its elements inside the bound that does not move (i < iend if alongI, else the row's)
  long long step;   // elements from a vector to the same vector of the next slice
  bool alongI, vec;

  // init prepares the loads of the slices at i0, from p0 = 0.
  __device__ __forceinline__ void init(const T *X, long long ld, bool alongI_, bool vec_, long long i0, long long iend,
                                       int t) {
    alongI = alongI_, vec = vec_;
    step = alongI ? BK * ld : BK;
#pragma unroll
    for (int v = 0; v < NV; v++) {
      int c = t + v * GAD_GEMM_THREADS;
      if (alongI) {
        long long i = i0 + c % (BW / V) * V;
        pv[v] = c / (BW / V);
        fixedN[v] = iend - i >= V ? V : iend - i > 0 ? int(iend - i) : 0;
        src[v] = X + pv[v] * ld + i;
      } else {
        long long i = i0 + c / (BK / V);
        pv[v] = c % (BK / V) * V;
        fixedN[v] = i < iend ? V : 0;
        src[v] = X + i * ld + pv[v];
      }
    }
  }

  // load reads the thread's vectors of the slice at p0 into r, and moves
  // on to the next slice.
  __device__ __forceinline__ void load(long long p0, long long k) {
#pragma unroll
    for (int v = 0; v < NV; v++) {
      long long p = p0 + pv[v];
      // elements inside both bounds (≤ 0: none)
      long long lim = alongI ? (p < k ? fixedN[v] : 0) : (k - p < fixedN[v] ? k - p : fixedN[v]);
      if (vec && lim >= V) {
        r[v] = gad_load16(src[v]);
      } else {
#pragma unroll
        for (int q = 0; q < V; q++) r[v][q] = q < lim ? src[v][q] : T(0);
      }
      src[v] += step;
    }
  }

  // store writes r to S (S[p][i], as above).
  __device__ __forceinline__ void store(T (*S)[BW], int t) {
#pragma unroll
    for (int v = 0; v < NV; v++) {
      int c = t + v * GAD_GEMM_THREADS;
      if (alongI) {
        gad_store16(&S[pv[v]][c % (BW / V) * V], r[v]);
      } else {
#pragma unroll
        for (int q = 0; q < V; q++) S[pv[v] + q][c / (BK / V)] = r[v][q];
      }
    }
  }
};

// gad_gemm_fma is a·b + c rounded once, in T (__builtin_fma alone would
// compute a float's in double and round twice).
__device__ __forceinline__ double gad_gemm_fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
__device__ __forceinline__ float gad_gemm_fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }

// gad_aligned16 reports whether X + j·ld is 16-byte aligned for every j
// (the vector loads' and stores' condition, with an index along the
// contiguous dimension that is a multiple of V).
template <class T>
__device__ __forceinline__ bool gad_aligned16(const T *X, long long ld) {
  return reinterpret_cast<unsigned long long>(X) % 16 == 0 && ld % (16 / (long long)sizeof(T)) == 0;
}

// gad_gemm_tiled is the kernel body: block (blockIdx.x, blockIdx.y)
// computes C's tile at rows blockIdx.y·BM, columns blockIdx.x·BN, with
// As and Bs two buffers each of shared memory.
template <class T, int BM, int BN, int BK, int TM, int TN>
__device__ __forceinline__ void gad_gemm_tiled(long long ta, long long tb, long long m, long long n, long long k,
                                               T alpha, const T *A, long long lda, const T *B, long long ldb, T beta,
                                               T *C, long long ldc, T (*As)[BK][BM], T (*Bs)[BK][BN]) {
  constexpr int V = 16 / sizeof(T);
  constexpr int NTX = BN / TN;                 // threads along n
  constexpr int GM = TM / V, GN = TN / V;      // a thread's runs of V rows, of V columns
  constexpr int SM = BM / GM, SN = BN / GN;    // the distance between its runs
  static_assert(NTX * (BM / TM) == GAD_GEMM_THREADS, "one micro-tile per thread");
  static_assert(TM % V == 0 && TN % V == 0, "micro-tiles are runs of vectors");
  const int t = threadIdx.x;
  const int tx = t % NTX, ty = t / NTX;
  const long long m0 = (long long)blockIdx.y * BM, n0 = (long long)blockIdx.x * BN;
  // Whether some element of the thread's micro-tile is inside C (its
  // first row and column are its smallest); the others skip the fmas.
  const bool active = m0 + ty * V < m && n0 + tx * V < n;

  T acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0;

  gad_gemm_slice<T, BK, BM> sa;
  gad_gemm_slice<T, BK, BN> sb;
  sa.init(A, lda, ta != 0, gad_aligned16(A, lda), m0, m, t);
  sb.init(B, ldb, tb == 0, gad_aligned16(B, ldb), n0, n, t);
  sa.load(0, k);
  sb.load(0, k);
  sa.store(As[0], t);
  sb.store(Bs[0], t);
  __syncthreads();

  const long long slices = (k + BK - 1) / BK;
  for (long long s = 0; s < slices; s++) {
    const int cur = s & 1;
    const bool more = s + 1 < slices;
    if (more) { // the next slice's global loads, in flight during the fmas
      sa.load((s + 1) * BK, k);
      sb.load((s + 1) * BK, k);
    }
    if (active) {
#pragma unroll
      for (int p = 0; p < BK; p++) {
        gad_v16<T> a[GM], b[GN];
#pragma unroll
        for (int g = 0; g < GM; g++) a[g] = gad_load16(&As[cur][p][g * SM + ty * V]);
#pragma unroll
        for (int g = 0; g < GN; g++) b[g] = gad_load16(&Bs[cur][p][g * SN + tx * V]);
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
          for (int j = 0; j < TN; j++) acc[i][j] = gad_gemm_fma(a[i / V][i % V], b[j / V][j % V], acc[i][j]);
      }
    }
    if (more) {
      sa.store(As[cur ^ 1], t);
      sb.store(Bs[cur ^ 1], t);
    }
    __syncthreads();
  }

  const bool cVec = gad_aligned16(C, ldc);
#pragma unroll
  for (int i = 0; i < TM; i++) {
    const long long row = m0 + i / V * SM + ty * V + i % V;
    if (row >= m) continue;
#pragma unroll
    for (int h = 0; h < GN; h++) {
      const long long col = n0 + h * SN + tx * V;
      T *c = C + row * ldc + col;
      if (cVec && col + V <= n) {
        gad_v16<T> r;
        if (beta == 0) {
#pragma unroll
          for (int w = 0; w < V; w++) r[w] = alpha * acc[i][h * V + w];
        } else {
          gad_v16<T> old = gad_load16(c);
#pragma unroll
          for (int w = 0; w < V; w++) r[w] = gad_gemm_fma(beta, old[w], alpha * acc[i][h * V + w]);
        }
        gad_store16(c, r);
      } else {
#pragma unroll
        for (int w = 0; w < V; w++)
          if (col + w < n) c[w] = beta == 0 ? alpha * acc[i][h * V + w] : gad_gemm_fma(beta, c[w], alpha * acc[i][h * V + w]);
      }
    }
  }
}

extern "C" __global__ GAD_GEMM_BOUNDS(2) void gad_gemm_f64(long long ta, long long tb, long long m, long long n, long long k, double alpha,
                                        const double *A, long long lda, const double *B, long long ldb, double beta,
                                        double *C, long long ldc) {
  __shared__ double As[2][GAD_GEMM_BK][GAD_GEMM_F64_TILE] __attribute__((aligned(16)));
  __shared__ double Bs[2][GAD_GEMM_BK][GAD_GEMM_F64_TILE] __attribute__((aligned(16)));
  gad_gemm_tiled<double, GAD_GEMM_F64_TILE, GAD_GEMM_F64_TILE, GAD_GEMM_BK, GAD_GEMM_F64_MICRO, GAD_GEMM_F64_MICRO>(
      ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, As, Bs);
}
extern "C" __global__ GAD_GEMM_BOUNDS(2) void gad_gemm_f32(long long ta, long long tb, long long m, long long n, long long k, float alpha,
                                        const float *A, long long lda, const float *B, long long ldb, float beta,
                                        float *C, long long ldc) {
  __shared__ float As[2][GAD_GEMM_BK][GAD_GEMM_F32_TILE] __attribute__((aligned(16)));
  __shared__ float Bs[2][GAD_GEMM_BK][GAD_GEMM_F32_TILE] __attribute__((aligned(16)));
  gad_gemm_tiled<float, GAD_GEMM_F32_TILE, GAD_GEMM_F32_TILE, GAD_GEMM_BK, GAD_GEMM_F32_MICRO, GAD_GEMM_F32_MICRO>(
      ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, As, Bs);
}
GAD_KERNEL(gad_gemm_f64)
GAD_KERNEL(gad_gemm_f32)
