package rosenbrock

import (
	"fmt"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// grad is Rosenbrock's hand-written gradient.
func grad(x []float64) []float64 {
	g := make([]float64, len(x))
	for i := 0; i < len(x)-1; i++ {
		a := x[i+1] - x[i]*x[i]
		g[i] += -400*a*x[i] - 2*(1-x[i])
		g[i+1] += 200 * a
	}
	return g
}

func TestRosenbrockJVP(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 100} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			f := fdcheck.ScalarField(Rosenbrock)
			jvp := fdcheck.ScalarFieldJVP(RosenbrockJVP)
			pts := fdcheck.Points(uint64(n), 10, fdcheck.Box(n, -2, 2))
			fdcheck.Test(t, f, jvp, pts, nil)
			for _, p := range pts {
				y, dy := RosenbrockJVP(p.X, p.V)
				fdcheck.Close(t, "primal", []float64{y}, []float64{Rosenbrock(p.X)}, 1e-14)
				fdcheck.Close(t, "∇f·v", []float64{dy}, []float64{fdcheck.Dot(grad(p.X), p.V)}, 1e-10)
			}
		})
	}
}
