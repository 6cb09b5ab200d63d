package closures

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/internal/e2e/cases/closures/quad"
	"github.com/gadgen/gadgen/internal/fdcheck"
)

// first splits x into a scalar and a slice argument.
func first(f func(w float64, x []float64) float64) func(x []float64) float64 {
	return func(x []float64) float64 { return f(x[0], x[1:]) }
}

func firstJVP(j func(w, dw float64, x, dx []float64) (float64, float64)) func(x, v []float64) (float64, float64) {
	return func(x, v []float64) (float64, float64) { return j(x[0], v[0], x[1:], v[1:]) }
}

func TestJVP(t *testing.T) {
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Energy", F: fdcheck.Binary(Energy), JVP: fdcheck.BinaryJVP(EnergyJVP), Gen: fdcheck.Box(2, -2, 2)},
		{Name: "Area", F: fdcheck.Unary(Area), JVP: fdcheck.UnaryJVP(AreaJVP), Gen: fdcheck.Box(1, -2, 2)},
		{Name: "Nested", F: fdcheck.ScalarField(first(Nested)), JVP: fdcheck.ScalarFieldJVP(firstJVP(NestedJVP)), Gen: fdcheck.Box(4, -1, 1)},
		{Name: "Accumulate", F: fdcheck.ScalarField(Accumulate), JVP: fdcheck.ScalarFieldJVP(AccumulateJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "Model", F: fdcheck.ScalarField(Model), JVP: fdcheck.ScalarFieldJVP(ModelJVP), Gen: fdcheck.Box(5, -1, 1)},
		{Name: "MethodExpr", F: fdcheck.ScalarField(MethodExpr), JVP: fdcheck.ScalarFieldJVP(MethodExprJVP), Gen: fdcheck.Box(4, -1, 1)},
		{Name: "Shifted", F: fdcheck.ScalarField(Shifted), JVP: fdcheck.ScalarFieldJVP(ShiftedJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "quad.Gaussian", F: fdcheck.Binary(quad.Gaussian), JVP: fdcheck.BinaryJVP(QuadGaussianJVP), Gen: fdcheck.Box(2, 0.2, 2)},
		{Name: "Direct", F: fdcheck.Unary(Direct), JVP: fdcheck.UnaryJVP(DirectJVP), Gen: fdcheck.Box(1, -2, 2)},
		{Name: "Moments", Gen: fdcheck.Box(2, -1, 1),
			F: func(x []float64) []float64 { m0, m1 := Moments(x[0], x[1]); return []float64{m0, m1} },
			JVP: func(x, v []float64) []float64 {
				_, _, d0, d1 := MomentsJVP(x[0], v[0], x[1], v[1])
				return []float64{d0, d1}
			}},
		{Name: "Fixed", Gen: fdcheck.Box(1, -2, 2),
			F: func(x []float64) []float64 { return []float64{Fixed(1.5, x[0])} },
			JVP: func(x, v []float64) []float64 {
				_, d := FixedJVP(1.5, x[0], v[0])
				return []float64{d}
			}},
	})
}

