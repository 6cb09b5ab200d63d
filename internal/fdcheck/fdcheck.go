// Package fdcheck checks forward-mode derivatives (Jacobian-vector products)
// against central finite differences. It is the oracle of gadgen's execution
// tests: every generated JVP is compared with it at seeded random points.
//
// A check works on flat vectors. The caller flattens the function under test
// into a Func (its varied inputs as one vector x, everything it produces —
// results and values written into output slices — as one vector) and the
// generated derivative into a JVP with the same layout (J(x)·v). Check then
// compares jvp(x, v) with the central difference of f along v, computed by
// gonum.org/v1/gonum/diff/fd with Formula fd.Central, component by
// component:
//
//	|got_i − want_i| ≤ Rel·max(|got_i|, |want_i|) + Abs + noise_i
//
// where noise_i estimates the round-off of the difference quotient
// (a few ulps of f_i divided by the step). Rel and Abs are set per call
// (Settings), with defaults DefaultRel and DefaultAbs.
//
// Adapters (Unary, Binary, ScalarField and their JVP counterparts) flatten
// the common signatures; anything else is flattened by a small closure in
// the test. Points, Box and Around draw reproducible inputs and directions;
// Run checks a table of Cases, each in a subtest with its own seed; Scaled
// changes variables for functions whose inputs differ widely in magnitude.
//
// A test point must lie away from kinks and branch boundaries of the
// function: finite differences straddling a kink measure an average of two
// one-sided derivatives, and Check reports a mismatch there.
package fdcheck

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// Func is the function under test, flattened: x holds its varied inputs,
// the result everything it produces. Func must not modify x, and must
// return a vector of the same length for every x.
type Func func(x []float64) []float64

// JVP is the derivative under test, flattened like the Func it
// differentiates: it returns J(x)·v, the tangent of f's outputs when x
// moves along v. JVP must not modify x or v.
type JVP func(x, v []float64) []float64

// Default tolerances.
const (
	// DefaultRel is the relative tolerance when Settings.Rel is zero:
	// the accuracy to expect of a central difference (error O(h²) with
	// h ≈ 6e-6) on a well-scaled smooth function.
	DefaultRel = 1e-6
	// DefaultAbs is the absolute floor when Settings.Abs is zero; it lets
	// components that are zero (or nearly) agree.
	DefaultAbs = 1e-9
)

// Settings tunes one check. The zero value (or nil) gives the defaults.
type Settings struct {
	// Rel is the relative tolerance; zero means DefaultRel.
	Rel float64
	// Abs is the absolute floor of the tolerance; zero means DefaultAbs.
	// Use a negative value for no floor at all.
	Abs float64
	// Step is the finite-difference step, relative to max(1, |x|∞), taken
	// along v scaled to |v|∞ = 1; zero means fd.Central's default step.
	Step float64
}

func (s *Settings) rel() float64 {
	if s == nil || s.Rel == 0 {
		return DefaultRel
	}
	return s.Rel
}

func (s *Settings) abs() float64 {
	switch {
	case s == nil || s.Abs == 0:
		return DefaultAbs
	case s.Abs < 0:
		return 0
	}
	return s.Abs
}

func (s *Settings) step() float64 {
	if s == nil || s.Step == 0 {
		return fd.Central.Step
	}
	return s.Step
}

// Directional returns the central-difference approximation of J(x)·v, the
// derivative of t ↦ f(x + t·v) at t = 0, computed with fd.Jacobian and
// Formula fd.Central. step is the step relative to max(1, |x|∞) along v
// scaled to |v|∞ = 1 (zero means fd.Central's default). Directional panics
// if x and v differ in length or f's outputs change length.
func Directional(f Func, x, v []float64, step float64) []float64 {
	d, _ := directional(f, x, v, (&Settings{Step: step}).step())
	return d
}

