package tensormodels

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gadgen/gadgen/tensorops"
)

// RNN is a tanh recurrent network with a dense readout at every step:
// hₜ = tanh(xₜ·Wx + hₜ₋₁·Wh + B) (h₋₁ = 0), logitsₜ = hₜ·Wy + By.
type RNN struct {
	Wx, Wh, B, Wy, By *tensorops.Tensor
}

// run returns the network's hidden states on the sequence of batches xs.
func run(m *RNN, xs []*tensorops.Tensor) []*tensorops.Tensor {
	var hs []*tensorops.Tensor
	for t, x := range xs {
		a := tensorops.Add(tensorops.MatMul(x, m.Wx), m.B)
		if t > 0 {
			a = tensorops.Add(a, tensorops.MatMul(hs[t-1], m.Wh))
		}
		hs = append(hs, tensorops.Tanh(a))
	}
	return hs
}

// RNNLoss is the softmax cross-entropy of the readout of every hidden
// state against the one-hot labels of its step, averaged over the steps
// and the batch.
//
//gad:grad wrt=m
func RNNLoss(m *RNN, xs, ys []*tensorops.Tensor) float64 {
	hs := run(m, xs)
	var loss float64
	for t, h := range hs {
		loss += tensorops.SoftmaxCrossEntropy(tensorops.Add(tensorops.MatMul(h, m.Wy), m.By), ys[t])
	}
	return loss / float64(len(hs))
}

// RNNHandGrad is the backpropagation through time a programmer writes for
// RNNLoss: it returns the loss and adds the gradient into g's tensors.
func RNNHandGrad(m, g *RNN, xs, ys []*tensorops.Tensor) float64 {
	steps := len(xs)
	hs := make([]*tensorops.Tensor, steps)
	logits := make([]*tensorops.Tensor, steps)
	var loss float64
	for t, x := range xs {
		a := tensorops.Add(tensorops.MatMul(x, m.Wx), m.B)
		if t > 0 {
			tensorops.Gemm(a, 1, hs[t-1], false, m.Wh, false, 1)
		}
		hs[t] = tensorops.TanhTo(a, a)
		logits[t] = tensorops.Add(tensorops.MatMul(hs[t], m.Wy), m.By)
		loss += tensorops.SoftmaxCrossEntropy(logits[t], ys[t])
	}
	var dh *tensorops.Tensor // the adjoint of hₜ from step t+1
	for t := steps - 1; t >= 0; t-- {
		d := tensorops.SoftmaxCrossEntropyGrad(logits[t], ys[t], 1/float64(steps))
		tensorops.Gemm(g.Wy, 1, hs[t], true, d, false, 1)
		tensorops.AddInto(g.By, tensorops.Sum(d, 0))
		da := tensorops.MatMulT(d, m.Wy, false, true)
		tensorops.AddInto(da, dh)
		tensorops.MulTo(da, da, tensorops.Affine(tensorops.Square(hs[t]), -1, 1))
		tensorops.Gemm(g.Wx, 1, xs[t], true, da, false, 1)
		tensorops.AddInto(g.B, tensorops.Sum(da, 0))
		if t > 0 {
			tensorops.Gemm(g.Wh, 1, hs[t-1], true, da, false, 1)
			dh = tensorops.MatMulT(da, m.Wh, false, true)
		}
	}
	return loss / float64(steps)
}

// RNNSizes are the sequence's length, the batch and the widths of the
// inputs, the hidden state and the classes.
type RNNSizes struct {
	Steps, Batch, In, Hidden, Out int
}

// NewRNN returns the network with weights drawn from N(0, 1/fan-in) and
// biases from N(0, 0.01), a sequence of batches of inputs from N(0, 1) and
// one-hot labels, from seed.
func NewRNN(s RNNSizes, seed uint64) (m *RNN, xs, ys []*tensorops.Tensor) {
	rng := rand.New(rand.NewPCG(seed, 4))
	m = &RNN{
		Wx: normal(rng, 1/math.Sqrt(float64(s.In)), s.In, s.Hidden), Wh: normal(rng, 1/math.Sqrt(float64(s.Hidden)), s.Hidden, s.Hidden),
		B: normal(rng, 0.1, s.Hidden), Wy: normal(rng, 1/math.Sqrt(float64(s.Hidden)), s.Hidden, s.Out), By: normal(rng, 0.1, s.Out),
	}
	for range s.Steps {
		xs = append(xs, normal(rng, 1, s.Batch, s.In))
		ys = append(ys, labels(rng, s.Batch, s.Out))
	}
	return m, xs, ys
}

// Params returns m's tensors in the order of its fields.
func (m *RNN) Params() []*tensorops.Tensor {
	return []*tensorops.Tensor{m.Wx, m.Wh, m.B, m.Wy, m.By}
}

// rnnOf returns the network whose tensors are ps, in the order of Params.
func rnnOf(ps []*tensorops.Tensor) *RNN {
	return &RNN{Wx: ps[0], Wh: ps[1], B: ps[2], Wy: ps[3], By: ps[4]}
}

func rnnCase(s RNNSizes, seed uint64) Case {
	m, xs, ys := NewRNN(s, seed)
	return Case{
		Name: "RNN, run returns the states", Size: fmt.Sprintf("%d steps, batch %d, %d-%d-%d", s.Steps, s.Batch, s.In, s.Hidden, s.Out),
		Params: m.Params(),
		Loss:   func(ps []*tensorops.Tensor) float64 { return RNNLoss(rnnOf(ps), xs, ys) },
		Grad:   func(g []*tensorops.Tensor) float64 { return RNNLossGrad(m, rnnOf(g), xs, ys) },
		Hand:   func(g []*tensorops.Tensor) float64 { return RNNHandGrad(m, rnnOf(g), xs, ys) },
	}
}
