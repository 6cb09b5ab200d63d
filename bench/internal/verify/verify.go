// Package verify checks derivatives for gadgen's benchmarks before they are
// timed, and in the benchmark packages' tests.
//
// Four oracles, from the most to the least independent:
//
//   - FDGradient compares a gradient with gonum's fd.Gradient (central
//     differences), component by component: only for small inputs, since it
//     costs 2n evaluations of the function.
//   - Directional compares g·v with the central difference of f along v
//     (fd.Derivative, fd.Central): two evaluations, so it works at any size.
//   - HVP compares a Hessian-vector product with the central difference of
//     a trusted gradient along v: two gradients.
//   - Dot compares a directional derivative (a JVP) with g·v for a trusted
//     gradient g, and Same one gradient with another, both to about 1e-10.
//
// Each returns nil or an error saying what disagreed, where, by how much
// and against which tolerance. Tolerances are per call: a relative part, and
// an absolute floor at the level of the rounding errors of the quantity
// compared (noted at each function).
package verify

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/diff/fd"
)

// eps is the unit round-off of float64.
const eps = 0x1p-53

// Tol is a tolerance: |got − want| ≤ Rel·max(|got|, |want|) + floor + Abs,
// with the floor as each check defines it.
type Tol struct {
	Rel float64
	// Abs is an absolute floor added to the check's own, for quantities
	// that are zero by cancellation of terms larger than the floor sees.
	Abs float64
}

// Default relative tolerances.
var (
	// FD is the accuracy of a central difference (error O(h²) with
	// h ≈ 6e-6) on a well-scaled smooth function.
	FD = Tol{Rel: 1e-6}
	// Exact is the agreement of two derivatives computed exactly (up to
	// rounding) in different orders: forward vs reverse, generated vs hand.
	Exact = Tol{Rel: 1e-10}
)

// FDGradient compares the gradient g of f at x with fd.Gradient's central
// differences. The floor of component i is tol.Rel·‖g‖∞ (so that
// components that are zero, or nearly, agree) plus the round-off of the
// difference quotient, 64 ulps of |f(x)| divided by the step.
func FDGradient(f func([]float64) float64, x, g []float64, tol Tol) error {
	if len(g) != len(x) {
		return fmt.Errorf("gradient has length %d, x has %d", len(g), len(x))
	}
	want := fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central})
	floor := tol.Rel*normInf(g) + noise(f(x), fd.Central.Step)
	for i := range want {
		if err := compare(fmt.Sprintf("component %d of the gradient", i), g[i], want[i], tol.Rel, floor+tol.Abs); err != nil {
			return fmt.Errorf("%w (central differences, fd.Gradient)", err)
		}
	}
	return nil
}

// Directional compares g·v with the central difference of f along v at x,
// with the step of the function step. The floor is tol.Rel·Σ|g_i·v_i| plus the round-off of the
// difference quotient.
func Directional(f func([]float64) float64, x, g, v []float64, tol Tol) error {
	if len(g) != len(x) || len(v) != len(x) {
		return fmt.Errorf("lengths differ: x %d, g %d, v %d", len(x), len(g), len(v))
	}
	h := step(x, v)
	if h == 0 {
		return nil
	}
	xt := make([]float64, len(x))
	fmax := 0.0
	ft := func(t float64) float64 {
		for i := range x {
			xt[i] = x[i] + t*v[i]
		}
		y := f(xt)
		fmax = math.Max(fmax, math.Abs(y))
		return y
	}
	want := fd.Derivative(ft, 0, &fd.Settings{Formula: fd.Central, Step: h})
	got, mag := dot(g, v)
	floor := tol.Rel*mag + noise(fmax, h)
	if err := compare("g·v", got, want, tol.Rel, floor+tol.Abs); err != nil {
		return fmt.Errorf("%w (central difference along v)", err)
	}
	return nil
}

