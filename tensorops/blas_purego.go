//go:build (linux || darwin) && (amd64 || arm64) && !android && !ios

package tensorops

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// libBLASNames are the C BLAS libraries tried, in order.
var libBLASNames = []string{"libopenblas.so.0", "libopenblas.so", "libblas.so.3", "libopenblas.dylib", "libblas.dylib"}

// cBLAS calls a C BLAS library loaded at run time with purego (no cgo).
//
// GEMM goes through the Fortran interface (dgemm_, sgemm_), which takes
// every argument by pointer: purego.SyscallN passes integer-class arguments
// only, and cblas_dgemm's alpha and beta are doubles passed in registers.
// (purego.RegisterFunc could take cblas_dgemm's 12 integer and 2 float
// arguments on amd64 and arm64, within its limits of 32 arguments and 8 float
// registers, but it calls through reflection: about a microsecond a call, 10%
// of a 64×64 GEMM.) Row-major C = op(A)·op(B) is column-major
// Cᵀ = op(B)ᵀ·op(A)ᵀ, so the operands are passed swapped.
//
// SYMM and SYRK (dsymm_, ssymm_, dsyrk_, ssyrk_) go the same way: a
// row-major matrix's elements are its transpose's in column-major order.
// Row-major C = A·B (A symmetric, on the left) is column-major
// Cᵀ = Bᵀ·Aᵀ = Bᵀ·A: SYMM with A on the right and m and n swapped (and
// symmetrically for A on the right). Row-major C = A·Aᵀ reads A's elements
// as the column-major Aᵀ, and A·Aᵀ = (Aᵀ)ᵀ·Aᵀ: SYRK of that matrix with the
// opposite trans flag (likewise Aᵀ·A); C, symmetric, is the same matrix
// in either order. A row-major upper triangle is a column-major lower one
// (uplo 'L').
type cBLAS struct {
	lib        string
	openblas   bool
	dgemm_     uintptr
	sgemm_     uintptr
	dsymm_     uintptr
	ssymm_     uintptr
	dsyrk_     uintptr
	ssyrk_     uintptr
	setThreadn uintptr // openblas_set_num_threads, 0 if absent
	getThreadn uintptr // openblas_get_num_threads, 0 if absent
}

// gemmArgs holds the by-pointer scalar arguments of one GEMM call.
type gemmArgs struct {
	ta, tb       byte
	m, n, k      int32
	lda, ldb     int32
	ldc          int32
	alpha, beta  float64
	salpha, sbet float32
}

var gemmArgsPool = sync.Pool{New: func() any { return new(gemmArgs) }}

// symArgs holds the by-pointer scalar arguments of one SYMM or SYRK call
// (SYRK's N and K in m and n).
type symArgs struct {
	side, uplo, trans byte
	m, n              int32
	lda, ldb, ldc     int32
	alpha, beta       float64
	salpha, sbeta     float32
}

var symArgsPool = sync.Pool{New: func() any { return new(symArgs) }}

func loadLibBLAS() (blasImpl, error) {
	var errs []string
	for _, name := range libBLASNames {
		h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		c := &cBLAS{lib: name}
		for _, sym := range []struct {
			name string
			p    *uintptr
		}{{"dgemm_", &c.dgemm_}, {"sgemm_", &c.sgemm_}, {"dsymm_", &c.dsymm_}, {"ssymm_", &c.ssymm_}, {"dsyrk_", &c.dsyrk_}, {"ssyrk_", &c.ssyrk_}} {
			if *sym.p, err = purego.Dlsym(h, sym.name); err != nil {
				break
			}
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", name, err))
			purego.Dlclose(h)
			continue
		}
		if p, err := purego.Dlsym(h, "openblas_set_num_threads"); err == nil {
			c.setThreadn, c.openblas = p, true
		}
		if p, err := purego.Dlsym(h, "openblas_get_num_threads"); err == nil {
			c.getThreadn = p
		}
		return c, nil
	}
	return nil, errors.New("no BLAS library loaded: " + strings.Join(errs, "; "))
}

func (c *cBLAS) name() string {
	if c.openblas {
		return "openblas (" + c.lib + ")"
	}
	return "cblas (" + c.lib + ")"
}

func tchar(t bool) byte {
	if t {
		return 'T'
	}
	return 'N'
}

func (c *cBLAS) dgemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, cc []float64, ldc int) {
	p := gemmArgsPool.Get().(*gemmArgs)
	*p = gemmArgs{ta: tchar(tA), tb: tchar(tB), m: int32(m), n: int32(n), k: int32(k),
		lda: int32(lda), ldb: int32(ldb), ldc: int32(ldc), alpha: alpha, beta: beta}
	purego.SyscallN(c.dgemm_,
		uintptr(unsafe.Pointer(&p.tb)), uintptr(unsafe.Pointer(&p.ta)),
		uintptr(unsafe.Pointer(&p.n)), uintptr(unsafe.Pointer(&p.m)), uintptr(unsafe.Pointer(&p.k)),
		uintptr(unsafe.Pointer(&p.alpha)),
		uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&p.ldb)),
		uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&p.lda)),
		uintptr(unsafe.Pointer(&p.beta)),
		uintptr(unsafe.Pointer(&cc[0])), uintptr(unsafe.Pointer(&p.ldc)),
		1, 1) // the hidden lengths of the two character arguments
	gemmArgsPool.Put(p)
}

