package reversal

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Chain", F: Chain, JVP: ChainJVP, Grad: ChainGrad},
		{Name: "Once", F: Once, JVP: OnceJVP, Grad: OnceGrad},
		{Name: "InLoop", F: InLoop, JVP: InLoopJVP, Grad: InLoopGrad},
		{Name: "Recursive", F: Recursive, JVP: RecursiveJVP, Grad: RecursiveGrad},
		{Name: "Method", F: Method, JVP: MethodJVP, Grad: MethodGrad},
		{Name: "Checkpointed", F: Checkpointed, JVP: CheckpointedJVP, Grad: CheckpointedGrad},
		{Name: "Large", F: Large, JVP: LargeJVP, Grad: LargeGrad, Rel: 1e-9},
		{Name: "Parts", F: Parts, JVP: PartsJVP, Grad: PartsGrad, Len: 5, Rel: 1e-9},
	})
}
