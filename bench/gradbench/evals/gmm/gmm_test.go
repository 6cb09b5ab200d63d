package gmm

import (
	"fmt"
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/gadtest"
)

// TestReference compares the smallest workloads with GradBench's manual
// tool (testdata; package evaltest says how to rewrite them).
func TestReference(t *testing.T) {
	evaltest.Check(t, "gmm", Module)
}

// TestGradient checks LogPosteriorGrad against central differences with
// respect to all of alpha, mu, q and l, flattened in that order, with
// priors other than GradBench's m = 0, γ = 1 too.
func TestGradient(t *testing.T) {
	for _, c := range []struct {
		d, k, n, m int
		gamma      float64
	}{{1, 1, 3, 0, 1}, {2, 3, 5, 0, 1}, {3, 2, 4, 2, 0.7}, {4, 3, 6, 1, 1.5}} {
		t.Run(fmt.Sprintf("d=%d,k=%d,n=%d,m=%d,gamma=%g", c.d, c.k, c.n, c.m, c.gamma), func(t *testing.T) {
			nl := c.d * (c.d - 1) / 2
			x := gadtest.Uniform(gadtest.NewRand(uint64(c.d)), c.n*c.d, -1, 1)
			// split cuts a point into alpha, mu, q and l.
			split := func(v []float64) (alpha, mu, q, l []float64) {
				k, kd := c.k, c.k*c.d
				return v[:k], v[k : k+kd], v[k+kd : k+2*kd], v[k+2*kd:]
			}
			f := func(v []float64) float64 {
				alpha, mu, q, l := split(v)
				return LogPosterior(alpha, mu, q, l, x, c.d, c.m, c.gamma)
			}
			grad := func(v, vBar []float64) float64 {
				alpha, mu, q, l := split(v)
				aBar, muBar, qBar, lBar := split(vBar)
				return LogPosteriorGrad(alpha, aBar, mu, muBar, q, qBar, l, lBar, x, c.d, c.m, c.gamma)
			}
			gadtest.Grad(t, f, grad, gadtest.Dim(c.k+2*c.k*c.d+c.k*nl), gadtest.Points(2))
		})
	}
}
