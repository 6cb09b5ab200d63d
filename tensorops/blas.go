package tensorops

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// blasImpl is a BLAS backend: row-major GEMM, SYMM and SYRK on float64
// and float32, with gonum's row-major conventions. Arguments are valid (the
// callers check them); m, n and k are positive.
//
//   - gemm: C = alpha·op(A)·op(B) + beta·C, C m×n, op(A) m×k, op(B) k×n.
//   - symm: C = alpha·A·B + beta·C (left) or alpha·B·A + beta·C (right),
//     C and B m×n, A symmetric (m×m on the left, n×n on the right), only its
//     upper triangle read.
//   - syrk: C = alpha·op(A)·op(A)ᵀ + beta·C, C n×n, op(A) n×k (A is k×n
//     when tA), only C's upper triangle written.
type blasImpl interface {
	name() string
	dgemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)
	sgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	dsymm(right bool, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)
	ssymm(right bool, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	dsyrk(tA bool, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int)
	ssyrk(tA bool, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int)
	setThreads(n int)
}

func side(right bool) blas.Side {
	if right {
		return blas.Right
	}
	return blas.Left
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// gonumBLAS is the pure-Go backend.
type gonumBLAS struct{}

func (gonumBLAS) name() string { return "gonum (pure Go)" }

func (gonumBLAS) dgemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	gonum.Implementation{}.Dgemm(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (gonumBLAS) sgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gonum.Implementation{}.Sgemm(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (gonumBLAS) dsymm(right bool, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	gonum.Implementation{}.Dsymm(side(right), blas.Upper, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (gonumBLAS) ssymm(right bool, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gonum.Implementation{}.Ssymm(side(right), blas.Upper, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (gonumBLAS) dsyrk(tA bool, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	gonum.Implementation{}.Dsyrk(blas.Upper, trans(tA), n, k, alpha, a, lda, beta, c, ldc)
}

func (gonumBLAS) ssyrk(tA bool, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) {
	gonum.Implementation{}.Ssyrk(blas.Upper, trans(tA), n, k, alpha, a, lda, beta, c, ldc)
}

func (gonumBLAS) setThreads(int) {}

var (
	blasOnce sync.Once
	blasCur  atomic.Pointer[blasImpl]

	cblasOnce  sync.Once
	cblasImpl  blasImpl // the C library's backend, nil if none loaded
	cblasErr   error
	cblasTried atomic.Bool // cblasOnce has run
)

// loadCBLAS loads a C BLAS library once (see loadLibBLAS).
func loadCBLAS() (blasImpl, error) {
	cblasOnce.Do(func() {
		cblasImpl, cblasErr = loadLibBLAS()
		if cblasImpl != nil && threadsSet.Load() {
			cblasImpl.setThreads(Threads())
		}
		cblasTried.Store(true)
	})
	return cblasImpl, cblasErr
}

// backend returns the current BLAS backend, choosing it on first use:
// OpenBLAS (or another C BLAS) when one loads and GADGEN_BLAS is not
// "gonum", else gonum.
func backend() blasImpl {
	blasOnce.Do(func() {
		var b blasImpl = gonumBLAS{}
		if os.Getenv("GADGEN_BLAS") != "gonum" {
			if c, err := loadCBLAS(); err == nil {
				b = c
			}
		}
		blasCur.CompareAndSwap(nil, &b)
	})
	return *blasCur.Load()
}

// BLAS returns the name of the BLAS backend in use, choosing it if no
// operation has yet: "openblas (libopenblas.so.0)" (the library file
// loaded), "cblas (libblas.so.3)" for a generic C BLAS, or "gonum (pure Go)".
func BLAS() string { return backend().name() }

// SetBLAS switches the BLAS backend: "openblas" (the C BLAS library, loaded
// if needed: libopenblas.so.0, libopenblas.so, then libblas.so.3) or
// "gonum" (pure Go). It is meant for tests and benchmarks; it is safe to
// call concurrently with operations, which use one backend or the other.
// It returns an error when the name is unknown or the library cannot be
// loaded, and then leaves the backend unchanged.
func SetBLAS(name string) error {
	var b blasImpl
	switch name {
	case "gonum":
		b = gonumBLAS{}
	case "openblas", "cblas":
		c, err := loadCBLAS()
		if err != nil {
			return fmt.Errorf("tensorops: SetBLAS: %v", err)
		}
		b = c
	default:
		return fmt.Errorf("tensorops: SetBLAS: unknown backend %q (want \"openblas\" or \"gonum\")", name)
	}
	backend() // settle the first-use choice before overriding it
	blasCur.Store(&b)
	return nil
}

// applyBLASThreads passes the thread count to a loaded C BLAS.
func applyBLASThreads() {
	if cblasTried.Load() {
		if c, _ := loadCBLAS(); c != nil {
			c.setThreads(Threads())
		}
	}
}
