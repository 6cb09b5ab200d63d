// Package spirals trains a classifier written with gadgen's tensor runtime
// (package tensorops): a perceptron with two tanh hidden layers that tells
// the two arms of a spiral apart, with the gradient of its loss generated
// by gadgen and plain gradient descent with momentum.
//
// The model is a struct of tensors and the loss an ordinary Go function:
//
//	//gad:grad wrt=m
//	func Loss(m *Model, x, y *tensorops.Tensor) float64
//
// go generate writes spirals_grad.go with
//
//	func LossGrad(m, mBar *Model, x, y *tensorops.Tensor) float64
//
// which returns the loss and adds its gradient into mBar's tensors (a nil
// field gets a fresh tensor).
package spirals

//go:generate gadgen

import (
	"math"
	"math/rand/v2"

	"github.com/gadgen/gadgen/tensorops"
)

// Model is a perceptron 2 → Hidden → Hidden → 2.
type Model struct {
	W1, B1, W2, B2, W3, B3 *tensorops.Tensor
}

// Hidden is the width of the hidden layers.
const Hidden = 32

// Logits returns the network's two class scores for each row of x.
func Logits(m *Model, x *tensorops.Tensor) *tensorops.Tensor {
	h1 := tensorops.Tanh(tensorops.Add(tensorops.MatMul(x, m.W1), m.B1))
	h2 := tensorops.Tanh(tensorops.Add(tensorops.MatMul(h1, m.W2), m.B2))
	return tensorops.Add(tensorops.MatMul(h2, m.W3), m.B3)
}

// Loss is the mean softmax cross-entropy of the network on the points x
// (one per row) with one-hot labels y.
//
//gad:grad wrt=m
func Loss(m *Model, x, y *tensorops.Tensor) float64 {
	return tensorops.SoftmaxCrossEntropy(Logits(m, x), y)
}

// Spirals returns n points of each of the two arms of a spiral, with
// Gaussian noise of standard deviation noise, and their labels (0 or 1).
func Spirals(n int, noise float64, seed uint64) (x *tensorops.Tensor, labels []int) {
	rng := rand.New(rand.NewPCG(seed, 2))
	data := make([]float64, 0, 4*n)
	for class := range 2 {
		for i := range n {
			r := float64(i) / float64(n)
			theta := 3*math.Pi*r + math.Pi*float64(class)
			data = append(data, r*math.Cos(theta)+noise*rng.NormFloat64(), r*math.Sin(theta)+noise*rng.NormFloat64())
			labels = append(labels, class)
		}
	}
	return tensorops.FromFloat64s(data, 2*n, 2), labels
}

// NewModel returns a model with weights drawn from N(0, 1/fan-in) and zero
// biases.
func NewModel(seed uint64) *Model {
	rng := rand.New(rand.NewPCG(seed, 3))
	layer := func(in, out int) *tensorops.Tensor {
		return tensorops.Scale(tensorops.RandN(rng, tensorops.Float64, in, out), 1/math.Sqrt(float64(in)))
	}
	return &Model{
		W1: layer(2, Hidden), B1: tensorops.Zeros(Hidden),
		W2: layer(Hidden, Hidden), B2: tensorops.Zeros(Hidden),
		W3: layer(Hidden, 2), B3: tensorops.Zeros(2),
	}
}

// params returns the model's tensors, in order.
func (m *Model) params() []*tensorops.Tensor {
	return []*tensorops.Tensor{m.W1, m.B1, m.W2, m.B2, m.W3, m.B3}
}

// Accuracy returns the fraction of the rows of x that the model labels
// right.
func Accuracy(m *Model, x *tensorops.Tensor, labels []int) float64 {
	right := 0
	for i, c := range tensorops.ArgMax(Logits(m, x), 1) {
		if c == labels[i] {
			right++
		}
	}
	return float64(right) / float64(len(labels))
}

// Train runs steps of gradient descent with momentum on the whole data
// set, calling report (when not nil) every reportEvery steps with the step
// and the loss.
func Train(m *Model, x *tensorops.Tensor, labels []int, steps int, rate, momentum float64, reportEvery int, report func(step int, loss float64)) float64 {
	y := tensorops.OneHot(labels, 2, tensorops.Float64)
	grad := &Model{}
	var velocity []*tensorops.Tensor
	for _, p := range m.params() {
		velocity = append(velocity, tensorops.ZerosLike(p))
	}
	var loss float64
	for step := range steps {
		for _, g := range grad.params() {
			if g != nil {
				tensorops.Fill(g, 0)
			}
		}
		loss = LossGrad(m, grad, x, y)
		if report != nil && step%reportEvery == 0 {
			report(step, loss)
		}
		for i, p := range m.params() {
			// v = momentum·v − rate·g; p += v
			tensorops.AffineTo(velocity[i], velocity[i], momentum, 0)
			tensorops.AddTo(velocity[i], velocity[i], tensorops.Scale(grad.params()[i], -rate))
			tensorops.AddInto(p, velocity[i])
		}
	}
	return loss
}
