package mathfuncs

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// where returns a Gen of points in [lo, hi)ⁿ for which ok holds.
func where(n int, lo, hi float64, ok func(x []float64) bool) fdcheck.Gen {
	return func(r *rand.Rand) fdcheck.Point {
		for {
			x := fdcheck.Uniform(r, n, lo, hi)
			if ok(x) {
				return fdcheck.Point{X: x, V: fdcheck.Direction(r, n)}
			}
		}
	}
}

func box(lo, hi float64) fdcheck.Gen { return fdcheck.Box(1, lo, hi) }

// awayFrom0 is [-hi, hi] without (-0.1, 0.1).
func awayFrom0(hi float64) fdcheck.Gen {
	return where(1, -hi, hi, func(x []float64) bool { return math.Abs(x[0]) > 0.1 })
}

// fracBetween accepts x whose fractional part |x| − ⌊|x|⌋ lies in one of
// the given intervals.
func fracBetween(x float64, iv ...[2]float64) bool {
	_, f := math.Modf(math.Abs(x))
	for _, i := range iv {
		if f > i[0] && f < i[1] {
			return true
		}
	}
	return false
}

// apart accepts vectors whose components differ pairwise by more than 0.1.
func apart(x []float64) bool {
	for i := range x {
		for j := range i {
			if math.Abs(x[i]-x[j]) < 0.1 {
				return false
			}
		}
	}
	return true
}

func TestUnary(t *testing.T) {
	u := func(name string, f func(float64) float64, j func(x, dx float64) (float64, float64), gen fdcheck.Gen) fdcheck.Case {
		return fdcheck.Case{Name: name, F: fdcheck.Unary(f), JVP: fdcheck.UnaryJVP(j), Gen: gen}
	}
	offKink := where(1, -4, 4, func(x []float64) bool { return fracBetween(x[0], [2]float64{0.1, 0.4}, [2]float64{0.6, 0.9}) })
	fdcheck.Run(t, []fdcheck.Case{
		u("Sin", Sin, SinJVP, box(-3, 3)),
		u("Cos", Cos, CosJVP, box(-3, 3)),
		u("Tan", Tan, TanJVP, box(-1.2, 1.2)),
		u("Asin", Asin, AsinJVP, box(-0.9, 0.9)),
		u("Acos", Acos, AcosJVP, box(-0.9, 0.9)),
		u("Atan", Atan, AtanJVP, box(-3, 3)),
		u("Sinh", Sinh, SinhJVP, box(-3, 3)),
		u("Cosh", Cosh, CoshJVP, box(-3, 3)),
		u("Tanh", Tanh, TanhJVP, box(-3, 3)),
		u("Asinh", Asinh, AsinhJVP, box(-3, 3)),
		u("Acosh", Acosh, AcoshJVP, box(1.1, 5)),
		u("Atanh", Atanh, AtanhJVP, box(-0.9, 0.9)),
		u("Exp", Exp, ExpJVP, box(-3, 3)),
		u("Exp2", Exp2, Exp2JVP, box(-3, 3)),
		u("Expm1", Expm1, Expm1JVP, box(-3, 3)),
		u("Log", Log, LogJVP, box(0.1, 10)),
		u("Log2", Log2, Log2JVP, box(0.1, 10)),
		u("Log10", Log10, Log10JVP, box(0.1, 10)),
		u("Log1p", Log1p, Log1pJVP, box(-0.9, 5)),
		u("Sqrt", Sqrt, SqrtJVP, box(0.1, 10)),
		u("Cbrt", Cbrt, CbrtJVP, awayFrom0(10)),
		u("Abs", Abs, AbsJVP, awayFrom0(3)),
		u("Erf", Erf, ErfJVP, box(-2, 2)),
		u("Erfc", Erfc, ErfcJVP, box(-2, 2)),
		u("Erfinv", Erfinv, ErfinvJVP, box(-0.9, 0.9)),
		u("Erfcinv", Erfcinv, ErfcinvJVP, box(0.1, 1.9)),
		u("Gamma", Gamma, GammaJVP, box(0.2, 4.5)),
		u("Gamma/negative", Gamma, GammaJVP, box(-2.9, -2.1)),
		u("J0", J0, J0JVP, box(0.5, 10)),
		u("J1", J1, J1JVP, box(0.5, 10)),
		u("Y0", Y0, Y0JVP, box(0.5, 10)),
		u("Y1", Y1, Y1JVP, box(0.5, 10)),
		u("Jn", Jn, JnJVP, box(0.5, 10)),
		u("Yn", Yn, YnJVP, box(0.5, 10)),
		u("Floor", Floor, FloorJVP, offKink),
		u("Ceil", Ceil, CeilJVP, offKink),
		u("Trunc", Trunc, TruncJVP, offKink),
		u("Round", Round, RoundJVP, offKink),
		u("RoundToEven", RoundToEven, RoundToEvenJVP, offKink),
		u("PowConst", PowConst, PowConstJVP, box(0.1, 3)),
		u("PowInt", PowInt, PowIntJVP, box(-3, 3)),
		u("PowBase", PowBase, PowBaseJVP, box(-3, 3)),
		u("Softplus", Softplus, SoftplusJVP, box(-5, 5)),
		u("Softplus/large", Softplus, SoftplusJVP, box(31, 40)),
		u("Chain", Chain, ChainJVP, box(-2, 2)),
		{Name: "Ldexp/5", Gen: box(-3, 3),
			F: func(x []float64) []float64 { return []float64{Ldexp(x[0], 5)} },
			JVP: func(x, v []float64) []float64 {
				_, d := LdexpJVP(x[0], v[0], 5)
				return []float64{d}
			}},
		{Name: "Ldexp/-3", Gen: box(-3, 3),
			F: func(x []float64) []float64 { return []float64{Ldexp(x[0], -3)} },
			JVP: func(x, v []float64) []float64 {
				_, d := LdexpJVP(x[0], v[0], -3)
				return []float64{d}
			}},
	})
}

