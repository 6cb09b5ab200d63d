// Package tensorrules is the end-to-end case of the derivative rules of
// the tensor runtime (package tensorops): for every Smooth rule of
// templates.TensorPkg, one wrapper calling exactly that operation, with
// tensors and float64s for its differentiable operands and its other
// arguments (ints, bools, axes, shapes, permutations) fixed inside. Each
// wrapper is differentiated in forward mode (//gad:jvp), reverse mode
// (//gad:vjp) and, unless its rule is first order only (neither
// partials, nor a Linear or Bilinear series, nor an expansion), Taylor
// mode to order 3; tensorrules_test.go checks every derivative in float64 and
// float32, and that every such rule has a wrapper here.
//
// A wrapper is named after its operation with the suffix Op, so that the
// names of the derivatives (MaxOpJVP) never collide with a wrapper's
// (MaxJVPOp).
package tensorrules

//go:generate gadgen

import "github.com/gadgen/gadgen/tensorops"

type T = tensorops.Tensor

// Unary elementwise operations.

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ExpOp(a *T) *T { return tensorops.Exp(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func LogOp(a *T) *T { return tensorops.Log(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func TanhOp(a *T) *T { return tensorops.Tanh(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SigmoidOp(a *T) *T { return tensorops.Sigmoid(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ReLUOp(a *T) *T { return tensorops.ReLU(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func TanhJVPOp(y, dx *T) *T { return tensorops.TanhJVP(y, dx) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SigmoidJVPOp(y, dx *T) *T { return tensorops.SigmoidJVP(y, dx) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ReLUJVPOp(x, dx *T) *T { return tensorops.ReLUJVP(x, dx) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SqrtOp(a *T) *T { return tensorops.Sqrt(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AbsOp(a *T) *T { return tensorops.Abs(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SquareOp(a *T) *T { return tensorops.Square(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SinOp(a *T) *T { return tensorops.Sin(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func CosOp(a *T) *T { return tensorops.Cos(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func Log1pOp(a *T) *T { return tensorops.Log1p(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func Expm1Op(a *T) *T { return tensorops.Expm1(a) }

// The smooth activations, erf, and the fused derivatives of GELU and
// SiLU (x the activation's input, dx a tangent).

//gad:jvp
//gad:vjp
//gad:taylor order=3
func GELUOp(a *T) *T { return tensorops.GELU(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SiLUOp(a *T) *T { return tensorops.SiLU(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SoftplusOp(a *T) *T { return tensorops.Softplus(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ErfOp(a *T) *T { return tensorops.Erf(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func GELUJVPOp(x, dx *T) *T { return tensorops.GELUJVP(x, dx) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SiLUJVPOp(x, dx *T) *T { return tensorops.SiLUJVP(x, dx) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func NegOp(a *T) *T { return tensorops.Neg(a) }

// Binary elementwise operations, broadcasting.

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AddOp(a, b *T) *T { return tensorops.Add(a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SubOp(a, b *T) *T { return tensorops.Sub(a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MulOp(a, b *T) *T { return tensorops.Mul(a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func DivOp(a, b *T) *T { return tensorops.Div(a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func PowOp(a, b *T) *T { return tensorops.Pow(a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaximumOp(a, b *T) *T { return tensorops.Maximum(a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MinimumOp(a, b *T) *T { return tensorops.Minimum(a, b) }

// A tensor and float64s.

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ScaleOp(a *T, s float64) *T { return tensorops.Scale(a, s) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AddScalarOp(a *T, s float64) *T { return tensorops.AddScalar(a, s) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AffineOp(a *T, scale, shift float64) *T { return tensorops.Affine(a, scale, shift) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ScalarDivOp(s float64, a *T) *T { return tensorops.ScalarDiv(s, a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func PowScalarOp(a *T, p float64) *T { return tensorops.PowScalar(a, p) }

// Products.

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MatMulOp(a, b *T) *T { return tensorops.MatMul(a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MatMulTOp(a, b *T) *T { return tensorops.MatMulT(a, b, true, false) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func LogSoftmaxJVPOp(ls, dx *T) *T { return tensorops.LogSoftmaxJVP(ls, dx, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func LogSoftmaxVJPOp(ls, g *T) *T { return tensorops.LogSoftmaxVJP(ls, g, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ExpandLikeOp(a, like *T) *T { return tensorops.ExpandLike(a, like) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func OrZerosLikeOp(t, like *T) *T { return tensorops.OrZerosLike(t, like) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ConcatGradOp(g, a, b *T) *T { return tensorops.ConcatGrad(g, 1, 1, a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ConcatPlaceOp(g, a, b *T) *T { return tensorops.ConcatPlace(g, 1, 0, a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ConcatJVPOp(a, b, da, db *T) *T { return tensorops.ConcatJVP(1, a, b, da, db) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ConcatOp(a, b *T) *T { return tensorops.Concat(1, a, b, a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AsTypeOp(a *T) *T { return tensorops.AsType(a, a.DType()) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AsTypeLikeOp(g, like *T) *T { return tensorops.AsTypeLike(g, like) }

// Element reads and copies: methods of Tensor (the wrapper of method M is
// TensorMOp), and the helpers of At's rule.

//gad:jvp
//gad:vjp
//gad:taylor order=3
func TensorItemOp(t *T) float64 { return t.Item() }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func TensorAtOp(t *T) float64 { return t.At(1, 2) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func TensorCloneOp(t *T) *T { return t.Clone() }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AtJVPOp(t *T) float64 { return tensorops.AtJVP(t, 2, 0) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AtGradOp(g float64, like *T) *T { return tensorops.AtGrad(g, like, 0, 3) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func Conv2DOp(x, w *T) *T { return tensorops.Conv2D(x, w, 2, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func Conv2DGradXOp(g, x, w *T) *T { return tensorops.Conv2DGradX(g, x, w, 2, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func Conv2DGradWOp(g, x, w *T) *T { return tensorops.Conv2DGradW(g, x, w, 2, 1) }

// Dilated convolutions: x [2, 2, 7, 8], w [3, 2, 2, 3], stride 2, padding
// 1, dilation 2: the result and g [2, 3, 4, 3].

//gad:jvp
//gad:vjp
//gad:taylor order=3
func Conv2DDilatedOp(x, w *T) *T { return tensorops.Conv2DDilated(x, w, 2, 1, 2) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func Conv2DDilatedGradXOp(g, x, w *T) *T { return tensorops.Conv2DDilatedGradX(g, x, w, 2, 1, 2) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func Conv2DDilatedGradWOp(g, x, w *T) *T { return tensorops.Conv2DDilatedGradW(g, x, w, 2, 1, 2) }

// Pooling of x [2, 3, 7, 6] over windows of 3 every 2 with padding 1
// (overlapping): the result and g [2, 3, 4, 3].

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaxPool2DOp(x *T) *T { return tensorops.MaxPool2D(x, 3, 2, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaxPool2DJVPOp(x, dx *T) *T { return tensorops.MaxPool2DJVP(x, dx, 3, 2, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaxPool2DGradOp(x, g *T) *T { return tensorops.MaxPool2DGrad(x, g, 3, 2, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AvgPool2DOp(x *T) *T { return tensorops.AvgPool2D(x, 3, 2, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func AvgPool2DGradOp(g, x *T) *T { return tensorops.AvgPool2DGrad(g, x, 3, 2, 1) }

// Gathering: a [3, 5] along axis 1 at [4, 0, 4, 2] (g [3, 4]); the rows
// of table [6, 3] at [5, 1, 5, 0, 2].

//gad:jvp
//gad:vjp
//gad:taylor order=3
func GatherOp(a *T) *T { return tensorops.Gather(a, 1, []int{4, 0, 4, 2}) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func GatherGradOp(g, like *T) *T { return tensorops.GatherGrad(g, like, 1, []int{4, 0, 4, 2}) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func EmbeddingOp(table *T) *T { return tensorops.Embedding(table, []int{5, 1, 5, 0, 2}) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MatMulGradAOp(g, a, b *T) *T { return tensorops.MatMulGradA(g, a, b, false, true) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MatMulGradBOp(g, a, b *T) *T { return tensorops.MatMulGradB(g, a, b, true, true) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func DotOp(a, b *T) float64 { return tensorops.Dot(a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func OuterOp(a, b *T) *T { return tensorops.Outer(a, b) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ScaleRowsOp(v, a *T) *T { return tensorops.ScaleRows(v, a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ScaleRowsGradVOp(g, a *T) *T { return tensorops.ScaleRowsGradV(g, a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ScaleColsOp(a, v *T) *T { return tensorops.ScaleCols(a, v) }

// Reductions and their adjoints.

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SumAllOp(a *T) float64 { return tensorops.SumAll(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MeanAllOp(a *T) float64 { return tensorops.MeanAll(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SumOp(a *T) *T { return tensorops.Sum(a, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MeanOp(a *T) *T { return tensorops.Mean(a, 0) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaxOp(a *T) *T { return tensorops.Max(a, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaxAllOp(a *T) float64 { return tensorops.MaxAll(a) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func FullLikeOp(t *T, v float64) *T { return tensorops.FullLike(t, v) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SumLikeFullOp(w *T, c float64, like *T) *T { return tensorops.SumLikeFull(w, c, like) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ExpandAxisOp(g, like *T) *T { return tensorops.ExpandAxis(g, like, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MeanGradOp(g, like *T) *T { return tensorops.MeanGrad(g, like, 0) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MeanAllGradOp(like *T, g float64) *T { return tensorops.MeanAllGrad(like, g) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaxGradOp(a, g *T) *T { return tensorops.MaxGrad(a, g, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaxJVPOp(a, da *T) *T { return tensorops.MaxJVP(a, da, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaxAllGradOp(a *T, g float64) *T { return tensorops.MaxAllGrad(a, g) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func MaxAllJVPOp(a, da *T) float64 { return tensorops.MaxAllJVP(a, da) }

// The variance and the standard deviation: unbiased (ddof = 1) along the
// first axis and of all elements, biased (ddof = 0) along the last axis
// and of all elements.

//gad:jvp
//gad:vjp
//gad:taylor order=3
func VarOp(a *T) *T { return tensorops.Var(a, 0, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func StdOp(a *T) *T { return tensorops.Std(a, -1, 0) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func VarAllOp(a *T) float64 { return tensorops.VarAll(a, 0) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func StdAllOp(a *T) float64 { return tensorops.StdAll(a, 1) }

// Shapes.

//gad:jvp
//gad:vjp
//gad:taylor order=3
func TransposeOp(a *T) *T { return tensorops.Transpose(a, 1, 2, 0) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func TransposeBackOp(g *T) *T { return tensorops.TransposeBack(g, 1, 2, 0) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ReshapeOp(a *T) *T { return tensorops.Reshape(a, 5, -1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func ReshapeLikeOp(g, like *T) *T { return tensorops.ReshapeLike(g, like) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func UnsqueezeOp(a *T) *T { return tensorops.Unsqueeze(a, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SqueezeOp(a *T) *T { return tensorops.Squeeze(a, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SliceOp(a *T) *T { return tensorops.Slice(a, 1, 1, 4) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SliceGradOp(g, like *T) *T { return tensorops.SliceGrad(g, like, 1, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func PadOp(a *T) *T { return tensorops.Pad(a, 1, 2, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func PadGradOp(g, like *T) *T { return tensorops.PadGrad(g, like, 1, 2) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func FullOp(a *T, v float64) *T { return tensorops.Full(a.DType(), v, 3, 2) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SliceLikeOp(y, like *T) *T { return tensorops.SliceLike(y, like, 1, 2) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SliceBroadcastOp(a, other *T) *T { return tensorops.SliceBroadcast(a, other, 1, 1, 4) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SliceBroadcastGradOp(g, a, other *T) *T {
	return tensorops.SliceBroadcastGrad(g, a, other, 1, 1, 4)
}

//gad:jvp
//gad:vjp
//gad:taylor order=3
func BroadcastOp(a *T) *T { return tensorops.Broadcast(a, 2, 3, 5) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func BroadcastLikeOp(a, like *T) *T { return tensorops.BroadcastLike(a, like) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SumLikeOp(g, like *T) *T { return tensorops.SumLike(g, like) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func DiagOp(v *T) *T { return tensorops.Diag(v) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func DiagPartOp(m *T) *T { return tensorops.DiagPart(m) }

// Softmax and its relatives: fused first-order maps, Taylor mode by
// their expansions (templates.Rule.Expand).

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SoftmaxOp(a *T) *T { return tensorops.Softmax(a, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SoftmaxJVPOp(s, dx *T) *T { return tensorops.SoftmaxJVP(s, dx, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func LogSoftmaxOp(a *T) *T { return tensorops.LogSoftmax(a, 0) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func LogSumExpOp(a *T) *T { return tensorops.LogSumExp(a, 1) }

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SoftmaxCrossEntropyOp(logits, labels *T) float64 {
	return tensorops.SoftmaxCrossEntropy(logits, labels)
}

//gad:jvp
//gad:vjp
//gad:taylor order=3
func SoftmaxCrossEntropyGradOp(logits, labels *T, g float64) *T {
	return tensorops.SoftmaxCrossEntropyGrad(logits, labels, g)
}
