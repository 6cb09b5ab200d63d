package tensorrules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
	"github.com/gadgen/gadgen/templates"
	"github.com/gadgen/gadgen/tensorops"
)

// Tolerances. The float64 derivatives are checked against central
// differences with gadtest's defaults (relative 1e-6, absolute 1e-9, plus
// the round-off of the difference quotient) unless a case sets rel, and by
// the dot-product test within 1e-10 relative. The float32 derivatives are
// compared with the float64 derivatives of the same (rounded) arguments,
// elementwise within defaultRel32·(|want_i| + ‖want‖∞) unless a case sets
// rel32, and by the dot-product test within dotRel32.
const (
	defaultRel32 = 1e-5
	dotRel32     = 1e-5
)

// points is the number of random points of each configuration of each
// case, in each dtype.
const points = 3

// A gen draws one argument of a wrapper: a float64 tensor or a float64.
type gen func(r *rand.Rand) any

// uniform draws a tensor of the shape with elements uniform in [lo, hi).
func uniform(lo, hi float64, shape ...int) gen {
	return func(r *rand.Rand) any { return tensorops.RandU(r, tensorops.Float64, lo, hi, shape...) }
}

// signed draws a tensor of the shape with elements of magnitude uniform in
// [lo, hi) and random signs: away from 0 (Abs's and ReLU's kink, the pole
// of a division).
func signed(lo, hi float64, shape ...int) gen {
	return func(r *rand.Rand) any {
		t := tensorops.RandU(r, tensorops.Float64, lo, hi, shape...)
		x := t.Float64s()
		for i := range x {
			if r.IntN(2) == 0 {
				x[i] = -x[i]
			}
		}
		return t
	}
}

// distinct draws a tensor of the shape whose elements are a random
// permutation of n values spread over [-2, 2] at least 2.8/n apart (n the
// size): no ties, and maxima that small steps do not move.
func distinct(shape ...int) gen {
	return func(r *rand.Rand) any {
		t := tensorops.New(tensorops.Float64, shape...)
		x := t.Float64s()
		n := float64(len(x))
		for i, j := range r.Perm(len(x)) {
			x[i] = -2 + 4*(float64(j)+0.3*r.Float64())/n
		}
		return t
	}
}

// probabilities draws a tensor of shape [n, c] whose rows are positive
// and sum to 1.
func probabilities(n, c int) gen {
	return func(r *rand.Rand) any {
		t := tensorops.RandU(r, tensorops.Float64, 0.1, 1, n, c)
		return tensorops.Div(t, tensorops.Unsqueeze(tensorops.Sum(t, 1), 1))
	}
}

// scalar draws a float64 uniform in [lo, hi).
func scalar(lo, hi float64) gen {
	return func(r *rand.Rand) any { return lo + (hi-lo)*r.Float64() }
}

// args lists the configurations of a case: each the generators of the
// wrapper's arguments.
func args(configs ...[]gen) [][]gen { return configs }

func cfg(gens ...gen) []gen { return gens }

// apart accepts the arguments a, b of a binary elementwise operation when
// they differ by at least 0.05 everywhere (broadcast): away from the ties
// of Maximum and Minimum.
func apart(args []any) bool {
	d := tensorops.Abs(tensorops.Sub(args[0].(*T), args[1].(*T)))
	return -tensorops.MaxAll(tensorops.Neg(d)) >= 0.05
}

// opCase is the test of one rule: its wrapper, the wrapper's derivatives
// (taylor nil for a rule of first order only) and how to draw arguments.
type opCase struct {
	f, jvp, vjp, taylor any
	// args holds the configurations: shapes and domains of the
	// arguments, drawn points times each.
	args [][]gen
	// valid, when not nil, rejects a draw (it is drawn again).
	valid func(args []any) bool
	// rel is the relative tolerance against central differences in
	// float64 (0: gadtest's default, 1e-6); rel32 the tolerance of the
	// float32 derivatives against the float64 ones (0: defaultRel32).
	rel, rel32 float64
}

// Shapes of the binary elementwise operations: equal, one operand
// broadcast along a leading axis, both broadcast, and a missing leading
// dimension of rank 3.
func binary(lo, hi float64) [][]gen {
	return args(
		cfg(uniform(lo, hi, 3, 5), uniform(lo, hi, 3, 5)),
		cfg(uniform(lo, hi, 3, 5), uniform(lo, hi, 5)),
		cfg(uniform(lo, hi, 3, 1), uniform(lo, hi, 1, 5)),
		cfg(uniform(lo, hi, 5), uniform(lo, hi, 2, 3, 5)),
	)
}

// unary returns the configurations of a unary elementwise operation: a
// matrix and a zero-dimensional tensor.
func unary(g func(shape ...int) gen) [][]gen {
	return args(cfg(g(3, 5)), cfg(g()))
}

func uni(lo, hi float64) func(shape ...int) gen {
	return func(shape ...int) gen { return uniform(lo, hi, shape...) }
}

func sgn(lo, hi float64) func(shape ...int) gen {
	return func(shape ...int) gen { return signed(lo, hi, shape...) }
}

