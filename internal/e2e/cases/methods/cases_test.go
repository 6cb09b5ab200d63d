package methods

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestJVP(t *testing.T) {
	q := Quadratic{A: 1.5, B: -2, C: 0.25}
	m := &Model{X: []float64{0, 1, 2, 3, 4}, Y: []float64{1.1, 2.9, 5.2, 7.1, 8.8}}
	v := Vec{1, -2, 0.5, 3}
	s := &Spline{
		Knots:  []float64{0, 1, 2, 3},
		Coeffs: [][4]float64{{1, 2, 3, 4}, {-1, 0.5, 2, -3}, {0, 1, 0, 1}, {2, -1, 1, 0.5}},
	}
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Quadratic.Eval", F: fdcheck.Unary(q.Eval), JVP: fdcheck.UnaryJVP(q.EvalJVP), Gen: fdcheck.Box(1, -3, 3)},
		{Name: "Model.Loss", F: fdcheck.ScalarField(m.Loss), JVP: fdcheck.ScalarFieldJVP(m.LossJVP), Gen: fdcheck.Box(2, -3, 3)},
		{Name: "Vec.Dot", Gen: fdcheck.Box(4, -2, 2),
			F: func(x []float64) []float64 { return []float64{v.Dot(x)} },
			JVP: func(x, dx []float64) []float64 {
				_, d := v.DotJVP(x, dx)
				return []float64{d}
			}},
		{Name: "SinSeries", F: fdcheck.Unary(SinSeries), JVP: fdcheck.UnaryJVP(SinSeriesJVP), Gen: fdcheck.Box(1, -1, 1)},
		{Name: "Weighted", F: fdcheck.ScalarField(Weighted), JVP: fdcheck.ScalarFieldJVP(WeightedJVP), Gen: fdcheck.Box(3, -2, 2)},
		{Name: "Spline.Eval", F: fdcheck.Unary(s.Eval), JVP: fdcheck.UnaryJVP(s.EvalJVP), Gen: offKnots, N: 20},
	})
}

// The receiver is a constant: the tangent does not depend on it changing,
// and the JVP leaves it alone.
func TestReceiverUnchanged(t *testing.T) {
	m := &Model{X: []float64{0, 1, 2}, Y: []float64{1, 3, 5}}
	l, dl := m.LossJVP([]float64{2, 1}, []float64{1, 0})
	if l != 0 || dl != 0 {
		t.Errorf("at the exact fit, LossJVP = %v, %v; want 0, 0", l, dl)
	}
	if m.X[2] != 2 || m.Y[2] != 5 {
		t.Errorf("LossJVP modified its receiver: %+v", m)
	}
	// sin(x)/x·x ≈ sin x: the series' derivative is cos x to the series'
	// accuracy.
	for _, x := range []float64{-0.5, 0.1, 0.3} {
		_, d := SinSeriesJVP(x, 1)
		fdcheck.Close(t, "SinSeries'", []float64{d}, []float64{math.Cos(x)}, 1e-9)
	}
}

// offKnots draws x in [0, 4) at least 0.05 from a knot.
func offKnots(r *rand.Rand) fdcheck.Point {
	for {
		x := 4 * r.Float64()
		if f := x - math.Round(x); math.Abs(f) > 0.05 {
			return fdcheck.Point{X: []float64{x}, V: fdcheck.Direction(r, 1)}
		}
	}
}
