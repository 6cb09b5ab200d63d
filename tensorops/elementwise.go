package tensorops

import (
	"fmt"
	"math"
)

// unary computes dst = op(a); a nil dst is allocated.
func unary(name string, op unOp, dst, a *Tensor, p, q float64) *Tensor {
	mustNotNil(name, a)
	if a.lanes || (dst != nil && dst.lanes) {
		return laneUnary(name, op, dst, a, p, q)
	}
	if dst != nil {
		checkDst(name, dst, a.shape, a.dtype)
	}
	if onDevice(name, dst, a) {
		return devUnary(name, op, dst, a, p, q)
	}
	if dst == nil {
		dst = allocRaw(a.dtype, a.shape)
	}
	if a.dtype == Float32 {
		unaryApply(op, dst, a, float32(p), float32(q))
	} else {
		unaryApply(op, dst, a, p, q)
	}
	return dst
}

// unaryApply computes dst = op(a) where a broadcasts to dst's shape and
// both have element type T.
func unaryApply[T Float](op unOp, dst, a *Tensor, p, q T) {
	n := dst.Size()
	if n == 0 {
		return
	}
	dd, ad := data[T](dst), data[T](a)
	if sameShape(a.shape, dst.shape) && dst.IsContiguous() && a.IsContiguous() {
		do, ao := dst.offset, a.offset
		if n < op.grain() {
			unaryVec(op, dd[do:do+n], ad[ao:ao+n], p, q)
			return
		}
		parallel(n, op.grain(), func(lo, hi int) {
			unaryVec(op, dd[do+lo:do+hi], ad[ao+lo:ao+hi], p, q)
		})
		return
	}
	l := newLoop(dst.shape, dst, a)
	if op == uCopy && tiledCopy(l, dd, ad) {
		return
	}
	sd, sa := l.inner(0), l.inner(1)
	if n < op.grain() {
		l.each(0, n, func(o [3]int, cnt int) {
			unaryRun(op, dd[o[0]:], sd, ad[o[1]:], sa, cnt, p, q)
		})
		return
	}
	parallel(n, op.grain(), func(lo, hi int) {
		l.each(lo, hi, func(o [3]int, cnt int) {
			unaryRun(op, dd[o[0]:], sd, ad[o[1]:], sa, cnt, p, q)
		})
	})
}

// tiledCopy copies a transposed source: when the loop's last dimension has
// unit stride in dst and its second-to-last unit stride in src, it copies
// blocks of 32×32 elements so that both sides stay in cache. It reports
// whether the loop had that form.
func tiledCopy[T Float](l *loop, dd, sd []T) bool {
	nd := len(l.shape)
	if nd < 2 || l.st[0][nd-1] != 1 || l.st[1][nd-2] != 1 || l.st[1][nd-1] <= 1 {
		return false
	}
	rows, cols := l.shape[nd-2], l.shape[nd-1]
	if rows < 16 || cols < 16 {
		return false
	}
	const bs = 32
	outer := prod(l.shape[:nd-2])
	nbr := (rows + bs - 1) / bs
	dRow, sCol := l.st[0][nd-2], l.st[1][nd-1]
	parallelRows(outer*nbr, bs*cols, grainCheap, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			o, br := w/nbr, w%nbr
			offD, offS := l.off[0], l.off[1]
			for i := nd - 3; i >= 0; i-- {
				x := o % l.shape[i]
				o /= l.shape[i]
				offD += x * l.st[0][i]
				offS += x * l.st[1][i]
			}
			r0, r1 := br*bs, min(rows, br*bs+bs)
			for c0 := 0; c0 < cols; c0 += bs {
				c1 := min(cols, c0+bs)
				for r := r0; r < r1; r++ {
					drow := dd[offD+r*dRow+c0 : offD+r*dRow+c1]
					s := offS + r + c0*sCol
					for c := range drow {
						drow[c] = sd[s+c*sCol]
					}
				}
			}
		}
	})
	return true
}

