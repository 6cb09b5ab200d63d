// Package closures is an end-to-end case of gadgen on function literals
// and function values, in every mode: literals called where they are
// made, with and without captured variables; literals and package
// functions (math.Sin among them) passed to functions of this package
// and of another (quad) that call them; higher-order functions passing
// their function parameter on, recursively too; literals that capture
// other literals, a struct, a slice they write into, a variable
// assigned after the literal is made, and an accumulator they write; a
// method expression passed as a function.
package closures

//go:generate gadgen

//gad:jvp QuadGaussianJVP github.com/gadgen/gadgen/internal/e2e/cases/closures/quad.Gaussian
//gad:grad QuadGaussianGrad github.com/gadgen/gadgen/internal/e2e/cases/closures/quad.Gaussian
//gad:taylor QuadGaussianTaylor github.com/gadgen/gadgen/internal/e2e/cases/closures/quad.Gaussian order=2

import (
	"math"

	"github.com/gadgen/gadgen/internal/e2e/cases/closures/quad"
)

// simpson integrates f over [a, b] by Simpson's rule on n intervals.
func simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	s := f(a) + f(b)
	for i := 1; i < n; i++ {
		x := a + float64(i)*h
		if i%2 == 1 {
			s += 4 * f(x)
		} else {
			s += 2 * f(x)
		}
	}
	return s * h / 3
}

// both integrates f by two rules: it passes its function parameter on.
func both(f func(float64) float64, a, b float64) float64 {
	return simpson(f, a, b, 16) + quad.Adaptive(f, a, b, 3)
}

// compose returns f(g(x)): two function parameters.
func compose(f, g func(float64) float64, x float64) float64 { return f(g(x)) }

func gauss(x float64) float64 { return math.Exp(-x * x) }

// Energy integrates a spring's energy: a literal that captures k and x0,
// passed to simpson and called directly.
//
//gad:jvp
//gad:grad
//gad:taylor order=3
func Energy(k, x0 float64) float64 {
	spring := func(x float64) float64 { return 0.5 * k * (x - x0) * (x - x0) }
	return simpson(spring, 0, 1, 64) + spring(2)
}

// Area passes package functions as values.
//
//gad:jvp
//gad:grad
//gad:taylor order=3
func Area(a float64) float64 {
	return simpson(math.Sin, 0, a, 32) + simpson(gauss, 0, a, 32) + quad.Simpson(math.Cos, 0, a, 8)
}

// Nested passes a literal through both, which passes it on to simpson
// and to the recursive quad.Adaptive, and composes two functions.
//
//gad:jvp
//gad:grad
//gad:taylor order=2
func Nested(w float64, x []float64) float64 {
	wave := func(t float64) float64 { return math.Sin(w*t) * x[0] }
	return both(wave, 0, x[1]) + compose(math.Exp, wave, x[2]) + compose(wave, func(t float64) float64 { return t * t }, w)
}

// Accumulate sums squares through a literal that writes the captured
// sum: sum is passed by address.
//
//gad:jvp
//gad:grad
//gad:taylor order=3 seed=line
//gad:hvp
func Accumulate(x []float64) float64 {
	sum := 0.0
	add := func(v float64) { sum += v * v }
	for _, v := range x {
		add(math.Sin(v))
	}
	add(sum)
	return sum
}

// Params are the parameters of a model.
type Params struct{ A, B float64 }

// Model captures a struct, a slice it writes into and a literal that
// captures another, and maps with quad.Apply and quad.MapSum.
//
//gad:jvp
//gad:grad
//gad:taylor order=2 seed=line
//gad:hvp
func Model(x []float64) float64 {
	p := Params{A: x[0], B: x[1]}
	line := func(t float64) float64 { return p.A*t + p.B }
	out := make([]float64, len(x))
	sq := func(t float64) float64 { return line(t) * line(t) }
	quad.Apply(out, sq, x)
	set := func(i int, v float64) { out[i] += v }
	for i := range x {
		set(i, line(x[i]))
	}
	return quad.MapSum(math.Tanh, out) + quad.MapSum(sq, x)
}

// Eval returns p.A·t + p.B·t².
func (p Params) Eval(t float64) float64 { return p.A*t + p.B*t*t }

// sumOf returns Σ f(p, x[i]).
func sumOf(f func(Params, float64) float64, p Params, x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += f(p, v) * v
	}
	return s
}

// MethodExpr passes a method expression, Params.Eval.
//
//gad:jvp
//gad:grad
//gad:taylor order=2 seed=line
func MethodExpr(x []float64) float64 {
	return sumOf(Params.Eval, Params{A: x[0], B: x[1]}, x)
}

// Shifted assigns the captured c after making the literal: each call
// sees the value c has then.
//
//gad:jvp
//gad:grad
//gad:taylor order=3 seed=line
//gad:hvp
func Shifted(x []float64) float64 {
	c := x[0]
	f := func(v float64) float64 { return (v - c) * (v - c) * v }
	s := f(x[1])
	for i := 2; i < len(x); i++ {
		c = x[i]
		s += f(x[1])
	}
	return s
}

// Direct calls literals where they are written, one in a loop capturing
// the loop variable.
//
//gad:jvp
//gad:grad
//gad:taylor order=3
func Direct(x float64) float64 {
	s := func(y float64) float64 { return y * math.Cos(y) }(x)
	for i := range 3 {
		s += func() float64 { return float64(i) * x * x }()
	}
	return s
}

// Moments returns two integrals of a literal: a function with two
// results, for the VJP.
//
//gad:jvp
//gad:vjp
func Moments(a, b float64) (m0, m1 float64) {
	f := func(t float64) float64 { return math.Exp(a * t) }
	g := func(t float64) float64 { return t * f(t) }
	return simpson(f, 0, b, 16), simpson(g, 0, b, 16)
}

// Fixed calls simpson with a literal that captures nothing varied (wrt=x
// leaves k fixed): the generated code calls the primal specialization.
//
//gad:jvp wrt=x
//gad:grad wrt=x
func Fixed(k, x float64) float64 {
	f := func(t float64) float64 { return k * t * t }
	return x * simpson(f, 0, 1, 8)
}

// Point is a struct a literal updates.
type Point struct{ X, Y float64 }

// RunningMax keeps a running maximum through a literal that assigns the
// variable it captures.
//
//gad:jvp
//gad:grad
func RunningMax(x []float64) float64 {
	best := math.Inf(-1)
	upd := func(v float64) {
		if v > best {
			best = v
		}
	}
	for _, v := range x {
		upd(v * v)
	}
	return best
}

// Counter counts calls through a literal that captures an int and a
// float and assigns both.
//
//gad:jvp
//gad:grad
func Counter(x []float64) float64 {
	n := 0
	s := 0.0
	add := func(v float64) {
		n++
		s += v * float64(n)
	}
	for _, v := range x {
		add(v)
	}
	return s
}

// Move updates a captured struct.
//
//gad:jvp
//gad:grad
func Move(x []float64) float64 {
	p := Point{X: x[0], Y: x[1]}
	move := func(v float64) { p.X += v * p.Y }
	for _, v := range x {
		move(v)
	}
	return p.X
}