func (c *cBLAS) sgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, cc []float32, ldc int) {
	p := gemmArgsPool.Get().(*gemmArgs)
	*p = gemmArgs{ta: tchar(tA), tb: tchar(tB), m: int32(m), n: int32(n), k: int32(k),
		lda: int32(lda), ldb: int32(ldb), ldc: int32(ldc), salpha: alpha, sbet: beta}
	purego.SyscallN(c.sgemm_,
		uintptr(unsafe.Pointer(&p.tb)), uintptr(unsafe.Pointer(&p.ta)),
		uintptr(unsafe.Pointer(&p.n)), uintptr(unsafe.Pointer(&p.m)), uintptr(unsafe.Pointer(&p.k)),
		uintptr(unsafe.Pointer(&p.salpha)),
		uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&p.ldb)),
		uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&p.lda)),
		uintptr(unsafe.Pointer(&p.sbet)),
		uintptr(unsafe.Pointer(&cc[0])), uintptr(unsafe.Pointer(&p.ldc)),
		1, 1)
	gemmArgsPool.Put(p)
}

// symmArgs returns the Fortran arguments of row-major SYMM (see cBLAS):
// the other side, the lower triangle, m and n swapped.
func symmArgs(right bool, m, n, lda, ldb, ldc int) *symArgs {
	p := symArgsPool.Get().(*symArgs)
	*p = symArgs{side: 'R', uplo: 'L', m: int32(n), n: int32(m), lda: int32(lda), ldb: int32(ldb), ldc: int32(ldc)}
	if right {
		p.side = 'L'
	}
	return p
}

func (c *cBLAS) dsymm(right bool, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, cc []float64, ldc int) {
	p := symmArgs(right, m, n, lda, ldb, ldc)
	p.alpha, p.beta = alpha, beta
	purego.SyscallN(c.dsymm_,
		uintptr(unsafe.Pointer(&p.side)), uintptr(unsafe.Pointer(&p.uplo)),
		uintptr(unsafe.Pointer(&p.m)), uintptr(unsafe.Pointer(&p.n)),
		uintptr(unsafe.Pointer(&p.alpha)),
		uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&p.lda)),
		uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&p.ldb)),
		uintptr(unsafe.Pointer(&p.beta)),
		uintptr(unsafe.Pointer(&cc[0])), uintptr(unsafe.Pointer(&p.ldc)),
		1, 1) // the hidden lengths of the two character arguments
	symArgsPool.Put(p)
}

func (c *cBLAS) ssymm(right bool, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, cc []float32, ldc int) {
	p := symmArgs(right, m, n, lda, ldb, ldc)
	p.salpha, p.sbeta = alpha, beta
	purego.SyscallN(c.ssymm_,
		uintptr(unsafe.Pointer(&p.side)), uintptr(unsafe.Pointer(&p.uplo)),
		uintptr(unsafe.Pointer(&p.m)), uintptr(unsafe.Pointer(&p.n)),
		uintptr(unsafe.Pointer(&p.salpha)),
		uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&p.lda)),
		uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&p.ldb)),
		uintptr(unsafe.Pointer(&p.sbeta)),
		uintptr(unsafe.Pointer(&cc[0])), uintptr(unsafe.Pointer(&p.ldc)),
		1, 1)
	symArgsPool.Put(p)
}

// syrkArgs returns the Fortran arguments of row-major SYRK (see cBLAS):
// the lower triangle, the opposite trans flag.
func syrkArgs(tA bool, n, k, lda, ldc int) *symArgs {
	p := symArgsPool.Get().(*symArgs)
	*p = symArgs{uplo: 'L', trans: tchar(!tA), m: int32(n), n: int32(k), lda: int32(lda), ldc: int32(ldc)}
	return p
}

func (c *cBLAS) dsyrk(tA bool, n, k int, alpha float64, a []float64, lda int, beta float64, cc []float64, ldc int) {
	p := syrkArgs(tA, n, k, lda, ldc)
	p.alpha, p.beta = alpha, beta
	purego.SyscallN(c.dsyrk_,
		uintptr(unsafe.Pointer(&p.uplo)), uintptr(unsafe.Pointer(&p.trans)),
		uintptr(unsafe.Pointer(&p.m)), uintptr(unsafe.Pointer(&p.n)),
		uintptr(unsafe.Pointer(&p.alpha)),
		uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&p.lda)),
		uintptr(unsafe.Pointer(&p.beta)),
		uintptr(unsafe.Pointer(&cc[0])), uintptr(unsafe.Pointer(&p.ldc)),
		1, 1)
	symArgsPool.Put(p)
}

func (c *cBLAS) ssyrk(tA bool, n, k int, alpha float32, a []float32, lda int, beta float32, cc []float32, ldc int) {
	p := syrkArgs(tA, n, k, lda, ldc)
	p.salpha, p.sbeta = alpha, beta
	purego.SyscallN(c.ssyrk_,
		uintptr(unsafe.Pointer(&p.uplo)), uintptr(unsafe.Pointer(&p.trans)),
		uintptr(unsafe.Pointer(&p.m)), uintptr(unsafe.Pointer(&p.n)),
		uintptr(unsafe.Pointer(&p.salpha)),
		uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&p.lda)),
		uintptr(unsafe.Pointer(&p.sbeta)),
		uintptr(unsafe.Pointer(&cc[0])), uintptr(unsafe.Pointer(&p.ldc)),
		1, 1)
	symArgsPool.Put(p)
}

func (c *cBLAS) setThreads(n int) {
	if c.setThreadn != 0 {
		purego.SyscallN(c.setThreadn, uintptr(n))
	}
}

// threads returns OpenBLAS's number of threads, or 0 if unknown.
func (c *cBLAS) threads() int {
	if c.getThreadn == 0 {
		return 0
	}
	r, _, _ := purego.SyscallN(c.getThreadn)
	return int(int32(r))
}
