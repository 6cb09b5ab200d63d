// Package tensorlap is the benchmark of the Laplacian of a deep tanh
// perceptron written with gadgen's tensor runtime (the problem of
// Sathia, Qian, Hückelheim, Hovland and Moses, "Compiler Optimizations for
// Higher-Order Automatic Differentiation", PPoPP'25 workshop): Δf(x) =
// Σᵢ ∂²f/∂xᵢ² for f(x) = wᵀ tanh(W_L … tanh(W₁x + b₁) … + b_L), by
// the trace of the Hessian, D Hessian-vector products (forward over
// reverse), D Taylor jets and collapsed Taylor mode, each generated with
// and without optimization. Command table (cmd/table) measures them and
// writes the table and its plot.
package tensorlap

//go:generate gadgen

import (
	"math"
	"math/rand/v2"

	"github.com/gadgen/gadgen/tensorops"
)

// The problem's sizes: the paper's hidden widths, inputs of dimension 32,
// 64 tanh layers.
var (
	Widths   = []int{128, 256, 384, 512}
	InputDim = 32
	Layers   = 64
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

// The HVPs and jets along 8 directions per call, as the Hessian and the
// collapsed jets take them.
//
//gad:hvp FHVP8 github.com/gadgen/gadgen/bench/tensorlap.F wrt=x lanes=8
//gad:hvp FHVP8O0 github.com/gadgen/gadgen/bench/tensorlap.F wrt=x lanes=8 opt=0
//gad:taylor FTaylor8 github.com/gadgen/gadgen/bench/tensorlap.F order=2 seed=line lanes=8 wrt=x
//gad:taylor FTaylor8O0 github.com/gadgen/gadgen/bench/tensorlap.F order=2 seed=line lanes=8 wrt=x opt=0

// The HVPs along any number of directions per call, stacked in one tensor
// [L, 1, D]: all D of them in one call.
//
//gad:hvp FHVPStacked github.com/gadgen/gadgen/bench/tensorlap.F wrt=x lanes=stacked
//gad:hvp FHVPStackedO0 github.com/gadgen/gadgen/bench/tensorlap.F wrt=x lanes=stacked opt=0

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

// Method is one way of computing Δf(x): its name in the table, and the
// function, generated with optimization (Opt) and without (O0).
type Method struct {
	Name    string
	Opt, O0 func(n *Net, x *tensorops.Tensor) float64
}

// Methods are the ways of the paper's table: (a) the trace of the
// Hessian (//gad:hessian: the JVP of the gradient along the unit vectors,
// up to 64 per call stacked in one tensor, then the trace), (b) D
// Hessian-vector products (//gad:hvp lanes=8 along the unit vectors, 8
// per call as JAX's vmap takes them in the paper), (b') the same with all
// D directions in one call, stacked (//gad:hvp lanes=stacked), (c) D
// Taylor jets of order 2 (//gad:taylor lanes=8), (d) collapsed Taylor mode
// (//gad:laplacian: up to 64 directions per jet, stacked); then (b) and
// (c) with one direction per call, as a loop over FHVP or FTaylor
// computes them.
var Methods = []Method{
	{"trace of the Hessian", ByHessian(FHessian), ByHessian(FHessianO0)},
	{"D HVPs", ByHVP8(FHVP8), ByHVP8(FHVP8O0)},
	{"D HVPs, stacked", ByHVPStacked(FHVPStacked), ByHVPStacked(FHVPStackedO0)},
	{"D Taylor jets", ByJets8(FTaylor8), ByJets8(FTaylor8O0)},
	{"collapsed Taylor", ByLaplacian(FLaplacian), ByLaplacian(FLaplacianO0)},
	{"D HVPs, one per call", ByHVP(FHVP), ByHVP(FHVPO0)},
	{"D Taylor jets, one per call", ByJets(FTaylor), ByJets(FTaylorO0)},
}

// ByHessian is Δf(x) as the trace of the Hessian.
func ByHessian(hess func(*Net, *tensorops.Tensor) (float64, *tensorops.Tensor)) func(*Net, *tensorops.Tensor) float64 {
	return func(n *Net, x *tensorops.Tensor) float64 {
		_, h := hess(n, x)
		return tensorops.SumAll(tensorops.DiagPart(h))
	}
}

// ByHVP is Δf(x) by D HVPs along the unit vectors.
func ByHVP(hvp func(*Net, *tensorops.Tensor, *tensorops.Tensor) (float64, *tensorops.Tensor)) func(*Net, *tensorops.Tensor) float64 {
	return func(n *Net, x *tensorops.Tensor) float64 {
		var lap float64
		for i := range tensorops.Size(x) {
			_, hv := hvp(n, x, tensorops.Basis(x, i))
			lap += hv.Float64s()[i]
		}
		return lap
	}
}

// ByHVPStacked is Δf(x) by D HVPs along the unit vectors, all D in one
// call, stacked in one tensor [D, …] of x's shape.
func ByHVPStacked(hvp func(n *Net, x, vs *tensorops.Tensor) (float64, *tensorops.Tensor)) func(*Net, *tensorops.Tensor) float64 {
	return func(n *Net, x *tensorops.Tensor) float64 {
		d := tensorops.Size(x)
		_, hvs := hvp(n, x, tensorops.Bases(x, 0, d))
		var lap float64
		for i, h := range hvs.Float64s() {
			if i%(d+1) == 0 { // element i of direction i
				lap += h
			}
		}
		return lap
	}
}

// ByHVP8 is Δf(x) by D HVPs along the unit vectors, 8 per call.
func ByHVP8(hvp func(n *Net, x, v1, v2, v3, v4, v5, v6, v7, v8 *tensorops.Tensor) (f float64, hv1, hv2, hv3, hv4, hv5, hv6, hv7, hv8 *tensorops.Tensor)) func(*Net, *tensorops.Tensor) float64 {
	return func(n *Net, x *tensorops.Tensor) float64 {
		var lap float64
		d := tensorops.Size(x)
		for i := 0; i < d; i += 8 {
			var u [8]*tensorops.Tensor
			for l := range u {
				u[l] = tensorops.Basis(x, i+l)
			}
			_, h1, h2, h3, h4, h5, h6, h7, h8 := hvp(n, x, u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7])
			for l, hv := range []*tensorops.Tensor{h1, h2, h3, h4, h5, h6, h7, h8} {
				if i+l < d {
					lap += hv.Float64s()[i+l]
				}
			}
		}
		return lap
	}
}

