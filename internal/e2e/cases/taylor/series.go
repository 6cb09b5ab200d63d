// Package taylor holds the end-to-end cases of Taylor mode: functions
// with known Taylor series, and loops, branches, calls and slices.
package taylor

import "math"

// Exp is eˣ: every coefficient along x + t is eˣ/k!.
//
//gad:taylor order=6
func Exp(x float64) float64 { return math.Exp(x) }

// Sin is sin x, expanded together with cos.
//
//gad:taylor order=5
func Sin(x float64) float64 { return math.Sin(x) }

// Log1p is ln(1+x): at 0, the coefficients are (−1)^(k+1)/k.
//
//gad:taylor order=5
func Log1p(x float64) float64 { return math.Log1p(x) }

// Geometric is 1/(1−x): at 0, every coefficient is 1.
//
//gad:taylor order=6
func Geometric(x float64) float64 { return 1 / (1 - x) }

// Rosenbrock is Σ 100·(x[i+1] − x[i]²)² + (1 − x[i])², along a line.
//
//gad:taylor order=3 seed=line
func Rosenbrock(x []float64) float64 {
	sum := 0.0
	for i := 0; i < len(x)-1; i++ {
		a := x[i+1] - x[i]*x[i]
		b := 1 - x[i]
		sum += 100*a*a + b*b
	}
	return sum
}
