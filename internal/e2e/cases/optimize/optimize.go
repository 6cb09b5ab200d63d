// Package optimize holds the end-to-end cases of gadgen's optimizer: loops
// whose invariant calls gadgen computes once, constants it folds, and
// powers it reduces. Their derivatives are checked like every case's, and
// driver's TestOptimizationSameNumbers compares them with their -O0
// versions.
package optimize

import "math"

// Normalized returns Σ c[i]·x[i]/‖x‖ with the norm computed in the loop
// of normalize, as benchmark S3 writes it: inlined into Normalized, whose
// out is a fresh slice, mag(x) is computed once.
//
//gad:jvp
//gad:grad
func Normalized(x, c []float64) float64 {
	out := make([]float64, len(x))
	normalize(out, x)
	s := 0.0
	for i := range out {
		s += c[i] * out[i]
	}
	return s
}

func normalize(dst, x []float64) {
	for i := range x {
		dst[i] = x[i] / mag(x)
	}
}

func mag(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// Guarded returns Σ x[i]·c[i]/√(x·x). dot panics when the lengths differ,
// so it is computed once under the loop's test, not before the loop.
//
//gad:jvp
//gad:grad
func Guarded(x, c []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] / math.Sqrt(dot(x, x)) * c[i]
	}
	return s
}

func dot(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("optimize: length mismatch")
	}
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// Folded uses math of constants, which gadgen folds, and powers it
// reduces: Pow(x, 2) to x*x, Pow(x, 1) to x, Pow(x, 0) to 1.
//
//gad:jvp
//gad:grad
func Folded(x float64) float64 {
	a := math.Sqrt(2) * math.Log(10)
	return a*math.Pow(x, 2) + math.Pow(x, 1) + math.Pow(x, 0) + math.Exp(-0.5)*x
}
