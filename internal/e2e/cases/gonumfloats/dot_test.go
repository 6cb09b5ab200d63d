package gonumfloats

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Quadratic", F: Quadratic, JVP: QuadraticJVP, Grad: QuadraticGrad},
		{Name: "Axpy", F: Axpy, JVP: AxpyJVP, Grad: AxpyGrad},
		{Name: "AddSub", F: AddSub, JVP: AddSubJVP, Grad: AddSubGrad},
		{Name: "Elementwise", F: Elementwise, JVP: ElementwiseJVP, Grad: ElementwiseGrad},
		{Name: "Distances", F: Distances, JVP: DistancesJVP, Grad: DistancesGrad, Lo: -2, Hi: 2},
		{Name: "SoftMax", F: SoftMax, JVP: SoftMaxJVP, Grad: SoftMaxGrad},
	})
}
