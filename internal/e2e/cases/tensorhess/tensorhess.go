// Package tensorhess is the end-to-end case of the second-order helpers
// (//gad:hvp, //gad:hessian, //gad:hessdiag, //gad:laplacian) on tensor
// programs: with respect to a struct of tensors — by pointer and by value,
// with tensor fields, a []*Tensor field and a nested struct, as a
// parameter and as a method's receiver, with lanes=2 — and with respect to
// a flat tensor of rank 0 to 3; on a classifier's cross-entropy loss (the
// softmax family's series) and a layer normalization (Std); and the JVP of
// a generated gradient of a struct of tensors, which accumulates into its
// buffers in place. The tests check every helper against the Hessian of
// finite differences of the generated gradient, in float64, and float32
// against float64.
package tensorhess

//go:generate gadgen

import "github.com/gadgen/gadgen/tensorops"

// T is the tensor type.
type T = tensorops.Tensor

// MLP is a two-layer tanh perceptron.
type MLP struct {
	W1, B1, W2, B2 *T
}

// mlp returns the perceptron's output on the rows of x.
func mlp(w1, b1, w2, b2, x *T) *T {
	h := tensorops.Tanh(tensorops.Add(tensorops.MatMul(x, w1), b1))
	return tensorops.Add(tensorops.MatMul(h, w2), b2)
}

// MLPLoss is the mean squared error of the perceptron m (by pointer) on
// the batch x against y.
//
//gad:grad wrt=m
//gad:hvp wrt=m
//gad:hessian wrt=m
//gad:hessdiag wrt=m
//gad:laplacian wrt=m
func MLPLoss(m *MLP, x, y *T) float64 {
	return tensorops.MeanAll(tensorops.Square(tensorops.Sub(mlp(m.W1, m.B1, m.W2, m.B2, x), y)))
}

//gad:hvp MLPLossHVP2 github.com/gadgen/gadgen/internal/e2e/cases/tensorhess.MLPLoss wrt=m lanes=2

// MLPGradOf calls MLPLoss's generated gradient, which accumulates into
// the buffers of g: its JVP (the nesting route of gadgen's README) adds
// the HVP along m's tangent into g's tangent, its Taylor coefficients of
// order 2 (the series of the fused accumulations) half the derivative of
// the HVP along m's line.
//
//gad:jvp wrt=m,g
//gad:taylor order=2 wrt=m,g
func MLPGradOf(m, g *MLP, x, y *T) float64 { return MLPLossGrad(m, g, x, y) }

// MLPLossV is MLPLoss with the perceptron passed by value.
//
//gad:grad wrt=m
//gad:hvp wrt=m
//gad:hessian wrt=m
//gad:hessdiag wrt=m
//gad:laplacian wrt=m
func MLPLossV(m MLP, x, y *T) float64 {
	return tensorops.MeanAll(tensorops.Square(tensorops.Sub(mlp(m.W1, m.B1, m.W2, m.B2, x), y)))
}

// Loss is MLPLoss as a method of the perceptron.
//
//gad:grad wrt=m
//gad:hvp wrt=m
//gad:hessdiag wrt=m
func (m *MLP) Loss(x, y *T) float64 {
	return tensorops.MeanAll(tensorops.Square(tensorops.Sub(mlp(m.W1, m.B1, m.W2, m.B2, x), y)))
}

// Affine is a scale and a shift.
type Affine struct {
	Scale, Shift *T
}

// Deep is a perceptron of any depth, its layers' weights in a slice, with
// a layer normalization before its output layer and an affine map after
// it (a nested struct by value and one by pointer).
type Deep struct {
	Layers []*T
	Norm   Affine
	Out    *T
	Post   *Affine
}

// deep returns the perceptron's output on the rows of x: tanh layers,
// then each row normalized (mean 0, standard deviation 1, then scaled
// and shifted), then the output layer, then post.
func deep(layers []*T, norm Affine, out *T, post *Affine, x *T) *T {
	h := x
	for _, w := range layers {
		h = tensorops.Tanh(tensorops.MatMul(h, w))
	}
	c := tensorops.Sub(h, tensorops.Unsqueeze(tensorops.Mean(h, 1), 1))
	n := tensorops.Div(c, tensorops.Unsqueeze(tensorops.Std(h, 1, 0), 1))
	o := tensorops.MatMul(tensorops.Add(tensorops.Mul(n, norm.Scale), norm.Shift), out)
	return tensorops.Add(tensorops.Mul(o, post.Scale), post.Shift)
}

