package lstm

import (
	"fmt"
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/bench/gradbench/suite"
	"github.com/gadgen/gadgen/gadtest"
)

// TestReference compares the smallest workload, read from ADBench's data
// file in testdata/lstm/data, with GradBench's manual tool
// (testdata; package evaltest says how to rewrite them).
func TestReference(t *testing.T) {
	evaltest.CheckWith(t, "lstm", Module, suite.Options{History: "testdata"})
}

// TestGradient checks ObjectiveGrad against central differences with
// respect to main and extra, concatenated, on a random state and a random
// bit sequence.
func TestGradient(t *testing.T) {
	for _, c := range []struct{ l, b, c int }{{1, 1, 2}, {1, 3, 4}, {2, 4, 5}, {3, 2, 6}} {
		t.Run(fmt.Sprintf("l=%d,b=%d,c=%d", c.l, c.b, c.c), func(t *testing.T) {
			r := gadtest.NewRand(uint64(c.l*100 + c.b))
			state := gadtest.Uniform(r, 2*c.l*c.b, 0, 1)
			seq := make([]float64, c.c*c.b)
			for i := range seq {
				seq[i] = float64(r.IntN(2))
			}
			nm := 8 * c.l * c.b
			f := func(v []float64) float64 { return Objective(v[:nm], v[nm:], state, seq) }
			grad := func(v, vBar []float64) float64 {
				return ObjectiveGrad(v[:nm], vBar[:nm], v[nm:], vBar[nm:], state, seq)
			}
			gadtest.Grad(t, f, grad, gadtest.Box(nm+3*c.b, -1, 1), gadtest.Points(2))
		})
	}
}

// TestStateUnchanged checks that the loss and its gradient leave the
// state they start from as it was.
func TestStateUnchanged(t *testing.T) {
	r := gadtest.NewRand(3)
	l, b, c := 2, 3, 4
	main, extra := gadtest.Uniform(r, 8*l*b, -1, 1), gadtest.Uniform(r, 3*b, -1, 1)
	state := gadtest.Uniform(r, 2*l*b, 0, 1)
	seq := gadtest.Uniform(r, c*b, 0, 1)
	want := append([]float64(nil), state...)
	Objective(main, extra, state, seq)
	ObjectiveGrad(main, make([]float64, len(main)), extra, make([]float64, len(extra)), state, seq)
	gadtest.Close(t, "state", state, want, 0)
}
