// Package mlp is suite S2d of gadgen's benchmarks: the mean softmax
// cross-entropy of a one-hidden-layer tanh network (784-256-10) over a
// mini-batch, written twice as a Go user writes it: Net.Loss, a method of
// a struct holding the weights, with range loops and a hidden vector
// allocated per sample; and LossFlat, the same loss with the weights as
// separate slice parameters, three-clause loops and scratch allocated once.
// HandGrad is the hand-written gradient (backpropagation) of both.
//
// Weights are row-major: W1 is nHidden×nIn, W2 is nOut×nHidden; x is
// batch×nIn, row-major, and labels[s] ∈ [0, nOut) is the class of sample s.
// The sizes are read from the lengths: nHidden = len(B1), nOut = len(B2),
// nIn = len(x)/len(labels).
package mlp

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// Net is the network's parameters.
type Net struct {
	W1, B1, W2, B2 []float64
}

// Loss returns the mean over the batch of the softmax cross-entropy of the
// network's logits z = W2·tanh(W1·x_s + B1) + B2 against labels[s]:
//
//	(1/batch) Σ_s [log Σ_k exp(z_k) − z_{labels[s]}]
//
// with the log-sum-exp computed stably (shifted by max_k z_k).
//
//gad:grad wrt=n
//gad:jvp wrt=n
func (n *Net) Loss(x []float64, labels []int) float64 {
	nHidden, nOut := len(n.B1), len(n.B2)
	nIn := len(x) / len(labels)
	total := 0.0
	for s, label := range labels {
		xs := x[s*nIn : (s+1)*nIn]
		h := make([]float64, nHidden)
		for i := range h {
			w := n.W1[i*nIn : (i+1)*nIn]
			a := n.B1[i]
			for j, xj := range xs {
				a += w[j] * xj
			}
			h[i] = math.Tanh(a)
		}
		z := make([]float64, nOut)
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
		sum := 0.0
		for _, zk := range z {
			sum += math.Exp(zk - zmax)
		}
		total += zmax + math.Log(sum) - z[label]
	}
	return total / float64(len(labels))
}

// LossFlat is Net.Loss with the weights as parameters, in the form
// gadgen's reverse mode supports today: three-clause loops, and the hidden
// vector and the logits in scratch slices allocated once, outside the loop
// over the samples.
//
//gad:jvp wrt=w1,b1,w2,b2
//gad:grad wrt=w1,b1,w2,b2
func LossFlat(w1, b1, w2, b2, x []float64, labels []int) float64 {
	nHidden, nOut := len(b1), len(b2)
	batch := len(labels)
	nIn := len(x) / batch
	h := make([]float64, nHidden)
	z := make([]float64, nOut)
	total := 0.0
	for s := 0; s < batch; s++ {
		for i := 0; i < nHidden; i++ {
			a := b1[i]
			for j := 0; j < nIn; j++ {
				a += w1[i*nIn+j] * x[s*nIn+j]
			}
			h[i] = math.Tanh(a)
		}
		zmax := math.Inf(-1)
		for k := 0; k < nOut; k++ {
			a := b2[k]
			for i := 0; i < nHidden; i++ {
				a += w2[k*nHidden+i] * h[i]
			}
			z[k] = a
			zmax = max(zmax, a)
		}
		sum := 0.0
		for k := 0; k < nOut; k++ {
			sum += math.Exp(z[k] - zmax)
		}
		total += zmax + math.Log(sum) - z[labels[s]]
	}
	return total / float64(batch)
}
