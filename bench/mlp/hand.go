package mlp

import (
	"math"
	"math/rand/v2"
)

// HandGrad returns n.Loss(x, labels) and adds its gradient with respect to
// the weights to dn (reverse-mode convention: the adjoints accumulate).
//
// It is backpropagation written by hand, sample by sample: the forward pass
// keeps the hidden vector h and the logits z; with p = softmax(z), the
// adjoint of z is (p − e_label)/batch, of W2 its outer product with h, of
// the hidden pre-activation (W2ᵀ·z̄)⊙(1 − h²), and of W1 that times xᵀ. The
// scratch vectors are allocated once per call.
func HandGrad(n, dn *Net, x []float64, labels []int) float64 {
	nHidden, nOut := len(n.B1), len(n.B2)
	batch := len(labels)
	nIn := len(x) / batch
	h := make([]float64, nHidden)
	hb := make([]float64, nHidden)
	z := make([]float64, nOut)
	inv := 1 / float64(batch)
	total := 0.0
	for s, label := range labels {
		xs := x[s*nIn : (s+1)*nIn]
		for i := range h {
			w := n.W1[i*nIn : (i+1)*nIn]
			a := n.B1[i]
			for j, xj := range xs {
				a += w[j] * xj
			}
			h[i] = math.Tanh(a)
		}
		zmax := math.Inf(-1)
		for k := range z {
			w := n.W2[k*nHidden : (k+1)*nHidden]
			a := n.B2[k]
			for i, hi := range h {
				a += w[i] * hi
			}
			z[k] = a
			zmax = max(zmax, a)
		}
		zl := z[label]
		sum := 0.0
		for k, zk := range z {
			z[k] = math.Exp(zk - zmax) // z now holds the unnormalized softmax
			sum += z[k]
		}
		total += zmax + math.Log(sum) - zl

		// Backward: z̄_k = (p_k − [k = label])/batch.
		clear(hb)
		for k := range z {
			zb := z[k] / sum
			if k == label {
				zb--
			}
			zb *= inv
			dn.B2[k] += zb
			w := n.W2[k*nHidden : (k+1)*nHidden]
			dw := dn.W2[k*nHidden : (k+1)*nHidden]
			for i, hi := range h {
				dw[i] += zb * hi
				hb[i] += zb * w[i]
			}
		}
		for i, hi := range h {
			ab := hb[i] * (1 - hi*hi)
			dn.B1[i] += ab
			dw := dn.W1[i*nIn : (i+1)*nIn]
			for j, xj := range xs {
				dw[j] += ab * xj
			}
		}
	}
	return total * inv
}

// Sizes of the benchmark's network: MNIST's 784 inputs, 256 hidden units,
// 10 classes, mini-batches of 64.
const (
	In     = 784
	Hidden = 256
	Out    = 10
	Batch  = 64
)

// Split returns the network whose weights are the consecutive parts of
// theta, [W1 | B1 | W2 | B2], sharing its memory. It panics if theta's
// length is not nHidden·(nIn+1) + nOut·(nHidden+1).
func Split(theta []float64, nIn, nHidden, nOut int) *Net {
	if len(theta) != nHidden*(nIn+1)+nOut*(nHidden+1) {
		panic("mlp: bad parameter vector length")
	}
	w1, rest := theta[:nHidden*nIn], theta[nHidden*nIn:]
	b1, rest := rest[:nHidden], rest[nHidden:]
	w2, b2 := rest[:nOut*nHidden], rest[nOut*nHidden:]
	return &Net{W1: w1, B1: b1, W2: w2, B2: b2}
}

// FlatGrad returns a gradient of LossFlat (LossFlatGrad, LossFlatGradO0)
// as a function of a network and its shadow, as HandGrad is.
func FlatGrad(grad func(w1, dw1, b1, db1, w2, dw2, b2, db2, x []float64, labels []int) float64) func(n, dn *Net, x []float64, labels []int) float64 {
	return func(n, dn *Net, x []float64, labels []int) float64 {
		return grad(n.W1, dn.W1, n.B1, dn.B1, n.W2, dn.W2, n.B2, dn.B2, x, labels)
	}
}

// FlatJVP returns a JVP of LossFlat (LossFlatJVP, LossFlatJVPO0) as a
// function of a network and its tangent, as Net.LossJVP is.
func FlatJVP(jvp func(w1, dw1, b1, db1, w2, dw2, b2, db2, x []float64, labels []int) (float64, float64)) func(n, dn *Net, x []float64, labels []int) (float64, float64) {
	return func(n, dn *Net, x []float64, labels []int) (float64, float64) {
		return jvp(n.W1, dn.W1, n.B1, dn.B1, n.W2, dn.W2, n.B2, dn.B2, x, labels)
	}
}

// Data returns a reproducible problem: the weights flat in one vector
// (see Split), uniform in ±√(3/fan-in), the biases uniform in ±0.1; a batch
// of inputs uniform in [0, 1) (like scaled pixels); uniform random labels.
func Data(nIn, nHidden, nOut, batch int, seed uint64) (theta, x []float64, labels []int) {
	rnd := rand.New(rand.NewPCG(seed, 9))
	theta = make([]float64, nHidden*(nIn+1)+nOut*(nHidden+1))
	n := Split(theta, nIn, nHidden, nOut)
	fill := func(v []float64, a float64) {
		for i := range v {
			v[i] = a * (2*rnd.Float64() - 1)
		}
	}
	fill(n.W1, math.Sqrt(3/float64(nIn)))
	fill(n.B1, 0.1)
	fill(n.W2, math.Sqrt(3/float64(nHidden)))
	fill(n.B2, 0.1)
	x = make([]float64, batch*nIn)
	for i := range x {
		x[i] = rnd.Float64()
	}
	labels = make([]int, batch)
	for i := range labels {
		labels[i] = rnd.IntN(nOut)
	}
	return theta, x, labels
}
