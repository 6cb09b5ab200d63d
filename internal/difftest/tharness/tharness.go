// Package tharness checks the derivatives gadgen writes for the tensor
// programs of difftest's tensor generator. A batch's main program
// describes each program as a Case (adapters from flat lists of tensors
// to the program's and its derivatives' signatures) and calls Run, which
// prints one JSON line per mode of each case.
package tharness

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/gadgen/gadgen/tensorops"
)

// T is a tensor.
type T = tensorops.Tensor

// Case is one program: its varied tensors' shapes, its fixed tensors
// (labels: rows of probabilities), and adapters; a nil adapter is a mode
// gadgen did not write.
type Case struct {
	Name   string
	Shapes [][]int // varied tensors, flattened
	Fixed  [][]int // fixed tensors
	Labels []bool  // which fixed tensors are labels
	F      func(xs, fx []*T) float64
	JVP    func(xs, dxs, fx []*T) (float64, float64)
	// Grad returns F and the gradient of each varied tensor. The
	// gradients that go into a shadow argument (Accum) are added to the
	// tensors of init there, nil for none (a nil field); the others are
	// returned.
	Grad   func(xs, init, fx []*T) (float64, []*T)
	Accum  []bool
	Taylor func(xs, x1, x2, x3, fx []*T) [4]float64
	HVP    func(xs, vs, fx []*T) (float64, []*T)
	// TaylorLanes is FTaylor of order 3 with lanes=L: the input
	// coefficients cs and the results (F, then the coefficients) in
	// slots, degree by degree, lane-minor (cs[(k-1)·L + l]).
	TaylorLanes func(xs []*T, cs [][]*T, fx []*T) []float64
	// HVPLanes is FHVP with lanes=len(vs): one H·v per direction.
	HVPLanes func(xs []*T, vs [][]*T, fx []*T) (float64, [][]*T)
	// HVPStacked is FHVP with lanes=stacked of F's one varied tensor:
	// vs[0] holds the directions stacked, [L, …], and so does the result.
	HVPStacked func(xs, vs, fx []*T) (float64, []*T)
	// Hessian is FHessian of F's one varied parameter (a tensor or a
	// struct of tensors): a [n, n] tensor over θ, the n elements of the
	// varied tensors in order.
	Hessian func(xs, fx []*T) (float64, *T)
	// HessDiag is FHessDiag: the diagonal of the Hessian, in the varied
	// tensors' shapes; Laplacian is FLaplacian, its trace.
	HessDiag  func(xs, fx []*T) (float64, []*T)
	Laplacian func(xs, fx []*T) (float64, float64)
}

// At returns xs[i], nil for a nil list: a nil list of tangents is nil
// tangents.
func At(xs []*T, i int) *T {
	if xs == nil {
		return nil
	}
	return xs[i]
}

// Or returns whole(), or empty for a nil list xs: the tangent struct of
// a nil list of tangents has nil fields and nil slices.
func Or[S any](xs []*T, whole func() S, empty S) S {
	if xs == nil {
		return empty
	}
	return whole()
}

// lanes is the number of lanes of the jets and HVPs with lanes.
const lanes = 2

// Result is one mode's outcome, as printed.
type Result struct {
	Case   string `json:"case"`
	Mode   string `json:"mode"`
	Status string `json:"status"` // pass, fail, skip
	Kind   string `json:"kind,omitempty"`
	Detail string `json:"detail,omitempty"`
	Checks int    `json:"checks"`
}

// Run checks the cases at points points each and prints the results.
func Run(cases []*Case, points int, seed uint64) {
	enc := json.NewEncoder(os.Stdout)
	for i, c := range cases {
		res := runCase(c, points, seed+uint64(i))
		for _, r := range res {
			r.Case = c.Name
			if err := enc.Encode(r); err != nil {
				panic(err)
			}
		}
	}
}

// failure is a panic value that reports a wrong number.
type failure struct{ kind, detail string }

// skip is a panic value that skips the point.
type skip struct{ why string }

type checker struct {
	c   *Case
	rng *rand.Rand
	// lrng draws the directions of the lanes after the first, so that
	// the points do not depend on the modes checked.
	lrng *rand.Rand
	// nrng draws which tangents are nil, and the tensors of the shadows
	// that the gradient adds to.
	nrng   *rand.Rand
	checks map[string]int
	mode   string
	// passed holds the modes that passed at the current point: a check
	// of another mode uses only those.
	passed map[string]bool
}

func (k *checker) fail(kind, format string, args ...any) {
	panic(failure{kind, fmt.Sprintf(format, args...)})
}

