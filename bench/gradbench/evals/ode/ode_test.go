package ode

import (
	"fmt"
	"math"
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/bench/gradbench/suite/nprand"
	"github.com/gadgen/gadgen/gadtest"
)

// TestReference compares the smallest workload with GradBench's manual
// tool (testdata; package evaltest says how to rewrite them).
// Its gradient is zero on both sides (see the package comment): the
// reference checks the primal's state and the gradient's shape only.
func TestReference(t *testing.T) {
	evaltest.Check(t, "ode", Module)
}

// sizes have 4s ≥ n, where the last component and its gradient are not
// zero, and are small enough that they do not underflow.
var sizes = []struct{ n, s int }{{1, 1}, {2, 1}, {4, 1}, {5, 2}, {8, 3}, {20, 10}, {40, 100}, {100, 25}}

// TestGradient checks LastGrad against central differences, with no
// absolute floor: the gradient's components are as small as 1e-150 at
// the larger sizes. The points are GradBench's kind, in [0, 1).
func TestGradient(t *testing.T) {
	for _, c := range sizes {
		t.Run(fmt.Sprintf("n=%d,s=%d", c.n, c.s), func(t *testing.T) {
			f := func(x []float64) float64 { return Last(x, c.s) }
			g := func(x, xBar []float64) float64 { return LastGrad(x, xBar, c.s) }
			gadtest.Grad(t, f, g, gadtest.Box(c.n, 0.05, 1), gadtest.Points(2), gadtest.Abs(-1))
		})
	}
}

// TestExactGradient compares LastGrad on the first n numbers of
// GradBench's stream with the gradient of the exact solution, GradBench's
// reference formula: y_{n−1}(2) = Π xᵢ · 2ⁿ/n!, ∂/∂xᵢ = y_{n−1}(2)/xᵢ.
// The Runge–Kutta solution's error is O(1/s⁴) (10⁴ times smaller for 10
// times the steps) and grows with n; at GradBench's sizes the exact
// gradient underflows to zero.
func TestExactGradient(t *testing.T) {
	x := nprand.NewMT19937(31337).Rand(40)
	for _, c := range []struct {
		n, s int
		rel  float64
	}{{1, 1, 1e-14}, {2, 1, 1e-14}, {2, 100, 1e-14}, {5, 100, 1e-7}, {10, 100, 1e-5}, {20, 100, 1e-3}, {5, 1000, 1e-11}, {10, 1000, 1e-9}, {20, 1000, 1e-7}, {40, 1000, 1e-5}} {
		x := x[:c.n]
		got := make([]float64, c.n)
		LastGrad(x, got, c.s)
		yr := 1.0
		for i, xi := range x {
			yr *= xi * 2 / float64(i+1)
		}
		for i, xi := range x {
			if want := yr / xi; !(math.Abs(got[i]-want) <= c.rel*math.Abs(want)) {
				t.Errorf("n=%d, s=%d: ∂y/∂x[%d] = %g, exact %g (relative tolerance %g)", c.n, c.s, i, got[i], want, c.rel)
			}
		}
	}
}

// TestZero checks that with 4s < n, as at GradBench's sizes, the last
// component and the gradient are exactly zero and the state below 4s is
// not.
func TestZero(t *testing.T) {
	n, s := 50, 3
	x := nprand.NewMT19937(1).Rand(n)
	y := make([]float64, n)
	Solve(y, x, s)
	g := make([]float64, n)
	last := LastGrad(x, g, s)
	if last != 0 || y[n-1] != 0 {
		t.Errorf("last component %g (Solve's %g), want 0", last, y[n-1])
	}
	for i, gi := range g {
		if gi != 0 {
			t.Errorf("∂y/∂x[%d] = %g, want 0", i, gi)
		}
	}
	for i := range 4 * s {
		if y[i] == 0 {
			t.Errorf("y[%d] = 0, want it not zero", i)
		}
	}
}
