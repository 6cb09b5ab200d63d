package control

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// avoid returns a Gen of n-vectors in [lo, hi)ⁿ for which every function
// in kinks is at least 0.1 from zero: test points must not straddle a
// branch boundary.
func avoid(n int, lo, hi float64, kinks ...func(x []float64) float64) fdcheck.Gen {
	return func(r *rand.Rand) fdcheck.Point {
	retry:
		for {
			x := fdcheck.Uniform(r, n, lo, hi)
			for _, k := range kinks {
				if math.Abs(k(x)) < 0.1 {
					continue retry
				}
			}
			return fdcheck.Point{X: x, V: fdcheck.Direction(r, n)}
		}
	}
}

func TestJVP(t *testing.T) {
	cases := []fdcheck.Case{
		{Name: "Piecewise", F: fdcheck.Unary(Piecewise), JVP: fdcheck.UnaryJVP(PiecewiseJVP), N: 30,
			Gen: avoid(1, -3, 3, func(x []float64) float64 { return x[0] + 1 }, func(x []float64) float64 { return x[0] - 1 })},
		{Name: "Fold", F: fdcheck.Binary(Fold), JVP: fdcheck.BinaryJVP(FoldJVP), N: 30,
			Gen: avoid(2, -3, 3, func(x []float64) float64 { return x[0] * x[1] }, func(x []float64) float64 { return x[0] - x[1] })},
		{Name: "Regime", F: fdcheck.Binary(Regime), JVP: fdcheck.BinaryJVP(RegimeJVP), N: 30,
			Gen: avoid(2, -3, 3, func(x []float64) float64 { return x[0] - x[1] }, func(x []float64) float64 { return x[0] + x[1] })},
		{Name: "Inside", F: fdcheck.Binary(Inside), JVP: fdcheck.BinaryJVP(InsideJVP), N: 30,
			Gen: avoid(2, -3, 3, func(x []float64) float64 { return x[0] }, func(x []float64) float64 { return x[1] }, func(x []float64) float64 { return x[0] + 1 })},
		{Name: "Stats", F: stats, JVP: statsJVP, Gen: fdcheck.Box(6, -2, 2)},
		{Name: "Polar", F: polar, JVP: polarJVP, Gen: fdcheck.Box(2, 0.2, 3)},
		{Name: "Clamp", F: clamp, JVP: clampJVP, N: 30,
			Gen: avoid(3, -3, 3,
				func(x []float64) float64 { return x[0] - x[1] }, func(x []float64) float64 { return x[0] - x[2] },
				func(x []float64) float64 { return x[2] })},
		{Name: "FirstAbove", F: firstAbove, JVP: firstAboveJVP, Gen: firstAboveGen, N: 20},
	}
	for k := range 6 {
		cases = append(cases,
			fdcheck.Case{Name: fmt.Sprint("Legendre/", k), Gen: fdcheck.Box(1, -1, 1),
				F: func(x []float64) []float64 { return []float64{Legendre(k, x[0])} },
				JVP: func(x, v []float64) []float64 {
					_, d := LegendreJVP(k, x[0], v[0])
					return []float64{d}
				}},
			fdcheck.Case{Name: fmt.Sprint("Fall/", k), Gen: fdcheck.Box(1, -2, 2),
				F: func(x []float64) []float64 { return []float64{Fall(k, x[0])} },
				JVP: func(x, v []float64) []float64 {
					_, d := FallJVP(k, x[0], v[0])
					return []float64{d}
				}})
	}
	fdcheck.Run(t, cases)
}

func TestStatsEmpty(t *testing.T) {
	m, v, dm, dv := StatsJVP(nil, nil)
	if m != 0 || v != 0 || dm != 0 || dv != 0 {
		t.Errorf("StatsJVP(nil, nil) = %v, %v, %v, %v; want zeros", m, v, dm, dv)
	}
}

func stats(x []float64) []float64 {
	m, v := Stats(x)
	return []float64{m, v}
}

func statsJVP(x, dx []float64) []float64 {
	_, _, dm, dv := StatsJVP(x, dx)
	return []float64{dm, dv}
}

func polar(x []float64) []float64 {
	r, th := Polar(x[0], x[1])
	return []float64{r, th}
}

func polarJVP(x, v []float64) []float64 {
	_, _, dr, dth := PolarJVP(x[0], v[0], x[1], v[1])
	return []float64{dr, dth}
}

func clamp(x []float64) []float64 { return []float64{Clamp(x[0], x[1], x[2])} }

func clampJVP(x, v []float64) []float64 {
	_, d := ClampJVP(x[0], v[0], x[1], v[1], x[2], v[2])
	return []float64{d}
}

// FirstAbove's input is x (5 values) then limit.
func firstAbove(x []float64) []float64 { return []float64{FirstAbove(x[:5], x[5])} }

func firstAboveJVP(x, v []float64) []float64 {
	_, d := FirstAboveJVP(x[:5], v[:5], x[5], v[5])
	return []float64{d}
}

// firstAboveGen puts limit halfway between two partial sums, or beyond the
// total, so that the exit does not change under a small step.
func firstAboveGen(r *rand.Rand) fdcheck.Point {
	x := fdcheck.Uniform(r, 5, 0.5, 1.5)
	var partial []float64
	s := 0.0
	for _, v := range x {
		s += v * v
		partial = append(partial, s)
	}
	partial = append(partial, s+1)
	k := r.IntN(len(partial) - 1)
	limit := (partial[k] + partial[k+1]) / 2
	if r.IntN(6) == 0 {
		limit = s + 1 // no early return
	}
	return fdcheck.Point{X: append(x, limit), V: fdcheck.Direction(r, 6)}
}
