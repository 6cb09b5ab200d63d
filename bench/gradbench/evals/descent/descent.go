// Package descent is the gradient descent of GradBench's particle and
// saddle evals (GradBench's gd.hpp, after Pearlmutter and Siskind): from a
// start, step against the gradient with a step size η that starts at 1e-5,
// doubles after 10 successful steps and halves after a step that does not
// decrease the function, until the gradient or the step is shorter than
// 1e-5.
//
// The functions are plain Go that gadgen differentiates: the saddle eval's
// outer derivative goes through Max, and through the derivative of f that
// it calls.
package descent

import "math"

// Argmin returns the point that gradient descent from start reaches on f,
// grad(g, x) storing ∇f(x) in g (overwriting it). It does not modify
// start.
func Argmin(f func(x []float64) float64, grad func(g, x []float64), start []float64) []float64 {
	n := len(start)
	x := make([]float64, n)
	copy(x, start)
	g := make([]float64, n)
	next := make([]float64, n)
	fx := f(x)
	grad(g, x)
	eta := 1e-5
	i := 0
	for norm(g) > 1e-5 {
		if i == 10 {
			eta *= 2
			i = 0
			continue
		}
		for j := range n {
			next[j] = x[j] - eta*g[j]
		}
		if distance(x, next) <= 1e-5 {
			break
		}
		fNext := f(next)
		if fNext < fx {
			copy(x, next)
			fx = fNext
			grad(g, x)
			i++
		} else {
			eta /= 2
			i = 0
		}
	}
	return x
}

// Argmax returns the point that gradient descent from start reaches on −f,
// grad(g, x) storing ∇f(x) in g.
func Argmax(f func(x []float64) float64, grad func(g, x []float64), start []float64) []float64 {
	return Argmin(func(x []float64) float64 { return -f(x) }, func(g, x []float64) {
		grad(g, x)
		for j := range g {
			g[j] = -g[j]
		}
	}, start)
}

// Max returns f at Argmax(f, grad, start).
func Max(f func(x []float64) float64, grad func(g, x []float64), start []float64) float64 {
	return f(Argmax(f, grad, start))
}

// norm returns |x|.
func norm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// distance returns |x − y|.
func distance(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		d := x[i] - y[i]
		s += d * d
	}
	return math.Sqrt(s)
}
