package det

import (
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/gadtest"
)

// TestModule runs GradBench's smallest det workloads (ℓ = 5, 6) through
// the module against the reference tool's outputs.
func TestModule(t *testing.T) { evaltest.Check(t, "det", Module) }

// TestGrad checks DetGrad, reverse mode through the recursion, against
// central differences, for ℓ = 1 … 5.
func TestGrad(t *testing.T) {
	for ell := 1; ell <= 5; ell++ {
		gadtest.Grad(t, func(a []float64) float64 { return Det(a, ell) },
			func(a, aBar []float64) float64 { return DetGrad(a, aBar, ell) },
			gadtest.Dim(ell*ell), gadtest.Seed(uint64(ell)))
	}
}

// TestKnown checks Det on matrices whose determinant is known.
func TestKnown(t *testing.T) {
	for _, c := range []struct {
		a    []float64
		ell  int
		want float64
	}{
		{[]float64{3}, 1, 3},
		{[]float64{1, 2, 3, 4}, 2, -2},
		{[]float64{2, 0, 0, 0, 3, 0, 0, 0, 4}, 3, 24},
		{[]float64{0, 1, 0, 1, 0, 0, 0, 0, 1}, 3, -1},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 10}, 3, -3},
	} {
		if got := Det(c.a, c.ell); got != c.want {
			t.Errorf("Det(%v) = %v, want %v", c.a, got, c.want)
		}
	}
}
