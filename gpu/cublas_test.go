package gpu

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// fakeCublas is a cuBLAS written from cuBLAS's documentation, on host
// memory: device pointers are host addresses (Go memory pinned by the
// test, or the host shim's C heap). Its GEMM checks its arguments as
// cuBLAS does (CUBLAS_STATUS_INVALID_VALUE) and computes the
// column-major definition with plain loops, C(i,j) at c[i + j·ldc],
// op(A)(i,p) = A[i + p·lda] or, transposed, A[p + i·lda]: nothing in it
// shares code or conventions with the row-major mapping under test.
type fakeCublas struct {
	mu      sync.Mutex
	calls   []fakeCall
	handles int
	stream  uintptr // the stream the handle was bound to
}

// fakeCall records one GEMM call's arguments.
type fakeCall struct {
	dt                      string
	transa, transb, m, n, k int32
	lda, ldb, ldc           int32
	alpha, beta             float64
	handle                  uintptr
	aPtr, bPtr, cPtr        uint64
	status                  int32
	readsC                  bool
	stream                  uintptr
	handleValid             bool
}

// hostAddr converts a fake device address to a pointer (without
// uintptr→unsafe.Pointer, which vet rejects).
func hostAddr(p uint64) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

// api returns the function table bound to f.
func (f *fakeCublas) api() *cublasAPI {
	const handle = 0x1234
	return &cublasAPI{
		lib: "fake",
		create: func(h *uintptr) int32 {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.handles++
			*h = handle
			return 0
		},
		destroy: func(h uintptr) int32 {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.handles--
			return 0
		},
		setStream: func(h, stream uintptr) int32 {
			f.mu.Lock()
			defer f.mu.Unlock()
			if h != handle {
				return 7
			}
			f.stream = stream
			return 0
		},
		dgemm: func(h uintptr, transa, transb, m, n, k int32, alpha *float64, a uint64, lda int32,
			b uint64, ldb int32, beta *float64, c uint64, ldc int32) int32 {
			return f.gemm(fakeCall{dt: "d", transa: transa, transb: transb, m: m, n: n, k: k, lda: lda, ldb: ldb, ldc: ldc,
				alpha: *alpha, beta: *beta, handle: h, aPtr: a, bPtr: b, cPtr: c},
				func(p uint64, i int32) float64 { return *(*float64)(unsafe.Add(hostAddr(p), 8*int(i))) },
				func(p uint64, i int32, v float64) { *(*float64)(unsafe.Add(hostAddr(p), 8*int(i))) = v })
		},
		sgemm: func(h uintptr, transa, transb, m, n, k int32, alpha *float32, a uint64, lda int32,
			b uint64, ldb int32, beta *float32, c uint64, ldc int32) int32 {
			return f.gemm(fakeCall{dt: "s", transa: transa, transb: transb, m: m, n: n, k: k, lda: lda, ldb: ldb, ldc: ldc,
				alpha: float64(*alpha), beta: float64(*beta), handle: h, aPtr: a, bPtr: b, cPtr: c},
				func(p uint64, i int32) float64 { return float64(*(*float32)(unsafe.Add(hostAddr(p), 4*int(i)))) },
				func(p uint64, i int32, v float64) { *(*float32)(unsafe.Add(hostAddr(p), 4*int(i))) = float32(v) })
		},
	}
}

