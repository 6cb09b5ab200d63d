// Package gonumfloats is an end-to-end case of gadgen on gonum's floats
// package, whose kernels (gonum's internal/asm/f64) are assembly on amd64:
// gadgen reads their pure-Go variants (the noasm build tag) and
// differentiates those, with no build tag anywhere. The functions are
// differentiated in forward mode, reverse mode and Taylor mode.
//
// Some of floats' functions are differentiated in forward and Taylor mode
// only: those that return their destination slice (AddScaledTo, MulTo,
// CumSum, …), since reverse mode does not support slice results yet. Add,
// Sub and AddScaled call f64.AxpyUnitaryTo(dst, alpha, s, dst) with dst
// twice: reverse mode differentiates AxpyUnitaryTo's body read with its
// dst and y as one slice.
package gonumfloats

//go:generate gadgen

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// Quadratic combines Dot, Sum and the 2-norm.
//
//gad:jvp
//gad:grad
//gad:taylor order=3 seed=line
func Quadratic(x []float64) float64 {
	return floats.Dot(x, x) + floats.Sum(x)*floats.Norm(x, 2)
}

// Axpy adds a scaled copy of the second half of x to its first half and
// returns the squared norm: AddScaled and Dot.
//
//gad:jvp
//gad:grad
//gad:taylor order=3 seed=line
func Axpy(x []float64) float64 {
	n := len(x) / 2
	dst := make([]float64, n)
	copy(dst, x[:n])
	floats.AddScaled(dst, x[0], x[n:2*n])
	return floats.Dot(dst, dst)
}

// Elementwise scales, multiplies, shifts and divides in place.
//
//gad:jvp
//gad:grad
//gad:taylor order=3 seed=line
func Elementwise(x, y []float64) float64 {
	a := make([]float64, len(x))
	copy(a, x)
	floats.Scale(1.5, a)
	floats.Mul(a, y)
	floats.AddConst(0.25, a)
	b := make([]float64, len(y))
	copy(b, y)
	floats.AddConst(3, b)
	floats.Div(a, b)
	return floats.Sum(a)
}

// AddSub adds and subtracts in place.
//
//gad:jvp
//gad:grad
//gad:taylor order=3 seed=line
func AddSub(x, y []float64) float64 {
	a := make([]float64, len(x))
	copy(a, x)
	floats.Add(a, y)
	floats.Mul(a, x)
	floats.Sub(a, y)
	return floats.Dot(a, y)
}

// Distances sums distances and norms of several orders.
//
//gad:jvp
//gad:grad
//gad:taylor order=2 seed=line
func Distances(x, y []float64) float64 {
	return floats.Distance(x, y, 2) + 0.5*floats.Distance(x, y, 1) +
		floats.Norm(y, 3) + floats.Distance(x, y, math.Inf(1))
}

// SoftMax is a LogSumExp plus the product and the extremes of x.
//
//gad:jvp
//gad:grad
//gad:taylor order=3 seed=line
func SoftMax(x []float64) float64 {
	return floats.LogSumExp(x) + floats.Prod(x) + floats.Max(x) - floats.Min(x)
}

// Destinations uses the functions that write into a destination and
// return it. (Its jet takes every coefficient: gadgen's alias analysis
// cannot tell that the slice f64.CumProd returns is its destination and
// not s, so it assumes Destinations may write y.)
//
//gad:jvp
//gad:taylor order=3
func Destinations(x, y []float64) float64 {
	n := len(x)
	a := make([]float64, n)
	floats.AddScaledTo(a, x, 0.5, y)
	b := make([]float64, n)
	floats.MulTo(b, a, x)
	floats.ScaleTo(a, 2, b)
	floats.CumSum(b, a)
	floats.CumProd(a, y)
	floats.AddTo(a, a, b)
	floats.SubTo(b, a, x)
	floats.DivTo(a, b, y)
	return floats.Sum(a)
}
