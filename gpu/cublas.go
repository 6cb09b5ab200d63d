package gpu

// This file defines GEMM through cuBLAS: the function table GEMM needs
// (bound from libcublas at run time in cublas_linux.go, or a fake in the
// tests), the mapping of BLAS's row-major GEMM to cuBLAS's column-major
// one, a cuBLAS handle per device, and the choice between cuBLAS and the
// tiled kernel of gemm.h (SetGEMM, GEMM, $GADGEN_GPU_GEMM).

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"

	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
)

// cublasAPI is the part of cuBLAS that GEMM uses: Go functions with the
// C functions' parameters, in order, with their types (int is int32,
// cublasHandle_t and cudaStream_t uintptr, device pointers uint64, alpha
// and beta host pointers: cuBLAS's default CUBLAS_POINTER_MODE_HOST),
// each returning a cublasStatus_t. bindCublas binds them to libcublas
// with purego.RegisterFunc, which passes the arguments in this order; the
// tests bind them to a fake that checks them.
type cublasAPI struct {
	lib       string                        // the library file loaded, for messages
	create    func(h *uintptr) int32        // cublasCreate_v2
	destroy   func(h uintptr) int32         // cublasDestroy_v2
	setStream func(h, stream uintptr) int32 // cublasSetStream_v2
	dgemm     func(h uintptr, transa, transb, m, n, k int32, alpha *float64, a uint64, lda int32,
		b uint64, ldb int32, beta *float64, c uint64, ldc int32) int32 // cublasDgemm_v2
	sgemm func(h uintptr, transa, transb, m, n, k int32, alpha *float32, a uint64, lda int32,
		b uint64, ldb int32, beta *float32, c uint64, ldc int32) int32 // cublasSgemm_v2
}

// cuBLAS's cublasOperation_t values.
const (
	cublasOpN int32 = 0
	cublasOpT int32 = 1
)

// cublasStatusName returns the name of a cublasStatus_t (cublas_api.h).
func cublasStatusName(s int32) string {
	names := map[int32]string{
		0: "CUBLAS_STATUS_SUCCESS", 1: "CUBLAS_STATUS_NOT_INITIALIZED", 3: "CUBLAS_STATUS_ALLOC_FAILED",
		7: "CUBLAS_STATUS_INVALID_VALUE", 8: "CUBLAS_STATUS_ARCH_MISMATCH", 11: "CUBLAS_STATUS_MAPPING_ERROR",
		13: "CUBLAS_STATUS_EXECUTION_FAILED", 14: "CUBLAS_STATUS_INTERNAL_ERROR", 15: "CUBLAS_STATUS_NOT_SUPPORTED",
		16: "CUBLAS_STATUS_LICENSE_ERROR",
	}
	if n, ok := names[s]; ok {
		return fmt.Sprintf("%s (%d)", n, s)
	}
	return fmt.Sprintf("cublasStatus_t %d", s)
}

// colGemm is one call of cuBLAS's column-major GEMM,
// C = alpha·op(A)·op(B) + beta·C with C m×n, op(A) m×k, op(B) k×n, all
// column-major: the arguments of cublas[DS]gemm_v2 after the handle, less
// alpha and beta.
type colGemm struct {
	transA, transB int32 // cublasOpN or cublasOpT
	m, n, k        int32
	a              uint64
	lda            int32
	b              uint64
	ldb            int32
	c              uint64
	ldc            int32
}