func TestBinary(t *testing.T) {
	b := func(name string, f func(a, b float64) float64, j func(a, da, b, db float64) (float64, float64), gen fdcheck.Gen) fdcheck.Case {
		return fdcheck.Case{Name: name, F: fdcheck.Binary(f), JVP: fdcheck.BinaryJVP(j), Gen: gen}
	}
	// Mod and Remainder have kinks where x/y is an integer (Mod) or a
	// half-integer (Remainder).
	quotient := func(sign float64, ok func(q float64) bool) fdcheck.Gen {
		return func(r *rand.Rand) fdcheck.Point {
			for {
				x, y := sign*(2.8+9*r.Float64()), 0.7+2.3*r.Float64()
				if ok(x / y) {
					return fdcheck.Point{X: []float64{x, y}, V: fdcheck.Direction(r, 2)}
				}
			}
		}
	}
	mod := quotient(1, func(q float64) bool { return fracBetween(q, [2]float64{0.05, 0.95}) })
	rem := quotient(-1, func(q float64) bool {
		return fracBetween(q, [2]float64{0.05, 0.45}, [2]float64{0.55, 0.95})
	})
	fdcheck.Run(t, []fdcheck.Case{
		b("Atan2", Atan2, Atan2JVP, where(2, -3, 3, func(x []float64) bool { return x[1] > 0.2 })),
		b("Atan2/left", Atan2, Atan2JVP, where(2, -3, 3, func(x []float64) bool { return x[1] < -0.2 && math.Abs(x[0]) > 0.2 })),
		b("Pow", Pow, PowJVP, where(2, -2, 3, func(x []float64) bool { return x[0] > 0.2 })),
		b("Hypot", Hypot, HypotJVP, where(2, -3, 3, func(x []float64) bool { return math.Abs(x[0]) > 0.2 || math.Abs(x[1]) > 0.2 })),
		b("Max", Max, MaxJVP, where(2, -3, 3, apart)),
		b("Min", Min, MinJVP, where(2, -3, 3, apart)),
		b("Mod", Mod, ModJVP, mod),
		b("Remainder", Remainder, RemainderJVP, rem),
		b("Dim", Dim, DimJVP, where(2, -3, 3, apart)),
		b("Copysign", Copysign, CopysignJVP, where(2, -3, 3, func(x []float64) bool { return math.Abs(x[0]) > 0.1 && math.Abs(x[1]) > 0.1 })),
		{Name: "Max2", Gen: where(2, -3, 3, func(x []float64) bool { return apart([]float64{x[0], 2 * x[1], -1}) }),
			F: fdcheck.Binary(Max2), JVP: fdcheck.BinaryJVP(Max2JVP)},
	})
}

