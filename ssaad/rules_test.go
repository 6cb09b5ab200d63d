package ssaad_test

// This file defines the conformance test of the rule table: every Smooth
// rule of package templates (math's functions, other packages' such as
// mathext's, the builtins, the helpers), on a call of its function, goes
// through each mode's transformer — forward mode, reverse mode, Taylor
// mode at order 3 — and each derivative, interpreted by package interp,
// is compared with central finite differences (internal/fdcheck) at
// points drawn from the rule's Domain. A new entry is tested here with no
// code of its own.

import (
	"go/importer"
	"go/token"
	"go/types"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/reverse"
	"github.com/gadgen/gadgen/ssaad/taylor"
	"github.com/gadgen/gadgen/templates"
)

// rulePoints is the number of points at which each rule is checked in
// each mode.
const rulePoints = 3

// taylorOrder is the order of the Taylor coefficients checked.
const taylorOrder = 3

// TestRulesInEveryMode differentiates, for every Smooth rule and each of
// its float results, func f(params) float64 { return F(params)[i] } in
// forward mode (the JVP against the differences of f along a random
// direction), reverse mode (the gradient, dotted with a random direction,
// likewise) and Taylor mode (order 3 along a random cubic curve x(t):
// coefficient k at t is (1/k)·d/dt of coefficient k−1 at t, checked by
// the differences of the latter). Each derivative is run unoptimized and
// optimized (simplify.Derivative), with identical results; its primal
// results must equal f's exactly.
func TestRulesInEveryMode(t *testing.T) {
	for _, r := range templates.All() {
		if r.Kind != templates.Smooth || r.Pkg == templates.TensorPkg {
			continue
		}
		callee, sig := ruleCallee(t, r)
		for i, res := range r.Results {
			if !isFloat64(sig.Results().At(i).Type()) {
				continue
			}
			name := r.Name
			if r.Pkg != "" {
				name = r.Pkg + "." + r.Name
			}
			if len(r.Results) > 1 {
				name += "/" + res
			}
			t.Run(name, func(t *testing.T) {
				c := &ruleCase{rule: r, callee: callee, sig: sig, result: i}
				c.run(t)
			})
		}
	}
}

// ruleCase is the primal of one rule's result i: a call of the rule's
// function on the parameters.
type ruleCase struct {
	rule   *templates.Rule
	callee *ir.Callee
	sig    *types.Signature
	result int
}

// imports caches the packages the test loads from source, by path.
var imports sync.Map // path → func() (*types.Package, error)

// ruleCallee returns the callee of a call of r's function and its
// signature: the package's function as go/types sees it from source, a
// helper's, or a builtin's on float64s.
func ruleCallee(t *testing.T, r *templates.Rule) (*ir.Callee, *types.Signature) {
	t.Helper()
	switch {
	case r.Pkg == "" && r.Func == nil:
		f64 := types.Typ[types.Float64]
		v := func(name string) *types.Var { return types.NewParam(token.NoPos, nil, name, f64) }
		return &ir.Callee{Builtin: r.Name}, types.NewSignatureType(nil, nil, nil,
			types.NewTuple(v("x"), v("y")), types.NewTuple(v("")), false)
	case r.Pkg == "":
		c := ssaad.HelperCallee(r)
		return c, c.Derived.Sig
	}
	load, _ := imports.LoadOrStore(r.Pkg, sync.OnceValues(func() (*types.Package, error) {
		return importer.ForCompiler(token.NewFileSet(), "source", nil).Import(r.Pkg)
	}))
	pkg, err := load.(func() (*types.Package, error))()
	if err != nil {
		t.Fatalf("import %s: %v", r.Pkg, err)
	}
	fn, ok := pkg.Scope().Lookup(r.Name).(*types.Func)
	if !ok {
		t.Fatalf("no function %s in %s", r.Name, r.Pkg)
	}
	return &ir.Callee{Func: fn}, fn.Signature()
}

