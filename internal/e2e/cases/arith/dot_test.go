package arith

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Poly", F: Poly, JVP: PolyJVP, Grad: PolyGrad},
		{Name: "Ops", F: Ops, JVP: OpsJVP, Grad: OpsGrad},
		{Name: "Compound", F: Compound, JVP: CompoundJVP, Grad: CompoundGrad},
		{Name: "Neg", F: Neg, JVP: NegJVP, Grad: NegGrad},
		{Name: "Reassign", F: Reassign, JVP: ReassignJVP, Grad: ReassignGrad},
		{Name: "Quotient", F: Quotient, JVP: QuotientJVP, Grad: QuotientGrad},
		{Name: "Constant", F: Constant, JVP: ConstantJVP, Grad: ConstantGrad},
		{Name: "Identity", F: Identity, JVP: IdentityJVP, Grad: IdentityGrad},
		{Name: "Untyped", F: Untyped, JVP: UntypedJVP, Grad: UntypedGrad},
	})
}
