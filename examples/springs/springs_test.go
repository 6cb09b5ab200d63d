package springs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// chain returns a chain of n masses with varied stiffnesses, and a random
// configuration near the rest shape (masses about 1 apart along x), so that
// no spring has length zero.
func chain(n int) (Chain, fdcheck.Gen) {
	c := Chain{G: 9.81}
	for i := range n {
		c.Mass = append(c.Mass, 1+0.1*float64(i))
		if i > 0 {
			c.Springs = append(c.Springs, Spring{K: 50 + 10*float64(i), L0: 0.9})
		}
	}
	gen := func(r *rand.Rand) fdcheck.Point {
		x := make([]float64, 2*n)
		for i := range n {
			x[2*i] = float64(i) + 0.3*(2*r.Float64()-1)
			x[2*i+1] = 0.3 * (2*r.Float64() - 1)
		}
		return fdcheck.Point{X: x, V: fdcheck.Direction(r, 2*n)}
	}
	return c, gen
}

// force is −∇E, written by hand.
func (c Chain) force(x []float64) []float64 {
	f := make([]float64, len(x))
	for i, s := range c.Springs {
		dx, dy := x[2*i+2]-x[2*i], x[2*i+3]-x[2*i+1]
		l := math.Hypot(dx, dy)
		t := s.K * (l - s.L0) / l // tension per unit of extension vector
		f[2*i] += t * dx
		f[2*i+1] += t * dy
		f[2*i+2] -= t * dx
		f[2*i+3] -= t * dy
	}
	for i, m := range c.Mass {
		f[2*i+1] -= m * c.G
	}
	return f
}

func TestEnergyJVP(t *testing.T) {
	for _, n := range []int{1, 2, 5, 20} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			c, gen := chain(n)
			pts := fdcheck.Points(uint64(n), 10, gen)
			fdcheck.Test(t, fdcheck.ScalarField(c.Energy), fdcheck.ScalarFieldJVP(c.EnergyJVP), pts, nil)
			for _, p := range pts {
				e, de := c.EnergyJVP(p.X, p.V)
				fdcheck.Close(t, "E", []float64{e}, []float64{c.Energy(p.X)}, 1e-14)
				fdcheck.Close(t, "dE", []float64{de}, []float64{-fdcheck.Dot(c.force(p.X), p.V)}, 1e-10)
			}
		})
	}
}

func TestEnergyJVPPanics(t *testing.T) {
	c, _ := chain(3)
	defer func() {
		if r := recover(); r != "springs: dimension mismatch" {
			t.Errorf("recovered %v, want the primal's panic", r)
		}
	}()
	c.EnergyJVP(make([]float64, 5), make([]float64, 5))
}
