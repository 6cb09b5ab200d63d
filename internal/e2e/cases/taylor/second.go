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
