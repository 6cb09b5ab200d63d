package tensormodels

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gadgen/gadgen/tensorops"
)

// CNN is a small convolutional classifier: two blocks of a 3×3
// convolution (stride 1, padding 1) plus a bias per channel, tanh and 2×2
// max pooling, then a dense layer on the flattened features.
type CNN struct {
	K1, C1, K2, C2, W, B *tensorops.Tensor
}

// block returns the 2×2 max pooling of tanh of the convolution of the
// images x [n, c, h, w] with the filters k [o, c, 3, 3] plus the bias b
// [o] of each output channel.
func block(x, k, b *tensorops.Tensor) *tensorops.Tensor {
	y := tensorops.Add(tensorops.Conv2D(x, k, 1, 1), tensorops.Reshape(b, 1, tensorops.Dim(b, 0), 1, 1))
	return tensorops.MaxPool2D(tensorops.Tanh(y), 2, 2, 0)
}

// CNNLoss is the mean softmax cross-entropy of the network's logits on
// the images x [n, c, h, w] against the one-hot labels y.
//
//gad:grad wrt=m
func CNNLoss(m *CNN, x, y *tensorops.Tensor) float64 {
	h := block(block(x, m.K1, m.C1), m.K2, m.C2)
	logits := tensorops.Add(tensorops.MatMul(tensorops.Reshape(h, tensorops.Dim(x, 0), -1), m.W), m.B)
	return tensorops.SoftmaxCrossEntropy(logits, y)
}

// CNNHandGrad is the backpropagation a programmer writes for CNNLoss: it
// returns the loss and adds the gradient into g's tensors.
func CNNHandGrad(m, g *CNN, x, y *tensorops.Tensor) float64 {
	t1 := blockSaved(x, m.K1, m.C1)
	p1 := tensorops.MaxPool2D(t1, 2, 2, 0)
	t2 := blockSaved(p1, m.K2, m.C2)
	p2 := tensorops.MaxPool2D(t2, 2, 2, 0)
	f := tensorops.Reshape(p2, tensorops.Dim(x, 0), -1)
	logits := tensorops.Add(tensorops.MatMul(f, m.W), m.B)
	loss := tensorops.SoftmaxCrossEntropy(logits, y)

	d := tensorops.SoftmaxCrossEntropyGrad(logits, y, 1)
	tensorops.Gemm(g.W, 1, f, true, d, false, 1)
	tensorops.AddInto(g.B, tensorops.Sum(d, 0))
	df := tensorops.MatMulT(d, m.W, false, true)
	dz2 := blockBack(tensorops.MaxPool2DGrad(t2, tensorops.Reshape(df, p2.Shape()...), 2, 2, 0), t2, g.C2)
	tensorops.AddInto(g.K2, tensorops.Conv2DGradW(dz2, p1, m.K2, 1, 1))
	dp1 := tensorops.Conv2DGradX(dz2, p1, m.K2, 1, 1)
	dz1 := blockBack(tensorops.MaxPool2DGrad(t1, dp1, 2, 2, 0), t1, g.C1)
	tensorops.AddInto(g.K1, tensorops.Conv2DGradW(dz1, x, m.K1, 1, 1))
	return loss
}

// blockSaved returns tanh of the convolution plus bias of block, before
// the pooling (its adjoint needs it).
func blockSaved(x, k, b *tensorops.Tensor) *tensorops.Tensor {
	y := tensorops.Conv2D(x, k, 1, 1)
	tensorops.AddTo(y, y, tensorops.Reshape(b, 1, tensorops.Dim(b, 0), 1, 1))
	return tensorops.TanhTo(y, y)
}

// blockBack takes the adjoint d of tanh's output t through tanh (in
// place), adds the bias's adjoint into db and returns the convolution's
// adjoint.
func blockBack(d, t, db *tensorops.Tensor) *tensorops.Tensor {
	tensorops.MulTo(d, d, tensorops.Affine(tensorops.Square(t), -1, 1))
	tensorops.AddInto(db, tensorops.Sum(tensorops.Sum(tensorops.Sum(d, 3), 2), 0))
	return d
}

// CNNSizes are the batch, the images' channels and side, the filters of
// each block and the classes.
type CNNSizes struct {
	Batch, Channels, Side, Filters1, Filters2, Classes int
}

// NewCNN returns the network with filters and weights drawn from
// N(0, 1/fan-in) and biases from N(0, 0.01), a batch of images in [0, 1)
// and one-hot labels, from seed. The side must be a multiple of 4.
func NewCNN(s CNNSizes, seed uint64) (m *CNN, x, y *tensorops.Tensor) {
	rng := rand.New(rand.NewPCG(seed, 3))
	feat := s.Filters2 * (s.Side / 4) * (s.Side / 4)
	m = &CNN{
		K1: normal(rng, 1/math.Sqrt(float64(9*s.Channels)), s.Filters1, s.Channels, 3, 3), C1: normal(rng, 0.1, s.Filters1),
		K2: normal(rng, 1/math.Sqrt(float64(9*s.Filters1)), s.Filters2, s.Filters1, 3, 3), C2: normal(rng, 0.1, s.Filters2),
		W: normal(rng, 1/math.Sqrt(float64(feat)), feat, s.Classes), B: normal(rng, 0.1, s.Classes),
	}
	x = tensorops.RandU(rng, tensorops.Float64, 0, 1, s.Batch, s.Channels, s.Side, s.Side)
	return m, x, labels(rng, s.Batch, s.Classes)
}

// Params returns m's tensors in the order of its fields.
func (m *CNN) Params() []*tensorops.Tensor {
	return []*tensorops.Tensor{m.K1, m.C1, m.K2, m.C2, m.W, m.B}
}

// cnnOf returns the network whose tensors are ps, in the order of Params.
func cnnOf(ps []*tensorops.Tensor) *CNN {
	return &CNN{K1: ps[0], C1: ps[1], K2: ps[2], C2: ps[3], W: ps[4], B: ps[5]}
}

func cnnCase(s CNNSizes, seed uint64) Case {
	m, x, y := NewCNN(s, seed)
	return Case{
		Name: "CNN through a conv block", Size: fmt.Sprintf("%d×%d×%d×%d, filters %d, %d, %d classes", s.Batch, s.Channels, s.Side, s.Side, s.Filters1, s.Filters2, s.Classes),
		Params: m.Params(),
		Loss:   func(ps []*tensorops.Tensor) float64 { return CNNLoss(cnnOf(ps), x, y) },
		Grad:   func(g []*tensorops.Tensor) float64 { return CNNLossGrad(m, cnnOf(g), x, y) },
		Hand:   func(g []*tensorops.Tensor) float64 { return CNNHandGrad(m, cnnOf(g), x, y) },
	}
}
