package gadtest

// This file defines the checks that tests call: JVP, Grad, GonumGrad,
// VecJVP, VecVJP and DotTest run the checks of check.go at reproducible
// points chosen by Options and report on a TB; and the helpers around
// them.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// TB is the part of testing.TB that gadtest uses; *testing.T, *testing.B
// and *testing.F satisfy it. Another implementation (a recorder) lets a
// test check gadtest's reports.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// An Option chooses the points of a check or its tolerances.
type Option interface {
	apply(*config)
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// A Domain draws an input point x from r; its length is the number of
// inputs. A Domain is an Option: the check draws its points from it. Dim,
// Box and Around make the common ones; any func(*rand.Rand) []float64
// converts to one.
type Domain func(r *rand.Rand) []float64

func (d Domain) apply(c *config) { c.domain, c.at = d, nil }

// Dim is the Domain of n inputs uniform in [-1, 1): Box(n, -1, 1).
func Dim(n int) Domain { return Box(n, -1, 1) }

// Box is the Domain of n inputs uniform in [lo, hi).
func Box(n int, lo, hi float64) Domain {
	return func(r *rand.Rand) []float64 { return Uniform(r, n, lo, hi) }
}

// Around is the Domain of points center + δ with δ_i uniform in
// [-radius, radius)·max(1, |center_i|): a neighbourhood of center,
// relative to the size of each component.
func Around(center []float64, radius float64) Domain {
	center = clone(center)
	return func(r *rand.Rand) []float64 {
		x := make([]float64, len(center))
		for i, c := range center {
			x[i] = c + radius*math.Max(1, math.Abs(c))*(2*r.Float64()-1)
		}
		return x
	}
}

// At checks at the given points instead of random ones (directions and
// seeds are still drawn at random).
func At(x ...[]float64) Option {
	pts := make([][]float64, len(x))
	for i := range x {
		pts[i] = clone(x[i])
	}
	return optionFunc(func(c *config) { c.at, c.domain = pts, nil })
}

// Points sets the number of random points, at least 1; the default is 8.
// In the tensor checks, whose point is given, it sets the number of
// random directions (and seeds) at the point; the default is 3.
func Points(n int) Option { return optionFunc(func(c *config) { c.n, c.nSet = n, true }) }

// Seed sets the seed of the points, directions and seeds drawn; the
// default is 1. The same seed draws the same points on every run.
func Seed(seed uint64) Option { return optionFunc(func(c *config) { c.seed = seed }) }

// Rel sets the relative tolerance (Settings.Rel).
func Rel(rel float64) Option { return optionFunc(func(c *config) { c.s.Rel = rel }) }

// Abs sets the absolute floor of the tolerance (Settings.Abs); negative
// for none.
func Abs(abs float64) Option { return optionFunc(func(c *config) { c.s.Abs = abs }) }

// Step sets the finite-difference step, relative to the size of x
// (Settings.Step).
func Step(step float64) Option { return optionFunc(func(c *config) { c.s.Step = step }) }

// PrimalRel sets the relative tolerance with which the value returned by
// the derivative must agree with f(x) (Settings.PrimalRel); negative to
// skip that comparison.
func PrimalRel(rel float64) Option { return optionFunc(func(c *config) { c.s.PrimalRel = rel }) }

// Float32 makes a check use the defaults of float32 (step and tolerances,
// DefaultRel32, …) even where neither the point nor the result is
// float32: for a function that computes in float32 from float64 inputs,
// whose central differences at float64's step would be its round-off.
// Checks of float32 tensors use them anyway. In the checks of functions
// of []float64 (JVP, Grad, DotTest, …), the relative tolerance is
// DefaultRel32 for each of them.
func Float32() Option { return optionFunc(func(c *config) { c.f32 = true }) }

// With sets all the tolerances at once.
func With(s Settings) Option { return optionFunc(func(c *config) { c.s = s }) }

type config struct {
	domain Domain
	at     [][]float64
	n      int
	nSet   bool // Points was given
	f32    bool // Float32 was given
	seed   uint64
	s      Settings
}

// run draws the points of opts and calls check at each with r (to draw
// directions and seeds) and the settings of opts, reporting each failure
// on tb as "point i: …"; a panic is reported once, at the first point.
// fn names the caller in the report of a misuse.
func run(tb TB, fn string, opts []Option, check func(r *rand.Rand, x []float64, s *Settings) error) {
	tb.Helper()
	c := config{n: 8, seed: 1}
	for _, o := range opts {
		o.apply(&c)
	}
	if c.f32 {
		c.s.float32Defaults()
	}
	if c.domain == nil && c.at == nil {
		tb.Fatalf("gadtest.%s: no points: give Dim(n), Box(n, lo, hi), Around(center, radius), a Domain or At(x...)", fn)
		return
	}
	if c.at == nil && c.n < 1 {
		tb.Fatalf("gadtest.%s: Points(%d): want at least one point", fn, c.n)
		return
	}
	if c.at != nil && len(c.at) == 0 {
		tb.Fatalf("gadtest.%s: At(): no points: a check of nothing passes", fn)
		return
	}
	r := NewRand(c.seed)
	pts := c.at
	if pts == nil {
		pts = make([][]float64, c.n)
	}
	for i := range pts {
		x := pts[i]
		if c.at == nil {
			x = c.domain(r)
		}
		if len(x) == 0 {
			tb.Fatalf("gadtest.%s: point %d has no inputs: there is no derivative to check", fn, i)
			return
		}
		if err := check(r, x, &c.s); err != nil {
			if e, ok := err.(*Error); ok && strings.HasPrefix(e.Msg, "panic: ") {
				// It would panic at the other points too.
				tb.Errorf("point %d: %v", i, err)
				return
			}
			tb.Errorf("point %d: %v", i, err)
		}
	}
}

// JVP checks a forward-mode derivative of f: ℝⁿ → ℝ, in the shape gadgen
// generates for func F(x []float64) float64:
//
//	func FJVP(x, dx []float64) (f, df float64)
//
// At each point x, along a random direction v, it compares df with the
// central difference of f along v, and f with f(x) (see Settings for the
// tolerances). A failure names the point, the values got and wanted, and
// the partial derivatives ∂f/∂x[i] found wrong along each unit vector.
// The points come from opts, which must give a Domain (Dim, Box, Around)
// or At.
func JVP(tb TB, f func(x []float64) float64, jvp func(x, dx []float64) (float64, float64), opts ...Option) {
	tb.Helper()
	ff, fj := Scalar(f), ScalarJVP(jvp)
	run(tb, "JVP", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		return checkJVP(ff, fj, x, Direction(r, len(x)), s, true)
	})
}

