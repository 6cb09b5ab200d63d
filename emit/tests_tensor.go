package emit

// This file defines the tests of test=NAME (Test.Inputs): for a function
// of tensors, of structs of tensors (by value or by pointer, with tensor
// and []*Tensor fields) or of any other parameters that hold floats, the
// user names a function of the package (or of its tests) that returns
// example arguments,
//
//	func lossInputs(r *rand.Rand) (m *Model, x, y *tensorops.Tensor)
//
// one result per parameter of the function (a method's receiver first),
// which the test calls at each point it checks (without parameters, at
// one point). The test adapts the generated derivative to the shapes of
// gadtest's tensor checks (TensorJVP, TensorGrad, TensorGradTo,
// TensorVJP, TensorDot): the varied parameters are the point, the others
// are fixed at the values the function returned.

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
)

// inputPoints is the number of points a test=NAME test checks when the
// inputs function takes a *rand.Rand.
const inputPoints = 2

// generic is what a test=NAME test knows of the function it checks.
type generic struct {
	pkgPath string
	t       *Test
	locals  []string // the test's names of the arguments
	varied  []int    // the varied parameters
}

// testReserved are the identifiers of a generated test that arguments
// must not shadow.
var testReserved = map[string]bool{"t": true, "r": true, "f": true, "p": true, "dp": true, "pBar": true, "rBar": true,
	"jvp": true, "grad": true, "vjp": true, "val": true, "point": true, "pt": true, "gadtest": true, "testing": true, "tensorops": true, "rand": true}