// binary computes dst = a op b with broadcasting; a nil dst is allocated.
func binary(name string, op binOp, dst, a, b *Tensor) *Tensor {
	mustNotNil(name, a, b)
	if a.lanes || b.lanes || (dst != nil && dst.lanes) {
		return laneBinary(name, op, dst, a, b)
	}
	mustSameDType(name, a, b)
	shape := a.shape
	if !sameShape(a.shape, b.shape) {
		shape = mustBroadcast(name, a, b)
	}
	if dst != nil {
		checkDst(name, dst, shape, a.dtype)
	}
	if onDevice(name, dst, a, b) {
		if dst == nil {
			dst = allocOn(name, a.dev, a.dtype, shape)
		}
		return devBinary(name, op, dst, a, b)
	}
	if dst == nil {
		dst = allocRaw(a.dtype, shape)
	}
	if a.dtype == Float32 {
		binaryApply[float32](op, dst, a, b)
	} else {
		binaryApply[float64](op, dst, a, b)
	}
	return dst
}

func binaryApply[T Float](op binOp, dst, a, b *Tensor) {
	n := dst.Size()
	if n == 0 {
		return
	}
	dd, ad, bd := data[T](dst), data[T](a), data[T](b)
	if sameShape(a.shape, b.shape) && sameShape(a.shape, dst.shape) && dst.IsContiguous() && a.IsContiguous() && b.IsContiguous() {
		do, ao, bo := dst.offset, a.offset, b.offset
		if n < op.grain() {
			binVV(op, dd[do:do+n], ad[ao:ao+n], bd[bo:bo+n])
			return
		}
		parallel(n, op.grain(), func(lo, hi int) {
			binVV(op, dd[do+lo:do+hi], ad[ao+lo:ao+hi], bd[bo+lo:bo+hi])
		})
		return
	}
	l := newLoop(dst.shape, dst, a, b)
	sd, sa, sb := l.inner(0), l.inner(1), l.inner(2)
	if n < op.grain() {
		l.each(0, n, func(o [3]int, cnt int) {
			binRun(op, dd[o[0]:], sd, ad[o[1]:], sa, bd[o[2]:], sb, cnt)
		})
		return
	}
	parallel(n, op.grain(), func(lo, hi int) {
		l.each(lo, hi, func(o [3]int, cnt int) {
			binRun(op, dd[o[0]:], sd, ad[o[1]:], sa, bd[o[2]:], sb, cnt)
		})
	})
}

// copyInto copies src (which broadcasts to dst's shape) into dst,
// converting the element type if needed.
func copyInto(dst, src *Tensor) {
	if onDevice("Copy", dst, src) {
		devCopy("Copy", dst, src)
		return
	}
	switch {
	case dst.dtype == src.dtype && dst.dtype == Float32:
		unaryApply[float32](uCopy, dst, src, 0, 0)
	case dst.dtype == src.dtype:
		unaryApply[float64](uCopy, dst, src, 0, 0)
	case dst.dtype == Float32:
		convApply[float32, float64](dst, src)
	default:
		convApply[float64, float32](dst, src)
	}
}

func convApply[D, S Float](dst, src *Tensor) {
	n := dst.Size()
	if n == 0 {
		return
	}
	dd, sd := data[D](dst), data[S](src)
	l := newLoop(dst.shape, dst, src)
	s0, s1 := l.inner(0), l.inner(1)
	parallel(n, grainCheap, func(lo, hi int) {
		l.each(lo, hi, func(o [3]int, cnt int) {
			convRun(dd[o[0]:], s0, sd[o[1]:], s1, cnt)
		})
	})
}

// Copy copies src into dst, broadcasting src to dst's shape and converting
// its elements to dst's dtype. dst must not overlap src unless they are the
// same tensor.
// It panics if src does not broadcast to dst's shape.
func Copy(dst, src *Tensor) {
	mustNotNil("Copy", dst, src)
	if !broadcastsTo(src.shape, dst.shape) {
		panic(fmt.Sprintf("tensorops: Copy: shapes %v and %v: src does not broadcast to dst", dst.shape, src.shape))
	}
	copyInto(dst, src)
}

// Fill sets every element of t to v.
// It panics if t is nil.
func Fill(t *Tensor, v float64) {
	mustNotNil("Fill", t)
	if t.dev != CPU {
		devFill("Fill", t, v)
		return
	}
	if t.dtype == Float32 {
		unaryApply[float32](uCopy, t, FromFloat32s([]float32{float32(v)}, []int{}...), 0, 0)
	} else {
		unaryApply[float64](uCopy, t, Scalar(v), 0, 0)
	}
}

