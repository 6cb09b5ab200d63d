package gadtest

// This file defines the checks of higher-order derivatives: Taylor
// coefficients along lines, Hessians, Hessian-vector products, Hessian
// diagonals and Laplacians, against central finite differences (gonum's
// diff/fd).

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// DefaultHessRel is the relative tolerance of a comparison of second
// derivatives with finite differences when Settings.Rel is zero: second
// differences are less accurate than first ones.
const DefaultHessRel = 1e-5

// hessStep is the step of the second differences: about ε^¼, which
// balances truncation (h²) and round-off (ε/h²) errors; gonum's default
// step, meant for first differences, loses four digits.
const hessStep = 1e-4

// Taylor checks Taylor coefficients of f: ℝⁿ → ℝ along lines. jet(x, v)
// returns the coefficients c₀ … c_K of t ↦ f(x + t·v),
// cₖ = (dᵏ/dtᵏ f(x + t·v))(0)/k!, as gadgen generates them with
// //gad:taylor order=K seed=line. At each point x, along a random
// direction v, it compares c₀ with f(x), c₁ with the central difference
// of f along v, and each c_{k+1} with the central difference of
// s ↦ c_k(x + s·v) divided by k+1 (the derivative of a Taylor
// coefficient along the line is the next one).
func Taylor(tb TB, f func(x []float64) float64, jet func(x, v []float64) []float64, opts ...Option) {
	tb.Helper()
	run(tb, "Taylor", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		return CheckTaylor(f, jet, x, Direction(r, len(x)), s)
	})
}

// CheckTaylor is the check of Taylor at one point x along v.
func CheckTaylor(f func(x []float64) float64, jet func(x, v []float64) []float64, x, v []float64, s *Settings) error {
	if len(x) == 0 {
		return fmt.Errorf("no inputs: there is no derivative to check")
	}
	c := jet(clone(x), clone(v))
	if len(c) < 2 {
		return fmt.Errorf("jet returned %d coefficients, want at least 2", len(c))
	}
	if want := f(clone(x)); !close1(c[0], want, s.primalRel(), 0) {
		return fmt.Errorf("at x = %v: value: got %v, want f(x) = %v", x, c[0], want)
	}
	for k := 0; k+1 < len(c); k++ {
		g := func(y []float64) []float64 {
			if k == 0 {
				return []float64{f(y)}
			}
			return []float64{jet(y, clone(v))[k]}
		}
		want := Directional(g, x, v, s.step())[0] / float64(k+1)
		if !close1(c[k+1], want, s.rel(DefaultRel), s.abs()) {
			return fmt.Errorf("at x = %v along v = %v: coefficient %d: got %v, want %v (finite differences of coefficient %d)",
				x, v, k+1, c[k+1], want, k)
		}
	}
	return nil
}

func close1(got, want, rel, abs float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), math.Abs(got))+abs
}

// hessianFD returns the central finite-difference Hessian of f at x.
func hessianFD(f func(x []float64) float64, x []float64) *mat.SymDense {
	n := len(x)
	h := mat.NewSymDense(n, nil)
	fd.Hessian(h, func(y []float64) float64 { return f(clone(y)) }, x, &fd.Settings{Formula: fd.Central, Step: hessStep})
	return h
}

// fdNoise is the round-off of second differences of f at step hessStep
// where |f| = fx: 16·ε·max(1, |f|)/h².
func fdNoise(fx float64) float64 {
	return 16 * 0x1p-52 * math.Max(1, math.Abs(fx)) / (hessStep * hessStep)
}

// compareMatrix compares got with want entry by entry, relative to the
// largest entry of want, with an absolute floor abs (which should include
// the finite differences' round-off, fdNoise).
func compareMatrix(what string, got []float64, want func(i int) float64, n int, rel, abs float64) error {
	scale := 0.0
	for i := range n {
		scale = math.Max(scale, math.Abs(want(i)))
	}
	var bad []string
	for i := range n {
		if d := math.Abs(got[i] - want(i)); !(d <= rel*scale+abs) { // NaN, got or want, fails
			if len(bad) < 5 {
				bad = append(bad, fmt.Sprintf("%s[%d]: got %v, want %v", what, i, got[i], want(i)))
			} else if len(bad) == 5 {
				bad = append(bad, "…")
			}
		}
	}
	if bad != nil {
		return fmt.Errorf("%v", bad)
	}
	return nil
}

