package rules

import (
	"math"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestLossJVP(t *testing.T) {
	fdcheck.Run(t, []fdcheck.Case{
		{Name: "Loss", F: fdcheck.ScalarField(Loss), JVP: fdcheck.ScalarFieldJVP(LossJVP), Gen: fdcheck.Box(6, -3, 3)},
	})
}

// TestLossGrad checks the gradient against the JVP (checked above)
// along each axis, and the HVP against central differences of the
// gradient.
func TestLossGradHVP(t *testing.T) {
	r := fdcheck.NewRand(fdcheck.Seed(t.Name()))
	for range 5 {
		x := fdcheck.Uniform(r, 6, -3, 3)
		v := fdcheck.Direction(r, 6)
		g := make([]float64, 6)
		f := LossGrad(x, g)
		if want := Loss(x); f != want {
			t.Errorf("LossGrad value %v, want %v", f, want)
		}
		for i := range x {
			e := make([]float64, 6)
			e[i] = 1
			_, d := LossJVP(x, e)
			fdcheck.Close(t, "gradient", []float64{g[i]}, []float64{d}, 1e-12)
		}
		hv := make([]float64, 6)
		LossHVP(x, v, hv)
		const h = 1e-5
		gp, gm := make([]float64, 6), make([]float64, 6)
		xp, xm := make([]float64, 6), make([]float64, 6)
		for i := range x {
			xp[i], xm[i] = x[i]+h*v[i], x[i]-h*v[i]
		}
		LossGrad(xp, gp)
		LossGrad(xm, gm)
		fd := make([]float64, 6)
		for i := range fd {
			fd[i] = (gp[i] - gm[i]) / (2 * h)
		}
		fdcheck.Close(t, "HVP", hv, fd, 1e-6)
	}
}

// TestTaylor checks the third-order jets: fastSqrt's against the series
// of √(x + t), Loss's first coefficient against its JVP and its second
// against a central difference of the JVP along the line.
func TestTaylor(t *testing.T) {
	for _, x := range []float64{0.5, 2, 9} {
		y, y1, y2, y3 := fastSqrtTaylor(x, 1, 0, 0)
		s := math.Sqrt(x)
		fdcheck.Close(t, "fastSqrtTaylor", []float64{y, y1, y2, y3}, []float64{s, 1 / (2 * s), -1 / (8 * x * s), 1 / (16 * x * x * s)}, 1e-12)
	}
	r := fdcheck.NewRand(fdcheck.Seed(t.Name()))
	for range 5 {
		x := fdcheck.Uniform(r, 6, -3, 3)
		v := fdcheck.Direction(r, 6)
		zero := make([]float64, 6)
		y, y1, y2, _ := LossTaylor(x, v, zero, zero)
		f, d := LossJVP(x, v)
		fdcheck.Close(t, "Taylor value and first coefficient", []float64{y, y1}, []float64{f, d}, 1e-12)
		const h = 1e-5
		xp, xm := make([]float64, 6), make([]float64, 6)
		for i := range x {
			xp[i], xm[i] = x[i]+h*v[i], x[i]-h*v[i]
		}
		_, dp := LossJVP(xp, v)
		_, dm := LossJVP(xm, v)
		fdcheck.Close(t, "second coefficient", []float64{2 * y2}, []float64{(dp - dm) / (2 * h)}, 1e-6)
	}
}

func TestSmoothMaxGrad(t *testing.T) {
	for _, ab := range [][2]float64{{0, 0}, {1, -2}, {-3, 0.5}, {40, 41}} {
		a, b := ab[0], ab[1]
		f, da, db := smoothMaxGrad(a, b)
		e := math.Exp(a) + math.Exp(b)
		want := []float64{smoothMax(a, b), math.Exp(a) / e, math.Exp(b) / e}
		fdcheck.Close(t, "smoothMaxGrad", []float64{f, da, db}, want, 1e-12)
		const h = 1e-6
		fd := []float64{f, (smoothMax(a+h, b) - smoothMax(a-h, b)) / (2 * h), (smoothMax(a, b+h) - smoothMax(a, b-h)) / (2 * h)}
		fdcheck.Close(t, "smoothMaxGrad vs differences", []float64{f, da, db}, fd, 1e-7)
	}
}
