package panics

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Dot", F: Dot, JVP: DotJVP, Grad: DotGrad},
		{Name: "LogSum", F: LogSum, JVP: LogSumJVP, Grad: LogSumGrad, Lo: 0.2, Hi: 3},
		{Name: "At", F: At, JVP: AtJVP, Grad: AtGrad},
	})
}
