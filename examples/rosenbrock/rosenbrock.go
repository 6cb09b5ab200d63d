// Package rosenbrock is gadgen's first example: the n-dimensional
// Rosenbrock function, differentiated in forward and in reverse mode.
//
// Rosenbrock carries //gad:jvp and //gad:grad directives. Running go
// generate (gadgen) writes rosenbrock_grad.go beside this file, with
//
//	func RosenbrockJVP(x, dx []float64) (float64, float64)
//	func RosenbrockGrad(x, xBar []float64) float64
//
// RosenbrockJVP returns f(x) and the directional derivative ∇f(x)·dx in
// one sweep; RosenbrockGrad returns f(x) and adds the whole gradient ∇f(x)
// to xBar, at a small constant times the cost of f. Their option test=true
// makes gadgen also write rosenbrock_grad_test.go, which checks both
// against central finite differences and against each other (package
// gadtest).
package rosenbrock

//go:generate gadgen

// Rosenbrock returns
//
//	Σ_{i=0}^{n-2} 100·(x[i+1] − x[i]²)² + (1 − x[i])²
//
// the extended Rosenbrock function (ADBench's definition), minimal (zero)
// at x = (1, …, 1).
//
//gad:jvp test=true
//gad:grad test=true
func Rosenbrock(x []float64) float64 {
	sum := 0.0
	for i := 0; i < len(x)-1; i++ {
		a := x[i+1] - x[i]*x[i]
		b := 1 - x[i]
		sum += 100*a*a + b*b
	}
	return sum
}
