package recursion

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Pow", F: Pow, JVP: PowJVP, Grad: PowGrad, Lo: 0.2, Hi: 2},
		{Name: "Horner", F: Horner, JVP: HornerJVP, Grad: HornerGrad},
		{Name: "Chebyshev", F: Chebyshev, JVP: ChebyshevJVP, Grad: ChebyshevGrad},
		{Name: "Even", F: Even, JVP: EvenJVP, Grad: EvenGrad},
		{Name: "ContinuedFraction", F: ContinuedFraction, JVP: ContinuedFractionJVP, Grad: ContinuedFractionGrad},
		{Name: "PingPong", F: PingPong, JVP: PingPongJVP, Grad: PingPongGrad},
	})
}