// floats64 returns t's elements as a fresh or shared contiguous []float64
// in row-major order (shared when t is a contiguous float64 tensor on the
// CPU); a device tensor's elements are copied to the host.
func floats64(t *Tensor) []float64 {
	if t.dev != CPU {
		t = t.To(CPU)
	}
	if t.dtype == Float64 && t.IsContiguous() {
		return t.Float64s()
	}
	return AsType(t, Float64).f64
}

// AllClose reports whether a and b have the same shape and every pair of
// elements satisfies |a−b| ≤ atol + rtol·|b| (numpy's isclose). NaNs are
// close to NaNs and an infinity to the same infinity. The dtypes may
// differ, and so may the devices: the elements of a tensor on a device
// are compared on the host (copied there).
// It panics if a or b is nil.
func AllClose(a, b *Tensor, rtol, atol float64) bool {
	mustNotNil("AllClose", a, b)
	if !a.SameShape(b) {
		return false
	}
	x, y := floats64(a), floats64(b)
	for i := range x {
		u, v := x[i], y[i]
		if u == v || (u != u && v != v) {
			continue
		}
		if !(math.Abs(u-v) <= atol+rtol*math.Abs(v)) {
			return false
		}
	}
	return true
}

// MaxAbsDiff returns the largest |a−b| over the elements of a and b (NaN if
// any difference is NaN, 0 for empty tensors). The dtypes and the devices
// may differ, as for AllClose.
// It panics if the shapes differ.
func MaxAbsDiff(a, b *Tensor) float64 {
	mustNotNil("MaxAbsDiff", a, b)
	if !a.SameShape(b) {
		panic(fmt.Sprintf("tensorops: MaxAbsDiff: shapes %v and %v differ", a.shape, b.shape))
	}
	x, y := floats64(a), floats64(b)
	m := 0.0
	for i := range x {
		d := math.Abs(x[i] - y[i])
		if d > m || d != d {
			m = d
			if d != d {
				return d
			}
		}
	}
	return m
}

// Add returns a + b with broadcasting. A nil operand is a zero tensor: Add(nil,
// b) returns b itself, Add(a, nil) returns a itself, Add(nil, nil) is nil.
// It panics if the shapes do not broadcast or the dtypes differ.
func Add(a, b *Tensor) *Tensor {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return binary("Add", bAdd, nil, a, b)
}

// Sub returns a − b with broadcasting. A nil operand is a zero tensor:
// Sub(a, nil) returns a itself, Sub(nil, b) returns Neg(b).
// It panics if the shapes do not broadcast or the dtypes differ.
func Sub(a, b *Tensor) *Tensor {
	if b == nil {
		return a
	}
	if a == nil {
		return Neg(b)
	}
	return binary("Sub", bSub, nil, a, b)
}

// Mul returns a ⊙ b (elementwise) with broadcasting.
// It panics if an operand is nil, the shapes do not broadcast or the dtypes differ.
func Mul(a, b *Tensor) *Tensor {
	if a == nil || b == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	return binary("Mul", bMul, nil, a, b)
}

// Div returns a / b elementwise with broadcasting.
// It panics if an operand is nil, the shapes do not broadcast or the dtypes differ.
func Div(a, b *Tensor) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	return binary("Div", bDiv, nil, a, b)
}

// Pow returns a^b elementwise (math.Pow) with broadcasting.
// It panics if an operand is nil, the shapes do not broadcast or the dtypes differ.
func Pow(a, b *Tensor) *Tensor { return binary("Pow", bPow, nil, a, b) }

// Maximum returns max(a, b) elementwise with broadcasting; a NaN in either
// operand gives NaN. At ties the derivative convention (of the compiler's
// rules) is half to each operand.
// It panics if an operand is nil, the shapes do not broadcast or the dtypes differ.
func Maximum(a, b *Tensor) *Tensor { return binary("Maximum", bMax, nil, a, b) }