var rulesPkg = types.NewPackage("example.com/rules", "rules")

// primal builds func f(params) float64 { return F(params)[result] }
// afresh (the transformers may change the function they are given).
func (c *ruleCase) primal() *ir.Func {
	b := irtest.NewBuilder("f", rulesPkg)
	var args []*ir.Value
	for j := range c.rule.Params {
		args = append(args, b.Param(c.rule.Params[j], c.sig.Params().At(j).Type()))
	}
	var typ types.Type = c.sig.Results()
	if c.sig.Results().Len() == 1 {
		typ = c.sig.Results().At(0).Type()
	}
	call := b.B.NewValue(ir.OpCall, typ, args...)
	callee := *c.callee
	call.Callee = &callee
	out := call
	if c.sig.Results().Len() > 1 {
		out = b.Extract(call, c.result)
	}
	b.Result(types.Typ[types.Float64])
	b.Return(out)
	return b.F
}

// active returns which parameters are varied: the floats.
func (c *ruleCase) active() []bool {
	a := make([]bool, len(c.rule.Params))
	for j := range a {
		a[j] = isFloat64(c.sig.Params().At(j).Type())
	}
	return a
}

// derive returns the derivative of mode m with the options opts, and the
// same optimized.
func (c *ruleCase) derive(t *testing.T, m ssaad.Mode, opts ssaad.Options) (plain, opt *ir.Func) {
	t.Helper()
	var out [2]*ir.Func
	for k := range out {
		primal := c.primal()
		req := &ssaad.Request{Mode: m.Name(), Target: irtest.FuncOf(primal), Name: "f" + m.Suffix(),
			Active: c.active(), Options: opts}
		d, errs := m.Transform(primal, req, irtest.NoCallees{})
		if len(errs) > 0 {
			t.Fatalf("%s: %v", m.Name(), errs)
		}
		if err := ir.Check(d); err != nil {
			t.Fatalf("%s: %v\n%s", m.Name(), err, d)
		}
		if k == 1 {
			simplify.Run(d, simplify.Derivative, simplify.Config{Optimize: true, Check: true})
		}
		out[k] = d
	}
	return out[0], out[1]
}

// call runs d and d's optimized twin on args and returns the results as
// float64s; they must agree exactly, but for the sign of a zero: the
// optimizer drops the cleared zero of an adjoint (0 + a → a, see
// simplify's doc), which turns a +0 result into -0.
func call(t *testing.T, d, dO *ir.Func, args []interp.Value) []float64 {
	t.Helper()
	var m interp.Machine
	res, err := m.Call(d, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, d)
	}
	resO, err := m.Call(dO, args...)
	if err != nil {
		t.Fatalf("optimized: %v\n%s", err, dO)
	}
	out := make([]float64, len(res))
	for i, r := range res {
		out[i] = r.(float64)
		if o := resO[i].(float64); o != out[i] && !(o != o && out[i] != out[i]) {
			t.Fatalf("at %v: optimized gives %s, unoptimized %s", interp.Format(interp.Tuple(args)),
				interp.Format(interp.Tuple(resO)), interp.Format(interp.Tuple(res)))
		}
	}
	return out
}

