// Package saddle is GradBench's saddle eval (Pearlmutter and Siskind):
// the saddle point of f(p, q) = |p|² − |q|² found as
// argmin over p of (max over q of f(p, q)), both by gradient descent, then
// the q that maximizes f at that p. The descent over p needs the gradient
// of a maximum that is itself found with gradients: nested AD, the outer
// derivative (over p) and the inner one (over q) each by gadgen's forward
// or reverse mode, four variants.
package saddle

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "github.com/gadgen/gadgen/bench/gradbench/evals/descent"

// f is the function whose saddle point is found: (p₀² + p₁²) − (q₀² + q₁²).
//
//gad:grad wrt=q
//gad:jvp wrt=q
func f(p, q []float64) float64 {
	return (p[0]*p[0] + p[1]*p[1]) - (q[0]*q[0] + q[1]*q[1])
}

// gradR stores ∇_q f(p, q) in g, by reverse mode.
func gradR(p, q, g []float64) {
	g[0], g[1] = 0, 0
	fGrad(p, q, g)
}

// gradF stores ∇_q f(p, q) in g, by forward mode, one direction at a time.
func gradF(p, q, g []float64) {
	_, g[0] = fJVP(p, q, []float64{1, 0})
	_, g[1] = fJVP(p, q, []float64{0, 1})
}

// MaxR returns the maximum over q of f(p, q), by gradient descent from
// start with the gradient by reverse mode. Its gradient with respect to p
// is the rr variant's, its JVP the fr variant's.
//
//gad:grad wrt=p
//gad:jvp wrt=p
func MaxR(p, start []float64) float64 {
	return descent.Max(func(q []float64) float64 { return f(p, q) },
		func(g, q []float64) { gradR(p, q, g) }, start)
}

// MaxF is MaxR with the gradient by forward mode: its gradient with
// respect to p is the rf variant's, its JVP the ff variant's.
//
//gad:grad wrt=p
//gad:jvp wrt=p
func MaxF(p, start []float64) float64 {
	return descent.Max(func(q []float64) float64 { return f(p, q) },
		func(g, q []float64) { gradF(p, q, g) }, start)
}
