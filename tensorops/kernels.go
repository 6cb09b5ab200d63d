package tensorops

import "math"

// unOp names a unary elementwise kernel; the scalar forms (AddScalar, ...)
// are unary kernels with parameters p and q.
type unOp uint8

const (
	uCopy unOp = iota
	uNeg
	uExp
	uLog
	uTanh
	uSigmoid
	uReLU
	uSqrt
	uAbs
	uSquare
	uSin
	uCos
	uSign
	uStep
	uLog1p
	uExpm1
	uAddS   // x + p
	uMulS   // x * p
	uAffine // p*x + q
	uRDivS  // p / x
	uPowS   // x ^ p
	// The activations of activation.go and the error function.
	uGELU
	uSiLU
	uSoftplus
	uErf
)

// grain returns the parallel grain of a unary kernel.
func (op unOp) grain() int {
	switch op {
	case uCopy, uNeg, uReLU, uAbs, uSquare, uSign, uStep, uAddS, uMulS, uAffine, uRDivS, uSqrt:
		return grainCheap
	}
	return grainMath
}

// binOp names a binary elementwise kernel.
type binOp uint8

const (
	bAdd binOp = iota
	bSub
	bMul
	bDiv
	bPow
	bMax
	bMin
	// The fused derivatives of activations (ad.go): a is the activation's
	// output (its input for ReLU), b the tangent or adjoint.
	bTanhGrad    // b·(1 − a²)
	bSigmoidGrad // b·a·(1 − a)
	bReLUGrad    // b where a > 0, else 0
	bGELUGrad    // b·(Φ(a) + a·φ(a)), a the input
	bSiLUGrad    // b·σ(a)·(1 + a·(1 − σ(a))), a the input
)

func (op binOp) grain() int {
	switch op {
	case bPow, bGELUGrad, bSiLUGrad:
		return grainMath
	}
	return grainCheap
}