// toColMajor maps BLAS's row-major GEMM (tensorops' DeviceBackend.Gemm:
// C m×n = alpha·op(A)·op(B) + beta·C, leading dimensions counted along
// rows) to cuBLAS's column-major one. A row-major matrix read as
// column-major is its transpose, so the row-major C is the column-major
// Cᵀ = op(B)ᵀ·op(A)ᵀ: cuBLAS computes it with the operands swapped (its
// A is our B and its B our A, each with its own transpose flag and
// leading dimension), m and n swapped, and k, ldc unchanged.
//
// ok is false when cuBLAS would refuse the call: a size or leading
// dimension above 2³¹−1 (cuBLAS takes C ints), or a leading dimension
// below what cuBLAS requires (it checks lda ≥ max(1, rows of the stored
// A) and returns CUBLAS_STATUS_INVALID_VALUE where a row-major BLAS may
// accept less, e.g. for a single row); the tiled kernel then runs the
// GEMM.
func toColMajor(transA, transB bool, m, n, k int, a launch.Ptr, lda int, b launch.Ptr, ldb int, c launch.Ptr, ldc int) (g colGemm, ok bool) {
	op := func(t bool) int32 {
		if t {
			return cublasOpT
		}
		return cublasOpN
	}
	for _, v := range []int{m, n, k, lda, ldb, ldc} {
		if v < 0 || v > math.MaxInt32 {
			return colGemm{}, false
		}
	}
	g = colGemm{
		transA: op(transB), transB: op(transA),
		m: int32(n), n: int32(m), k: int32(k),
		a: uint64(b), lda: int32(ldb),
		b: uint64(a), ldb: int32(lda),
		c: uint64(c), ldc: int32(ldc),
	}
	// Rows of the stored (column-major) A and B of cuBLAS's call.
	rowsA, rowsB := g.m, g.k
	if g.transA == cublasOpT {
		rowsA = g.k
	}
	if g.transB == cublasOpT {
		rowsB = g.n
	}
	if g.lda < max(1, rowsA) || g.ldb < max(1, rowsB) || g.ldc < max(1, g.m) {
		return colGemm{}, false
	}
	return g, true
}

