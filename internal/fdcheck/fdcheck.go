// Package fdcheck checks forward-mode derivatives (Jacobian-vector products)
// against central finite differences. It is the oracle of gadgen's execution
// tests: every generated JVP is compared with it at seeded random points.
//
// fdcheck is a thin layer over the public package gadgen/gadtest, which
// holds the check itself (gadtest.CheckJVP: the central differences, the
// tolerances, the report). What fdcheck adds is the shape gadgen's own
// tests are written in: a JVP flattened to return only J(x)·v, points
// drawn together with their directions (Gen, Box, Around), adapters for
// functions of one or two float64s, tables of Cases, and Scaled.
//
// A check works on flat vectors. The caller flattens the function under
// test into a Func (its varied inputs as one vector x, everything it
// produces — results and values written into output slices — as one
// vector) and the generated derivative into a JVP with the same layout
// (J(x)·v). Check then compares jvp(x, v) with the central difference of f
// along v, component by component:
//
//	|got_i − want_i| ≤ Rel·max(|got_i|, |want_i|) + Abs + noise_i
//
// where noise_i estimates the round-off of the difference quotient (see
// gadtest.Settings). Rel and Abs are set per call (Settings), with defaults
// DefaultRel and DefaultAbs.
//
// A test point must lie away from kinks and branch boundaries of the
// function: finite differences straddling a kink measure an average of two
// one-sided derivatives, and Check reports a mismatch there.
package fdcheck

import "github.com/gadgen/gadgen/gadtest"

// Func is the function under test, flattened: x holds its varied inputs,
// the result everything it produces. Func must not modify x, and must
// return a vector of the same length for every x.
type Func = gadtest.Func

// JVP is the derivative under test, flattened like the Func it
// differentiates: it returns J(x)·v, the tangent of f's outputs when x
// moves along v. JVP must not modify x or v.
type JVP func(x, v []float64) []float64

// flat returns jvp in gadtest's shape, without the value f(x).
func (jvp JVP) flat() gadtest.JVPFunc {
	return func(x, v []float64) ([]float64, []float64) { return nil, jvp(x, v) }
}

// Default tolerances.
const (
	DefaultRel = gadtest.DefaultRel
	DefaultAbs = gadtest.DefaultAbs
)

// Settings tunes one check (Rel, Abs, Step). The zero value (or nil)
// gives the defaults.
type Settings = gadtest.Settings

// Mismatch is one component of J(x)·v out of tolerance.
type Mismatch = gadtest.Mismatch

// Error reports a failed check: where it was made and what disagreed.
type Error = gadtest.Error

// Directional returns the central-difference approximation of J(x)·v
// (gadtest.Directional).
func Directional(f Func, x, v []float64, step float64) []float64 {
	return gadtest.Directional(f, x, v, step)
}

// Check compares jvp(x, v) with the central difference of f along v at x
// (gadtest.CheckJVP). It returns nil when every component agrees within
// tolerance, and otherwise an *Error naming each component out of
// tolerance with what was got, what was wanted, and the tolerance. It also
// fails when jvp modifies x or v, returns a vector of the wrong length,
// when the finite difference is not finite (a point where f is undefined),
// and when f or jvp panics.
func Check(f Func, jvp JVP, x, v []float64, s *Settings) error {
	return gadtest.CheckJVP(f, jvp.flat(), x, v, s)
}
