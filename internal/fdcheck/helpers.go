package fdcheck

// This file defines what tests use around Check: reproducible points and
// directions, reporting on a testing.TB, and adapters that flatten common
// signatures into Func and JVP.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/gadtest"
)

// Point is where a check is made: an input x and a direction v.
type Point struct {
	X, V []float64
}

// Gen draws one Point.
type Gen func(r *rand.Rand) Point

// NewRand returns a generator seeded with seed, the same on every run.
func NewRand(seed uint64) *rand.Rand { return gadtest.NewRand(seed) }

// Points returns n points drawn by gen from NewRand(seed).
func Points(seed uint64, n int, gen Gen) []Point {
	r := NewRand(seed)
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = gen(r)
	}
	return pts
}

// Uniform returns n values drawn uniformly from [lo, hi).
func Uniform(r *rand.Rand, n int, lo, hi float64) []float64 { return gadtest.Uniform(r, n, lo, hi) }

// Direction returns a direction of n components drawn uniformly from
// [-1, 1).
func Direction(r *rand.Rand, n int) []float64 { return gadtest.Direction(r, n) }

// Box returns a Gen of points uniform in [lo, hi)ⁿ with a random Direction.
func Box(n int, lo, hi float64) Gen {
	d := gadtest.Box(n, lo, hi)
	return func(r *rand.Rand) Point { return Point{X: d(r), V: Direction(r, n)} }
}

// Around returns a Gen of points center + δ with δ uniform in
// [-radius, radius)ⁿ, each component scaled by max(1, |center_i|), and a
// random Direction.
func Around(center []float64, radius float64) Gen {
	d := gadtest.Around(center, radius)
	return func(r *rand.Rand) Point { return Point{X: d(r), V: Direction(r, len(center))} }
}

// Test runs Check at every point and reports each failure on tb, naming
// the point. A panic in f or jvp is reported as a failure at its point.
// No points at all is a failure: a check of nothing would pass.
func Test(tb testing.TB, f Func, jvp JVP, pts []Point, s *Settings) {
	tb.Helper()
	if len(pts) == 0 {
		tb.Fatalf("fdcheck: no points to check at")
	}
	for i, p := range pts {
		if err := Check(f, jvp, p.X, p.V, s); err != nil {
			tb.Errorf("point %d: %v", i, err)
		}
	}
}

// Random runs Check at n points drawn by gen from NewRand(seed).
func Random(tb testing.TB, seed uint64, n int, gen Gen, f Func, jvp JVP, s *Settings) {
	tb.Helper()
	Test(tb, f, jvp, Points(seed, n, gen), s)
}

// Close reports on tb each component of got that differs from want by more
// than rel·max(|got_i|, |want_i|) (plus DefaultAbs) (gadtest.Close).
func Close(tb testing.TB, what string, got, want []float64, rel float64) {
	tb.Helper()
	gadtest.Close(tb, what, got, want, rel)
}

// Dot returns Σ a_i·b_i: the directional derivative ∇f(x)·v from a
// hand-written gradient.
func Dot(a, b []float64) float64 { return gadtest.Dot(a, b) }

// Unary flattens a function of one float64.
func Unary(f func(x float64) float64) Func {
	return func(x []float64) []float64 { return []float64{f(x[0])} }
}

// UnaryJVP flattens the JVP of a function of one float64, as gadgen
// generates it: func FJVP(x, dx float64) (float64, float64).
func UnaryJVP(j func(x, dx float64) (float64, float64)) JVP {
	return func(x, v []float64) []float64 {
		_, d := j(x[0], v[0])
		return []float64{d}
	}
}

// Binary flattens a function of two float64s: x = [a, b].
func Binary(f func(a, b float64) float64) Func {
	return func(x []float64) []float64 { return []float64{f(x[0], x[1])} }
}

// BinaryJVP flattens func FJVP(a, da, b, db float64) (float64, float64).
func BinaryJVP(j func(a, da, b, db float64) (float64, float64)) JVP {
	return func(x, v []float64) []float64 {
		_, d := j(x[0], v[0], x[1], v[1])
		return []float64{d}
	}
}

// ScalarField flattens a function ℝⁿ → ℝ taking a slice.
func ScalarField(f func(x []float64) float64) Func { return gadtest.Scalar(f) }

// ScalarFieldJVP flattens func FJVP(x, dx []float64) (float64, float64).
func ScalarFieldJVP(j func(x, dx []float64) (float64, float64)) JVP {
	return func(x, v []float64) []float64 {
		_, d := j(x, v)
		return []float64{d}
	}
}

// Scaled changes variables to x = s⊙u (componentwise) so that a function
// whose inputs differ widely in magnitude (x0 ≈ 1e6, x1 ≈ 1e-6) is checked
// in coordinates u of order one: finite differences take one step for all
// components of x, which is too large for the small ones or too small for
// the large ones. Points are then given in u: use Around(u0, r) with
// u0 = x0 ⊘ s. The returned Func is u ↦ f(s⊙u) and the JVP is
// (u, w) ↦ jvp(s⊙u, s⊙w), its exact derivative along w.
func Scaled(f Func, jvp JVP, s []float64) (Func, JVP) {
	mul := func(u []float64) []float64 {
		if len(u) != len(s) {
			panic(fmt.Sprintf("fdcheck: Scaled: len(u) = %d, len(s) = %d", len(u), len(s)))
		}
		x := make([]float64, len(u))
		for i := range u {
			x[i] = s[i] * u[i]
		}
		return x
	}
	return func(u []float64) []float64 { return f(mul(u)) },
		func(u, w []float64) []float64 { return jvp(mul(u), mul(w)) }
}

// Case is one row of a table-driven JVP test.
type Case struct {
	Name string
	F    Func
	JVP  JVP
	// Gen draws the points; N is how many (zero means 8).
	Gen Gen
	N   int
	// Settings are the case's tolerances (nil: the defaults).
	Settings *Settings
}

// Run checks each case in its own subtest, at points drawn from a
// generator seeded by the case's name, so that adding a case does not move
// the points of the others. An empty table is a failure.
func Run(t *testing.T, cases []Case) {
	t.Helper()
	if len(cases) == 0 {
		t.Fatal("fdcheck: no cases to check")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Helper()
			n := c.N
			if n == 0 {
				n = 8
			}
			Random(t, Seed(c.Name), n, c.Gen, c.F, c.JVP, c.Settings)
		})
	}
}

// Seed derives a seed from a name (FNV-1a).
func Seed(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return h
}