// cases maps the name of each Smooth rule of package tensorops to its
// test. TestEveryRuleHasACase checks that none is missing.
var cases = map[string]opCase{
	// Unary elementwise.
	"Exp":     {f: ExpOp, jvp: ExpOpJVP, vjp: ExpOpVJP, taylor: ExpOpTaylor, args: unary(uni(-2, 2))},
	"Log":     {f: LogOp, jvp: LogOpJVP, vjp: LogOpVJP, taylor: LogOpTaylor, args: unary(uni(0.5, 2))},
	"Tanh":    {f: TanhOp, jvp: TanhOpJVP, vjp: TanhOpVJP, taylor: TanhOpTaylor, args: unary(uni(-2, 2))},
	"Sigmoid": {f: SigmoidOp, jvp: SigmoidOpJVP, vjp: SigmoidOpVJP, taylor: SigmoidOpTaylor, args: unary(uni(-3, 3))},
	"ReLU":    {f: ReLUOp, jvp: ReLUOpJVP, vjp: ReLUOpVJP, taylor: ReLUOpTaylor, args: unary(sgn(0.1, 2))},
	// The fused derivatives of the activations: y the activation's output
	// (x its input for ReLU), dx a tangent.
	"TanhJVP": {f: TanhJVPOp, jvp: TanhJVPOpJVP, vjp: TanhJVPOpVJP, taylor: TanhJVPOpTaylor,
		args: args(cfg(uniform(-0.9, 0.9, 3, 4), uniform(-1, 1, 3, 4)))},
	"SigmoidJVP": {f: SigmoidJVPOp, jvp: SigmoidJVPOpJVP, vjp: SigmoidJVPOpVJP, taylor: SigmoidJVPOpTaylor,
		args: args(cfg(uniform(0.1, 0.9, 3, 4), uniform(-1, 1, 3, 4)))},
	"ReLUJVP": {f: ReLUJVPOp, jvp: ReLUJVPOpJVP, vjp: ReLUJVPOpVJP, taylor: ReLUJVPOpTaylor,
		args: args(cfg(sgn(0.1, 2)(3, 4), uniform(-1, 1, 3, 4)))},
	"Sqrt":   {f: SqrtOp, jvp: SqrtOpJVP, vjp: SqrtOpVJP, taylor: SqrtOpTaylor, args: unary(uni(0.5, 2))},
	"Abs":    {f: AbsOp, jvp: AbsOpJVP, vjp: AbsOpVJP, taylor: AbsOpTaylor, args: unary(sgn(0.1, 2))},
	"Square": {f: SquareOp, jvp: SquareOpJVP, vjp: SquareOpVJP, taylor: SquareOpTaylor, args: unary(uni(-2, 2))},
	"Sin":    {f: SinOp, jvp: SinOpJVP, vjp: SinOpVJP, taylor: SinOpTaylor, args: unary(uni(-3, 3))},
	"Cos":    {f: CosOp, jvp: CosOpJVP, vjp: CosOpVJP, taylor: CosOpTaylor, args: unary(uni(-3, 3))},
	"Log1p":  {f: Log1pOp, jvp: Log1pOpJVP, vjp: Log1pOpVJP, taylor: Log1pOpTaylor, args: unary(uni(-0.5, 2))},
	"Expm1":  {f: Expm1Op, jvp: Expm1OpJVP, vjp: Expm1OpVJP, taylor: Expm1OpTaylor, args: unary(uni(-2, 2))},
	// The activations and erf; the fused derivatives of GELU and SiLU at
	// inputs x with tangents dx.
	"GELU":     {f: GELUOp, jvp: GELUOpJVP, vjp: GELUOpVJP, taylor: GELUOpTaylor, args: unary(uni(-3, 3))},
	"SiLU":     {f: SiLUOp, jvp: SiLUOpJVP, vjp: SiLUOpVJP, taylor: SiLUOpTaylor, args: unary(uni(-4, 4))},
	"Softplus": {f: SoftplusOp, jvp: SoftplusOpJVP, vjp: SoftplusOpVJP, taylor: SoftplusOpTaylor, args: unary(uni(-4, 4))},
	"Erf":      {f: ErfOp, jvp: ErfOpJVP, vjp: ErfOpVJP, taylor: ErfOpTaylor, args: unary(uni(-2, 2))},
	"GELUJVP": {f: GELUJVPOp, jvp: GELUJVPOpJVP, vjp: GELUJVPOpVJP, taylor: GELUJVPOpTaylor,
		args: args(cfg(uniform(-3, 3, 3, 4), uniform(-1, 1, 3, 4)))},
	"SiLUJVP": {f: SiLUJVPOp, jvp: SiLUJVPOpJVP, vjp: SiLUJVPOpVJP, taylor: SiLUJVPOpTaylor,
		args: args(cfg(uniform(-4, 4, 3, 4), uniform(-1, 1, 3, 4)))},
	"Neg": {f: NegOp, jvp: NegOpJVP, vjp: NegOpVJP, taylor: NegOpTaylor, args: unary(uni(-2, 2))},

	// Binary elementwise, broadcasting.
	"Add": {f: AddOp, jvp: AddOpJVP, vjp: AddOpVJP, taylor: AddOpTaylor, args: binary(-2, 2)},
	"Sub": {f: SubOp, jvp: SubOpJVP, vjp: SubOpVJP, taylor: SubOpTaylor, args: binary(-2, 2)},
	"Mul": {f: MulOp, jvp: MulOpJVP, vjp: MulOpVJP, taylor: MulOpTaylor, args: binary(-2, 2)},
	"Div": {f: DivOp, jvp: DivOpJVP, vjp: DivOpVJP, taylor: DivOpTaylor, args: args(
		cfg(uniform(-2, 2, 3, 5), signed(0.5, 2, 3, 5)),
		cfg(uniform(-2, 2, 3, 5), signed(0.5, 2, 5)),
		cfg(uniform(-2, 2, 3, 1), signed(0.5, 2, 1, 5)),
		cfg(uniform(-2, 2, 5), signed(0.5, 2, 2, 3, 5)))},
	"Pow": {f: PowOp, jvp: PowOpJVP, vjp: PowOpVJP, taylor: PowOpTaylor, args: args(
		cfg(uniform(0.5, 2, 3, 5), uniform(-1.5, 1.5, 3, 5)),
		cfg(uniform(0.5, 2, 3, 5), uniform(-1.5, 1.5, 5)),
		cfg(uniform(0.5, 2, 3, 1), uniform(-1.5, 1.5, 1, 5)),
		cfg(uniform(0.5, 2, 5), uniform(-1.5, 1.5, 2, 3, 5)))},
	"Maximum": {f: MaximumOp, jvp: MaximumOpJVP, vjp: MaximumOpVJP, taylor: MaximumOpTaylor, args: binary(-2, 2), valid: apart},
	"Minimum": {f: MinimumOp, jvp: MinimumOpJVP, vjp: MinimumOpVJP, taylor: MinimumOpTaylor, args: binary(-2, 2), valid: apart},

	// A tensor and float64s.
	"Scale": {f: ScaleOp, jvp: ScaleOpJVP, vjp: ScaleOpVJP, taylor: ScaleOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5), scalar(-2, 2)))},
	"AddScalar": {f: AddScalarOp, jvp: AddScalarOpJVP, vjp: AddScalarOpVJP, taylor: AddScalarOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5), scalar(-2, 2)))},
	"Affine": {f: AffineOp, jvp: AffineOpJVP, vjp: AffineOpVJP, taylor: AffineOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5), scalar(-2, 2), scalar(-2, 2)))},
	"ScalarDiv": {f: ScalarDivOp, jvp: ScalarDivOpJVP, vjp: ScalarDivOpVJP, taylor: ScalarDivOpTaylor,
		args: args(cfg(scalar(-2, 2), signed(0.5, 2, 3, 5)))},
	"PowScalar": {f: PowScalarOp, jvp: PowScalarOpJVP, vjp: PowScalarOpVJP, taylor: PowScalarOpTaylor,
		args: args(cfg(uniform(0.5, 2, 3, 5), scalar(-1.5, 2.5)))},

	// Products: matrices, a batch broadcast against a matrix, vectors.
	"MatMul": {f: MatMulOp, jvp: MatMulOpJVP, vjp: MatMulOpVJP, taylor: MatMulOpTaylor, args: args(
		cfg(uniform(-1, 1, 3, 5), uniform(-1, 1, 5, 7)),
		cfg(uniform(-1, 1, 2, 3, 5), uniform(-1, 1, 5, 3)),
		cfg(uniform(-1, 1, 5), uniform(-1, 1, 5, 3)),
		cfg(uniform(-1, 1, 3, 5), uniform(-1, 1, 5)))},
	// op(a)·b with a transposed: a [k, m].
	"MatMulT": {f: MatMulTOp, jvp: MatMulTOpJVP, vjp: MatMulTOpVJP, taylor: MatMulTOpTaylor, args: args(
		cfg(uniform(-1, 1, 5, 3), uniform(-1, 1, 5, 7)),
		cfg(uniform(-1, 1, 2, 5, 3), uniform(-1, 1, 5, 3)))},
	// The adjoint in a of a·bᵀ: g [m, n], a [m, k], b [n, k].
	"MatMulGradA": {f: MatMulGradAOp, jvp: MatMulGradAOpJVP, vjp: MatMulGradAOpVJP, taylor: MatMulGradAOpTaylor, args: args(
		cfg(uniform(-1, 1, 3, 7), uniform(-1, 1, 3, 5), uniform(-1, 1, 7, 5)),
		cfg(uniform(-1, 1, 2, 3, 7), uniform(-1, 1, 2, 3, 5), uniform(-1, 1, 7, 5)),
		cfg(uniform(-1, 1, 2, 3, 7), uniform(-1, 1, 3, 5), uniform(-1, 1, 2, 7, 5)))},
	// The adjoint in b of aᵀ·bᵀ: g [m, n], a [k, m], b [n, k].
	"MatMulGradB": {f: MatMulGradBOp, jvp: MatMulGradBOpJVP, vjp: MatMulGradBOpVJP, taylor: MatMulGradBOpTaylor, args: args(
		cfg(uniform(-1, 1, 3, 7), uniform(-1, 1, 5, 3), uniform(-1, 1, 7, 5)),
		cfg(uniform(-1, 1, 2, 3, 7), uniform(-1, 1, 2, 5, 3), uniform(-1, 1, 7, 5)))},
	// The log-softmax's tangent and adjoint maps, ls any log-probabilities.
	"LogSoftmaxJVP": {f: LogSoftmaxJVPOp, jvp: LogSoftmaxJVPOpJVP, vjp: LogSoftmaxJVPOpVJP, taylor: LogSoftmaxJVPOpTaylor,
		args: args(cfg(uniform(-2, 0, 3, 4), uniform(-1, 1, 3, 4)))},
	"LogSoftmaxVJP": {f: LogSoftmaxVJPOp, jvp: LogSoftmaxVJPOpJVP, vjp: LogSoftmaxVJPOpVJP, taylor: LogSoftmaxVJPOpTaylor,
		args: args(cfg(uniform(-2, 0, 3, 4), uniform(-1, 1, 3, 4)))},
	// Broadcasting a [4] to [3, 4], and a [3, 4] to itself (no copy).
	"ExpandLike": {f: ExpandLikeOp, jvp: ExpandLikeOpJVP, vjp: ExpandLikeOpVJP, taylor: ExpandLikeOpTaylor,
		args: args(cfg(uniform(-1, 1, 4), uniform(-1, 1, 3, 4)), cfg(uniform(-1, 1, 3, 4), uniform(-1, 1, 3, 4)))},
	// The identity on a tensor (like only gives the shape of a nil t).
	"OrZerosLike": {f: OrZerosLikeOp, jvp: OrZerosLikeOpJVP, vjp: OrZerosLikeOpVJP, taylor: OrZerosLikeOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 4), uniform(-1, 1, 3, 4)))},
	// Concatenation along axis 1 (a twice), and conversions to the dtype
	// a has (the test runs each dtype).
	"Concat": {f: ConcatOp, jvp: ConcatOpJVP, vjp: ConcatOpVJP, taylor: ConcatOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 2), uniform(-1, 1, 3, 4)))},
	// Concat's helpers: g [3, 6] cut into a [3, 2] and b [3, 4]; a block
	// placed back; the tangents of a and b concatenated.
	"ConcatGrad": {f: ConcatGradOp, jvp: ConcatGradOpJVP, vjp: ConcatGradOpVJP, taylor: ConcatGradOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 6), uniform(-1, 1, 3, 2), uniform(-1, 1, 3, 4)))},
	"ConcatPlace": {f: ConcatPlaceOp, jvp: ConcatPlaceOpJVP, vjp: ConcatPlaceOpVJP, taylor: ConcatPlaceOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 2), uniform(-1, 1, 3, 2), uniform(-1, 1, 3, 4)))},
	"ConcatJVP": {f: ConcatJVPOp, jvp: ConcatJVPOpJVP, vjp: ConcatJVPOpVJP, taylor: ConcatJVPOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 2), uniform(-1, 1, 3, 4), uniform(-1, 1, 3, 2), uniform(-1, 1, 3, 4)))},
	"AsType": {f: AsTypeOp, jvp: AsTypeOpJVP, vjp: AsTypeOpVJP, taylor: AsTypeOpTaylor,
		args: unary(uni(-1, 1))},
	"AsTypeLike": {f: AsTypeLikeOp, jvp: AsTypeLikeOpJVP, vjp: AsTypeLikeOpVJP, taylor: AsTypeLikeOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 4), uniform(-1, 1, 3, 4)))},
	// Element reads of a [1] and a [1, 1] tensor (Item), of a [3, 4] (At)
	// and a copy; At's helpers on a [4, 3] and a [2, 5].
	"Tensor.Item": {f: TensorItemOp, jvp: TensorItemOpJVP, vjp: TensorItemOpVJP, taylor: TensorItemOpTaylor,
		args: args(cfg(uniform(-1, 1, 1)), cfg(uniform(-1, 1, 1, 1)))},
	"Tensor.At": {f: TensorAtOp, jvp: TensorAtOpJVP, vjp: TensorAtOpVJP, taylor: TensorAtOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 4)))},
	"Tensor.Clone": {f: TensorCloneOp, jvp: TensorCloneOpJVP, vjp: TensorCloneOpVJP, taylor: TensorCloneOpTaylor,
		args: unary(uni(-1, 1))},
	"AtJVP": {f: AtJVPOp, jvp: AtJVPOpJVP, vjp: AtJVPOpVJP, taylor: AtJVPOpTaylor,
		args: args(cfg(uniform(-1, 1, 4, 3)))},
	"AtGrad": {f: AtGradOp, jvp: AtGradOpJVP, vjp: AtGradOpVJP, taylor: AtGradOpTaylor,
		args: args(cfg(scalar(-1, 1), uniform(-1, 1, 2, 5)))},
	// Convolutions, stride 2 and padding 1: x [n, c, h, w], w [o, c, kh, kw],
	// the result and g [n, o, oh, ow] with oh = (h + 2 − kh)/2 + 1.
	"Conv2D": {f: Conv2DOp, jvp: Conv2DOpJVP, vjp: Conv2DOpVJP, taylor: Conv2DOpTaylor, args: args(
		cfg(uniform(-1, 1, 2, 3, 5, 6), uniform(-1, 1, 4, 3, 3, 2)))},
	"Conv2DGradX": {f: Conv2DGradXOp, jvp: Conv2DGradXOpJVP, vjp: Conv2DGradXOpVJP, taylor: Conv2DGradXOpTaylor, args: args(
		cfg(uniform(-1, 1, 2, 4, 3, 4), uniform(-1, 1, 2, 3, 5, 6), uniform(-1, 1, 4, 3, 3, 2)))},
	"Conv2DGradW": {f: Conv2DGradWOp, jvp: Conv2DGradWOpJVP, vjp: Conv2DGradWOpVJP, taylor: Conv2DGradWOpTaylor, args: args(
		cfg(uniform(-1, 1, 2, 4, 3, 4), uniform(-1, 1, 2, 3, 5, 6), uniform(-1, 1, 4, 3, 3, 2)))},
	// Dilated convolutions: x [2, 2, 7, 8], w [3, 2, 2, 3], g [2, 3, 4, 3].
	"Conv2DDilated": {f: Conv2DDilatedOp, jvp: Conv2DDilatedOpJVP, vjp: Conv2DDilatedOpVJP, taylor: Conv2DDilatedOpTaylor, args: args(
		cfg(uniform(-1, 1, 2, 2, 7, 8), uniform(-1, 1, 3, 2, 2, 3)))},
	"Conv2DDilatedGradX": {f: Conv2DDilatedGradXOp, jvp: Conv2DDilatedGradXOpJVP, vjp: Conv2DDilatedGradXOpVJP, taylor: Conv2DDilatedGradXOpTaylor, args: args(
		cfg(uniform(-1, 1, 2, 3, 4, 3), uniform(-1, 1, 2, 2, 7, 8), uniform(-1, 1, 3, 2, 2, 3)))},
	"Conv2DDilatedGradW": {f: Conv2DDilatedGradWOp, jvp: Conv2DDilatedGradWOpJVP, vjp: Conv2DDilatedGradWOpVJP, taylor: Conv2DDilatedGradWOpTaylor, args: args(
		cfg(uniform(-1, 1, 2, 3, 4, 3), uniform(-1, 1, 2, 2, 7, 8), uniform(-1, 1, 3, 2, 2, 3)))},
	// Pooling of x [2, 3, 7, 6] (distinct values: maxima that small steps
	// do not move) into [2, 3, 4, 3].
	"MaxPool2D": {f: MaxPool2DOp, jvp: MaxPool2DOpJVP, vjp: MaxPool2DOpVJP, taylor: MaxPool2DOpTaylor,
		args: args(cfg(distinct(2, 3, 7, 6)))},
	"MaxPool2DJVP": {f: MaxPool2DJVPOp, jvp: MaxPool2DJVPOpJVP, vjp: MaxPool2DJVPOpVJP, taylor: MaxPool2DJVPOpTaylor,
		args: args(cfg(distinct(2, 3, 7, 6), uniform(-1, 1, 2, 3, 7, 6)))},
	"MaxPool2DGrad": {f: MaxPool2DGradOp, jvp: MaxPool2DGradOpJVP, vjp: MaxPool2DGradOpVJP, taylor: MaxPool2DGradOpTaylor,
		args: args(cfg(distinct(2, 3, 7, 6), uniform(-1, 1, 2, 3, 4, 3)))},
	"AvgPool2D": {f: AvgPool2DOp, jvp: AvgPool2DOpJVP, vjp: AvgPool2DOpVJP, taylor: AvgPool2DOpTaylor,
		args: args(cfg(uniform(-1, 1, 2, 3, 7, 6)))},
	"AvgPool2DGrad": {f: AvgPool2DGradOp, jvp: AvgPool2DGradOpJVP, vjp: AvgPool2DGradOpVJP, taylor: AvgPool2DGradOpTaylor,
		args: args(cfg(uniform(-1, 1, 2, 3, 4, 3), uniform(-1, 1, 2, 3, 7, 6)))},
	// Gathering at repeated indices: a [3, 5] (g [3, 4]), table [6, 3].
	"Gather": {f: GatherOp, jvp: GatherOpJVP, vjp: GatherOpVJP, taylor: GatherOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5)))},
	"GatherGrad": {f: GatherGradOp, jvp: GatherGradOpJVP, vjp: GatherGradOpVJP, taylor: GatherGradOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 4), uniform(-1, 1, 3, 5)))},
	"Embedding": {f: EmbeddingOp, jvp: EmbeddingOpJVP, vjp: EmbeddingOpVJP, taylor: EmbeddingOpTaylor,
		args: args(cfg(uniform(-1, 1, 6, 3)))},
	"Dot": {f: DotOp, jvp: DotOpJVP, vjp: DotOpVJP, taylor: DotOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5), uniform(-1, 1, 3, 5)))},
	"Outer": {f: OuterOp, jvp: OuterOpJVP, vjp: OuterOpVJP, taylor: OuterOpTaylor,
		args: args(cfg(uniform(-1, 1, 3), uniform(-1, 1, 5)))},
	// Products by a diagonal matrix: v [3] and a vector, a matrix, a
	// batch; ScaleRowsGradV's g and a of one shape; ScaleCols' a of 5
	// columns.
	"ScaleRows": {f: ScaleRowsOp, jvp: ScaleRowsOpJVP, vjp: ScaleRowsOpVJP, taylor: ScaleRowsOpTaylor, args: args(
		cfg(uniform(-1, 1, 3), uniform(-1, 1, 3)),
		cfg(uniform(-1, 1, 3), uniform(-1, 1, 3, 5)),
		cfg(uniform(-1, 1, 3), uniform(-1, 1, 2, 3, 5)))},
	"ScaleRowsGradV": {f: ScaleRowsGradVOp, jvp: ScaleRowsGradVOpJVP, vjp: ScaleRowsGradVOpVJP, taylor: ScaleRowsGradVOpTaylor, args: args(
		cfg(uniform(-1, 1, 3), uniform(-1, 1, 3)),
		cfg(uniform(-1, 1, 3, 5), uniform(-1, 1, 3, 5)),
		cfg(uniform(-1, 1, 2, 3, 5), uniform(-1, 1, 2, 3, 5)))},
	"ScaleCols": {f: ScaleColsOp, jvp: ScaleColsOpJVP, vjp: ScaleColsOpVJP, taylor: ScaleColsOpTaylor, args: args(
		cfg(uniform(-1, 1, 5), uniform(-1, 1, 5)),
		cfg(uniform(-1, 1, 3, 5), uniform(-1, 1, 5)),
		cfg(uniform(-1, 1, 2, 3, 5), uniform(-1, 1, 5)))},

	// Reductions and their adjoints.
	"SumAll":  {f: SumAllOp, jvp: SumAllOpJVP, vjp: SumAllOpVJP, taylor: SumAllOpTaylor, args: args(cfg(uniform(-1, 1, 3, 5)))},
	"MeanAll": {f: MeanAllOp, jvp: MeanAllOpJVP, vjp: MeanAllOpVJP, taylor: MeanAllOpTaylor, args: args(cfg(uniform(-1, 1, 3, 5)))},
	"Sum": {f: SumOp, jvp: SumOpJVP, vjp: SumOpVJP, taylor: SumOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5)), cfg(uniform(-1, 1, 2, 3, 5)))},
	"Mean": {f: MeanOp, jvp: MeanOpJVP, vjp: MeanOpVJP, taylor: MeanOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5)), cfg(uniform(-1, 1, 5)))},
	"Max": {f: MaxOp, jvp: MaxOpJVP, vjp: MaxOpVJP, taylor: MaxOpTaylor,
		args: args(cfg(distinct(3, 5)), cfg(distinct(2, 5, 3)))},
	"MaxAll": {f: MaxAllOp, jvp: MaxAllOpJVP, vjp: MaxAllOpVJP, taylor: MaxAllOpTaylor, args: args(cfg(distinct(3, 5)))},
	// Full of a's dtype (a only gives it).
	"Full": {f: FullOp, jvp: FullOpJVP, vjp: FullOpVJP, taylor: FullOpTaylor,
		args: args(cfg(uniform(-1, 1, 2), scalar(-2, 2)))},
	"FullLike": {f: FullLikeOp, jvp: FullLikeOpJVP, vjp: FullLikeOpVJP, taylor: FullLikeOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5), scalar(-2, 2)))},
	// A constant of w's shape summed back to like's: w broadcast along
	// two axes.
	"SumLikeFull": {f: SumLikeFullOp, jvp: SumLikeFullOpJVP, vjp: SumLikeFullOpVJP, taylor: SumLikeFullOpTaylor,
		args: args(cfg(uniform(-1, 1, 2, 3, 4), scalar(-2, 2), uniform(-1, 1, 3, 1)))},
	"ExpandAxis": {f: ExpandAxisOp, jvp: ExpandAxisOpJVP, vjp: ExpandAxisOpVJP, taylor: ExpandAxisOpTaylor, args: args(
		cfg(uniform(-1, 1, 3), uniform(-1, 1, 3, 5)),
		cfg(uniform(-1, 1, 2, 3), uniform(-1, 1, 2, 5, 3)))},
	"MeanGrad": {f: MeanGradOp, jvp: MeanGradOpJVP, vjp: MeanGradOpVJP, taylor: MeanGradOpTaylor,
		args: args(cfg(uniform(-1, 1, 5), uniform(-1, 1, 3, 5)))},
	"MeanAllGrad": {f: MeanAllGradOp, jvp: MeanAllGradOpJVP, vjp: MeanAllGradOpVJP, taylor: MeanAllGradOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5), scalar(-2, 2)))},
	"MaxGrad": {f: MaxGradOp, jvp: MaxGradOpJVP, vjp: MaxGradOpVJP, taylor: MaxGradOpTaylor,
		args: args(cfg(distinct(3, 5), uniform(-1, 1, 3)))},
	"MaxJVP": {f: MaxJVPOp, jvp: MaxJVPOpJVP, vjp: MaxJVPOpVJP, taylor: MaxJVPOpTaylor,
		args: args(cfg(distinct(3, 5), uniform(-1, 1, 3, 5)))},
	"MaxAllGrad": {f: MaxAllGradOp, jvp: MaxAllGradOpJVP, vjp: MaxAllGradOpVJP, taylor: MaxAllGradOpTaylor,
		args: args(cfg(distinct(3, 5), scalar(-2, 2)))},
	"MaxAllJVP": {f: MaxAllJVPOp, jvp: MaxAllJVPOpJVP, vjp: MaxAllJVPOpVJP, taylor: MaxAllJVPOpTaylor,
		args: args(cfg(distinct(3, 5), uniform(-1, 1, 3, 5)))},
	// The variance and the standard deviation: a matrix, a batch of
	// matrices, and (along an axis) a vector.
	"Var": {f: VarOp, jvp: VarOpJVP, vjp: VarOpVJP, taylor: VarOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5)), cfg(uniform(-2, 2, 4, 2, 3)), cfg(uniform(-2, 2, 5)))},
	"Std": {f: StdOp, jvp: StdOpJVP, vjp: StdOpVJP, taylor: StdOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5)), cfg(uniform(-2, 2, 2, 3, 4)), cfg(uniform(-2, 2, 5)))},
	"VarAll": {f: VarAllOp, jvp: VarAllOpJVP, vjp: VarAllOpVJP, taylor: VarAllOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5)), cfg(uniform(-2, 2, 2)))},
	"StdAll": {f: StdAllOp, jvp: StdAllOpJVP, vjp: StdAllOpVJP, taylor: StdAllOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5)), cfg(uniform(-2, 2, 3)))},

	// Shapes.
	"Transpose": {f: TransposeOp, jvp: TransposeOpJVP, vjp: TransposeOpVJP, taylor: TransposeOpTaylor,
		args: args(cfg(uniform(-1, 1, 2, 3, 5)))},
	"TransposeBack": {f: TransposeBackOp, jvp: TransposeBackOpJVP, vjp: TransposeBackOpVJP, taylor: TransposeBackOpTaylor,
		args: args(cfg(uniform(-1, 1, 2, 3, 5)))},
	"Reshape": {f: ReshapeOp, jvp: ReshapeOpJVP, vjp: ReshapeOpVJP, taylor: ReshapeOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5)), cfg(uniform(-1, 1, 15)))},
	"ReshapeLike": {f: ReshapeLikeOp, jvp: ReshapeLikeOpJVP, vjp: ReshapeLikeOpVJP, taylor: ReshapeLikeOpTaylor,
		args: args(cfg(uniform(-1, 1, 15), uniform(-1, 1, 3, 5)))},
	"Unsqueeze": {f: UnsqueezeOp, jvp: UnsqueezeOpJVP, vjp: UnsqueezeOpVJP, taylor: UnsqueezeOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5)))},
	"Squeeze": {f: SqueezeOp, jvp: SqueezeOpJVP, vjp: SqueezeOpVJP, taylor: SqueezeOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 1, 5)))},
	"Slice": {f: SliceOp, jvp: SliceOpJVP, vjp: SliceOpVJP, taylor: SliceOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5)))},
	"SliceGrad": {f: SliceGradOp, jvp: SliceGradOpJVP, vjp: SliceGradOpVJP, taylor: SliceGradOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 3), uniform(-1, 1, 3, 5)))},
	"Pad": {f: PadOp, jvp: PadOpJVP, vjp: PadOpVJP, taylor: PadOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 5)))},
	"PadGrad": {f: PadGradOp, jvp: PadGradOpJVP, vjp: PadGradOpVJP, taylor: PadGradOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 8), uniform(-1, 1, 3, 5)))},
	// The part of y [3, 7] over like [3, 4] at 2 along axis 1.
	"SliceLike": {f: SliceLikeOp, jvp: SliceLikeOpJVP, vjp: SliceLikeOpVJP, taylor: SliceLikeOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 7), uniform(-1, 1, 3, 4)))},
	// The slice [1, 4) along axis 1 of the broadcast [3, 5] of a and
	// other: a sliced along its own axis 1 (other [3, 5] or [5]), along
	// its axis 0 (a [5]), not at all (a [3, 1], broadcast along the
	// axis); g the result's shape.
	"SliceBroadcast": {f: SliceBroadcastOp, jvp: SliceBroadcastOpJVP, vjp: SliceBroadcastOpVJP, taylor: SliceBroadcastOpTaylor, args: args(
		cfg(uniform(-1, 1, 3, 5), uniform(-1, 1, 3, 5)),
		cfg(uniform(-1, 1, 3, 5), uniform(-1, 1, 5)),
		cfg(uniform(-1, 1, 5), uniform(-1, 1, 3, 5)),
		cfg(uniform(-1, 1, 3, 1), uniform(-1, 1, 3, 5)))},
	"SliceBroadcastGrad": {f: SliceBroadcastGradOp, jvp: SliceBroadcastGradOpJVP, vjp: SliceBroadcastGradOpVJP, taylor: SliceBroadcastGradOpTaylor, args: args(
		cfg(uniform(-1, 1, 3, 3), uniform(-1, 1, 3, 5), uniform(-1, 1, 3, 5)),
		cfg(uniform(-1, 1, 3), uniform(-1, 1, 5), uniform(-1, 1, 3, 5)),
		cfg(uniform(-1, 1, 3, 1), uniform(-1, 1, 3, 1), uniform(-1, 1, 3, 5)))},
	"Broadcast": {f: BroadcastOp, jvp: BroadcastOpJVP, vjp: BroadcastOpVJP, taylor: BroadcastOpTaylor,
		args: args(cfg(uniform(-1, 1, 3, 1)), cfg(uniform(-1, 1, 5)), cfg(uniform(-1, 1, 2, 1, 5)))},
	"BroadcastLike": {f: BroadcastLikeOp, jvp: BroadcastLikeOpJVP, vjp: BroadcastLikeOpVJP, taylor: BroadcastLikeOpTaylor, args: args(
		cfg(uniform(-1, 1, 3, 1), uniform(-1, 1, 2, 3, 5)),
		cfg(uniform(-1, 1, 5), uniform(-1, 1, 3, 5)))},
	"SumLike": {f: SumLikeOp, jvp: SumLikeOpJVP, vjp: SumLikeOpVJP, taylor: SumLikeOpTaylor, args: args(
		cfg(uniform(-1, 1, 2, 3, 5), uniform(-1, 1, 3, 1)),
		cfg(uniform(-1, 1, 3, 5), uniform(-1, 1, 5)),
		cfg(uniform(-1, 1, 3, 5), uniform(-1, 1, 3, 5)))},
	"Diag": {f: DiagOp, jvp: DiagOpJVP, vjp: DiagOpVJP, taylor: DiagOpTaylor,
		args: args(cfg(uniform(-1, 1, 5)))},
	"DiagPart": {f: DiagPartOp, jvp: DiagPartOpJVP, vjp: DiagPartOpVJP, taylor: DiagPartOpTaylor,
		args: args(cfg(uniform(-1, 1, 5, 5)))},

	// Softmax and its relatives: Taylor mode by their expansions.
	"Softmax": {f: SoftmaxOp, jvp: SoftmaxOpJVP, vjp: SoftmaxOpVJP, taylor: SoftmaxOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5)), cfg(uniform(-2, 2, 2, 5, 3)))},
	"SoftmaxJVP": {f: SoftmaxJVPOp, jvp: SoftmaxJVPOpJVP, vjp: SoftmaxJVPOpVJP, taylor: SoftmaxJVPOpTaylor,
		args: args(cfg(uniform(0, 1, 3, 5), uniform(-1, 1, 3, 5)))},
	"LogSoftmax": {f: LogSoftmaxOp, jvp: LogSoftmaxOpJVP, vjp: LogSoftmaxOpVJP, taylor: LogSoftmaxOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5)), cfg(uniform(-2, 2, 5)))},
	"LogSumExp": {f: LogSumExpOp, jvp: LogSumExpOpJVP, vjp: LogSumExpOpVJP, taylor: LogSumExpOpTaylor,
		args: args(cfg(uniform(-2, 2, 3, 5)), cfg(uniform(-2, 2, 2, 5, 3)))},
	// Labels: probability rows, and rows of any sum (the runtime's
	// definition covers both).
	"SoftmaxCrossEntropy": {f: SoftmaxCrossEntropyOp, jvp: SoftmaxCrossEntropyOpJVP, vjp: SoftmaxCrossEntropyOpVJP, taylor: SoftmaxCrossEntropyOpTaylor, args: args(
		cfg(uniform(-2, 2, 3, 5), probabilities(3, 5)),
		cfg(uniform(-2, 2, 3, 5), uniform(0, 1, 3, 5)))},
	"SoftmaxCrossEntropyGrad": {f: SoftmaxCrossEntropyGradOp, jvp: SoftmaxCrossEntropyGradOpJVP, vjp: SoftmaxCrossEntropyGradOpVJP, taylor: SoftmaxCrossEntropyGradOpTaylor, args: args(
		cfg(uniform(-2, 2, 3, 5), probabilities(3, 5), scalar(-2, 2)),
		cfg(uniform(-2, 2, 3, 5), uniform(0, 1, 3, 5), scalar(-2, 2)))},
}

