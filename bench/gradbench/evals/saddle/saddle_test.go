package saddle

import (
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/gadtest"
)

// TestModule runs the four variants from (1, 1) through the module
// against GradBench's expected point.
func TestModule(t *testing.T) { evaltest.Check(t, "saddle", Module) }

// TestDerivatives checks each variant's gradient of the maximum over q,
// nested AD through the inner descent and its gradient, against central
// differences.
func TestDerivatives(t *testing.T) {
	start := []float64{1, 1}
	for name, v := range Variants {
		t.Run(name, func(t *testing.T) {
			gadtest.Grad(t, func(p []float64) float64 { return v.Max(p, start) },
				func(p, pBar []float64) float64 {
					g := make([]float64, len(p))
					v.MaxGrad(g, p, start)
					for i := range g {
						pBar[i] += g[i]
					}
					return v.Max(p, start)
				}, gadtest.Dim(2))
			q := []float64{0.3, -0.2}
			for _, p := range [][]float64{{1, 1}, {0.5, -2}} {
				g := make([]float64, 2)
				v.Grad(p, q, g)
				gadtest.Close(t, "∇_q f", g, []float64{-2 * q[0], -2 * q[1]}, 1e-15)
			}
		})
	}
}
