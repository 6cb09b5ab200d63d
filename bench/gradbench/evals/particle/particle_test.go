package particle

import (
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/gadtest"
)

// TestModule runs the four variants from w = 0 through the module
// against GradBench's expected w.
func TestModule(t *testing.T) { evaltest.Check(t, "particle", Module) }

// TestDerivatives checks the derivative of each variant, nested AD
// through the field's derivative, against central differences of its
// objective, at points where the particle's path crosses the axis after
// the same number of steps nearby.
func TestDerivatives(t *testing.T) {
	for name, v := range Variants {
		t.Run(name, func(t *testing.T) {
			gadtest.Grad(t, func(w []float64) float64 { return v.Objective(w[0]) },
				func(w, wBar []float64) float64 { wBar[0] += v.Derivative(w[0]); return v.Objective(w[0]) },
				gadtest.At([]float64{0}, []float64{0.1}, []float64{0.2071918746486116}, []float64{-0.3}))
		})
	}
}

// TestForce checks the field of each inner mode against central
// differences of the potential.
func TestForce(t *testing.T) {
	charges := []vec{{10, 9.5}, {10, 0}}
	for _, x := range []vec{{0, 8}, {3.5, 2}, {9, 1}} {
		h := 1e-6
		want := vec{
			-(potential(vec{x.X + h, x.Y}, charges) - potential(vec{x.X - h, x.Y}, charges)) / (2 * h),
			-(potential(vec{x.X, x.Y + h}, charges) - potential(vec{x.X, x.Y - h}, charges)) / (2 * h),
		}
		for name, force := range map[string]func(vec, []vec) vec{"reverse": forceR, "forward": forceF} {
			got := force(x, charges)
			gadtest.Close(t, name+" force", []float64{got.X, got.Y}, []float64{want.X, want.Y}, 1e-7)
		}
	}
}