// TestRules checks every case, at points random points of each of its
// configurations, in float64 and float32 (see opCase.check64 and
// opCase.check32).
func TestRules(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		c := cases[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := fdcheck.NewRand(fdcheck.Seed(name))
			for ci, gens := range c.args {
				for pi := range points {
					p, err := c.draw(r, gens)
					if err != nil {
						t.Fatalf("configuration %d: %v", ci, err)
					}
					where := fmt.Sprintf("configuration %d (arguments %v), point %d", ci, p.in, pi)
					var ck64, ck32 checker
					c.check64(&ck64, p)
					if msg := ck64.report(); msg != "" {
						t.Errorf("float64, %s:\n%s", where, msg)
					}
					c.check32(&ck32, p)
					if msg := ck32.report(); msg != "" {
						t.Errorf("float32, %s:\n%s", where, msg)
					}
				}
			}
		})
	}
}

// elsewhere lists the Smooth rules of package tensorops whose arguments
// this harness cannot draw (slices of floats, not tensors), with the test
// that checks them in every mode instead.
var elsewhere = map[string]string{
	"FromFloat64s": "internal/e2e/cases/tensorcalls: TestFit",
	"FromFloat32s": "internal/e2e/cases/tensorcalls: TestFit32",
}

// tensorRules returns the rules that must have a case: the Smooth rules of
// package tensorops but those checked elsewhere.
func tensorRules() []*templates.Rule {
	var out []*templates.Rule
	for _, r := range templates.All() {
		if r.Pkg == templates.TensorPkg && r.Kind == templates.Smooth && elsewhere[r.Name] == "" {
			out = append(out, r)
		}
	}
	return out
}