func TestTernary(t *testing.T) {
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "FMA", Gen: fdcheck.Box(3, -2, 2),
			F: func(x []float64) []float64 { return []float64{FMA(x[0], x[1], x[2])} },
			JVP: func(x, v []float64) []float64 {
				_, d := FMAJVP(x[0], v[0], x[1], v[1], x[2], v[2])
				return []float64{d}
			}},
		{Name: "Min3", Gen: where(3, -3, 3, apart),
			F: func(x []float64) []float64 { return []float64{Min3(x[0], x[1], x[2])} },
			JVP: func(x, v []float64) []float64 {
				_, d := Min3JVP(x[0], v[0], x[1], v[1], x[2], v[2])
				return []float64{d}
			}},
		{Name: "NormalPDF", Gen: where(3, -2, 2, func(x []float64) bool { return x[2] > 0.5 }),
			F: func(x []float64) []float64 { return []float64{NormalPDF(x[0], x[1], x[2])} },
			JVP: func(x, v []float64) []float64 {
				_, d := NormalPDFJVP(x[0], v[0], x[1], v[1], x[2], v[2])
				return []float64{d}
			}},
	})
}

// Functions with several results: each float result has its tangent, the
// int results have none.
func TestMultipleResults(t *testing.T) {
	offInt := where(1, -4, 4, func(x []float64) bool { return fracBetween(x[0], [2]float64{0.1, 0.9}) })
	// Frexp's fraction jumps at powers of two: draw |x| in 2^k·[1.1, 1.9).
	offPow2 := func(r *rand.Rand) fdcheck.Point {
		x := math.Ldexp(1.1+0.8*r.Float64(), r.IntN(7)-3)
		if r.IntN(2) == 0 {
			x = -x
		}
		return fdcheck.Point{X: []float64{x}, V: fdcheck.Direction(r, 1)}
	}
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Sincos", Gen: box(-3, 3),
			F: func(x []float64) []float64 {
				s, c := Sincos(x[0])
				return []float64{s, c}
			},
			JVP: func(x, v []float64) []float64 {
				_, _, ds, dc := SincosJVP(x[0], v[0])
				return []float64{ds, dc}
			}},
		{Name: "Modf", Gen: offInt,
			F: func(x []float64) []float64 {
				i, f := Modf(x[0])
				return []float64{i, f}
			},
			JVP: func(x, v []float64) []float64 {
				_, _, di, df := ModfJVP(x[0], v[0])
				return []float64{di, df}
			}},
		{Name: "Frexp", Gen: offPow2,
			F: func(x []float64) []float64 {
				f, _ := Frexp(x[0])
				return []float64{f}
			},
			JVP: func(x, v []float64) []float64 {
				_, _, df := FrexpJVP(x[0], v[0])
				return []float64{df}
			}},
		{Name: "Lgamma", Gen: box(0.2, 5),
			F: func(x []float64) []float64 {
				l, _ := Lgamma(x[0])
				return []float64{l}
			},
			JVP: func(x, v []float64) []float64 {
				_, _, dl := LgammaJVP(x[0], v[0])
				return []float64{dl}
			}},
		{Name: "Lgamma/negative", Gen: box(-2.9, -2.1),
			F: func(x []float64) []float64 {
				l, _ := Lgamma(x[0])
				return []float64{l}
			},
			JVP: func(x, v []float64) []float64 {
				_, _, dl := LgammaJVP(x[0], v[0])
				return []float64{dl}
			}},
	})
	// The int results pass through unchanged.
	if _, e, _ := FrexpJVP(12, 1); e != 4 {
		t.Errorf("FrexpJVP(12, 1): exponent %d, want 4", e)
	}
	if _, s, _ := LgammaJVP(-2.5, 1); s != -1 {
		t.Errorf("LgammaJVP(-2.5, 1): sign %d, want -1", s)
	}
}

// The tangents of the standard rules, against closed forms, tightly.
func TestClosedForms(t *testing.T) {
	for _, p := range fdcheck.Points(1, 10, fdcheck.Box(1, 0.2, 0.9)) {
		x := p.X[0]
		d := func(j func(x, dx float64) (float64, float64)) float64 {
			_, dy := j(x, 1)
			return dy
		}
		got := []float64{d(SinJVP), d(CosJVP), d(ExpJVP), d(LogJVP), d(SqrtJVP), d(AtanJVP), d(AsinJVP), d(TanhJVP), d(ErfJVP)}
		want := []float64{math.Cos(x), -math.Sin(x), math.Exp(x), 1 / x, 0.5 / math.Sqrt(x), 1 / (1 + x*x),
			1 / math.Sqrt(1-x*x), 1 - math.Tanh(x)*math.Tanh(x), 2 / math.SqrtPi * math.Exp(-x*x)}
		fdcheck.Close(t, "d", got, want, 1e-14)
	}
}
