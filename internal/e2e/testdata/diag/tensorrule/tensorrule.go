package tensorrule

import "github.com/gadgen/gadgen/tensorops"

type T = tensorops.Tensor

// want +2 "jvp=nope: no function nope in package tensorrule"
//
//gad:rule jvp=nope
func Missing(x *T) *T { return x }

// want +2 `jvp=: want func\(x \*T, dx \*T\) \*T \(WrongJVP's parameters, optionally its result r, then the tangent of each float or tensor parameter; it returns the tangent of the result\); badJVP has func\(x \*T\) \*T`
//
//gad:rule jvp=badJVP
func WrongJVP(x *T) *T { return x }

func badJVP(x *T) *T { return x }

// want +2 `vjp=: want func\(x \*T, s float64, rBar \*T\) \(\*T, float64\) .*; badVJP has func\(x \*T, s float64, rBar \*T\) \*T`
//
//gad:rule vjp=badVJP
func WrongVJP(x *T, s float64) *T { return tensorops.Scale(x, s) }

func badVJP(x *T, s float64, rBar *T) *T { return rBar }

// want +2 `jvp=: want func\(x \*T, n int, dx \*T\) \*T .*wrongTypeJVP has func\(x \*T, n int, dx \[\]float64\) \*T`
//
//gad:rule jvp=wrongTypeJVP
func WrongType(x *T, n int) *T { return x }

func wrongTypeJVP(x *T, n int, dx []float64) *T { return x }

// want +2 "x=: a rule gives either partials"
//
//gad:rule jvp=okJVP x="1"
func Mixed(x *T) *T { return x }

func okJVP(x, dx *T) *T { return dx }

// want +2 "vjp=notAFunc: notAFunc is not a function"
//
//gad:rule vjp=notAFunc
func NotFunc(x *T) *T { return x }

var notAFunc = 1

type Layer struct{ W *T }

// want +2 `parameter l of StructParam has type Layer: a rule's function takes floats, tensors and values that hold no floats`
//
//gad:rule jvp=structJVP
func StructParam(l Layer, x *T) *T { return tensorops.MatMul(x, l.W) }

func structJVP(l, dl Layer, x, dx *T) *T { return dx }

// want +2 `a rule with jvp= or vjp= needs a function with one float or tensor result; TwoResults returns \(\*T, \*T\)`
//
//gad:rule jvp=twoJVP
func TwoResults(x *T) (*T, *T) { return x, x }

func twoJVP(x, dx *T) (*T, *T) { return dx, dx }

// JVPOnly has a JVP and no VJP: forward mode uses it, reverse mode cannot.
//
//gad:rule jvp=okJVP
func JVPOnly(x *T) *T { return tensorops.Tanh(x) }

// VJPOnly has a VJP and no JVP.
//
//gad:rule vjp=okVJP
func VJPOnly(x *T) *T { return tensorops.Tanh(x) }

func okVJP(x, rBar *T) *T { return rBar }

//gad:grad
func Reverse(x *T) float64 {
	return tensorops.SumAll(JVPOnly(x)) // want "its //gad:rule gives no VJP \\(vjp=\\): reverse mode and the second-order helpers built on it need one"
}

//gad:jvp
func Forward(x *T) float64 {
	return tensorops.SumAll(VJPOnly(x)) // want "its //gad:rule gives no JVP \\(jvp=\\): forward mode, Taylor mode and the Hessian-vector products need one"
}

// WithResult's JVP takes the result r: Taylor mode of order 2 would need
// r's coefficients to expand it.
//
//gad:rule jvp=withResultJVP vjp=okVJP
func WithResult(x *T) *T { return tensorops.Exp(x) }

func withResultJVP(x, r, dx *T) *T { return tensorops.Mul(r, dx) }

//gad:taylor order=2
func Taylor(x *T) float64 {
	return tensorops.SumAll(WithResult(x)) // want "Taylor mode of order 2 cannot expand WithResult: the JVP of its //gad:rule takes the result r; give a JVP of the parameters alone"
}

//gad:hessdiag
func Diag(x *T) float64 {
	return tensorops.SumAll(WithResult(x)) // want "Taylor mode of order 2 cannot expand WithResult: the JVP of its //gad:rule takes the result r"
}

// Opaque's JVP reads elements one by one, which gadgen cannot
// differentiate: Taylor mode of order 2 needs its derivative.
//
//gad:rule jvp=opaqueJVP
func Opaque(x *T) *T { return tensorops.Exp(x) }

func opaqueJVP(x, dx *T) *T {
	y := dx.Clone()
	y.Set(dx.At(0)*2, 0) // want "methods of Tensor"
	return y
}

//gad:taylor order=2
func TaylorOpaque(x *T) float64 {
	return tensorops.SumAll(Opaque(x))
}

// want +2 `a rule of partials needs a function with one float result; Partials returns \(\*T\) \(for a function of tensors, give its JVP and VJP in Go: //gad:rule jvp=… vjp=…\)`
//
//gad:rule x="1"
func Partials(x *T) *T { return x }
