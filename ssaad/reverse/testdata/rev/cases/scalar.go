// Package cases holds the functions the execution tests of package
// reverse differentiate (reverse_test's exec_test.go): each is named in
// the test's table with the mode and the arguments it runs with.
package cases

import "math"

// Poly is straight-line math through package math's rules.
func Poly(x, y float64) float64 {
	a := x*y + math.Sin(x)/y
	b := math.Exp(-x*x) * math.Log(y*y+1)
	return a*b - math.Sqrt(x*x+y*y) + math.Pow(y, 3)/(1+x*x)
}

// Branch merges values computed on two paths.
func Branch(x, y float64) float64 {
	var r float64
	if x > y {
		r = x * math.Cos(y)
	} else {
		r = y*y - x
	}
	if r > 0.5 {
		r *= r
	}
	return r + x*y
}

// MinMax uses the builtins min and max and math.Max, math.Abs.
func MinMax(x, y, z float64) float64 {
	return min(x*y, z, 0.5)*max(x, y+z) + math.Max(x, z)*math.Abs(y)
}

// Tuple uses math functions of several results.
func Tuple(x float64) float64 {
	s, c := math.Sincos(x)
	fr, e := math.Frexp(x * x)
	return s*c + fr*float64(e)
}

// Point is a struct of floats.
type Point struct{ X, Y float64 }

// Rotate takes a struct and an array by value.
func Rotate(p Point, w [3]float64, a float64) float64 {
	q := Point{p.X*math.Cos(a) - p.Y*math.Sin(a), p.X*math.Sin(a) + p.Y*math.Cos(a)}
	w[1] = w[0] * q.X
	return q.X*w[1] + q.Y*w[2]
}

// Float32s computes in float32.
func Float32s(x float32, y float64) float64 {
	z := x*x + 1/x
	return float64(z) * y
}

// Celsius is a named float type.
type Celsius float64

// Named returns a named float type.
func Named(c Celsius, y float64) Celsius {
	return c*c*Celsius(y) - Celsius(math.Exp(float64(c)))
}

// Pair returns two results (vjp).
func Pair(x, y float64) (float64, float64) {
	q := x / y
	return q * x, math.Atan2(y, x) - q
}

// Mid returns a struct (vjp).
func Mid(a, b Point) Point {
	return Point{(a.X + b.X) * a.Y, (a.Y - b.Y) * b.X}
}

// Method is a method with a value receiver.
func (p Point) Norm(s float64) float64 { return math.Hypot(p.X*s, p.Y) }

// Checked panics on bad input.
func Checked(x []float64) float64 {
	if len(x) < 2 {
		panic("cases: Checked needs two values")
	}
	if x[0] == x[1] {
		panic("cases: equal values")
	}
	return (x[0] - x[1]) * x[0]
}

// Abs picks one of two values by a comparison.
func Abs(x, y float64) float64 {
	a := x
	if x < 0 {
		a = -x
	}
	b := y
	if b > a {
		b = a
	}
	return a*y + b
}

// Doubles adds and subtracts a value to and from itself.
func Doubles(x, y float64) float64 {
	z := x * y
	return (z+z)*x + (z - z) + y
}

// Frac returns a float and an int (vjp).
func Frac(x float64) (float64, int) {
	n := int(math.Floor(x))
	return (x - float64(n)) * x, n
}
