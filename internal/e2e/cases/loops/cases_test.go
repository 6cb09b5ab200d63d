package loops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestJVP(t *testing.T) {
	cases := []fdcheck.Case{
		{Name: "SumSquares", F: fdcheck.ScalarField(SumSquares), JVP: fdcheck.ScalarFieldJVP(SumSquaresJVP), Gen: fdcheck.Box(7, -2, 2)},
		{Name: "Backward", F: fdcheck.ScalarField(Backward), JVP: fdcheck.ScalarFieldJVP(BackwardJVP), Gen: fdcheck.Box(7, -2, 2)},
		// x²+2 ∈ [2.04, 3): two halvings, away from the jumps at 2 and 4.
		{Name: "Halve", F: fdcheck.Unary(Halve), JVP: fdcheck.UnaryJVP(HalveJVP), Gen: fdcheck.Box(1, 0.2, 0.95)},
		{Name: "ExpSeries", F: fdcheck.Unary(ExpSeries), JVP: fdcheck.UnaryJVP(ExpSeriesJVP), Gen: fdcheck.Box(1, -3, 3)},
		{Name: "Sqrt", F: fdcheck.Unary(Sqrt), JVP: fdcheck.UnaryJVP(SqrtJVP), Gen: fdcheck.Box(1, 0.01, 100)},
		{Name: "Dot", F: dot, JVP: dotJVP, Gen: fdcheck.Box(8, -2, 2)},
		{Name: "Product", F: fdcheck.ScalarField(Product), JVP: fdcheck.ScalarFieldJVP(ProductJVP), Gen: fdcheck.Box(6, -2, 2)},
		{Name: "Weighted", F: fdcheck.ScalarField(Weighted), JVP: fdcheck.ScalarFieldJVP(WeightedJVP), Gen: fdcheck.Box(6, -2, 2)},
		{Name: "Horner", F: horner, JVP: hornerJVP, Gen: fdcheck.Box(5, -2, 2)},
		{Name: "ArraySum", Gen: fdcheck.Box(3, -2, 2),
			F: func(x []float64) []float64 { return []float64{ArraySum([3]float64(x))} },
			JVP: func(x, v []float64) []float64 {
				_, d := ArraySumJVP([3]float64(x), [3]float64(v))
				return []float64{d}
			}},
		{Name: "Harmonic", Gen: fdcheck.Box(1, 0.5, 3),
			F: func(x []float64) []float64 { return []float64{Harmonic(x[0], 6)} },
			JVP: func(x, v []float64) []float64 {
				_, d := HarmonicJVP(x[0], v[0], 6)
				return []float64{d}
			}},
		{Name: "Lower", F: fdcheck.ScalarField(Lower), JVP: fdcheck.ScalarFieldJVP(LowerJVP), Gen: lowerGen, N: 20},
		{Name: "SkipNegative", F: fdcheck.ScalarField(SkipNegative), JVP: fdcheck.ScalarFieldJVP(SkipNegativeJVP), Gen: skipGen, N: 20},
		{Name: "Trace2", Gen: fdcheck.Box(9, -2, 2),
			F: func(x []float64) []float64 { return []float64{Trace2(x, 3)} },
			JVP: func(x, v []float64) []float64 {
				_, d := Trace2JVP(x, v, 3)
				return []float64{d}
			}},
	}
	for _, n := range []int{0, 1, 2, 5} {
		cases = append(cases,
			fdcheck.Case{Name: fmt.Sprint("PowN/", n), Gen: fdcheck.Box(1, -2, 2),
				F: func(x []float64) []float64 { return []float64{PowN(x[0], n)} },
				JVP: func(x, v []float64) []float64 {
					_, d := PowNJVP(x[0], v[0], n)
					return []float64{d}
				}},
			fdcheck.Case{Name: fmt.Sprint("Chebyshev/", n), Gen: fdcheck.Box(1, -1, 1),
				F: func(x []float64) []float64 { return []float64{Chebyshev(x[0], n)} },
				JVP: func(x, v []float64) []float64 {
					_, d := ChebyshevJVP(x[0], v[0], n)
					return []float64{d}
				}})
	}
	fdcheck.Run(t, cases)
}

// Loops that converge have the derivative of what they converge to.
func TestConverged(t *testing.T) {
	for _, p := range fdcheck.Points(1, 20, fdcheck.Box(1, 0.01, 100)) {
		a := p.X[0]
		s, ds := SqrtJVP(a, 1)
		fdcheck.Close(t, "Sqrt", []float64{s, ds}, []float64{math.Sqrt(a), 0.5 / math.Sqrt(a)}, 1e-12)
	}
	for _, p := range fdcheck.Points(2, 20, fdcheck.Box(1, -3, 3)) {
		x := p.X[0]
		e, de := ExpSeriesJVP(x, 1)
		fdcheck.Close(t, "ExpSeries", []float64{e, de}, []float64{math.Exp(x), math.Exp(x)}, 1e-12)
	}
}

func dot(x []float64) []float64 { return []float64{Dot(x[:4], x[4:])} }

func dotJVP(x, v []float64) []float64 {
	_, d := DotJVP(x[:4], v[:4], x[4:], v[4:])
	return []float64{d}
}

func horner(x []float64) []float64 { return []float64{Horner([4]float64(x[:4]), x[4])} }

func hornerJVP(x, v []float64) []float64 {
	_, d := HornerJVP([4]float64(x[:4]), [4]float64(v[:4]), x[4], v[4])
	return []float64{d}
}

// lowerGen draws 5 values in [0.5, 10) whose pairwise products are not
// within 1 of Lower's cut-off 50.
func lowerGen(r *rand.Rand) fdcheck.Point {
	for {
		a := fdcheck.Uniform(r, 5, 0.5, 10)
		ok := true
		for i := range a {
			for j := range a {
				ok = ok && math.Abs(a[i]*a[j]-50) > 1
			}
		}
		if ok {
			return fdcheck.Point{X: a, V: fdcheck.Direction(r, 5)}
		}
	}
}

// skipGen draws 8 values in [-5, 15) at least 0.1 from 0 and 10.
func skipGen(r *rand.Rand) fdcheck.Point {
	x := make([]float64, 8)
	for i := range x {
		for {
			x[i] = -5 + 20*r.Float64()
			if math.Abs(x[i]) > 0.1 && math.Abs(x[i]-10) > 0.1 {
				break
			}
		}
	}
	return fdcheck.Point{X: x, V: fdcheck.Direction(r, 8)}
}