// Minimum returns min(a, b) elementwise with broadcasting; a NaN in either
// operand gives NaN. At ties the derivative convention is half to each operand.
// It panics if an operand is nil, the shapes do not broadcast or the dtypes differ.
func Minimum(a, b *Tensor) *Tensor { return binary("Minimum", bMin, nil, a, b) }

// AddTo sets dst = a + b (broadcast) and returns dst; dst may be a or b. A
// nil operand is zero: AddTo(dst, a, nil) copies a into dst, AddTo(dst, nil,
// nil) zeroes dst.
// It panics if the shapes do not broadcast, or dst does not have the result's
// shape and dtype.
func AddTo(dst, a, b *Tensor) *Tensor {
	switch {
	case a == nil && b == nil:
		mustNotNil("AddTo", dst)
		Fill(dst, 0)
		return dst
	case b == nil:
		return copyTo("AddTo", dst, a)
	case a == nil:
		return copyTo("AddTo", dst, b)
	}
	return binary("AddTo", bAdd, dst, a, b)
}

// copyTo copies a into dst, which must have a's shape and dtype.
func copyTo(name string, dst, a *Tensor) *Tensor {
	checkDst(name, dst, a.shape, a.dtype)
	if dst != a {
		copyInto(dst, a)
	}
	return dst
}

// SubTo sets dst = a − b (broadcast) and returns dst; dst may be a or b. A
// nil operand is zero as in Sub.
// It panics if the shapes do not broadcast, or dst does not have the result's
// shape and dtype.
func SubTo(dst, a, b *Tensor) *Tensor {
	switch {
	case a == nil && b == nil:
		mustNotNil("SubTo", dst)
		Fill(dst, 0)
		return dst
	case b == nil:
		return copyTo("SubTo", dst, a)
	case a == nil:
		return unary("SubTo", uNeg, dst, b, 0, 0)
	}
	return binary("SubTo", bSub, dst, a, b)
}

// MulTo sets dst = a ⊙ b (broadcast) and returns dst; dst may be a or b.
// It panics if an operand is nil, the shapes do not broadcast, or dst does not
// have the result's shape and dtype.
func MulTo(dst, a, b *Tensor) *Tensor { return binary("MulTo", bMul, dst, a, b) }

// DivTo sets dst = a / b (broadcast) and returns dst; dst may be a or b.
// It panics if an operand is nil, the shapes do not broadcast, or dst does not
// have the result's shape and dtype.
func DivTo(dst, a, b *Tensor) *Tensor { return binary("DivTo", bDiv, dst, a, b) }

// PowTo sets dst = a^b (broadcast) and returns dst; dst may be a or b.
// It panics if an operand is nil, the shapes do not broadcast, or dst does not
// have the result's shape and dtype.
func PowTo(dst, a, b *Tensor) *Tensor { return binary("PowTo", bPow, dst, a, b) }

// MaximumTo sets dst = max(a, b) (broadcast) and returns dst.
// It panics if an operand is nil, the shapes do not broadcast, or dst does not
// have the result's shape and dtype.
func MaximumTo(dst, a, b *Tensor) *Tensor { return binary("MaximumTo", bMax, dst, a, b) }

// MinimumTo sets dst = min(a, b) (broadcast) and returns dst.
// It panics if an operand is nil, the shapes do not broadcast, or dst does not
// have the result's shape and dtype.
func MinimumTo(dst, a, b *Tensor) *Tensor { return binary("MinimumTo", bMin, dst, a, b) }

// AddInto adds g, broadcast to dst's shape, to dst in place. A nil g is zero:
// nothing is done.
// It panics if g does not broadcast to dst's shape or the dtypes differ.
func AddInto(dst, g *Tensor) {
	if g == nil {
		return
	}
	mustNotNil("AddInto", dst)
	if !broadcastsTo(g.shape, dst.shape) {
		panic(fmt.Sprintf("tensorops: AddInto: shapes %v and %v: g does not broadcast to dst", dst.shape, g.shape))
	}
	binary("AddInto", bAdd, dst, dst, g)
}

// Scale returns s·a; Scale(nil, s) is nil (zero).
// It panics if a is a tensor on another device.
func Scale(a *Tensor, s float64) *Tensor {
	if a == nil {
		return nil
	}
	return unary("Scale", uMulS, nil, a, s, 0)
}

