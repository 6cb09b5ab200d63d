package emit

// This file defines RenderTests, the _test.go files that the option test=
// of //gad:jvp, //gad:grad and //gad:vjp asks for: one test per such
// directive that checks the generated derivative against central finite
// differences with package gadtest, and a dot-product test of a JVP
// against a gradient or a VJP of the same function. The driver decides
// which tests a file holds and describes them (TestFile); this file and
// tests_tensor.go write them. Here, the tests of functions of float64 and
// []float64 parameters (test=true, test=N), whose parameters the test
// lays out in one vector of float64.

import (
	"bytes"
	"fmt"
	"go/types"

	"github.com/dave/jennifer/jen"
)

// TestFile is a _test.go file of tests of generated derivatives.
type TestFile struct {
	PkgName string // package clause name
	PkgPath string // import path of the package the file belongs to
	Tests   []Test // in order
	// Helpers names the helper functions (see HelpersOf) whose sources
	// the file holds after the tests, in order.
	Helpers []string
}

// Test is one test function. It checks Deriv against central finite
// differences or, when Dot is set, Deriv (a JVP) against Dot (a gradient
// or a VJP of the same function with the same varied parameters) by the
// dot-product test.
//
// With Inputs set (test=NAME), the test checks the derivative at the
// arguments that the function Inputs returns (tests_tensor.go).
// Otherwise (test=true, test=N) Target has float64 and []float64
// parameters, all varied but a method's receiver, which is passed as the
// zero value of its type, and one float64 result; the slice parameters
// have length Len at the points checked.
type Test struct {
	Name   string      // the test function's name
	Target *types.Func // the function differentiated
	Params []TestParam // Target's parameters, a method's receiver first
	Deriv  TestDeriv
	Dot    *TestDeriv
	Len    int
	Inputs string // the function returning example arguments, "" for none
	Rand   bool   // Inputs takes a *rand.Rand (math/rand/v2)
	// Float32: Target computes in float32, so that the checks take
	// gadtest.Float32() (float32's step and tolerances).
	Float32 bool
}

// points returns the options of a check of t on points of n floats.
func (t *Test) points(n int) []jen.Code {
	opts := []jen.Code{jen.Qual(gadtestPath, "Dim").Call(jen.Lit(n))}
	if t.Float32 {
		opts = append(opts, jen.Qual(gadtestPath, "Float32").Call())
	}
	return opts
}

// TestParam is a parameter of the function a test checks.
type TestParam struct {
	Name   string // as the generated functions name it
	Type   types.Type
	Varied bool
}

// TestDeriv is a generated function that a test calls.
type TestDeriv struct {
	Name    string // FGrad
	Mode    string // "jvp", "grad" or "vjp"
	Method  bool   // a method of the receiver type of Test.Target
	Gonum   bool   // a gradient in gonum/optimize's shape, func(grad, x []float64)
	NoValue bool   // a gradient or VJP that does not return Target's result
	// Args are the arguments the function takes, receiver first, for a
	// test with Test.Inputs.
	Args []TestArg
}

// TestArg is an argument of a generated function.
type TestArg struct {
	Kind  ArgKind
	Param int // the index of the parameter in Test.Params (not for ArgSeed)
}

// ArgKind says what an argument of a generated function is.
type ArgKind int

const (
	ArgPrimal  ArgKind = iota // the parameter
	ArgTangent                // its tangent, or the shadow that receives its adjoint
	ArgMixed                  // a pointer shadow of a struct passed by value
	ArgSeed                   // the seed of a VJP's result
)

// gadtestPath is the import path of the testing helpers.
const gadtestPath = "github.com/gadgen/gadgen/gadtest"

