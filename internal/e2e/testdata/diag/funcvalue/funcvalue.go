package funcvalue

import (
	"math"
	"sort"
)

// Problem holds a function in a field.
type Problem struct{ F func(float64) float64 }

// Vec has a method to take as a value.
type Vec struct{ X, Y float64 }

// Norm is the length of v.
func (v Vec) Norm() float64 { return math.Hypot(v.X, v.Y) }

// Integrator is an interface whose method takes a function.
type Integrator interface {
	Integrate(f func(float64) float64, x float64) float64
}

var table = math.Sin

func makeScale(k float64) func(float64) float64 { return func(x float64) float64 { return k * x } }

// Param calls its function parameter: its value is not known here.
//
//gad:jvp
func Param(f func(float64) float64, x float64) float64 {
	return f(x) // want "function value: call of the function parameter f: gadgen must know the function called"
}

// RunTime chooses the function at run time.
//
//gad:jvp
func RunTime(x float64) float64 {
	f := math.Sin
	if x > 0 {
		f = math.Cos
	}
	return f(x) // want "function value: f holds different functions on different paths"
}

// Stored reads functions from a struct field, a slice and a package-level
// variable, and calls one a function returned.
//
//gad:jvp
func Stored(x float64) float64 {
	p := Problem{F: math.Sin}              // want "function value: storing a function value in a struct"
	s := []func(float64) float64{math.Cos} // want "function value: storing a function value"
	return p.F(x) +                        // want "function value: function values stored in struct fields are not supported"
		s[0](x) + // want "function value: function values stored in slices and arrays are not supported"
		table(x) + // want "function value: function values in package-level variables are not supported"
		makeScale(x)(x) // want "function value: function values returned by calls are not supported"
}

// Method takes a method value and passes a literal to an interface
// method and to a function without a Go body.
//
//gad:jvp
func Method(v Vec, in Integrator, x []float64) float64 {
	n := v.Norm                                               // want "function value: method values are not supported"
	sort.Slice(x, func(i, j int) bool { return x[i] < x[j] }) // want "function value: function value passed to sort.Slice, which has no Go body"
	return n() + in.Integrate(math.Sin, x[0])                 // want "function value passed to the interface method Integrate"
}

// Uses returns and compares function values.
//
//gad:jvp
func Uses(x float64) float64 {
	f := math.Sin
	if f == nil { // want "function value: comparing function values is not supported"
		return 0
	}
	return f(x)
}
