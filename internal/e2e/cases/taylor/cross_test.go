package taylor

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/internal/e2e/cases/calls"
	"github.com/gadgen/gadgen/internal/e2e/cases/control"
	"github.com/gadgen/gadgen/internal/e2e/cases/geom"
	"github.com/gadgen/gadgen/internal/e2e/cases/loops"
	"github.com/gadgen/gadgen/internal/e2e/cases/memory"
	"github.com/gadgen/gadgen/internal/e2e/cases/recursion"
)

func s(f func(x float64) float64) func(x []float64) float64 {
	return func(x []float64) float64 { return f(x[0]) }
}

// TestCrossJets checks, along random lines, the jets of the functions of
// the other cases: coefficient k+1 against finite differences of
// coefficient k (gadtest.Taylor).
func TestCrossJets(t *testing.T) {
	horner := [4]float64{1, -2, 0.5, 3}
	particle := func(x []float64) *memory.Particle {
		return &memory.Particle{M: x[0], X: [2]float64{x[1], x[2]}, V: [2]float64{x[3], x[4]}}
	}
	pairs := func(x []float64) []memory.Pair {
		return []memory.Pair{{A: x[0], B: x[1]}, {A: x[2], B: x[3]}, {A: x[4], B: x[5]}}
	}
	vec := func(x []float64) geom.Vec3 { return geom.Vec3{X: x[0], Y: x[1], Z: x[2]} }
	cases := []struct {
		name string
		f    func(x []float64) float64
		jet  func(x, v []float64) []float64
		dom  gadtest.Option
	}{
		{"loops.SumSquares", loops.SumSquares, func(x, v []float64) []float64 {
			a, b, c, d := loopsSumSquares(x, v)
			return []float64{a, b, c, d}
		}, gadtest.Dim(5)},
		{"loops.ExpSeries", s(loops.ExpSeries), func(x, v []float64) []float64 {
			a, b, c, d, e := loopsExpSeries(x[0], v[0], 0, 0, 0)
			return []float64{a, b, c, d, e}
		}, gadtest.Box(1, -3, 3)},
		{"loops.Sqrt", s(loops.Sqrt), func(x, v []float64) []float64 {
			a, b, c, d := loopsSqrt(x[0], v[0], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.Box(1, 0.5, 20)},
		{"loops.Product", loops.Product, func(x, v []float64) []float64 {
			a, b, c, d, e := loopsProduct(x, v)
			return []float64{a, b, c, d, e}
		}, gadtest.Dim(4)},
		{"loops.Horner", s(func(x float64) float64 { return loops.Horner(horner, x) }), func(x, v []float64) []float64 {
			a, b, c, d := loopsHorner(horner, x[0], v[0], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.Dim(1)},
		{"loops.Chebyshev", s(func(x float64) float64 { return loops.Chebyshev(x, 5) }), func(x, v []float64) []float64 {
			a, b, c, d, e := loopsChebyshev(x[0], v[0], 0, 0, 0, 5)
			return []float64{a, b, c, d, e}
		}, gadtest.Dim(1)},
		{"control.Piecewise", s(control.Piecewise), func(x, v []float64) []float64 {
			a, b, c, d := controlPiecewise(x[0], v[0], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.At([]float64{-2.5}, []float64{0.3}, []float64{1.7})},
		{"control.Legendre", s(func(x float64) float64 { return control.Legendre(4, x) }), func(x, v []float64) []float64 {
			a, b, c, d, e := controlLegendre(4, x[0], v[0], 0, 0, 0)
			return []float64{a, b, c, d, e}
		}, gadtest.Dim(1)},
		{"control.Stats variance", func(x []float64) float64 { _, v := control.Stats(x); return v }, func(x, v []float64) []float64 {
			_, va, _, _, va1, va2 := controlStats(x, v)
			return []float64{va, va1, va2}
		}, gadtest.Dim(5)},
		{"control.Polar theta", func(x []float64) float64 { _, th := control.Polar(x[0], x[1]); return th }, func(x, v []float64) []float64 {
			_, th, _, _, _, th1, th2, th3 := controlPolar(x[0], v[0], 0, 0, x[1], v[1], 0, 0)
			return []float64{th, th1, th2, th3}
		}, gadtest.Box(2, 0.5, 2)},
		{"control.Clamp", func(x []float64) float64 { return control.Clamp(x[0], x[1], x[2]) }, func(x, v []float64) []float64 {
			a, b, c := controlClamp(x[0], v[0], 0, x[1], v[1], 0, x[2], v[2], 0)
			return []float64{a, b, c}
		}, gadtest.At([]float64{0.5, -1, 1}, []float64{-3, -1, 1}, []float64{3, -1, 1})},
		{"calls.Compose", s(calls.Compose), func(x, v []float64) []float64 {
			a, b, c, d := callsCompose(x[0], v[0], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.Dim(1)},
		{"calls.PathLength", calls.PathLength, func(x, v []float64) []float64 {
			a, b, c, d := callsPathLength(x, v)
			return []float64{a, b, c, d}
		}, gadtest.Dim(9)},
		{"calls.UnitTangent[1]", func(x []float64) float64 {
			dst := make([]float64, 3)
			calls.UnitTangent(dst, x)
			return dst[1]
		}, func(x, v []float64) []float64 {
			dst, d1, d2 := make([]float64, 3), make([]float64, 3), make([]float64, 3)
			callsUnitTangent(dst, d1, d2, x, v, make([]float64, 3))
			return []float64{dst[1], d1[1], d2[1]}
		}, gadtest.Dim(3)},
		{"calls.Angle", func(x []float64) float64 { return calls.Angle(vec(x), vec(x[3:])) }, func(x, v []float64) []float64 {
			a, b, c := callsAngle(vec(x), vec(v), geom.Vec3{}, vec(x[3:]), vec(v[3:]), geom.Vec3{})
			return []float64{a, b, c}
		}, gadtest.Box(6, 0.2, 1)},
		{"memory.Step", func(x []float64) float64 {
			p := particle(x)
			memory.Step(p, x[5])
			return p.X[0] + 2*p.V[1]
		}, func(x, v []float64) []float64 {
			p, p1, p2, p3 := particle(x), particle(v), &memory.Particle{}, &memory.Particle{}
			memoryStep(p, p1, p2, p3, x[5], v[5], 0, 0)
			return []float64{p.X[0] + 2*p.V[1], p1.X[0] + 2*p1.V[1], p2.X[0] + 2*p2.V[1], p3.X[0] + 2*p3.V[1]}
		}, gadtest.Box(6, 0.5, 1.5)},
		{"memory.Centroid", func(x []float64) float64 { a, b := memory.Centroid(pairs(x)); return a + 3*b }, func(x, v []float64) []float64 {
			a, b, a1, a2, b1, b2 := memoryCentroid(pairs(x), pairs(v), make([]memory.Pair, 3))
			return []float64{a + 3*b, a1 + 3*b1, a2 + 3*b2}
		}, gadtest.Dim(6)},
		{"memory.CumSquares", memory.CumSquares, func(x, v []float64) []float64 {
			a, b, c, d := memoryCumSquares(x, v)
			return []float64{a, b, c, d}
		}, gadtest.Dim(4)},
		{"recursion.Horner", func(x []float64) float64 { return recursion.Horner(x[1:], x[0]) }, func(x, v []float64) []float64 {
			z := make([]float64, len(x)-1)
			a, b, c, d := recursionHorner(x[1:], v[1:], z, z, x[0], v[0], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.Dim(5)},
		{"recursion.ContinuedFraction", s(func(x float64) float64 { return recursion.ContinuedFraction(x, 6) }), func(x, v []float64) []float64 {
			a, b, c, d := recursionContinuedFraction(x[0], v[0], 0, 0, 6)
			return []float64{a, b, c, d}
		}, gadtest.Box(1, 0.5, 2)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gadtest.Taylor(t, c.f, c.jet, c.dom, gadtest.Rel(1e-5))
		})
	}
}

// TestCurve checks a jet along a curve, not a line, with the identity
// d/ds c_k(x(s + ·)) = (k+1)·c_{k+1}: the curve shifted by s has the
// coefficients q_j(s) = Σ_{i≥j} C(i, j)·p_i·s^(i−j).
func TestCurve(t *testing.T) {
	p := [4][2]float64{{0.7, 1.3}, {0.4, -0.2}, {0.3, 0.5}, {-0.2, 0.1}} // x(t) = Σ p_i t^i, two inputs
	shift := func(s float64) [4][2]float64 {
		var q [4][2]float64
		binom := [4][4]float64{{1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}}
		for j := range 4 {
			for i := j; i < 4; i++ {
				for d := range 2 {
					q[j][d] += binom[i][j] * p[i][d] * math.Pow(s, float64(i-j))
				}
			}
		}
		return q
	}
	jet := func(q [4][2]float64) [4]float64 {
		r, _, r1, r2, r3, _, _, _ := controlPolar(q[0][0], q[1][0], q[2][0], q[3][0], q[0][1], q[1][1], q[2][1], q[3][1])
		return [4]float64{r, r1, r2, r3}
	}
	c := jet(p)
	const h = 1e-4
	for k := range 3 {
		want := (jet(shift(h))[k] - jet(shift(-h))[k]) / (2 * h) / float64(k+1)
		if !(math.Abs(c[k+1]-want) <= 1e-6*math.Max(1, math.Abs(want))) {
			t.Errorf("coefficient %d of r along a curve: got %v, want %v", k+1, c[k+1], want)
		}
	}
}
