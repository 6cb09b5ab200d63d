// Package rosenbrock is gadgen's first example: the n-dimensional
// Rosenbrock function, differentiated in forward mode.
//
// Rosenbrock carries a //gad:jvp directive. Running go generate (gadgen)
// writes rosenbrock_grad.go beside this file, with
//
//	func RosenbrockJVP(x, dx []float64) (f, df float64)
//
// which returns f(x) and the directional derivative ∇f(x)·dx in one sweep.
// With dx the i-th unit vector, df is the partial derivative ∂f/∂x[i]; n
// such calls give the whole gradient (see the examples).
package rosenbrock

//go:generate gadgen

// Rosenbrock returns
//
//	Σ_{i=0}^{n-2} 100·(x[i+1] − x[i]²)² + (1 − x[i])²
//
// the extended Rosenbrock function (ADBench's definition), minimal (zero)
// at x = (1, …, 1).
//
//gad:jvp
func Rosenbrock(x []float64) float64 {
	sum := 0.0
	for i := 0; i < len(x)-1; i++ {
		a := x[i+1] - x[i]*x[i]
		b := 1 - x[i]
		sum += 100*a*a + b*b
	}
	return sum
}