// directional returns the central difference of f along v and, for each
// component, the largest |f_i| seen at the stencil points divided by the
// step in t (for the round-off estimate).
func directional(f Func, x, v []float64, step float64) (d, scale []float64) {
	if len(x) != len(v) {
		panic(fmt.Sprintf("fdcheck: len(x) = %d, len(v) = %d", len(x), len(v)))
	}
	m := len(f(clone(x)))
	if m == 0 {
		return []float64{}, []float64{}
	}
	vmax := normInf(v)
	if vmax == 0 {
		return make([]float64, m), make([]float64, m)
	}
	h := step * math.Max(1, normInf(x)) / vmax
	scale = make([]float64, m)
	xt := make([]float64, len(x))
	jac := mat.NewDense(m, 1, nil)
	fd.Jacobian(jac, func(y, t []float64) {
		for i := range x {
			xt[i] = x[i] + t[0]*v[i]
		}
		r := f(xt)
		if len(r) != m {
			panic(fmt.Sprintf("fdcheck: f returned %d values at one point and %d at another", m, len(r)))
		}
		copy(y, r)
		for i, ri := range r {
			scale[i] = math.Max(scale[i], math.Abs(ri)/h)
		}
	}, []float64{0}, &fd.JacobianSettings{Formula: fd.Central, Step: h})
	return mat.Col(nil, 0, jac), scale
}

// Mismatch is one component of J(x)·v out of tolerance.
type Mismatch struct {
	Index     int
	Got, Want float64
	Tol       float64
}

func (m Mismatch) String() string {
	return fmt.Sprintf("component %d: got %.17g, want %.17g (|got-want| = %.3g > tol %.3g)",
		m.Index, m.Got, m.Want, math.Abs(m.Got-m.Want), m.Tol)
}

// Error reports a failed check: where it was made and what disagreed.
type Error struct {
	X, V []float64
	// Msg describes a problem that is not a component mismatch (lengths,
	// modified inputs, non-finite differences); "" otherwise.
	Msg        string
	Mismatches []Mismatch
}

func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("fdcheck: J(x)·v")
	if e.Msg != "" {
		sb.WriteString(": " + e.Msg)
	}
	for _, m := range e.Mismatches {
		sb.WriteString("\n\t" + m.String())
	}
	fmt.Fprintf(&sb, "\n\tat x = %s\n\talong v = %s", short(e.X), short(e.V))
	return sb.String()
}

// Check compares jvp(x, v) with the central difference of f along v at x.
// It returns nil when every component agrees within tolerance (see the
// package comment), and otherwise an *Error naming each component out of
// tolerance with what was got, what was wanted, and the tolerance. It also
// fails when jvp modifies x or v, returns a vector of the wrong length, or
// when the finite difference is not finite (a point where f is undefined).
func Check(f Func, jvp JVP, x, v []float64, s *Settings) error {
	fail := func(format string, args ...any) error {
		return &Error{X: clone(x), V: clone(v), Msg: fmt.Sprintf(format, args...)}
	}
	if len(x) != len(v) {
		return fail("len(x) = %d but len(v) = %d", len(x), len(v))
	}
	want, scale := directional(f, x, v, s.step())
	xc, vc := clone(x), clone(v)
	got := jvp(xc, vc)
	if !equal(xc, x) {
		return fail("jvp modified x: %s", short(xc))
	}
	if !equal(vc, v) {
		return fail("jvp modified v: %s", short(vc))
	}
	if len(got) != len(want) {
		return fail("jvp returned %d components, f has %d", len(got), len(want))
	}
	e := &Error{X: clone(x), V: clone(v)}
	for i := range want {
		if math.IsNaN(want[i]) || math.IsInf(want[i], 0) {
			return fail("finite difference of component %d is %v: f is not smooth (or not defined) near x", i, want[i])
		}
		// Round-off of a central difference: each evaluation is off by a
		// few ulps of |f_i|, divided by the step (in t: 2h).
		noise := 64 * 0x1p-52 * scale[i]
		tol := s.rel()*math.Max(math.Abs(got[i]), math.Abs(want[i])) + s.abs() + noise
		if !(math.Abs(got[i]-want[i]) <= tol) { // NaN fails too.
			e.Mismatches = append(e.Mismatches, Mismatch{Index: i, Got: got[i], Want: want[i], Tol: tol})
		}
	}
	if len(e.Mismatches) > 0 {
		return e
	}
	return nil
}

func clone(x []float64) []float64 { return append([]float64(nil), x...) }

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

func normInf(x []float64) float64 {
	m := 0.0
	for _, xi := range x {
		m = math.Max(m, math.Abs(xi))
	}
	return m
}

// short formats a vector, eliding the middle of long ones.
func short(x []float64) string {
	const max = 8
	if len(x) <= max {
		return fmt.Sprint(x)
	}
	return fmt.Sprintf("%v … %v (len %d)", strings.TrimSuffix(fmt.Sprint(x[:max/2]), "]"), strings.TrimPrefix(fmt.Sprint(x[len(x)-max/2:]), "["), len(x))
}