// Grad checks a reverse-mode gradient of f: ℝⁿ → ℝ, in the shape gadgen
// generates for func F(x []float64) float64:
//
//	func FGrad(x, xBar []float64) float64
//
// which returns f(x) and adds ∂f/∂x to xBar. At each point x, it compares
// each ∂f/∂x[i] (grad called with xBar = 0) with the central difference
// along the i-th unit vector, the value returned with f(x), and then
// checks that grad adds to a nonzero xBar instead of overwriting it. A
// failure names each wrong ∂f/∂x[i] with the values got and wanted.
func Grad(tb TB, f func(x []float64) float64, grad func(x, xBar []float64) float64, opts ...Option) {
	tb.Helper()
	ff, fg := Scalar(f), ScalarGrad(grad)
	run(tb, "Grad", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		return checkVJP(ff, fg, x, []float64{1}, s, vjpGrad)
	})
}

// GonumGrad checks a gradient of f in the shape of gonum's
// optimize.Problem.Grad, which overwrites grad with ∇f(x):
//
//	func(grad, x []float64)
//
// At each point x, it fills grad with NaN, calls it, and compares each
// grad[i] with the central difference along the i-th unit vector; an
// element left unwritten is reported as NaN.
func GonumGrad(tb TB, f func(x []float64) float64, grad func(grad, x []float64), opts ...Option) {
	tb.Helper()
	ff := Scalar(f)
	fg := func(x, _, dx []float64) []float64 { grad(dx, x); return nil }
	run(tb, "GonumGrad", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		return checkVJP(ff, fg, x, []float64{1}, s, vjpGonumGrad)
	})
}

// VecJVP is JVP for a function with many outputs, flattened (see Func and
// JVPFunc): at each point x, along a random direction v, it runs
// CheckJVP.
func VecJVP(tb TB, f Func, jvp JVPFunc, opts ...Option) {
	tb.Helper()
	run(tb, "VecJVP", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		return CheckJVP(f, jvp, x, Direction(r, len(x)), s)
	})
}

