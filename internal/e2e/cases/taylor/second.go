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
