// Package tensorlap is the benchmark of the Laplacian of a deep tanh
// perceptron written with gadgen's tensor runtime (the problem of
// Sathia, Qian, Hückelheim, Hovland and Moses, "Compiler Optimizations for
// Higher-Order Automatic Differentiation", PPoPP'25 workshop): Δf(x) =
// Σᵢ ∂²f/∂xᵢ² for f(x) = wᵀ tanh(W_L … tanh(W₁x + b₁) … + b_L), by
// collapsed Taylor mode (//gad:laplacian) and by D Hessian-vector
// products (//gad:hvp, forward over reverse).
package tensorlap

//go:generate gadgen

import (
	"math"
	"math/rand/v2"

	"github.com/gadgen/gadgen/tensorops"
)

// Net is a perceptron of tanh layers with a linear readout.
type Net struct {
	Ws, Bs []*tensorops.Tensor
	Out    *tensorops.Tensor
}

// F is the network's output at x, a row vector [1, D].
//
//gad:laplacian wrt=x
//gad:hvp wrt=x
//gad:hessian wrt=x
//gad:taylor order=2 seed=line wrt=x
func F(n *Net, x *tensorops.Tensor) float64 {
	h := x
	for i := range n.Ws {
		h = tensorops.Tanh(tensorops.Add(tensorops.MatMul(h, n.Ws[i]), n.Bs[i]))
	}
	return tensorops.Dot(h, n.Out)
}

//gad:laplacian FLaplacianO0 github.com/gadgen/gadgen/bench/tensorlap.F wrt=x opt=0
//gad:hvp FHVPO0 github.com/gadgen/gadgen/bench/tensorlap.F wrt=x opt=0
//gad:hessian FHessianO0 github.com/gadgen/gadgen/bench/tensorlap.F wrt=x opt=0
//gad:taylor FTaylorO0 github.com/gadgen/gadgen/bench/tensorlap.F order=2 seed=line wrt=x opt=0

// New returns a network of layers tanh layers of width hidden on inputs
// of dimension d, weights N(0, 1/fan-in), and a point x.
func New(d, hidden, layers int, seed uint64) (*Net, *tensorops.Tensor) {
	rng := rand.New(rand.NewPCG(seed, 5))
	n := &Net{}
	in := d
	for range layers {
		n.Ws = append(n.Ws, tensorops.Scale(tensorops.RandN(rng, tensorops.Float64, in, hidden), 1/math.Sqrt(float64(in))))
		n.Bs = append(n.Bs, tensorops.Scale(tensorops.RandN(rng, tensorops.Float64, 1, hidden), 0.1))
		in = hidden
	}
	n.Out = tensorops.Scale(tensorops.RandN(rng, tensorops.Float64, 1, hidden), 1/math.Sqrt(float64(hidden)))
	return n, tensorops.RandN(rng, tensorops.Float64, 1, d)
}

// LaplacianByHVP is Δf(x) by D HVPs along the unit vectors.
func LaplacianByHVP(n *Net, x *tensorops.Tensor) float64 {
	var lap float64
	for i := range tensorops.Size(x) {
		_, hv := FHVP(n, x, tensorops.Basis(x, i))
		lap += hv.Float64s()[i]
	}
	return lap
}
