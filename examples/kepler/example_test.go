package kepler_test

import (
	"fmt"

	"github.com/gadgen/gadgen/examples/kepler"
)

// The sensitivity of the solution to each input, through the solver.
func ExampleEccentricAnomalyJVP() {
	m, e := 1.0, 0.5
	E, dEdM := kepler.EccentricAnomalyJVP(m, 1, e, 0) // vary M only
	_, dEde := kepler.EccentricAnomalyJVP(m, 0, e, 1) // vary e only
	fmt.Printf("E = %.9f\ndE/dM = %.9f\ndE/de = %.9f\n", E, dEdM, dEde)
	// Output:
	// E = 1.498701134
	// dE/dM = 1.037362022
	// dE/de = 1.034667232
}