func newGeneric(pkgPath string, t *Test) *generic {
	g := &generic{pkgPath: pkgPath, t: t}
	used := map[string]bool{t.Target.Name(): true, t.Deriv.Name: true}
	for i, p := range t.Params {
		n := p.Name
		for testReserved[n] || used[n] || strings.HasPrefix(n, "g") && isDigits(n[1:]) {
			n += "_"
		}
		used[n] = true
		g.locals = append(g.locals, n)
		if p.Varied {
			g.varied = append(g.varied, i)
		}
	}
	return g
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// single reports whether the point is the one varied argument itself
// (else a *point struct of them): when it is one, and its derivative in
// d is not a pointer to it (a struct passed by value that holds slices
// gets a pointer shadow).
func (g *generic) single(d *TestDeriv) bool {
	if len(g.varied) != 1 {
		return false
	}
	for _, a := range d.Args {
		if a.Kind == ArgMixed {
			return false
		}
	}
	return true
}

// returned lists the varied parameters whose derivative d returns (after
// its value), in order.
func (g *generic) returned(d *TestDeriv) []int {
	has := map[int]bool{}
	for _, a := range d.Args {
		if a.Kind == ArgTangent || a.Kind == ArgMixed {
			has[a.Param] = true
		}
	}
	var out []int
	for _, i := range g.varied {
		if !has[i] {
			out = append(out, i)
		}
	}
	return out
}

// field returns the expression of the varied argument i in a point named
// p: p itself for a single point, else its field.
func (g *generic) field(p string, i int, single bool) *jen.Statement {
	if single {
		return jen.Id(p)
	}
	return jen.Id(p).Dot(g.locals[i])
}

// value returns the argument of parameter i in a call, with the point p.
func (g *generic) value(i int, single bool) *jen.Statement {
	if g.t.Params[i].Varied {
		return g.field("p", i, single)
	}
	return jen.Id(g.locals[i])
}

// callOf returns the call of the target, or with d of that generated
// function, with args, receiver first for a method.
func (g *generic) callOf(d *TestDeriv, args []jen.Code) *jen.Statement {
	fn := g.t.Target
	name, method := fn.Name(), fn.Type().(*types.Signature).Recv() != nil
	if d != nil {
		name, method = d.Name, d.Method
	}
	if method {
		return jen.Add(args[0]).Dot(name).Call(args[1:]...)
	}
	if p := fn.Pkg(); d == nil && p != nil && p.Path() != g.pkgPath {
		return jen.Qual(p.Path(), name).Call(args...)
	}
	return jen.Id(name).Call(args...)
}

// pointType returns the type of the point: the varied argument's for a
// single one, else *point.
func (g *generic) pointType(single bool) *jen.Statement {
	if single {
		return jen.Add(testType(g.pkgPath, g.t.Params[g.varied[0]].Type))
	}
	return jen.Op("*").Id("point")
}

// resultType returns the type of the target's result.
func (g *generic) resultType() *jen.Statement {
	return jen.Add(testType(g.pkgPath, g.t.Target.Type().(*types.Signature).Results().At(0).Type()))
}

// primalFunc returns f := func(p P) R calling the target.
func (g *generic) primalFunc(single bool) jen.Code {
	var args []jen.Code
	for i := range g.t.Params {
		args = append(args, g.value(i, single))
	}
	return jen.Id("f").Op(":=").Func().Params(jen.Id("p").Add(g.pointType(single))).Add(g.resultType()).
		Block(jen.Return(g.callOf(nil, args)))
}

// derivedArgs returns the arguments of the generated function d: the
// point p and its derivative dv (dp or pBar), and the seed rBar.
func (g *generic) derivedArgs(d *TestDeriv, single bool, dv string) []jen.Code {
	var args []jen.Code
	for _, a := range d.Args {
		switch a.Kind {
		case ArgPrimal:
			args = append(args, g.value(a.Param, single))
		case ArgTangent:
			args = append(args, g.field(dv, a.Param, single))
		case ArgMixed:
			args = append(args, jen.Op("&").Add(g.field(dv, a.Param, single)))
		case ArgSeed:
			args = append(args, jen.Id("rBar"))
		}
	}
	return args
}

// jvpFunc returns jvp := func(p, dp P) (R, R) calling the generated JVP d.
func (g *generic) jvpFunc(d *TestDeriv, single bool) jen.Code {
	call := g.callOf(d, g.derivedArgs(d, single, "dp"))
	return jen.Id("jvp").Op(":=").Func().Params(jen.List(jen.Id("p"), jen.Id("dp")).Add(g.pointType(single))).
		Params(g.resultType(), g.resultType()).Block(jen.Return(call))
}

// reverseBody returns the statements of a gradient or VJP adapter that
// calls the generated function d, whose derivatives go into pBar (made
// already): the shadows as arguments, the returned ones added to it
// (Accumulate) or, for a single point, returned. It returns the value
// and, for a single returned derivative, its name; and, when the adapter
// is that call, the call alone.
func (g *generic) reverseBody(d *TestDeriv, single bool) (body []jen.Code, val, ret, direct jen.Code) {
	call := g.callOf(d, g.derivedArgs(d, single, "pBar"))
	returned := g.returned(d)
	if !d.NoValue && (len(returned) == 0 || single && len(returned) == 1) {
		direct = call
	}
	var results []jen.Code
	if !d.NoValue {
		results = append(results, jen.Id("val"))
	}
	for k := range returned {
		results = append(results, jen.Id(fmt.Sprintf("g%d", k)))
	}
	if len(results) == 0 {
		body = append(body, call)
	} else {
		body = append(body, jen.List(results...).Op(":=").Add(call))
	}
	for k, i := range returned {
		if single {
			ret = jen.Id(fmt.Sprintf("g%d", k))
			continue
		}
		body = append(body, jen.Qual(gadtestPath, "Accumulate").Call(jen.Op("&").Add(g.field("pBar", i, false)), jen.Id(fmt.Sprintf("g%d", k))))
	}
	val = jen.Id("val")
	if d.NoValue {
		val = jen.Id("f").Call(jen.Id("p"))
	}
	return body, val, ret, direct
}

// gradFunc returns grad := … calling the generated gradient d, and the
// check of gadtest that takes it: TensorGrad for one varied argument
// whose gradient is returned (func(p P) (float64, P)), else TensorGradTo
// (func(p, pBar P) float64).
func (g *generic) gradFunc(d *TestDeriv, single bool) (jen.Code, string) {
	body, val, ret, direct := g.reverseBody(d, single)
	P := g.pointType(single)
	if direct != nil {
		body = []jen.Code{jen.Return(direct)}
	}
	if ret != nil {
		if direct == nil {
			body = append(body, jen.Return(val, ret))
		}
		return jen.Id("grad").Op(":=").Func().Params(jen.Id("p").Add(P)).Params(jen.Float64(), g.pointType(single)).Block(body...), "TensorGrad"
	}
	if direct == nil {
		body = append(body, jen.Return(val))
	}
	return jen.Id("grad").Op(":=").Func().Params(jen.List(jen.Id("p"), jen.Id("pBar")).Add(P)).Float64().Block(body...), "TensorGradTo"
}

// vjpFunc returns vjp := func(p P, rBar R) (R, P) calling the generated
// VJP d.
func (g *generic) vjpFunc(d *TestDeriv, single bool) jen.Code {
	body, val, ret, direct := g.reverseBody(d, single)
	switch {
	case ret != nil && direct != nil:
		body = []jen.Code{jen.Return(direct)}
	case ret != nil:
		body = append(body, jen.Return(val, ret))
	default:
		body = append([]jen.Code{jen.Id("pBar").Op(":=").Qual(gadtestPath, "Shadow").Call(jen.Id("p"))}, body...)
		body = append(body, jen.Return(val, jen.Id("pBar")))
	}
	return jen.Id("vjp").Op(":=").Func().Params(jen.Id("p").Add(g.pointType(single)), jen.Id("rBar").Add(g.resultType())).
		Params(g.resultType(), g.pointType(single)).Block(body...)
}

// renderGeneric writes the test of a test=NAME directive: of t.Deriv, or
// the dot-product test of t.Deriv and t.Dot.
func renderGeneric(f *jen.File, pkgPath string, t *Test) {
	g := newGeneric(pkgPath, t)
	single := g.single(&t.Deriv) && (t.Dot == nil || g.single(t.Dot))
	var body []jen.Code
	if !single {
		var fields []jen.Code
		for _, i := range g.varied {
			fields = append(fields, jen.Id(g.locals[i]).Add(testType(pkgPath, t.Params[i].Type)))
		}
		body = append(body, jen.Type().Id("point").Struct(fields...))
	}
	inputs := jen.Id(t.Inputs).Call()
	if t.Rand {
		body = append(body, jen.Id("r").Op(":=").Qual(gadtestPath, "NewRand").Call(jen.Lit(1)))
		inputs = jen.Id(t.Inputs).Call(jen.Id("r"))
	}
	var locals []jen.Code
	for _, l := range g.locals {
		locals = append(locals, jen.Id(l))
	}
	loop := []jen.Code{jen.List(locals...).Op(":=").Add(inputs)}
	var point jen.Code = jen.Id(g.locals[g.varied[0]])
	if !single {
		var vs []jen.Code
		for _, i := range g.varied {
			vs = append(vs, jen.Id(g.locals[i]))
		}
		point = jen.Op("&").Id("point").Values(vs...)
	}
	loop = append(loop, jen.Id("pt").Op(":=").Add(point))
	checks, doc := g.checks(single)
	loop = append(loop, checks...)
	if t.Rand {
		body = append(body, jen.For(jen.Range().Lit(inputPoints)).Block(loop...))
	} else {
		body = append(body, loop...)
	}
	testFunc(f, t.Name, doc, nil, body...)
}

// checks returns the statements of a test=NAME test after the point pt:
// the adapters of the target and of the generated functions, and the
// check of gadtest that takes them; and the test's doc comment.
func (g *generic) checks(single bool) ([]jen.Code, string) {
	t, d := g.t, &g.t.Deriv
	var out []jen.Code
	var doc string
	switch {
	case t.Dot != nil:
		if t.Dot.NoValue {
			out = append(out, g.primalFunc(single)) // the gradient's adapter returns f(p)
		}
		out = append(out, g.jvpFunc(d, single))
		vjp := jen.Id("vjp")
		if t.Dot.Mode == "grad" {
			gf, check := g.gradFunc(t.Dot, single)
			out = append(out, gf)
			adapt := "GradToVJP"
			if check == "TensorGrad" {
				adapt = "GradVJP"
			}
			vjp = jen.Qual(gadtestPath, adapt).Call(jen.Id("grad"))
		} else {
			out = append(out, g.vjpFunc(t.Dot, single))
		}
		out = append(out, jen.Qual(gadtestPath, "TensorDot").Call(jen.Id("t"), jen.Id("jvp"), vjp, jen.Id("pt")))
		doc = fmt.Sprintf("%s checks %s against %s by the dot-product test, at the arguments %s returns.", t.Name, t.Dot.Name, d.Name, t.Inputs)
	case d.Mode == "jvp":
		out = append(out, g.primalFunc(single), g.jvpFunc(d, single),
			jen.Qual(gadtestPath, "TensorJVP").Call(jen.Id("t"), jen.Id("f"), jen.Id("jvp"), jen.Id("pt")))
		doc = fmt.Sprintf("%s checks %s against central finite differences along random directions, at the arguments %s returns.", t.Name, d.Name, t.Inputs)
	case d.Mode == "grad":
		gf, check := g.gradFunc(d, single)
		out = append(out, g.primalFunc(single), gf, jen.Qual(gadtestPath, check).Call(jen.Id("t"), jen.Id("f"), jen.Id("grad"), jen.Id("pt")))
		doc = fmt.Sprintf("%s checks %s against central finite differences, at the arguments %s returns.", t.Name, d.Name, t.Inputs)
		if check == "TensorGradTo" {
			doc += " It also checks that the gradient is added to the shadow."
		}
	default:
		out = append(out, g.primalFunc(single), g.vjpFunc(d, single),
			jen.Qual(gadtestPath, "TensorVJP").Call(jen.Id("t"), jen.Id("f"), jen.Id("vjp"), jen.Id("pt")))
		doc = fmt.Sprintf("%s checks %s against central finite differences with random seeds, at the arguments %s returns.", t.Name, d.Name, t.Inputs)
	}
	return out, doc
}

// testType writes t as code of package pkgPath, as the generated
// functions' types are written (fileState.typ).
func testType(pkgPath string, t types.Type) jen.Code {
	return (&fileState{pkgPath: pkgPath}).typ(t)
}
