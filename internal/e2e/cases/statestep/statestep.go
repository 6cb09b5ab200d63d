// Package statestep is an end-to-end case of reverse mode through methods
// that step a state struct of slices in place: the shape of ODE
// integrators, particle and N-body codes. Calls are reversed jointly (the
// callee's reverse recomputes it), so the caller saves, before each call,
// the contents behind the struct's slices and pointers that the callee
// reads and later code overwrites, and puts them back before the callee's
// reverse. Each function has a //gad:jvp too, for the dot-product test.
package statestep

//go:generate gadgen

import (
	"math"

	"github.com/gadgen/gadgen/internal/e2e/cases/geom"
)

// state is a harmonic chain: positions q and velocities v, and the time.
type state struct {
	t    float64
	q, v []float64
}

// step is one symplectic Euler step of q̈ = −k·q, in place.
func (s *state) step(k, dt float64) {
	for i := range s.q {
		s.v[i] -= dt * k * s.q[i]
		s.q[i] += dt * s.v[i]
	}
	s.t += dt
}

// Energy is the energy of the chain started at q0 at rest after steps
// steps: the program a user of issue 25 wrote.
//
//gad:jvp
//gad:grad
func Energy(k float64, q0 []float64, steps int) float64 {
	s := &state{q: append([]float64(nil), q0...), v: make([]float64, len(q0))}
	for range steps {
		s.step(k, 0.01)
	}
	e := 0.0
	for i := range s.q {
		e += s.q[i]*s.q[i] + k*s.v[i]*s.v[i]
	}
	return e + s.t
}

// kick adds dt times the acceleration −k·q − c·q³ to the velocities.
func (s *state) kick(k, c, dt float64) {
	for i, q := range s.q {
		s.v[i] -= dt * (k*q + c*q*q*q)
	}
}

// drift moves the positions by dt times the velocities.
func (s *state) drift(dt float64) {
	for i := range s.q {
		s.q[i] += dt * s.v[i]
	}
	s.t += dt
}

// leapfrog is one kick-drift-kick step: a method calling methods.
func (s *state) leapfrog(k, c, dt float64) {
	s.kick(k, c, dt/2)
	s.drift(dt)
	s.kick(k, c, dt/2)
}

// Anharmonic integrates the anharmonic oscillators from (q0, v0) by
// leapfrog and returns a weighted sum of the final state.
//
//gad:jvp
//gad:grad
func Anharmonic(k, c float64, q0, v0 []float64, steps int) float64 {
	s := &state{q: append([]float64(nil), q0...), v: append([]float64(nil), v0...)}
	for range steps {
		s.leapfrog(k, c, 0.05)
	}
	sum := 0.0
	for i := range s.q {
		sum += float64(i+1)*s.q[i] + s.v[i]*s.v[i]
	}
	return sum
}

// Run steps a state it is given and returns its final position sum: the
// reverse mode puts back the final contents of s.q and s.v before it
// returns.
//
//gad:jvp
//gad:grad
func Run(s *state, k float64, steps int) float64 {
	for range steps {
		s.step(k, 0.02)
	}
	sum := 0.0
	for _, q := range s.q {
		sum += q * q * q
	}
	return sum
}

// bodies is a planar N-body system: positions x and velocities v (x, y
// interleaved), accelerations a, masses m.
type bodies struct {
	x, v, a []float64
	m       []float64
}

// accel computes the softened gravitational accelerations.
func (b *bodies) accel() {
	n := len(b.m)
	clear(b.a)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			dx := b.x[2*j] - b.x[2*i]
			dy := b.x[2*j+1] - b.x[2*i+1]
			r2 := dx*dx + dy*dy + 0.01
			f := b.m[j] / (r2 * math.Sqrt(r2))
			b.a[2*i] += f * dx
			b.a[2*i+1] += f * dy
		}
	}
}

// verlet is one velocity-Verlet step: half kick, drift, new
// accelerations, half kick.
func (b *bodies) verlet(dt float64) {
	for i := range b.v {
		b.v[i] += dt / 2 * b.a[i]
	}
	for i := range b.x {
		b.x[i] += dt * b.v[i]
	}
	b.accel()
	for i := range b.v {
		b.v[i] += dt / 2 * b.a[i]
	}
}

// NBody integrates n bodies from positions x0 (at rest) with masses m and
// returns the kinetic energy at the end.
//
//gad:jvp
//gad:grad
func NBody(m, x0 []float64, steps int) float64 {
	n := len(m)
	b := &bodies{x: make([]float64, 2*n), v: make([]float64, 2*n), a: make([]float64, 2*n), m: m}
	for i := range b.x {
		b.x[i] = x0[i%len(x0)] + float64(i)
	}
	b.accel()
	for range steps {
		b.verlet(0.01)
	}
	e := 0.0
	for i := range n {
		e += m[i] * (b.v[2*i]*b.v[2*i] + b.v[2*i+1]*b.v[2*i+1]) / 2
	}
	return e
}

