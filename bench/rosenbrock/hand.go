package rosenbrock

import "math/rand/v2"

// HandGrad returns Rosenbrock(x) and adds its gradient to dx (reverse-mode
// convention: the adjoint accumulates). It is the hand-written reference the
// generated derivatives are measured against. HandGrad panics if
// len(dx) != len(x).
func HandGrad(x, dx []float64) float64 {
	if len(dx) != len(x) {
		panic("rosenbrock: length mismatch")
	}
	sum := 0.0
	for i := 0; i < len(x)-1; i++ {
		xi := x[i]
		a := x[i+1] - xi*xi
		b := 1 - xi
		sum += 100*a*a + b*b
		// ∂/∂x[i] of 100a² + b² is −400a·x[i] − 2b; ∂/∂x[i+1] is 200a.
		dx[i] += -400*a*xi - 2*b
		dx[i+1] += 200 * a
	}
	return sum
}

// Point returns a reproducible point of length n with entries uniform in
// [−2, 2).
func Point(n int, seed uint64) []float64 {
	rnd := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, n)
	for i := range x {
		x[i] = 4*rnd.Float64() - 2
	}
	return x
}
