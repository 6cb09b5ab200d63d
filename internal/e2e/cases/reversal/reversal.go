// Package reversal is an end-to-end case of reverse mode's choice, at each
// call site, between joint reversal (the callee's generated reverse
// recomputes it) and inlining (simplify.ChooseReversal): small loop-free
// helpers nested three deep, a helper with a loop called once, helpers
// with loops called in a loop (cheap to recompute, or calling math.Exp),
// a recursive helper, which is never inlined, a method, a helper marked
// //gad:checkpoint, which is never inlined either, and a helper with loops
// too large to inline, called once, which is split (reversed in two
// halves), as are recursive helpers returning memory of their arguments'
// (Parts), which joint reversal cannot reverse. The driver's
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

// leapfrog integrates the chain q̈ᵢ = −kᵢ·sin(qᵢ) + c·(qᵢ₋₁ − 2qᵢ + qᵢ₊₁) −
// tanh(q̇ᵢ)/10 from q (at rest) by steps kick-drift-kick steps, and returns
// the final positions: a helper with loops larger than the cost model
// inlines.
func leapfrog(q, k []float64, c, dt float64, steps int) []float64 {
	n := len(q)
	x := make([]float64, n)
	copy(x, q)
	v := make([]float64, n)
	f := make([]float64, n)
	for s := 0; s < steps; s++ {
		for i := 0; i < n; i++ {
			left, right := 0.0, 0.0
			if i > 0 {
				left = x[i-1]
			}
			if i+1 < n {
				right = x[i+1]
			}
			f[i] = -k[i]*math.Sin(x[i]) + c*(left-2*x[i]+right) - 0.1*math.Tanh(v[i])
		}
		for i := 0; i < n; i++ {
			v[i] += dt / 2 * f[i]
			x[i] += dt * v[i]
		}
		for i := 0; i < n; i++ {
			left, right := 0.0, 0.0
			if i > 0 {
				left = x[i-1]
			}
			if i+1 < n {
				right = x[i+1]
			}
			f[i] = -k[i]*math.Sin(x[i]) + c*(left-2*x[i]+right) - 0.1*math.Tanh(v[i])
		}
		for i := 0; i < n; i++ {
			v[i] += dt / 2 * f[i]
			if v[i] > 4 || v[i] < -4 {
				v[i] = 4 * math.Tanh(v[i]/4) // a soft bound on the velocities
			}
		}
	}
	for i := range x {
		x[i] += dt / 2 * v[i] // half a drift more: positions at the end of the last kick
	}
	return x
}

// Large calls a helper with loops too large to inline, once: it is
// reversed in two halves (split), running once instead of twice.
//
//gad:jvp
//gad:grad
func Large(q, k []float64, c float64) float64 {
	y := leapfrog(q, k, c, 0.05, 20)
	e := 0.0
	for i, x := range y {
		e += x * x * float64(i+1)
	}
	return e
}

// part returns the part of x from n on, recursively: memory of its
// argument's, which its caller's shadow of the result cannot know; a
// recursive helper is not inlined: it is split, and its forward half
// returns the result's shadow.
func part(x []float64, n int) []float64 {
	if n > 0 {
		return part(x[1:], n-1)
	}
	return x
}

// pair holds a slice of its maker's and one of its own.
type pair struct{ a, b []float64 }

// wrap returns fresh memory that holds its argument, recursively.
func wrap(x []float64, n int) *pair {
	if n > 0 {
		p := wrap(x, n-1)
		for i := range p.b {
			p.b[i] += math.Sin(x[i])
		}
		return p
	}
	return &pair{a: x, b: make([]float64, len(x))}
}

// Parts calls recursive helpers that return memory of their arguments'.
//
//gad:jvp
//gad:grad
func Parts(x []float64) float64 {
	ys := part(x, 2)
	ys[0] *= x[0]
	p := wrap(ys, 2)
	return ys[0]*ys[1] + p.a[0]*p.b[1] + x[1]
}