// runCase checks one case; a mode's first failure ends that mode.
func runCase(c *Case, points int, seed uint64) []*Result {
	modes := []string{"value"}
	if c.JVP != nil {
		modes = append(modes, "jvp", "jvpnil")
	}
	if c.Grad != nil {
		modes = append(modes, "grad")
		if slices.Contains(c.Accum, true) {
			modes = append(modes, "gradacc")
		}
	}
	if c.Taylor != nil {
		modes = append(modes, "taylor", "taylornil")
	}
	if c.HVP != nil {
		modes = append(modes, "hvp")
	}
	if c.TaylorLanes != nil {
		modes = append(modes, "tlanes")
	}
	if c.HVPLanes != nil {
		modes = append(modes, "hvplanes")
	}
	if c.HVPStacked != nil {
		modes = append(modes, "hvpstacked")
	}
	if c.Hessian != nil {
		modes = append(modes, "hessian")
	}
	if c.HessDiag != nil {
		modes = append(modes, "hessdiag")
	}
	if c.Laplacian != nil {
		modes = append(modes, "laplacian")
	}
	modes = append(modes, "float32")
	res := map[string]*Result{}
	for _, m := range modes {
		res[m] = &Result{Mode: m, Status: "pass"}
	}
	k := &checker{c: c, rng: rand.New(rand.NewPCG(seed, 77)), lrng: rand.New(rand.NewPCG(seed, 78)), nrng: rand.New(rand.NewPCG(seed, 79))}
	for p := 0; p < points; p++ {
		pt := k.point()
		k.passed = map[string]bool{}
		for _, m := range modes {
			r := res[m]
			if r.Status == "fail" {
				continue
			}
			n, st, kind, detail := k.guard(m, func() { k.check(m, pt) })
			r.Checks += n
			if st == "pass" {
				k.passed[m] = true
			}
			switch st {
			case "fail":
				r.Status, r.Kind, r.Detail = "fail", kind, detail
			case "skip":
				if r.Checks == 0 && p == points-1 {
					r.Status, r.Kind = "skip", kind
				}
			}
		}
	}
	var out []*Result
	for _, m := range modes {
		r := res[m]
		if r.Status == "pass" && r.Checks == 0 {
			r.Status, r.Kind = "skip", "no check"
		}
		out = append(out, r)
	}
	return out
}

// guard runs f, turning panics into outcomes, with a time limit.
func (k *checker) guard(mode string, f func()) (checks int, status, kind, detail string) {
	k.checks = map[string]int{}
	k.mode = mode
	done := make(chan [3]string, 1)
	go func() {
		defer func() {
			switch p := recover().(type) {
			case nil:
				done <- [3]string{"pass", "", ""}
			case failure:
				done <- [3]string{"fail", p.kind, p.detail}
			case skip:
				done <- [3]string{"skip", p.why, ""}
			default:
				done <- [3]string{"fail", "panic", fmt.Sprintf("%v\n%s", p, frames(debug.Stack()))}
			}
		}()
		f()
	}()
	select {
	case r := <-done:
		return k.checks[mode], r[0], r[1], r[2]
	case <-time.After(20 * time.Second):
		return 0, "fail", "hang", "a check ran longer than 20s"
	}
}

// frames returns the frames of a stack in tensorops and the programs'
// packages, one per line: "function file:line".
func frames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	var out []string
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if !strings.Contains(fn, "gadgen/tensorops.") && !strings.Contains(fn, "/tbatch/p") {
			continue
		}
		if j := strings.LastIndex(fn, "("); j > 0 {
			fn = fn[:j]
		}
		file := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(file, " +0x"); j > 0 {
			file = file[:j]
		}
		out = append(out, fn+" "+filepath.Base(file))
	}
	return strings.Join(out, "\n")
}

// point is a random point: the varied and fixed inputs and directions.
type point struct {
	xs, fx, v, w []*T
	f            float64
}

func (k *checker) rand(shape []int) *T { return randT(k.rng, shape) }

func randT(r *rand.Rand, shape []int) *T {
	t := tensorops.New(tensorops.Float64, shape...)
	d := t.Float64s()
	for i := range d {
		d[i] = 2*r.Float64() - 1
	}
	return t
}

// laneDirs returns n directions drawn from the lanes' generator.
func (k *checker) laneDirs(n int) [][]*T {
	out := make([][]*T, n)
	for i := range out {
		for _, s := range k.c.Shapes {
			out[i] = append(out[i], randT(k.lrng, s))
		}
	}
	return out
}

func (k *checker) labels(shape []int) *T {
	t := tensorops.New(tensorops.Float64, shape...)
	d := t.Float64s()
	n := shape[len(shape)-1]
	for i := 0; i < len(d); i += n {
		s := 0.0
		for j := range n {
			d[i+j] = k.rng.Float64() + 0.1
			s += d[i+j]
		}
		for j := range n {
			d[i+j] /= s
		}
	}
	return t
}

func (k *checker) point() *point {
	p := &point{}
	for _, s := range k.c.Shapes {
		p.xs = append(p.xs, k.rand(s))
		p.v = append(p.v, k.rand(s))
		p.w = append(p.w, k.rand(s))
	}
	for i, s := range k.c.Fixed {
		if k.c.Labels[i] {
			p.fx = append(p.fx, k.labels(s))
		} else {
			p.fx = append(p.fx, k.rand(s))
		}
	}
	return p
}

// Linear algebra on lists of tensors.

func axpy(a float64, x, y []*T) []*T {
	out := make([]*T, len(y))
	for i := range y {
		out[i] = tensorops.Add(y[i], tensorops.Scale(x[i], a))
	}
	return out
}

func dot(a, b []*T) (s, abs float64) {
	for i := range a {
		if a[i] == nil || b[i] == nil {
			continue
		}
		x, y := f64(a[i]), f64(b[i])
		for j := range x {
			s += x[j] * y[j]
			abs += math.Abs(x[j] * y[j])
		}
	}
	return s, abs
}

func f64(t *T) []float64 {
	return tensorops.AsType(t, tensorops.Float64).Contiguous().Float64s()
}

func clone(xs []*T) []*T {
	out := make([]*T, len(xs))
	for i, x := range xs {
		out[i] = x.Clone()
	}
	return out
}

func cast(xs []*T, dt tensorops.DType) []*T {
	out := make([]*T, len(xs))
	for i, x := range xs {
		if x != nil {
			out[i] = tensorops.AsType(x, dt)
		}
	}
	return out
}

