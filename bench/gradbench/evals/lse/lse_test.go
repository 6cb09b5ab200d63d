package lse

import (
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/gadtest"
)

// TestReference compares the smallest workload with GradBench's manual
// tool (testdata; package evaltest says how to rewrite them).
func TestReference(t *testing.T) {
	evaltest.Check(t, "lse", Module)
}

// TestGradient checks LogSumExpGrad against central differences, on
// GradBench's range [0, 1) and on one wide enough that exp(x) alone would
// overflow.
func TestGradient(t *testing.T) {
	for _, c := range []struct {
		n      int
		lo, hi float64
	}{{1, 0, 1}, {2, 0, 1}, {9, 0, 1}, {9, -800, 800}} {
		gadtest.Grad(t, LogSumExp, LogSumExpGrad, gadtest.Box(c.n, c.lo, c.hi), gadtest.Points(3))
	}
}
