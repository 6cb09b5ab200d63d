package secondorder

import "github.com/gadgen/gadgen/tensorops"

// want +2 `//gad:hessian needs exactly one varied parameter, of type \[\]float64, \*tensorops.Tensor, or a struct of tensors \(by value or by pointer\); x and y are varied`
//
//gad:hessian
func Two(x, y []float64) float64 { return x[0] * y[0] }

// want +2 `//gad:hvp needs a varied parameter of type \[\]float64, \*tensorops.Tensor, or a struct of tensors \(by value or by pointer\); x has type float64`
//
//gad:hvp
func Scalar(x float64) float64 { return x * x }

// want +2 "//gad:laplacian needs a function with one float64 result"
//
//gad:laplacian
func Results(x []float64) (float64, float64) { return x[0], x[1] }

// want +2 "unknown option \"order\" for //gad:hessdiag"
//
//gad:hessdiag order=2
func Option(x []float64) float64 { return x[0] * x[0] }

// want +2 "//gad:hessian needs a function with one float64 result"
//
//gad:hessian
func Float32(x []float64) float32 { return float32(x[0]) }

// want +2 "//gad:hessian evaluates Writes several times, and Writes writes through x"
//
//gad:hessian
func Writes(x []float64) float64 {
	x[0] *= x[1]
	return x[0] + x[1]
}

// want +2 `//gad:hvp lanes=2 needs a varied parameter of type \*tensorops.Tensor`
//
//gad:hvp lanes=2
func Lanes(x []float64) float64 { return x[0] * x[1] }

// want +2 "unknown option \"lanes\" for //gad:hessian"
//
//gad:hessian lanes=2
func HessianLanes(x []float64) float64 { return x[0] * x[1] }

// Net holds a float outside its tensors.
type Net struct {
	W     *tensorops.Tensor
	Scale float64
}

// want +2 `//gad:hessdiag: m is not a struct of tensors: field Scale has type float64: the floats of a struct of tensors must be in fields of type \*tensorops.Tensor or \[\]\*tensorops.Tensor, or in structs of such fields`
//
//gad:hessdiag wrt=m
func Mixed(m *Net) float64 { return tensorops.SumAll(m.W) * m.Scale }

// Params is a model of plain floats.
type Params struct {
	W []float64
	B float64
}

// want +2 `//gad:hvp needs a varied parameter of type .*; p, of type \*Params, holds floats outside tensors: differentiate a function of its floats as one \[\]float64`
//
//gad:hvp wrt=p
func Plain(p *Params, x []float64) float64 { return p.W[0] * x[0] * p.B }
