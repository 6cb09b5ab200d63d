// Package methods is an end-to-end case of gadgen's forward mode: methods
// with value and pointer receivers (the receiver is not varied), a method
// calling another, a method on a named slice type, and package-level
// variables read as constant tables.
package methods

//go:generate gadgen

import "math"

// Quadratic is a·x² + b·x + c.
type Quadratic struct {
	A, B, C float64
}

// Eval has a value receiver.
//
//gad:jvp
func (q Quadratic) Eval(x float64) float64 {
	return (q.A*x+q.B)*x + q.C
}

// Model holds data for a least-squares fit of y ≈ w[0]·x + w[1].
type Model struct {
	X, Y []float64
}

// residual is the i-th residual of the fit.
func (m *Model) residual(w []float64, i int) float64 {
	return w[0]*m.X[i] + w[1] - m.Y[i]
}

// Loss has a pointer receiver and calls another method: the mean squared
// residual.
//
//gad:jvp
func (m *Model) Loss(w []float64) float64 {
	s := 0.0
	for i := range m.X {
		r := m.residual(w, i)
		s += r * r
	}
	return s / float64(len(m.X))
}

// Vec is a named slice type.
type Vec []float64

// Dot is a method on a named slice type with a varied argument of the same
// type.
//
//gad:jvp
func (v Vec) Dot(w Vec) float64 {
	s := 0.0
	for i := range v {
		s += v[i] * w[i] * w[i]
	}
	return s
}

// sinCoeffs are the Taylor coefficients of sin(x)/x in powers of x².
var sinCoeffs = []float64{1, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880}

// SinSeries reads a package-level slice.
//
//gad:jvp
func SinSeries(x float64) float64 {
	x2 := x * x
	s, p := 0.0, x
	for _, c := range sinCoeffs {
		s += c * p
		p *= x2
	}
	return s
}

// weights is a package-level array.
var weights = [3]float64{0.5, -1.5, 2}

// scale is a package-level scalar.
var scale = 2.5

// Weighted reads a package-level array and scalar.
//
//gad:jvp
func Weighted(x []float64) float64 {
	s := 0.0
	for i, w := range weights {
		s += w * math.Sin(scale*x[i])
	}
	return s
}

// Spline is a table of cubic pieces; Eval reads a field that is a slice of
// arrays.
type Spline struct {
	Knots  []float64
	Coeffs [][4]float64
}

// Eval evaluates the piece of s that contains x (pointer receiver, a loop
// that searches a field, and a local copy of an array element).
//
//gad:jvp
func (s *Spline) Eval(x float64) float64 {
	k := 0
	for k+1 < len(s.Knots) && x >= s.Knots[k+1] {
		k++
	}
	t := x - s.Knots[k]
	c := s.Coeffs[k]
	return c[0] + t*(c[1]+t*(c[2]+t*c[3]))
}

// Damper dissipates c·v² + log(1 + v²) per velocity. test=true checks the
// gradient of its method, whose receiver is a pointer, at the zero Damper,
// which the test takes by address (a nil receiver would panic here).
type Damper struct{ C float64 }

// Dissipation reads the receiver's field.
//
//gad:grad test=true
func (d *Damper) Dissipation(v []float64) float64 {
	e := 0.0
	for _, x := range v {
		e += d.C*x*x + math.Log1p(x*x)
	}
	return e
}