// ScaleTo sets dst = s·a and returns dst; dst may be a. A nil a is zero.
// It panics if dst does not have a's shape and dtype.
func ScaleTo(dst, a *Tensor, s float64) *Tensor {
	if a == nil {
		mustNotNil("ScaleTo", dst)
		Fill(dst, 0)
		return dst
	}
	return unary("ScaleTo", uMulS, dst, a, s, 0)
}

// AddScalar returns a + s. It is linear in (a, s) jointly: a nil a with
// s = 0 is the zero tensor, nil (the package doc's nil convention).
// It panics if a is nil and s is not 0.
func AddScalar(a *Tensor, s float64) *Tensor {
	if a == nil && s == 0 {
		return nil // a zero tangent: nil and 0 (the package doc: nil)
	}
	return unary("AddScalar", uAddS, nil, a, s, 0)
}

// AddScalarTo sets dst = a + s and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func AddScalarTo(dst, a *Tensor, s float64) *Tensor {
	return unary("AddScalarTo", uAddS, dst, a, s, 0)
}

// Affine returns scale·a + shift. It is linear in (a, shift) jointly: a
// nil a with shift = 0 gives nil (the package doc's nil convention).
// It panics if a is nil and shift is not 0.
func Affine(a *Tensor, scale, shift float64) *Tensor {
	if a == nil && shift == 0 {
		return nil // a zero tangent: nil and 0 (the package doc: nil)
	}
	return unary("Affine", uAffine, nil, a, scale, shift)
}

// AffineTo sets dst = scale·a + shift and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func AffineTo(dst, a *Tensor, scale, shift float64) *Tensor {
	return unary("AffineTo", uAffine, dst, a, scale, shift)
}

// ScalarDiv returns s / a elementwise.
// It panics if a is nil.
func ScalarDiv(s float64, a *Tensor) *Tensor { return unary("ScalarDiv", uRDivS, nil, a, s, 0) }

// ScalarDivTo sets dst = s / a and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func ScalarDivTo(dst *Tensor, s float64, a *Tensor) *Tensor {
	return unary("ScalarDivTo", uRDivS, dst, a, s, 0)
}

// PowScalar returns a^p elementwise (math.Pow).
// It panics if a is nil.
func PowScalar(a *Tensor, p float64) *Tensor { return unary("PowScalar", uPowS, nil, a, p, 0) }

// PowScalarTo sets dst = a^p and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func PowScalarTo(dst, a *Tensor, p float64) *Tensor {
	return unary("PowScalarTo", uPowS, dst, a, p, 0)
}

// Neg returns −a; Neg(nil) is nil (zero).
func Neg(a *Tensor) *Tensor {
	if a == nil {
		return nil
	}
	return unary("Neg", uNeg, nil, a, 0, 0)
}

// NegTo sets dst = −a and returns dst; dst may be a. A nil a is zero.
// It panics if dst does not have a's shape and dtype.
func NegTo(dst, a *Tensor) *Tensor {
	if a == nil {
		mustNotNil("NegTo", dst)
		Fill(dst, 0)
		return dst
	}
	return unary("NegTo", uNeg, dst, a, 0, 0)
}

// Exp returns eᵃ elementwise. It panics if a is nil.
func Exp(a *Tensor) *Tensor { return unary("Exp", uExp, nil, a, 0, 0) }

// ExpTo sets dst = eᵃ and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func ExpTo(dst, a *Tensor) *Tensor { return unary("ExpTo", uExp, dst, a, 0, 0) }

// Log returns the natural logarithm elementwise. It panics if a is nil.
func Log(a *Tensor) *Tensor { return unary("Log", uLog, nil, a, 0, 0) }

// LogTo sets dst = log(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func LogTo(dst, a *Tensor) *Tensor { return unary("LogTo", uLog, dst, a, 0, 0) }

// Tanh returns tanh(a) elementwise. It panics if a is nil.
func Tanh(a *Tensor) *Tensor { return unary("Tanh", uTanh, nil, a, 0, 0) }

// TanhTo sets dst = tanh(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func TanhTo(dst, a *Tensor) *Tensor { return unary("TanhTo", uTanh, dst, a, 0, 0) }

