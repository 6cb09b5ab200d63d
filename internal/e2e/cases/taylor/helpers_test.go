package taylor

import (
	"testing"

	"github.com/gadgen/gadgen/examples/rosenbrock"
	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/internal/e2e/cases/calls"
	"github.com/gadgen/gadgen/internal/e2e/cases/grads"
	"github.com/gadgen/gadgen/internal/e2e/cases/loops"
	"github.com/gadgen/gadgen/internal/e2e/cases/memory"
	"github.com/gadgen/gadgen/internal/e2e/cases/panics"
)

// TestHelpersFD checks the Hessian, HVP and Laplacian of every function
// of one []float64 in the other cases and the examples against finite
// differences, at random points in [lo, hi)ⁿ.
func TestHelpersFD(t *testing.T) {
	cases := []struct {
		name   string
		f      func(x []float64) float64
		hess   func(x, h []float64) float64
		hvp    func(x, v, hv []float64) float64
		lap    func(x []float64) (float64, float64)
		n      int
		lo, hi float64
	}{
		{"calls.SumSq", calls.SumSq, callsSumSqHessian, callsSumSqHVP, callsSumSqLaplacian, 4, -1, 1},
		{"calls.PathLength", calls.PathLength, callsPathLengthHessian, callsPathLengthHVP, callsPathLengthLaplacian, 6, 0.2, 2},
		{"grads.Rosenbrock", grads.Rosenbrock, gradsRosenbrockHessian, gradsRosenbrockHVP, gradsRosenbrockLaplacian, 4, -1, 1},
		{"grads.Smooth", grads.Smooth, gradsSmoothHessian, gradsSmoothHVP, gradsSmoothLaplacian, 4, -1, 1},
		{"loops.SumSquares", loops.SumSquares, loopsSumSquaresHessian, loopsSumSquaresHVP, loopsSumSquaresLaplacian, 4, -1, 1},
		{"loops.Backward", loops.Backward, loopsBackwardHessian, loopsBackwardHVP, loopsBackwardLaplacian, 4, -1, 1},
		{"loops.Product", loops.Product, loopsProductHessian, loopsProductHVP, loopsProductLaplacian, 4, -1, 1},
		{"loops.Weighted", loops.Weighted, loopsWeightedHessian, loopsWeightedHVP, loopsWeightedLaplacian, 4, -1, 1},
		{"loops.SkipNegative", loops.SkipNegative, loopsSkipNegativeHessian, loopsSkipNegativeHVP, loopsSkipNegativeLaplacian, 4, 0.2, 1},
		{"memory.CumSquares", memory.CumSquares, memoryCumSquaresHessian, memoryCumSquaresHVP, memoryCumSquaresLaplacian, 4, -1, 1},
		{"memory.Squares", memory.Squares, memorySquaresHessian, memorySquaresHVP, memorySquaresLaplacian, 4, -1, 1},
		{"memory.Tail", memory.Tail, memoryTailHessian, memoryTailHVP, memoryTailLaplacian, 5, -1, 1},
		{"panics.LogSum", panics.LogSum, panicsLogSumHessian, panicsLogSumHVP, panicsLogSumLaplacian, 4, 0.5, 2},
		{"examples/rosenbrock", rosenbrock.Rosenbrock, exampleRosenbrockHessian, exampleRosenbrockHVP, exampleRosenbrockLaplacian, 4, -1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dom := gadtest.Box(c.n, c.lo, c.hi)
			gadtest.Hessian(t, c.f, c.hess, dom, gadtest.Points(3))
			gadtest.HVP(t, c.f, c.hvp, dom, gadtest.Points(3))
			gadtest.Laplacian(t, c.f, c.lap, dom, gadtest.Points(3))
		})
	}
}
