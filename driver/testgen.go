package driver

// This file defines the test= option of //gad:jvp and //gad:grad: gadgen
// also writes foo_grad_test.go beside foo_grad.go, with one test per such
// directive that checks the generated derivative against central finite
// differences with package gadtest (and a forward-mode derivative against
// a reverse-mode one of the same function by the dot-product test). The
// driver checks the directives and plans the tests (emit.TestFile); emit
// writes them (emit.RenderTests).

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gadgen/gadgen/emit"
	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// testOption is the option key, accepted by the modes in testModes.
const testOption = "test"

// testModes are the modes whose directives take test= (//gad:vjp only
// test=NAME).
var testModes = map[string]bool{"jvp": true, "grad": true, "vjp": true}

// defaultTestLen is the length of slice parameters with test=true.
const defaultTestLen = 4

// testSpec is what a test= directive asks for.
type testSpec struct {
	n int // length of the slice parameters
	// inputs is the function of test=NAME that returns example
	// arguments (see testgen_tensor.go), nil for test=true and test=N;
	// rand says that it takes a *rand.Rand.
	inputs *types.Func
	rand   bool
	name   string // NAME
}

// parseTestOption checks the value of test=: true, the length of the
// slice parameters at the points checked, or the name of a function that
// returns example arguments.
func parseTestOption(v string) (testSpec, error) {
	if v == "true" {
		return testSpec{n: defaultTestLen}, nil
	}
	if token.IsIdentifier(v) && v != "false" {
		return testSpec{name: v}, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1000 {
		return testSpec{}, fmt.Errorf("option test=%s: the value must be true, the length of the slice parameters at the points checked (1 to 1000), "+
			"or the name of a function returning example arguments", v)
	}
	return testSpec{n: n}, nil
}

// planTest checks test= on directive d, whose job is j, and returns the
// test file it goes to (foo_grad_test.go for foo.go) and what it asks for.
func (r *runner) planTest(prog *frontend.Program, d *frontend.Directive, j *job, v string,
	outFor func(path, src string, d *frontend.Directive) *outFile) (*outFile, testSpec, error) {
	if !testModes[d.Mode] {
		return nil, testSpec{}, fmt.Errorf("option test= is for //gad:jvp, //gad:grad and //gad:vjp")
	}
	spec, err := parseTestOption(v)
	if err != nil {
		return nil, spec, err
	}
	src := d.File.Name
	if strings.HasSuffix(src, "_test.go") {
		return nil, spec, fmt.Errorf("option test= in a _test.go file: gadgen writes the test beside the file of the directive, and %s is a test already", filepath.Base(src))
	}
	if spec.name != "" {
		if spec.inputs, spec.rand, err = lookupInputs(prog, d, spec.name); err != nil {
			return nil, spec, err
		}
		if err := checkGenericTest(j.req); err != nil {
			return nil, spec, err
		}
	} else if err := testShape(j.req); err != nil {
		return nil, spec, err
	} else if d.Mode == "vjp" {
		return nil, spec, fmt.Errorf("test=%s on //gad:vjp: name a function that returns example arguments, test=NAME", v)
	}
	path := outputName(strings.TrimSuffix(src, ".go") + "_test.go")
	out := outFor(path, src, d)
	if len(out.jobs) > 0 {
		return nil, spec, fmt.Errorf("%s, where test= writes its test, holds the derivatives asked for in %s_test.go: move those directives, or drop test=",
			filepath.Base(path), strings.TrimSuffix(filepath.Base(src), ".go"))
	}
	return out, spec, nil
}

// testShape checks that req's target can be tested by a generated test
// of test=true or test=N: float64 and []float64 parameters, all varied,
// and one float64 result; a method's receiver, inactive, is passed as
// the zero value of its type.
func testShape(req *ssaad.Request) error {
	sig := req.Target.Type().(*types.Signature)
	params := ssaad.Params(req.Target)
	unsupported := fmt.Errorf("test=true needs a function of float64 and []float64 parameters, all varied, returning one float64; "+
		"for %s, name a function that returns example arguments, test=NAME (see gadgen's docs/testing.md)", req.Name)
	for i, p := range params {
		if i == 0 && sig.Recv() != nil {
			if req.Active[i] {
				return unsupported
			}
			continue
		}
		switch t := p.Type().Underlying().(type) {
		case *types.Basic:
			if t.Kind() != types.Float64 {
				return unsupported
			}
		case *types.Slice:
			b, ok := t.Elem().Underlying().(*types.Basic)
			if !ok || b.Kind() != types.Float64 {
				return unsupported
			}
		default:
			return unsupported
		}
		if !req.Active[i] || sig.Variadic() && i == len(params)-1 {
			return unsupported
		}
	}
	res := sig.Results()
	if res.Len() != 1 {
		return unsupported
	}
	if b, ok := res.At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Float64 {
		return unsupported
	}
	return nil
}

// testJob is one directive with test=.
type testJob struct {
	j    *job
	spec testSpec
}

// renderTests returns the source of the test file of pkg (name, path)
// holding tests and the named helpers.
func renderTests(pkgName, pkgPath string, tests []testJob, helpers []string) ([]byte, error) {
	f := emit.TestFile{PkgName: pkgName, PkgPath: pkgPath, Tests: planTests(tests), Helpers: helpers}
	return recovered(func() ([]byte, error) { return emit.RenderTests(f) })
}

// planTests returns the tests of a file: one for each directive with
// test=, in order, then a dot-product test for each function with both a
// JVP and a gradient or VJP (not gonum=true, the first gradient rather
// than a VJP) of the same activity, when their tests are both of
// test=NAME, both not, or the JVP's is.
func planTests(tests []testJob) []emit.Test {
	type pair struct{ jvp, grad *testJob }
	dots := map[*types.Func]*pair{}
	var order []*types.Func
	var out []emit.Test
	for i := range tests {
		tj := &tests[i]
		out = append(out, newTest(tj))
		p := dots[tj.j.req.Target]
		if p == nil {
			p = &pair{}
			dots[tj.j.req.Target] = p
			order = append(order, tj.j.req.Target)
		}
		switch tj.j.req.Mode {
		case "jvp":
			p.jvp = tj
		case "grad", "vjp":
			if !tj.j.req.Options.Gonum && (p.grad == nil || p.grad.j.req.Mode == "vjp") {
				p.grad = tj
			}
		}
	}
	for _, fn := range order {
		p := dots[fn]
		if p.jvp == nil || p.grad == nil || !slices.Equal(p.jvp.j.req.Active, p.grad.j.req.Active) ||
			p.jvp.spec.inputs == nil && p.grad.spec.inputs != nil {
			continue
		}
		t := newTest(p.jvp) // at the JVP's points
		t.Name = testName(p.grad.j.req) + "Dot"
		d := testDeriv(p.grad.j, p.jvp.spec.inputs != nil)
		t.Dot = &d
		out = append(out, t)
	}
	return out
}

// newTest returns the test of the directive of tj.
func newTest(tj *testJob) emit.Test {
	req := tj.j.req
	t := emit.Test{Name: testName(req), Target: req.Target, Deriv: testDeriv(tj.j, tj.spec.inputs != nil), Len: tj.spec.n}
	names := ssaad.ParamNames(req.Target)
	for i, p := range ssaad.Params(req.Target) {
		t.Params = append(t.Params, emit.TestParam{Name: names[i], Type: p.Type(), Varied: req.Active[i]})
	}
	if tj.spec.inputs != nil {
		t.Inputs, t.Rand = tj.spec.inputs.Name(), tj.spec.rand
	}
	t.Float32 = computesFloat32(tj.j.fn)
	return t
}

// computesFloat32 reports whether the generated function f holds float32
// values anywhere: its checks then take float32's step and tolerances.
func computesFloat32(f *ir.Func) bool {
	if f == nil {
		return false
	}
	is32 := func(t types.Type) bool {
		b, ok := t.Underlying().(*types.Basic)
		return ok && b.Kind() == types.Float32
	}
	for _, p := range f.Params {
		if ir.Holds(p.Type, is32) {
			return true
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Type != nil && ir.Holds(v.Type, is32) {
				return true
			}
		}
	}
	return false
}

// testDeriv describes the function that j generates, to a test; with
// args, its arguments (for test=NAME).
func testDeriv(j *job, args bool) emit.TestDeriv {
	req := j.req
	d := emit.TestDeriv{Name: req.Name, Mode: req.Mode, Method: req.Method, Gonum: req.Options.Gonum, NoValue: req.Options.NoValue}
	if args {
		d.Args = testArgs(j)
	}
	return d
}

// testName names the test of a generated function: TestGadgen and the
// function's name, a prefix that keeps it apart from the user's tests.
func testName(req *ssaad.Request) string {
	if req.Method {
		return "TestGadgen" + recvNamed(req.Target.Type().(*types.Signature).Recv().Type()).(*types.Named).Obj().Name() + "_" + req.Name
	}
	return "TestGadgen" + req.Name
}

// checkTests reports the test= directives whose function writes one of
// its slice parameters: the generated test would check the gradient as if
// the shadow only accumulated, where for such a parameter it also carries
// the adjoint of the values the function leaves in it.
func (g *generator) checkTests() {
	for _, out := range g.plan.outs {
		for _, tj := range out.tests {
			req := tj.j.req
			w := g.Writes(req.Target)
			for i, p := range ssaad.Params(req.Target) {
				if tj.spec.inputs != nil && !ssaad.IsPointerLike(p.Type()) {
					continue // a copy: what the function writes is its own (a struct by value)
				}
				if w == nil || i < len(w) && w[i] && req.Active[i] {
					what := "may write its slice parameter " + p.Name()
					if w == nil {
						what = "may write its slice parameters"
					}
					g.r.diags.Add(g.prog.Position(tj.j.dir.Pos), frontend.FuncName(req.Target), "directive",
						"test= does not support functions that write their slice parameters yet (%s %s); write the test of %s with package gadtest", req.Target.Name(), what, req.Name)
					out.failed = true
					break
				}
			}
		}
	}
}