// VecVJP is Grad for a function with many outputs, flattened (see Func
// and VJPFunc): at each point x, with a random seed w, it runs CheckVJP.
func VecVJP(tb TB, f Func, vjp VJPFunc, opts ...Option) {
	tb.Helper()
	run(tb, "VecVJP", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		m := outputs(func() []float64 { return f(clone(x)) })
		return CheckVJP(f, vjp, x, Direction(r, m), s)
	})
}

// DotTest checks a JVP against a VJP of the same function, without finite
// differences: at each point x, with a random direction v and a random
// seed w, it runs CheckDot (⟨J·v, w⟩ = ⟨v, Jᵀ·w⟩). Use ScalarJVP and
// ScalarGrad for the shapes of a function ℝⁿ → ℝ.
func DotTest(tb TB, jvp JVPFunc, vjp VJPFunc, opts ...Option) {
	tb.Helper()
	run(tb, "DotTest", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		v := Direction(r, len(x))
		m := outputs(func() []float64 { _, jv := jvp(clone(x), clone(v)); return jv })
		return CheckDot(jvp, vjp, x, v, Direction(r, m), s)
	})
}

// outputs returns the length of the vector that call returns, or 0 if it
// panics: the check that follows calls it again and reports the panic.
func outputs(call func() []float64) (m int) {
	defer func() {
		if recover() != nil {
			m = 0
		}
	}()
	return len(call())
}

// Scalar flattens f: ℝⁿ → ℝ into a Func.
func Scalar(f func(x []float64) float64) Func {
	return func(x []float64) []float64 { return []float64{f(x)} }
}

// ScalarJVP flattens a JVP of f: ℝⁿ → ℝ, func FJVP(x, dx []float64) (f,
// df float64), into a JVPFunc.
func ScalarJVP(jvp func(x, dx []float64) (float64, float64)) JVPFunc {
	return func(x, v []float64) ([]float64, []float64) {
		y, d := jvp(x, v)
		return []float64{y}, []float64{d}
	}
}

// ScalarGrad flattens a gradient of f: ℝⁿ → ℝ, func FGrad(x, xBar
// []float64) float64 (returns f and adds ∂f/∂x to xBar), into a VJPFunc.
// The VJPFunc panics unless len(w) = 1.
func ScalarGrad(grad func(x, xBar []float64) float64) VJPFunc {
	return func(x, w, dx []float64) []float64 {
		if len(w) != 1 {
			panic(fmt.Sprintf("gadtest: ScalarGrad: len(w) = %d, want 1", len(w)))
		}
		if w[0] == 1 {
			return []float64{grad(x, dx)}
		}
		g := make([]float64, len(dx))
		y := grad(x, g)
		for i := range dx {
			dx[i] += w[0] * g[i]
		}
		return []float64{y}
	}
}

// Close reports on tb each component of got that differs from want by more
// than rel·max(|got_i|, |want_i|) + DefaultAbs, as "what[i]: got …, want
// …". Use it for values that should agree closely: a JVP against a
// hand-written gradient, the value of a derivative against the function's.
func Close(tb TB, what string, got, want []float64, rel float64) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Errorf("%s: got %d values, want %d", what, len(got), len(want))
		return
	}
	for i := range want {
		tol := rel*math.Max(math.Abs(got[i]), math.Abs(want[i])) + DefaultAbs
		if !(math.Abs(got[i]-want[i]) <= tol) {
			tb.Errorf("%s[%d]: got %.17g, want %.17g (|got-want| = %.3g > tol %.3g)",
				what, i, got[i], want[i], math.Abs(got[i]-want[i]), tol)
		}
	}
}

// Dot returns Σ a_i·b_i, for instance ∇f(x)·v from a gradient. It panics
// if a and b differ in length.
func Dot(a, b []float64) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("gadtest: Dot of lengths %d and %d", len(a), len(b)))
	}
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// NewRand returns the generator that the checks draw from, seeded with
// seed: the same on every run.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// Uniform returns n values drawn uniformly from [lo, hi).
func Uniform(r *rand.Rand, n int, lo, hi float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = lo + (hi-lo)*r.Float64()
	}
	return x
}

// Direction returns n values drawn uniformly from [-1, 1): a direction or
// a seed.
func Direction(r *rand.Rand, n int) []float64 {
	return Uniform(r, n, -1, 1)
}
