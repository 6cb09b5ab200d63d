package verify

import (
	"math"
	"strings"
	"testing"
)

// f(x) = Σ x_i³, ∇f = 3x².
func cube(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v * v
	}
	return s
}

// cubeGrad adds ∇f = 3x² to g.
func cubeGrad(x, g []float64) float64 {
	for i, v := range x {
		g[i] += 3 * v * v
	}
	return cube(x)
}

func TestChecks(t *testing.T) {
	x := []float64{0.5, -1.5, 2}
	good := []float64{0.75, 6.75, 12}
	bad := []float64{0.75, 6.75, 12.001}
	v := []float64{1, -0.5, 0.25}
	dot := 0.75 - 3.375 + 3    // good·v
	hv := []float64{3, 4.5, 3} // ∇²f·v = 6x⊙v
	hvBad := []float64{3, 4.5, 3.00001}
	cases := []struct {
		name string
		err  error
		want string // "" for no error
	}{
		{"FDGradient good", FDGradient(cube, x, good, FD), ""},
		{"FDGradient bad", FDGradient(cube, x, bad, FD), "component 2 of the gradient"},
		{"Directional good", Directional(cube, x, good, v, FD), ""},
		{"Directional bad", Directional(cube, x, bad, v, FD), "g·v"},
		{"Dot good", Dot(dot, good, v, Exact), ""},
		{"Dot bad", Dot(dot*(1+1e-9), good, v, Exact), "directional derivative"},
		{"Dot zero by cancellation", Dot(1e-17, []float64{1, 1}, []float64{1, -1}, Exact), ""},
		{"HVP good", HVP(cubeGrad, x, v, hv, FD), ""},
		{"HVP bad", HVP(cubeGrad, x, v, hvBad, FD), "component 2 of the Hessian-vector product"},
		{"HVP zero direction", HVP(cubeGrad, x, make([]float64, 3), hv, FD), "component 0"},
		{"Same good", Same(good, good, Exact), ""},
		{"Same bad", Same(bad, good, Exact), "component 2"},
		{"Value NaN", Value(0, math.NaN(), Exact), "value"},
		{"lengths", Same(good[:2], good, Exact), "length"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			switch {
			case c.want == "" && c.err != nil:
				t.Errorf("got error %v, want none", c.err)
			case c.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.want)):
				t.Errorf("got error %v, want one containing %q", c.err, c.want)
			}
		})
	}
}
