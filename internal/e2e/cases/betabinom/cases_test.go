package betabinom

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// The data: k[i] successes in n[i] trials.
var (
	ks = []int{3, 7, 0, 12, 5, 9}
	ns = []int{10, 10, 4, 20, 9, 9}
)

func logLik(theta []float64) float64 { return LogLik(theta, ks, ns) }
func lik(theta []float64) float64    { return Lik(theta, ks, ns) }

// models are the two functions of θ with their derivatives.
var models = []struct {
	name   string
	f      func(theta []float64) float64
	jvp    func(theta, dtheta []float64) (float64, float64)
	grad   func(theta, dtheta []float64) float64
	taylor func(theta, theta1, theta2, theta3 []float64) (float64, float64, float64, float64)
}{
	{"LogLik", logLik,
		func(x, dx []float64) (float64, float64) { return LogLikJVP(x, dx, ks, ns) },
		func(x, dx []float64) float64 { return LogLikGrad(x, dx, ks, ns) },
		func(x, x1, x2, x3 []float64) (float64, float64, float64, float64) {
			return LogLikTaylor(x, x1, x2, x3, ks, ns)
		}},
	{"Lik", lik,
		func(x, dx []float64) (float64, float64) { return LikJVP(x, dx, ks, ns) },
		func(x, dx []float64) float64 { return LikGrad(x, dx, ks, ns) },
		func(x, x1, x2, x3 []float64) (float64, float64, float64, float64) {
			return LikTaylor(x, x1, x2, x3, ks, ns)
		}},
}

func TestJVP(t *testing.T) {
	var cases []fdcheck.Case
	for _, m := range models {
		cases = append(cases, fdcheck.Case{Name: m.name, F: fdcheck.ScalarField(m.f), JVP: fdcheck.ScalarFieldJVP(m.jvp),
			Gen: fdcheck.Box(2, 0.5, 5)})
	}
	fdcheck.Run(t, cases)
}

// TestGradHVP checks the gradients against the JVPs (checked above) along
// each axis, and LogLik's HVP against central differences of its
// gradient.
func TestGradHVP(t *testing.T) {
	r := fdcheck.NewRand(fdcheck.Seed(t.Name()))
	for range 5 {
		x := fdcheck.Uniform(r, 2, 0.5, 5)
		for _, m := range models {
			g := make([]float64, 2)
			if f, want := m.grad(x, g), m.f(x); f != want {
				t.Errorf("%sGrad value %v, want %v", m.name, f, want)
			}
			for i := range x {
				e := make([]float64, 2)
				e[i] = 1
				_, d := m.jvp(x, e)
				fdcheck.Close(t, m.name+" gradient", []float64{g[i]}, []float64{d}, 1e-12)
			}
		}
		v := fdcheck.Direction(r, 2)
		hv := make([]float64, 2)
		if f, want := LogLikHVP(x, v, hv, ks, ns), logLik(x); f != want {
			t.Errorf("LogLikHVP value %v, want %v", f, want)
		}
		const h = 1e-5
		gp, gm := make([]float64, 2), make([]float64, 2)
		LogLikGrad([]float64{x[0] + h*v[0], x[1] + h*v[1]}, gp, ks, ns)
		LogLikGrad([]float64{x[0] - h*v[0], x[1] - h*v[1]}, gm, ks, ns)
		fd := []float64{(gp[0] - gm[0]) / (2 * h), (gp[1] - gm[1]) / (2 * h)}
		fdcheck.Close(t, "HVP", hv, fd, 1e-6)
	}
}