// gemm is cublas[DS]gemm_v2 on host memory, with element accessors ld and
// st (the sums in float64: the tests' tolerances cover float32's).
func (f *fakeCublas) gemm(c fakeCall, ld func(uint64, int32) float64, st func(uint64, int32, float64)) int32 {
	f.mu.Lock()
	c.stream = f.stream
	c.handleValid = c.handle == 0x1234 && f.handles > 0
	f.mu.Unlock()
	// cuBLAS's argument checks (cublas<t>gemm, "Return values").
	rowsA, rowsB := c.m, c.k // rows of the stored A and B
	if c.transa == cublasOpT {
		rowsA = c.k
	}
	if c.transb == cublasOpT {
		rowsB = c.n
	}
	okOp := func(op int32) bool { return op == cublasOpN || op == cublasOpT }
	if !c.handleValid {
		c.status = 1 // CUBLAS_STATUS_NOT_INITIALIZED
	} else if !okOp(c.transa) || !okOp(c.transb) || c.m < 0 || c.n < 0 || c.k < 0 ||
		c.lda < max(1, rowsA) || c.ldb < max(1, rowsB) || c.ldc < max(1, c.m) {
		c.status = 7 // CUBLAS_STATUS_INVALID_VALUE
	}
	if c.status == 0 {
		for j := int32(0); j < c.n; j++ {
			for i := int32(0); i < c.m; i++ {
				var s float64
				for p := int32(0); p < c.k; p++ {
					ai, bi := i+p*c.lda, p+j*c.ldb
					if c.transa == cublasOpT {
						ai = p + i*c.lda
					}
					if c.transb == cublasOpT {
						bi = j + p*c.ldb
					}
					s += ld(c.aPtr, ai) * ld(c.bPtr, bi)
				}
				v := c.alpha * s
				if c.beta != 0 { // beta = 0: C is not read (NaNs in it are overwritten)
					c.readsC = true
					v += c.beta * ld(c.cPtr, i+j*c.ldc)
				}
				st(c.cPtr, i+j*c.ldc, v)
			}
		}
	}
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.mu.Unlock()
	return c.status
}

func (f *fakeCublas) nCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// useCublas makes GEMM load api (nil: libcublas) from now on, forgetting
// the cuBLAS state and the GEMM choice. For tests, with useLaunchers.
func useCublas(api *cublasAPI) {
	cublas.mu.Lock()
	defer cublas.mu.Unlock()
	cublas.once = sync.Once{}
	cublas.api, cublas.err, cublas.devs = nil, nil, nil
	cublas.fake = nil
	if api != nil {
		cublas.fake = func() (*cublasAPI, error) { return api, nil }
	}
	cublas.modeOnce = sync.Once{}
	cublas.mode.Store(gemmAuto)
}

// TestCublasColMajor checks toColMajor on hand-worked cases: the operands
// and the sizes swapped, each transpose flag following its operand, and
// the calls cuBLAS would refuse left to the tiled kernel.
func TestCublasColMajor(t *testing.T) {
	const pa, pb, pc = 0xa00, 0xb00, 0xc00
	for _, tc := range []struct {
		name           string
		ta, tb         bool
		m, n, k        int
		lda, ldb, ldc  int
		want           colGemm
		ok             bool
		wantWhyRefused string
	}{
		{name: "NN", m: 2, n: 3, k: 4, lda: 4, ldb: 3, ldc: 3,
			want: colGemm{cublasOpN, cublasOpN, 3, 2, 4, pb, 3, pa, 4, pc, 3}, ok: true},
		{name: "TN", ta: true, m: 2, n: 3, k: 4, lda: 2, ldb: 3, ldc: 3, // A stored k×m
			want: colGemm{cublasOpN, cublasOpT, 3, 2, 4, pb, 3, pa, 2, pc, 3}, ok: true},
		{name: "NT", tb: true, m: 2, n: 3, k: 4, lda: 4, ldb: 4, ldc: 3, // B stored n×k
			want: colGemm{cublasOpT, cublasOpN, 3, 2, 4, pb, 4, pa, 4, pc, 3}, ok: true},
		{name: "TT padded", ta: true, tb: true, m: 2, n: 3, k: 4, lda: 5, ldb: 6, ldc: 7,
			want: colGemm{cublasOpT, cublasOpT, 3, 2, 4, pb, 6, pa, 5, pc, 7}, ok: true},
		{name: "one row, lda 1", m: 1, n: 3, k: 4, lda: 1, ldb: 3, ldc: 3}, // cuBLAS wants ldb' = lda ≥ k
		{name: "ldc < n", m: 2, n: 3, k: 4, lda: 4, ldb: 3, ldc: 2},
		{name: "n > 2³¹−1", m: 2, n: math.MaxInt32 + 1, k: 4, lda: 4, ldb: math.MaxInt32 + 1, ldc: math.MaxInt32 + 1},
	} {
		g, ok := toColMajor(tc.ta, tc.tb, tc.m, tc.n, tc.k, pa, tc.lda, pb, tc.ldb, pc, tc.ldc)
		if ok != tc.ok || ok && g != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v, %v", tc.name, g, ok, tc.want, tc.ok)
		}
	}
}