// RenderTests returns the source of the test file f: the generated-code
// marker line, the package clause, the imports, the tests in order and
// the helpers, formatted with go/format.
func RenderTests(f TestFile) ([]byte, error) {
	jf := jen.NewFilePathName(f.PkgPath, f.PkgName)
	jf.HeaderComment(header)
	jf.ImportName(gadtestPath, "gadtest")
	jf.ImportName("testing", "testing")
	for _, t := range f.Tests {
		if p := t.Target.Pkg(); p != nil && p.Path() != f.PkgPath {
			jf.ImportName(p.Path(), p.Name())
		}
	}
	for i := range f.Tests {
		t := &f.Tests[i]
		switch {
		case t.Inputs != "":
			renderGeneric(jf, f.PkgPath, t)
		case t.Dot != nil:
			renderDot(jf, f.PkgPath, t)
		default:
			renderTest(jf, f.PkgPath, t)
		}
	}
	var buf bytes.Buffer
	if err := jf.Render(&buf); err != nil {
		return nil, fmt.Errorf("emit: internal error: %v", err)
	}
	return appendHelpers(buf.Bytes(), f.Helpers)
}

// flat describes how a test lays the parameters out in one vector v: a
// float64 parameter is an element, a slice one Len elements, a receiver
// none.
type flat struct {
	t      *Test
	lo, hi []int // each parameter's elements v[lo:hi]; hi < 0 for a float64, lo < 0 for the receiver
	dim    int   // length of the vector
	single bool  // one []float64 parameter: no wrapping needed
}

func layout(t *Test) flat {
	fl := flat{t: t}
	method := t.Target.Type().(*types.Signature).Recv() != nil
	slices := 0
	for i, p := range t.Params {
		_, slice := p.Type.Underlying().(*types.Slice)
		switch {
		case i == 0 && method:
			fl.lo, fl.hi = append(fl.lo, -1), append(fl.hi, -1)
		case slice:
			fl.lo, fl.hi = append(fl.lo, fl.dim), append(fl.hi, fl.dim+t.Len)
			fl.dim += t.Len
			slices++
		default:
			fl.lo, fl.hi = append(fl.lo, fl.dim), append(fl.hi, -1)
			fl.dim++
		}
	}
	fl.single = slices == 1 && len(t.Params) == 1
	return fl
}

// recv reports whether parameter i is the receiver.
func (fl flat) recv(i int) bool { return fl.lo[i] < 0 }

// slice reports whether parameter i is a []float64.
func (fl flat) slice(i int) bool { return fl.hi[i] >= 0 }

// at returns parameter i in terms of the vector v (or dv): v[lo:hi],
// v[lo], or recv for the receiver.
func (fl flat) at(v string, i int) *jen.Statement {
	switch {
	case fl.recv(i):
		return jen.Id("recv")
	case fl.slice(i):
		return jen.Id(v).Index(jen.Lit(fl.lo[i]), jen.Lit(fl.hi[i]))
	}
	return jen.Id(v).Index(jen.Lit(fl.lo[i]))
}

// args returns the parameters in terms of v.
func (fl flat) args() []jen.Code {
	var out []jen.Code
	for i := range fl.lo {
		out = append(out, fl.at("v", i))
	}
	return out
}

// local reports whether the test calls the target and its derivative as
// gadtest takes them, by name: a function of one []float64 of the file's
// package, and a gradient that returns the value (gadtest.Grad's shape).
func (fl flat) local(pkgPath string, d *TestDeriv) bool {
	p := fl.t.Target.Pkg()
	return fl.single && !d.Method && (p == nil || p.Path() == pkgPath) && (!d.NoValue || d.Gonum)
}

// recvDecl declares the receiver, if the function has one: the zero value
// of its type, or a pointer to the zero value of a pointer receiver's
// (a nil receiver would make every method that reads a field panic).
func recvDecl(pkgPath string, fl flat) []jen.Code {
	if len(fl.lo) == 0 || !fl.recv(0) {
		return nil
	}
	typ := fl.t.Params[0].Type
	if p, ok := typ.(*types.Pointer); ok {
		return []jen.Code{jen.Id("recv").Op(":=").New(testType(pkgPath, p.Elem()))}
	}
	return []jen.Code{jen.Var().Id("recv").Add(testType(pkgPath, typ))}
}

