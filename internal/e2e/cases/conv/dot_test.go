package conv

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Cubic32", F: Cubic32, JVP: Cubic32JVP, Grad: Cubic32Grad},
		{Name: "Widen", F: Widen, JVP: WidenJVP, Grad: WidenGrad},
		{Name: "Narrow", F: Narrow, JVP: NarrowJVP, Grad: NarrowGrad},
		{Name: "Exp32", F: Exp32, JVP: Exp32JVP, Grad: Exp32Grad},
		{Name: "Sum32", F: Sum32, JVP: Sum32JVP, Grad: Sum32Grad},
		{Name: "IntScale", F: IntScale, JVP: IntScaleJVP, Grad: IntScaleGrad},
		{Name: "Truncate", F: Truncate, JVP: TruncateJVP, Grad: TruncateGrad},
		{Name: "Index", F: Index, JVP: IndexJVP, Grad: IndexGrad},
		{Name: "Fahrenheit", F: Fahrenheit, JVP: FahrenheitJVP, Grad: FahrenheitGrad},
	})
}
