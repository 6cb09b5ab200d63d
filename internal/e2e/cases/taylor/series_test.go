package taylor

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
)

func fact(k int) float64 {
	f := 1.0
	for i := 2; i <= k; i++ {
		f *= float64(i)
	}
	return f
}

// closeTo reports |got − want| ≤ rel·max(1, |want|).
func closeTo(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Max(1, math.Abs(want)) || math.IsNaN(got) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// TestKnownSeries compares the coefficients along x + t with the known
// series: exp, sin (whose derivatives cycle sin, cos, −sin, −cos), log1p
// and the geometric series.
func TestKnownSeries(t *testing.T) {
	for _, x := range []float64{-1.5, 0, 0.3, 2} {
		c := [7]float64{}
		c[0], c[1], c[2], c[3], c[4], c[5], c[6] = ExpTaylor(x, 1, 0, 0, 0, 0, 0)
		for k := range c {
			closeTo(t, "exp", c[k], math.Exp(x)/fact(k), 1e-14)
		}
		s := [6]float64{}
		s[0], s[1], s[2], s[3], s[4], s[5] = SinTaylor(x, 1, 0, 0, 0, 0)
		for k := range s {
			d := [4]float64{math.Sin(x), math.Cos(x), -math.Sin(x), -math.Cos(x)}[k%4]
			closeTo(t, "sin", s[k], d/fact(k), 1e-14)
		}
	}
	l := [6]float64{}
	l[0], l[1], l[2], l[3], l[4], l[5] = Log1pTaylor(0, 1, 0, 0, 0, 0)
	for k := 1; k < len(l); k++ {
		closeTo(t, "log1p at 0", l[k], math.Pow(-1, float64(k+1))/float64(k), 1e-15)
	}
	for _, x := range []float64{0, 0.3, -2} {
		g := [7]float64{}
		g[0], g[1], g[2], g[3], g[4], g[5], g[6] = GeometricTaylor(x, 1, 0, 0, 0, 0, 0)
		for k := range g {
			closeTo(t, "1/(1-x)", g[k], math.Pow(1-x, -float64(k+1)), 1e-14)
		}
	}
	// A curve, not a line: exp(x + t + t²) = eˣ·(1 + t + 3t²/2 + 7t³/6 + …).
	c := [7]float64{}
	c[0], c[1], c[2], c[3], c[4], c[5], c[6] = ExpTaylor(0, 1, 1, 0, 0, 0, 0)
	for k, want := range []float64{1, 1, 1.5, 7.0 / 6, 25.0 / 24, 27.0 / 40, 331.0 / 720} {
		closeTo(t, "exp(t+t²)", c[k], want, 1e-14)
	}
}

func TestJets(t *testing.T) {
	gadtest.Taylor(t, Rosenbrock, func(x, v []float64) []float64 {
		f, f1, f2, f3 := RosenbrockTaylor(x, v)
		return []float64{f, f1, f2, f3}
	}, gadtest.Dim(4))
}

func TestFloat32AndVariadic(t *testing.T) {
	gadtest.Taylor(t, func(x []float64) float64 { return float64(Logistic32(float32(x[0]))) }, func(x, v []float64) []float64 {
		a, b, c, d := Logistic32Taylor(float32(x[0]), float32(v[0]), 0, 0)
		return []float64{float64(a), float64(b), float64(c), float64(d)}
	}, gadtest.Dim(1), gadtest.Rel(1e-3), gadtest.PrimalRel(1e-6), gadtest.Step(1e-2))
	gadtest.Taylor(t, func(x []float64) float64 { return CallsSum3(x[0], x[1]) }, func(x, v []float64) []float64 {
		a, b, c := CallsSum3Taylor(x[0], v[0], 0, x[1], v[1], 0)
		return []float64{a, b, c}
	}, gadtest.Dim(2))
}
