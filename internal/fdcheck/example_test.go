package fdcheck_test

import (
	"fmt"
	"math"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

// A JVP written by hand, as gadgen would generate it for
// func Norm(x []float64) float64.
func normJVP(x, dx []float64) (float64, float64) {
	s, ds := 0.0, 0.0
	for i := range x {
		s += x[i] * x[i]
		ds += 2 * x[i] * dx[i]
	}
	n := math.Sqrt(s)
	return n, ds / (2 * n)
}

func norm(x []float64) float64 { n, _ := normJVP(x, make([]float64, len(x))); return n }

func ExampleCheck() {
	f := fdcheck.ScalarField(norm)
	jvp := fdcheck.ScalarFieldJVP(normJVP)
	for _, p := range fdcheck.Points(1, 3, fdcheck.Box(4, 0.5, 2)) {
		fmt.Println(fdcheck.Check(f, jvp, p.X, p.V, nil))
	}
	// A wrong derivative is reported, component by component.
	wrong := func(x, v []float64) []float64 { return []float64{1} }
	err := fdcheck.Check(f, wrong, []float64{3, 4}, []float64{1, 0}, nil)
	m := err.(*fdcheck.Error).Mismatches[0]
	fmt.Printf("component %d: got %v, want %.6f\n", m.Index, m.Got, m.Want)
	// Output:
	// <nil>
	// <nil>
	// <nil>
	// component 0: got 1, want 0.600000
}
