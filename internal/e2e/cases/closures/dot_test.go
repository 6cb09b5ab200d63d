package closures

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/cases/closures/quad"
	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Energy", F: Energy, JVP: EnergyJVP, Grad: EnergyGrad, Lo: -2, Hi: 2},
		{Name: "Area", F: Area, JVP: AreaJVP, Grad: AreaGrad, Lo: -2, Hi: 2},
		{Name: "Nested", F: Nested, JVP: NestedJVP, Grad: NestedGrad},
		{Name: "Accumulate", F: Accumulate, JVP: AccumulateJVP, Grad: AccumulateGrad, Lo: -2, Hi: 2},
		{Name: "Model", F: Model, JVP: ModelJVP, Grad: ModelGrad},
		{Name: "MethodExpr", F: MethodExpr, JVP: MethodExprJVP, Grad: MethodExprGrad},
		{Name: "Shifted", F: Shifted, JVP: ShiftedJVP, Grad: ShiftedGrad, Lo: -2, Hi: 2},
		{Name: "quad.Gaussian", F: quad.Gaussian, JVP: QuadGaussianJVP, Grad: QuadGaussianGrad, Lo: 0.2, Hi: 2},
		{Name: "Direct", F: Direct, JVP: DirectJVP, Grad: DirectGrad, Lo: -2, Hi: 2},
		{Name: "RunningMax", F: RunningMax, JVP: RunningMaxJVP, Grad: RunningMaxGrad},
		{Name: "Counter", F: Counter, JVP: CounterJVP, Grad: CounterGrad},
		{Name: "Move", F: Move, JVP: MoveJVP, Grad: MoveGrad},
	})
}
