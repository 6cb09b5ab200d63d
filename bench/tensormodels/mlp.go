package tensormodels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gadgen/gadgen/tensorops"
)

// Dense is a fully connected layer: x ↦ x·W + B.
type Dense struct {
	W, B *tensorops.Tensor
}

// MLP is a perceptron: its layers in order, tanh between them.
type MLP struct {
	Layers []Dense
}

// Predict returns the network's logits on the rows of x: each layer's
// product and bias, tanh after every layer but the last. It is the helper
// a user writes once and calls from the loss, the training loop and
// inference.
func Predict(m *MLP, x *tensorops.Tensor) *tensorops.Tensor {
	h := x
	for i, l := range m.Layers {
		h = tensorops.Add(tensorops.MatMul(h, l.W), l.B)
		if i < len(m.Layers)-1 {
			h = tensorops.Tanh(h)
		}
	}
	return h
}

// MLPLoss is the mean softmax cross-entropy of Predict(m, x) against the
// one-hot labels y.
//
//gad:grad wrt=m
func MLPLoss(m *MLP, x, y *tensorops.Tensor) float64 {
	return tensorops.SoftmaxCrossEntropy(Predict(m, x), y)
}

// MLPHandGrad is the backpropagation a programmer writes for MLPLoss: it
// returns the loss and adds the gradient into g's layers.
func MLPHandGrad(m, g *MLP, x, y *tensorops.Tensor) float64 {
	last := len(m.Layers) - 1
	hs := []*tensorops.Tensor{x} // hs[i] is layer i's input
	for i, l := range m.Layers {
		h := tensorops.Add(tensorops.MatMul(hs[i], l.W), l.B)
		if i < last {
			tensorops.TanhTo(h, h)
		}
		hs = append(hs, h)
	}
	loss := tensorops.SoftmaxCrossEntropy(hs[last+1], y)
	d := tensorops.SoftmaxCrossEntropyGrad(hs[last+1], y, 1)
	for i := last; i >= 0; i-- {
		if i < last {
			// Through tanh: d ⊙ (1 − h²), h the layer's output.
			tensorops.MulTo(d, d, tensorops.Affine(tensorops.Square(hs[i+1]), -1, 1))
		}
		tensorops.Gemm(g.Layers[i].W, 1, hs[i], true, d, false, 1)
		tensorops.AddInto(g.Layers[i].B, tensorops.Sum(d, 0))
		if i > 0 {
			d = tensorops.MatMulT(d, m.Layers[i].W, false, true)
		}
	}
	return loss
}

// MLPSizes are an MLP's layer widths (the input's first, the classes'
// last) and the batch.
type MLPSizes struct {
	Widths []int
	Batch  int
}

// NewMLP returns the network with weights drawn from N(0, 1/fan-in) and
// biases from N(0, 0.01), a batch of inputs in [0, 1) and one-hot labels,
// from seed.
func NewMLP(s MLPSizes, seed uint64) (m *MLP, x, y *tensorops.Tensor) {
	rng := rand.New(rand.NewPCG(seed, 1))
	m = &MLP{}
	for i := range len(s.Widths) - 1 {
		in, out := s.Widths[i], s.Widths[i+1]
		m.Layers = append(m.Layers, Dense{W: normal(rng, 1/math.Sqrt(float64(in)), in, out), B: normal(rng, 0.1, out)})
	}
	x = tensorops.RandU(rng, tensorops.Float64, 0, 1, s.Batch, s.Widths[0])
	return m, x, labels(rng, s.Batch, s.Widths[len(s.Widths)-1])
}

// Params returns m's tensors: each layer's W, then its B.
func (m *MLP) Params() []*tensorops.Tensor {
	var ps []*tensorops.Tensor
	for _, l := range m.Layers {
		ps = append(ps, l.W, l.B)
	}
	return ps
}

// mlpOf returns the MLP whose tensors are ps, in the order of Params.
func mlpOf(ps []*tensorops.Tensor) *MLP {
	m := &MLP{}
	for i := 0; i < len(ps); i += 2 {
		m.Layers = append(m.Layers, Dense{W: ps[i], B: ps[i+1]})
	}
	return m
}

func mlpCase(s MLPSizes, seed uint64) Case {
	m, x, y := NewMLP(s, seed)
	ws := make([]string, len(s.Widths))
	for i, w := range s.Widths {
		ws[i] = fmt.Sprint(w)
	}
	return Case{
		Name: "MLP through Predict", Size: fmt.Sprintf("%s, batch %d", strings.Join(ws, "-"), s.Batch),
		Params: m.Params(),
		Loss:   func(ps []*tensorops.Tensor) float64 { return MLPLoss(mlpOf(ps), x, y) },
		Grad:   func(g []*tensorops.Tensor) float64 { return MLPLossGrad(m, mlpOf(g), x, y) },
		Hand:   func(g []*tensorops.Tensor) float64 { return MLPHandGrad(m, mlpOf(g), x, y) },
	}
}