// wrapperName returns the name of the wrapper of r: its operation's with
// the suffix Op, TensorMOp for the method Tensor.M.
func wrapperName(r *templates.Rule) string {
	return strings.ReplaceAll(r.Name, ".", "") + "Op"
}

// hasTaylor reports whether Taylor mode expands r to any order: rules by
// Partials (elementwise), linear maps of Series Linear or Bilinear, and
// first-order maps with an expansion (Expand).
func hasTaylor(r *templates.Rule) bool {
	return r.Partials != nil || r.Series != templates.FirstOrder || r.Expand != ""
}

// TestEveryRuleHasACase fails, naming the rule, for every Smooth rule of
// package tensorops without a case (a wrapper in tensorrules.go and its
// derivatives in the table cases), and for every case that is not such a
// rule. It checks that each case's functions are the wrapper named after
// the rule and its derivatives, with the signatures gadgen gives them, and
// that Taylor mode is tested exactly when the rule has it.
func TestEveryRuleHasACase(t *testing.T) {
	rules := tensorRules()
	if len(rules) == 0 {
		t.Fatal("templates.All has no Smooth rule of package tensorops")
	}
	seen := map[string]bool{}
	for _, r := range rules {
		seen[r.Name] = true
		c, ok := cases[r.Name]
		if !ok {
			t.Errorf("rule tensorops.%s has no case: add a wrapper %s calling tensorops.%s to tensorrules.go "+
				"(//gad:jvp, //gad:vjp%s), run gadgen, and add its case to the table in tensorrules_test.go",
				r.Name, wrapperName(r), r.Name, map[bool]string{true: ", //gad:taylor order=3", false: ""}[hasTaylor(r)])
			continue
		}
		w := wrapperName(r)
		want := map[string]any{w: c.f, w + "JVP": c.jvp, w + "VJP": c.vjp}
		if hasTaylor(r) {
			want[w+"Taylor"] = c.taylor
			if c.taylor == nil {
				t.Errorf("rule tensorops.%s: Taylor mode expands it, but its case has no Taylor derivative", r.Name)
			}
		} else if c.taylor != nil {
			t.Errorf("rule tensorops.%s is of first order only, but its case has a Taylor derivative", r.Name)
		}
		for name, fn := range want {
			if fn == nil {
				continue
			}
			if got := funcName(fn); got != name {
				t.Errorf("rule tensorops.%s: the case holds %s, want %s", r.Name, got, name)
			}
		}
		if len(c.args) == 0 {
			t.Errorf("rule tensorops.%s: its case has no configuration of arguments", r.Name)
		}
		// Signatures: n arguments; the JVP takes them with their
		// tangents, the VJP with the seed and returns their adjoints, the
		// Taylor derivative with 3 coefficients each and returns 4.
		ft := reflect.TypeOf(c.f)
		n := ft.NumIn()
		check := func(fn any, in, out int) {
			if fn == nil {
				return
			}
			if typ := reflect.TypeOf(fn); typ.NumIn() != in || typ.NumOut() != out {
				t.Errorf("rule tensorops.%s: %s has %d parameters and %d results, want %d and %d",
					r.Name, funcName(fn), typ.NumIn(), typ.NumOut(), in, out)
			}
		}
		check(c.jvp, 2*n, 2)
		check(c.vjp, n+1, n+1)
		check(c.taylor, (order+1)*n, order+1)
	}
	for name := range cases {
		if !seen[name] {
			t.Errorf("case %s is not a Smooth rule of package tensorops", name)
		}
	}
}