func zeros(xs []*T) []*T {
	out := make([]*T, len(xs))
	for i, x := range xs {
		out[i] = tensorops.ZerosLike(x)
	}
	return out
}

// same checks that a call left its inputs alone.
func (k *checker) same(what string, before, after []*T) {
	for i := range before {
		a, b := f64(before[i]), f64(after[i])
		if !slices.Equal(a, b) {
			k.fail("input written", "%s: input %d changed by the call", what, i)
		}
	}
}

// near reports whether a and b agree within rel relatively, with a
// floor of abs.
func near(a, b, rel, abs float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))+abs
}

func (k *checker) count() { k.checks[k.mode]++ }

// value checks a derivative's value of F against F's.
func (k *checker) value(what string, got, f float64) {
	if !near(got, f, 1e-12, 1e-13) {
		k.fail("value", "%s returns F = %.17g, F gives %.17g", what, got, f)
	}
	k.count()
}

// rich returns the extrapolated central difference of g at 0 with step
// h and whether the differences converge.
func rich(g func(t float64) float64, h, tol float64) (float64, bool) {
	d := func(h float64) float64 { return (g(h) - g(-h)) / (2 * h) }
	r := func(h float64) float64 { return (4*d(h/2) - d(h)) / 3 }
	a, b := r(h), r(h/2)
	return (16*b - a) / 15, near(a, b, tol, tol*1e-3)
}

const step = 1e-2

func (k *checker) f(xs, fx []*T) float64 { return k.c.F(xs, fx) }

func (k *checker) check(mode string, p *point) {
	c := k.c
	p.f = c.F(clone(p.xs), p.fx)
	if math.IsNaN(p.f) || math.IsInf(p.f, 0) || math.Abs(p.f) > 1e8 {
		panic(skip{"F not finite or beyond 1e8"})
	}
	switch mode {
	case "value":
		if got := c.F(clone(p.xs), p.fx); got != p.f {
			k.fail("value", "F is not deterministic: %.17g then %.17g", p.f, got)
		}
		k.count()
	case "jvp":
		k.jvp(p)
	case "grad":
		k.grad(p)
	case "taylor":
		k.taylor(p)
	case "hvp":
		k.hvp(p)
	case "jvpnil":
		k.jvpNil(p)
	case "taylornil":
		k.taylorNil(p)
	case "gradacc":
		k.gradAcc(p)
	case "hessdiag", "laplacian":
		k.diagonal(p, mode)
	case "tlanes":
		k.taylorLanes(p)
	case "hvplanes":
		k.hvpLanes(p)
	case "hvpstacked":
		k.hvpStacked(p)
	case "hessian":
		k.hessian(p)
	case "float32":
		k.float32(p)
	}
}

// line returns t ↦ g(x + t·dir), x the point's inputs.
func (k *checker) line(p *point, dir []*T, g func(xs []*T) float64) func(t float64) float64 {
	return func(t float64) float64 { return g(axpy(t, dir, p.xs)) }
}

// jvpOf returns the JVP of F at xs along v.
func (k *checker) jvpOf(p *point, xs, v []*T) float64 {
	_, d := k.c.JVP(xs, v, p.fx)
	return d
}

// jvp checks the JVP along v against central differences of F.
func (k *checker) jvp(p *point) {
	c := k.c
	xs := clone(p.xs)
	f, d := c.JVP(xs, p.v, p.fx)
	k.same("JVP", p.xs, xs)
	k.value("JVP", f, p.f)
	fd, ok := rich(k.line(p, p.v, func(xs []*T) float64 { return c.F(xs, p.fx) }), step, 1e-7)
	if !ok {
		panic(skip{"differences do not converge (a kink?)"})
	}
	if !near(d, fd, 1e-6, 1e-8*(1+math.Abs(p.f))) {
		k.fail("jvp", "JVP %.17g, central differences %.17g (F = %.6g)", d, fd, p.f)
	}
	k.count()
}

// grad checks the gradient: its shapes, ⟨∇F, v⟩ against the JVP and
// against differences of F.
func (k *checker) grad(p *point) {
	c := k.c
	xs := clone(p.xs)
	f, g := c.Grad(xs, nil, p.fx)
	k.same("Grad", p.xs, xs)
	k.value("Grad", f, p.f)
	if len(g) != len(p.xs) {
		k.fail("grad", "%d adjoints for %d inputs", len(g), len(p.xs))
	}
	for i := range g {
		if g[i] != nil && !slices.Equal(g[i].Shape(), p.xs[i].Shape()) {
			k.fail("grad", "adjoint %d has shape %v, input %v", i, g[i].Shape(), p.xs[i].Shape())
		}
	}
	gv, abs := dot(g, p.v)
	if k.passed["jvp"] {
		d := k.jvpOf(p, p.xs, p.v)
		if !near(gv, d, 1e-9, 1e-9*abs+1e-13) {
			k.fail("dot", "⟨∇F, v⟩ = %.17g, JVP(v) = %.17g", gv, d)
		}
		k.count()
	}
	fd, ok := rich(k.line(p, p.v, func(xs []*T) float64 { return c.F(xs, p.fx) }), step, 1e-7)
	if ok {
		if !near(gv, fd, 1e-6, 1e-8*(1+math.Abs(p.f))) {
			k.fail("grad-fd", "⟨∇F, v⟩ = %.17g, central differences %.17g", gv, fd)
		}
		k.count()
	}
}

