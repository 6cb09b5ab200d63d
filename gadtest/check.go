package gadtest

// This file defines the checks at one point: CheckJVP, CheckVJP and
// CheckDot, the central differences they compare with, and the Error they
// return. The functions taking a TB (gadtest.go) run them at many points.

import (
	"fmt"
	"math"
	"runtime/debug"
	"strings"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// Func is a function under test, flattened: x holds its varied inputs,
// the result everything it produces (results and values written into
// output slices), as one vector. Func must not modify x and must return a
// vector of the same length at every x.
type Func func(x []float64) []float64

// JVPFunc is a forward-mode derivative, flattened like the Func it
// differentiates: it returns y = f(x) and dy = J(x)·v, the tangent of f's
// outputs when x moves along v. It may return a nil y when it does not
// compute the value; y is then not compared with f(x). JVPFunc must not
// modify x or v.
type JVPFunc func(x, v []float64) (y, dy []float64)

// VJPFunc is a reverse-mode derivative, flattened like the Func it
// differentiates: it adds Jᵀ(x)·w to xBar (it accumulates: the caller
// zeroes xBar, len(xBar) = len(x)) and returns y = f(x), or nil when it does not
// compute the value. w, the seed, has one element per output of f.
// VJPFunc must not modify x or w.
type VJPFunc func(x, w, xBar []float64) (y []float64)

// Default tolerances.
const (
	// DefaultRel is the relative tolerance of a comparison with central
	// differences when Settings.Rel is zero: the accuracy to expect of a
	// central difference (error O(h²) with h ≈ 6e-6) on a well-scaled
	// smooth function.
	DefaultRel = 1e-6
	// DefaultAbs is the absolute floor when Settings.Abs is zero; it lets
	// components that are zero (or nearly) agree.
	DefaultAbs = 1e-9
	// DefaultDotRel is the relative tolerance of the dot-product test
	// when Settings.Rel is zero. Both sides are computed by derivative
	// code, so they agree up to round-off.
	DefaultDotRel = 1e-10
	// DefaultPrimalRel is the relative tolerance with which the value
	// that a derivative returns must agree with f(x) when
	// Settings.PrimalRel is zero.
	DefaultPrimalRel = 1e-12
)

// Settings tunes one check. The zero value (or nil) gives the defaults.
//
// A component agrees when
//
//	|got − want| ≤ Rel·scale + Abs + noise
//
// where scale is max(|got|, |want|) (for a sum such as (Jᵀ·w)_i, the sum of
// the magnitudes of its terms when that is larger) and noise estimates the
// round-off of the difference quotient: a few ulps of f divided by the
// step.
type Settings struct {
	// Rel is the relative tolerance; zero means DefaultRel (DefaultDotRel
	// in the dot-product test).
	Rel float64
	// Abs is the absolute floor of the tolerance; zero means DefaultAbs.
	// Use a negative value for no floor at all.
	Abs float64
	// Step is the finite-difference step, relative to the size of x;
	// zero means fd.Central's default (about 6e-6). Along a direction v,
	// the step in x is Step·max(1, |x|∞) along v scaled to |v|∞ = 1;
	// along the i-th unit vector (the partial derivatives of a gradient
	// or a VJP), it is Step·max(1, |x_i|).
	Step float64
	// PrimalRel is the relative tolerance with which the value returned
	// by a JVP, VJP or gradient must agree with f(x); zero means
	// DefaultPrimalRel. Use a negative value to skip the comparison.
	PrimalRel float64

	// ulp is the unit round-off of the function's values in the noise
	// estimate: float64's (zero), or float32's in the tensor checks of
	// float32 tensors.
	ulp float64
}

// float32Defaults sets what s leaves unset to the defaults of float32,
// and counts round-off in float32's ulps.
func (s *Settings) float32Defaults() {
	s.ulp = 0x1p-23
	if s.Step == 0 {
		s.Step = DefaultStep32
	}
	if s.Abs == 0 {
		s.Abs = DefaultAbs32
	}
	if s.PrimalRel == 0 {
		s.PrimalRel = DefaultPrimalRel32
	}
}

// rel returns the relative tolerance: the settings', or def, float64's
// default of the check, or float32's counterpart of def when s counts
// round-off in float32.
func (s *Settings) rel(def float64) float64 {
	switch {
	case s == nil:
		return def
	case s.Rel != 0:
		return s.Rel
	case s.ulp != 0:
		return rel32(def)
	}
	return def
}

// rel32 returns float32's default relative tolerance for the check whose
// float64 default is def.
func rel32(def float64) float64 {
	switch def {
	case DefaultDotRel:
		return DefaultDotRel32
	case DefaultRel:
		return DefaultRel32
	}
	return max(def, DefaultRel32)
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

func (s *Settings) primalRel() float64 {
	if s == nil || s.PrimalRel == 0 {
		return DefaultPrimalRel
	}
	return s.PrimalRel
}

// tol returns the tolerance of a comparison at the given scale, with
// round-off noise (in units of f divided by the step).
func (s *Settings) tol(rel, scale, noise float64) float64 {
	if s != nil && s.ulp != 0 {
		// float32: a few ulps of f (a float64 bound of 64 ulps would
		// drown the derivative in the longer step's noise).
		return rel*scale + s.abs() + 16*s.ulp*noise
	}
	return rel*scale + s.abs() + 64*0x1p-52*noise
}

// Directional returns the central-difference approximation of J(x)·v, the
// derivative of t ↦ f(x + t·v) at t = 0: the checks' oracle. It is computed
// with fd.Jacobian and Formula fd.Central at steps h and 2h, combined by
// Richardson extrapolation (error O(h⁴)). step is the step relative to max(1, |x|∞) along v
// scaled to |v|∞ = 1 (zero means fd.Central's default). Directional panics
// if x and v differ in length or f's outputs change length.
func Directional(f Func, x, v []float64, step float64) []float64 {
	if len(x) != len(v) {
		panic(fmt.Sprintf("gadtest: Directional: len(x) = %d, len(v) = %d", len(x), len(v)))
	}
	fx := f(clone(x))
	d, _ := central(f, x, v, alongStep(x, v, (&Settings{Step: step}).step()), len(fx))
	return d
}

// alongStep returns the step in t for a difference along v: step·max(1,
// |x|∞)/|v|∞, or 0 for v = 0.
func alongStep(x, v []float64, step float64) float64 {
	vmax := normInf(v)
	if vmax == 0 {
		return 0
	}
	return step * math.Max(1, normInf(x)) / vmax
}

// central returns the derivative of f (with m outputs) along v from
// central differences with steps h and 2h in t, combined by Richardson
// extrapolation: (4·D(h) − D(2h))/3 cancels the h² term of the error of a
// central difference, leaving O(h⁴), so that the oracle is accurate even
// where a derivative is zero and a third derivative large (at a minimum).
// It also returns, for each output, the largest |f_i| seen at the stencil
// points divided by h, for the round-off estimate. h = 0 gives zeros.
func central(f Func, x, v []float64, h float64, m int) (d, noise []float64) {
	if m == 0 || h == 0 {
		return make([]float64, m), make([]float64, m)
	}
	noise = make([]float64, m)
	xt := make([]float64, len(x))
	jac := mat.NewDense(m, 1, nil)
	diff := func(step float64) []float64 {
		fd.Jacobian(jac, func(y, t []float64) {
			for i := range x {
				xt[i] = x[i] + t[0]*v[i]
			}
			r := f(xt)
			if len(r) != m {
				panic(fmt.Sprintf("gadtest: f returned %d values at one point and %d at another", m, len(r)))
			}
			copy(y, r)
			for i, ri := range r {
				noise[i] = math.Max(noise[i], math.Abs(ri)/h)
			}
		}, []float64{0}, &fd.JacobianSettings{Formula: fd.Central, Step: step})
		return mat.Col(nil, 0, jac)
	}
	d, d2 := diff(h), diff(2*h)
	for i := range d {
		d[i] = (4*d[i] - d2[i]) / 3
	}
	return d, noise
}

// partial returns the central difference of f along the i-th unit vector,
// with step Step·max(1, |x_i|), and its noise.
func partial(f Func, x []float64, i int, s *Settings, m int) (d, noise []float64) {
	e := make([]float64, len(x))
	e[i] = 1
	return central(f, x, e, s.step()*math.Max(1, math.Abs(x[i])), m)
}

// Mismatch is one compared value out of tolerance.
type Mismatch struct {
	// Name says what was compared: "component 1 of J·v", "∂f/∂x[3]",
	// "∂f[0]/∂x[2]", "f(x)".
	Name string
	// Index is the component's index in the compared vector (for a
	// partial derivative ∂f[j]/∂x[i], i).
	Index     int
	Got, Want float64
	Tol       float64
}

func (m Mismatch) String() string {
	return fmt.Sprintf("%s: got %.17g, want %.17g (|got-want| = %.3g > tol %.3g)",
		m.Name, m.Got, m.Want, math.Abs(m.Got-m.Want), m.Tol)
}

// maxPartials is how many partial derivatives Error.Error lists, and
// maxMismatches how many mismatches.
const (
	maxPartials   = 10
	maxMismatches = 20
)

// Error reports a failed check: what was checked, where, and what
// disagreed.
type Error struct {
	// What names the checked quantity: "J(x)·v", "∇f(x)", "Jᵀ(x)·w",
	// "⟨J·v, w⟩ = ⟨v, Jᵀ·w⟩".
	What string
	// X is the point; V the direction (nil for a gradient or a VJP), W
	// the seed of a VJP (nil for a JVP or a gradient).
	X, V, W []float64
	// Msg describes a problem that is not a component mismatch (lengths,
	// modified inputs, non-finite differences, a panic); "" otherwise.
	Msg string
	// Mismatches are the components out of tolerance.
	Mismatches []Mismatch
	// Partials are, when a JVP disagrees along v (or the dot-product test
	// fails), the entries of the Jacobian found wrong along each unit
	// vector: they say which partial derivatives are wrong.
	Partials []Mismatch
	// Stack is the stack of a panic in the function or its derivative.
	Stack string
	// Point describes the point of a check of tensors (its parts and
	// their shapes), whose X, V and W are nil.
	Point string
}

func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("gadtest: " + e.What)
	if e.Msg != "" {
		sb.WriteString(": " + e.Msg)
	}
	for i, m := range e.Mismatches {
		if i == maxMismatches {
			fmt.Fprintf(&sb, "\n\t… and %d more", len(e.Mismatches)-maxMismatches)
			break
		}
		sb.WriteString("\n\t" + m.String())
	}
	if len(e.Partials) > 0 && e.Point != "" {
		sb.WriteString("\n\twrong along these parts of x alone:")
	} else if len(e.Partials) > 0 {
		sb.WriteString("\n\twrong partial derivatives (along each unit vector):")
	}
	if len(e.Partials) > 0 {
		for i, m := range e.Partials {
			if i == maxPartials {
				fmt.Fprintf(&sb, "\n\t… and %d more", len(e.Partials)-maxPartials)
				break
			}
			sb.WriteString("\n\t" + m.String())
		}
	}
	if e.Point != "" {
		sb.WriteString("\n\t" + e.Point)
	} else {
		fmt.Fprintf(&sb, "\n\tat x = %s", short(e.X))
	}
	if e.V != nil {
		fmt.Fprintf(&sb, "\n\talong v = %s", short(e.V))
	}
	if e.W != nil {
		fmt.Fprintf(&sb, "\n\twith w = %s", short(e.W))
	}
	if e.Stack != "" {
		sb.WriteString("\n\t" + strings.ReplaceAll(strings.TrimSpace(e.Stack), "\n", "\n\t"))
	}
	return sb.String()
}

func (e *Error) fail(format string, args ...any) *Error {
	e.Msg = fmt.Sprintf(format, args...)
	return e
}

// result returns e as an error, or nil when it reports nothing.
func (e *Error) result() error {
	if e.Msg == "" && len(e.Mismatches) == 0 {
		return nil
	}
	return e
}

// catch turns a panic into the Error *err (set to e), so that one bad
// point does not hide the others. A runtime.Goexit (t.Fatal in f) is let
// through.
func catch(err *error, e *Error) {
	if r := recover(); r != nil {
		e.Msg = fmt.Sprintf("panic: %v", r)
		if strings.Contains(e.Msg, "index out of range") || strings.Contains(e.Msg, "slice bounds out of range") {
			e.Msg += fmt.Sprintf(" (at a point of %d inputs: if the function needs more, check it at longer inputs: gadtest.Dim, or test=N in a gadgen directive)", len(e.X))
		}
		e.Stack = string(debug.Stack())
		*err = e
	}
}

// compare appends to e a mismatch for each component of got out of
// tolerance against want. name names component i.
func (e *Error) compare(name func(i int) string, got, want []float64, tol func(i int) float64) {
	for i := range want {
		t := tol(i)
		if !(math.Abs(got[i]-want[i]) <= t) { // NaN fails too.
			e.Mismatches = append(e.Mismatches, Mismatch{Name: name(i), Index: i, Got: got[i], Want: want[i], Tol: t})
		}
	}
}

// primal compares the value y that a derivative returned with f(x).
func (e *Error) primal(y, fx []float64, s *Settings, scalar bool, who string) {
	rel := s.primalRel()
	if y == nil || rel < 0 {
		return
	}
	if len(y) != len(fx) {
		e.fail("%s returned %d values, f has %d", who, len(y), len(fx))
		return
	}
	e.compare(func(i int) string {
		if scalar {
			return "f(x)"
		}
		return fmt.Sprintf("component %d of f(x)", i)
	}, y, fx, func(i int) float64 {
		return s.tol(rel, math.Max(math.Abs(y[i]), math.Abs(fx[i])), 0)
	})
}

// CheckJVP compares jvp(x, v) with the central difference of f along v at
// x, component by component (see Settings), and the value jvp returns with
// f(x). It returns nil when all agree, and otherwise an *Error naming each
// component out of tolerance with what was got, what was wanted and the
// tolerance, and the partial derivatives found wrong along each unit
// vector. It also fails when jvp modifies x or v or returns a vector of
// the wrong length, when the finite difference is not finite (a point
// where f is undefined), when f or jvp panics, and when x or f's outputs
// are empty (a check of nothing would pass).
func CheckJVP(f Func, jvp JVPFunc, x, v []float64, s *Settings) error {
	return checkJVP(f, jvp, x, v, s, false)
}

// checkJVP is CheckJVP; scalar names the components of a function with one
// output (∇f(x)·v rather than component 0 of J·v).
func checkJVP(f Func, jvp JVPFunc, x, v []float64, s *Settings, scalar bool) (err error) {
	e := &Error{What: "J(x)·v", X: clone(x), V: clone(v)}
	defer catch(&err, e)
	if len(x) != len(v) {
		return e.fail("len(x) = %d but len(v) = %d", len(x), len(v))
	}
	if len(x) == 0 {
		return e.fail("no inputs: there is no derivative to check")
	}
	fx := f(clone(x))
	if len(fx) == 0 {
		return e.fail("f has no outputs: there is no derivative to check")
	}
	want, noise := central(f, x, v, alongStep(x, v, s.step()), len(fx))
	xc, vc := clone(x), clone(v)
	y, got := jvp(xc, vc)
	if !equal(xc, x) {
		return e.fail("jvp modified x: %s", short(xc))
	}
	if !equal(vc, v) {
		return e.fail("jvp modified v: %s", short(vc))
	}
	if len(got) != len(want) {
		return e.fail("jvp returned %d components, f has %d", len(got), len(want))
	}
	for i, w := range want {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return e.fail("finite difference of component %d is %v: f is not smooth (or not defined) near x", i, w)
		}
	}
	e.compare(func(i int) string {
		if scalar {
			return "∇f(x)·v"
		}
		return fmt.Sprintf("component %d of J·v", i)
	}, got, want, func(i int) float64 {
		return s.tol(s.rel(DefaultRel), math.Max(math.Abs(got[i]), math.Abs(want[i])), noise[i])
	})
	if len(e.Mismatches) > 0 {
		e.Partials = wrongPartials(f, jvp, x, s, len(want), scalar)
	}
	e.primal(y, fx, s, scalar, "jvp")
	return e.result()
}

