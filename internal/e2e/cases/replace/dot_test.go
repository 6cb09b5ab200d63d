package replace

import (
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
	"github.com/gadgen/gadgen/internal/fdcheck"
)

// TestReverseDot checks every //gad:grad of this package against its JVP
// by the dot-product test ⟨∇F, v⟩ = JVP(x, v), and against central finite
// differences along v.
func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Widened", F: Widened, JVP: WidenedJVP, Grad: WidenedGrad},
		{Name: "Refined", F: Refined, JVP: RefinedJVP, Grad: RefinedGrad, Int: 3, Rel: 1e-9},
		{Name: "Rebuilt", F: Rebuilt, JVP: RebuiltJVP, Grad: RebuiltGrad, Rel: 1e-9},
		{Name: "Swapped", F: Swapped, JVP: SwappedJVP, Grad: SwappedGrad},
		{Name: "Recorded", F: Recorded, JVP: RecordedJVP, Grad: RecordedGrad, Rel: 1e-9},
		{Name: "Shifted", F: Shifted, JVP: ShiftedJVP, Grad: ShiftedGrad, Rel: 1e-9},
	})
}

// TestWidenedShadow checks, by hand, that the caller's shadow receives the
// gradient: the program returned a zero gradient before.
func TestWidenedShadow(t *testing.T) {
	l := &Layer{W: []float64{0.3, 1.7, -2.1}, B: 0.5}
	lBar := &Layer{W: make([]float64, 3)}
	w := lBar.W
	WidenedGrad(l, lBar)
	if &lBar.W[0] != &w[0] {
		t.Fatalf("lBar.W was replaced")
	}
	fdcheck.Close(t, "lBar.W", lBar.W, []float64{1.7, 0.3, 0}, 0)
	if lBar.B != 0 {
		t.Errorf("lBar.B = %v, want 0 (the padding is zero)", lBar.B)
	}
}
