package peers

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Sizes are the dimensions of the network and of the batch.
type Sizes struct {
	In, H1, H2, Out int // layer widths: input, two hidden layers, logits
	Batch           int // samples per call
}

// Full is the benchmarked size: 784-256-256-10, batch 128.
var Full = Sizes{In: 784, H1: 256, H2: 256, Out: 10, Batch: 128}

// Small is the size of the quick agreement tests: 20-16-16-5, batch 8.
var Small = Sizes{In: 20, H1: 16, H2: 16, Out: 5, Batch: 8}

func (s Sizes) String() string {
	return fmt.Sprintf("%d-%d-%d-%d, batch %d", s.In, s.H1, s.H2, s.Out, s.Batch)
}

// NumParams is the number of parameter arrays: W1, b1, W2, b2, W3, b3.
const NumParams = 6

// ParamNames names the parameter arrays in their order.
var ParamNames = [NumParams]string{"W1", "b1", "W2", "b2", "W3", "b3"}

// Shapes returns the shape of each parameter array. A weight matrix is
// [fan-in, fan-out], stored row-major: a layer computes x·W + b for a row
// x.
func (s Sizes) Shapes() [NumParams][]int {
	return [NumParams][]int{
		{s.In, s.H1}, {s.H1},
		{s.H1, s.H2}, {s.H2},
		{s.H2, s.Out}, {s.Out},
	}
}

// Grads holds one array per parameter, in the layout of Problem.Params.
type Grads [NumParams][]float64

// A Problem is one instance: the parameters and one batch of data. The loss
// is
//
//	h1 = tanh(X·W1 + b1), h2 = tanh(h1·W2 + b2), z = h2·W3 + b3,
//	L  = (1/Batch) Σ_b [ log Σ_k exp(z_bk) − Σ_k Y_bk z_bk ],
//
// with Y the one-hot labels: the mean softmax cross-entropy.
type Problem struct {
	Sizes
	// Params are W1 [In×H1], b1 [H1], W2 [H1×H2], b2 [H2], W3 [H2×Out],
	// b3 [Out], matrices row-major.
	Params Grads
	X      []float64 // inputs, [Batch×In] row-major, each in [0, 1)
	Labels []int     // class of each sample, in [0, Out)
	OneHot []float64 // Labels one-hot, [Batch×Out] row-major
}

// NewProblem returns the problem of sizes s drawn from a PCG generator
// seeded with seed: weights uniform in ±sqrt(6/(fan-in+fan-out)) (Glorot),
// biases uniform in ±0.1 (not zero, so that their gradients are tested
// through nonzero values), inputs uniform in [0, 1), labels uniform.
func NewProblem(s Sizes, seed uint64) *Problem {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	p := &Problem{Sizes: s}
	uniform := func(n int, a float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = a * (2*r.Float64() - 1)
		}
		return v
	}
	for i, shape := range s.Shapes() {
		if len(shape) == 2 {
			p.Params[i] = uniform(shape[0]*shape[1], math.Sqrt(6/float64(shape[0]+shape[1])))
		} else {
			p.Params[i] = uniform(shape[0], 0.1)
		}
	}
	p.X = make([]float64, s.Batch*s.In)
	for i := range p.X {
		p.X[i] = r.Float64()
	}
	p.Labels = make([]int, s.Batch)
	p.OneHot = make([]float64, s.Batch*s.Out)
	for b := range p.Labels {
		p.Labels[b] = r.IntN(s.Out)
		p.OneHot[b*s.Out+p.Labels[b]] = 1
	}
	return p
}

// Float is the element types of the benchmark.
type Float interface{ ~float32 | ~float64 }

// Convert returns a copy of x as []T.
func Convert[T Float](x []float64) []T {
	out := make([]T, len(x))
	for i, v := range x {
		out[i] = T(v)
	}
	return out
}

// ToFloat64 returns a copy of x as []float64.
func ToFloat64[T Float](x []T) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}