// taylor checks the jet along the line x + tv: c1 against the JVP or
// differences of F, c2 and c3 against differences of the coefficient
// below, and a jet with a second coefficient w against c2 + JVP(w).
func (k *checker) taylor(p *point) {
	c := k.c
	xs := clone(p.xs)
	z := zeros(p.xs)
	cs := c.Taylor(xs, p.v, z, z, p.fx)
	k.same("Taylor", p.xs, xs)
	k.value("Taylor", cs[0], p.f)
	// c1 against the JVP or differences of F.
	fd1, ok := rich(k.line(p, p.v, func(xs []*T) float64 { return c.F(xs, p.fx) }), step, 1e-7)
	if k.passed["jvp"] {
		d := k.jvpOf(p, p.xs, p.v)
		if !near(cs[1], d, 1e-9, 1e-12*(1+math.Abs(p.f))) {
			k.fail("taylor1", "c1 = %.17g, JVP %.17g", cs[1], d)
		}
		k.count()
	} else if ok {
		if !near(cs[1], fd1, 1e-6, 1e-8*(1+math.Abs(p.f))) {
			k.fail("taylor1", "c1 = %.17g, differences %.17g", cs[1], fd1)
		}
		k.count()
	}
	// c2 = f''/2 from differences of c1; c3 = f'''/6 from those of c2.
	coef := func(j int) func(xs []*T) float64 {
		return func(xs []*T) float64 { return c.Taylor(xs, p.v, z, z, p.fx)[j] }
	}
	fd2, ok2 := rich(k.line(p, p.v, coef(1)), step, 1e-7)
	if ok2 {
		if !near(cs[2], fd2/2, 1e-6, 1e-8*(1+math.Abs(p.f)+math.Abs(cs[1]))) {
			k.fail("taylor2", "c2 = %.17g, differences of c1 give %.17g", cs[2], fd2/2)
		}
		k.count()
	}
	fd3, ok3 := rich(k.line(p, p.v, coef(2)), step, 1e-7)
	if ok3 {
		if !near(cs[3], fd3/3, 1e-6, 1e-8*(1+math.Abs(p.f)+math.Abs(cs[1])+math.Abs(cs[2]))) {
			k.fail("taylor3", "c3 = %.17g, differences of c2 give %.17g", cs[3], fd3/3)
		}
		k.count()
	}
	// A jet with a second coefficient w: c2 gains ⟨∇F, w⟩ = JVP(w).
	if k.passed["jvp"] {
		cw := c.Taylor(clone(p.xs), p.v, p.w, z, p.fx)
		want := cs[2] + k.jvpOf(p, p.xs, p.w)
		if !near(cw[2], want, 1e-9, 1e-12*(1+math.Abs(p.f)+math.Abs(cs[2]))) {
			k.fail("taylor-jet", "c2 of x + tv + t²w = %.17g, c2 of the line + JVP(w) = %.17g", cw[2], want)
		}
		if cw[1] != cs[1] && !near(cw[1], cs[1], 1e-12, 1e-14) {
			k.fail("taylor-jet", "c1 of x + tv + t²w = %.17g, of the line %.17g", cw[1], cs[1])
		}
		k.count()
	}
	if !ok2 && !ok3 {
		panic(skip{"differences do not converge (a kink?)"})
	}
}

// hvp checks H·v: ⟨u, H·v⟩ against differences of JVP(u) along v,
// each element against differences of the gradient, and ⟨v, H·v⟩ against
// the jet's c2.
func (k *checker) hvp(p *point) {
	c := k.c
	xs := clone(p.xs)
	f, hv := c.HVP(xs, p.v, p.fx)
	k.same("HVP", p.xs, xs)
	k.value("HVP", f, p.f)
	// ⟨u, Hv⟩ against differences of JVP(u) along v, for u = v, w.
	if k.passed["jvp"] {
		for _, u := range [][]*T{p.v, p.w} {
			uhv, abs := dot(u, hv)
			fd, ok := rich(k.line(p, p.v, func(xs []*T) float64 { return k.jvpOf(p, xs, u) }), step, 1e-7)
			if !ok {
				panic(skip{"differences do not converge (a kink?)"})
			}
			if !near(uhv, fd, 1e-6, 1e-8*(1+math.Abs(p.f)+abs)) {
				k.fail("hvp", "⟨u, H·v⟩ = %.17g, differences of JVP(u) along v %.17g", uhv, fd)
			}
			k.count()
		}
	}
	if k.passed["grad"] {
		// Elementwise, against differences of the gradient.
		for i := range hv {
			if hv[i] == nil {
				continue
			}
			hvi := f64(hv[i])
			for j := range hvi {
				g := func(xs []*T) float64 {
					_, gr := c.Grad(xs, nil, p.fx)
					if gr[i] == nil {
						return 0
					}
					return f64(gr[i])[j]
				}
				fd, ok := rich(k.line(p, p.v, g), step, 1e-7)
				if !ok {
					continue
				}
				if !near(hvi[j], fd, 1e-6, 1e-8*(1+math.Abs(p.f))) {
					k.fail("hvp-grad", "(H·v)[%d][%d] = %.17g, differences of the gradient %.17g", i, j, hvi[j], fd)
				}
			}
			k.count()
		}
	}
	if k.passed["taylor"] {
		z := zeros(p.xs)
		cs := c.Taylor(clone(p.xs), p.v, z, z, p.fx)
		vhv, abs := dot(p.v, hv)
		if !near(vhv, 2*cs[2], 1e-9, 1e-12*(1+abs)) {
			k.fail("hvp-taylor", "⟨v, H·v⟩ = %.17g, 2·c2 of the line = %.17g", vhv, 2*cs[2])
		}
		k.count()
	}
}