// segment runs k velocity-Verlet steps: marked //gad:checkpoint, each call
// is a checkpoint (the state saved before it, the steps recomputed in
// the reverse sweep).
//
//gad:checkpoint
func (b *bodies) segment(k int, dt float64) {
	for range k {
		b.verlet(dt)
	}
}

// NBodySegments is NBody with its steps in segments of k, each a call of
// a checkpointed helper: its gradient keeps one copy of the state per
// segment and one segment's tape at a time.
//
//gad:jvp
//gad:grad
func NBodySegments(m, x0 []float64, steps, k int) float64 {
	n := len(m)
	b := &bodies{x: make([]float64, 2*n), v: make([]float64, 2*n), a: make([]float64, 2*n), m: m}
	for i := range b.x {
		b.x[i] = x0[i%len(x0)] + float64(i)
	}
	b.accel()
	for t := 0; t < steps; t += k {
		b.segment(min(k, steps-t), 0.01)
	}
	e := 0.0
	for i := range n {
		e += m[i] * (b.v[2*i]*b.v[2*i] + b.v[2*i+1]*b.v[2*i+1]) / 2
	}
	return e
}

// particle holds its position behind a slice and its charge behind a
// pointer.
type particle struct {
	x []float64
	q *float64
}

// cloud is a slice of particles and a field strength.
type cloud struct {
	ps []particle
	e  [2]float64
}

// push moves every particle along the field by its charge, and the field
// decays with the particles' spread: memory behind slices of structs
// behind a pointer.
func (c *cloud) push(dt float64) {
	spread := 0.0
	for _, p := range c.ps {
		for d := range p.x {
			p.x[d] += dt * *p.q * c.e[d]
			spread += p.x[d] * p.x[d]
		}
		*p.q *= 1 - dt*0.1
	}
	c.e[0] -= dt * 0.01 * spread
	c.e[1] += dt * 0.01 * math.Sin(spread)
}

// Cloud pushes particles at x0 with charges q0 through a field e0.
//
//gad:jvp
//gad:grad
func Cloud(x0, q0, e0 []float64, steps int) float64 {
	c := &cloud{e: [2]float64{e0[0], e0[1]}}
	for i := range q0 {
		q := q0[i]
		c.ps = append(c.ps, particle{x: []float64{x0[i], x0[(i+1)%len(x0)]}, q: &q})
	}
	for range steps {
		c.push(0.1)
	}
	sum := c.e[0] * c.e[1]
	for _, p := range c.ps {
		sum += p.x[0]*p.x[1] + *p.q
	}
	return sum
}

// newState allocates a state of n oscillators at rest: a helper returning
// a pointer to memory holding slices, all of it fresh.
func newState(n int) *state {
	return &state{q: make([]float64, n), v: make([]float64, n)}
}

// initState allocates a state at (q0, v0), copied: its gradient flows back
// to q0 and v0 through the callee's reverse, seeded with the shadow of the
// state.
func initState(q0, v0 []float64) *state {
	s := newState(len(q0))
	copy(s.q, q0)
	copy(s.v, v0)
	return s
}

// forces returns the restoring forces −k·q − c·q³ in a slice it
// allocates.
func (s *state) forces(k, c float64) []float64 {
	f := make([]float64, len(s.q))
	for i, q := range s.q {
		f[i] = -k*q - c*q*q*q
	}
	return f
}

// eulerStep steps with the forces a helper returns.
func (s *state) eulerStep(k, c, dt float64) {
	f := s.forces(k, c)
	for i := range s.q {
		s.v[i] += dt * f[i]
		s.q[i] += dt * s.v[i]
	}
	s.t += dt
}

// phase returns the (q, v) pair of each oscillator, in slices it
// allocates: a fresh slice of slices.
func (s *state) phase() [][]float64 {
	out := make([][]float64, len(s.q))
	for i := range s.q {
		out[i] = []float64{s.q[i], s.v[i]}
	}
	return out
}

// Helpers integrates from a state that helpers allocate and fill, and
// sums the phase-space area of its oscillators after every step.
//
//gad:jvp
//gad:grad
func Helpers(k, c float64, q0, v0 []float64, steps int) float64 {
	s := initState(q0, v0)
	rest := newState(len(q0))
	area := 0.0
	for range steps {
		s.eulerStep(k, c, 0.05)
		rest.eulerStep(k, c, 0.05)
		for _, p := range s.phase() {
			area += p[0] * p[1]
		}
	}
	return area + s.t + rest.q[0]
}

// buffers is a double buffer: the fields' slices trade places every step.
type buffers struct{ cur, next []float64 }

// smooth writes into next a smoothing of cur.
func (b *buffers) smooth(w float64) {
	n := len(b.cur)
	for i := range b.cur {
		b.next[i] = w*b.cur[i] + (1-w)*b.cur[(i+1)%n]*b.cur[(i+n-1)%n]
	}
}

