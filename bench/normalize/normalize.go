// Package normalize is suite S3 of gadgen's benchmarks: vector
// normalization written the way Enzyme's paper writes it, with the norm
// computed inside the loop,
//
//	for i := range x { dst[i] = x[i] / mag(x) }
//
// so that the function itself costs O(n²) unless a compiler hoists mag out
// of the loop (Go's does not). The suite measures how the derivative's time
// grows with n: a differentiator that hoists the loop-invariant norm (or
// whose derivative of it is shared) gets O(n), one that does not O(n²).
package normalize

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// Loss returns Σ c[i]·out[i] where out is x normalized to unit length.
// Loss panics if len(c) != len(x).
//
//gad:jvp wrt=x
//gad:grad wrt=x
func Loss(x, c []float64) float64 {
	if len(c) != len(x) {
		panic("normalize: length mismatch")
	}
	out := make([]float64, len(x))
	Normalize(out, x)
	sum := 0.0
	for i := range out {
		sum += c[i] * out[i]
	}
	return sum
}

// Normalize stores x/‖x‖ into dst, recomputing the norm for each element.
// Normalize panics if len(dst) < len(x).
func Normalize(dst, x []float64) {
	for i := range x {
		dst[i] = x[i] / mag(x)
	}
}

// mag returns the Euclidean norm of x.
func mag(x []float64) float64 {
	sum := 0.0
	for _, v := range x {
		sum += v * v
	}
	return math.Sqrt(sum)
}