// TestWrappers checks the source of the wrappers: each function XOp of
// tensorrules.go calls exactly one function of package tensorops, X, and
// carries the directives its rule asks for.
func TestWrappers(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "tensorrules.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]*templates.Rule{} // by wrapper name, without the suffix Op
	for _, r := range tensorRules() {
		rules[strings.TrimSuffix(wrapperName(r), "Op")] = r
	}
	wrappers := 0
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		op, ok := strings.CutSuffix(name, "Op")
		if !ok {
			t.Errorf("%s: a wrapper's name is its operation's with the suffix Op", name)
			continue
		}
		wrappers++
		r := rules[op]
		if r == nil {
			t.Errorf("%s: tensorops.%s has no Smooth rule", name, op)
			continue
		}
		// The calls of package tensorops, and of Tensor's methods with a
		// rule (Clone aside, but in its own wrapper).
		var calls []string
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "tensorops" {
						calls = append(calls, sel.Sel.Name)
					} else if m := "Tensor" + sel.Sel.Name; rules[m] != nil && (m != "TensorClone" || op == m) {
						calls = append(calls, m)
					}
				}
			}
			return true
		})
		if !slices.Equal(calls, []string{op}) {
			t.Errorf("%s calls %v, want exactly %s", name, calls, r.Name)
		}
		var directives []string
		if fd.Doc != nil {
			for _, c := range fd.Doc.List {
				if d, ok := strings.CutPrefix(c.Text, "//gad:"); ok {
					directives = append(directives, d)
				}
			}
		}
		want := []string{"jvp", "vjp"}
		if hasTaylor(r) {
			want = append(want, fmt.Sprintf("taylor order=%d", order))
		}
		if !slices.Equal(directives, want) {
			t.Errorf("%s has the directives %q, want %q", name, directives, want)
		}
	}
	if wrappers != len(rules) {
		t.Errorf("tensorrules.go has %d wrappers for %d rules", wrappers, len(rules))
	}
}