// Hessian checks a dense Hessian of f: ℝⁿ → ℝ in the shape gadgen
// generates with //gad:hessian, hess(x, h) storing ∂²f/∂xᵢ∂xⱼ in
// h[i*n+j] and returning f(x), against gonum's fd.Hessian with central
// differences, entries relative to the largest (DefaultHessRel).
func Hessian(tb TB, f func(x []float64) float64, hess func(x, h []float64) float64, opts ...Option) {
	tb.Helper()
	run(tb, "Hessian", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		n := len(x)
		h := make([]float64, n*n)
		for i := range h {
			h[i] = math.NaN() // every entry must be written
		}
		y := hess(clone(x), h)
		if want := f(clone(x)); !close1(y, want, s.primalRel(), 0) {
			return fmt.Errorf("at x = %v: value: got %v, want %v", x, y, want)
		}
		w := hessianFD(f, x)
		if err := compareMatrix("h", h, func(k int) float64 { return w.At(k/n, k%n) }, n*n, s.rel(DefaultHessRel), s.abs()+fdNoise(y)); err != nil {
			return fmt.Errorf("at x = %v: %v", x, err)
		}
		return nil
	})
}

// HVP checks a Hessian-vector product of f in the shape gadgen generates
// with //gad:hvp, hvp(x, v, hv) storing ∇²f(x)·v in hv and returning
// f(x), against fd.Hessian times v, along random directions v.
func HVP(tb TB, f func(x []float64) float64, hvp func(x, v, hv []float64) float64, opts ...Option) {
	tb.Helper()
	run(tb, "HVP", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		n := len(x)
		v := Direction(r, n)
		hv := make([]float64, n)
		for i := range hv {
			hv[i] = math.NaN()
		}
		y := hvp(clone(x), clone(v), hv)
		if want := f(clone(x)); !close1(y, want, s.primalRel(), 0) {
			return fmt.Errorf("at x = %v: value: got %v, want %v", x, y, want)
		}
		w := hessianFD(f, x)
		want := make([]float64, n)
		for i := range n {
			for j := range n {
				want[i] += w.At(i, j) * v[j]
			}
		}
		vmax := 0.0
		for _, vi := range v {
			vmax = math.Max(vmax, math.Abs(vi))
		}
		if err := compareMatrix("hv", hv, func(i int) float64 { return want[i] }, n, s.rel(DefaultHessRel), s.abs()+float64(n)*vmax*fdNoise(y)); err != nil {
			return fmt.Errorf("at x = %v along v = %v: %v", x, v, err)
		}
		return nil
	})
}

// HessDiag checks a Hessian diagonal in the shape gadgen generates with
// //gad:hessdiag, diag(x, d) storing ∂²f/∂xᵢ² in d[i] and returning f(x).
func HessDiag(tb TB, f func(x []float64) float64, diag func(x, d []float64) float64, opts ...Option) {
	tb.Helper()
	run(tb, "HessDiag", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		n := len(x)
		d := make([]float64, n)
		for i := range d {
			d[i] = math.NaN()
		}
		y := diag(clone(x), d)
		if want := f(clone(x)); !close1(y, want, s.primalRel(), 0) {
			return fmt.Errorf("at x = %v: value: got %v, want %v", x, y, want)
		}
		w := hessianFD(f, x)
		if err := compareMatrix("d", d, func(i int) float64 { return w.At(i, i) }, n, s.rel(DefaultHessRel), s.abs()+fdNoise(y)); err != nil {
			return fmt.Errorf("at x = %v: %v", x, err)
		}
		return nil
	})
}

// Laplacian checks a Laplacian in the shape gadgen generates with
// //gad:laplacian, lap(x) returning f(x) and Σᵢ ∂²f/∂xᵢ², against
// gonum's fd.Laplacian with central differences.
func Laplacian(tb TB, f func(x []float64) float64, lap func(x []float64) (float64, float64), opts ...Option) {
	tb.Helper()
	run(tb, "Laplacian", opts, func(r *rand.Rand, x []float64, s *Settings) error {
		y, l := lap(clone(x))
		if want := f(clone(x)); !close1(y, want, s.primalRel(), 0) {
			return fmt.Errorf("at x = %v: value: got %v, want %v", x, y, want)
		}
		want := fd.Laplacian(func(y []float64) float64 { return f(clone(y)) }, x, &fd.Settings{Formula: fd.Central2nd, Step: hessStep})
		// Scale: the diagonal's largest entry, as for Hessians.
		w := hessianFD(f, x)
		scale := math.Abs(want)
		for i := range x {
			scale = math.Max(scale, math.Abs(w.At(i, i)))
		}
		if !(math.Abs(l-want) <= s.rel(DefaultHessRel)*scale+s.abs()+float64(len(x))*fdNoise(y)) { // NaN fails
			return fmt.Errorf("at x = %v: Laplacian: got %v, want %v", x, l, want)
		}
		return nil
	})
}
