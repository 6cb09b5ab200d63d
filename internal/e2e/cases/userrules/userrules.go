// Package userrules is an end-to-end case of //gad:rule jvp=… vjp=…:
// functions of tensors whose JVP and VJP their authors write in Go, which
// every mode calls wherever the functions are called, and when they are
// differentiated themselves.
package userrules

//go:generate gadgen

import (
	"math"

	"github.com/gadgen/gadgen/tensorops"
)

// T is the tensor type.
type T = tensorops.Tensor

// gelu is the tanh approximation of GELU, ½x(1 + tanh(√(2/π)(x + 0.044715x³))),
// computed element by element in place of a fresh copy: code that gadgen
// refuses to differentiate (it reads and writes elements one by one). The
// rule gives its derivative.
//
//gad:rule jvp=geluTangent vjp=geluAdjoint
//gad:jvp test=geluInputs
//gad:vjp test=geluInputs
//gad:taylor order=2
func gelu(x *T) *T {
	y := x.Contiguous().Clone()
	if y.DType() == tensorops.Float32 {
		d := y.Float32s()
		for i, v := range d {
			d[i] = float32(geluScalar(float64(v)))
		}
		return y
	}
	d := y.Float64s()
	for i, v := range d {
		d[i] = geluScalar(v)
	}
	return y
}

const (
	geluC = 0.7978845608028654 // √(2/π)
	geluA = 0.044715
)

func geluScalar(x float64) float64 {
	return 0.5 * x * (1 + math.Tanh(geluC*(x+geluA*x*x*x)))
}

// geluSlope is gelu′(x) = ½(1 + tanh u) + ½x(1 − tanh² u)·c(1 + 3a x²),
// u = c(x + a x³), written with tensorops so that gadgen can
// differentiate it (the Hessian-vector products differentiate the VJP).
func geluSlope(x *T) *T {
	x2 := tensorops.Mul(x, x)
	th := tensorops.Tanh(tensorops.Scale(tensorops.Mul(x, tensorops.AddScalar(tensorops.Scale(x2, geluA), 1)), geluC))
	half := tensorops.Scale(tensorops.AddScalar(th, 1), 0.5)
	du := tensorops.Scale(tensorops.AddScalar(tensorops.Scale(x2, 3*geluA), 1), geluC)
	sech2 := tensorops.Affine(tensorops.Mul(th, th), -1, 1)
	return tensorops.Add(half, tensorops.Mul(tensorops.Scale(x, 0.5), tensorops.Mul(sech2, du)))
}

// geluTangent is the JVP of gelu: gelu′(x)·dx.
func geluTangent(x, dx *T) *T { return tensorops.Mul(geluSlope(x), dx) }

// geluAdjoint is the VJP of gelu: the adjoint of x, gelu′(x)·r̄.
func geluAdjoint(x, rBar *T) *T { return tensorops.Mul(geluSlope(x), rBar) }

// scaledExp returns s·exp(k·x): a tensor, a float and an int parameter
// (passed through, not differentiated); its JVP and VJP take the result r.
//
//gad:rule jvp=scaledExpTangent vjp=scaledExpAdjoint
//gad:jvp test=scaledExpInputs
//gad:vjp test=scaledExpInputs
func scaledExp(x *T, s float64, k int) *T {
	return tensorops.Scale(tensorops.Exp(tensorops.Scale(x, float64(k))), s)
}

// scaledExpTangent is k·r·dx + exp(k·x)·ds.
func scaledExpTangent(x *T, s float64, k int, r, dx *T, ds float64) *T {
	e := tensorops.Exp(tensorops.Scale(x, float64(k)))
	return tensorops.Add(tensorops.Scale(tensorops.Mul(r, dx), float64(k)), tensorops.Scale(e, ds))
}

