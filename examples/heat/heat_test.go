package heat

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
)

func data(n int) (u0, target []float64) {
	u0, target = make([]float64, n), make([]float64, n)
	for i := range u0 {
		x := float64(i) / float64(n-1)
		u0[i] = math.Sin(math.Pi * x)
		target[i] = 0.5 * math.Sin(math.Pi*x) * (1 + 0.1*x)
	}
	return u0, target
}

// TestMisfitGrad checks the gradient with respect to u0 and kappa against
// central finite differences: x = (kappa, u0...).
func TestMisfitGrad(t *testing.T) {
	const n, steps = 12, 30
	u0, target := data(n)
	f := func(x []float64) float64 { return Misfit(x[1:], x[0], steps, target) }
	grad := func(x, dx []float64) float64 {
		g, dk := MisfitGrad(x[1:], dx[1:], x[0], steps, target)
		dx[0] += dk
		return g
	}
	jvp := func(x, v []float64) (float64, float64) { return MisfitJVP(x[1:], v[1:], x[0], v[0], steps, target) }
	x0 := append([]float64{0.3}, u0...)
	gadtest.Grad(t, f, grad, gadtest.Around(x0, 0.05))
	gadtest.JVP(t, f, jvp, gadtest.Around(x0, 0.05))
	gadtest.DotTest(t, gadtest.ScalarJVP(jvp), gadtest.ScalarGrad(grad), gadtest.Around(x0, 0.05))
}