// DeepLoss is the sum of the squared outputs of the perceptron d (by
// pointer) on the batch x.
//
//gad:grad wrt=d
//gad:hvp wrt=d
//gad:hessian wrt=d
//gad:hessdiag wrt=d
//gad:laplacian wrt=d
func DeepLoss(d *Deep, x *T) float64 {
	return tensorops.SumAll(tensorops.Square(deep(d.Layers, d.Norm, d.Out, d.Post, x)))
}

// DeepGradOf calls DeepLoss's generated gradient, whose products go into
// g's buffers (tensorops.AccumulateMatMulGradB): its Taylor coefficients
// of order 2 take the series of the fused accumulations.
//
//gad:taylor order=2 wrt=d,g
func DeepGradOf(d, g *Deep, x *T) float64 { return DeepLossGrad(d, g, x) }

// DeepLossV is DeepLoss with the perceptron passed by value.
//
//gad:grad wrt=d
//gad:hvp wrt=d
//gad:hessian wrt=d
//gad:hessdiag wrt=d
//gad:laplacian wrt=d
func DeepLossV(d Deep, x *T) float64 {
	return tensorops.SumAll(tensorops.Square(deep(d.Layers, d.Norm, d.Out, d.Post, x)))
}

// Classifier is a linear classifier.
type Classifier struct {
	W, B *T
}

// ClassLoss is the softmax cross-entropy of the classifier c on the rows
// of x with labels (one-hot rows).
//
//gad:grad wrt=c
//gad:hvp wrt=c
//gad:hessian wrt=c
//gad:hessdiag wrt=c
//gad:laplacian wrt=c
func ClassLoss(c *Classifier, x, labels *T) float64 {
	return tensorops.SoftmaxCrossEntropy(tensorops.Add(tensorops.MatMul(x, c.W), c.B), labels)
}

// ClassLossFlat is the softmax cross-entropy of the classifier of weights
// w (a matrix, no bias) on the rows of x with labels.
//
//gad:grad wrt=w
//gad:hvp wrt=w
//gad:hessian wrt=w
//gad:hessdiag wrt=w
//gad:laplacian wrt=w
func ClassLossFlat(w, x, labels *T) float64 {
	return tensorops.SoftmaxCrossEntropy(tensorops.MatMul(x, w), labels)
}

// Rank0 is a function of a tensor of rank 0 (one element).
//
//gad:grad
//gad:hvp
//gad:hessian
//gad:hessdiag
//gad:laplacian
func Rank0(x *T) float64 {
	return tensorops.SumAll(tensorops.Mul(tensorops.Exp(x), tensorops.Sin(x)))
}

// Rank1 is a function of a vector: its standard deviation and its
// log-sum-exp.
//
//gad:grad
//gad:hvp
//gad:hessian
//gad:hessdiag
//gad:laplacian
func Rank1(x *T) float64 {
	return tensorops.StdAll(x, 1) + tensorops.SumAll(tensorops.LogSumExp(tensorops.Unsqueeze(x, 0), 1))
}

// Rank3 is a function of a tensor of rank 3: a softmax along its middle
// axis, the variance along its last.
//
//gad:grad
//gad:hvp
//gad:hessian
//gad:hessdiag
//gad:laplacian
func Rank3(x *T) float64 {
	s := tensorops.Softmax(x, 1)
	return tensorops.SumAll(tensorops.Mul(s, tensorops.Tanh(x))) + tensorops.SumAll(tensorops.Var(x, 2, 1))
}

// Layer is a dense layer.
type Layer struct {
	W, B *T
}

// Stack is a perceptron written as most people write one: its layers in
// a slice of structs.
type Stack struct {
	Ls []Layer
}