func (c *ruleCase) run(t *testing.T) {
	r := c.rule
	active := c.active()
	jvp, jvpO := c.derive(t, taylor.Mode{Tangent: true}, ssaad.Options{})
	grad, gradO := c.derive(t, reverse.Mode{}, ssaad.Options{})
	tay, tayO := c.derive(t, taylor.Mode{}, ssaad.Options{Order: taylorOrder})
	primal := c.primal()

	// args returns the primal's arguments: the point's varied floats x,
	// and its fixed ints from p, each followed, when varied, by the
	// coefficients taken from cs (cs[k] for coefficient k+1).
	args := func(p, x []float64, cs ...[]float64) []interp.Value {
		var out []interp.Value
		vi := 0
		for j := range r.Params {
			if !active[j] {
				out = append(out, int(p[j]))
				continue
			}
			out = append(out, x[vi])
			for _, c := range cs {
				out = append(out, c[vi])
			}
			vi++
		}
		return out
	}
	rng := rand.New(rand.NewPCG(fdcheck.Seed(r.Pkg+"."+r.Name), uint64(c.result)))
	for range rulePoints {
		p := make([]float64, len(r.Params)) // the point, ints included
		var x []float64                     // its varied coordinates
		for j, d := range r.Domain {
			if active[j] {
				p[j] = d[0] + (d[1]-d[0])*rng.Float64()
				x = append(x, p[j])
			} else {
				p[j] = math.Floor(d[0]) + float64(rng.IntN(int(d[1]-d[0])+1))
			}
		}
		f := func(x []float64) []float64 { return call(t, primal, primal, args(p, x)) }
		f0 := f(x)[0]
		v := fdcheck.Direction(rng, len(x))

		// Forward mode: f, then df.
		fjvp := func(x, v []float64) []float64 {
			out := call(t, jvp, jvpO, args(p, x, v))
			if out[0] != f(x)[0] {
				t.Fatalf("JVP at %v: primal result %v, f %v", x, out[0], f(x)[0])
			}
			return out[1:]
		}
		if err := fdcheck.Check(f, fjvp, x, v, nil); err != nil {
			t.Errorf("forward mode: %v", err)
		}

		// Reverse mode: f, then ∂f/∂xⱼ for the varied xⱼ.
		fgrad := func(x, v []float64) []float64 {
			out := call(t, grad, gradO, args(p, x))
			if out[0] != f(x)[0] {
				t.Fatalf("gradient at %v: primal result %v, f %v", x, out[0], f(x)[0])
			}
			return []float64{fdcheck.Dot(out[1:], v)}
		}
		if err := fdcheck.Check(f, fgrad, x, v, nil); err != nil {
			t.Errorf("reverse mode: %v", err)
		}

		// Taylor mode along x(s) = x + x1·s + x2·s² + x3·s³: re-expanded
		// at s = t₀ its coefficients are x(t₀), x′(t₀), x″(t₀)/2, x‴(t₀)/6,
		// and f's coefficients at t₀ satisfy d/dt₀ c_{k−1} = k·c_k.
		x1, x2, x3 := v, fdcheck.Direction(rng, len(x)), fdcheck.Direction(rng, len(x))
		coefs := func(t0 float64) []float64 {
			a := make([][]float64, taylorOrder+1)
			for k := range a {
				a[k] = make([]float64, len(x))
			}
			for i := range x {
				a[0][i] = x[i] + t0*(x1[i]+t0*(x2[i]+t0*x3[i]))
				a[1][i] = x1[i] + t0*(2*x2[i]+3*t0*x3[i])
				a[2][i] = x2[i] + 3*t0*x3[i]
				a[3][i] = x3[i]
			}
			out := call(t, tay, tayO, args(p, a[0], a[1:]...))
			if t0 == 0 && out[0] != f0 {
				t.Fatalf("Taylor mode at %v: primal result %v, f %v", x, out[0], f0)
			}
			return out
		}
		for k := 1; k <= taylorOrder; k++ {
			g := func(s []float64) []float64 { return coefs(s[0])[k-1 : k] }
			dg := func(s, ds []float64) []float64 { return []float64{float64(k) * coefs(s[0])[k] * ds[0]} }
			if err := fdcheck.Check(g, dg, []float64{0}, []float64{1}, nil); err != nil {
				t.Errorf("Taylor mode, coefficient %d (x1 = %v, x2 = %v, x3 = %v): %v", k, x1, x2, x3, err)
			}
		}
	}
}

func isFloat64(t types.Type) bool { return types.Identical(t, types.Typ[types.Float64]) }