// gemm queues a row-major GEMM (BLAS's arguments, as toColMajor) on
// handle h. done is false, with no call made, when cuBLAS cannot take the
// arguments (toColMajor).
func (api *cublasAPI) gemm(h uintptr, dt T.DType, transA, transB bool, m, n, k int, alpha float64,
	a launch.Ptr, lda int, b launch.Ptr, ldb int, beta float64, c launch.Ptr, ldc int) (done bool, err error) {
	g, ok := toColMajor(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	if !ok {
		return false, nil
	}
	var s int32
	name := "cublasDgemm_v2"
	if dt == T.Float32 {
		name = "cublasSgemm_v2"
		al, be := float32(alpha), float32(beta)
		s = api.sgemm(h, g.transA, g.transB, g.m, g.n, g.k, &al, g.a, g.lda, g.b, g.ldb, &be, g.c, g.ldc)
	} else {
		al, be := alpha, beta
		s = api.dgemm(h, g.transA, g.transB, g.m, g.n, g.k, &al, g.a, g.lda, g.b, g.ldb, &be, g.c, g.ldc)
	}
	if s != 0 {
		return true, fmt.Errorf("gpu: %s: %s", name, cublasStatusName(s))
	}
	return true, nil
}

// blasRunner is a launcher on which cuBLAS can run: the CUDA driver's.
// withContext runs f holding the launcher's lock, on a locked OS thread
// with the device's context current, and passes it the launcher's stream
// (every cuBLAS call is queued on that stream, in order with the
// kernels).
type blasRunner interface {
	withContext(f func(stream uintptr) error) error
}

// How GEMM runs on a device (SetGEMM).
const (
	gemmAuto   int32 = iota // cuBLAS when it loads, else the tiled kernel
	gemmTiled               // the tiled kernel
	gemmCublas              // cuBLAS (SetGEMM checked that it loads)
)

var cublas struct {
	once sync.Once
	api  *cublasAPI
	err  error

	modeOnce sync.Once
	mode     atomic.Int32

	mu   sync.Mutex
	devs map[*devState]*blasDev

	// fake, when not nil, replaces libcublas (tests; set before the
	// first GEMM).
	fake func() (*cublasAPI, error)
}

// blasDev is cuBLAS's state on one device: its handle, bound to the
// device's stream, or why there is none.
type blasDev struct {
	api *cublasAPI
	run blasRunner
	h   uintptr
	err error
}

// loadCublas loads libcublas once.
func loadCublas() (*cublasAPI, error) {
	cublas.once.Do(func() {
		if cublas.fake != nil {
			cublas.api, cublas.err = cublas.fake()
		} else {
			cublas.api, cublas.err = bindCublas()
		}
	})
	return cublas.api, cublas.err
}

// gemmMode returns the GEMM choice, reading $GADGEN_GPU_GEMM on first use.
func gemmMode() int32 {
	cublas.modeOnce.Do(func() {
		switch os.Getenv("GADGEN_GPU_GEMM") {
		case "tiled":
			cublas.mode.CompareAndSwap(gemmAuto, gemmTiled)
		case "cublas":
			cublas.mode.CompareAndSwap(gemmAuto, gemmCublas)
		}
	})
	return cublas.mode.Load()
}

// SetGEMM chooses how GEMM (MatMul and the products built on it) runs on
// the GPUs: "cublas" (cuBLAS, libcublas.so.13, .12 or .11, loaded if
// needed), "tiled" (the package's own tiled kernel) or "auto" (cuBLAS
// when it loads, else the tiled kernel: the default). The environment
// variable GADGEN_GPU_GEMM sets the initial choice. It is meant for tests
// and benchmarks; it returns an error, leaving the choice unchanged, when
// the name is unknown or, for "cublas", when no libcublas loads. Even
// with "cublas", a GEMM whose sizes cuBLAS refuses (above 2³¹−1) runs on
// the tiled kernel, and so do all GEMMs of a device on which cuBLAS
// fails to start (GEMM says why).
func SetGEMM(impl string) error {
	var m int32
	switch impl {
	case "auto":
		m = gemmAuto
	case "tiled":
		m = gemmTiled
	case "cublas":
		if _, err := loadCublas(); err != nil {
			return fmt.Errorf("gpu: SetGEMM: %w", err)
		}
		m = gemmCublas
	default:
		return fmt.Errorf("gpu: SetGEMM: unknown GEMM %q (want \"cublas\", \"tiled\" or \"auto\")", impl)
	}
	gemmMode() // settle the environment's choice before overriding it
	cublas.mode.Store(m)
	return nil
}

// GEMM describes how GEMM runs on device id now: "cublas (LIBRARY)" or
// "tiled" with the reason cuBLAS is not used ("tiled (SetGEMM)", "tiled
// (no cuBLAS: ...)"), or the error that makes the device unusable. It
// opens the device and creates its cuBLAS handle if needed.
func GEMM(id int) (string, error) {
	st, err := state(id)
	if err != nil {
		return "", err
	}
	bd, why := st.cublasDev()
	if bd == nil {
		return "tiled (" + why + ")", nil
	}
	return "cublas (" + bd.api.lib + ")", nil
}

// errNotDriver: the device's launcher cannot run cuBLAS (the host shim).
var errNotDriver = errors.New("the device is not a CUDA driver device")

// cublasDev returns st's cuBLAS state if GEMM on st is to use cuBLAS, or
// nil and why not.
func (st *devState) cublasDev() (*blasDev, string) {
	if gemmMode() == gemmTiled {
		return nil, "SetGEMM"
	}
	cublas.mu.Lock()
	defer cublas.mu.Unlock()
	bd := cublas.devs[st]
	if bd == nil {
		bd = newBlasDev(st)
		if cublas.devs == nil {
			cublas.devs = map[*devState]*blasDev{}
		}
		cublas.devs[st] = bd
	}
	if bd.err != nil {
		return nil, "no cuBLAS: " + bd.err.Error()
	}
	return bd, ""
}

// newBlasDev creates a cuBLAS handle on st's device, bound to its stream.
// The handle keeps cuBLAS's defaults: host pointers for alpha and beta,
// and CUBLAS_DEFAULT_MATH, which does not round float32 operands to TF32
// (results keep float32's precision, as the tiled kernel's do; cuBLAS
// reads NVIDIA_TF32_OVERRIDE from the environment).
func newBlasDev(st *devState) *blasDev {
	run, ok := st.l.(blasRunner)
	if !ok {
		return &blasDev{err: errNotDriver}
	}
	api, err := loadCublas()
	if err != nil {
		return &blasDev{err: err}
	}
	bd := &blasDev{api: api, run: run}
	bd.err = run.withContext(func(stream uintptr) error {
		if s := api.create(&bd.h); s != 0 {
			return fmt.Errorf("cublasCreate_v2: %s", cublasStatusName(s))
		}
		if s := api.setStream(bd.h, stream); s != 0 {
			api.destroy(bd.h)
			bd.h = 0
			return fmt.Errorf("cublasSetStream_v2: %s", cublasStatusName(s))
		}
		return nil
	})
	return bd
}

// gemm queues a GEMM on the device through cuBLAS; done is false when
// cuBLAS cannot take the arguments (see toColMajor).
func (bd *blasDev) gemm(dt T.DType, transA, transB bool, m, n, k int, alpha float64,
	a launch.Ptr, lda int, b launch.Ptr, ldb int, beta float64, c launch.Ptr, ldc int) (done bool, err error) {
	err = bd.run.withContext(func(uintptr) error {
		var err error
		done, err = bd.api.gemm(bd.h, dt, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return err
	})
	return done, err
}
