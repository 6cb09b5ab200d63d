package recursion

import (
	"fmt"
	"math"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestJVP(t *testing.T) {
	var cases []fdcheck.Case
	for _, n := range []int{-3, 0, 1, 2, 7, 10} {
		cases = append(cases, fdcheck.Case{Name: fmt.Sprint("Pow/", n), Gen: fdcheck.Box(1, 0.5, 1.5),
			F: func(x []float64) []float64 { return []float64{Pow(x[0], n)} },
			JVP: func(x, v []float64) []float64 {
				_, d := PowJVP(x[0], v[0], n)
				return []float64{d}
			}})
	}
	for _, n := range []int{0, 1, 2, 5, 8} {
		cases = append(cases,
			fdcheck.Case{Name: fmt.Sprint("Chebyshev/", n), Gen: fdcheck.Box(1, -1, 1),
				F: func(x []float64) []float64 { return []float64{Chebyshev(n, x[0])} },
				JVP: func(x, v []float64) []float64 {
					_, d := ChebyshevJVP(n, x[0], v[0])
					return []float64{d}
				}},
			fdcheck.Case{Name: fmt.Sprint("Even/", n), Gen: fdcheck.Box(1, -2, 2),
				F: func(x []float64) []float64 { return []float64{Even(x[0], n)} },
				JVP: func(x, v []float64) []float64 {
					_, d := EvenJVP(x[0], v[0], n)
					return []float64{d}
				}},
			fdcheck.Case{Name: fmt.Sprint("ContinuedFraction/", n), Gen: fdcheck.Box(1, 0.1, 3),
				F: func(x []float64) []float64 { return []float64{ContinuedFraction(x[0], n)} },
				JVP: func(x, v []float64) []float64 {
					_, d := ContinuedFractionJVP(x[0], v[0], n)
					return []float64{d}
				}})
	}
	cases = append(cases, fdcheck.Case{Name: "Horner", Gen: fdcheck.Box(6, -1.5, 1.5),
		F: func(x []float64) []float64 { return []float64{Horner(x[:5], x[5])} },
		JVP: func(x, v []float64) []float64 {
			_, d := HornerJVP(x[:5], v[:5], x[5], v[5])
			return []float64{d}
		}})
	fdcheck.Run(t, cases)
}

// d/dx xⁿ = n·xⁿ⁻¹ and d/dx T_n(cos θ) = n·sin(nθ)/sin θ, exactly enough.
func TestClosedForms(t *testing.T) {
	for _, n := range []int{-3, 1, 2, 7, 10} {
		x := 1.25
		_, d := PowJVP(x, 1, n)
		fdcheck.Close(t, fmt.Sprint("Pow'/", n), []float64{d}, []float64{float64(n) * math.Pow(x, float64(n-1))}, 1e-13)
	}
	for _, n := range []int{1, 2, 5, 8} {
		th := 0.7
		_, d := ChebyshevJVP(n, math.Cos(th), 1)
		fdcheck.Close(t, fmt.Sprint("Chebyshev'/", n), []float64{d}, []float64{float64(n) * math.Sin(float64(n)*th) / math.Sin(th)}, 1e-12)
	}
}
