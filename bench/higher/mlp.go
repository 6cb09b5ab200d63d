// Package higher holds the higher-order benchmarks of bench/README.md's
// suite table: S4, the Laplacian of a tanh MLP (D=50 → 768 → 768 → 512 →
// 512 → 1), and S4b, the Taylor order sweep on sin∘exp chains. See
// README.md. The MLP's gradient, JVP and Hessian-vector product, with
// HandGrad, are also suite S4 of package bench's harness (gadbench).
package higher

//go:generate gadgen

import (
	"math"
	"math/rand/v2"
)

// MLP is a tanh multilayer perceptron with one output: its weights are
// row-major (W1 is H1×D), the layers written out as loops in plain Go.
type MLP struct {
	D, H1, H2, H3, H4  int
	W1, W2, W3, W4, W5 []float64
	B1, B2, B3, B4     []float64
	B5                 float64
}

// NewMLP returns an MLP with the given sizes and weights drawn with a
// seeded RNG, scaled by 1/√fan-in.
func NewMLP(d, h1, h2, h3, h4 int, seed uint64) *MLP {
	r := rand.New(rand.NewPCG(seed, 7))
	w := func(out, in int) []float64 {
		s := make([]float64, out*in)
		for i := range s {
			s[i] = (2*r.Float64() - 1) * math.Sqrt(3/float64(in))
		}
		return s
	}
	b := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = 0.1 * (2*r.Float64() - 1)
		}
		return s
	}
	return &MLP{D: d, H1: h1, H2: h2, H3: h3, H4: h4,
		W1: w(h1, d), W2: w(h2, h1), W3: w(h3, h2), W4: w(h4, h3), W5: w(1, h4),
		B1: b(h1), B2: b(h2), B3: b(h3), B4: b(h4), B5: 0.1}
}

// Value is the network's output at x (len(x) = m.D).
//
//gad:jvp
//gad:grad
//gad:laplacian
//gad:hvp
//gad:hessian
//gad:taylor order=2 seed=line
func (m *MLP) Value(x []float64) float64 {
	h1 := make([]float64, m.H1)
	h2 := make([]float64, m.H2)
	h3 := make([]float64, m.H3)
	h4 := make([]float64, m.H4)
	for i := range h1 {
		s := m.B1[i]
		for j := range x {
			s += m.W1[i*m.D+j] * x[j]
		}
		h1[i] = math.Tanh(s)
	}
	for i := range h2 {
		s := m.B2[i]
		for j := range h1 {
			s += m.W2[i*m.H1+j] * h1[j]
		}
		h2[i] = math.Tanh(s)
	}
	for i := range h3 {
		s := m.B3[i]
		for j := range h2 {
			s += m.W3[i*m.H2+j] * h2[j]
		}
		h3[i] = math.Tanh(s)
	}
	for i := range h4 {
		s := m.B4[i]
		for j := range h3 {
			s += m.W4[i*m.H3+j] * h3[j]
		}
		h4[i] = math.Tanh(s)
	}
	out := m.B5
	for j := range h4 {
		out += m.W5[j] * h4[j]
	}
	return out
}
