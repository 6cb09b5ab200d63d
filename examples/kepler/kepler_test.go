package kepler

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestEccentricAnomalyJVP(t *testing.T) {
	gen := func(r *rand.Rand) fdcheck.Point {
		m := 2 * math.Pi * r.Float64()
		e := 0.9 * r.Float64()
		return fdcheck.Point{X: []float64{m, e}, V: fdcheck.Direction(r, 2)}
	}
	pts := fdcheck.Points(1, 50, gen)
	fdcheck.Test(t, fdcheck.Binary(EccentricAnomaly), fdcheck.BinaryJVP(EccentricAnomalyJVP), pts, nil)

	// The implicit function theorem on g(E, M, e) = E − e·sin E − M = 0:
	// dE = (dM + sin E·de) / (1 − e·cos E).
	for _, p := range pts {
		m, e, dm, de := p.X[0], p.X[1], p.V[0], p.V[1]
		bigE, dE := EccentricAnomalyJVP(m, dm, e, de)
		if res := bigE - e*math.Sin(bigE) - m; !(math.Abs(res) <= 1e-14) {
			t.Errorf("E(%v, %v) = %v: residual %v", m, e, bigE, res)
		}
		want := (dm + math.Sin(bigE)*de) / (1 - e*math.Cos(bigE))
		fdcheck.Close(t, "dE", []float64{dE}, []float64{want}, 1e-12)
	}
}
