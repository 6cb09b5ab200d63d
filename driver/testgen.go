package driver

// This file defines the test= option of //gad:jvp and //gad:grad: gadgen
// also writes foo_grad_test.go beside foo_grad.go, with one test per such
// directive that checks the generated derivative against central finite
// differences with package gadtest (and a forward-mode derivative against
// a reverse-mode one of the same function by the dot-product test).

import (
	"bytes"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/gadgen/gadgen/emit"

	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ssaad"
)

// gadtestPath is the import path of the testing helpers.
const gadtestPath = "github.com/gadgen/gadgen/gadtest"

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
	} else if _, err := testShape(j.req); err != nil {
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

// testParam is one parameter of the function a test checks.
type testParam struct {
	name   string
	slice  bool // []float64; else float64
	active bool
	recv   types.Type // an inactive receiver, passed as its zero value
}

// testShape checks that req's target can be tested by a generated test,
// and returns its parameters: float64 and []float64 parameters, all
// varied, and one float64 result; a method's receiver, inactive, is
// passed as the zero value of its type.
func testShape(req *ssaad.Request) ([]testParam, error) {
	sig := req.Target.Type().(*types.Signature)
	params := ssaad.Params(req.Target)
	var out []testParam
	unsupported := fmt.Errorf("test=true needs a function of float64 and []float64 parameters, all varied, returning one float64; "+
		"for %s, name a function that returns example arguments, test=NAME (see gadgen's docs/testing.md)", req.Name)
	for i, p := range params {
		tp := testParam{name: p.Name(), active: req.Active[i]}
		if i == 0 && sig.Recv() != nil {
			if tp.active {
				return nil, unsupported
			}
			tp.recv = p.Type()
			out = append(out, tp)
			continue
		}
		switch t := p.Type().Underlying().(type) {
		case *types.Basic:
			tp.slice = false
			if t.Kind() != types.Float64 {
				return nil, unsupported
			}
		case *types.Slice:
			b, ok := t.Elem().Underlying().(*types.Basic)
			if !ok || b.Kind() != types.Float64 {
				return nil, unsupported
			}
			tp.slice = true
		default:
			return nil, unsupported
		}
		if !tp.active || sig.Variadic() && i == len(params)-1 {
			return nil, unsupported
		}
		out = append(out, tp)
	}
	res := sig.Results()
	if res.Len() != 1 {
		return nil, unsupported
	}
	if b, ok := res.At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Float64 {
		return nil, unsupported
	}
	return out, nil
}

// testJob is one directive with test=.
type testJob struct {
	j    *job
	spec testSpec
}

// renderTests returns the source of the test file of pkg (name, path)
// checking tests.
func renderTests(pkgName, pkgPath string, tests []testJob) ([]byte, error) {
	f := jen.NewFilePathName(pkgPath, pkgName)
	f.HeaderComment("Code generated by gadgen. DO NOT EDIT.")
	f.ImportName(gadtestPath, "gadtest")
	f.ImportName("testing", "testing")
	type pair struct{ jvp, grad *testJob }
	dots := map[*types.Func]*pair{}
	var order []*types.Func
	for _, tj := range tests {
		if p := tj.j.req.Target.Pkg(); p != nil && p.Path() != pkgPath {
			f.ImportName(p.Path(), p.Name())
		}
	}
	for i := range tests {
		tj := &tests[i]
		if tj.spec.inputs != nil {
			renderGeneric(f, pkgPath, tj, nil)
		} else {
			renderTest(f, pkgPath, tj)
		}
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
		switch {
		case p.jvp == nil || p.grad == nil || !sameActivity(p.jvp.j.req.Active, p.grad.j.req.Active):
		case p.jvp.spec.inputs != nil:
			renderGeneric(f, pkgPath, p.jvp, p.grad)
		case p.grad.spec.inputs == nil:
			renderDot(f, pkgPath, p.jvp, p.grad)
		}
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func sameActivity(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// flat describes how a test lays the parameters out in one vector.
type flat struct {
	params []testParam
	n      int      // slice length
	dim    int      // length of the vector
	at     []string // each parameter's expression in terms of v
	dat    []string // the same in terms of dv
	single bool     // one []float64 parameter: no wrapping needed
}

func layout(tj *testJob) flat {
	params, _ := testShape(tj.j.req) // checked when the job was planned
	fl := flat{params: params, n: tj.spec.n}
	slices := 0
	for _, p := range params {
		switch {
		case p.recv != nil:
			fl.at = append(fl.at, "recv")
			fl.dat = append(fl.dat, "")
		case p.slice:
			fl.at = append(fl.at, fmt.Sprintf("v[%d:%d]", fl.dim, fl.dim+fl.n))
			fl.dat = append(fl.dat, fmt.Sprintf("dv[%d:%d]", fl.dim, fl.dim+fl.n))
			fl.dim += fl.n
			slices++
		default:
			fl.at = append(fl.at, fmt.Sprintf("v[%d]", fl.dim))
			fl.dat = append(fl.dat, fmt.Sprintf("dv[%d]", fl.dim))
			fl.dim++
		}
	}
	fl.single = slices == 1 && len(params) == 1
	return fl
}

// call returns the call of fn (a function, or a method of the receiver
// when method) with args, args[0] being the receiver for a method.
func call(pkgPath string, fn string, method bool, args []jen.Code) *jen.Statement {
	if method {
		return jen.Add(args[0]).Dot(fn).Call(args[1:]...)
	}
	return jen.Id(fn).Call(args...)
}

func ids(ss []string) []jen.Code {
	var out []jen.Code
	for _, s := range ss {
		out = append(out, jen.Id(s))
	}
	return out
}

// recvDecl declares the receiver's zero value, if the function has one.
func recvDecl(pkgPath string, fl flat) []jen.Code {
	for _, p := range fl.params {
		if p.recv != nil {
			return []jen.Code{jen.Var().Id("recv").Add(typeCode(pkgPath, p.recv))}
		}
	}
	return nil
}

// typeCode writes a receiver type, qualified when of another package.
func typeCode(pkgPath string, t types.Type) jen.Code {
	if p, ok := t.(*types.Pointer); ok {
		return jen.Op("*").Add(typeCode(pkgPath, p.Elem()))
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != pkgPath {
		return jen.Qual(n.Obj().Pkg().Path(), n.Obj().Name())
	}
	if n, ok := t.(*types.Named); ok {
		return jen.Id(n.Obj().Name())
	}
	return jen.Id(t.String())
}

// primalFunc returns the closure f(v []float64) float64 calling the
// target.
func primalFunc(pkgPath string, tj *testJob, fl flat) jen.Code {
	req := tj.j.req
	name := req.Target.Name()
	method := req.Target.Type().(*types.Signature).Recv() != nil
	var fn *jen.Statement
	if p := req.Target.Pkg(); p != nil && p.Path() != pkgPath && !method {
		fn = jen.Qual(p.Path(), name).Call(ids(fl.at)...)
	} else {
		fn = call(pkgPath, name, method, ids(fl.at))
	}
	return jen.Func().Params(jen.Id("v").Index().Float64()).Float64().Block(jen.Return(fn))
}

// testName names the test of a generated function: TestGadgen and the
// function's name, a prefix that keeps it apart from the user's tests.
func testName(req *ssaad.Request) string {
	if req.Method {
		return "TestGadgen" + recvNamed(req.Target.Type().(*types.Signature).Recv().Type()).(*types.Named).Obj().Name() + "_" + req.Name
	}
	return "TestGadgen" + req.Name
}

func renderTest(f *jen.File, pkgPath string, tj *testJob) {
	req := tj.j.req
	fl := layout(tj)
	var body []jen.Code
	dim := jen.Qual(gadtestPath, "Dim").Call(jen.Lit(fl.dim))
	if fl.single && !req.Method && (req.Target.Pkg() == nil || req.Target.Pkg().Path() == pkgPath) {
		// func F(x []float64) float64: F and its derivative have the
		// shapes gadtest takes.
		check, doc := "Grad", "%s checks %s against central finite differences, component by component."
		switch {
		case req.Mode == "jvp":
			check, doc = "JVP", "%s checks %s against central finite differences along random directions."
		case req.Options.Gonum:
			check = "GonumGrad"
		}
		comment(f, fmt.Sprintf(doc, testName(req), req.Name))
		lengthNote(f, fl)
		f.Func().Id(testName(req)).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
			jen.Qual(gadtestPath, check).Call(jen.Id("t"), jen.Id(req.Target.Name()), jen.Id(req.Name), jen.Qual(gadtestPath, "Dim").Call(jen.Lit(fl.n))))
		f.Line()
		return
	}
	body = append(body, recvDecl(pkgPath, fl)...)
	body = append(body, jen.Id("f").Op(":=").Add(primalFunc(pkgPath, tj, fl)))
	var doc string
	switch {
	case req.Mode == "jvp":
		doc = fmt.Sprintf("%s checks %s against central finite differences along random directions.", testName(req), req.Name)
		body = append(body, jen.Id("jvp").Op(":=").Add(jvpFunc(tj, fl)))
		body = append(body, jen.Qual(gadtestPath, "JVP").Call(jen.Id("t"), jen.Id("f"), jen.Id("jvp"), dim))
	case req.Options.Gonum:
		doc = fmt.Sprintf("%s checks %s against central finite differences.", testName(req), req.Name)
		g := jen.Id(req.Name)
		if req.Method {
			g = jen.Id("recv").Dot(req.Name)
		} else if fl.params[0].recv != nil {
			g = jen.Func().Params(jen.Id("grad"), jen.Id("x").Index().Float64()).Block(jen.Id(req.Name).Call(jen.Id("recv"), jen.Id("grad"), jen.Id("x")))
		}
		body = append(body, jen.Qual(gadtestPath, "GonumGrad").Call(jen.Id("t"), jen.Id("f"), g, dim))
	default:
		doc = fmt.Sprintf("%s checks %s against central finite differences, component by component.", testName(req), req.Name)
		body = append(body, jen.Id("grad").Op(":=").Add(gradFunc(tj, fl)))
		body = append(body, jen.Qual(gadtestPath, "Grad").Call(jen.Id("t"), jen.Id("f"), jen.Id("grad"), dim))
	}
	comment(f, doc)
	lengthNote(f, fl)
	f.Func().Id(testName(req)).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(body...)
	f.Line()
}

// comment adds a comment to f, wrapped as the emitter wraps doc comments.
func comment(f *jen.File, text string) {
	for _, l := range emit.WrapDoc(text, emit.DocWidth) {
		f.Comment(l)
	}
}

// lengthNote says, under a test's doc comment, the length of the slice
// parameters at the points checked and how to change it: a function that
// indexes further panics there, and the test reports the panic.
func lengthNote(f *jen.File, fl flat) {
	for _, p := range fl.params {
		if p.slice {
			comment(f, fmt.Sprintf("The slice parameters have length %d at the points checked: test=N in the directive sets another.", fl.n))
			return
		}
	}
}

// derivedCall calls the generated function with args.
func derivedCall(req *ssaad.Request, fl flat, args []jen.Code) *jen.Statement {
	if req.Method {
		return jen.Id("recv").Dot(req.Name).Call(args[1:]...)
	}
	return jen.Id(req.Name).Call(args...)
}

// jvpFunc returns func(v, dv []float64) (float64, float64) calling the
// generated JVP, whose tangent parameters follow each parameter.
func jvpFunc(tj *testJob, fl flat) jen.Code {
	req := tj.j.req
	sig := jen.Func().Params(jen.List(jen.Id("v"), jen.Id("dv")).Index().Float64()).Params(jen.Float64(), jen.Float64())
	var args []jen.Code
	for i, p := range fl.params {
		args = append(args, jen.Id(fl.at[i]))
		if p.recv == nil {
			args = append(args, jen.Id(fl.dat[i]))
		}
	}
	return sig.Block(jen.Return(derivedCall(req, fl, args)))
}

// gradFunc returns func(v, dv []float64) float64 calling the generated
// gradient and adding the partials of the scalar parameters, which it
// returns, to dv.
func gradFunc(tj *testJob, fl flat) jen.Code {
	req := tj.j.req
	sig := jen.Func().Params(jen.List(jen.Id("v"), jen.Id("dv")).Index().Float64()).Float64()
	var args []jen.Code
	results := []jen.Code{jen.Id("y")}
	var adds []jen.Code
	for i, p := range fl.params {
		args = append(args, jen.Id(fl.at[i]))
		switch {
		case p.recv != nil:
		case p.slice:
			args = append(args, jen.Id(fl.dat[i]))
		default:
			d := fmt.Sprintf("d%d", len(adds))
			results = append(results, jen.Id(d))
			adds = append(adds, jen.Id(fl.dat[i]).Op("+=").Id(d))
		}
	}
	if len(adds) == 0 {
		return sig.Block(jen.Return(derivedCall(req, fl, args)))
	}
	body := []jen.Code{jen.List(results...).Op(":=").Add(derivedCall(req, fl, args))}
	body = append(body, adds...)
	body = append(body, jen.Return(jen.Id("y")))
	return sig.Block(body...)
}

func renderDot(f *jen.File, pkgPath string, jt, gt *testJob) {
	fl := layout(jt)
	gl := layout(&testJob{j: gt.j, spec: jt.spec}) // the same points
	name := testName(gt.j.req) + "Dot"
	var body []jen.Code
	jreq := jt.j.req
	if fl.single && !jreq.Method && (jreq.Target.Pkg() == nil || jreq.Target.Pkg().Path() == pkgPath) {
		comment(f, fmt.Sprintf("%s checks %s against %s by the dot-product test: ⟨∇f(x), v⟩ is the derivative along v.", name, gt.j.req.Name, jt.j.req.Name))
		lengthNote(f, fl)
		f.Func().Id(name).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
			jen.Qual(gadtestPath, "DotTest").Call(jen.Id("t"),
				jen.Qual(gadtestPath, "ScalarJVP").Call(jen.Id(jreq.Name)),
				jen.Qual(gadtestPath, "ScalarGrad").Call(jen.Id(gt.j.req.Name)),
				jen.Qual(gadtestPath, "Dim").Call(jen.Lit(fl.dim))))
		f.Line()
		return
	}
	body = append(body, recvDecl(pkgPath, fl)...)
	body = append(body,
		jen.Id("jvp").Op(":=").Add(jvpFunc(jt, fl)),
		jen.Id("grad").Op(":=").Add(gradFunc(gt, gl)),
		jen.Qual(gadtestPath, "DotTest").Call(jen.Id("t"),
			jen.Qual(gadtestPath, "ScalarJVP").Call(jen.Id("jvp")),
			jen.Qual(gadtestPath, "ScalarGrad").Call(jen.Id("grad")),
			jen.Qual(gadtestPath, "Dim").Call(jen.Lit(fl.dim))))
	comment(f, fmt.Sprintf("%s checks %s against %s by the dot-product test: ⟨∇f(x), v⟩ is the derivative along v.", name, gt.j.req.Name, jt.j.req.Name))
	lengthNote(f, fl)
	f.Func().Id(name).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(body...)
	f.Line()
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
