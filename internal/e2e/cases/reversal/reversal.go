// Package reversal is an end-to-end case of reverse mode's choice, at each
// call site, between joint reversal (the callee's generated reverse
// recomputes it) and inlining (simplify.ChooseReversal): small loop-free
// helpers nested three deep, a helper with a loop called once, helpers
// with loops called in a loop (cheap to recompute, or calling math.Exp),
// a recursive helper, which is never inlined, a method, and a helper
// marked //gad:checkpoint, which is never inlined either. The driver's
// TestCallReversal snapshots the decisions.
package reversal

//go:generate gadgen

import "math"

func sq(x float64) float64 { return x * x }

func norm2(a, b float64) float64 { return math.Sqrt(sq(a) + sq(b)) }

func ratio(a, b float64) float64 { return norm2(a, 1) / norm2(b, 2) }

// Chain composes loop-free helpers: ratio calls norm2, which calls sq.
//
//gad:jvp
//gad:grad
func Chain(x, y float64) float64 {
	return ratio(x, y) * norm2(y, x)
}

// sumExp returns Σ exp(x[i]).
func sumExp(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Exp(v)
	}
	return s
}

// dot returns Σ a[i]·b[i].
func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Once calls a helper with a loop once.
//
//gad:jvp
//gad:grad
func Once(x []float64) float64 {
	return math.Log(sumExp(x)) + dot(x, x)
}

// InLoop calls helpers with loops in a loop: dot stays a call (inlined,
// its loop would go on the tape once per iteration, for products cheaper
// to compute again), sumExp is inlined (its exponentials are recorded
// once instead of computed again by its reverse).
//
//gad:jvp
//gad:grad
func InLoop(x []float64) float64 {
	s := 0.0
	for i := 1; i <= len(x); i++ {
		s += 0.5*dot(x[:i], x[:i]) + sumExp(x[:i])/float64(i)
	}
	return s
}

// power returns xⁿ by recursion.
func power(x float64, n int) float64 {
	if n == 0 {
		return 1
	}
	return x * power(x, n-1)
}

// Recursive calls a recursive helper, which stays a call.
//
//gad:jvp
//gad:grad
func Recursive(x float64) float64 {
	return power(x, 3) + sq(x)
}

type scale struct{ k float64 }

func (s scale) apply(x float64) float64 { return s.k * math.Sin(x) }

// Method calls a method in a loop.
//
//gad:jvp
//gad:grad
func Method(x []float64) float64 {
	s := scale{k: 2}
	t := 0.0
	for _, v := range x {
		t += s.apply(v) * v
	}
	return t
}

// smooth is a loop-free helper that reverse mode would inline, marked
// //gad:checkpoint: its calls stay calls, reversed jointly (what a call
// reads is saved, and the callee recomputed in the reverse sweep).
//
//gad:checkpoint
func smooth(a, b float64) float64 { return math.Tanh(a*b) + sq(a) }

// Checkpointed calls the checkpointed helper in a loop.
//
//gad:jvp
//gad:grad
func Checkpointed(x []float64) float64 {
	t := 0.0
	for i := 1; i < len(x); i++ {
		t += smooth(x[i-1], x[i]) * x[i]
	}
	return t
}
