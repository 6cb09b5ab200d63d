package gadtest_test

import (
	"fmt"
	"math"
	"strings"

	"github.com/gadgen/gadgen/gadtest"
)

// norm and its derivatives, as gadgen generates them for
// func Norm(x []float64) float64 (written by hand here).
func norm(x []float64) float64 {
	s := 0.0
	for _, xi := range x {
		s += xi * xi
	}
	return math.Sqrt(s)
}

// normJVP returns |x| and its derivative along dx.
func normJVP(x, dx []float64) (float64, float64) {
	s, ds := 0.0, 0.0
	for i := range x {
		s += x[i] * x[i]
		ds += 2 * x[i] * dx[i]
	}
	n := math.Sqrt(s)
	return n, ds / (2 * n)
}

// normGrad returns |x| and adds x/|x| to dx.
func normGrad(x, dx []float64) float64 {
	n := norm(x)
	for i := range x {
		dx[i] += x[i] / n
	}
	return n
}

// t stands for the *testing.T of a test: it prints what a test would
// report, without the random numbers (their last digits vary across
// platforms).
var t = printer{}

type printer struct{}

func (printer) Helper() {}

func (printer) Errorf(format string, args ...any) {
	for line := range strings.Lines(fmt.Sprintf(format, args...)) {
		if i := strings.Index(line, ": got"); i >= 0 {
			line = line[:i] + ": got …\n"
		}
		if i := strings.Index(line, "along v = "); i >= 0 {
			line = line[:i] + "along v = …\n"
		}
		fmt.Print(line)
	}
	fmt.Println()
}

func (p printer) Fatalf(format string, args ...any) { p.Errorf(format, args...) }

// In a test, check each derivative of a function ℝⁿ → ℝ with one line.
// Nothing is reported: the derivatives are right.
func Example() {
	gadtest.JVP(t, norm, normJVP, gadtest.Dim(3))
	gadtest.Grad(t, norm, normGrad, gadtest.Box(5, 0.5, 2), gadtest.Points(20))
	gadtest.GonumGrad(t, norm, func(grad, x []float64) {
		clear(grad)
		normGrad(x, grad)
	}, gadtest.Around([]float64{3, 4}, 0.1), gadtest.Rel(1e-7))
	gadtest.DotTest(t, gadtest.ScalarJVP(normJVP), gadtest.ScalarGrad(normGrad), gadtest.Dim(10))
	// Output:
}

// A wrong gradient is reported with the components that are wrong.
func ExampleGrad() {
	wrong := func(x, dx []float64) float64 {
		n := normGrad(x, dx)
		dx[1] *= 2 // the bug
		return n
	}
	gadtest.Grad(t, norm, wrong, gadtest.At([]float64{3, 4, 12}))
	// Output:
	// point 0: gadtest: ∇f(x)
	// 	∂f/∂x[1]: got …
	// 	at x = [3 4 12]
}

// A JVP that is wrong along a random direction is also checked along each
// unit vector, to say which partial derivatives are wrong.
func ExampleJVP() {
	wrong := func(x, dx []float64) (float64, float64) {
		dx = append([]float64(nil), dx...)
		dx[2] = 0 // the bug: x[2] is taken as a constant
		return normJVP(x, dx)
	}
	gadtest.JVP(t, norm, wrong, gadtest.At([]float64{1, 2, 2}))
	// Output:
	// point 0: gadtest: J(x)·v
	// 	∇f(x)·v: got …
	// 	wrong partial derivatives (along each unit vector):
	// 	∂f/∂x[2]: got …
	// 	at x = [1 2 2]
	// 	along v = …
}

// Functions with many outputs are flattened: here the polar coordinates
// (r, θ) of a point (x, y), with a JVP and a VJP.
func ExampleVecVJP() {
	polar := func(p []float64) []float64 {
		return []float64{math.Hypot(p[0], p[1]), math.Atan2(p[1], p[0])}
	}
	jvp := func(p, v []float64) (y, dy []float64) {
		x, yy := p[0], p[1]
		r2 := x*x + yy*yy
		r := math.Sqrt(r2)
		return polar(p), []float64{(x*v[0] + yy*v[1]) / r, (x*v[1] - yy*v[0]) / r2}
	}
	vjp := func(p, w, dp []float64) []float64 {
		x, yy := p[0], p[1]
		r2 := x*x + yy*yy
		r := math.Sqrt(r2)
		dp[0] += w[0]*x/r - w[1]*yy/r2
		dp[1] += w[0]*yy/r + w[1]*x/r2
		return polar(p)
	}
	gadtest.VecJVP(t, polar, jvp, gadtest.Box(2, 0.5, 2))
	gadtest.VecVJP(t, polar, vjp, gadtest.Box(2, 0.5, 2))
	gadtest.DotTest(t, jvp, vjp, gadtest.Box(2, -2, 2))

	// The same checks at one point return an error to inspect.
	err := gadtest.CheckVJP(polar, func(p, w, dp []float64) []float64 {
		vjp(p, w, dp)
		dp[0] = 0 // the bug: overwrites ∂/∂x
		return nil
	}, []float64{3, 4}, []float64{1, 0.5}, nil)
	for _, m := range err.(*gadtest.Error).Mismatches {
		fmt.Printf("%s: got %.3f, want %.3f\n", m.Name, m.Got, m.Want)
	}
	// Output:
	// component 0 of Jᵀ·w: got 0.000, want 0.520
}