// TestTaylor checks the third-order jets along lines: the first
// coefficient against the JVP, the second and third against central
// differences of the lower ones (2·y2 = d/dt y1, 3·y3 = d/dt y2), and
// LogLik's along the α axis against the polygamma function, from gonum's
// Hurwitz zeta.
func TestTaylor(t *testing.T) {
	r := fdcheck.NewRand(fdcheck.Seed(t.Name()))
	zero := make([]float64, 2)
	for range 5 {
		x := fdcheck.Uniform(r, 2, 0.5, 5)
		v := fdcheck.Direction(r, 2)
		at := func(s float64) []float64 { return []float64{x[0] + s*v[0], x[1] + s*v[1]} }
		for _, m := range models {
			y, y1, y2, y3 := m.taylor(x, v, zero, zero)
			f, d := m.jvp(x, v)
			fdcheck.Close(t, m.name+" value and first coefficient", []float64{y, y1}, []float64{f, d}, 1e-12)
			const h = 1e-4
			_, dp := m.jvp(at(h), v)
			_, dm := m.jvp(at(-h), v)
			_, _, y2p, _ := m.taylor(at(h), v, zero, zero)
			_, _, y2m, _ := m.taylor(at(-h), v, zero, zero)
			fdcheck.Close(t, m.name+" second and third coefficients", []float64{2 * y2, 3 * y3},
				[]float64{(dp - dm) / (2 * h), (y2p - y2m) / (2 * h)}, 1e-6)
		}
		// Along α: d^j/dα^j LogLik = Σᵢ ψ⁽ʲ⁻¹⁾(kᵢ+α) − ψ⁽ʲ⁻¹⁾(nᵢ+α+β) − ψ⁽ʲ⁻¹⁾(α) + ψ⁽ʲ⁻¹⁾(α+β).
		a, b := x[0], x[1]
		_, y1, y2, y3 := LogLikTaylor(x, []float64{1, 0}, zero, zero, ks, ns)
		want := make([]float64, 3)
		for j := range want {
			for i := range ks {
				want[j] += polygamma(j, float64(ks[i])+a) - polygamma(j, float64(ns[i])+a+b) - polygamma(j, a) + polygamma(j, a+b)
			}
			want[j] /= math.Gamma(float64(j + 2)) // the coefficient of order j+1 is the derivative over (j+1)!
		}
		fdcheck.Close(t, "LogLik's coefficients along α", []float64{y1, y2, y3}, want, 1e-12)
	}
}

// TestMeanLogOdds checks the gradient and the Taylor coefficients of
// ψ(α) − ψ(β) along each axis against the polygamma function:
// y_k = ±ψ⁽ᵏ⁾/k!.
func TestMeanLogOdds(t *testing.T) {
	for _, ab := range [][2]float64{{0.3, 2}, {1, 1}, {4.5, 0.8}, {12, 30}} {
		a, b := ab[0], ab[1]
		f, da, db := MeanLogOddsGrad(a, b)
		want := []float64{mathext.Digamma(a) - mathext.Digamma(b), polygamma(1, a), -polygamma(1, b)}
		fdcheck.Close(t, "MeanLogOddsGrad", []float64{f, da, db}, want, 1e-13)
		y, y1, y2, y3 := MeanLogOddsTaylor(a, 1, 0, 0, b, 0, 0, 0)
		fdcheck.Close(t, "MeanLogOddsTaylor along α", []float64{y, y1, y2, y3},
			[]float64{want[0], polygamma(1, a), polygamma(2, a) / 2, polygamma(3, a) / 6}, 1e-13)
		y, y1, y2, y3 = MeanLogOddsTaylor(a, 0, 0, 0, b, 1, 0, 0)
		fdcheck.Close(t, "MeanLogOddsTaylor along β", []float64{y, y1, y2, y3},
			[]float64{want[0], -polygamma(1, b), -polygamma(2, b) / 2, -polygamma(3, b) / 6}, 1e-13)
	}
}

// polygamma returns ψ⁽ᵐ⁾(x), x > 0: mathext's digamma for m = 0, else
// (−1)ᵐ⁺¹·m!·ζ(m+1, x) with gonum's Hurwitz zeta.
func polygamma(m int, x float64) float64 {
	if m == 0 {
		return mathext.Digamma(x)
	}
	z := math.Gamma(float64(m+1)) * mathext.Zeta(float64(m+1), x)
	if m%2 == 0 {
		return -z
	}
	return z
}
