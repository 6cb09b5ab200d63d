package memory

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "CumSquares", F: CumSquares, JVP: CumSquaresJVP, Grad: CumSquaresGrad},
		{Name: "Powers", F: Powers, JVP: PowersJVP, Grad: PowersGrad},
		{Name: "Det3", F: Det3, JVP: Det3JVP, Grad: Det3Grad},
		{Name: "Swirl", F: Swirl, JVP: SwirlJVP, Grad: SwirlGrad},
		{Name: "Area", F: Area, JVP: AreaJVP, Grad: AreaGrad, Lo: 0.2, Hi: 3},
		{Name: "Kinetic", F: Kinetic, JVP: KineticJVP, Grad: KineticGrad},
		{Name: "Tail", F: Tail, JVP: TailJVP, Grad: TailGrad},
		{Name: "Smooth", F: Smooth, JVP: SmoothJVP, Grad: SmoothGrad},
		{Name: "Halves", F: Halves, JVP: HalvesJVP, Grad: HalvesGrad, Len: 6},
		{Name: "Blurred", F: Blurred, JVP: BlurredJVP, Grad: BlurredGrad},
	})
}
