package driver

// This file defines test=NAME, the test that gadgen writes for a function
// of tensors, of structs of tensors (by value or by pointer, with tensor
// and []*Tensor fields) or of any other parameters that hold floats: a
// function has no shapes that gadgen could draw random inputs of, so the
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
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// inputPoints is the number of points a test=NAME test checks when the
// inputs function takes a *rand.Rand.
const inputPoints = 2

// lookupInputs finds the function of test=name for the directive d's
// target: in d's package, or in its test variant (a _test.go file).
func lookupInputs(prog *frontend.Program, d *frontend.Directive, name string) (*types.Func, bool, error) {
	pkg := d.Pkg()
	obj := pkg.Types.Scope().Lookup(name)
	for _, lp := range prog.Roots {
		if obj == nil && lp.ForTest == pkg.PkgPath && lp.Name == pkg.Name && lp.Types != nil {
			obj = lp.Types.Scope().Lookup(name)
		}
	}
	ps := ssaad.Params(d.Target)
	var want []string
	for i, p := range ps {
		want = append(want, ssaad.ParamNames(d.Target)[i]+" "+typeString(p.Type(), d.Target.Pkg()))
	}
	wantSig := fmt.Sprintf("func %s(r *rand.Rand) (%s), with math/rand/v2, or with no parameters, returning example arguments of %s",
		name, strings.Join(want, ", "), frontend.FuncName(d.Target))
	if d.Target.Type().(*types.Signature).Recv() != nil {
		wantSig += " (its receiver first)"
	}
	fn, ok := obj.(*types.Func)
	if !ok || fn.Type().(*types.Signature).Recv() != nil {
		return nil, false, fmt.Errorf("test=%s: no function %s in package %s or its tests: write %s", name, name, pkg.Name, wantSig)
	}
	sig := fn.Type().(*types.Signature)
	withRand := sig.Params().Len() == 1 && types.TypeString(sig.Params().At(0).Type(), nil) == "*math/rand/v2.Rand"
	okSig := (sig.Params().Len() == 0 || withRand) && sig.Results().Len() == len(ps) && !sig.Variadic() && sig.TypeParams().Len() == 0
	for i := 0; okSig && i < len(ps); i++ {
		// By name: the function may be declared in the test variant, whose
		// types are other objects than the package's.
		okSig = types.TypeString(sig.Results().At(i).Type(), nil) == types.TypeString(ps[i].Type(), nil)
	}
	if !okSig {
		return nil, false, fmt.Errorf("test=%s: want %s; %s has %s", name, wantSig, name, typeString(sig, fn.Pkg()))
	}
	return fn, withRand, nil
}

// checkGenericTest checks that a test=NAME test can be written for req:
// a function with one float or tensor result, not variadic.
func checkGenericTest(req *ssaad.Request) error {
	sig := req.Target.Type().(*types.Signature)
	res := sig.Results()
	switch {
	case req.Options.Gonum:
		return fmt.Errorf("test=NAME checks the generated shapes of tensor functions; for gonum=true, write test=true")
	case sig.Variadic():
		return fmt.Errorf("test= does not support variadic functions; write the test of %s with package gadtest", req.Name)
	case res.Len() != 1 || !ir.IsTensor(res.At(0).Type()) && !isBasic(res.At(0).Type(), types.IsFloat):
		return fmt.Errorf("test= needs a function with one float or tensor result; write the test of %s with package gadtest", req.Name)
	}
	return nil
}

// generic is what a test=NAME test knows of the function it checks.
type generic struct {
	pkgPath string
	fn      *types.Func // the target
	req     *ssaad.Request
	params  []*types.Var // receiver first
	locals  []string     // the test's names of the arguments
	varied  []int        // the varied parameters
}

// testReserved are the identifiers of a generated test that arguments
// must not shadow.
var testReserved = map[string]bool{"t": true, "r": true, "f": true, "p": true, "dp": true, "pBar": true, "rBar": true,
	"jvp": true, "grad": true, "vjp": true, "val": true, "point": true, "pt": true, "gadtest": true, "testing": true, "tensorops": true, "rand": true}