// taylorLanes checks each lane of the jets with lanes against the jet
// without lanes along its curve (the same operations on the same
// numbers), or its first coefficient against the JVP.
func (k *checker) taylorLanes(p *point) {
	c := k.c
	cs := k.laneDirs(3 * lanes) // cs[(j-1)·L + l]: coefficient j of lane l
	cs[0] = p.v
	xs := clone(p.xs)
	got := c.TaylorLanes(xs, cs, p.fx)
	k.same("TaylorLanes", p.xs, xs)
	k.value("TaylorLanes", got[0], p.f)
	switch {
	case k.passed["taylor"]:
		for l := range lanes {
			want := c.Taylor(clone(p.xs), cs[l], cs[lanes+l], cs[2*lanes+l], p.fx)
			floor := 1e-13 * (1 + math.Abs(want[0]) + math.Abs(want[1]) + math.Abs(want[2]) + math.Abs(want[3]))
			for j := 1; j <= 3; j++ {
				if g := got[1+(j-1)*lanes+l]; !near(g, want[j], 1e-11, floor) {
					k.fail("lane-taylor", "coefficient %d of lane %d of %d: %.17g, the jet along the lane alone %.17g", j, l+1, lanes, g, want[j])
				}
			}
			k.count()
		}
	case k.passed["jvp"]:
		for l := range lanes {
			_, d := c.JVP(clone(p.xs), cs[l], p.fx)
			if g := got[1+l]; !near(g, d, 1e-9, 1e-12*(1+math.Abs(p.f))) {
				k.fail("taylor1", "coefficient 1 of lane %d of %d: %.17g, JVP %.17g", l+1, lanes, g, d)
			}
			k.count()
		}
	default:
		panic(skip{"no reference: neither taylor nor jvp passed"})
	}
}

// sameTensors checks got against want elementwise, within rel of the
// largest element of want, with an absolute floor abs; nil is zero.
func (k *checker) sameTensors(kind, what string, got, want *T, rel, abs float64) {
	switch {
	case got == nil && want == nil:
		return
	case got == nil:
		got = tensorops.ZerosLike(want)
	case want == nil:
		want = tensorops.ZerosLike(got)
	}
	if !slices.Equal(got.Shape(), want.Shape()) {
		k.fail(kind, "%s: shape %v, want %v", what, got.Shape(), want.Shape())
	}
	a, b := f64(got), f64(want)
	n := 0.0
	for _, y := range b {
		n = math.Max(n, math.Abs(y))
	}
	for j := range a {
		if !near(a[j], b[j], rel, rel*n+abs) {
			k.fail(kind, "%s[%d] = %.17g, want %.17g", what, j, a[j], b[j])
		}
	}
}

// hvpLanes checks each lane of the HVPs with lanes against the HVP
// along the lane's direction, or ⟨v, H·v⟩ against differences of the
// JVP.
func (k *checker) hvpLanes(p *point) {
	c := k.c
	vs := append([][]*T{p.v}, k.laneDirs(lanes-1)...)
	xs := clone(p.xs)
	f, hs := c.HVPLanes(xs, vs, p.fx)
	k.same("HVPLanes", p.xs, xs)
	k.value("HVPLanes", f, p.f)
	if len(hs) != lanes {
		k.fail("hvplanes", "%d products for %d directions", len(hs), lanes)
	}
	switch {
	case k.passed["hvp"]:
		for l := range lanes {
			_, want := c.HVP(clone(p.xs), vs[l], p.fx)
			for i := range want {
				k.sameTensors("lane-hvp", fmt.Sprintf("H·v of lane %d of %d, tensor %d", l+1, lanes, i), hs[l][i], want[i], 1e-11, 1e-13*(1+math.Abs(p.f)))
			}
			k.count()
		}
	case k.passed["jvp"]:
		for l := range lanes {
			vhv, abs := dot(vs[l], hs[l])
			jvp := func(xs []*T) float64 { _, d := c.JVP(xs, vs[l], p.fx); return d }
			fd, ok := rich(func(t float64) float64 { return jvp(axpy(t, vs[l], p.xs)) }, step, 1e-7)
			if !ok {
				panic(skip{"differences do not converge (a kink?)"})
			}
			if !near(vhv, fd, 1e-6, 1e-8*(1+math.Abs(p.f)+abs)) {
				k.fail("hvplanes", "lane %d: ⟨v, H·v⟩ = %.17g, differences of JVP(v) along v %.17g", l+1, vhv, fd)
			}
			k.count()
		}
	default:
		panic(skip{"no reference: neither hvp nor jvp passed"})
	}
}

// hvpStacked checks the HVPs along stacked directions, direction by
// direction, against the HVP along each alone.
func (k *checker) hvpStacked(p *point) {
	c := k.c
	if len(p.xs) != 1 {
		panic(skip{"stacked directions of more than one tensor"})
	}
	dirs := append([][]*T{p.v}, k.laneDirs(lanes)...) // lanes+1 directions
	var parts []*T
	for _, d := range dirs {
		parts = append(parts, tensorops.Unsqueeze(d[0], 0))
	}
	vs := tensorops.Concat(0, parts...)
	vsCopy := vs.Clone()
	xs := clone(p.xs)
	f, hs := c.HVPStacked(xs, []*T{vs}, p.fx)
	k.same("HVPStacked", p.xs, xs)
	k.same("HVPStacked's directions", []*T{vsCopy}, []*T{vs})
	k.value("HVPStacked", f, p.f)
	if len(hs) != 1 || hs[0] == nil || hs[0].Dim(0) != len(dirs) {
		k.fail("hvpstacked", "the products: %v for %d directions", hs, len(dirs))
		return
	}
	if !k.passed["hvp"] {
		panic(skip{"no reference: hvp did not pass"})
	}
	for l, d := range dirs {
		_, want := c.HVP(clone(p.xs), d, p.fx)
		got := tensorops.Squeeze(tensorops.Slice(hs[0], 0, l, l+1), 0)
		k.sameTensors("stacked-hvp", fmt.Sprintf("H·v of direction %d of %d", l+1, len(dirs)), got, want[0], 1e-11, 1e-13*(1+math.Abs(p.f)))
		k.count()
	}
}

