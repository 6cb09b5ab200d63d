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

// Logistic32 is the logistic function in float32, through float64 math.
//
//gad:taylor order=3
func Logistic32(x float32) float32 {
	return float32(1 / (1 + math.Exp(-float64(x))))
}

// Sum3 is variadic: its jet takes the variadic parameter's coefficients
// as slices.
//
//gad:taylor order=2
func Sum3(xs ...float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x * x * x
	}
	return s
}

// CallsSum3 calls the variadic Sum3 with varied arguments.
//
//gad:taylor order=2
func CallsSum3(a, b float64) float64 { return Sum3(a, 2*b, a*b) }
