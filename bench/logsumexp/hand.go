package logsumexp

import (
	"math"
	"math/rand/v2"
)

// HandGrad returns LogSumExp(x) and adds its gradient, the softmax of x, to
// dx (reverse-mode convention: the adjoint accumulates). It evaluates each
// exponential once, keeping them in a scratch slice. HandGrad panics if
// len(dx) != len(x).
func HandGrad(x, dx []float64) float64 {
	if len(dx) != len(x) {
		panic("logsumexp: length mismatch")
	}
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	e := make([]float64, len(x))
	sum := 0.0
	for i, v := range x {
		ei := math.Exp(v - m)
		e[i] = ei
		sum += ei
	}
	inv := 1 / sum
	dx = dx[:len(e)]
	for i, ei := range e {
		dx[i] += ei * inv
	}
	return math.Log(sum) + m
}

// Point returns a reproducible point of length n with standard normal
// entries.
func Point(n int, seed uint64) []float64 {
	rnd := rand.New(rand.NewPCG(seed, 2))
	x := make([]float64, n)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	return x
}