// flat returns the elements of the tensors ts in order, as θ orders
// them; a nil tensor is zeros of its like's size.
func flat(ts, like []*T) []float64 {
	var out []float64
	for i, t := range ts {
		if t == nil {
			out = append(out, make([]float64, tensorops.Size(like[i]))...)
			continue
		}
		out = append(out, f64(t)...)
	}
	return out
}

// size returns the number of elements of the tensors ts: θ's length.
func size(ts []*T) int {
	n := 0
	for _, t := range ts {
		n += tensorops.Size(t)
	}
	return n
}

// unit returns the unit direction of element i of θ, the elements of
// the tensors xs in order: nil tensors but the one holding it.
func unit(xs []*T, i int) []*T {
	out := make([]*T, len(xs))
	for j, x := range xs {
		if n := tensorops.Size(x); i >= n {
			i -= n
			continue
		}
		out[j] = tensorops.Basis(x, i)
		return out
	}
	panic("tharness: unit direction beyond θ")
}

// hessian checks the Hessian of F with respect to its varied tensors
// (θ, their elements in order: one tensor's, or a struct's): its shape,
// exact symmetry, and its rows against the HVPs along the unit
// directions (symmetrized: gadgen's Hessian is (H + Hᵀ)/2 of its rows)
// and H·v against the HVP along v.
func (k *checker) hessian(p *point) {
	c := k.c
	xs := clone(p.xs)
	f, h := c.Hessian(xs, p.fx)
	k.same("Hessian", p.xs, xs)
	k.value("Hessian", f, p.f)
	n := size(p.xs)
	if s := h.Shape(); len(s) != 2 || s[0] != n || s[1] != n {
		k.fail("hessian", "shape %v, want [%d %d]", s, n, n)
	}
	hd := f64(h)
	for i := range n {
		for j := range i {
			if hd[i*n+j] != hd[j*n+i] {
				k.fail("hessian-sym", "H[%d][%d] = %.17g, H[%d][%d] = %.17g", i, j, hd[i*n+j], j, i, hd[j*n+i])
			}
		}
	}
	k.count()
	if !k.passed["hvp"] {
		panic(skip{"no reference: hvp did not pass"})
	}
	rows, floor := k.unitRows(p)
	for i := range n {
		for j := range n {
			want := (rows[i][j] + rows[j][i]) / 2
			if !near(hd[i*n+j], want, 1e-10, floor) {
				k.fail("hessian-hvp", "H[%d][%d] = %.17g, (H·e%d)[%d] and (H·e%d)[%d] give %.17g", i, j, hd[i*n+j], i, j, j, i, want)
			}
		}
	}
	k.count()
	// H·v against the HVP along v.
	_, hv := c.HVP(clone(p.xs), p.v, p.fx)
	v, want := flat(p.v, p.xs), flat(hv, p.xs)
	for i := range n {
		got, abs := 0.0, 0.0
		for j := range n {
			got += hd[i*n+j] * v[j]
			abs += math.Abs(hd[i*n+j] * v[j])
		}
		if !near(got, want[i], 1e-10, 1e-12*abs+floor) {
			k.fail("hessian-hvp", "(H·v)[%d] = %.17g, the HVP along v %.17g", i, got, want[i])
		}
	}
	k.count()
}

// unitRows returns the HVPs along the unit directions of θ (nil is
// zero), flattened, and the floor of the tolerance of quantities
// checked against them: they round otherwise than the vector JVPs and
// jets of the Hessian, its diagonal and its Laplacian, with noise of
// the size of F's value where the second derivatives cancel (SumAll of
// a Softmax, ≈ 1e-18).
func (k *checker) unitRows(p *point) ([][]float64, float64) {
	n := size(p.xs)
	rows := make([][]float64, n)
	floor := 1e-12 * (1 + math.Abs(p.f))
	for i := range n {
		_, hv := k.c.HVP(clone(p.xs), unit(p.xs, i), p.fx)
		rows[i] = flat(hv, p.xs)
		for _, a := range rows[i] {
			floor = math.Max(floor, 1e-12*math.Abs(a))
		}
	}
	return rows, floor
}

