package springs_test

import (
	"fmt"

	"github.com/gadgen/gadgen/examples/springs"
)

// The derivative along a displacement is the work done against the forces:
// here it gives the vertical force on the middle mass of a chain (gravity
// pulls it down by 10; the springs, barely stretched, pull back by 0.1).
func ExampleChain_EnergyJVP() {
	c := springs.Chain{
		Springs: []springs.Spring{{K: 100, L0: 1}, {K: 100, L0: 1}},
		Mass:    []float64{1, 1, 1},
		G:       10,
	}
	x := []float64{0, 0, 1, -0.1, 2, 0} // the middle mass sags by 0.1
	up := []float64{0, 0, 0, 1, 0, 0}   // move it up
	e, de := c.EnergyJVP(x, up)
	fmt.Printf("E = %.6f, vertical force on the middle mass = %.6f\n", e, -de)
	// Output: E = -0.997512, vertical force on the middle mass = -9.900744
}
