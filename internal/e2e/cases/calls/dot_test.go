package calls

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
)

// TestReverseDot checks every //gad:grad of this package against its
// JVP by the dot-product test ⟨∇F, v⟩ = JVP(x, v).
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "SumSq", F: SumSq, JVP: SumSqJVP, Grad: SumSqGrad},
		{Name: "Nested", F: Nested, JVP: NestedJVP, Grad: NestedGrad},
		{Name: "PolarProduct", F: PolarProduct, JVP: PolarProductJVP, Grad: PolarProductGrad},
		{Name: "Powers", F: Powers, JVP: PowersJVP, Grad: PowersGrad},
		{Name: "ScaledNorm", F: ScaledNorm, JVP: ScaledNormJVP, Grad: ScaledNormGrad},
		{Name: "Mixed", F: Mixed, JVP: MixedJVP, Grad: MixedGrad},
		{Name: "Compose", F: Compose, JVP: ComposeJVP, Grad: ComposeGrad},
		{Name: "TriangleArea", F: TriangleArea, JVP: TriangleAreaJVP, Grad: TriangleAreaGrad},
		{Name: "Angle", F: Angle, JVP: AngleJVP, Grad: AngleGrad},
		{Name: "PathLength", F: PathLength, JVP: PathLengthJVP, Grad: PathLengthGrad},
		{Name: "InPlace", F: InPlace, JVP: InPlaceJVP, Grad: InPlaceGrad},
		{Name: "TriArea", F: TriArea, JVP: TriAreaJVP, Grad: TriAreaGrad},
	})
}
