package tensorlap

import (
	"fmt"
	"math"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
)

// TestLaplacian checks collapsed Taylor mode against the trace of HVPs.
func TestLaplacian(t *testing.T) {
	n, x := New(6, 8, 4, 1)
	f, lap := FLaplacian(n, x)
	want := LaplacianByHVP(n, x)
	if f != F(n, x) || math.Abs(lap-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("Laplacian %v (value %v), trace of the HVPs %v (value %v)", lap, f, want, F(n, x))
	}
}

// BenchmarkLaplacian times the Laplacian of a 64-layer tanh perceptron on
// inputs of dimension 32, by collapsed Taylor mode and by D HVPs, one
// thread, and reports their ratio (collapsed / HVPs).
func BenchmarkLaplacian(b *testing.B) {
	tensorops.SetThreads(1)
	defer tensorops.SetThreads(0)
	const d, layers = 32, 64
	for _, hidden := range []int{128, 256, 384, 512} {
		n, x := New(d, hidden, layers, 1)
		var tHVP float64
		b.Run(fmt.Sprintf("h=%d/hvps", hidden), func(b *testing.B) {
			for b.Loop() {
				LaplacianByHVP(n, x)
			}
			tHVP = float64(b.Elapsed()) / float64(b.N)
		})
		b.Run(fmt.Sprintf("h=%d/collapsed", hidden), func(b *testing.B) {
			for b.Loop() {
				FLaplacian(n, x)
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/tHVP, "x_hvps")
		})
	}
}
