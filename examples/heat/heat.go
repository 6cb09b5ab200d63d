// Package heat shows gadgen's reverse mode on a time-stepping simulation
// that overwrites its state in place: the explicit Euler scheme for the
// heat equation u_t = κ·u_xx on a rod with fixed ends.
//
// The gradient of the misfit with respect to the initial temperatures is
// what an inverse problem ("which initial state explains what we measured
// later?") needs. The state array is overwritten at every step, so the
// reverse sweep needs the values each step read: the generated gradient
// records them on a local tape as the steps run, and reads them back while
// it walks the steps backwards.
//
// go generate writes heat_grad.go with
//
//	func MisfitGrad(u0, u0Bar []float64, kappa float64, steps int, target []float64) (f, kappaBar float64)
package heat

//go:generate gadgen

// Misfit runs steps explicit Euler steps of the heat equation from the
// initial temperatures u0 (the ends stay fixed) with diffusion number
// kappa (stable for kappa ≤ 0.5), and returns ½·Σ (u_i − target_i)².
// It panics if len(target) != len(u0).
//
//gad:grad wrt=u0,kappa
//gad:jvp wrt=u0,kappa
func Misfit(u0 []float64, kappa float64, steps int, target []float64) float64 {
	n := len(u0)
	if len(target) != n {
		panic("heat: target and u0 differ in length")
	}
	u := make([]float64, n)
	next := make([]float64, n)
	copy(u, u0)
	for s := 0; s < steps; s++ {
		next[0], next[n-1] = u[0], u[n-1]
		for i := 1; i < n-1; i++ {
			next[i] = u[i] + kappa*(u[i-1]-2*u[i]+u[i+1])
		}
		for i := range u {
			u[i] = next[i]
		}
	}
	f := 0.0
	for i := range u {
		d := u[i] - target[i]
		f += 0.5 * d * d
	}
	return f
}
