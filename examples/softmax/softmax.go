// Package softmax shows gadgen on a gonum-style destination-first function:
// one that writes its output into a slice instead of returning it.
//
// The derivative writes the tangents of what the function writes: go
// generate writes softmax_grad.go with
//
//	func SoftmaxJVP(dst, ddst, x, dx []float64)
//
// which stores softmax(x) into dst, as Softmax does, and the directional
// derivative of softmax at x along dx into ddst.
package softmax

//go:generate gadgen

import "math"

// Softmax stores into dst the softmax of x,
//
//	dst[i] = exp(x[i]) / Σ_j exp(x[j]),
//
// computed as exp(x[i] − max x) / Σ_j exp(x[j] − max x) so that large
// inputs do not overflow. Softmax panics if len(dst) != len(x).
//
//gad:jvp
func Softmax(dst, x []float64) {
	if len(dst) != len(x) {
		panic("softmax: length mismatch")
	}
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	sum := 0.0
	for i, v := range x {
		dst[i] = math.Exp(v - m)
		sum += dst[i]
	}
	for i := range dst {
		dst[i] /= sum
	}
}
