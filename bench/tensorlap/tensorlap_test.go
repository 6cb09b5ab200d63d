package tensorlap

import (
	"fmt"
	"math"
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
	if f, _ := FLaplacian(n, x); f != F(n, x) {
		t.Errorf("FLaplacian's value %v, F %v", f, F(n, x))
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
