package ode

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/bench/internal/verify"
)

// The sizes have 4·steps ≥ n, so that the output and its gradient are not
// identically zero (see the package comment), except the last, which checks
// that the zero case is handled.
var sizes = []struct{ n, steps int }{{1, 1}, {2, 1}, {4, 1}, {5, 2}, {8, 3}, {20, 10}, {40, 100}, {30, 3}}

func TestHandGrad(t *testing.T) {
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("n=%d,s=%d", sz.n, sz.steps), func(t *testing.T) {
			f := func(x []float64) float64 { return Final(x, sz.steps) }
			x := Point(sz.n, uint64(sz.n))
			g := make([]float64, sz.n)
			if err := verify.Value(HandGrad(x, g, sz.steps), f(x), verify.Exact); err != nil {
				t.Error(err)
			}
			if err := verify.FDGradient(f, x, g, verify.FD); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestJVP(t *testing.T) {
	for _, sz := range append(sizes, struct{ n, steps int }{1000, 300}) {
		t.Run(fmt.Sprintf("n=%d,s=%d", sz.n, sz.steps), func(t *testing.T) {
			x := Point(sz.n, uint64(sz.n))
			g := make([]float64, sz.n)
			HandGrad(x, g, sz.steps)
			rnd := rand.New(rand.NewPCG(uint64(sz.n), 7))
			for range 3 {
				v := make([]float64, sz.n)
				for i := range v {
					v[i] = rnd.NormFloat64()
				}
				f, df := FinalJVP(x, v, sz.steps)
				if err := verify.Value(f, Final(x, sz.steps), verify.Exact); err != nil {
					t.Error(err)
				}
				if err := verify.Dot(df, g, v, verify.Exact); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
