// Package refuse holds functions reverse mode refuses, for the
// diagnostics tests of package reverse (reverse_test's refuse_test.go): a
// comment `want "text"` marks each line a diagnostic must point at, with
// a part of its message.
package refuse

import "math"

// G is a package-level variable.
var G float64

// Pair has two results: no gradient.
func Pair(x float64) (float64, float64) { // want "exactly one float result"
	return x, x * x
}

// StoreGlobal stores a varied value into a package-level variable.
func StoreGlobal(x float64) float64 {
	G = x * x // want "package-level variable G"
	return x
}

// P is a struct of floats.
type P struct{ X, Y float64 }

// Leak stores varied values through a parameter that is not varied
// (wrt=x).
func Leak(p *P, x float64) float64 { // want "parameter p: values that depend on the varied inputs are stored through it"
	p.X = x * x
	return p.Y * x
}

// Next calls a function with no derivative.
func Next(x float64) float64 {
	return math.Nextafter(x, 2) * x // want "not differentiable: stepping to the adjacent float"
}

// Layer holds a slice.
type Layer struct{ W []float64 }

// ClearRows clears a slice of slices.
func ClearRows(a [][]float64) float64 {
	s := a[0][0] * a[1][0]
	clear(a) // want "builtin clear: reverse mode supports clear of slices of floats"
	return s
}

// Node is a recursive type.
type Node struct {
	V    float64
	Next *Node
}

func val(n *Node) float64 { return n.V * n.V }

// List calls a function reading memory of a recursive type that it
// overwrites after the call.
func List(n *Node) float64 {
	a := val(n) // want "save and restore around a call only memory made of numbers"
	n.V = 3 * n.V
	return a * val(n)
}

func global(x float64) float64 {
	G = x
	return x * G
}

// CallGlobal calls a function whose reverse cannot be generated.
func CallGlobal(x float64) float64 {
	return global(x) * x // want "call of global: "
}

// Sum is a gradient's target for gonum=true with the wrong shape.
func Sum(x []float64, y float64) float64 { // want "gonum=true needs a function of one \[\]float64 parameter"
	return x[0] * y
}

// Fit takes its data beside its parameters: gonum=true says how to give
// it gonum's shape.
func Fit(w, data []float64) float64 { // want "Problem.Func: put the other parameters \(the data\) in a struct and make the function its method"
	return w[0] * data[0]
}

func dot(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// Self calls a function with the same slice twice; refused without an
// environment that specializes the callee (ssaad.AliasEnv).
func Self(x []float64) float64 {
	return dot(x, x) // want "arguments that share memory"
}

func lin(a, b float64) float64 { return 2*a + 3*b }

// NoAdjoint calls a function the tests give a rule without an adjoint of
// b.
func NoAdjoint(x, y float64) float64 {
	return lin(x, y) * x // want "lin is not differentiable in its argument b"
}

// JVPOnly calls a function the tests give a rule with a JVP only.
func JVPOnly(x, y float64) float64 {
	return lin(x, y) * x // want "a JVP only"
}

// Iface has a parameter of interface type, varied by wrt=v,x.
func Iface(v any, x float64) float64 { // want "reverse mode does not support varied parameters of type any yet"
	return x * x
}

// Layers returns a struct holding a slice (vjp).
func Layers(x float64) Layer { // want "results of type refuse.Layer are not supported yet"
	return Layer{W: []float64{x}}
}

// BadRule calls a function the tests give a rule that does not parse.
func BadRule(x, y float64) float64 {
	return lin(x, y) * x // want "bad rule"
}

func mk(x float64) Layer { return Layer{W: []float64{x, x * x}} }

// CallLayers calls a function returning a struct holding a slice.
func CallLayers(x float64) float64 {
	l := mk(x) // want "reverse mode cannot differentiate this call yet: results of type refuse.Layer"
	return l.W[1]
}
