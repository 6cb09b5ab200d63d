package matfit

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/tensorops"
	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats"
)

// TestLossGrad checks the generated gradient against gonum's central
// differences.
func TestLossGrad(t *testing.T) {
	truth := []float64{1.5, -2, 0.5}
	x, y := Data(50, truth, 1)
	xt, yt := tensorops.FromDense(x), tensorops.FromVecDense(y)
	w := []float64{0.3, -0.1, 0.7}
	f := func(w []float64) float64 { return Loss(tensorops.FromFloat64s(w, 3), xt, yt, 0.1) }
	want := fd.Gradient(nil, f, w, &fd.Settings{Formula: fd.Central})
	v, g := LossGrad(tensorops.FromFloat64s(w, 3), xt, yt, 0.1)
	if v != f(w) {
		t.Errorf("LossGrad value %v, want %v", v, f(w))
	}
	if !floats.EqualApprox(g.Float64s(), want, 1e-7) {
		t.Errorf("gradient %v, central differences %v", g.Float64s(), want)
	}
}

// TestFit checks that L-BFGS on the generated gradient finds the weights
// that generated the data, approximately, where the gradient vanishes.
func TestFit(t *testing.T) {
	truth := []float64{1.5, -2, 0.5}
	x, y := Data(2000, truth, 1)
	w, res, err := Fit(x, y, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range truth {
		if !(math.Abs(w[i]-truth[i]) <= 0.25) {
			t.Errorf("w = %v, want close to %v", w, truth)
			break
		}
	}
	if n := floats.Norm(res.Gradient, math.Inf(1)); n > 1e-5 {
		t.Errorf("gradient at the optimum %v", res.Gradient)
	}
}
