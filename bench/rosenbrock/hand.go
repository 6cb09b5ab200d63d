package rosenbrock

import "math/rand/v2"

// HandGrad returns Rosenbrock(x) and adds its gradient to dx (reverse-mode
// convention: the adjoint accumulates). It is the hand-written reference the
// generated derivatives are measured against. HandGrad panics if
// len(dx) != len(x).
func HandGrad(x, dx []float64) float64 {
	n := len(x)
	if len(dx) != n {
		panic("rosenbrock: length mismatch")
	}
	if n == 0 {
		return 0
	}
	dx = dx[:n]
	sum := 0.0
	// Term i adds −400a·x[i] − 2b to ∂f/∂x[i] and 200a to ∂f/∂x[i+1], where
	// a = x[i+1] − x[i]², b = 1 − x[i]; carry holds the latter until the
	// next iteration adds it, so that each dx[i] is updated once.
	carry := 0.0
	xi := x[0]
	for i := 0; i < n-1; i++ {
		xn := x[i+1]
		a := xn - xi*xi
		b := 1 - xi
		sum += 100*a*a + b*b
		dx[i] += carry - 400*a*xi - 2*b
		carry = 200 * a
		xi = xn
	}
	dx[n-1] += carry
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
