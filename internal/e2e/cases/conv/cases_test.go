package conv

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// float32 functions are checked with a larger step and looser tolerance:
// their values carry 24 bits, so a central difference is good to ~1e-4.
var loose32 = &fdcheck.Settings{Rel: 2e-3, Abs: 1e-4, Step: 1e-2}

func TestJVP(t *testing.T) {
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Cubic32", Gen: fdcheck.Box(1, -2, 2), Settings: loose32,
			F: func(x []float64) []float64 { return []float64{float64(Cubic32(float32(x[0])))} },
			JVP: func(x, v []float64) []float64 {
				_, d := Cubic32JVP(float32(x[0]), float32(v[0]))
				return []float64{float64(d)}
			}},
		{Name: "Widen", Gen: fdcheck.Box(2, -2, 2), Settings: loose32,
			F: func(x []float64) []float64 { return []float64{Widen(float32(x[0]), x[1])} },
			JVP: func(x, v []float64) []float64 {
				_, d := WidenJVP(float32(x[0]), float32(v[0]), x[1], v[1])
				return []float64{d}
			}},
		{Name: "Narrow", Gen: fdcheck.Box(1, -2, 2), Settings: loose32,
			F: func(x []float64) []float64 { return []float64{float64(Narrow(x[0]))} },
			JVP: func(x, v []float64) []float64 {
				_, d := NarrowJVP(x[0], v[0])
				return []float64{float64(d)}
			}},
		{Name: "Exp32", Gen: fdcheck.Box(1, -2, 2), Settings: loose32,
			F: func(x []float64) []float64 { return []float64{float64(Exp32(float32(x[0])))} },
			JVP: func(x, v []float64) []float64 {
				_, d := Exp32JVP(float32(x[0]), float32(v[0]))
				return []float64{float64(d)}
			}},
		{Name: "Sum32", Gen: fdcheck.Box(5, -2, 2), Settings: loose32,
			F: func(x []float64) []float64 { return []float64{Sum32(to32(x))} },
			JVP: func(x, v []float64) []float64 {
				_, d := Sum32JVP(to32(x), to32(v))
				return []float64{d}
			}},
		{Name: "IntScale", Gen: fdcheck.Box(1, -3, 3),
			F: func(x []float64) []float64 { return []float64{IntScale(x[0], 7)} },
			JVP: func(x, v []float64) []float64 {
				_, d := IntScaleJVP(x[0], v[0], 7)
				return []float64{d}
			}},
		{Name: "Truncate", Gen: offInteger(-3, 3), F: fdcheck.Unary(Truncate), JVP: fdcheck.UnaryJVP(TruncateJVP)},
		{Name: "Index", Gen: indexGen,
			F: func(x []float64) []float64 { return []float64{Index(x[0], x[1:])} },
			JVP: func(x, v []float64) []float64 {
				_, d := IndexJVP(x[0], v[0], x[1:], v[1:])
				return []float64{d}
			}},
		{Name: "Fahrenheit", Gen: fdcheck.Box(1, -40, 100),
			F: func(x []float64) []float64 { return []float64{Fahrenheit(Celsius(x[0]))} },
			JVP: func(x, v []float64) []float64 {
				_, d := FahrenheitJVP(Celsius(x[0]), Celsius(v[0]))
				return []float64{d}
			}},
	})
}

// IntScale's tangent is exact: 2·n·x·dx.
func TestIntScaleExact(t *testing.T) {
	for _, x := range []float64{-1.5, 0, 0.25, 3} {
		y, d := IntScaleJVP(x, 1, 7)
		if y != IntScale(x, 7) || d != 14*x {
			t.Errorf("IntScaleJVP(%v, 1, 7) = %v, %v; want %v, %v", x, y, d, IntScale(x, 7), 14*x)
		}
	}
}

func to32(x []float64) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32(v)
	}
	return y
}

// offInteger draws x in [lo, hi) at least 0.1 from an integer, where int(x)
// jumps.
func offInteger(lo, hi float64) fdcheck.Gen {
	return func(r *rand.Rand) fdcheck.Point {
		for {
			x := lo + (hi-lo)*r.Float64()
			if _, f := math.Modf(math.Abs(x)); f > 0.1 && f < 0.9 {
				return fdcheck.Point{X: []float64{x}, V: fdcheck.Direction(r, 1)}
			}
		}
	}
}

// indexGen draws Index's x off an integer in [0, 3) and a table of 4.
func indexGen(r *rand.Rand) fdcheck.Point {
	p := offInteger(0, 3)(r)
	return fdcheck.Point{X: append(p.X, fdcheck.Uniform(r, 4, -2, 2)...), V: fdcheck.Direction(r, 5)}
}
