package gonumfloats

import (
	"testing"

	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/internal/fdcheck"
)

// halves splits x into the two slice arguments of a binary function.
func halves(f func(x, y []float64) float64) func(x []float64) float64 {
	return func(x []float64) float64 { n := len(x) / 2; return f(x[:n], x[n:]) }
}

func halvesJVP(jvp func(x, dx, y, dy []float64) (float64, float64)) func(x, v []float64) (float64, float64) {
	return func(x, v []float64) (float64, float64) {
		n := len(x) / 2
		return jvp(x[:n], v[:n], x[n:], v[n:])
	}
}

func TestJVP(t *testing.T) {
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Quadratic", F: fdcheck.ScalarField(Quadratic), JVP: fdcheck.ScalarFieldJVP(QuadraticJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "Axpy", F: fdcheck.ScalarField(Axpy), JVP: fdcheck.ScalarFieldJVP(AxpyJVP), Gen: fdcheck.Box(6, -2, 2)},
		{Name: "Elementwise", F: fdcheck.ScalarField(halves(Elementwise)), JVP: fdcheck.ScalarFieldJVP(halvesJVP(ElementwiseJVP)), Gen: fdcheck.Box(8, -1, 1)},
		{Name: "AddSub", F: fdcheck.ScalarField(halves(AddSub)), JVP: fdcheck.ScalarFieldJVP(halvesJVP(AddSubJVP)), Gen: fdcheck.Box(8, -1, 1)},
		{Name: "Distances", F: fdcheck.ScalarField(halves(Distances)), JVP: fdcheck.ScalarFieldJVP(halvesJVP(DistancesJVP)), Gen: fdcheck.Box(8, -2, 2)},
		{Name: "SoftMax", F: fdcheck.ScalarField(SoftMax), JVP: fdcheck.ScalarFieldJVP(SoftMaxJVP), Gen: fdcheck.Box(5, -2, 2)},
		{Name: "Destinations", F: fdcheck.ScalarField(halves(Destinations)), JVP: fdcheck.ScalarFieldJVP(halvesJVP(DestinationsJVP)), Gen: fdcheck.Box(8, 0.5, 2)},
	})
}

// TestTaylor checks the line-seeded jets against finite differences of
// the previous coefficient.
func TestTaylor(t *testing.T) {
	jet3 := func(f func(x, v []float64) (float64, float64, float64, float64)) func(x, v []float64) []float64 {
		return func(x, v []float64) []float64 { a, b, c, d := f(x, v); return []float64{a, b, c, d} }
	}
	jet3xy := func(f func(x, vx, y, vy []float64) (float64, float64, float64, float64)) func(x, v []float64) []float64 {
		return func(x, v []float64) []float64 {
			n := len(x) / 2
			a, b, c, d := f(x[:n], v[:n], x[n:], v[n:])
			return []float64{a, b, c, d}
		}
	}
	distances := func(x, v []float64) []float64 {
		n := len(x) / 2
		a, b, c := DistancesTaylor(x[:n], v[:n], x[n:], v[n:])
		return []float64{a, b, c}
	}
	cases := []struct {
		name string
		f    func(x []float64) float64
		jet  func(x, v []float64) []float64
		dom  gadtest.Option
	}{
		{"Quadratic", Quadratic, jet3(QuadraticTaylor), gadtest.Box(5, -2, 2)},
		{"Axpy", Axpy, jet3(AxpyTaylor), gadtest.Box(6, -2, 2)},
		{"Elementwise", halves(Elementwise), jet3xy(ElementwiseTaylor), gadtest.Dim(8)},
		{"AddSub", halves(AddSub), jet3xy(AddSubTaylor), gadtest.Dim(8)},
		{"Distances", halves(Distances), distances, gadtest.Box(8, -2, 2)},
		{"SoftMax", SoftMax, jet3(SoftMaxTaylor), gadtest.Box(5, -2, 2)},
		{"Destinations", halves(Destinations), func(x, v []float64) []float64 {
			n := len(x) / 2
			z := make([]float64, n)
			a, b, c, d := DestinationsTaylor(x[:n], v[:n], z, z, x[n:], v[n:], z, z)
			return []float64{a, b, c, d}
		}, gadtest.Box(8, 0.5, 2)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { gadtest.Taylor(t, c.f, c.jet, c.dom, gadtest.Rel(1e-6)) })
	}
}
