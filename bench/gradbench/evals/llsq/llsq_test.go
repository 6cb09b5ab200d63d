package llsq

import (
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/gadtest"
)

// TestReference compares the smallest workloads with GradBench's manual
// tool (testdata; package evaltest says how to rewrite them).
func TestReference(t *testing.T) {
	evaltest.Check(t, "llsq", Module)
}

// TestGradient checks ObjectiveGrad against central differences, with an
// odd and an even number of sample points (t = 0 is a sample when n is
// odd) and polynomials of a few degrees.
func TestGradient(t *testing.T) {
	for _, c := range []struct{ n, m int }{{2, 1}, {3, 3}, {7, 4}, {16, 8}, {33, 12}} {
		f := func(x []float64) float64 { return Objective(x, c.n) }
		g := func(x, xBar []float64) float64 { return ObjectiveGrad(x, xBar, c.n) }
		gadtest.Grad(t, f, g, gadtest.Dim(c.m), gadtest.Points(3))
	}
}
