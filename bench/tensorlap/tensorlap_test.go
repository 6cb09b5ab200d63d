package tensorlap

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// TestLaplacian checks every method, optimized and not, against the trace
// of the unoptimized HVPs.
func TestLaplacian(t *testing.T) {
	n, x := New(6, 8, 4, 1)
	want := ByHVP(FHVPO0)(n, x)
	for _, m := range Methods {
		for _, c := range []struct {
			what string
			f    func(*Net, *tensorops.Tensor) float64
		}{{"optimized", m.Opt}, {"opt=0", m.O0}} {
			if got := c.f(n, x); !(math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))) {
				t.Errorf("%s, %s: %v, want %v", m.Name, c.what, got, want)
			}
		}
	}
	// FLaplacian takes F's value from its first jet, whose matrix products
	// stack the primal's rows with the directions' into one GEMM: the pure-Go
	// BLAS computes each row as a one-row product does, bit for bit, but a
	// C BLAS may pick another kernel for the taller product (OpenBLAS 0.3.21
	// on AVX-512 differs in the last bit), hence a few ulps there.
	tol := 0.0
	if !strings.HasPrefix(tensorops.BLAS(), "gonum") {
		tol = 4 * 0x1p-52
	}
	if f, fx := first(FLaplacian(n, x)), F(n, x); !(math.Abs(f-fx) <= tol*math.Abs(fx)) {
		t.Errorf("FLaplacian's value %v, F %v (BLAS %s)", f, fx, tensorops.BLAS())
	}
}

// BenchmarkLaplacian times each method of the table at each width, with
// and without optimization, one thread (cmd/table runs the same
// measurements interleaved and writes the table).
func BenchmarkLaplacian(b *testing.B) {
	tensorops.SetThreads(1)
	defer tensorops.SetThreads(0)
	for _, hidden := range Widths {
		n, x := New(InputDim, hidden, Layers, 1)
		for _, m := range Methods {
			var off float64
			b.Run(fmt.Sprintf("h=%d/%s/opt=0", hidden, m.Name), func(b *testing.B) {
				for b.Loop() {
					m.O0(n, x)
				}
				off = float64(b.Elapsed()) / float64(b.N)
			})
			b.Run(fmt.Sprintf("h=%d/%s/opt", hidden, m.Name), func(b *testing.B) {
				for b.Loop() {
					m.Opt(n, x)
				}
				b.ReportMetric(off/(float64(b.Elapsed())/float64(b.N)), "speedup")
			})
		}
	}
}

// first returns the first of two results.
func first(f, _ float64) float64 { return f }
