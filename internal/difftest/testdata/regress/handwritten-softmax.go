// A case of difftest written by hand: a destination-first function and a
// function of it with two results, in every mode that applies.
//
//difftest:len 5

package p

import "math"

// Softmax writes softmax(x) into dst.
//
//difftest:modes jvp vjp taylor
func Softmax(dst, x []float64) {
	m := x[0]
	for _, v := range x {
		m = max(m, v)
	}
	s := 0.0
	for i, v := range x {
		dst[i] = math.Exp(v - m)
		s += dst[i]
	}
	for i := range dst {
		dst[i] /= s
	}
}

// Entropy returns the entropy of softmax(x) and its largest probability.
func Entropy(x []float64) (float64, float64) {
	p := make([]float64, len(x))
	Softmax(p, x)
	h, top := 0.0, 0.0
	for _, q := range p {
		h -= q * math.Log(q)
		if q > top {
			top = q
		}
	}
	return h, top
}
