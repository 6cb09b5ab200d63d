package taylor

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/examples/fit"
	"github.com/gadgen/gadgen/examples/heat"
	"github.com/gadgen/gadgen/examples/kepler"
	"github.com/gadgen/gadgen/examples/springs"
	"github.com/gadgen/gadgen/gadtest"
)

// TestExamples checks the helpers of the examples' functions (the
// receiver first, through the cross-package form) against finite
// differences, and the jets of Kepler's equation solved by Newton's
// method.
func TestExamples(t *testing.T) {
	var d fit.Data
	for i := range 12 {
		ti := 0.3 * float64(i)
		d.T = append(d.T, ti)
		d.Y = append(d.Y, 2*math.Exp(-0.7*ti)+0.5)
	}
	t.Run("fit", func(t *testing.T) {
		dom := gadtest.Box(3, 0.2, 2)
		gadtest.Hessian(t, d.Loss, func(p, h []float64) float64 { return fitLossHessian(d, p, h) }, dom)
		gadtest.HVP(t, d.Loss, func(p, v, hv []float64) float64 { return fitLossHVP(d, p, v, hv) }, dom)
		gadtest.Laplacian(t, d.Loss, func(p []float64) (float64, float64) { return fitLossLaplacian(d, p) }, dom)
	})
	c := springs.Chain{G: 9.81}
	x0 := make([]float64, 8)
	for i := range 4 {
		c.Mass = append(c.Mass, 1+0.1*float64(i))
		if i > 0 {
			c.Springs = append(c.Springs, springs.Spring{K: 50 + 10*float64(i), L0: 0.9})
		}
		x0[2*i] = float64(i)
	}
	t.Run("springs", func(t *testing.T) {
		dom := gadtest.Around(x0, 0.2)
		gadtest.Hessian(t, c.Energy, func(x, h []float64) float64 { return springsEnergyHessian(c, x, h) }, dom)
		gadtest.HVP(t, c.Energy, func(x, v, hv []float64) float64 { return springsEnergyHVP(c, x, v, hv) }, dom)
		gadtest.Laplacian(t, c.Energy, func(x []float64) (float64, float64) { return springsEnergyLaplacian(c, x) }, dom)
	})
	const n, steps = 8, 20
	u0, target := make([]float64, n), make([]float64, n)
	for i := range u0 {
		x := float64(i) / float64(n-1)
		u0[i] = math.Sin(math.Pi * x)
		target[i] = 0.5 * math.Sin(math.Pi*x) * (1 + 0.1*x)
	}
	t.Run("heat", func(t *testing.T) {
		f := func(u []float64) float64 { return heat.Misfit(u, 0.3, steps, target) }
		dom := gadtest.Around(u0, 0.1)
		gadtest.Hessian(t, f, func(u, h []float64) float64 { return heatMisfitHessian(u, h, 0.3, steps, target) }, dom)
		gadtest.HVP(t, f, func(u, v, hv []float64) float64 { return heatMisfitHVP(u, v, hv, 0.3, steps, target) }, dom)
		gadtest.Laplacian(t, f, func(u []float64) (float64, float64) { return heatMisfitLaplacian(u, 0.3, steps, target) }, dom)
	})
	t.Run("kepler", func(t *testing.T) {
		gadtest.Taylor(t, func(x []float64) float64 { return kepler.EccentricAnomaly(x[0], x[1]) }, func(x, v []float64) []float64 {
			a, b, c, d := keplerEccentricAnomaly(x[0], v[0], 0, 0, x[1], v[1], 0, 0)
			return []float64{a, b, c, d}
		}, gadtest.Box(2, 0.1, 0.8), gadtest.Rel(1e-5))
	})
}