// scaledExpAdjoint returns x̄ = k·r⊙r̄ and s̄ = ⟨exp(k·x), r̄⟩.
func scaledExpAdjoint(x *T, s float64, k int, r, rBar *T) (*T, float64) {
	e := tensorops.Exp(tensorops.Scale(x, float64(k)))
	return tensorops.Scale(tensorops.Mul(r, rBar), float64(k)), tensorops.Dot(e, rBar)
}

// Model is a two-layer perceptron with the activations above.
type Model struct {
	W1, B1, W2 *T
	S          float64
}

// Loss is a mean squared error of the model on (x, y).
//
//gad:jvp wrt=m test=lossInputs
//gad:grad wrt=m test=lossInputs
func Loss(m *Model, x, y *T) float64 {
	h := gelu(tensorops.Add(tensorops.MatMul(x, m.W1), m.B1))
	out := scaledExp(tensorops.MatMul(h, m.W2), m.S, 1)
	d := tensorops.Sub(out, y)
	return tensorops.MeanAll(tensorops.Mul(d, d))
}

// Energy is a function of one tensor through gelu.
//
//gad:jvp test=energyInputs
//gad:grad test=energyInputs
//gad:taylor order=3
//gad:hvp
//gad:hessian
//gad:hessdiag
//gad:laplacian
func Energy(x *T) float64 {
	return tensorops.SumAll(tensorops.Mul(gelu(x), gelu(tensorops.Scale(x, 0.5)))) + 0.5*lse(x)
}

// Penalty is a function of one tensor whose gradient is generated without
// the value (value=false): the dot-product test test=NAME writes takes the
// value from Penalty.
//
//gad:jvp test=energyInputs
//gad:grad value=false test=energyInputs
func Penalty(x *T) float64 {
	return tensorops.SumAll(tensorops.Mul(x, tensorops.Exp(tensorops.Scale(x, 0.5))))
}

// lse is log Σ exp(x), a function of a tensor with a float result.
//
//gad:rule jvp=lseTangent vjp=lseAdjoint
//gad:jvp test=lseInputs
//gad:grad test=lseInputs
func lse(x *T) float64 {
	m := tensorops.MaxAll(x)
	return m + math.Log(tensorops.SumAll(tensorops.Exp(tensorops.AddScalar(x, -m))))
}

// softmax is exp(x)/Σ exp(x), the gradient of lse.
func softmax(x *T) *T {
	e := tensorops.Exp(tensorops.AddScalar(x, -tensorops.MaxAll(x)))
	return tensorops.Scale(e, 1/tensorops.SumAll(e))
}

// lseTangent is ⟨softmax(x), dx⟩.
func lseTangent(x, dx *T) float64 { return tensorops.Dot(softmax(x), dx) }

// lseAdjoint is r̄·softmax(x).
func lseAdjoint(x *T, rBar float64) *T { return tensorops.Scale(softmax(x), rBar) }

// Activate is a tensor function of a tensor and a float: its test checks
// the JVP and the VJP (the point is both).
//
//gad:jvp test=activateInputs
//gad:vjp test=activateInputs
func Activate(x *T, s float64) *T {
	return scaledExp(gelu(x), s, 2)
}

// Layer is a struct of tensors passed by value: its gradient is returned.
type Layer struct {
	W, B *T
}

// Dense is the sum of squares of a layer's output through gelu.
//
//gad:jvp wrt=l test=denseInputs
//gad:grad wrt=l test=denseInputs
func Dense(l Layer, x *T) float64 {
	h := gelu(tensorops.Add(tensorops.MatMul(x, l.W), l.B))
	return tensorops.SumAll(tensorops.Mul(h, h))
}

// Net holds its layers in a slice, and is passed by value: its shadow is
// a pointer.
type Net struct {
	Ws    []*T
	Scale float64
}

// Score runs x through the layers of n.
//
//gad:jvp wrt=n,x test=scoreInputs
//gad:grad wrt=n,x test=scoreInputs
func (n Net) Score(x *T) float64 {
	h := x
	for _, w := range n.Ws {
		h = gelu(tensorops.MatMul(h, w))
	}
	return n.Scale * tensorops.MeanAll(h)
}
