package taylor

import "math"

// Energy is a smooth function of a slice with couplings between
// neighbours, logs and a transcendental term.
//
//gad:hvp
//gad:hessian
//gad:hessdiag
//gad:laplacian
func Energy(x []float64) float64 {
	e := 0.0
	for i := range x {
		e += math.Exp(0.3*x[i]) - math.Log(1+x[i]*x[i])
		if i > 0 {
			d := x[i] - x[i-1]
			e += d * d * math.Sin(x[i])
		}
	}
	return e
}

// pair is a coupling term that Chain calls.
func pair(a, b float64) float64 { return math.Sqrt(1 + (a-b)*(a-b)) }

// Chain calls a function: its gradient calls generated functions, which
// forward mode does not differentiate, so ChainHVP uses the Taylor
// formula instead of forward over reverse.
//
//gad:hvp
//gad:laplacian
func Chain(x []float64) float64 {
	s := 0.0
	for i := 1; i < len(x); i++ {
		s += pair(x[i-1], x[i]) * math.Cosh(0.5*x[i])
	}
	return s
}

// Mixed uses many functions of package math, for the collapsed rules of
// //gad:laplacian: unary, binary (both arguments varied), several results.
//
//gad:laplacian
//gad:hessdiag
func Mixed(x []float64) float64 {
	s := 0.0
	for i := 1; i < len(x); i++ {
		a, b := x[i-1], x[i]
		sn, cs := math.Sincos(a * b)
		s += math.Sin(a)*math.Exp(b/3) + math.Log(1+a*a) + math.Sqrt(2+b) + math.Tanh(a-b) + math.Atan(a*b)
		s += math.Pow(2+a, 1.5+0.1*b) + math.Hypot(a, b) + math.Atan2(a, 2+b) + math.Erf(a/2) + math.Cbrt(3+b)
		s += sn*cs + math.Expm1(a/4)/(1+b*b) + math.Max(a, b)*math.Min(a, 2*b)
	}
	return s
}