// TestCublasFake runs cublasAPI.gemm (the mapping and the call) against
// the fake cuBLAS on Go memory, for both dtypes, every pair of transposes,
// padded leading dimensions and beta zero or not, and compares C with
// gonum's row-major GEMM.
func TestCublasFake(t *testing.T) {
	var f fakeCublas
	api := f.api()
	var h uintptr
	api.create(&h)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		for _, sz := range [][3]int{{1, 1, 1}, {3, 5, 7}, {17, 9, 33}, {1, 8, 2}} {
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				for _, beta := range []float64{0, -0.5} {
					m, n, k := sz[0], sz[1], sz[2]
					ta, tb := tr[0], tr[1]
					name := fmt.Sprintf("%v/%dx%dx%d/ta=%v,tb=%v/beta=%v", dt, m, n, k, ta, tb, beta)
					// Row-major storage: A is m×k (k×m when ta), B k×n (n×k when tb), C m×n, rows padded.
					ar, ac := m, k
					if ta {
						ar, ac = k, m
					}
					br, bc := k, n
					if tb {
						br, bc = n, k
					}
					lda, ldb, ldc := ac+1, bc+2, n+3
					a, b, c := randSlice(rng, ar*lda), randSlice(rng, br*ldb), randSlice(rng, m*ldc)
					if beta == 0 {
						for i := range c {
							c[i] = math.NaN()
						}
					}
					want := append([]float64(nil), c...)
					if beta == 0 {
						for i := range want {
							want[i] = 0
						}
					}
					gonum.Implementation{}.Dgemm(trans(ta), trans(tb), m, n, k, 1.5, a, lda, b, ldb, beta, want, ldc)

					n0 := f.nCalls()
					var got []float64
					if dt == T.Float32 {
						a32, b32, c32 := to32(a), to32(b), to32(c)
						done, err := api.gemm(h, dt, ta, tb, m, n, k, 1.5, addr32(a32), lda, addr32(b32), ldb, beta, addr32(c32), ldc)
						runtime.KeepAlive(a32)
						runtime.KeepAlive(b32)
						got = to64(c32)
						checkDone(t, name, done, err)
					} else {
						done, err := api.gemm(h, dt, ta, tb, m, n, k, 1.5, addr64(a), lda, addr64(b), ldb, beta, addr64(c), ldc)
						got = c
						checkDone(t, name, done, err)
					}
					if f.nCalls() != n0+1 {
						t.Fatalf("%s: %d cuBLAS calls, want 1", name, f.nCalls()-n0)
					}
					call := f.calls[len(f.calls)-1]
					if wantDT := map[T.DType]string{T.Float64: "d", T.Float32: "s"}[dt]; call.dt != wantDT {
						t.Errorf("%s: called %sgemm, want %sgemm", name, call.dt, wantDT)
					}
					if call.readsC != (beta != 0) {
						t.Errorf("%s: C read: %v", name, call.readsC)
					}
					tol := 1e-13
					if dt == T.Float32 {
						tol = 1e-5
					}
					for i := 0; i < m; i++ {
						for j := 0; j < n; j++ {
							g, w := got[i*ldc+j], want[i*ldc+j]
							if math.Abs(g-w) > tol*(1+math.Abs(w)) || math.IsNaN(g) {
								t.Fatalf("%s: C[%d,%d] = %v, want %v (call %+v)", name, i, j, g, w, call)
							}
						}
						for j := n; j < ldc; j++ { // the padding is not written
							if g, w := got[i*ldc+j], c[i*ldc+j]; g != w && !(math.IsNaN(g) && math.IsNaN(w)) && dt == T.Float64 {
								t.Fatalf("%s: padding C[%d,%d] written: %v, was %v", name, i, j, g, w)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d cuBLAS calls checked", f.nCalls())
}

func checkDone(t *testing.T, name string, done bool, err error) {
	t.Helper()
	if !done || err != nil {
		t.Fatalf("%s: gemm: done %v, err %v", name, done, err)
	}
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rng.NormFloat64()
	}
	return s
}

func to32(s []float64) []float32 {
	r := make([]float32, len(s))
	for i, v := range s {
		r[i] = float32(v)
	}
	return r
}

func to64(s []float32) []float64 {
	r := make([]float64, len(s))
	for i, v := range s {
		r[i] = float64(v)
	}
	return r
}

// addr64 and addr32 are the "device" addresses of Go slices for the fake
// (Go's heap does not move; the slices are kept alive by the test).
func addr64(s []float64) launch.Ptr { return launch.Ptr(uintptr(unsafe.Pointer(&s[0]))) }
func addr32(s []float32) launch.Ptr { return launch.Ptr(uintptr(unsafe.Pointer(&s[0]))) }

// TestCublasErrors checks that a failing cuBLAS status becomes an error
// naming the function and the status, and that calls cuBLAS would refuse
// are not made.
func TestCublasErrors(t *testing.T) {
	var f fakeCublas
	api := f.api()
	x := make([]float64, 64)
	done, err := api.gemm(0x999, T.Float64, false, false, 2, 2, 2, 1, addr64(x), 2, addr64(x), 2, 0, addr64(x[16:]), 2)
	if !done || err == nil || !strings.Contains(err.Error(), "cublasDgemm_v2: CUBLAS_STATUS_NOT_INITIALIZED (1)") {
		t.Errorf("bad handle: done %v, err %v", done, err)
	}
	done, err = api.gemm(0x999, T.Float32, false, false, 2, 2, 2, 1, addr64(x), 2, addr64(x), 2, 0, addr64(x[16:]), 1)
	if done || err != nil || f.nCalls() != 1 {
		t.Errorf("ldc < n: done %v, err %v, %d calls (want the tiled kernel: not done, no call)", done, err, f.nCalls())
	}
	if s := cublasStatusName(14); s != "CUBLAS_STATUS_INTERNAL_ERROR (14)" {
		t.Errorf("status 14: %q", s)
	}
}

// TestSetGEMM checks SetGEMM's names and errors, and that GEMM on the
// host shim (no CUDA driver) is the tiled kernel.
func TestSetGEMM(t *testing.T) {
	useCublas(nil)
	defer useCublas(nil)
	if err := SetGEMM("fast"); err == nil {
		t.Errorf("SetGEMM(fast): no error")
	}
	if err := SetGEMM("tiled"); err != nil || gemmMode() != gemmTiled {
		t.Errorf("SetGEMM(tiled): %v, mode %d", err, gemmMode())
	}
	if err := SetGEMM("auto"); err != nil || gemmMode() != gemmAuto {
		t.Errorf("SetGEMM(auto): %v, mode %d", err, gemmMode())
	}
	_, libErr := loadCublas()
	if err := SetGEMM("cublas"); (err == nil) != (libErr == nil) {
		t.Errorf("SetGEMM(cublas): %v, with libcublas loading: %v", err, libErr)
	}
	t.Logf("libcublas: %v", libErr)
	if _, err := GEMM(7); Available() != nil && !errors.Is(err, ErrNoDriver) && !errors.Is(err, ErrNoDevice) {
		t.Errorf("GEMM(7) without a device: %v", err)
	}
}

// TestCublasLibrary binds the real libcublas when one is installed (CI
// can provide Debian's libcublas11 with no GPU: .ci/run with
// GADGEN_CI_CUBLAS=1): every symbol must bind, and cublasCreate_v2 must
// succeed with a GPU and fail cleanly without one.
func TestCublasLibrary(t *testing.T) {
	api, err := bindCublas()
	// Without libcublas nothing binds: CI's go test ./... skips it; .ci/run's
	// GPU tool step runs it on Debian's libcublas11 (no GPU) with
	// GADGEN_CI_CUBLAS=1.
	if err != nil {
		t.Skipf("no cuBLAS: %v", err)
	}
	var h uintptr
	s := api.create(&h)
	t.Logf("%s: cublasCreate_v2: %s (GPU: %v)", api.lib, cublasStatusName(s), Available())
	if Available() == nil {
		if s != 0 {
			t.Fatalf("cublasCreate_v2 with a GPU: %s", cublasStatusName(s))
		}
		if s := api.destroy(h); s != 0 {
			t.Errorf("cublasDestroy_v2: %s", cublasStatusName(s))
		}
	} else if s == 0 {
		t.Errorf("cublasCreate_v2 succeeded without a GPU")
	}
}

// TestCublasDevice compares, on GPU 0, GEMM through cuBLAS with the tiled
// kernel and with the CPU, in both dtypes, every pair of transposes and
// sizes that are multiples of no tile. It skips without a GPU or without
// libcublas.
func TestCublasDevice(t *testing.T) {
	// Only on a machine with a GPU: CI has none and never runs it.
	if err := Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	useCublas(nil)
	defer useCublas(nil)
	// A GPU without libcublas: the tiled kernel alone, which
	// TestConformanceDeviceTiled checks.
	if err := SetGEMM("cublas"); err != nil {
		t.Skipf("no cuBLAS: %v", err)
	}
	s, err := GEMM(0)
	if err != nil || !strings.HasPrefix(s, "cublas") {
		t.Fatalf("GEMM(0) = %q, %v; want cuBLAS", s, err)
	}
	t.Logf("GEMM: %s", s)
	dev := Device(0)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		for _, sz := range [][3]int{{1, 1, 1}, {17, 33, 65}, {130, 70, 257}, {512, 512, 512}} {
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				m, n, k := sz[0], sz[1], sz[2]
				ashape, bshape := []int{m, k}, []int{k, n}
				if tr[0] {
					ashape = []int{k, m}
				}
				if tr[1] {
					bshape = []int{n, k}
				}
				a, b := T.RandN(rng, dt, ashape...), T.RandN(rng, dt, bshape...)
				want := T.MatMulT(a, b, tr[0], tr[1])
				ad, bd := a.To(dev), b.To(dev)
				got := map[string]*T.Tensor{}
				for _, impl := range []string{"cublas", "tiled"} {
					if err := SetGEMM(impl); err != nil {
						t.Fatal(err)
					}
					got[impl] = T.MatMulT(ad, bd, tr[0], tr[1]).To(T.CPU)
				}
				tol := 1e-12 * float64(k)
				if dt == T.Float32 {
					tol = 1e-5 * float64(k)
				}
				scale := 1 + T.MaxAll(T.Abs(want))
				for impl, g := range got {
					if d := T.MaxAbsDiff(g, want); d > tol*scale || math.IsNaN(d) {
						t.Errorf("%v %dx%dx%d trans %v: %s differs from the CPU by %v", dt, m, n, k, tr, impl, d)
					}
				}
			}
		}
	}
}

// gemmOps are the conformance suite's ops that run GEMM.
var gemmOps = map[string]bool{"MatMulT": true, "Outer": true, "Symmetrize": true, "Gram": true, "nil": true, "Conv2D": true}

// TestConformanceDeviceTiled runs the conformance suite's products on
// GPU 0 with the tiled kernel (TestConformanceDevice runs them through
// cuBLAS when it loads).
func TestConformanceDeviceTiled(t *testing.T) {
	// Only on a machine with a GPU: CI has none and never runs it (the host
	// shim's TestCublasHost and TestConformanceHost run everywhere).
	if err := Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
	useCublas(nil)
	defer useCublas(nil)
	if err := SetGEMM("tiled"); err != nil {
		t.Fatal(err)
	}
	b := deviceBackend("gpu tiled GEMM", Device(0))
	b.Skip = func(op string) (string, bool) {
		if !gemmOps[op] {
			return "not a product", true
		}
		return skipOnDevice(op)
	}
	conformanceRun(t, b)
}
