// Package ode is suite S1c of gadgen's benchmarks: a linear ODE integrated
// with the classical Runge–Kutta method, its generated forward-mode
// derivative (ode_grad.go) and a hand-written gradient to compare it with.
//
// The system is cmpad's an_ode, as GradBench uses it:
//
//	y′₀ = x₀,  y′ᵢ = xᵢ·yᵢ₋₁ (i > 0),  y(0) = 0,
//
// integrated to t_f = 2 in s steps; the output is y_{n−1}(t_f). Each RK4
// step carries information at most four components up the chain, so with
// 4s < n the output and its gradient are exactly zero: the work is the same
// as for any other x, which is what the benchmark times, and the tests check
// the derivatives at sizes where they are not zero.
package ode

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

// Final integrates y′₀ = x₀, y′ᵢ = xᵢ·yᵢ₋₁ from y(0) = 0 to t = 2 with steps
// steps of the classical fourth-order Runge–Kutta method and returns the
// last component of y(2). It returns 0 for an empty x.
//
//gad:jvp wrt=x
//gad:grad wrt=x
func Final(x []float64, steps int) float64 {
	n := len(x)
	if n == 0 {
		return 0
	}
	const tf = 2.0
	h := tf / float64(steps)
	y := make([]float64, n)
	k1 := make([]float64, n)
	k2 := make([]float64, n)
	k3 := make([]float64, n)
	k4 := make([]float64, n)
	u := make([]float64, n)
	for range steps {
		rhs(k1, x, y)
		for i := range u {
			u[i] = y[i] + h/2*k1[i]
		}
		rhs(k2, x, u)
		for i := range u {
			u[i] = y[i] + h/2*k2[i]
		}
		rhs(k3, x, u)
		for i := range u {
			u[i] = y[i] + h*k3[i]
		}
		rhs(k4, x, u)
		for i := range y {
			y[i] += h / 6 * (k1[i] + 2*k2[i] + 2*k3[i] + k4[i])
		}
	}
	return y[n-1]
}

// rhs stores into z the right-hand side of the system at y.
func rhs(z, x, y []float64) {
	z[0] = x[0]
	for i := 1; i < len(z); i++ {
		z[i] = x[i] * y[i-1]
	}
}