// wrongPartials compares jvp along each unit vector with the central
// difference there and returns the entries ∂f[j]/∂x[i] out of tolerance.
// It is a diagnosis: a panic along one unit vector skips that vector.
func wrongPartials(f Func, jvp JVPFunc, x []float64, s *Settings, m int, scalar bool) []Mismatch {
	var out []Mismatch
	for i := range x {
		func() {
			defer func() { _ = recover() }()
			want, noise := partial(f, x, i, s, m)
			e := make([]float64, len(x))
			e[i] = 1
			_, got := jvp(clone(x), e)
			if len(got) != m {
				return
			}
			for j := range want {
				t := s.tol(s.rel(DefaultRel), math.Max(math.Abs(got[j]), math.Abs(want[j])), noise[j])
				if !(math.Abs(got[j]-want[j]) <= t) {
					out = append(out, Mismatch{Name: partialName(j, i, scalar), Index: i, Got: got[j], Want: want[j], Tol: t})
				}
			}
		}()
	}
	return out
}

func partialName(j, i int, scalar bool) string {
	if scalar {
		return fmt.Sprintf("∂f/∂x[%d]", i)
	}
	return fmt.Sprintf("∂f[%d]/∂x[%d]", j, i)
}

// vjpKind says which shape of reverse-mode derivative is checked, for the
// names in messages and the shadow convention.
type vjpKind int