// primalFunc returns the closure f(v []float64) float64 calling the
// target.
func primalFunc(pkgPath string, fl flat) jen.Code {
	fn := fl.t.Target
	var call *jen.Statement
	switch p := fn.Pkg(); {
	case fn.Type().(*types.Signature).Recv() != nil:
		call = jen.Id("recv").Dot(fn.Name()).Call(fl.args()[1:]...)
	case p != nil && p.Path() != pkgPath:
		call = jen.Qual(p.Path(), fn.Name()).Call(fl.args()...)
	default:
		call = jen.Id(fn.Name()).Call(fl.args()...)
	}
	return jen.Func().Params(jen.Id("v").Index().Float64()).Float64().Block(jen.Return(call))
}

// testFunc adds to f the test function name with its doc comment, the
// note on the length of the slice parameters when it has them, and body.
func testFunc(f *jen.File, name, doc string, fl *flat, body ...jen.Code) {
	comment(f, doc)
	if fl != nil {
		lengthNote(f, *fl)
	}
	f.Func().Id(name).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(body...)
	f.Line()
}

// Doc comments of the tests, by check, with the test's name and the
// derivative's (and the JVP's, for the dot-product test).
const (
	docGrad  = "%s checks %s against central finite differences, component by component."
	docGonum = "%s checks %s against central finite differences."
	docJVP   = "%s checks %s against central finite differences along random directions."
	docDot   = "%s checks %s against %s by the dot-product test: ⟨∇f(x), v⟩ is the derivative along v."
)

// renderTest writes the test of the derivative t.Deriv against central
// finite differences.
func renderTest(f *jen.File, pkgPath string, t *Test) {
	d := &t.Deriv
	fl := layout(t)
	dim := t.points(fl.dim)
	if fl.local(pkgPath, d) {
		// func F(x []float64) float64: F and its derivative have the
		// shapes gadtest takes.
		check, doc := "Grad", docGrad
		switch {
		case d.Mode == "jvp":
			check, doc = "JVP", docJVP
		case d.Gonum:
			check = "GonumGrad"
		}
		testFunc(f, t.Name, fmt.Sprintf(doc, t.Name, d.Name), &fl,
			jen.Qual(gadtestPath, check).Call(append([]jen.Code{jen.Id("t"), jen.Id(t.Target.Name()), jen.Id(d.Name)}, t.points(t.Len)...)...))
		return
	}
	body := recvDecl(pkgPath, fl)
	body = append(body, jen.Id("f").Op(":=").Add(primalFunc(pkgPath, fl)))
	var doc string
	switch {
	case d.Mode == "jvp":
		doc = docJVP
		body = append(body, jen.Id("jvp").Op(":=").Add(jvpFunc(d, fl)))
		body = append(body, jen.Qual(gadtestPath, "JVP").Call(append([]jen.Code{jen.Id("t"), jen.Id("f"), jen.Id("jvp")}, dim...)...))
	case d.Gonum:
		doc = docGonum
		g := jen.Id(d.Name)
		if d.Method {
			g = jen.Id("recv").Dot(d.Name)
		} else if fl.recv(0) {
			g = jen.Func().Params(jen.Id("grad"), jen.Id("x").Index().Float64()).Block(jen.Id(d.Name).Call(jen.Id("recv"), jen.Id("grad"), jen.Id("x")))
		}
		body = append(body, jen.Qual(gadtestPath, "GonumGrad").Call(append([]jen.Code{jen.Id("t"), jen.Id("f"), g}, dim...)...))
	default:
		doc = docGrad
		body = append(body, jen.Id("grad").Op(":=").Add(gradFunc(d, fl)))
		body = append(body, jen.Qual(gadtestPath, "Grad").Call(append([]jen.Code{jen.Id("t"), jen.Id("f"), jen.Id("grad")}, dim...)...))
	}
	testFunc(f, t.Name, fmt.Sprintf(doc, t.Name, d.Name), &fl, body...)
}

// comment adds a comment to f, wrapped as the doc comments of the
// generated functions are.
func comment(f *jen.File, text string) {
	for _, l := range wrapDoc(text, docWidth) {
		f.Comment(l)
	}
}