// HVP compares the Hessian-vector product hv at x along v with the central
// difference of the gradient grad (FGrad's convention: it adds the
// gradient to its second argument) along v, with the step of Directional;
// when v is zero, hv must be.
// The floor of each component is tol.Rel·‖hv‖∞ plus the round-off of the
// difference quotient of the gradient, 64 ulps of ‖g‖∞ over the step.
func HVP(grad func(x, g []float64) float64, x, v, hv []float64, tol Tol) error {
	if len(v) != len(x) || len(hv) != len(x) {
		return fmt.Errorf("lengths differ: x %d, v %d, hv %d", len(x), len(v), len(hv))
	}
	h := step(x, v)
	if h == 0 {
		return Same(hv, make([]float64, len(hv)), tol)
	}
	at := func(t float64) []float64 {
		xt := make([]float64, len(x))
		for i := range x {
			xt[i] = x[i] + t*v[i]
		}
		g := make([]float64, len(x))
		grad(xt, g)
		return g
	}
	gp, gm := at(h), at(-h)
	floor := tol.Rel*normInf(hv) + noise(math.Max(normInf(gp), normInf(gm)), h)
	for i := range hv {
		want := (gp[i] - gm[i]) / (2 * h)
		if err := compare(fmt.Sprintf("component %d of the Hessian-vector product", i), hv[i], want, tol.Rel, floor+tol.Abs); err != nil {
			return fmt.Errorf("%w (central difference of the gradient along v)", err)
		}
	}
	return nil
}

// step returns the step of a central difference at x along v: fd.Central's,
// relative to max(1, ‖x‖∞) along v scaled to ‖v‖∞ = 1; 0 when v is 0.
func step(x, v []float64) float64 {
	vmax := normInf(v)
	if vmax == 0 {
		return 0
	}
	return fd.Central.Step * math.Max(1, normInf(x)) / vmax
}

// Dot compares the directional derivative df with g·v, for a trusted
// gradient g. The floor is 1e3 ulps of Σ|g_i·v_i|: the rounding of a sum of
// that magnitude, whatever the order it is computed in.
func Dot(df float64, g, v []float64, tol Tol) error {
	if len(g) != len(v) {
		return fmt.Errorf("lengths differ: g %d, v %d", len(g), len(v))
	}
	want, mag := dot(g, v)
	return compare("directional derivative (against g·v)", df, want, tol.Rel, 1e3*eps*mag+tol.Abs)
}

// Same compares the gradient got with the trusted gradient want, component
// by component. The floor is 1e3 ulps of ‖want‖∞, plus 4·√n ulps of ‖want‖₁:
// a component can carry the rounding of a sum over all n inputs, as in
// logsumexp, where a generated gradient keeps the path through max(x)
// whose terms a hand-written one cancels on paper (1 − Σ softmax = 0).
func Same(got, want []float64, tol Tol) error {
	if len(got) != len(want) {
		return fmt.Errorf("gradient has length %d, want %d", len(got), len(want))
	}
	norm1 := 0.0
	for _, w := range want {
		norm1 += math.Abs(w)
	}
	floor := 1e3*eps*normInf(want) + 4*eps*math.Sqrt(float64(len(want)))*norm1
	for i := range want {
		if err := compare(fmt.Sprintf("component %d of the gradient", i), got[i], want[i], tol.Rel, floor+tol.Abs); err != nil {
			return err
		}
	}
	return nil
}

// Value compares the value a derivative returned with the function's.
func Value(got, want float64, tol Tol) error {
	return compare("value", got, want, tol.Rel, tol.Abs)
}

func compare(what string, got, want, rel, floor float64) error {
	tol := rel*math.Max(math.Abs(got), math.Abs(want)) + floor
	if math.Abs(got-want) <= tol { // NaN fails.
		return nil
	}
	return fmt.Errorf("%s: got %.17g, want %.17g (|got-want| = %.3g > tol %.3g)",
		what, got, want, math.Abs(got-want), tol)
}

// noise is the round-off of a central difference with step h of a function
// of magnitude f: a few ulps of f, divided by the step.
func noise(f, h float64) float64 { return 64 * 2 * eps * math.Abs(f) / h }

// dot returns Σ a_i·b_i and Σ |a_i·b_i|.
func dot(a, b []float64) (s, mag float64) {
	for i := range a {
		p := a[i] * b[i]
		s += p
		mag += math.Abs(p)
	}
	return s, mag
}

func normInf(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}