const (
	vjpVector    vjpKind = iota // VJPFunc: accumulates Jᵀ·w into dx
	vjpGrad                     // a gradient: accumulates ∂f/∂x into dx
	vjpGonumGrad                // a gonum gradient: overwrites grad
)

// CheckVJP compares the Jᵀ(x)·w that vjp adds to a zeroed dx with the
// central differences of ⟨w, f⟩ along each unit vector, component by
// component (see Settings), and the value vjp returns with f(x). It then
// calls vjp again with a nonzero dx and checks that it adds to it rather
// than overwriting it. It returns nil when all agree, and otherwise an
// *Error naming each component out of tolerance. It also fails when vjp
// modifies x or w, when len(w) is not the number of outputs of f, when a
// finite difference is not finite, when f or vjp panics, and when x or f's
// outputs are empty.
func CheckVJP(f Func, vjp VJPFunc, x, w []float64, s *Settings) error {
	return checkVJP(f, vjp, x, w, s, vjpVector)
}

func checkVJP(f Func, vjp VJPFunc, x, w []float64, s *Settings, kind vjpKind) (err error) {
	e := &Error{What: "Jᵀ(x)·w", X: clone(x), W: clone(w)}
	name := func(i int) string { return fmt.Sprintf("component %d of Jᵀ·w", i) }
	who := "vjp"
	if kind != vjpVector {
		e.What, e.W = "∇f(x)", nil
		name = func(i int) string { return fmt.Sprintf("∂f/∂x[%d]", i) }
		who = "grad"
	}
	defer catch(&err, e)
	if len(x) == 0 {
		return e.fail("no inputs: there is no derivative to check")
	}
	fx := f(clone(x))
	if len(fx) == 0 {
		return e.fail("f has no outputs: there is no derivative to check")
	}
	if len(w) != len(fx) {
		return e.fail("len(w) = %d but f has %d outputs", len(w), len(fx))
	}
	n := len(x)
	dx := make([]float64, n)
	if kind == vjpGonumGrad {
		for i := range dx {
			dx[i] = math.NaN()
		}
	}
	xc, wc := clone(x), clone(w)
	y := vjp(xc, wc, dx)
	if !equal(xc, x) {
		return e.fail("%s modified x: %s", who, short(xc))
	}
	if !equal(wc, w) {
		return e.fail("%s modified w: %s", who, short(wc))
	}
	want, scale, noise := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		d, ns := partial(f, x, i, s, len(fx))
		for j, wj := range w {
			want[i] += wj * d[j]
			scale[i] += math.Abs(wj * d[j])
			noise[i] += math.Abs(wj) * ns[j]
		}
		if math.IsNaN(want[i]) || math.IsInf(want[i], 0) {
			return e.fail("finite difference along x[%d] is %v: f is not smooth (or not defined) near x", i, want[i])
		}
	}
	e.compare(name, dx, want, func(i int) float64 {
		return s.tol(s.rel(DefaultRel), math.Max(scale[i], math.Max(math.Abs(dx[i]), math.Abs(want[i]))), noise[i])
	})
	if kind == vjpGonumGrad {
		for _, m := range e.Mismatches {
			if math.IsNaN(m.Got) {
				e.Msg = "grad was filled with NaN before the call: a gonum gradient must overwrite every element"
				break
			}
		}
	}
	e.primal(y, fx, s, kind != vjpVector, who)
	if e.result() != nil || kind == vjpGonumGrad {
		return e.result()
	}
	// Accumulation: from dx = p, the call must leave p + Jᵀ·w. p_i is
	// of the size of the result, so that overwriting is seen.
	g := dx
	p := make([]float64, n)
	for i := range p {
		p[i] = math.Max(1, math.Abs(g[i])) * float64(1-2*(i%2)) * (1 + float64(i%4)/4)
	}
	acc := clone(p)
	vjp(clone(x), clone(w), acc)
	sum := make([]float64, n)
	for i := range sum {
		sum[i] = p[i] + g[i]
	}
	e.compare(func(i int) string {
		return fmt.Sprintf("dx[%d] (held %g before the call)", i, p[i])
	}, acc, sum, func(i int) float64 {
		return s.tol(s.rel(DefaultRel), math.Abs(p[i])+math.Abs(g[i]), 0)
	})
	if len(e.Mismatches) > 0 {
		e.Msg = fmt.Sprintf("%s must add its result to dx, not overwrite it: called again with nonzero dx, it did not add the result of the call with dx = 0", who)
	}
	return e.result()
}

