package normalize

import (
	"math"
	"math/rand/v2"
)

// HandGrad returns Loss(x, c) and adds its gradient with respect to x to dx
// (reverse-mode convention: the adjoint accumulates). Written by hand, the
// loss is (c·x)/‖x‖ and its gradient
//
//	∂/∂x_j = c_j/‖x‖ − (c·x)·x_j/‖x‖³,
//
// both O(n). HandGrad panics if the lengths of x, dx and c differ.
func HandGrad(x, dx, c []float64) float64 {
	if len(dx) != len(x) || len(c) != len(x) {
		panic("normalize: length mismatch")
	}
	ss, cx := 0.0, 0.0
	for i, v := range x {
		ss += v * v
		cx += c[i] * v
	}
	m := math.Sqrt(ss)
	inv := 1 / m
	a := cx * inv / ss
	for i, v := range x {
		dx[i] += c[i]*inv - a*v
	}
	return cx * inv
}

// Data returns a reproducible point x and weights c of length n, both
// standard normal.
func Data(n int, seed uint64) (x, c []float64) {
	rnd := rand.New(rand.NewPCG(seed, 6))
	x = make([]float64, n)
	c = make([]float64, n)
	for i := range x {
		x[i] = rnd.NormFloat64()
		c[i] = rnd.NormFloat64()
	}
	return x, c
}