// lengthNote says, under a test's doc comment, the length of the slice
// parameters at the points checked and how to change it: a function that
// indexes further panics there, and the test reports the panic.
func lengthNote(f *jen.File, fl flat) {
	for i := range fl.lo {
		if fl.slice(i) {
			comment(f, fmt.Sprintf("The slice parameters have length %d at the points checked: test=N in the directive sets another.", fl.t.Len))
			return
		}
	}
}

// derivedCall calls the generated function d with args, the receiver
// first.
func derivedCall(d *TestDeriv, args []jen.Code) *jen.Statement {
	if d.Method {
		return jen.Id("recv").Dot(d.Name).Call(args[1:]...)
	}
	return jen.Id(d.Name).Call(args...)
}

// jvpFunc returns func(v, dv []float64) (float64, float64) calling the
// generated JVP d, whose tangent parameters follow each parameter.
func jvpFunc(d *TestDeriv, fl flat) jen.Code {
	sig := jen.Func().Params(jen.List(jen.Id("v"), jen.Id("dv")).Index().Float64()).Params(jen.Float64(), jen.Float64())
	var args []jen.Code
	for i := range fl.lo {
		args = append(args, fl.at("v", i))
		if !fl.recv(i) {
			args = append(args, fl.at("dv", i))
		}
	}
	return sig.Block(jen.Return(derivedCall(d, args)))
}

// gradFunc returns func(v, dv []float64) float64 calling the generated
// gradient d and adding the partials of the scalar parameters, which it
// returns, to dv. A gradient without the value (value=false) returns the
// target's, f(v): the test declares f first.
func gradFunc(d *TestDeriv, fl flat) jen.Code {
	sig := jen.Func().Params(jen.List(jen.Id("v"), jen.Id("dv")).Index().Float64()).Float64()
	var args []jen.Code
	var results []jen.Code
	value := jen.Id("f").Call(jen.Id("v"))
	if !d.NoValue {
		results, value = []jen.Code{jen.Id("y")}, jen.Id("y")
	}
	var adds []jen.Code
	for i := range fl.lo {
		args = append(args, fl.at("v", i))
		switch {
		case fl.recv(i):
		case fl.slice(i):
			args = append(args, fl.at("dv", i))
		default:
			p := fmt.Sprintf("d%d", len(adds))
			results = append(results, jen.Id(p))
			adds = append(adds, fl.at("dv", i).Op("+=").Id(p))
		}
	}
	switch {
	case len(adds) == 0 && !d.NoValue:
		return sig.Block(jen.Return(derivedCall(d, args)))
	case len(results) == 0:
		return sig.Block(derivedCall(d, args), jen.Return(value))
	}
	body := []jen.Code{jen.List(results...).Op(":=").Add(derivedCall(d, args))}
	body = append(body, adds...)
	body = append(body, jen.Return(value))
	return sig.Block(body...)
}

// renderDot writes the dot-product test of the JVP t.Deriv and the
// gradient t.Dot.
func renderDot(f *jen.File, pkgPath string, t *Test) {
	jvp, grad := &t.Deriv, t.Dot
	fl := layout(t)
	doc := fmt.Sprintf(docDot, t.Name, grad.Name, jvp.Name)
	dot := func(jvp, grad string) jen.Code {
		return jen.Qual(gadtestPath, "DotTest").Call(append([]jen.Code{jen.Id("t"),
			jen.Qual(gadtestPath, "ScalarJVP").Call(jen.Id(jvp)),
			jen.Qual(gadtestPath, "ScalarGrad").Call(jen.Id(grad))}, t.points(fl.dim)...)...)
	}
	if fl.local(pkgPath, jvp) {
		testFunc(f, t.Name, doc, &fl, dot(jvp.Name, grad.Name))
		return
	}
	body := recvDecl(pkgPath, fl)
	if grad.NoValue {
		body = append(body, jen.Id("f").Op(":=").Add(primalFunc(pkgPath, fl)))
	}
	body = append(body,
		jen.Id("jvp").Op(":=").Add(jvpFunc(jvp, fl)),
		jen.Id("grad").Op(":=").Add(gradFunc(grad, fl)),
		dot("jvp", "grad"))
	testFunc(f, t.Name, doc, &fl, body...)
}
