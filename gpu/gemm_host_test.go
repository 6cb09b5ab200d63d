//go:build cgo

package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/gpu/internal/kern"
	"github.com/gadgen/gadgen/gpu/internal/launch"
	T "github.com/gadgen/gadgen/tensorops"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestHostGemmTiled runs the tiled GEMM kernels of gemm.h through the
// host shim (backend.Gemm with no cuBLAS: the Go launch configuration
// and the kernels) at sizes that are multiples of no tile and straddle
// the tiles (m, n, k in 0, 1, 7, 63, 64, 65, 130), every pair of
// transposes, alpha and beta (beta = 0 with NaNs in C, which must not
// propagate), leading dimensions wider than the rows (multiples of the
// 16-byte vector, so that the kernels' vector loads and stores run up to
// the edges, or not) and operands at offsets that break the vector
// alignment, and compares C with gonum's Dgemm (float32: on the float32
// inputs) within a bound on the rounding error. The elements of A and B
// around the matrices are NaNs, which must not reach C; those of C's
// buffer outside C must be left alone.
func TestHostGemmTiled(t *testing.T) {
	useLaunchers(func(int) launch.Launcher { return kern.Host() })
	defer useLaunchers(nil)
	if s, err := GEMM(0); err != nil || !strings.HasPrefix(s, "tiled") {
		t.Fatalf("GEMM(0) on the host shim: %q, %v", s, err)
	}
	sizes := [][3]int{
		{1, 1, 1}, {7, 7, 7}, {63, 65, 64}, {64, 64, 64}, {65, 63, 130}, {130, 130, 65},
		{1, 130, 7}, {130, 1, 63}, {7, 64, 1}, {64, 7, 130}, {65, 1, 65}, {130, 63, 1},
		{63, 130, 0}, {0, 7, 7},
	}
	type variant struct {
		alpha, beta float64
		pad         int // leading dimension: width + pad, or with pad < 0 the width rounded up to a multiple of 4, + 4 + pad + 1
		off         int // the operands start at element off
	}
	variants := []variant{
		{1, 0, -1, 0}, {1.5, -0.5, 3, 1}, {-2, 0, -1, 0}, {0.5, 1, 0, 2}, {1, 0, 1, 3}, {-1, 2, -1, 0}, {1, 0, -5, 0},
	}
	ld := func(width, pad int) int {
		width = max(width, 1)
		if pad < 0 {
			return (width+3)/4*4 + 4 + pad + 1
		}
		return width + pad
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var be backend
	dev := Device(0)
	cases := 0
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		for si, sz := range sizes {
			for ti, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				m, n, k := sz[0], sz[1], sz[2]
				ta, tb := tr[0], tr[1]
				v := variants[(si+ti)%len(variants)]
				name := fmt.Sprintf("%v/%dx%dx%d/ta=%v,tb=%v/alpha=%v,beta=%v,pad=%d,off=%d", dt, m, n, k, ta, tb, v.alpha, v.beta, v.pad, v.off)
				// Row-major: A m×k (k×m when ta), B k×n (n×k when tb), C m×n.
				ar, ac := m, k
				if ta {
					ar, ac = k, m
				}
				br, bc := k, n
				if tb {
					br, bc = n, k
				}
				lda, ldb, ldc := ld(ac, v.pad), ld(bc, v.pad), ld(n, v.pad)
				a, b, c := randSlice(rng, v.off+ar*lda+3), randSlice(rng, v.off+br*ldb+3), randSlice(rng, v.off+m*ldc+3)
				nanOutside := func(s []float64, rows, cols, ld int) {
					for i := range s {
						if r, c := (i-v.off)/ld, (i-v.off)%ld; i < v.off || r >= rows || c >= cols {
							s[i] = math.NaN()
						}
					}
				}
				nanOutside(a, ar, ac, lda)
				nanOutside(b, br, bc, ldb)
				if v.beta == 0 {
					for i := range c {
						c[i] = math.NaN()
					}
				}
				if dt == T.Float32 { // the reference on the float32 inputs
					a, b, c = to64(to32(a)), to64(to32(b)), to64(to32(c))
				}
				want := append([]float64(nil), c...)
				if v.beta == 0 {
					clear(want[v.off:])
				}
				// bound: the error of the computed alpha·A·B + beta·C, from |alpha|·|A|·|B| + |beta|·|C|
				abs := func(s []float64) []float64 {
					r := make([]float64, len(s))
					for i, x := range s {
						r[i] = math.Abs(x)
					}
					return r
				}
				bound := make([]float64, len(c))
				if v.beta != 0 {
					copy(bound, abs(c))
				}
				if m > 0 && n > 0 {
					impl := gonum.Implementation{}
					impl.Dgemm(trans(ta), trans(tb), m, n, k, v.alpha, a[v.off:], lda, b[v.off:], ldb, v.beta, want[v.off:], ldc)
					impl.Dgemm(trans(ta), trans(tb), m, n, k, math.Abs(v.alpha), abs(a[v.off:]), lda, abs(b[v.off:]), ldb, math.Abs(v.beta), bound[v.off:], ldc)
				}

				up := func(s []float64) T.DeviceBuffer {
					buf, err := be.Alloc(dev, dt, len(s))
					if err != nil {
						t.Fatal(err)
					}
					var src any = s
					if dt == T.Float32 {
						src = to32(s)
					}
					if err := be.Upload(buf, 0, src); err != nil {
						t.Fatal(err)
					}
					return buf
				}
				da, db, dc := up(a), up(b), up(c)
				if err := be.Gemm(dt, ta, tb, m, n, k, v.alpha, da, v.off, lda, db, v.off, ldb, v.beta, dc, v.off, ldc); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := make([]float64, len(c))
				if dt == T.Float32 {
					g32 := make([]float32, len(c))
					if err := be.Download(g32, dc, 0); err != nil {
						t.Fatal(err)
					}
					got = to64(g32)
				} else if err := be.Download(got, dc, 0); err != nil {
					t.Fatal(err)
				}

				eps := 0x1p-52
				if dt == T.Float32 {
					eps = 0x1p-23
				}
				for i := range c {
					row, col := (i-v.off)/ldc, (i-v.off)%ldc
					if i < v.off || col >= n || row >= m { // not C's: untouched
						if g, w := got[i], c[i]; g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
							t.Fatalf("%s: element %d outside C written: %v, was %v", name, i, g, w)
						}
						continue
					}
					g, w := got[i], want[i]
					if tol := float64(k+2) * eps * bound[i]; math.IsNaN(g) || math.Abs(g-w) > tol {
						t.Fatalf("%s: C[%d,%d] = %v, want %v (±%.3g)", name, row, col, g, w, tol)
					}
				}
				cases++
			}
		}
	}
	t.Logf("%d GEMMs checked", cases)
}