// ByJets8 is Δf(x) by D second-order jets along the unit vectors, 8 per
// call: the second coefficient of lane l is ½eᵢᵀ∇²f eᵢ.
func ByJets8(jet func(n *Net, x, x1, x2, x3, x4, x5, x6, x7, x8 *tensorops.Tensor) (y, y1_1, y1_2, y1_3, y1_4, y1_5, y1_6, y1_7, y1_8, y2_1, y2_2, y2_3, y2_4, y2_5, y2_6, y2_7, y2_8 float64)) func(*Net, *tensorops.Tensor) float64 {
	return func(n *Net, x *tensorops.Tensor) float64 {
		var lap float64
		for i := 0; i < tensorops.Size(x); i += 8 {
			var u [8]*tensorops.Tensor
			for l := range u {
				u[l] = tensorops.Basis(x, i+l) // zero past the end
			}
			_, _, _, _, _, _, _, _, _, c1, c2, c3, c4, c5, c6, c7, c8 := jet(n, x, u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7])
			lap += 2 * (c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8)
		}
		return lap
	}
}

// ByJets is Δf(x) by D second-order jets along the unit vectors: each
// gives ½eᵢᵀ∇²f eᵢ as its second coefficient.
func ByJets(jet func(*Net, *tensorops.Tensor, *tensorops.Tensor) (float64, float64, float64)) func(*Net, *tensorops.Tensor) float64 {
	return func(n *Net, x *tensorops.Tensor) float64 {
		var lap float64
		for i := range tensorops.Size(x) {
			_, _, c2 := jet(n, x, tensorops.Basis(x, i))
			lap += 2 * c2
		}
		return lap
	}
}

// ByLaplacian is Δf(x) by collapsed Taylor mode.
func ByLaplacian(lap func(*Net, *tensorops.Tensor) (float64, float64)) func(*Net, *tensorops.Tensor) float64 {
	return func(n *Net, x *tensorops.Tensor) float64 {
		_, l := lap(n, x)
		return l
	}
}

// LaplacianByHVP is Δf(x) by D HVPs along the unit vectors.
func LaplacianByHVP(n *Net, x *tensorops.Tensor) float64 { return ByHVP(FHVP)(n, x) }