// TestTaylor checks the jets: coefficient k+1 against finite differences
// of coefficient k along random lines.
func TestTaylor(t *testing.T) {
	line := func(f func(x, x1 []float64) (float64, float64, float64, float64)) func(x, v []float64) []float64 {
		return func(x, v []float64) []float64 { a, b, c, d := f(x, v); return []float64{a, b, c, d} }
	}
	cases := []struct {
		name string
		f    func(x []float64) float64
		jet  func(x, v []float64) []float64
		dom  gadtest.Option
	}{
		{"Energy", func(x []float64) float64 { return Energy(x[0], x[1]) }, func(x, v []float64) []float64 {
			a, b, c, d := EnergyTaylor(x[0], v[0], 0, 0, x[1], v[1], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.Box(2, -2, 2)},
		{"Area", func(x []float64) float64 { return Area(x[0]) }, func(x, v []float64) []float64 {
			a, b, c, d := AreaTaylor(x[0], v[0], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.Box(1, -2, 2)},
		{"Nested", first(Nested), func(x, v []float64) []float64 {
			z := make([]float64, len(x)-1)
			a, b, c := NestedTaylor(x[0], v[0], 0, x[1:], v[1:], z)
			return []float64{a, b, c}
		}, gadtest.Dim(4)},
		{"Accumulate", Accumulate, line(AccumulateTaylor), gadtest.Box(5, -2, 2)},
		{"Model", Model, func(x, v []float64) []float64 { a, b, c := ModelTaylor(x, v); return []float64{a, b, c} }, gadtest.Dim(5)},
		{"MethodExpr", MethodExpr, func(x, v []float64) []float64 { a, b, c := MethodExprTaylor(x, v); return []float64{a, b, c} }, gadtest.Dim(4)},
		{"Shifted", Shifted, line(ShiftedTaylor), gadtest.Box(5, -2, 2)},
		{"quad.Gaussian", func(x []float64) float64 { return quad.Gaussian(x[0], x[1]) }, func(x, v []float64) []float64 {
			a, b, c := QuadGaussianTaylor(x[0], v[0], 0, x[1], v[1], 0)
			return []float64{a, b, c}
		}, gadtest.Box(2, 0.2, 2)},
		{"Direct", func(x []float64) float64 { return Direct(x[0]) }, func(x, v []float64) []float64 {
			a, b, c, d := DirectTaylor(x[0], v[0], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.Box(1, -2, 2)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { gadtest.Taylor(t, c.f, c.jet, c.dom, gadtest.Rel(1e-6)) })
	}
}

func TestHVP(t *testing.T) {
	for _, n := range []int{3, 5} {
		gadtest.HVP(t, Accumulate, AccumulateHVP, gadtest.Box(n, -2, 2))
		gadtest.HVP(t, Model, ModelHVP, gadtest.Dim(n))
		gadtest.HVP(t, Shifted, ShiftedHVP, gadtest.Box(n, -2, 2))
	}
}

// TestVJP checks the VJP of Moments against its JVP by the dot-product
// test ⟨w, J·v⟩ = ⟨Jᵀ·w, v⟩.
func TestVJP(t *testing.T) {
	r := gadtest.NewRand(7)
	for k := 0; k < 10; k++ {
		x := gadtest.Uniform(r, 2, -1, 1)
		v, w := gadtest.Direction(r, 2), gadtest.Direction(r, 2)
		m0, m1, d0, d1 := MomentsJVP(x[0], v[0], x[1], v[1])
		n0, n1, ga, gb := MomentsVJP(x[0], x[1], w[0], w[1])
		if m0 != n0 || m1 != n1 {
			t.Errorf("Moments(%v): VJP's results %v, %v, want %v, %v", x, n0, n1, m0, m1)
		}
		lhs, rhs := w[0]*d0+w[1]*d1, ga*v[0]+gb*v[1]
		if !(math.Abs(lhs-rhs) <= 1e-12*(1+math.Abs(lhs))) {
			t.Errorf("Moments(%v): ⟨w, J·v⟩ = %v, ⟨Jᵀ·w, v⟩ = %v", x, lhs, rhs)
		}
	}
}

// TestFixedGrad: the gradient with respect to x alone, against the JVP.
func TestFixedGrad(t *testing.T) {
	r := gadtest.NewRand(8)
	for k := 0; k < 10; k++ {
		kk, x := gadtest.Uniform(r, 1, -2, 2)[0], gadtest.Uniform(r, 1, -2, 2)[0]
		f, dx := FixedGrad(kk, x)
		g, want := FixedJVP(kk, x, 1)
		if f != g || !(math.Abs(dx-want) <= 1e-12*(1+math.Abs(want))) {
			t.Errorf("FixedGrad(%v, %v) = %v, %v, want %v, %v", kk, x, f, dx, g, want)
		}
	}
}