// stack returns the tanh perceptron's output on the rows of x.
func stack(ls []Layer, x *T) *T {
	for _, l := range ls {
		x = tensorops.Tanh(tensorops.Add(tensorops.MatMul(x, l.W), l.B))
	}
	return x
}

// StackLoss is the sum of the outputs of the perceptron s (by pointer) on
// the batch x.
//
//gad:grad wrt=s
//gad:hvp wrt=s
//gad:hessian wrt=s
//gad:hessdiag wrt=s
//gad:laplacian wrt=s
func StackLoss(s *Stack, x *T) float64 {
	return tensorops.SumAll(stack(s.Ls, x))
}

//gad:hvp StackLossHVP2 github.com/gadgen/gadgen/internal/e2e/cases/tensorhess.StackLoss wrt=s lanes=2

// StackLossV is StackLoss with the perceptron passed by value.
//
//gad:grad wrt=s
//gad:hvp wrt=s
//gad:hessian wrt=s
//gad:hessdiag wrt=s
//gad:laplacian wrt=s
func StackLossV(s Stack, x *T) float64 {
	return tensorops.SumAll(stack(s.Ls, x))
}

// Loss is StackLoss as a method of the perceptron.
//
//gad:grad wrt=s
//gad:hvp wrt=s
//gad:hessdiag wrt=s
//gad:hessian wrt=s
func (s *Stack) Loss(x *T) float64 {
	return tensorops.SumAll(stack(s.Ls, x))
}

// Wrapped is a perceptron whose layers are in a slice of pointers, between
// an input map and an output map.
type Wrapped struct {
	In  *T
	Ls  []*Layer
	Out *T
}

// WrappedLoss is the mean squared output of the perceptron w on the batch
// x.
//
//gad:grad wrt=w
//gad:hvp wrt=w
//gad:hessian wrt=w
//gad:hessdiag wrt=w
//gad:laplacian wrt=w
func WrappedLoss(w *Wrapped, x *T) float64 {
	h := tensorops.MatMul(x, w.In)
	for _, l := range w.Ls {
		h = tensorops.Tanh(tensorops.Add(tensorops.MatMul(h, l.W), l.B))
	}
	return tensorops.MeanAll(tensorops.Square(tensorops.MatMul(h, w.Out)))
}

// Block is a residual block: a layer, its biases in a slice of tensors
// (added one after the other), then an affine map by value and one by
// pointer.
type Block struct {
	W    *T
	Bs   []*T
	Norm Affine
	Post *Affine
}

// Tower is a stack of residual blocks and an output layer.
type Tower struct {
	Blocks []Block
	Out    *T
}

// block returns the output of a residual block on the rows of x.
func block(w *T, biases []*T, norm Affine, post *Affine, x *T) *T {
	h := tensorops.MatMul(x, w)
	for _, b := range biases {
		h = tensorops.Add(h, b)
	}
	h = tensorops.Add(tensorops.Mul(tensorops.Tanh(h), norm.Scale), norm.Shift)
	return tensorops.Add(x, tensorops.Add(tensorops.Mul(h, post.Scale), post.Shift))
}

// TowerLoss is the log-sum-exp of the outputs of the tower t (by pointer)
// on each row of x, summed.
//
//gad:grad wrt=t
//gad:hvp wrt=t
//gad:hessian wrt=t
//gad:hessdiag wrt=t
//gad:laplacian wrt=t
func TowerLoss(t *Tower, x *T) float64 {
	for _, b := range t.Blocks {
		x = block(b.W, b.Bs, b.Norm, b.Post, x)
	}
	return tensorops.SumAll(tensorops.LogSumExp(tensorops.MatMul(x, t.Out), 1))
}

// TowerLossV is TowerLoss with the tower passed by value.
//
//gad:grad wrt=t
//gad:hvp wrt=t
//gad:hessian wrt=t
//gad:hessdiag wrt=t
//gad:laplacian wrt=t
func TowerLossV(t Tower, x *T) float64 {
	for _, b := range t.Blocks {
		x = block(b.W, b.Bs, b.Norm, b.Post, x)
	}
	return tensorops.SumAll(tensorops.LogSumExp(tensorops.MatMul(x, t.Out), 1))
}
