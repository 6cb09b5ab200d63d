package tensorops

// This file defines the variance and the standard deviation, composed of
// the runtime's reductions and elementwise operations (so they run on
// every device that has those).

import (
	"fmt"
	"math"
)

// checkDDOF panics unless 0 ≤ ddof ≤ n, the number of elements a
// variance is taken over.
func checkDDOF(op string, a *Tensor, n, ddof int) {
	if ddof < 0 || ddof > n {
		panic(fmt.Sprintf("tensorops: %s: ddof %d out of range [0, %d] for shape %v", op, ddof, n, a.shape))
	}
}

// Var returns the variance of a along axis (negative counts from the
// end), with that axis removed: Σ(a − m)²/(n − ddof) over the n elements
// along the axis, m their mean. ddof ("delta degrees of freedom", as in
// numpy) sets the normalization: 0 gives the biased (maximum-likelihood)
// variance, numpy's default, 1 the unbiased one, PyTorch's default.
// n = ddof divides by zero (+Inf; NaN where the elements are equal, such
// as one element with ddof = 1); an empty axis gives NaN. It takes two
// passes (the mean first) and is computed with Mean, Sub, Square and Sum.
// It panics if a is nil, axis is out of range, or ddof < 0 or ddof > n.
func Var(a *Tensor, axis, ddof int) *Tensor {
	mustNotNil("Var", a)
	ax := normAxis("Var", a, axis)
	n := a.shape[ax]
	checkDDOF("Var", a, n, ddof)
	c := Sub(a, ExpandAxis(Mean(a, ax), a, ax))
	s := Sum(SquareTo(c, c), ax)
	return ScaleTo(s, s, 1/float64(n-ddof))
}

// Std returns the standard deviation of a along axis, with that axis
// removed: the square root of Var(a, axis, ddof). Its derivative where
// the variance is zero (the elements along the axis are equal) is taken
// as 0, a subgradient, as for math.Hypot at the origin (PyTorch and JAX
// give NaN there); its higher derivatives do not exist there.
// It panics as Var does.
func Std(a *Tensor, axis, ddof int) *Tensor {
	mustNotNil("Std", a)
	ax := normAxis("Std", a, axis)
	checkDDOF("Std", a, a.shape[ax], ddof)
	v := Var(a, ax, ddof)
	return SqrtTo(v, v)
}

// VarAll returns the variance of all the elements of a: Σ(a − m)²/(n −
// ddof) over its n elements, m their mean, with ddof as in Var (0: the
// biased variance, 1: the unbiased one). n = ddof divides by zero; an
// empty a gives NaN. It is computed with MeanAll, AddScalar, Square and
// SumAll.
// It panics if a is nil, or ddof < 0 or ddof > n.
func VarAll(a *Tensor, ddof int) float64 {
	mustNotNil("VarAll", a)
	n := a.Size()
	checkDDOF("VarAll", a, n, ddof)
	c := AddScalar(a, -MeanAll(a))
	return SumAll(SquareTo(c, c)) / float64(n-ddof)
}

// StdAll returns the standard deviation of all the elements of a, the
// square root of VarAll(a, ddof); its derivative where the variance is
// zero is taken as 0, as Std's.
// It panics as VarAll does.
func StdAll(a *Tensor, ddof int) float64 {
	mustNotNil("StdAll", a)
	checkDDOF("StdAll", a, a.Size(), ddof)
	return math.Sqrt(VarAll(a, ddof))
}
