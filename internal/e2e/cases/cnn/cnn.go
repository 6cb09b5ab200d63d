// Package cnn is an end-to-end case of tensor models with pooling: a
// convolutional classifier (Conv2D → GELU → MaxPool2D → dense →
// SoftmaxCrossEntropy) differentiated with respect to its parameters in
// reverse and forward mode, and with respect to its input to second order
// (the HVP, forward over reverse through the adjoints of every op); and a
// dilated network (Conv2DDilated → SiLU → AvgPool2D → dense → Softplus,
// a squared error accumulated from ZerosOf) in reverse, forward and
// Taylor mode. cnn_test.go checks them against central differences in
// float64 and float32.
package cnn

//go:generate gadgen

import "github.com/gadgen/gadgen/tensorops"

// CNN is a convolutional classifier of images [n, 2, 6, 6] into 3
// classes: 4 filters of 3×3 with padding 1, GELU, 2×2 max pooling, a
// dense layer.
type CNN struct {
	K, KB *tensorops.Tensor // filters [4, 2, 3, 3], their bias [4, 1, 1]
	W, B  *tensorops.Tensor // [36, 3], [3]
}

// Logits are the CNN's scores of the images x.
func (m *CNN) Logits(x *tensorops.Tensor) *tensorops.Tensor {
	h := tensorops.GELU(tensorops.Add(tensorops.Conv2D(x, m.K, 1, 1), m.KB))
	p := tensorops.MaxPool2D(h, 2, 2, 0)
	f := tensorops.Reshape(p, x.Dim(0), 36)
	return tensorops.Add(tensorops.MatMul(f, m.W), m.B)
}

// Loss is the softmax cross-entropy of the CNN on images x with one-hot
// labels y.
//
//gad:grad wrt=m
//gad:jvp wrt=m
func Loss(m *CNN, x, y *tensorops.Tensor) float64 {
	return tensorops.SoftmaxCrossEntropy(m.Logits(x), y)
}

// InputLoss is Loss as a function of the images: its gradient (the
// saliency) and its Hessian-vector products.
//
//gad:grad wrt=x
//gad:hvp wrt=x
func InputLoss(m *CNN, x, y *tensorops.Tensor) float64 {
	return Loss(m, x, y)
}

// Atrous is a regression network on images [n, 1, 9, 8]: 3 filters of
// 3×2 dilated by 2 with padding 2 ([n, 3, 9, 10]), SiLU, 3×3 average
// pooling every 2 with padding 1 ([n, 3, 5, 5]), a dense layer to 2
// outputs and Softplus.
type Atrous struct {
	K    *tensorops.Tensor // [3, 1, 3, 2]
	W, B *tensorops.Tensor // [75, 2], [2]
}

// AtrousLoss is the sum over the samples of the squared errors of the
// network against targets y [n, 2], accumulated sample by sample from a
// zero tensor of the images' dtype.
//
//gad:grad wrt=a
//gad:jvp wrt=a
//gad:taylor order=3 wrt=a
func AtrousLoss(a *Atrous, x, y *tensorops.Tensor) float64 {
	h := tensorops.SiLU(tensorops.Conv2DDilated(x, a.K, 1, 2, 2))
	p := tensorops.AvgPool2D(h, 3, 2, 1)
	f := tensorops.Reshape(p, x.Dim(0), 75)
	o := tensorops.Softplus(tensorops.Add(tensorops.MatMul(f, a.W), a.B))
	acc := tensorops.ZerosOf(x.DType(), 2)
	for i := range x.Dim(0) {
		d := tensorops.Sub(tensorops.Slice(o, 0, i, i+1), tensorops.Slice(y, 0, i, i+1))
		acc = tensorops.Add(acc, tensorops.Sum(tensorops.Square(d), 0))
	}
	return tensorops.SumAll(acc)
}
