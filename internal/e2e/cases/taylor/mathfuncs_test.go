package taylor

import (
	"testing"

	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/internal/e2e/cases/mathfuncs"
)

// TestMath checks the jets of every math function along random lines.
func TestMath(t *testing.T) {
	u := func(name string, f func(float64) float64, jet func(x, x1, x2, x3, x4 float64) (float64, float64, float64, float64, float64), lo, hi float64) {
		t.Run(name, func(t *testing.T) {
			gadtest.Taylor(t, func(x []float64) float64 { return f(x[0]) }, func(x, v []float64) []float64 {
				a, b, c, d, e := jet(x[0], v[0], 0, 0, 0)
				return []float64{a, b, c, d, e}
			}, gadtest.Box(1, lo, hi), gadtest.Rel(1e-5))
		})
	}
	u("Sin", mathfuncs.Sin, mathSin, -3, 3)
	u("Cos", mathfuncs.Cos, mathCos, -3, 3)
	u("Tan", mathfuncs.Tan, mathTan, -1.2, 1.2)
	u("Asin", mathfuncs.Asin, mathAsin, -0.9, 0.9)
	u("Acos", mathfuncs.Acos, mathAcos, -0.9, 0.9)
	u("Atan", mathfuncs.Atan, mathAtan, -3, 3)
	u("Sinh", mathfuncs.Sinh, mathSinh, -3, 3)
	u("Cosh", mathfuncs.Cosh, mathCosh, -3, 3)
	u("Tanh", mathfuncs.Tanh, mathTanh, -3, 3)
	u("Asinh", mathfuncs.Asinh, mathAsinh, -3, 3)
	u("Acosh", mathfuncs.Acosh, mathAcosh, 1.1, 5)
	u("Atanh", mathfuncs.Atanh, mathAtanh, -0.9, 0.9)
	u("Exp", mathfuncs.Exp, mathExp, -3, 3)
	u("Exp2", mathfuncs.Exp2, mathExp2, -3, 3)
	u("Expm1", mathfuncs.Expm1, mathExpm1, -3, 3)
	u("Log", mathfuncs.Log, mathLog, 0.1, 10)
	u("Log2", mathfuncs.Log2, mathLog2, 0.1, 10)
	u("Log10", mathfuncs.Log10, mathLog10, 0.1, 10)
	u("Log1p", mathfuncs.Log1p, mathLog1p, -0.9, 5)
	u("Sqrt", mathfuncs.Sqrt, mathSqrt, 0.1, 10)
	u("Cbrt", mathfuncs.Cbrt, mathCbrt, 0.3, 10)
	u("Abs", mathfuncs.Abs, mathAbs, 0.2, 3)
	u("Erf", mathfuncs.Erf, mathErf, -2, 2)
	u("Erfc", mathfuncs.Erfc, mathErfc, -2, 2)
	u("Erfinv", mathfuncs.Erfinv, mathErfinv, -0.9, 0.9)
	u("Erfcinv", mathfuncs.Erfcinv, mathErfcinv, 0.1, 1.9)
	u("J0", mathfuncs.J0, mathJ0, 0.5, 10)
	u("J1", mathfuncs.J1, mathJ1, 0.5, 10)
	u("Y0", mathfuncs.Y0, mathY0, 0.5, 10)
	u("Y1", mathfuncs.Y1, mathY1, 0.5, 10)
	u("Jn", mathfuncs.Jn, mathJn, 0.5, 10)
	u("Yn", mathfuncs.Yn, mathYn, 0.5, 10)
	u("Floor", mathfuncs.Floor, mathFloor, 0.1, 0.4)
	u("PowConst", mathfuncs.PowConst, mathPowConst, 0.1, 3)
	u("PowInt", mathfuncs.PowInt, mathPowInt, -3, 3)
	u("PowBase", mathfuncs.PowBase, mathPowBase, -3, 3)
	u("Softplus", mathfuncs.Softplus, mathSoftplus, -5, 5)
	u("Chain", mathfuncs.Chain, mathChain, -2, 2)
	b := func(name string, f func(a, b float64) float64, jet func(a, a1, a2, a3, b, b1, b2, b3 float64) (float64, float64, float64, float64), lo, hi float64) {
		t.Run(name, func(t *testing.T) {
			gadtest.Taylor(t, func(x []float64) float64 { return f(x[0], x[1]) }, func(x, v []float64) []float64 {
				a, b, c, d := jet(x[0], v[0], 0, 0, x[1], v[1], 0, 0)
				return []float64{a, b, c, d}
			}, gadtest.Box(2, lo, hi), gadtest.Rel(1e-5))
		})
	}
	b("Atan2", mathfuncs.Atan2, mathAtan2, 0.3, 2)
	b("Pow", mathfuncs.Pow, mathPow, 0.3, 2)
	b("Hypot", mathfuncs.Hypot, mathHypot, 0.3, 2)
	b("Copysign", mathfuncs.Copysign, mathCopysign, 0.3, 2)
	t.Run("Sincos", func(t *testing.T) {
		for i := range 2 {
			gadtest.Taylor(t, func(x []float64) float64 {
				s, c := mathfuncs.Sincos(x[0])
				return [2]float64{s, c}[i]
			}, func(x, v []float64) []float64 {
				s, c, s1, s2, s3, s4, c1, c2, c3, c4 := mathSincos(x[0], v[0], 0, 0, 0)
				return [2][]float64{{s, s1, s2, s3, s4}, {c, c1, c2, c3, c4}}[i]
			}, gadtest.Box(1, -3, 3))
		}
	})
	t.Run("NormalPDF", func(t *testing.T) {
		gadtest.Taylor(t, func(x []float64) float64 { return mathfuncs.NormalPDF(x[0], x[1], x[2]) }, func(x, v []float64) []float64 {
			a, b, c, d := mathNormalPDF(x[0], v[0], 0, 0, x[1], v[1], 0, 0, x[2], v[2], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.Box(3, 0.5, 2))
	})
	t.Run("FMA", func(t *testing.T) {
		gadtest.Taylor(t, func(x []float64) float64 { return mathfuncs.FMA(x[0], x[1], x[2]) }, func(x, v []float64) []float64 {
			a, b, c := mathFMA(x[0], v[0], 0, x[1], v[1], 0, x[2], v[2], 0)
			return []float64{a, b, c}
		}, gadtest.Dim(3))
	})
	t.Run("Min3", func(t *testing.T) {
		gadtest.Taylor(t, func(x []float64) float64 { return mathfuncs.Min3(x[0], x[1], x[2]) }, func(x, v []float64) []float64 {
			a, b, c := mathMin3(x[0], v[0], 0, x[1], v[1], 0, x[2], v[2], 0)
			return []float64{a, b, c}
		}, gadtest.At([]float64{0.1, 1, 2}, []float64{3, -1, 2}, []float64{3, 2, -2}))
	})
	// Gamma's and Lgamma's rules call the digamma helper, expanded by its
	// own rule (ψ′ = ψ⁽¹⁾, ψ⁽ⁿ⁾′ = ψ⁽ⁿ⁺¹⁾).
	u("Gamma", mathfuncs.Gamma, mathGamma, 0.3, 4)
	t.Run("Lgamma", func(t *testing.T) {
		gadtest.Taylor(t, func(x []float64) float64 { l, _ := mathfuncs.Lgamma(x[0]); return l }, func(x, v []float64) []float64 {
			a, _, b, c, d, e := mathLgamma(x[0], v[0], 0, 0, 0)
			return []float64{a, b, c, d, e}
		}, gadtest.Box(1, 0.3, 4), gadtest.Rel(1e-5))
	})
}
