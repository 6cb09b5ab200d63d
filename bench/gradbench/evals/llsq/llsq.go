// Package llsq is GradBench's llsq eval (cmpad's llsq_obj): the objective
// of a linear least-squares fit of a polynomial with coefficients x to the
// sign function sampled at n points of [−1, 1], and its gradient, generated
// by gadgen.
package llsq

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

// Objective returns
//
//	½ Σᵢ (s(tᵢ) − x₀ − x₁·tᵢ − … − x_{m−1}·tᵢ^{m−1})²,   tᵢ = −1 + 2i/(n−1),
//
// summed over i < n, where s is the sign function.
//
//gad:grad wrt=x
func Objective(x []float64, n int) float64 {
	sum := 0.0
	for i := range n {
		t := -1 + float64(i)*2/float64(n-1)
		r := sign(t)
		p := 1.0 // t^j
		for _, xj := range x {
			r -= xj * p
			p *= t
		}
		sum += r * r
	}
	return sum / 2
}

// sign returns 1, −1 or 0 as t is positive, negative or zero.
func sign(t float64) float64 {
	switch {
	case t > 0:
		return 1
	case t < 0:
		return -1
	}
	return 0
}
