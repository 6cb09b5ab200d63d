package rosenbrock_test

import (
	"fmt"

	"github.com/gadgen/gadgen/examples/rosenbrock"
)

// One call gives the function and one directional derivative.
func ExampleRosenbrockJVP() {
	x := []float64{-1.2, 1}
	f, df := rosenbrock.RosenbrockJVP(x, []float64{1, 0}) // along e0: ∂f/∂x[0]
	fmt.Printf("f = %.6g, ∂f/∂x[0] = %.6g\n", f, df)
	// Output: f = 24.2, ∂f/∂x[0] = -215.6
}

// The gradient takes one JVP per unit vector. (For large n a reverse-mode
// gradient is cheaper; forward mode shines on few inputs.)
func ExampleRosenbrockJVP_gradient() {
	x := []float64{-1.2, 1, 1.5}
	grad := make([]float64, len(x))
	e := make([]float64, len(x))
	for i := range x {
		e[i] = 1
		_, grad[i] = rosenbrock.RosenbrockJVP(x, e)
		e[i] = 0
	}
	fmt.Printf("%.6g\n", grad)
	// Output: [-215.6 -288 100]
}
