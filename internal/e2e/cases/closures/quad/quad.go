// Package quad holds higher-order functions that package closures calls
// with function literals and package functions: gadgen specializes
// functions of other packages too.
package quad

import "math"

// Simpson integrates f over [a, b] by Simpson's rule on n intervals (n
// even).
func Simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	s := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(a+float64(i)*h)
	}
	return s * h / 3
}

// Adaptive integrates f over [a, b] by the trapezoid rule, bisecting
// depth times: a recursive higher-order function.
func Adaptive(f func(float64) float64, a, b float64, depth int) float64 {
	if depth == 0 {
		return (b - a) * (f(a) + f(b)) / 2
	}
	m := (a + b) / 2
	return Adaptive(f, a, m, depth-1) + Adaptive(f, m, b, depth-1)
}

// MapSum returns Σ f(x[i]).
func MapSum(f func(float64) float64, x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += f(v)
	}
	return s
}

// Apply writes f(x[i]) into dst[i].
func Apply(dst []float64, f func(float64) float64, x []float64) {
	for i, v := range x {
		dst[i] = f(v)
	}
}

// Gaussian integrates exp(-s·t²) over [0, b]: a literal passed to
// Simpson, inside a function that package closures differentiates with
// cross-package directives.
func Gaussian(s, b float64) float64 {
	return Simpson(func(t float64) float64 { return math.Exp(-s * t * t) }, 0, b, 16)
}
