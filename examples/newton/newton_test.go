package newton

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
)

// observations draws n labelled points of 3 features from the logistic
// model with weights (1.5, −2, 0.5).
func observations(n int) Data {
	r := rand.New(rand.NewPCG(1, 2))
	w := []float64{1.5, -2, 0.5}
	var d Data
	for range n {
		x := []float64{1, 2*r.Float64() - 1, 2*r.Float64() - 1}
		z := w[0]*x[0] + w[1]*x[1] + w[2]*x[2]
		y := 0.0
		if r.Float64() < 1/(1+math.Exp(-z)) {
			y = 1
		}
		d.X = append(d.X, x)
		d.Y = append(d.Y, y)
	}
	return d
}

func TestNLLHessian(t *testing.T) {
	d := observations(50)
	gadtest.Hessian(t, d.NLL, d.NLLHessian, gadtest.Dim(3))
	gadtest.GonumGrad(t, d.NLL, d.NLLGrad, gadtest.Dim(3))
}

func TestFit(t *testing.T) {
	d := observations(200)
	w, iters, err := d.Fit(3)
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, 3)
	d.NLLGrad(g, w)
	for i, gi := range g {
		if !(math.Abs(gi) <= 1e-9) {
			t.Errorf("∂NLL/∂w[%d] = %v at the fit %v, want 0", i, gi, w)
		}
	}
	if iters > 10 {
		t.Errorf("Newton took %d iterations, want few (quadratic convergence)", iters)
	}
}

func ExampleData_Fit() {
	w, _, err := observations(200).Fit(3)
	if err != nil {
		panic(err)
	}
	fmt.Printf("w = (%.2f, %.2f, %.2f)\n", w[0], w[1], w[2])
	// Output: w = (1.16, -2.14, 0.67)
}