// diagonal checks the Hessian's diagonal with respect to F's varied
// tensors (mode hessdiag: the tensors' shapes, each element against the
// HVP along the unit direction) or its trace, the Laplacian (mode
// laplacian: against the sum of those).
func (k *checker) diagonal(p *point, mode string) {
	c := k.c
	xs := clone(p.xs)
	var f, lap float64
	var d []*T
	if mode == "hessdiag" {
		f, d = c.HessDiag(xs, p.fx)
	} else {
		f, lap = c.Laplacian(xs, p.fx)
	}
	k.same(mode, p.xs, xs)
	k.value(mode, f, p.f)
	for i := range d {
		if d[i] != nil && !slices.Equal(d[i].Shape(), p.xs[i].Shape()) {
			k.fail("hessdiag", "tensor %d: shape %v, want %v", i, d[i].Shape(), p.xs[i].Shape())
		}
	}
	if !k.passed["hvp"] {
		panic(skip{"no reference: hvp did not pass"})
	}
	rows, floor := k.unitRows(p)
	var got []float64
	if mode == "hessdiag" {
		got = flat(d, p.xs)
	}
	tr, abs := 0.0, 0.0
	for i := range rows {
		if mode == "hessdiag" && !near(got[i], rows[i][i], 1e-9, floor) {
			k.fail("hessdiag", "d[%d] = %.17g, (H·e%d)[%d] = %.17g", i, got[i], i, i, rows[i][i])
		}
		tr += rows[i][i]
		abs += math.Abs(rows[i][i])
	}
	if mode == "laplacian" && !near(lap, tr, 1e-9, 1e-9*abs+float64(len(rows))*floor) {
		k.fail("laplacian", "Laplacian %.17g, trace of the HVPs along the unit directions %.17g", lap, tr)
	}
	k.count()
}

// nilMask draws which of n tangents are nil: at least one.
func (k *checker) nilMask(n int) []bool {
	m := make([]bool, n)
	for i := range m {
		m[i] = k.nrng.IntN(2) == 0
	}
	m[k.nrng.IntN(n)] = true
	return m
}

// masked returns v with nil (vn) and with zeros (vz) where mask says.
func masked(v []*T, mask []bool) (vn, vz []*T) {
	vn, vz = slices.Clone(v), slices.Clone(v)
	for i, m := range mask {
		if m {
			vn[i], vz[i] = nil, tensorops.ZerosLike(v[i])
		}
	}
	return vn, vz
}

// jvpNil checks the JVP with nil tangents (nil is zero: the fields of a
// tangent struct, the tangents of tensor parameters) against the same
// call with zero tensors there, and with every tangent nil against 0.
func (k *checker) jvpNil(p *point) {
	c := k.c
	mask := k.nilMask(len(p.v))
	vn, vz := masked(p.v, mask)
	fz, dz := c.JVP(clone(p.xs), vz, p.fx)
	fn, dn := c.JVP(clone(p.xs), vn, p.fx)
	k.value("JVP with nil tangents", fn, fz)
	if !near(dn, dz, 1e-12, 1e-14*(1+math.Abs(dz))) {
		k.fail("jvpnil", "tangents nil at %v: %.17g, zeros there: %.17g", mask, dn, dz)
	}
	k.count()
	if _, d := c.JVP(clone(p.xs), make([]*T, len(p.v)), p.fx); d != 0 {
		k.fail("jvpnil", "every tangent nil: %.17g, want 0", d)
	}
	// A nil list: tangent structs of nil fields and nil slices, which
	// the JVP must grow.
	if _, d := c.JVP(clone(p.xs), nil, p.fx); d != 0 {
		k.fail("jvpnil", "every tangent nil, slices of tangent structs too: %.17g, want 0", d)
	}
	k.count()
}

// taylorNil checks the jet with nil coefficients (the first ones where
// a mask says, the second and third all) against the same call with
// zero tensors there.
func (k *checker) taylorNil(p *point) {
	c := k.c
	mask := k.nilMask(len(p.v))
	vn, vz := masked(p.v, mask)
	// The second coefficients nil, the third a nil list (tangent structs
	// of nil fields and nil slices, which the jet must grow).
	z, none := zeros(p.xs), make([]*T, len(p.xs))
	cz := c.Taylor(clone(p.xs), vz, z, z, p.fx)
	cn := c.Taylor(clone(p.xs), vn, none, nil, p.fx)
	scale := 1 + math.Abs(cz[0]) + math.Abs(cz[1]) + math.Abs(cz[2]) + math.Abs(cz[3])
	for j := range cz {
		if !near(cn[j], cz[j], 1e-12, 1e-14*scale) {
			k.fail("taylornil", "coefficient %d with coefficients nil (first ones at %v): %.17g, zeros there: %.17g", j, mask, cn[j], cz[j])
		}
	}
	k.count()
}

// gradAcc checks that the gradient goes into the tensors a shadow holds
// (Accum) by addition in place: called with some of them nil and some
// holding tensors, each ends as that tensor, now its old value plus the
// gradient of a call with every one nil.
func (k *checker) gradAcc(p *point) {
	c := k.c
	_, g := c.Grad(clone(p.xs), nil, p.fx)
	init := make([]*T, len(p.xs))
	old := make([]*T, len(p.xs))
	for i, acc := range c.Accum {
		if acc && k.nrng.IntN(4) != 0 {
			init[i] = randT(k.nrng, k.c.Shapes[i])
			old[i] = init[i].Clone()
		}
	}
	f, got := c.Grad(clone(p.xs), init, p.fx)
	k.value("Grad into shadows", f, p.f)
	for i := range got {
		want := g[i]
		if init[i] != nil {
			if got[i] != init[i] {
				k.fail("gradacc", "shadow %d: the tensor it held was replaced, not added to", i)
			}
			want = tensorops.Add(old[i], g[i])
		}
		k.sameTensors("gradacc", fmt.Sprintf("gradient %d added to a shadow holding a tensor: %v", i, init[i] != nil), got[i], want, 1e-12, 1e-14)
	}
	k.count()
}

