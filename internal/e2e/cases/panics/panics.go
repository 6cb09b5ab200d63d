// Package panics is an end-to-end case of gadgen's forward mode: functions
// that check their arguments and panic, gonum style. The derivative must
// panic where the function does, with the same value.
package panics

//go:generate gadgen

import (
	"fmt"
	"math"
)

// Dot returns x·y. It panics if the lengths differ.
//
//gad:jvp
//gad:grad
func Dot(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("panics: length mismatch")
	}
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// MulVec stores into dst the product of the row-major m×n matrix a, with
// m = len(dst), and x. It panics with a formatted message if the
// dimensions do not agree.
//
//gad:jvp
func MulVec(dst, a []float64, n int, x []float64) {
	if len(x) != n {
		panic(fmt.Sprintf("panics: len(x) = %d, want %d", len(x), n))
	}
	if len(a) != len(dst)*n {
		panic("panics: matrix size mismatch")
	}
	for i := range dst {
		s := 0.0
		for j, v := range x {
			s += a[i*n+j] * v
		}
		dst[i] = s
	}
}

// LogSum returns Σ log x[i]. It panics, after doing some of the work, on
// the first x[i] ≤ 0.
//
//gad:jvp
//gad:grad
func LogSum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		if v <= 0 {
			panic("panics: non-positive input")
		}
		s += math.Log(v)
	}
	return s
}

// At returns x[i]²: an index out of range is a run-time panic.
//
//gad:jvp
//gad:grad
func At(x []float64, i int) float64 {
	return x[i] * x[i]
}
