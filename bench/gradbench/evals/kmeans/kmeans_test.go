package kmeans

import (
	"testing"

	"github.com/gadgen/gadgen/bench/gradbench/evals/evaltest"
	"github.com/gadgen/gadgen/gadtest"
)

// TestModule runs GradBench's smallest kmeans workload (k = 10, n = 1000,
// d = 8) through the module against the reference tool's outputs.
func TestModule(t *testing.T) { evaltest.Check(t, "kmeans", Module) }

// points are 12 points of 3 dimensions, at which the derivatives are
// checked with 4 centroids.
var points = gadtest.Uniform(gadtest.NewRand(1), 12*3, -1, 1)

const d = 3

// TestGrad checks CostGrad against central differences.
func TestGrad(t *testing.T) {
	gadtest.Grad(t, func(c []float64) float64 { return Cost(points, c, d) },
		func(c, cBar []float64) float64 { return CostGrad(points, c, cBar, d) }, gadtest.Dim(4*d))
}

// TestHVP checks the Hessian-vector product of costGradJVP (forward mode
// over CostGrad) against central differences of the gradient, and the
// gradient it accumulates on the way.
func TestHVP(t *testing.T) {
	gadtest.HVP(t, func(c []float64) float64 { return Cost(points, c, d) },
		func(c, v, hv []float64) float64 {
			clear(hv)
			g := make([]float64, len(c))
			f, _ := costGradJVP(points, c, v, g, hv, d)
			want := make([]float64, len(c))
			CostGrad(points, c, want, d)
			gadtest.Close(t, "gradient", g, want, 1e-14)
			return f
		}, gadtest.Dim(4*d))
}
