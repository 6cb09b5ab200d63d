package softmax_test

import (
	"fmt"

	"github.com/gadgen/gadgen/examples/softmax"
)

// The tangents of the outputs land in the shadow of dst.
func ExampleSoftmaxJVP() {
	x := []float64{1, 2, 3}
	dx := []float64{1, 0, 0} // how does softmax move when x[0] grows?
	dst := make([]float64, 3)
	ddst := make([]float64, 3)
	softmax.SoftmaxJVP(dst, ddst, x, dx)
	fmt.Printf("softmax(x) = %.4f\nderivative = %.4f\n", dst, ddst)
	// Output:
	// softmax(x) = [0.0900 0.2447 0.6652]
	// derivative = [0.0819 -0.0220 -0.0599]
}