// data returns t's backing slice of type T.
func data[T Float](t *Tensor) []T {
	if t.buf != nil {
		hostOnly("a CPU kernel", t)
	}
	var z T
	if _, ok := any(z).(float32); ok {
		return any(t.f32).([]T)
	}
	return any(t.f64).([]T)
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// unScalar applies op to one element (the strided slow path).
func unScalar[T Float](op unOp, x, p, q T) T {
	switch op {
	case uCopy:
		return x
	case uNeg:
		return -x
	case uExp:
		return T(math.Exp(float64(x)))
	case uLog:
		return T(math.Log(float64(x)))
	case uTanh:
		if x32, ok := any(x).(float32); ok {
			return T(tanh32(x32))
		}
		return T(tanh64(float64(x)))
	case uSigmoid:
		return T(sigmoid(float64(x)))
	case uReLU:
		if x <= 0 {
			return 0
		}
		return x
	case uSqrt:
		return T(math.Sqrt(float64(x)))
	case uAbs:
		return T(math.Abs(float64(x)))
	case uSquare:
		return x * x
	case uSin:
		return T(math.Sin(float64(x)))
	case uCos:
		return T(math.Cos(float64(x)))
	case uSign:
		if x > 0 {
			return 1
		}
		if x < 0 {
			return -1
		}
		return x
	case uStep:
		if x > 0 {
			return 1
		}
		return 0
	case uLog1p:
		return T(math.Log1p(float64(x)))
	case uExpm1:
		return T(math.Expm1(float64(x)))
	case uAddS:
		return x + p
	case uMulS:
		return x * p
	case uAffine:
		return p*x + q
	case uRDivS:
		return p / x
	case uPowS:
		return T(math.Pow(float64(x), float64(p)))
	case uGELU:
		return T(gelu(float64(x)))
	case uSiLU:
		return T(silu(float64(x)))
	case uSoftplus:
		return T(softplus(float64(x)))
	case uErf:
		return T(math.Erf(float64(x)))
	}
	panic("tensorops: internal error: unknown unary op")
}

// unaryVec is the contiguous kernel: d[i] = op(a[i]).
func unaryVec[T Float](op unOp, d, a []T, p, q T) {
	n := len(d)
	a = a[:n]
	switch op {
	case uCopy:
		copy(d, a)
	case uNeg:
		for i := range d {
			d[i] = -a[i]
		}
	case uExp:
		for i := range d {
			d[i] = T(math.Exp(float64(a[i])))
		}
	case uLog:
		for i := range d {
			d[i] = T(math.Log(float64(a[i])))
		}
	case uTanh:
		if d32, ok := any(d).([]float32); ok {
			tanh32Slice(d32, any(a).([]float32))
		} else {
			tanh64Slice(any(d).([]float64), any(a).([]float64))
		}
	case uSigmoid:
		for i := range d {
			d[i] = T(sigmoid(float64(a[i])))
		}
	case uReLU:
		for i := range d {
			x := a[i]
			if x <= 0 {
				x = 0
			}
			d[i] = x
		}
	case uSqrt:
		for i := range d {
			d[i] = T(math.Sqrt(float64(a[i])))
		}
	case uAbs:
		for i := range d {
			d[i] = T(math.Abs(float64(a[i])))
		}
	case uSquare:
		for i := range d {
			d[i] = a[i] * a[i]
		}
	case uSin:
		for i := range d {
			d[i] = T(math.Sin(float64(a[i])))
		}
	case uCos:
		for i := range d {
			d[i] = T(math.Cos(float64(a[i])))
		}
	case uLog1p:
		for i := range d {
			d[i] = T(math.Log1p(float64(a[i])))
		}
	case uExpm1:
		for i := range d {
			d[i] = T(math.Expm1(float64(a[i])))
		}
	case uAddS:
		for i := range d {
			d[i] = a[i] + p
		}
	case uMulS:
		for i := range d {
			d[i] = a[i] * p
		}
	case uAffine:
		for i := range d {
			d[i] = p*a[i] + q
		}
	case uRDivS:
		for i := range d {
			d[i] = p / a[i]
		}
	case uPowS:
		switch p {
		case 1:
			copy(d, a)
		case 2:
			for i := range d {
				d[i] = a[i] * a[i]
			}
		default:
			pp := float64(p)
			for i := range d {
				d[i] = T(math.Pow(float64(a[i]), pp))
			}
		}
	default:
		for i := range d {
			d[i] = unScalar(op, a[i], p, q)
		}
	}
}

// unaryRun applies op to a run of n elements with strides sd and sa.
func unaryRun[T Float](op unOp, d []T, sd int, a []T, sa int, n int, p, q T) {
	switch {
	case sd == 1 && sa == 1:
		unaryVec(op, d[:n], a[:n], p, q)
	case sd == 1 && sa == 0:
		v := unScalar(op, a[0], p, q)
		d = d[:n]
		for i := range d {
			d[i] = v
		}
	default:
		for i := 0; i < n; i++ {
			d[i*sd] = unScalar(op, a[i*sa], p, q)
		}
	}
}

// binScalar applies op to one pair of elements.
func binScalar[T Float](op binOp, x, y T) T {
	switch op {
	case bAdd:
		return x + y
	case bSub:
		return x - y
	case bMul:
		return x * y
	case bDiv:
		return x / y
	case bPow:
		return T(math.Pow(float64(x), float64(y)))
	case bMax:
		if y > x || y != y {
			return y
		}
		return x
	case bMin:
		if y < x || y != y {
			return y
		}
		return x
	case bTanhGrad:
		return y * (1 - x*x)
	case bSigmoidGrad:
		return y * x * (1 - x)
	case bReLUGrad:
		if x > 0 {
			return y
		}
		return 0
	case bGELUGrad:
		return T(float64(y) * geluGrad(float64(x)))
	case bSiLUGrad:
		return T(float64(y) * siluGrad(float64(x)))
	}
	panic("tensorops: internal error: unknown binary op")
}

// binVV is the contiguous kernel d[i] = a[i] op b[i].
func binVV[T Float](op binOp, d, a, b []T) {
	n := len(d)
	a = a[:n]
	b = b[:n]
	switch op {
	case bAdd:
		for i := range d {
			d[i] = a[i] + b[i]
		}
	case bSub:
		for i := range d {
			d[i] = a[i] - b[i]
		}
	case bMul:
		for i := range d {
			d[i] = a[i] * b[i]
		}
	case bDiv:
		for i := range d {
			d[i] = a[i] / b[i]
		}
	case bTanhGrad:
		for i := range d {
			d[i] = b[i] * (1 - a[i]*a[i])
		}
	default:
		for i := range d {
			d[i] = binScalar(op, a[i], b[i])
		}
	}
}

// binVS is d[i] = a[i] op s.
func binVS[T Float](op binOp, d, a []T, s T) {
	n := len(d)
	a = a[:n]
	switch op {
	case bAdd:
		for i := range d {
			d[i] = a[i] + s
		}
	case bSub:
		for i := range d {
			d[i] = a[i] - s
		}
	case bMul:
		for i := range d {
			d[i] = a[i] * s
		}
	case bDiv:
		for i := range d {
			d[i] = a[i] / s
		}
	default:
		for i := range d {
			d[i] = binScalar(op, a[i], s)
		}
	}
}

// binSV is d[i] = s op b[i].
func binSV[T Float](op binOp, d []T, s T, b []T) {
	n := len(d)
	b = b[:n]
	switch op {
	case bAdd:
		for i := range d {
			d[i] = s + b[i]
		}
	case bSub:
		for i := range d {
			d[i] = s - b[i]
		}
	case bMul:
		for i := range d {
			d[i] = s * b[i]
		}
	case bDiv:
		for i := range d {
			d[i] = s / b[i]
		}
	default:
		for i := range d {
			d[i] = binScalar(op, s, b[i])
		}
	}
}

// binRun applies op to a run of n elements with strides sd, sa and sb.
func binRun[T Float](op binOp, d []T, sd int, a []T, sa int, b []T, sb int, n int) {
	switch {
	case sd == 1 && sa == 1 && sb == 1:
		binVV(op, d[:n], a[:n], b[:n])
	case sd == 1 && sa == 1 && sb == 0:
		binVS(op, d[:n], a[:n], b[0])
	case sd == 1 && sa == 0 && sb == 1:
		binSV(op, d[:n], a[0], b[:n])
	default:
		for i := 0; i < n; i++ {
			d[i*sd] = binScalar(op, a[i*sa], b[i*sb])
		}
	}
}

// convRun copies a run converting between element types.
func convRun[D, S Float](d []D, sd int, s []S, ss int, n int) {
	if sd == 1 && ss == 1 {
		d = d[:n]
		s = s[:n]
		for i := range d {
			d[i] = D(s[i])
		}
		return
	}
	for i := 0; i < n; i++ {
		d[i*sd] = D(s[i*ss])
	}
}
