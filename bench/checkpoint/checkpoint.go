// Package checkpoint measures checkpointing in reverse mode (issue 25): a
// planar N-body system integrated by leapfrog for many steps, whose
// gradient with respect to the initial positions is generated in three
// ways. Plain keeps every step's values (the state saved before each
// step's call and what its reverse records). The gradients of Plain with
// checkpoint=C (Checkpoint10Grad … Checkpoint1000Grad) keep at most C
// copies of the state at once and recompute the steps between them on a
// binomial schedule (package revolve). Segmented runs the steps in
// segments the user writes, each a call of a helper marked
// //gad:checkpoint, so that the gradient keeps one copy of the state per
// segment and one segment's tape at a time, and recomputes every segment
// once more. cmd/table prints time and memory against the number of
// copies and segments.
package checkpoint

//go:generate gadgen

import "math"

// Bodies is the system: positions x and velocities v (x, y interleaved),
// accelerations a, masses m.
type Bodies struct {
	X, V, A, M []float64
}

// accel computes the softened gravitational accelerations.
func (b *Bodies) accel() {
	n := len(b.M)
	clear(b.A)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx := b.X[2*j] - b.X[2*i]
			dy := b.X[2*j+1] - b.X[2*i+1]
			r2 := dx*dx + dy*dy + 0.01
			f := 1 / (r2 * math.Sqrt(r2))
			b.A[2*i] += b.M[j] * f * dx
			b.A[2*i+1] += b.M[j] * f * dy
			b.A[2*j] -= b.M[i] * f * dx
			b.A[2*j+1] -= b.M[i] * f * dy
		}
	}
}

// leapfrog is one kick-drift-kick step of dt.
func (b *Bodies) leapfrog(dt float64) {
	for i := range b.V {
		b.V[i] += 0.5 * dt * b.A[i]
		b.X[i] += dt * b.V[i]
	}
	b.accel()
	for i := range b.V {
		b.V[i] += 0.5 * dt * b.A[i]
	}
}

// start returns the system at positions x0, at rest.
func start(m, x0 []float64) *Bodies {
	b := &Bodies{X: append([]float64(nil), x0...), V: make([]float64, len(x0)), A: make([]float64, len(x0)), M: m}
	b.accel()
	return b
}

// energy is the objective read at the end: Σ x² + v².
func energy(b *Bodies) float64 {
	e := 0.0
	for i := range b.X {
		e += b.X[i]*b.X[i] + b.V[i]*b.V[i]
	}
	return e
}

// Dt is the time step.
const Dt = 0.001

// Plain integrates steps steps from x0.
//
//gad:grad wrt=x0
func Plain(m, x0 []float64, steps int) float64 {
	b := start(m, x0)
	for t := 0; t < steps; t++ {
		b.leapfrog(Dt)
	}
	return energy(b)
}

// segment runs k steps: each call is a checkpoint.
//
//gad:checkpoint
func (b *Bodies) segment(k int) {
	for t := 0; t < k; t++ {
		b.leapfrog(Dt)
	}
}

// Segmented is Plain with its steps in segments of k (the last one
// shorter).
//
//gad:grad wrt=x0
func Segmented(m, x0 []float64, steps, k int) float64 {
	b := start(m, x0)
	for t := 0; t < steps; t += k {
		b.segment(min(k, steps-t))
	}
	return energy(b)
}

// Data returns the masses and initial positions of n bodies.
func Data(n int) (m, x0 []float64) {
	m = make([]float64, n)
	x0 = make([]float64, 2*n)
	for i := range m {
		m[i] = 1 + 0.1*float64(i)
		x0[2*i] = math.Cos(1.3 * float64(i))
		x0[2*i+1] = math.Sin(0.7 * float64(i))
	}
	return m, x0
}

// The gradients of Plain with binomial checkpointing, keeping at most C
// copies of the state.
//
//gad:grad Checkpoint10Grad github.com/gadgen/gadgen/bench/checkpoint.Plain wrt=x0 checkpoint=10
//gad:grad Checkpoint32Grad github.com/gadgen/gadgen/bench/checkpoint.Plain wrt=x0 checkpoint=32
//gad:grad Checkpoint100Grad github.com/gadgen/gadgen/bench/checkpoint.Plain wrt=x0 checkpoint=100
//gad:grad Checkpoint316Grad github.com/gadgen/gadgen/bench/checkpoint.Plain wrt=x0 checkpoint=316
//gad:grad Checkpoint1000Grad github.com/gadgen/gadgen/bench/checkpoint.Plain wrt=x0 checkpoint=1000
