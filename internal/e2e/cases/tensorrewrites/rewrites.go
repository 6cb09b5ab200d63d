// Package tensorrewrites is an end-to-end case of the tensor rewrites of
// package simplify: each function exhibits one rewrite, and its
// derivatives are generated twice, optimized and with opt=0 (names ending
// in O0). The test shows that each rewrite fires (the pattern is in the
// opt=0 code, not in the optimized code) and changes no number beyond
// rounding.
package tensorrewrites

//go:generate gadgen

import "github.com/gadgen/gadgen/tensorops"

// TT transposes twice: Transpose(Transpose(x, 1, 0), 1, 0) → x.
//
//gad:jvp
//gad:grad
func TT(x, w *tensorops.Tensor) float64 {
	return tensorops.Dot(tensorops.Transpose(tensorops.Transpose(x, 1, 0), 1, 0), w)
}

// MT multiplies by a transposed operand: MatMul(Transpose(a, 1, 0), b) →
// MatMulT(a, b, true, false), in the primal and in both derivatives.
//
//gad:jvp
//gad:grad
func MT(a, b *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Tanh(tensorops.MatMul(tensorops.Transpose(a, 1, 0), b)))
}

// Sq's gradient multiplies by the seed of SumAll's adjoint, a tensor of
// ones of the same shape: Mul(a, FullLike(b, 1)) → a; and sums it back to
// its own shape: SumLike(g, like) → g.
//
//gad:grad
func Sq(x *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Square(tensorops.Sin(x)))
}

//gad:jvp TTJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.TT opt=0
//gad:grad TTGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.TT opt=0
//gad:jvp MTJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.MT opt=0
//gad:grad MTGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.MT opt=0
//gad:grad SqGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Sq opt=0

// SliceOf uses 3 rows of an elementwise expression of n: the slice is
// pushed through the operations, which then compute 3 rows; through the
// product of x and z, whose shapes the analysis does not relate, as
// SliceBroadcast, which the runtime resolves (each operand sliced unless
// broadcast along the axis).
//
//gad:jvp
//gad:grad
func SliceOf(x, z *tensorops.Tensor) float64 {
	c := tensorops.AddScalar(tensorops.Mul(tensorops.Tanh(x), z), 4)
	return tensorops.SumAll(tensorops.Slice(c, 0, 2, 5))
}

//gad:jvp SliceOfJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.SliceOf opt=0
//gad:grad SliceOfGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.SliceOf opt=0
