// Package springs shows gadgen on a small physics model: the potential
// energy of a chain of point masses joined by springs, written as a method
// over a struct of parameters.
//
// The directive on the method Chain.Energy makes go generate write
// springs_grad.go with a method beside it:
//
//	func (c Chain) EnergyJVP(x, dx []float64) (float64, float64)
//
// It returns E(x) and the directional derivative ∇E(x)·dx: the work the
// forces F = −∇E do against a small displacement dx of the masses. The
// receiver c (stiffnesses, masses, gravity) is a constant: a method's
// receiver is not varied unless a directive names it in wrt=.
package springs

//go:generate gadgen

import "math"

// Spring is a linear spring of stiffness K and rest length L0.
type Spring struct {
	K, L0 float64
}

// Chain is a chain of point masses in the plane: Springs[i] joins mass i to
// mass i+1. Gravity G pulls towards −y.
type Chain struct {
	Springs []Spring
	Mass    []float64
	G       float64
}

// Energy returns the potential energy of the chain when mass i is at
// (x[2i], x[2i+1]): for each spring of length ℓ its elastic energy
// ½·K·(ℓ − L0)², plus m·G·y for each mass. Energy panics if
// len(x) != 2·len(c.Mass) or len(c.Springs) != len(c.Mass)−1.
//
//gad:jvp
func (c Chain) Energy(x []float64) float64 {
	if len(x) != 2*len(c.Mass) || len(c.Springs) != len(c.Mass)-1 {
		panic("springs: dimension mismatch")
	}
	e := 0.0
	for i, s := range c.Springs {
		dx := x[2*i+2] - x[2*i]
		dy := x[2*i+3] - x[2*i+1]
		stretch := math.Hypot(dx, dy) - s.L0
		e += 0.5 * s.K * stretch * stretch
	}
	for i, m := range c.Mass {
		e += m * c.G * x[2*i+1]
	}
	return e
}
