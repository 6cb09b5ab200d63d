package tensorrewrites

import "github.com/gadgen/gadgen/tensorops"

// This file exhibits the tensor rewrites of products by diagonal
// matrices, padding, reshapes, transposes, reductions of broadcasts and
// constant tensors: each function shows one (or one family), in the
// primal and in its derivatives, generated optimized and with opt=0
// (names ending in O0); algebra_test.go checks that each fires and
// changes no number beyond rounding.

// DiagRows multiplies by a diagonal matrix on the left:
// MatMul(Diag(v), a) → ScaleRows(v, a), for a of any rank.
//
//gad:jvp
//gad:grad
func DiagRows(v, a *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Tanh(tensorops.MatMul(tensorops.Diag(v), a)))
}

// DiagCols multiplies by a diagonal matrix on the right, transposed (a
// diagonal matrix is its transpose): MatMulT(a, Diag(v), false, true) →
// ScaleCols(a, v).
//
//gad:jvp
//gad:grad
func DiagCols(a, v *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Sin(tensorops.MatMulT(a, tensorops.Diag(v), false, true)))
}

// PadMul multiplies a padded x by a gate of the padded shape (computed
// from another padding of x's shape): the product is computed over x's
// elements only, Pad(Mul(x, SliceLike(y, x, 1, 2)), 1, 2, 1).
//
//gad:jvp
//gad:grad
func PadMul(x *tensorops.Tensor) float64 {
	y := tensorops.Exp(tensorops.Pad(tensorops.Sin(x), 1, 2, 1))
	return tensorops.SumAll(tensorops.Square(tensorops.Mul(tensorops.Pad(x, 1, 2, 1), y)))
}

// Reshapes reshapes twice, and squeezes an axis it has just inserted:
// Reshape(Reshape(x, -1), 4, 3) → Reshape(x, 4, 3) and
// Squeeze(Unsqueeze(y, 0), 0) → y.
//
//gad:jvp
//gad:grad
func Reshapes(x, w *tensorops.Tensor) float64 {
	y := tensorops.Tanh(tensorops.Reshape(tensorops.Reshape(x, -1), 4, 3))
	return tensorops.Dot(tensorops.Squeeze(tensorops.Unsqueeze(y, 0), 0), w)
}

// Transposes transposes x, applies elementwise functions and transposes
// back: the transpose moves through Scale and Exp and cancels.
//
//gad:jvp
//gad:grad
func Transposes(x, w *tensorops.Tensor) float64 {
	y := tensorops.Exp(tensorops.Scale(tensorops.Transpose(x, 1, 0), 0.5))
	return tensorops.Dot(tensorops.Transpose(y, 1, 0), w)
}

// TransposeGemm multiplies by an elementwise function of a transposed
// operand: the transpose moves through Tanh and becomes a GEMM flag,
// MatMulT(Tanh(a), b, true, false).
//
//gad:jvp
//gad:grad
func TransposeGemm(a, b *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.MatMul(tensorops.Tanh(tensorops.Transpose(a, 1, 0)), b))
}

// TransposeSum adds two transposed tensors: one transpose of the sum,
// Transpose(Add(a, b), 1, 0), in the primal and in the tangent.
//
//gad:jvp
//gad:grad
func TransposeSum(a, b, w *tensorops.Tensor) float64 {
	return tensorops.Dot(tensorops.Add(tensorops.Transpose(a, 1, 0), tensorops.Transpose(b, 1, 0)), w)
}

// SumBroadcast sums and averages broadcasts: SumAll(Broadcast(y, 3, 4))
// → SumAll(y)·RepeatsShape(y, 3, 4), MeanAll(BroadcastLike(z, w)) →
// MeanAll(z).
//
//gad:jvp
//gad:grad
func SumBroadcast(x, w *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Broadcast(tensorops.Sin(x), 3, 4)) +
		tensorops.MeanAll(tensorops.BroadcastLike(tensorops.Tanh(x), w))
}

