package nesting

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/internal/fdcheck"
)

func TestCubeSeries(t *testing.T) {
	for _, x := range []float64{-2, 0.5, 3} {
		f, df := CubeSeriesJVP(x, 1)
		if want := x*x*x + 3*x*x + 3*x; !(math.Abs(f-want) <= 1e-12*math.Max(1, math.Abs(want))) {
			t.Errorf("CubeSeries(%v) = %v, want %v", x, f, want)
		}
		if want := 3*x*x + 6*x + 3; !(math.Abs(df-want) <= 1e-12*math.Max(1, math.Abs(want))) {
			t.Errorf("CubeSeries′(%v) = %v, want %v", x, df, want)
		}
	}
}

// TestSlope: the jet of Wave′ along x + t holds Wave⁽ᵏ⁺¹⁾(x)/k!; with
// Wave = Im e^{(1/2+i)x}, Wave⁽ⁿ⁾(x) = |c|ⁿ e^{x/2} sin(x + nθ),
// c = 1/2 + i, θ = arg c.
func TestSlope(t *testing.T) {
	r, th := math.Hypot(0.5, 1), math.Atan2(1, 0.5)
	deriv := func(n int, x float64) float64 {
		return math.Pow(r, float64(n)) * math.Exp(x/2) * math.Sin(x+float64(n)*th)
	}
	for _, x := range []float64{-1, 0.2, 2} {
		c := [4]float64{}
		c[0], c[1], c[2], c[3] = SlopeTaylor(x, 1)
		fact := 1.0
		for k := range c {
			if k > 0 {
				fact *= float64(k)
			}
			if want := deriv(k+1, x) / fact; !(math.Abs(c[k]-want) <= 1e-12*math.Max(1, math.Abs(want))) {
				t.Errorf("x = %v: coefficient %d of Wave′: got %v, want %v", x, k, c[k], want)
			}
		}
	}
}

// TestGradJVP: forward mode over the generated gradient gives
// Hessian-vector products.
func TestGradJVP(t *testing.T) {
	gadtest.HVP(t, Rosenbrock, func(x, v, hv []float64) float64 {
		g := make([]float64, len(x))
		clear(hv)
		f, _ := GradOfJVP(x, v, g, hv)
		return f
	}, gadtest.Dim(5))
}

// TestChainGradJVP: forward mode over a gradient that calls generated
// functions.
func TestChainGradJVP(t *testing.T) {
	gadtest.HVP(t, Chain, func(x, v, hv []float64) float64 {
		g := make([]float64, len(x))
		clear(hv)
		f, _ := ChainGradOfJVP(x, v, g, hv)
		return f
	}, gadtest.Dim(5))
}

// TestGradOfGrad: reverse mode over the generated gradient, which writes
// the gradient into a slice, gives H·v, checked against central
// differences of GradDot and against H·v by forward over reverse.
func TestGradOfGrad(t *testing.T) {
	r := gadtest.NewRand(7)
	v := gadtest.Uniform(r, 5, -1, 1)
	gadtest.Grad(t, func(x []float64) float64 { return GradDot(x, v) },
		func(x, xBar []float64) float64 { return GradDotGrad(x, xBar, v) }, gadtest.Dim(5))
	x := gadtest.Uniform(r, 5, -1, 1)
	got := make([]float64, 5)
	GradDotGrad(x, got, v)
	want := make([]float64, 5)
	GradOfJVP(x, v, make([]float64, 5), want)
	gadtest.Close(t, "H·v", got, want, 1e-12)
}

// TestGradOfJVP: reverse mode over a generated JVP that writes its
// tangents into a slice.
func TestGradOfJVP(t *testing.T) {
	r := gadtest.NewRand(8)
	v := gadtest.Uniform(r, 5, -1, 1)
	gadtest.Grad(t, func(x []float64) float64 { return SlopeSum(x, v) },
		func(x, xBar []float64) float64 { return SlopeSumGrad(x, xBar, v) }, gadtest.Dim(5))
	x := gadtest.Uniform(r, 5, -1, 1)
	got := make([]float64, 5)
	SlopeSumGrad(x, got, v)
	for i := range x {
		if want := 6 * x[i] * v[i]; !(math.Abs(got[i]-want) <= 1e-12) {
			t.Errorf("∂SlopeSum/∂x[%d] = %v, want %v", i, got[i], want)
		}
	}
}

// TestPeak: the four nestings of forward and reverse mode through a loop
// of an inner gradient, against central differences (PeakR and PeakF are
// the same function).
func TestPeak(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(p []float64) float64
		grad func(p, pBar []float64) float64
		jvp  func(p, dp []float64) (float64, float64)
	}{
		{"inner reverse", PeakR, PeakRGrad, PeakRJVP},
		{"inner forward", PeakF, PeakFGrad, PeakFJVP},
	} {
		t.Run(c.name, func(t *testing.T) {
			gadtest.Grad(t, c.f, c.grad, gadtest.Dim(2))
			gadtest.JVP(t, c.f, c.jvp, gadtest.Dim(2))
		})
	}
}

// TestSelfSlope: reverse mode over a generated JVP whose point and
// tangent are one slice, against central differences.
func TestSelfSlope(t *testing.T) {
	gadtest.Grad(t, SelfSlope, SelfSlopeGrad, gadtest.Dim(5))
}

// TestSecondOrderInGrad checks the weight gradients through generated
// second-order helpers against central differences.
func TestSecondOrderInGrad(t *testing.T) {
	w := []float64{0.3, -0.5, 1.1, 0.7, 0.2, -0.8, -0.4, 0.9, 0.6}
	pts := [][]float64{{0.1, 0.2}, {-0.3, 0.5}, {0.7, -0.1}}
	for _, tc := range []struct {
		name string
		f    func([]float64) float64
		grad func(w, wBar []float64)
	}{
		{"Residual", func(w []float64) float64 { return Residual(w, pts) }, func(w, wBar []float64) { ResidualGrad(w, wBar, pts) }},
		{"Curvature", func(w []float64) float64 { return Curvature(w, pts[1]) }, func(w, wBar []float64) { CurvatureGrad(w, wBar, pts[1]) }},
	} {
		got := make([]float64, len(w))
		tc.grad(w, got)
		want := fd.Gradient(nil, tc.f, w, &fd.Settings{Formula: fd.Central, Step: 1e-5})
		fdcheck.Close(t, tc.name, got, want, 1e-6)
	}
}