// CheckDot is the dot-product test of a JVP and a VJP of the same
// function: it checks ⟨J·v, w⟩ = ⟨v, Jᵀ·w⟩ at x, with J·v from jvp and
// Jᵀ·w from vjp (added to a zeroed dx), within
// Rel·max(Σ|(J·v)_j·w_j|, Σ|v_i·(Jᵀ·w)_i|) + Abs, where Rel defaults to
// DefaultDotRel. It also compares the values both return. On failure, the
// *Error lists the entries of J on which jvp (along each unit vector) and
// vjp (seeded with each unit vector) disagree. It also fails when len(w)
// is not the number of outputs, when jvp or vjp panics, and when x or the
// outputs are empty.
func CheckDot(jvp JVPFunc, vjp VJPFunc, x, v, w []float64, s *Settings) error {
	return checkDot(jvp, vjp, x, v, w, s)
}

func checkDot(jvp JVPFunc, vjp VJPFunc, x, v, w []float64, s *Settings) (err error) {
	e := &Error{What: "⟨J·v, w⟩ = ⟨v, Jᵀ·w⟩", X: clone(x), V: clone(v), W: clone(w)}
	defer catch(&err, e)
	if len(x) != len(v) {
		return e.fail("len(x) = %d but len(v) = %d", len(x), len(v))
	}
	if len(x) == 0 {
		return e.fail("no inputs: there is no derivative to check")
	}
	y1, jv := jvp(clone(x), clone(v))
	if len(jv) == 0 {
		return e.fail("jvp returned no components: there is no derivative to check")
	}
	if len(w) != len(jv) {
		return e.fail("len(w) = %d but jvp returned %d components", len(w), len(jv))
	}
	dx := make([]float64, len(x))
	y2 := vjp(clone(x), clone(w), dx)
	lhs, rhs, ls, rs := 0.0, 0.0, 0.0, 0.0
	for j := range jv {
		lhs += jv[j] * w[j]
		ls += math.Abs(jv[j] * w[j])
	}
	for i := range dx {
		rhs += v[i] * dx[i]
		rs += math.Abs(v[i] * dx[i])
	}
	e.compare(func(int) string { return "⟨v, Jᵀ·w⟩ (vjp) against ⟨J·v, w⟩ (jvp)" },
		[]float64{rhs}, []float64{lhs}, func(int) float64 { return s.tol(s.rel(DefaultDotRel), math.Max(ls, rs), 0) })
	if len(e.Mismatches) > 0 {
		e.Partials = disagreeingEntries(jvp, vjp, x, len(jv), s)
	}
	if y1 != nil && y2 != nil {
		e.primal(y2, y1, s, false, "vjp (against jvp)")
	}
	return e.result()
}

// disagreeingEntries builds J column by column with jvp and row by row
// with vjp and returns the entries on which they disagree (got: vjp, want:
// jvp). It is a diagnosis: a panic gives no entries.
func disagreeingEntries(jvp JVPFunc, vjp VJPFunc, x []float64, m int, s *Settings) (out []Mismatch) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	n := len(x)
	cols := make([][]float64, n) // cols[i][j] = ∂f[j]/∂x[i] by jvp
	for i := range n {
		e := make([]float64, n)
		e[i] = 1
		_, cols[i] = jvp(clone(x), e)
		if len(cols[i]) != m {
			return nil
		}
	}
	for j := range m {
		e := make([]float64, m)
		e[j] = 1
		row := make([]float64, n)
		vjp(clone(x), e, row)
		for i := range n {
			got, want := row[i], cols[i][j]
			t := s.tol(s.rel(DefaultDotRel), math.Max(math.Abs(got), math.Abs(want)), 0)
			if !(math.Abs(got-want) <= t) {
				out = append(out, Mismatch{Name: partialName(j, i, m == 1) + " by vjp against jvp", Index: i, Got: got, Want: want, Tol: t})
			}
		}
	}
	return out
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