// BiasSum sums a broadcast sum: the adjoints of x and b sum the seed's
// ones back to their shapes, SumLike(FullLike(r, 1), b) →
// FullLike(b, Repeats(b, r)).
//
//gad:grad
func BiasSum(x, b *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Add(x, b))
}

// SumLikeOf sums a broadcast of y back to y's shape:
// SumLike(BroadcastLike(y, w), y) → Scale(y, Repeats(y, w)).
//
//gad:jvp
//gad:grad
func SumLikeOf(x, w *tensorops.Tensor) float64 {
	y := tensorops.Tanh(x)
	return tensorops.SumAll(tensorops.Square(tensorops.SumLike(tensorops.BroadcastLike(y, w), y)))
}

// FullSum sums a constant tensor: SumAll(FullLike(x, s)) →
// s·float64(Size(x)).
//
//gad:jvp
//gad:grad
func FullSum(x *tensorops.Tensor, s float64) float64 {
	return tensorops.SumAll(tensorops.FullLike(x, s)) * tensorops.Dot(x, x)
}

// Folds computes with constant tensors: Exp(Scale(FullLike(x, 2), 0.5))
// folds to FullLike(x, e), Log(Full(dt, 4, 3, 4)) to Full(dt, log 4, 3,
// 4); a product by a constant tensor of the other operand's shape is a
// Scale, a quotient of one a ScalarDiv.
//
//gad:jvp
//gad:grad
func Folds(x *tensorops.Tensor) float64 {
	e := tensorops.Exp(tensorops.Scale(tensorops.FullLike(x, 2), 0.5))
	q := tensorops.Div(tensorops.FullLike(x, 3), tensorops.AddScalar(tensorops.Square(x), 1))
	l := tensorops.Log(tensorops.Full(x.DType(), 4, 3, 4))
	return tensorops.SumAll(tensorops.Mul(e, tensorops.Sin(x))) + tensorops.SumAll(q) + tensorops.Dot(l, x)
}

// SliceBias uses two columns of a biased tanh: the slice is pushed
// through the broadcasting sum, SliceBroadcast slicing the bias b along
// its own axis when it has one (b [4]) and not when it is broadcast
// along it (b [3, 1]).
//
//gad:jvp
//gad:grad
func SliceBias(x, b *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Square(tensorops.Slice(tensorops.Add(tensorops.Tanh(x), b), 1, 1, 3)))
}

//gad:jvp DiagRowsJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.DiagRows opt=0
//gad:grad DiagRowsGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.DiagRows opt=0
//gad:jvp DiagColsJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.DiagCols opt=0
//gad:grad DiagColsGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.DiagCols opt=0
//gad:jvp PadMulJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.PadMul opt=0
//gad:grad PadMulGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.PadMul opt=0
//gad:jvp ReshapesJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Reshapes opt=0
//gad:grad ReshapesGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Reshapes opt=0
//gad:jvp TransposesJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Transposes opt=0
//gad:grad TransposesGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Transposes opt=0
//gad:jvp TransposeGemmJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.TransposeGemm opt=0
//gad:grad TransposeGemmGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.TransposeGemm opt=0
//gad:jvp TransposeSumJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.TransposeSum opt=0
//gad:grad TransposeSumGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.TransposeSum opt=0
//gad:jvp SumBroadcastJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.SumBroadcast opt=0
//gad:grad SumBroadcastGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.SumBroadcast opt=0
//gad:grad BiasSumGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.BiasSum opt=0
//gad:jvp SumLikeOfJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.SumLikeOf opt=0
//gad:grad SumLikeOfGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.SumLikeOf opt=0
//gad:jvp FullSumJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.FullSum opt=0
//gad:grad FullSumGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.FullSum opt=0
//gad:jvp FoldsJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Folds opt=0
//gad:grad FoldsGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.Folds opt=0
//gad:jvp SliceBiasJVPO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.SliceBias opt=0
//gad:grad SliceBiasGradO0 github.com/gadgen/gadgen/internal/e2e/cases/tensorrewrites.SliceBias opt=0
