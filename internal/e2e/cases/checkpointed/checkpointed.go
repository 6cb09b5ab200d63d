// Package checkpointed is an end-to-end case of binomial checkpointing
// (//gad:grad checkpoint=C): time loops whose steps are calls that write a
// state in place, reversed with at most C copies of the state kept at
// once. Each function has a //gad:jvp for the dot-product test and an
// uncheckpointed gradient (…PlainGrad) that the checkpointed one must
// equal; C = 3 is small, so that the schedules run steps again.
package checkpointed

//go:generate gadgen

import "math"

// chain is a chain of masses joined by springs, with fixed ends:
// positions q, velocities v, the damping and the time.
type chain struct {
	t, damp float64
	q, v    []float64
}

// accel returns the acceleration of mass i under springs of stiffness k.
func (s *chain) accel(i int, k float64) float64 {
	left, right := 0.0, 0.0
	if i > 0 {
		left = s.q[i-1]
	}
	if i < len(s.q)-1 {
		right = s.q[i+1]
	}
	return k*(left-2*s.q[i]+right) - s.damp*s.v[i]
}

// step is one semi-implicit Euler step, in place.
func (s *chain) step(k, dt float64) {
	for i := range s.q {
		s.v[i] += dt * s.accel(i, k)
	}
	for i := range s.q {
		s.q[i] += dt * s.v[i]
	}
	s.t += dt
}

// Chain is the energy of the chain started at q0 at rest after steps
// steps of a range loop; k, varied, is read by every step.
//
//gad:jvp
//gad:grad checkpoint=3
//gad:grad ChainPlainGrad github.com/gadgen/gadgen/internal/e2e/cases/checkpointed.Chain
func Chain(k float64, q0 []float64, steps int) float64 {
	s := &chain{damp: 0.1, q: append([]float64(nil), q0...), v: make([]float64, len(q0))}
	for range steps {
		s.step(k, 0.01)
	}
	// Kinetic energy, and the springs' between neighbours.
	e := 0.0
	for i, v := range s.v {
		e += 0.5 * v * v
		if i > 0 {
			d := s.q[i] - s.q[i-1]
			e += 0.5 * k * d * d
		}
	}
	return e + s.t
}

// kick adds dt times the accelerations, with a cubic term c·q³, to the
// velocities.
func (s *chain) kick(k, c, dt float64) {
	for i, q := range s.q {
		s.v[i] += dt * (s.accel(i, k) - c*q*q*q)
	}
}

// drift moves the positions by dt times the velocities.
func (s *chain) drift(dt float64) {
	for i, v := range s.v {
		s.q[i] += dt * v
	}
	s.t += dt
}

// KickDrift takes kick-drift-kick steps: three calls a step, the first two
// recorded in the reverse of each step, the last not.
//
//gad:jvp
//gad:grad checkpoint=3
//gad:grad KickDriftPlainGrad github.com/gadgen/gadgen/internal/e2e/cases/checkpointed.KickDrift
func KickDrift(k, c float64, q0, v0 []float64, steps int) float64 {
	s := &chain{damp: 0.05, q: append([]float64(nil), q0...), v: append([]float64(nil), v0...)}
	for t := 0; t < steps; t++ {
		s.kick(k, c, 0.025)
		s.drift(0.05)
		s.kick(k, c, 0.025)
	}
	sum := 0.0
	for i := range s.q {
		sum += float64(i+1)*s.q[i] + s.v[i]*s.v[i]
	}
	return sum
}

// verlet is a velocity Verlet step of the pendulums x″ = −sin x, on
// slices it is given.
func verlet(x, v []float64, h float64) {
	for i := range x {
		v[i] -= h / 2 * math.Sin(x[i])
		x[i] += h * v[i]
		v[i] -= h / 2 * math.Sin(x[i])
	}
}

// Pendulums steps its parameters x and v themselves, from 1 up to steps
// inclusive: the state copied is the caller's memory, and the gradient
// leaves in x and v what Pendulums leaves there.
//
//gad:jvp
//gad:grad checkpoint=3
//gad:grad PendulumsPlainGrad github.com/gadgen/gadgen/internal/e2e/cases/checkpointed.Pendulums
func Pendulums(x, v []float64, steps int) float64 {
	for t := 1; t <= steps; t++ {
		verlet(x, v, 0.1)
	}
	s := 0.0
	for i := range x {
		s += math.Cos(x[i]) + v[i]*v[i]
	}
	return s
}

// grid is a 1-D heat grid with its conductivity held behind a pointer.
type grid struct {
	u []float64
	c *coef
}

type coef struct{ kappa, leak float64 }

