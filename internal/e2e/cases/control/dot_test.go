package control

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Piecewise", F: Piecewise, JVP: PiecewiseJVP, Grad: PiecewiseGrad},
		{Name: "Fold", F: Fold, JVP: FoldJVP, Grad: FoldGrad},
		{Name: "Legendre", F: Legendre, JVP: LegendreJVP, Grad: LegendreGrad},
		{Name: "Regime", F: Regime, JVP: RegimeJVP, Grad: RegimeGrad},
		{Name: "Fall", F: Fall, JVP: FallJVP, Grad: FallGrad},
		{Name: "Inside", F: Inside, JVP: InsideJVP, Grad: InsideGrad},
		{Name: "FirstAbove", F: FirstAbove, JVP: FirstAboveJVP, Grad: FirstAboveGrad},
		{Name: "Clamp", F: Clamp, JVP: ClampJVP, Grad: ClampGrad},
	})
}
