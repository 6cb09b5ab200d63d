// Package shapes has functions annotated for gadgen.
package shapes

//go:generate gadgen

import "example.com/dm/geom"

// Rosenbrock returns the Rosenbrock function of x.
//
//gad:jvp
func Rosenbrock(x []float64) float64 {
	s := 0.0
	for i := 0; i+1 < len(x); i++ {
		a := 1 - x[i]
		b := x[i+1] - x[i]*x[i]
		s += a*a + 100*b*b
	}
	return s
}

// Spring is a linear spring.
type Spring struct{ K, L0 float64 }

// Energy returns the spring's energy at length l.
//
//gad:jvp
func (s Spring) Energy(l float64) float64 {
	d := l - s.L0
	return 0.5 * s.K * d * d
}

// Chain calls other functions, whose derivatives gadgen generates too.
//
//gad:jvp
func Chain(x float64) float64 {
	return sq(x) + geom.Dist(geom.Vec{X: x}, geom.Vec{Y: 1}) + geom.Scaled(x, 3)
}

// sq has a branch, so that it is not inlined and gets a derivative of its
// own.
func sq(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x * x
}

// Pow is recursive: its derivative calls itself.
//
//gad:jvp
func Pow(x float64, n int) float64 {
	if n == 0 {
		return 1
	}
	return x * Pow(x, n-1)
}

// Mix calls itself with another activity.
//
//gad:jvp
func Mix(a, b float64) float64 {
	if a > 10 {
		return a
	}
	return Mix(b, 1) + a
}

// Total is variadic; its derivative is too, with a fixed variadic
// parameter.
//
//gad:jvp wrt=scale
func Total(scale float64, xs ...float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += scale * x
	}
	return s
}