// TestNilIsZero checks the nil convention of the tensor runtime (its
// package doc) through every rule: a nil tangent is the zero tangent and a
// nil seed the zero seed. For each case at one point, in float64 and
// float32, the JVP with the tangent of one tensor argument nil (the
// others random), and with every tangent nil, equals the JVP with those
// tangents zero tensors; the VJP with a nil seed returns zero adjoints
// (nil or zero tensors); the Taylor derivative with one argument's
// coefficients nil equals it with zero ones. None may panic.
func TestNilIsZero(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		c := cases[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := fdcheck.NewRand(fdcheck.Seed(name + "/nil"))
			p, err := c.draw(r, c.args[0])
			if err != nil {
				t.Fatal(err)
			}
			for _, dt := range []tensorops.DType{tensorops.Float64, tensorops.Float32} {
				var ck checker
				c.checkNil(&ck, p, dt)
				if msg := ck.report(); msg != "" {
					t.Errorf("%v, arguments %v:\n%s", dt, p.in, msg)
				}
			}
		})
	}
}

// checkNil is TestNilIsZero's check of c at p in dtype dt.
func (c *opCase) checkNil(ck *checker, p *point, dt tensorops.DType) {
	x := build(p.in, p.x, dt)
	var tensors []int // the tensor arguments
	for i, s := range p.in {
		if s.tensor {
			tensors = append(tensors, i)
		}
	}
	// withNil returns the values of vs with those at the indexes in nils
	// nil (nilled) or zero tensors.
	withNil := func(vs []any, nils []int, nilled bool) []any {
		out := slices.Clone(vs)
		for _, i := range nils {
			if nilled {
				out[i] = (*T)(nil)
			} else {
				out[i] = tensorops.ZerosLike(vs[i].(*T))
			}
		}
		return out
	}
	same := func(what string, got, want []any, ss []slot) {
		g, w := flatten(got, ss), flatten(want, ss)
		if i, ok := near(g, w, 1e-12); !ok {
			ck.errorf("%s: element %d is %g, want %g (the result with zero tensors)", what, i, g[i], w[i])
		}
	}
	groups := [][]int{tensors}
	for _, i := range tensors {
		groups = append(groups, []int{i})
	}
	v := build(p.in, p.v, dt)
	for _, nils := range groups {
		what := fmt.Sprintf("JVP with the tangents of arguments %v nil", nils)
		ck.try(what, func() {
			got := invoke(c.jvp, interleave(x, withNil(v, nils, true))...)
			want := invoke(c.jvp, interleave(x, withNil(v, nils, false))...)
			same(what, got[1:], want[1:], []slot{p.out})
		})
		if c.taylor == nil {
			continue
		}
		what = fmt.Sprintf("Taylor derivative with the coefficients of arguments %v nil", nils)
		ck.try(what, func() {
			cs := [order + 1][]any{x}
			for k := 1; k <= order; k++ {
				cs[k] = build(p.in, p.coefs[k], dt)
			}
			call := func(nilled bool) []any {
				args := [order + 1][]any{x}
				for k := 1; k <= order; k++ {
					args[k] = withNil(cs[k], nils, nilled)
				}
				return invoke(c.taylor, interleave(args[:]...)...)
			}
			got, want := call(true), call(false)
			outs := slices.Repeat([]slot{p.out}, order)
			same(what, got[1:], want[1:], outs)
		})
	}
	if p.out.tensor {
		what := "VJP with a nil seed"
		ck.try(what, func() {
			got := invoke(c.vjp, append(slices.Clone(x), (*T)(nil))...)
			for i, b := range flatten(got[1:], p.in) {
				if b != 0 {
					ck.errorf("%s: element %d of the adjoints is %g, want 0", what, i, b)
					break
				}
			}
		})
	}
}