// diffuse is one explicit step of u_t = κ·u_xx − leak·u, with fixed ends.
func (g *grid) diffuse() {
	n := len(g.u)
	prev := g.u[0]
	for i := 1; i < n-1; i++ {
		cur := g.u[i]
		g.u[i] += g.c.kappa*(prev-2*cur+g.u[i+1]) - g.c.leak*cur
		prev = cur
	}
}

// Heat counts its steps down, with the coefficients varied through the
// pointer in the state: the copies hold the grid and the coefficients.
//
//gad:jvp
//gad:grad checkpoint=3
//gad:grad HeatPlainGrad github.com/gadgen/gadgen/internal/e2e/cases/checkpointed.Heat
func Heat(u0 []float64, kappa, leak float64, steps int) float64 {
	g := &grid{u: append([]float64(nil), u0...), c: &coef{kappa: kappa * 0.2, leak: leak * 0.01}}
	for t := steps; t > 0; t-- {
		g.diffuse()
	}
	s := 0.0
	for i, x := range g.u {
		s += float64(i) * x * x
	}
	return s
}

// push drives the chain by a force a at the first site.
func (s *chain) push(a, k, dt float64) {
	s.v[0] += dt * a
	s.step(k, dt)
}

// Driven steps the chain under a force computed from the step's index:
// the steps run again compute it again.
//
//gad:jvp
//gad:grad checkpoint=3
//gad:grad DrivenPlainGrad github.com/gadgen/gadgen/internal/e2e/cases/checkpointed.Driven
func Driven(k, w float64, q0 []float64, steps int) float64 {
	s := &chain{damp: 0.2, q: append([]float64(nil), q0...), v: make([]float64, len(q0))}
	for t := 0; t < steps; t++ {
		s.push(math.Sin(w*float64(t)), k, 0.05)
	}
	e := 0.0
	for i := range s.q {
		e += s.q[i] * s.v[i]
	}
	return e
}

// forced pushes the first mass by a force a for dt and returns the power
// it put in.
func (s *chain) forced(k, a, dt float64) float64 {
	s.v[0] += dt * a
	s.step(k, dt)
	return a * s.v[0]
}

// Timed carries values from step to step besides the state: the time,
// and the work done, summed from each step's result.
//
//gad:jvp
//gad:grad checkpoint=3
//gad:grad TimedPlainGrad github.com/gadgen/gadgen/internal/e2e/cases/checkpointed.Timed
func Timed(k, w float64, q0 []float64, steps int) float64 {
	s := &chain{damp: 0.1, q: append([]float64(nil), q0...), v: make([]float64, len(q0))}
	time, work := 0.0, 0.0
	for t := 0; t < steps; t++ {
		work += s.forced(k, math.Sin(w*time), 0.05)
		time += 0.05 * w
	}
	return work + s.q[0]*time
}

// pair returns a mean of sin(a·qᵢ) and the sum of squares of q; it
// writes nothing.
func pair(q []float64, a float64) (float64, float64) {
	m, ss := 0.0, 0.0
	for _, x := range q {
		m += math.Sin(a * x)
		ss += x * x
	}
	return m / float64(len(q)), ss
}

// Sums carries only a value from step to step, the steps write no
// memory, and the loop's bound is computed in its test: the copies hold
// the sum alone.
//
//gad:jvp
//gad:grad checkpoint=2
//gad:grad SumsPlainGrad github.com/gadgen/gadgen/internal/e2e/cases/checkpointed.Sums
func Sums(x []float64, a float64) float64 {
	s := x[0]
	for i := 0; i < len(x)-1; i++ {
		u, v := pair(x, a*s)
		s += 0.1*u - 0.05*v
	}
	return s
}

// relax pulls q toward the window x of the data and returns the
// misfit; it writes q only.
func relax(q, x []float64, k float64) float64 {
	m := 0.0
	for i, xi := range x {
		d := q[i] - xi
		q[i] -= k * 0.1 * d
		m += d * d
	}
	return m
}

// Windows reads, at each step, a window of the data that moves with the
// step (seq[t:t+2]): a slice the steps only read, computed again for the
// steps run again.
//
//gad:jvp
//gad:grad checkpoint=2
//gad:grad WindowsPlainGrad github.com/gadgen/gadgen/internal/e2e/cases/checkpointed.Windows
func Windows(k float64, q0, seq []float64) float64 {
	q := append([]float64(nil), q0...)
	miss := 0.0
	n := len(seq) - 2
	for t := 0; t < n; t++ {
		miss += relax(q, seq[t:t+2], k)
	}
	return miss + q[0]
}
