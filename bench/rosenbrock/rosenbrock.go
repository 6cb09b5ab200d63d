// Package rosenbrock is suite S1a of gadgen's benchmarks: the extended
// Rosenbrock function, its generated forward-mode derivative
// (rosenbrock_grad.go) and a hand-written gradient to compare it with.
package rosenbrock

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

// Rosenbrock returns
//
//	Σ_{i=0}^{n-2} 100·(x[i+1] − x[i]²)² + (1 − x[i])²
//
// the extended Rosenbrock function, minimal (zero) at x = (1, …, 1).
//
//gad:jvp
//gad:grad
func Rosenbrock(x []float64) float64 {
	sum := 0.0
	for i := 0; i < len(x)-1; i++ {
		a := x[i+1] - x[i]*x[i]
		b := 1 - x[i]
		sum += 100*a*a + b*b
	}
	return sum
}