// Sigmoid returns 1/(1+e⁻ᵃ) elementwise. It panics if a is nil.
func Sigmoid(a *Tensor) *Tensor { return unary("Sigmoid", uSigmoid, nil, a, 0, 0) }

// SigmoidTo sets dst = Sigmoid(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func SigmoidTo(dst, a *Tensor) *Tensor { return unary("SigmoidTo", uSigmoid, dst, a, 0, 0) }

// ReLU returns max(a, 0) elementwise (NaN stays NaN). Its derivative is
// Step(a). It panics if a is nil.
func ReLU(a *Tensor) *Tensor { return unary("ReLU", uReLU, nil, a, 0, 0) }

// ReLUTo sets dst = ReLU(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func ReLUTo(dst, a *Tensor) *Tensor { return unary("ReLUTo", uReLU, dst, a, 0, 0) }

// Sqrt returns √a elementwise. It panics if a is nil.
func Sqrt(a *Tensor) *Tensor { return unary("Sqrt", uSqrt, nil, a, 0, 0) }

// SqrtTo sets dst = √a and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func SqrtTo(dst, a *Tensor) *Tensor { return unary("SqrtTo", uSqrt, dst, a, 0, 0) }

// Abs returns |a| elementwise. It panics if a is nil.
func Abs(a *Tensor) *Tensor { return unary("Abs", uAbs, nil, a, 0, 0) }

// AbsTo sets dst = |a| and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func AbsTo(dst, a *Tensor) *Tensor { return unary("AbsTo", uAbs, dst, a, 0, 0) }

// Square returns a² elementwise. It panics if a is nil.
func Square(a *Tensor) *Tensor { return unary("Square", uSquare, nil, a, 0, 0) }

// SquareTo sets dst = a² and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func SquareTo(dst, a *Tensor) *Tensor { return unary("SquareTo", uSquare, dst, a, 0, 0) }

// Sin returns sin(a) elementwise. It panics if a is nil.
func Sin(a *Tensor) *Tensor { return unary("Sin", uSin, nil, a, 0, 0) }

// SinTo sets dst = sin(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func SinTo(dst, a *Tensor) *Tensor { return unary("SinTo", uSin, dst, a, 0, 0) }

// Cos returns cos(a) elementwise. It panics if a is nil.
func Cos(a *Tensor) *Tensor { return unary("Cos", uCos, nil, a, 0, 0) }

// CosTo sets dst = cos(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func CosTo(dst, a *Tensor) *Tensor { return unary("CosTo", uCos, dst, a, 0, 0) }

// Sign returns −1, 0 or 1 elementwise by the sign of a (NaN stays NaN).
// It panics if a is nil.
func Sign(a *Tensor) *Tensor { return unary("Sign", uSign, nil, a, 0, 0) }

// SignTo sets dst = Sign(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func SignTo(dst, a *Tensor) *Tensor { return unary("SignTo", uSign, dst, a, 0, 0) }

// Step returns 1 where a > 0 and 0 elsewhere (NaN included): the derivative
// of ReLU. It panics if a is nil.
func Step(a *Tensor) *Tensor { return unary("Step", uStep, nil, a, 0, 0) }

// StepTo sets dst = Step(a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func StepTo(dst, a *Tensor) *Tensor { return unary("StepTo", uStep, dst, a, 0, 0) }

// Log1p returns log(1+a) elementwise. It panics if a is nil.
func Log1p(a *Tensor) *Tensor { return unary("Log1p", uLog1p, nil, a, 0, 0) }

// Log1pTo sets dst = log(1+a) and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func Log1pTo(dst, a *Tensor) *Tensor { return unary("Log1pTo", uLog1p, dst, a, 0, 0) }

// Expm1 returns eᵃ−1 elementwise. It panics if a is nil.
func Expm1(a *Tensor) *Tensor { return unary("Expm1", uExpm1, nil, a, 0, 0) }

// Expm1To sets dst = eᵃ−1 and returns dst; dst may be a.
// It panics if a is nil or dst does not have a's shape and dtype.
func Expm1To(dst, a *Tensor) *Tensor { return unary("Expm1To", uExpm1, dst, a, 0, 0) }