// Buffers smooths x steps times, swapping the buffers' slices between
// steps in the function itself (the slice headers it loads are
// overwritten later: the reverse records them) and, every other step, by
// a method call.
//
//gad:jvp
//gad:grad
func Buffers(x []float64, w float64, steps int) float64 {
	b := &buffers{cur: append([]float64(nil), x...), next: make([]float64, len(x))}
	for s := range steps {
		if s%2 == 0 {
			b.smooth(w)
		} else {
			n := len(b.cur)
			for i := range b.cur {
				b.next[i] = b.cur[i] * b.cur[(i+1)%n]
			}
		}
		b.cur, b.next = b.next, b.cur
	}
	sum := 0.0
	for _, v := range b.cur {
		sum += v * v
	}
	return sum
}

// startAt allocates a state at rest at a copy of q0 made by append, and
// returns it: a constructor that reads q0 and writes only fresh memory.
func startAt(q0 []float64) *state {
	return &state{q: append([]float64(nil), q0...), v: make([]float64, len(q0))}
}

// Settled is the energy after a few steps of the nonlinear chain started
// at q0: its Hessian's diagonal and Hessian-vector products evaluate it
// several times, which is sound since the constructors copy q0 (it was
// refused: "Settled writes through q0").
//
//gad:grad
//gad:hessdiag
//gad:hvp
func Settled(q0 []float64) float64 {
	s := initState(q0, q0)
	r := startAt(q0)
	for range 4 {
		s.leapfrog(1.3, 0.4, 0.1)
		r.step(0.7, 0.1)
	}
	e := 0.0
	for i := range s.q {
		e += s.q[i]*s.q[i] + s.v[i]*r.v[i]
	}
	return e
}

// flow is a state of slices passed by value: its copies share the
// memory of the slices.
type flow struct{ Q, V []float64 }

// advect is one step of q̈ = −k·sin q on a flow given by value: it writes
// through the value's slices.
func advect(f flow, k, dt float64) {
	for i := range f.Q {
		f.V[i] -= dt * k * math.Sin(f.Q[i])
		f.Q[i] += dt * f.V[i]
	}
}

// ByValue steps a flow passed by value in a time loop: the reverse saves
// the memory behind the value's slices before each call, as for a
// pointer (the gradient ignored it, silently, before 2026-11-28).
//
//gad:jvp
//gad:grad
//gad:grad ByValueCheckpointedGrad github.com/gadgen/gadgen/internal/e2e/cases/statestep.ByValue checkpoint=2
func ByValue(k float64, q0 []float64, steps int) float64 {
	f := flow{Q: append([]float64(nil), q0...), V: make([]float64, len(q0))}
	for range steps {
		advect(f, k, 0.05)
	}
	return f.Q[0]*f.V[1] + k*f.Q[len(f.Q)-1]
}

// Given steps the flow it is given by value: the gradient leaves the
// flow's memory as Given does.
//
//gad:jvp
//gad:grad
func Given(f flow, k float64, steps int) float64 {
	for range steps {
		advect(f, k, 0.05)
	}
	return f.Q[0] * f.V[1]
}

// Relax pulls a polyline's points toward their neighbours, each step
// measuring it with a method of another package that stores the
// segments' lengths, a slice it allocates, into the polyline; the step
// then reads them back. Reverse mode inlines the method (joint reversal
// cannot restore what it stores).
//
//gad:jvp
//gad:grad
func Relax(pts []float64, k float64, steps int) float64 {
	p := &geom.Polyline{Pts: append([]float64(nil), pts...)}
	length := 0.0
	for range steps {
		length = p.Measure()
		for i := 1; i < len(p.Segs); i++ {
			w := k * p.Segs[i-1] / (p.Segs[i-1] + p.Segs[i])
			p.Pts[2*i] += w * (p.Pts[2*i+2] - p.Pts[2*i])
			p.Pts[2*i+1] += w * (p.Pts[2*i+3] - p.Pts[2*i+1])
		}
	}
	return length + p.Segs[0]*p.Segs[len(p.Segs)-1]
}

// refine replaces the chain's positions by ones of twice the resolution,
// recursively n+1 times: a recursive helper that stores fresh slices into
// its caller's state, which cannot be inlined or recomputed: reversed in
// two halves (split reversal).
func (s *state) refine(n int) {
	if n > 0 {
		s.refine(n - 1)
	}
	q := make([]float64, 2*len(s.q)-1)
	for i := range s.q {
		q[2*i] = s.q[i]
		if i+1 < len(s.q) {
			q[2*i+1] = 0.5*(s.q[i]+s.q[i+1]) + 0.1*math.Sin(s.q[i]*s.q[i+1])
		}
	}
	s.q = q
}

// Refined refines the chain q0 n+1 times and sums the cubes of the
// positions, after scaling the first by k.
//
//gad:jvp
//gad:grad
func Refined(q0 []float64, k float64, n int) float64 {
	s := &state{q: append([]float64(nil), q0...)}
	s.refine(n)
	s.q[0] *= k
	e := 0.0
	for _, x := range s.q {
		e += x * x * x
	}
	return e
}
