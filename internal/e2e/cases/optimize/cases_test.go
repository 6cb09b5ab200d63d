package optimize

import (
	"fmt"
	"testing"

	"github.com/gadgen/gadgen/internal/e2e/dottest"
	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestJVP(t *testing.T) {
	c := []float64{0.5, -1, 2, 0.25}
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Normalized", Gen: fdcheck.Box(4, 0.5, 2),
			F: fdcheck.ScalarField(func(x []float64) float64 { return Normalized(x, c) }),
			JVP: fdcheck.ScalarFieldJVP(func(x, dx []float64) (float64, float64) {
				return NormalizedJVP(x, dx, c, make([]float64, len(c)))
			})},
		{Name: "Guarded", Gen: fdcheck.Box(4, 0.5, 2),
			F: fdcheck.ScalarField(func(x []float64) float64 { return Guarded(x, c) }),
			JVP: fdcheck.ScalarFieldJVP(func(x, dx []float64) (float64, float64) {
				return GuardedJVP(x, dx, c, make([]float64, len(c)))
			})},
		{Name: "Folded", F: fdcheck.Unary(Folded), JVP: fdcheck.UnaryJVP(FoldedJVP), Gen: fdcheck.Box(1, -2, 2)},
	})
}

func TestReverseDot(t *testing.T) {
	dottest.Run(t, []dottest.Case{
		{Name: "Normalized", F: Normalized, JVP: NormalizedJVP, Grad: NormalizedGrad, Lo: 0.5, Hi: 2},
		{Name: "Guarded", F: Guarded, JVP: GuardedJVP, Grad: GuardedGrad, Lo: 0.5, Hi: 2},
		{Name: "Folded", F: Folded, JVP: FoldedJVP, Grad: FoldedGrad},
	})
}

// TestGuardedPanics: with dot computed once under the loop's test, the
// derivative is not called when the loop does not run, and panics where
// the function does when it does.
func TestGuardedPanics(t *testing.T) {
	if f, df := GuardedJVP(nil, nil, []float64{1}, []float64{1}); f != 0 || df != 0 {
		t.Errorf("empty x: got %v, %v", f, df)
	}
	panicOf := func(f func()) (r any) {
		defer func() { r = recover() }()
		f()
		return nil
	}
	x, c := []float64{1, 2}, []float64{1}
	p := panicOf(func() { Guarded(x, c) })
	if p == nil {
		t.Fatalf("Guarded(%v, %v) does not panic: nothing to compare the derivatives' panics with", x, c)
	}
	want := fmt.Sprint(p)
	for name, f := range map[string]func(){
		"GuardedJVP":  func() { GuardedJVP(x, []float64{1, 1}, c, []float64{1}) },
		"GuardedGrad": func() { GuardedGrad(x, make([]float64, 2), c, make([]float64, 1)) },
	} {
		if got := fmt.Sprint(panicOf(f)); got != want {
			t.Errorf("%s: got panic %q, want %q", name, got, want)
		}
	}
}
