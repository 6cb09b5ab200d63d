// A case of difftest written by hand: the second-order helpers, by
// forward mode over reverse mode through helpers that the gradient calls
// in their reverse-mode variants, a method of a fixed receiver, a loop
// with a data-dependent exit, and fixed parameters of every kind.
//
//difftest:len 4

package p

import "math"

// Energy couples neighbours through a helper, with a fixed weight.
//
//difftest:modes jvp grad line hvp hessdiag laplacian hessian
func Energy(x []float64, k float64, p Vec2) float64 {
	e := 0.0
	for i := 1; i < len(x); i++ {
		e += k * pair(x[i-1], x[i]) * math.Exp(0.3*x[i]*p.X)
		if e > 50 {
			break
		}
	}
	return e + math.Log(1+dot(x, x))
}

// Loss is the model's error on x; the receiver is fixed.
//
//difftest:wrt x
//difftest:modes jvp grad taylor hvp hessdiag laplacian hessian
func (m *Model) Loss(y []float64, x []float64) float64 {
	d := math.Tanh(dot(m.W, x)+m.B) - y[0]
	return d*d + 0.1*dot(x, x)
}

func pair(a, b float64) float64 { return math.Sqrt(1 + (a-b)*(a-b)) }

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