// float32 runs the program and its derivatives on float32 tensors and
// compares them with float64's at the inputs rounded to float32, within
// 1e-4 relatively, plus an estimate of the error that the problem's
// conditioning makes unavoidable in float32 (high powers cancel in the
// jets of squares of squares): 16 times the change of float64's value,
// and 4 times that of float32's, when the inputs move by one float32
// ulp.
func (k *checker) float32(p *point) {
	c := k.c
	x32, v32, w32, fx32 := cast(p.xs, tensorops.Float32), cast(p.v, tensorops.Float32), cast(p.w, tensorops.Float32), cast(p.fx, tensorops.Float32)
	// The inputs rounded to float32, in float64: the reference; and
	// those moved by an ulp, in both dtypes.
	xr, vr, wr, fxr := cast(x32, tensorops.Float64), cast(v32, tensorops.Float64), cast(w32, tensorops.Float64), cast(fx32, tensorops.Float64)
	xp := k.ulp(xr)
	xp32 := cast(xp, tensorops.Float32)
	const rel = 1e-4
	f := c.F(xr, fxr)
	f32 := c.F(x32, fx32)
	scale := 1 + math.Abs(f)
	if !near(f32, f, 1e-5, 1e-5*scale) {
		panic(skip{"float32 F differs from float64's by more than 1e-5 (ill-conditioned)"})
	}
	k.count()
	// cmp compares the float32 values a32 with float64's a64, within rel
	// of floor and the changes at the moved inputs (ap of float64, ap32
	// of float32).
	cmp := func(what string, a32, a64, ap, ap32 []float64, floor float64) {
		for j := range a32 {
			tol := rel*floor + 16*math.Abs(ap[j]-a64[j]) + 4*math.Abs(ap32[j]-a32[j])
			if !near(a32[j], a64[j], rel, tol) {
				k.fail("float32", "%s[%d]: float32 %.9g, float64 %.17g", what, j, a32[j], a64[j])
			}
		}
		k.count()
	}
	// elems returns the elements of a list of tensors as lists, a nil
	// tensor as zeros of like's size.
	elems := func(ts, like []*T) [][]float64 {
		out := make([][]float64, len(ts))
		for i, t := range ts {
			if t == nil {
				out[i] = make([]float64, tensorops.Size(like[i]))
				continue
			}
			out[i] = f64(t)
		}
		return out
	}
	// tensors compares lists of tensors, within rel of their largest
	// element (tp, tp32: at the moved inputs).
	tensors := func(what string, t32, t64, tp, tp32, like []*T) {
		a32, a64, ap, ap32 := elems(t32, like), elems(t64, like), elems(tp, like), elems(tp32, like)
		for i := range t64 {
			if (t64[i] == nil) != (t32[i] == nil) {
				k.fail("float32", "%s %d: nil in one dtype only", what, i)
			}
			if t32[i] != nil && t32[i].DType() != tensorops.Float32 {
				k.fail("float32", "%s %d has dtype %v", what, i, t32[i].DType())
			}
			n := 0.0
			for _, y := range a64[i] {
				n = math.Max(n, math.Abs(y))
			}
			cmp(fmt.Sprintf("%s %d", what, i), a32[i], a64[i], ap[i], ap32[i], scale+n)
		}
	}
	one := func(a float64) []float64 { return []float64{a} }
	// At the rounded inputs, the moved ones (float64, float32), and
	// the float32 ones.
	in := [4]inputs{{xr, vr, wr, fxr}, {xp, vr, wr, fxr}, {xp32, v32, w32, fx32}, {x32, v32, w32, fx32}}
	if k.passed["jvp"] {
		r := at(in, func(i inputs) [2]float64 { f, d := c.JVP(i.xs, i.v, i.fx); return [2]float64{f, d} })
		cmp("JVP value", one(r[3][0]), one(f), one(f), one(r[3][0]), scale)
		cmp("JVP", one(r[3][1]), one(r[0][1]), one(r[1][1]), one(r[2][1]), scale+math.Abs(r[0][1]))
	}
	if k.passed["grad"] {
		type fg struct {
			f float64
			g []*T
		}
		r := at(in, func(i inputs) fg { f, g := c.Grad(i.xs, nil, i.fx); return fg{f, g} })
		cmp("Grad value", one(r[3].f), one(f), one(f), one(r[3].f), scale)
		tensors("gradient", r[3].g, r[0].g, r[1].g, r[2].g, xr)
	}
	if k.passed["taylor"] {
		cs := at(in, func(i inputs) [4]float64 { return c.Taylor(i.xs, i.v, i.w, zeros(i.xs), i.fx) })
		cmp("Taylor coefficient", cs[3][:], cs[0][:], cs[1][:], cs[2][:], scale+math.Abs(cs[0][1])+math.Abs(cs[0][2])+math.Abs(cs[0][3]))
	}
	if k.passed["hvp"] {
		hv := at(in, func(i inputs) []*T { _, hv := c.HVP(i.xs, i.v, i.fx); return hv })
		tensors("HVP", hv[3], hv[0], hv[1], hv[2], xr)
	}
}

// inputs are a point's varied tensors, directions and fixed tensors.
type inputs struct{ xs, v, w, fx []*T }

// at returns g at each of the inputs in.
func at[R any](in [4]inputs, g func(inputs) R) [4]R {
	var out [4]R
	for i := range in {
		out[i] = g(in[i])
	}
	return out
}

// ulp returns the tensors xs with each element moved by one float32
// ulp, up or down at random.
func (k *checker) ulp(xs []*T) []*T {
	out := clone(xs)
	for _, x := range out {
		d := x.Float64s()
		for i := range d {
			if k.nrng.IntN(2) == 0 {
				d[i] = float64(math.Nextafter32(float32(d[i]), float32(math.Inf(1))))
			} else {
				d[i] = float64(math.Nextafter32(float32(d[i]), float32(math.Inf(-1))))
			}
		}
	}
	return out
}
