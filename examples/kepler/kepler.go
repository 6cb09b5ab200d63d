// Package kepler shows gadgen differentiating through an iterative solver:
// Newton's method, whose number of iterations depends on the data.
//
// Forward mode differentiates the iterations as they run: each Newton step
// also updates the tangent of the iterate. Once the iterate has converged,
// its tangent is the derivative of the solution, the same as the implicit
// function theorem gives (see the test).
//
// go generate writes kepler_grad.go with
//
//	func EccentricAnomalyJVP(m, dm, e, de float64) (float64, float64)
package kepler

//go:generate gadgen

import "math"

// EccentricAnomaly solves Kepler's equation
//
//	E − e·sin E = M
//
// for the eccentric anomaly E, given the mean anomaly M (radians) and the
// eccentricity 0 ≤ e < 1 of an elliptic orbit, by Newton's method from
// E₀ = M + e·sin M. It stops as soon as a step is below 1e-15·(1+|E|), or
// after 50 steps.
//
//gad:jvp
func EccentricAnomaly(m, e float64) float64 {
	x := m + e*math.Sin(m)
	for i := 0; i < 50; i++ {
		step := (x - e*math.Sin(x) - m) / (1 - e*math.Cos(x))
		x -= step
		if math.Abs(step) <= 1e-15*(1+math.Abs(x)) {
			break
		}
	}
	return x
}
