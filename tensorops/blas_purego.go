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
type cBLAS struct {
	lib        string
	openblas   bool
	dgemm_     uintptr
	sgemm_     uintptr
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

func loadLibBLAS() (blasImpl, error) {
	var errs []string
	for _, name := range libBLASNames {
		h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		c := &cBLAS{lib: name}
		c.dgemm_, err = purego.Dlsym(h, "dgemm_")
		if err == nil {
			c.sgemm_, err = purego.Dlsym(h, "sgemm_")
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
