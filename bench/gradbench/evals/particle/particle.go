// Package particle is GradBench's particle eval (Pearlmutter and Siskind's
// charged particle): a particle pushed by the field of two charges, one of
// them placed by a control w, is followed by Euler's method until it
// crosses the x axis; gradient descent finds the w that makes it cross at
// the origin. The field is the gradient of the potential, so the
// derivative of the crossing with respect to w differentiates a
// derivative: nested AD, the outer derivative (of the crossing, for the
// descent) and the inner one (of the potential, for the field) each by
// gadgen's forward or reverse mode, four variants.
package particle

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// vec is a point or a vector of the plane.
type vec struct{ X, Y float64 }

func (u vec) add(v vec) vec       { return vec{u.X + v.X, u.Y + v.Y} }
func (u vec) scale(k float64) vec { return vec{k * u.X, k * u.Y} }
func dist(u, v vec) float64       { return math.Sqrt((u.X-v.X)*(u.X-v.X) + (u.Y-v.Y)*(u.Y-v.Y)) }

// potential returns the electric potential at x of unit charges at the
// points of charges: Σ 1/|c − x|.
//
//gad:grad wrt=x
//gad:jvp wrt=x
func potential(x vec, charges []vec) float64 {
	p := 0.0
	for _, c := range charges {
		p += 1 / dist(c, x)
	}
	return p
}

// forceR returns the force −∇ₓp(x) on the particle at x, the gradient by
// reverse mode.
func forceR(x vec, charges []vec) vec {
	_, g := potentialGrad(x, charges)
	return g.scale(-1)
}

// forceF returns the force −∇ₓp(x) on the particle at x, the gradient by
// forward mode, one direction at a time.
func forceF(x vec, charges []vec) vec {
	_, gx := potentialJVP(x, vec{1, 0}, charges)
	_, gy := potentialJVP(x, vec{0, 1}, charges)
	return vec{-gx, -gy}
}

// crossing follows the particle from (0, 8) at velocity (0.75, 0), pushed
// by force, by Euler's method with time step 0.1, until its next step
// would take it below the x axis, and returns x₀(t_f)², the square of
// where its last velocity carries it across the axis. The charges sit at
// (10, 10 − w) and (10, 0).
func crossing(w float64, force func(x vec, charges []vec) vec) float64 {
	const dt = 0.1
	charges := []vec{{10, 10 - w}, {10, 0}}
	x := vec{0, 8}
	xdot := vec{0.75, 0}
	for {
		xddot := force(x, charges)
		next := x.add(xdot.scale(dt))
		if next.Y <= 0 {
			break
		}
		x = next
		xdot = xdot.add(xddot.scale(dt))
	}
	tf := -x.Y / xdot.Y
	xf := x.add(xdot.scale(tf))
	return xf.X * xf.X
}

// CrossingR is crossing with the field by reverse mode: its gradient is
// the rr variant, its JVP the fr variant.
//
//gad:grad
//gad:jvp
func CrossingR(w float64) float64 { return crossing(w, forceR) }

// CrossingF is crossing with the field by forward mode: its gradient is
// the rf variant, its JVP the ff variant.
//
//gad:grad
//gad:jvp
func CrossingF(w float64) float64 { return crossing(w, forceF) }
