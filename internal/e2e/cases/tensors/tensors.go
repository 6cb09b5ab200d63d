// Package tensors is an end-to-end case of gadgen on tensor programs
// written with its runtime, package tensorops: a model struct of tensors,
// a loop over the layers of a model held in slices of tensors, shape
// operations, and every mode (gradient, JVP, Taylor, HVP, Hessian, its diagonal, Laplacian).
package tensors

//go:generate gadgen

import "github.com/gadgen/gadgen/tensorops"

// MLP is a two-layer perceptron.
type MLP struct {
	W1, B1, W2, B2 *tensorops.Tensor
}

// Loss is the softmax cross-entropy of the perceptron on a batch x of
// rows with one-hot labels y.
//
//gad:grad wrt=m
//gad:jvp
func Loss(m *MLP, x, y *tensorops.Tensor) float64 {
	h := tensorops.Tanh(tensorops.Add(tensorops.MatMul(x, m.W1), m.B1))
	o := tensorops.Add(tensorops.MatMul(h, m.W2), m.B2)
	return tensorops.SoftmaxCrossEntropy(o, y)
}

// Deep is a perceptron with any number of layers.
type Deep struct {
	Ws, Bs []*tensorops.Tensor
}

// DeepLoss is the mean squared error of the perceptron's output.
//
//gad:grad wrt=d
func DeepLoss(d *Deep, x, y *tensorops.Tensor) float64 {
	h := x
	for i := range d.Ws {
		h = tensorops.Tanh(tensorops.Add(tensorops.MatMul(h, d.Ws[i]), d.Bs[i]))
	}
	return tensorops.MeanAll(tensorops.Square(tensorops.Sub(h, y)))
}

// Quad is Σ tanh(x·x), a function of a square matrix.
//
//gad:taylor order=3
//gad:hvp
//gad:laplacian
//gad:hessdiag
//gad:hessian
//gad:grad
func Quad(x *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Tanh(tensorops.MatMul(x, x)))
}

// Shapes reshapes, transposes and reduces.
//
//gad:jvp
//gad:grad
func Shapes(x *tensorops.Tensor) float64 {
	y := tensorops.Transpose(tensorops.Reshape(x, 3, -1))
	return tensorops.SumAll(tensorops.Exp(tensorops.Sum(y, 0))) + float64(x.Dim(0))
}

// Layer is one dense layer, held by value.
type Layer struct{ W, B *tensorops.Tensor }

// dense applies a layer: a helper of the user's own, called in a loop.
func dense(l Layer, x *tensorops.Tensor) *tensorops.Tensor {
	return tensorops.Tanh(tensorops.Add(tensorops.MatMul(x, l.W), l.B))
}

// Net is a model as a slice of layers.
type Net struct{ Layers []Layer }

// NetLoss ranges over the layers, calls dense, and measures the error
// with a closure.
//
//gad:grad wrt=n
//gad:jvp wrt=n
func NetLoss(n *Net, x, y *tensorops.Tensor) float64 {
	h := x
	for _, l := range n.Layers {
		h = dense(l, h)
	}
	sq := func(t *tensorops.Tensor) float64 { return tensorops.SumAll(tensorops.Square(t)) }
	return sq(tensorops.Sub(h, y))
}