func newGeneric(pkgPath string, req *ssaad.Request) *generic {
	g := &generic{pkgPath: pkgPath, fn: req.Target, req: req, params: ssaad.Params(req.Target)}
	used := map[string]bool{req.Target.Name(): true, req.Name: true}
	for i, n := range ssaad.ParamNames(req.Target) {
		for testReserved[n] || used[n] || strings.HasPrefix(n, "g") && isDigits(n[1:]) {
			n += "_"
		}
		used[n] = true
		g.locals = append(g.locals, n)
		if req.Active[i] {
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
// req's generated function is not a pointer to it (a struct passed by
// value that holds slices gets a pointer shadow).
func (g *generic) single(j *job) bool {
	if len(g.varied) != 1 {
		return false
	}
	for _, a := range g.layoutOf(j) {
		if a.kind == argMixed {
			return false
		}
	}
	return true
}

// argKind says what an argument of a generated function is.
type argKind int

const (
	argPrimal  argKind = iota // the target's parameter
	argTangent                // a tangent, or a shadow that receives an adjoint
	argMixed                  // a pointer shadow of a struct passed by value
	argSeed                   // the seed of a VJP
)

// arg is one argument of the generated function.
type arg struct {
	kind  argKind
	param int // the target's parameter (not for a seed)
}

// layoutOf returns the arguments of the generated function, receiver
// first for a method, from its signature: after each of the target's
// parameters, by name, its derivative if it has one there; then, for a
// VJP, the seed of the result.
func (g *generic) layoutOf(j *job) []arg {
	derived := j.derived.Sig
	names := ssaad.ParamNames(g.fn)
	var ps []*types.Var
	if r := derived.Recv(); r != nil {
		ps = append(ps, r)
	}
	for v := range derived.Params().Variables() {
		ps = append(ps, v)
	}
	if j.req.Mode == "vjp" {
		ps = ps[:len(ps)-1] // the seed of the one result, last
	}
	var out []arg
	k := 0
	for i := range g.params {
		if k < len(ps) && ps[k].Name() == names[i] {
			out = append(out, arg{argPrimal, i})
			k++
		}
		if !g.req.Active[i] || k >= len(ps) || slices.Contains(names, ps[k].Name()) {
			continue
		}
		switch t := ps[k].Type(); {
		case types.Identical(t, g.params[i].Type()):
			out = append(out, arg{argTangent, i})
			k++
		case types.Identical(t, types.NewPointer(g.params[i].Type())):
			out = append(out, arg{argMixed, i})
			k++
		}
	}
	if j.req.Mode == "vjp" {
		out = append(out, arg{kind: argSeed})
	}
	return out
}

// returned lists the varied parameters whose derivative the generated
// function returns (after its value), in order.
func (g *generic) returned(j *job) []int {
	has := map[int]bool{}
	for _, a := range g.layoutOf(j) {
		if a.kind == argTangent || a.kind == argMixed {
			has[a.param] = true
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
	if g.req.Active[i] {
		return g.field("p", i, single)
	}
	return jen.Id(g.locals[i])
}

// callOf returns the call of function name (the target, or a generated
// function when generated) with args, receiver first for a method.
func (g *generic) callOf(name string, generated bool, args []jen.Code) *jen.Statement {
	method := g.fn.Type().(*types.Signature).Recv() != nil
	if generated {
		method = g.req.Method
	}
	if method {
		return jen.Add(args[0]).Dot(name).Call(args[1:]...)
	}
	if p := g.fn.Pkg(); !generated && p != nil && p.Path() != g.pkgPath {
		return jen.Qual(p.Path(), name).Call(args...)
	}
	return jen.Id(name).Call(args...)
}

// pointType returns the type of the point: the varied argument's for a
// single one, else *point.
func (g *generic) pointType(single bool) *jen.Statement {
	if single {
		return jen.Add(typeJen(g.pkgPath, g.params[g.varied[0]].Type()))
	}
	return jen.Op("*").Id("point")
}

// resultType returns the type of the target's result.
func (g *generic) resultType() *jen.Statement {
	return jen.Add(typeJen(g.pkgPath, g.fn.Type().(*types.Signature).Results().At(0).Type()))
}

// primalFunc returns f := func(p P) R calling the target.
func (g *generic) primalFunc(single bool) jen.Code {
	var args []jen.Code
	for i := range g.params {
		args = append(args, g.value(i, single))
	}
	return jen.Id("f").Op(":=").Func().Params(jen.Id("p").Add(g.pointType(single))).Add(g.resultType()).
		Block(jen.Return(g.callOf(g.fn.Name(), false, args)))
}

// derivedArgs returns the arguments of the generated function: the point
// p and its derivative d (dp or pBar), and the seed rBar.
func (g *generic) derivedArgs(j *job, single bool, d string) []jen.Code {
	var args []jen.Code
	for _, a := range g.layoutOf(j) {
		switch a.kind {
		case argPrimal:
			args = append(args, g.value(a.param, single))
		case argTangent:
			args = append(args, g.field(d, a.param, single))
		case argMixed:
			args = append(args, jen.Op("&").Add(g.field(d, a.param, single)))
		case argSeed:
			args = append(args, jen.Id("rBar"))
		}
	}
	return args
}

// jvpFunc returns jvp := func(p, dp P) (R, R) calling the generated JVP.
func (g *generic) jvpFunc(j *job, single bool) jen.Code {
	call := g.callOf(j.req.Name, true, g.derivedArgs(j, single, "dp"))
	return jen.Id("jvp").Op(":=").Func().Params(jen.List(jen.Id("p"), jen.Id("dp")).Add(g.pointType(single))).
		Params(g.resultType(), g.resultType()).Block(jen.Return(call))
}

// reverseBody returns the statements of a gradient or VJP adapter that
// calls the generated function, whose derivatives go into pBar (made
// already): the shadows as arguments, the returned ones added to it
// (Accumulate) or, for a single point, returned. It returns the value
// and, for a single returned derivative, its name; and, when the adapter
// is that call, the call alone.
func (g *generic) reverseBody(j *job, single bool) (body []jen.Code, val, ret, direct jen.Code) {
	call := g.callOf(j.req.Name, true, g.derivedArgs(j, single, "pBar"))
	noValue := j.req.Options.NoValue
	if returned := g.returned(j); !noValue && (len(returned) == 0 || single && len(returned) == 1) {
		direct = call
	}
	var results []jen.Code
	if !noValue {
		results = append(results, jen.Id("val"))
	}
	returned := g.returned(j)
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
	if noValue {
		val = jen.Id("f").Call(jen.Id("p"))
	}
	return body, val, ret, direct
}

// gradFunc returns grad := … calling the generated gradient, and the
// check of gadtest that takes it: TensorGrad for one varied argument
// whose gradient is returned (func(p P) (float64, P)), else TensorGradTo
// (func(p, pBar P) float64).
func (g *generic) gradFunc(j *job, single bool) (jen.Code, string) {
	body, val, ret, direct := g.reverseBody(j, single)
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
// VJP.
func (g *generic) vjpFunc(j *job, single bool) jen.Code {
	body, val, ret, direct := g.reverseBody(j, single)
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

// renderGeneric writes the test of one test=NAME directive (jt), or with
// gt the dot-product test of a JVP (jt) and a gradient or VJP (gt).
func renderGeneric(f *jen.File, pkgPath string, jt, gt *testJob) {
	j := jt.j
	g := newGeneric(pkgPath, j.req)
	single := g.single(j)
	if gt != nil {
		single = single && g.single(gt.j)
	}
	var body, loop []jen.Code
	if !single {
		var fields []jen.Code
		for _, i := range g.varied {
			fields = append(fields, jen.Id(g.locals[i]).Add(typeJen(pkgPath, g.params[i].Type())))
		}
		body = append(body, jen.Type().Id("point").Struct(fields...))
	}
	inputs := jen.Id(jt.spec.inputs.Name()).Call()
	if jt.spec.rand {
		body = append(body, jen.Id("r").Op(":=").Qual(gadtestPath, "NewRand").Call(jen.Lit(1)))
		inputs = jen.Id(jt.spec.inputs.Name()).Call(jen.Id("r"))
	}
	var locals []jen.Code
	for _, l := range g.locals {
		locals = append(locals, jen.Id(l))
	}
	loop = append(loop, jen.List(locals...).Op(":=").Add(inputs))
	var point jen.Code = jen.Id(g.locals[g.varied[0]])
	if !single {
		var vs []jen.Code
		for _, i := range g.varied {
			vs = append(vs, jen.Id(g.locals[i]))
		}
		point = jen.Op("&").Id("point").Values(vs...)
	}
	loop = append(loop, jen.Id("pt").Op(":=").Add(point))
	var doc string
	name := testName(j.req)
	switch {
	case gt != nil:
		name = testName(gt.j.req) + "Dot"
		loop = append(loop, g.jvpFunc(j, single))
		vjp := jen.Id("vjp")
		if gt.j.req.Mode == "grad" {
			gf, check := g.gradFunc(gt.j, single)
			loop = append(loop, gf)
			adapt := "GradToVJP"
			if check == "TensorGrad" {
				adapt = "GradVJP"
			}
			vjp = jen.Qual(gadtestPath, adapt).Call(jen.Id("grad"))
		} else {
			loop = append(loop, g.vjpFunc(gt.j, single))
		}
		loop = append(loop, jen.Qual(gadtestPath, "TensorDot").Call(jen.Id("t"), jen.Id("jvp"), vjp, jen.Id("pt")))
		doc = fmt.Sprintf("%s checks %s against %s by the dot-product test, at the arguments %s returns.", name, gt.j.req.Name, j.req.Name, jt.spec.inputs.Name())
	case j.req.Mode == "jvp":
		loop = append(loop, g.primalFunc(single), g.jvpFunc(j, single),
			jen.Qual(gadtestPath, "TensorJVP").Call(jen.Id("t"), jen.Id("f"), jen.Id("jvp"), jen.Id("pt")))
		doc = fmt.Sprintf("%s checks %s against central finite differences along random directions, at the arguments %s returns.", name, j.req.Name, jt.spec.inputs.Name())
	case j.req.Mode == "grad":
		gf, check := g.gradFunc(j, single)
		loop = append(loop, g.primalFunc(single), gf, jen.Qual(gadtestPath, check).Call(jen.Id("t"), jen.Id("f"), jen.Id("grad"), jen.Id("pt")))
		doc = fmt.Sprintf("%s checks %s against central finite differences, at the arguments %s returns.", name, j.req.Name, jt.spec.inputs.Name())
		if check == "TensorGradTo" {
			doc += " It also checks that the gradient is added to the shadow."
		}
	default:
		loop = append(loop, g.primalFunc(single), g.vjpFunc(j, single),
			jen.Qual(gadtestPath, "TensorVJP").Call(jen.Id("t"), jen.Id("f"), jen.Id("vjp"), jen.Id("pt")))
		doc = fmt.Sprintf("%s checks %s against central finite differences with random seeds, at the arguments %s returns.", name, j.req.Name, jt.spec.inputs.Name())
	}
	if jt.spec.rand {
		body = append(body, jen.For(jen.Range().Lit(inputPoints)).Block(loop...))
	} else {
		body = append(body, loop...)
	}
	comment(f, doc)
	f.Func().Id(name).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(body...)
	f.Line()
}

// typeJen writes t as code of package pkgPath.
func typeJen(pkgPath string, t types.Type) jen.Code {
	switch t := t.(type) {
	case *types.Pointer:
		return jen.Op("*").Add(typeJen(pkgPath, t.Elem()))
	case *types.Slice:
		return jen.Index().Add(typeJen(pkgPath, t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(typeJen(pkgPath, t.Elem()))
	case *types.Named:
		return qualified(pkgPath, t.Obj())
	case *types.Alias:
		return qualified(pkgPath, t.Obj())
	case *types.Basic:
		return jen.Id(t.Name())
	}
	return jen.Id(types.TypeString(t, func(p *types.Package) string { return p.Name() }))
}

func qualified(pkgPath string, obj *types.TypeName) jen.Code {
	if obj.Pkg() == nil || obj.Pkg().Path() == pkgPath {
		return jen.Id(obj.Name())
	}
	return jen.Qual(obj.Pkg().Path(), obj.Name())
}
