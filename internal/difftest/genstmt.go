package difftest

// This file defines the statements, loops, helper functions and entry
// functions of the generator.

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// maxLoops bounds the nesting of loops.
const maxLoops = 2

// stmts returns n statements in a new scope.
func (f *fn) stmts(n int) []ast.Stmt {
	f.push()
	var list []ast.Stmt
	for k := range n {
		if f.budget <= 0 && k > 0 {
			break
		}
		list = append(list, f.stmt()...)
	}
	return append(list, f.pop()...)
}

// stmt returns one statement (or a few that belong together).
func (f *fn) stmt() []ast.Stmt {
	g := f.g
	f.budget--
	opts := []string{"assign-new", "assign-acc", "if-active"}
	if f.loops < maxLoops {
		opts = append(opts, "loop", "fixpoint")
	}
	if !f.helper {
		opts = append(opts, "local-slice", "append-grow", "struct-vec2", "struct-model", "closure", "closure-pure",
			"state-step", "helper-ret-slice", "nest-grad", "nest-jvp")
		if w := f.writable(); len(w) > 0 {
			opts = append(opts, "slice-write")
			if len(f.vars(kSlice)) > 1 || w[0].k == kModel && len(f.vars(kSlice)) > 0 {
				opts = append(opts, "helper-dst")
			}
		}
		if len(f.vars(kVec2)) > 0 {
			opts = append(opts, "field-write")
		}
		if len(f.updatable()) > 0 && len(f.vars(kSlice)) > 0 {
			opts = append(opts, "method-update")
		}
	}
	if f.loops > 0 {
		opts = append(opts, "loop-break", "loop-continue", "loop-return")
		if !f.helper {
			opts = append(opts, "alloc-in-loop")
		}
	}
	switch g.pick(opts...) {
	case "", "assign-new":
		x := f.expr(2)
		v := f.declare(&vr{name: f.fresh("a"), k: kFloat})
		return []ast.Stmt{define(v.name, x)}
	case "assign-acc":
		var targets []*vr
		for _, v := range f.vars(kFloat) {
			if v.rangeValue && !g.maybe("assign-range-value", 10) {
				continue
			}
			if !v.param || g.chance(0.3) {
				targets = append(targets, v)
			}
		}
		if len(targets) == 0 {
			targets = []*vr{f.acc}
		}
		t := f.any(targets)
		tok := []token.Token{token.ADD_ASSIGN, token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.ASSIGN}[g.r.IntN(5)]
		x := f.expr(2)
		if tok == token.ASSIGN && exprString(x) == t.name {
			tok = token.ADD_ASSIGN // not a self-assignment (vet)
		}
		t.dirty = true
		return []ast.Stmt{assign(id(t.name), tok, x)}
	case "if-active":
		cond := f.compare()
		st := &ast.IfStmt{Cond: cond, Body: block(f.stmts(1 + g.r.IntN(2))...)}
		if g.chance(0.5) {
			st.Else = block(f.stmts(1 + g.r.IntN(2))...)
		}
		return []ast.Stmt{st}
	case "loop":
		return f.loop()
	case "fixpoint":
		return f.fixpoint()
	case "local-slice":
		return f.localSlice()
	case "append-grow":
		t := f.fresh("t")
		body := f.loopOver(true, func(*vr) []ast.Stmt {
			return []ast.Stmt{assign(id(t), token.ASSIGN, call(id("append"), id(t), f.expr(2)))}
		})
		f.declare(&vr{name: t, k: kSlice, writable: true})
		decl := &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{id(t)}, Type: sliceOf(id("float64"))}}}}
		return append([]ast.Stmt{decl}, body...)
	case "slice-write":
		t := f.any(f.writable())
		f.writes(t)
		lhs := index(f.sliceExpr(t), f.index())
		tok := []token.Token{token.ASSIGN, token.ADD_ASSIGN, token.MUL_ASSIGN}[g.r.IntN(3)]
		x := f.expr(2)
		if tok == token.ASSIGN && exprString(x) == exprString(lhs) {
			tok = token.ADD_ASSIGN // not a self-assignment (vet)
		}
		return []ast.Stmt{assign(lhs, tok, x)}
	case "field-write":
		v := f.any(f.vars(kVec2))
		x := f.expr(2)
		v.dirty = true
		return []ast.Stmt{assign(sel(id(v.name), []string{"X", "Y"}[g.r.IntN(2)]), token.ADD_ASSIGN, x)}
	case "struct-vec2":
		lit := &ast.CompositeLit{Type: id("Vec2"), Elts: []ast.Expr{
			&ast.KeyValueExpr{Key: id("X"), Value: f.expr(2)},
			&ast.KeyValueExpr{Key: id("Y"), Value: f.expr(2)},
		}}
		v := f.fresh("v")
		f.declare(&vr{name: v, k: kVec2})
		return []ast.Stmt{define(v, lit)}
	case "struct-model":
		return f.localModel()
	case "state-step":
		return f.state()
	case "helper-ret-slice":
		ss := f.vars(kSlice)
		if len(ss) == 0 {
			return nil
		}
		t := f.fresh("t")
		st := define(t, call(id(g.sliceMaker()), f.read(f.any(ss)), f.expr(1)))
		f.declare(&vr{name: t, k: kSlice, writable: true})
		return []ast.Stmt{st}
	case "nest-grad":
		return f.nestCall("grad")
	case "nest-jvp":
		return f.nestCall("jvp")
	case "helper-dst":
		dst := f.any(f.writable())
		var ss []*vr
		for _, v := range f.vars(kSlice) {
			if v != dst {
				ss = append(ss, v)
			}
		}
		if len(ss) == 0 {
			return nil // the arguments must not share memory with dst
		}
		f.writes(dst)
		return []ast.Stmt{exprStmt(call(id(g.dstHelper()), f.sliceExpr(dst), f.read(f.any(ss)), f.read(f.any(ss))))}
	case "method-update":
		m := f.any(f.updatable())
		f.writes(m)
		return []ast.Stmt{exprStmt(call(sel(f.read(m), g.updateMethod()), f.read(f.any(f.vars(kSlice))), f.expr(1)))}
	case "closure":
		return f.closure(false)
	case "closure-pure":
		return f.closure(true)
	case "loop-break":
		return []ast.Stmt{&ast.IfStmt{Cond: f.compare(), Body: block(&ast.BranchStmt{Tok: token.BREAK})}}
	case "loop-continue":
		return []ast.Stmt{&ast.IfStmt{Cond: f.compare(), Body: block(&ast.BranchStmt{Tok: token.CONTINUE})}}
	case "loop-return":
		return []ast.Stmt{&ast.IfStmt{Cond: f.compare(), Body: block(f.ret())}}
	case "alloc-in-loop":
		return f.allocInLoop()
	}
	panic("unreachable")
}

// compare returns a comparison of two float expressions.
func (f *fn) compare() ast.Expr {
	op := []token.Token{token.LSS, token.GTR, token.LEQ, token.GEQ}[f.g.r.IntN(4)]
	return bin(f.expr(1), op, f.expr(1))
}

// writable returns the slices (and models, whose W is) that may be
// written.
func (f *fn) writable() []*vr {
	var vs []*vr
	for _, v := range f.vars(kSlice, kModel) {
		if v.writable {
			vs = append(vs, v)
		}
	}
	return vs
}

// updatable returns the models whose weights may be updated in place:
// the local ones and the varied *Model parameters (not the receiver,
// which is not varied).
func (f *fn) updatable() []*vr {
	var vs []*vr
	for _, v := range f.vars(kModel, kModelPtr) {
		if v.k == kModel && !v.param || v.k == kModelPtr && v.param && v.name != "m" {
			vs = append(vs, v)
		}
	}
	return vs
}

// sliceExpr returns the slice of a writable variable, itself or a
// model's W, to write: that is not a read (the scope's end reads it).
func (f *fn) sliceExpr(v *vr) ast.Expr {
	if v.k == kModel {
		return sel(id(v.name), "W")
	}
	return id(v.name)
}

// writes records a write into the slice v.
func (f *fn) writes(v *vr) {
	if v.param {
		f.writesParam = true
	}
}

// ret returns the function's return statement.
func (f *fn) ret() ast.Stmt {
	switch f.nres {
	case 0:
		return ret()
	case 1:
		return ret(bin(f.read(f.acc), token.ADD, f.expr(1)))
	}
	return ret(f.read(f.acc), f.expr(2))
}

// loop returns a loop of one of the forms.
func (f *fn) loop() []ast.Stmt {
	return f.loopOver(false, func(*vr) []ast.Stmt { return f.stmts(1 + f.g.r.IntN(3)) })
}

// loopOver returns a loop whose body body makes; the loop's index, nil
// if it has none, is in scope in the body. A full loop runs over every
// index in [0, L).
func (f *fn) loopOver(full bool, body func(i *vr) []ast.Stmt) []ast.Stmt {
	g := f.g
	L := g.L
	c := f.loopChoices(full)
	form, ns, ss, arrs, outer := c.form, c.lens, c.slices, c.arrays, c.outer
	// bound returns an int expression equal to L.
	bound := func() ast.Expr {
		switch {
		case len(ss) > 0 && g.chance(0.5):
			return call(id("len"), f.read(f.any(ss)))
		case len(ns) > 0 && g.chance(0.5):
			return f.read(f.any(ns))
		}
		return intLit(L)
	}
	f.loops++
	defer func() { f.loops-- }()
	f.push()
	defer f.pop() // the loop's variables: ints, or read by the body's uses
	i := &vr{name: f.fresh("i"), k: kInt, lo: 0, hi: L - 1}
	var inner []ast.Stmt
	withBody := func(v *vr) []ast.Stmt {
		f.declare(v)
		inner = body(v)
		return inner
	}
	switch form {
	case "for-3clause":
		var init, cond ast.Expr
		switch g.r.IntN(3) * b2i(!full) {
		case 0:
			init, cond = intLit(0), bin(id(i.name), token.LSS, bound())
		case 1:
			init, cond, i.lo = intLit(1), bin(id(i.name), token.LSS, bound()), 1
		case 2:
			init, cond, i.hi = intLit(0), bin(id(i.name), token.LSS, bin(bound(), token.SUB, intLit(1))), L-2
		}
		st := &ast.ForStmt{
			Init: define(i.name, init),
			Cond: cond,
			Post: &ast.IncDecStmt{X: id(i.name), Tok: token.INC},
		}
		st.Body = block(withBody(i)...)
		return []ast.Stmt{st}
	case "for-down":
		st := &ast.ForStmt{
			Init: define(i.name, bin(bound(), token.SUB, intLit(1))),
			Cond: bin(id(i.name), token.GEQ, intLit(0)),
			Post: &ast.IncDecStmt{X: id(i.name), Tok: token.DEC},
		}
		st.Body = block(withBody(i)...)
		return []ast.Stmt{st}
	case "for-cond":
		// k := -1; for k < L-1 { k++; … }: continue cannot skip the step.
		st := &ast.ForStmt{Cond: bin(id(i.name), token.LSS, bin(bound(), token.SUB, intLit(1)))}
		b := withBody(i)
		st.Body = block(append([]ast.Stmt{&ast.IncDecStmt{X: id(i.name), Tok: token.INC}}, b...)...)
		return []ast.Stmt{define(i.name, intLit(-1)), st}
	case "for-range-const", "for-range-var":
		var x ast.Expr
		if form == "for-range-var" {
			x = f.read(f.any(ns))
		} else {
			k := L
			if !full && g.chance(0.3) {
				k = 1 + g.r.IntN(L)
			}
			x, i.hi = intLit(k), k-1
		}
		st := &ast.RangeStmt{Key: id(i.name), Tok: token.DEFINE, X: x}
		st.Body = block(withBody(i)...)
		if !i.read {
			st.Key, st.Tok = nil, token.ILLEGAL
		}
		return []ast.Stmt{st}
	case "for-range-slice-iv", "for-range-slice-i", "for-range-slice-v", "for-range-array":
		var x *vr
		if form == "for-range-array" {
			x = f.any(arrs)
		} else {
			x = f.any(ss)
		}
		st := &ast.RangeStmt{Key: id(i.name), Tok: token.DEFINE, X: f.read(x)}
		var v *vr
		if form != "for-range-slice-i" {
			v = f.declare(&vr{name: f.fresh("v"), k: kFloat, rangeValue: true})
			st.Value = id(v.name)
		}
		if form == "for-range-slice-v" {
			st.Key = id("_")
			inner = body(nil)
			st.Body = block(inner...)
		} else {
			st.Body = block(withBody(i)...)
		}
		switch {
		case form == "for-range-slice-v" || !i.read && v != nil:
			st.Key = id("_")
		case !i.read:
			st.Key, st.Tok = nil, token.ILLEGAL
		}
		if v != nil && f.needsUse(v) {
			f.acc.read = true
			st.Body.List = append(st.Body.List, assign(id(f.acc.name), token.ADD_ASSIGN, f.read(v)))
		}
		return []ast.Stmt{st}
	case "for-tri":
		o := f.any(outer)
		o.read = true
		i.lo = o.lo + 1
		st := &ast.ForStmt{
			Init: define(i.name, bin(id(o.name), token.ADD, intLit(1))),
			Cond: bin(id(i.name), token.LSS, bound()),
			Post: &ast.IncDecStmt{X: id(i.name), Tok: token.INC},
		}
		st.Body = block(withBody(i)...)
		return []ast.Stmt{st}
	}
	panic("difftest: loop form " + form)
}

// fixpoint returns an iteration whose trip count depends on the data:
// z ← z + ½(cos(z + c) − z) until the step is small.
func (f *fn) fixpoint() []ast.Stmt {
	init := f.expr(1)
	z := f.declare(&vr{name: f.fresh("z"), k: kFloat})
	c := f.expr(1)
	it, d := f.fresh("it"), f.fresh("d")
	step := bin(floatLit(0.5), token.MUL, bin(mathCall("Cos", bin(id(z.name), token.ADD, c)), token.SUB, id(z.name)))
	loop := &ast.ForStmt{
		Init: define(it, intLit(0)),
		Cond: bin(id(it), token.LSS, intLit(30)),
		Post: &ast.IncDecStmt{X: id(it), Tok: token.INC},
		Body: block(
			define(d, step),
			assign(id(z.name), token.ADD_ASSIGN, id(d)),
			&ast.IfStmt{Cond: bin(mathCall("Abs", id(d)), token.LSS, floatLit(1e-3)), Body: block(&ast.BranchStmt{Tok: token.BREAK})},
		),
	}
	return []ast.Stmt{define(z.name, init), loop}
}

// localSlice declares a slice: made and filled, or a copy of another
// (made and copied, or appended to nil).
func (f *fn) localSlice() []ast.Stmt {
	g := f.g
	t := f.fresh("t")
	opts := []string{"local-slice-make"}
	ss := f.vars(kSlice)
	if len(ss) > 0 {
		opts = append(opts, "local-slice-copy", "local-slice-append")
	}
	var out []ast.Stmt
	switch g.pick(opts...) {
	case "local-slice-copy":
		src := f.read(f.any(ss))
		out = append(out, define(t, call(id("make"), sliceOf(id("float64")), call(id("len"), src))),
			exprStmt(call(id("copy"), id(t), clone(src))))
	case "local-slice-append":
		src := f.read(f.any(ss))
		app := call(id("append"), &ast.CallExpr{Fun: sliceOf(id("float64")), Args: []ast.Expr{id("nil")}}, src)
		app.Ellipsis = 1
		out = append(out, define(t, app))
	default:
		out = append(out, define(t, call(id("make"), sliceOf(id("float64")), intLit(g.L))))
		out = append(out, f.fill(id(t))...)
	}
	f.declare(&vr{name: t, k: kSlice, writable: true})
	return out
}

// fill returns a loop that writes every element of the slice s.
func (f *fn) fill(s ast.Expr) []ast.Stmt {
	return f.loopOver(true, func(i *vr) []ast.Stmt {
		if i == nil || i.lo != 0 || i.hi != f.g.L-1 {
			panic("difftest: a full loop without its index")
		}
		x := f.expr(2)
		i.read = true
		lhs := index(clone(s), id(i.name))
		if exprString(x) == exprString(lhs) {
			x = bin(x, token.ADD, f.g.constant()) // not a self-assignment (vet)
		}
		return []ast.Stmt{assign(lhs, token.ASSIGN, x)}
	})
}

// localModel declares a Model with weights computed in a loop.
func (f *fn) localModel() []ast.Stmt {
	m := f.fresh("m")
	lit := &ast.CompositeLit{Type: id("Model"), Elts: []ast.Expr{
		&ast.KeyValueExpr{Key: id("W"), Value: call(id("make"), sliceOf(id("float64")), intLit(f.g.L))},
		&ast.KeyValueExpr{Key: id("B"), Value: f.expr(2)},
	}}
	out := append([]ast.Stmt{define(m, lit)}, f.fill(sel(id(m), "W"))...)
	f.declare(&vr{name: m, k: kModel, writable: true})
	return out
}

// allocInLoop makes a slice in each iteration, fills it and reads it.
func (f *fn) allocInLoop() []ast.Stmt {
	h := f.fresh("h")
	out := []ast.Stmt{define(h, call(id("make"), sliceOf(id("float64")), intLit(f.g.L)))}
	out = append(out, f.fill(id(h))...)
	f.acc.read = true
	out = append(out, assign(id(f.acc.name), token.ADD_ASSIGN, index(id(h), intLit(f.g.r.IntN(f.g.L)))))
	return out
}

// closure declares a function literal, capturing variables of the
// function or not (pure).
func (f *fn) closure(pure bool) []ast.Stmt {
	name := f.fresh("f")
	u := f.fresh("u")
	lit := f.funcLit(u, pure)
	f.declare(&vr{name: name, k: kFunc})
	return []ast.Stmt{define(name, lit)}
}

// funcLit returns func(u float64) float64 { return e } with e of u and,
// unless pure, of the variables in scope.
func (f *fn) funcLit(u string, pure bool) *ast.FuncLit {
	saved := f.scopes
	if pure {
		f.scopes = nil
	}
	f.push()
	f.declare(&vr{name: u, k: kFloat, read: true})
	body := bin(id(u), token.MUL, f.expr(2))
	f.scopes = f.scopes[:len(f.scopes)-1]
	if pure {
		f.scopes = saved
	}
	return &ast.FuncLit{
		Type: funcType([]*ast.Field{field(u, id("float64"))}, []*ast.Field{field("", id("float64"))}),
		Body: block(ret(body)),
	}
}

// integrate returns a call of the program's integrator on a closure.
func (f *fn) integrate(d int) ast.Expr {
	g := f.g
	lit := f.funcLit(f.fresh("u"), g.chance(0.5))
	return call(id(g.integrator()), lit, f.expr(d-1), f.expr(d-1), intLit(2+g.r.IntN(3)))
}

// helper returns a generator for the body of a helper function.
func (g *gen) helperFn(nres int) *fn {
	return &fn{g: g, nres: nres, budget: 3, helper: true}
}

func (g *gen) name(base string) string { return fmt.Sprintf("%s%d", base, g.idx) }

// scalarHelper declares func hN(a, b float64) float64.
func (g *gen) scalarHelper() string {
	return g.helper2("h", kFloat, func() ast.Expr { return id("float64") })
}

// sliceHelper declares func dotN(a, b []float64) float64.
func (g *gen) sliceHelper() string {
	return g.helper2("dot", kSlice, func() ast.Expr { return sliceOf(id("float64")) })
}

// helper2 declares a helper of two parameters a and b of kind k and
// type typ(), returning a float64 computed by random statements.
// Helpers call no helpers.
func (g *gen) helper2(base string, k kind, typ func() ast.Expr) string {
	name := g.name(base)
	if g.helpers[name] != nil {
		return name
	}
	f := g.helperFn(1)
	f.push()
	f.declare(&vr{name: "a", k: k, param: true})
	f.declare(&vr{name: "b", k: k, param: true})
	g.helpers[name] = g.funcDecl(f, nil, name, []*ast.Field{field("a", typ()), field("b", typ())})
	return name
}

// dstHelper declares func addToN(dst, a, b []float64), destination first.
func (g *gen) dstHelper() string {
	name := g.name("addTo")
	if g.helpers[name] != nil {
		return name
	}
	f := g.helperFn(0)
	f.push()
	f.declare(&vr{name: "a", k: kSlice, param: true})
	f.declare(&vr{name: "b", k: kSlice, param: true})
	i := &vr{name: "i", k: kInt, lo: 0, hi: g.L - 1, read: true}
	f.push()
	f.declare(i)
	body := assign(index(id("dst"), id("i")), []token.Token{token.ASSIGN, token.ADD_ASSIGN}[g.r.IntN(2)], f.expr(2))
	loop := &ast.RangeStmt{Key: id("i"), Tok: token.DEFINE, X: id("dst"), Body: block(body)}
	g.helpers[name] = &ast.FuncDecl{
		Name: id(name),
		Type: funcType([]*ast.Field{{Names: []*ast.Ident{id("dst"), id("a"), id("b")}, Type: sliceOf(id("float64"))}}, nil),
		Body: block(loop),
	}
	return name
}

// scoreMethod declares func (m *Model) scoreN(x []float64) float64.
func (g *gen) scoreMethod() string {
	name := g.name("score")
	if g.helpers["Model."+name] != nil {
		return name
	}
	f := g.helperFn(1)
	f.push()
	f.declare(&vr{name: "m", k: kModelPtr, param: true})
	f.declare(&vr{name: "x", k: kSlice, param: true})
	recv := &ast.FieldList{List: []*ast.Field{field("m", &ast.StarExpr{X: id("Model")})}}
	g.helpers["Model."+name] = g.funcDecl(f, recv, name, []*ast.Field{field("x", sliceOf(id("float64")))})
	return name
}

// updateMethod declares func (m *Model) updateN(x []float64, a float64),
// which moves the weights towards x.
func (g *gen) updateMethod() string {
	name := g.name("update")
	if g.helpers["Model."+name] != nil {
		return name
	}
	w := index(sel(id("m"), "W"), id("i"))
	loop := &ast.RangeStmt{Key: id("i"), Tok: token.DEFINE, X: sel(id("m"), "W"), Body: block(
		assign(w, token.ASSIGN, bin(bin(floatLit(0.5), token.MUL, clone(w)), token.ADD, bin(id("a"), token.MUL, index(id("x"), id("i"))))),
	)}
	g.helpers["Model."+name] = &ast.FuncDecl{
		Recv: &ast.FieldList{List: []*ast.Field{field("m", &ast.StarExpr{X: id("Model")})}},
		Name: id(name),
		Type: funcType([]*ast.Field{field("x", sliceOf(id("float64"))), field("a", id("float64"))}, nil),
		Body: block(loop, assign(sel(id("m"), "B"), token.ADD_ASSIGN, bin(id("a"), token.MUL, id("a")))),
	}
	return name
}

// integrator declares the trapezoidal rule
// func integN(f func(float64) float64, a, b float64, n int) float64.
func (g *gen) integrator() string {
	name := g.name("integ")
	if g.helpers[name] != nil {
		return name
	}
	fx := func(x ast.Expr) ast.Expr { return call(id("f"), x) }
	h := bin(bin(id("b"), token.SUB, id("a")), token.QUO, call(id("float64"), id("n")))
	g.helpers[name] = &ast.FuncDecl{
		Name: id(name),
		Type: funcType([]*ast.Field{
			field("f", float64Func()),
			{Names: []*ast.Ident{id("a"), id("b")}, Type: id("float64")},
			field("n", id("int")),
		}, []*ast.Field{field("", id("float64"))}),
		Body: block(
			define("h", h),
			define("s", bin(floatLit(0.5), token.MUL, bin(fx(id("a")), token.ADD, fx(id("b"))))),
			&ast.ForStmt{
				Init: define("i", intLit(1)),
				Cond: bin(id("i"), token.LSS, id("n")),
				Post: &ast.IncDecStmt{X: id("i"), Tok: token.INC},
				Body: block(assign(id("s"), token.ADD_ASSIGN, fx(bin(id("a"), token.ADD, bin(call(id("float64"), id("i")), token.MUL, id("h")))))),
			},
			ret(bin(id("s"), token.MUL, id("h"))),
		),
	}
	return name
}

// funcDecl generates the body of a function whose parameters f has in
// scope: s := …; statements; return.
func (g *gen) funcDecl(f *fn, recv *ast.FieldList, name string, params []*ast.Field) *ast.FuncDecl {
	var results []*ast.Field
	for range f.nres {
		results = append(results, field("", id("float64")))
	}
	f.push()
	init := f.expr(2)
	f.acc = f.declare(&vr{name: "s", k: kFloat})
	body := []ast.Stmt{define("s", init)}
	for f.budget > 0 {
		body = append(body, f.stmt()...)
	}
	body = append(body, f.useUnread()...)
	// Parameters assigned after their last read.
	for _, v := range f.scopes[0] {
		if v.param && v.read && f.needsUse(v) {
			f.acc.read = true
			body = append(body, assign(id(f.acc.name), token.ADD_ASSIGN, f.use(v)))
		}
	}
	if f.dst != nil {
		body = append(body, f.fill(id(f.dst.name))...)
		f.acc.read = true
		body = append(body, assign(index(id(f.dst.name), intLit(0)), token.ADD_ASSIGN, id("s")))
	}
	final := f.ret()
	body = append(body, f.pop()...)
	if f.nres > 0 {
		body = append(body, final)
	}
	return &ast.FuncDecl{Recv: recv, Name: id(name), Type: funcType(params, results), Body: block(body...)}
}

// entry generates the exported function of the program and the lines of
// its doc comment.
func (g *gen) entry() (*ast.FuncDecl, []string) {
	nres := 1
	dst := g.maybe("dst", 0)
	if g.pick("result1", "results2") == "results2" {
		nres = 2
	}
	if dst && g.chance(0.5) {
		nres = 0
	}
	f := &fn{g: g, nres: nres, budget: 4 + g.r.IntN(6)}
	f.push()
	var params []*ast.Field
	var recv *ast.FieldList
	name := g.name("F")
	if g.maybe("method", 0) {
		recv = &ast.FieldList{List: []*ast.Field{field("m", &ast.StarExpr{X: id("Model")})}}
		f.declare(&vr{name: "m", k: kModelPtr, param: true})
		name = g.name("M")
	}
	if dst {
		f.dst = f.declare(&vr{name: "dst", k: kSlice, param: true, writable: true})
		params = append(params, field("dst", sliceOf(id("float64"))))
	}
	varied := false
	var wrt *vr // the parameter of the second-order modes
	for n := 1 + g.r.IntN(4); n > 0 || !varied; n-- {
		p := g.pick("param-float", "param-slice", "param-int", "param-array", "param-vec2", "param-model", "param-modelptr")
		if (p == "param-model" || p == "param-modelptr") && len(f.vars(kModel, kModelPtr)) > 0 {
			continue
		}
		if p == "" {
			p = "param-float"
		}
		v := &vr{param: true}
		var typ ast.Expr
		switch p {
		case "param-float":
			v.name, v.k, typ = f.fresh("x"), kFloat, id("float64")
		case "param-slice":
			v.name, v.k, typ = f.fresh("x"), kSlice, sliceOf(id("float64"))
			if g.maybe("inplace", 5) {
				v.writable = true
			}
		case "param-int":
			if len(f.vars(kInt)) > 0 {
				continue
			}
			v.name, v.k, typ, v.isLen, v.lo, v.hi = "n", kInt, id("int"), true, g.L, g.L
		case "param-array":
			v.name, v.k, typ = f.fresh("r"), kArray, arrayOf(g.L, id("float64"))
		case "param-vec2":
			v.name, v.k, typ = f.fresh("p"), kVec2, id("Vec2")
		case "param-model":
			v.name, v.k, typ = f.fresh("mv"), kModel, id("Model")
		case "param-modelptr":
			v.name, v.k, typ = f.fresh("mp"), kModelPtr, &ast.StarExpr{X: id("Model")}
		}
		if v.k != kInt {
			varied = true
		}
		// A slice that the function may write through makes the
		// helpers refuse: only when there is no other.
		if v.k == kSlice && (wrt == nil || wrt.writable && !v.writable) {
			wrt = v
		}
		f.declare(v)
		params = append(params, field(v.name, typ))
	}
	decl := g.funcDecl(f, recv, name, params)
	if f.dst != nil {
		f.writesParam = true
	}
	modes := []string{ModeJVP, ModeGrad, ModeTaylor}
	if nres != 1 || f.writesParam {
		modes[1] = ModeVJP
	}
	if !f.writesParam {
		modes = append(modes, ModeLine) // seed=line: not for functions that write through a parameter
	}
	doc := []string{fmt.Sprintf("%s is a random function.", name), ""}
	// The second-order helpers, of functions of one float64 result, with
	// respect to a slice. (Drawn last, so that the weight changes no
	// program's code.)
	if nres == 1 && wrt != nil && g.r.IntN(100) < g.w["second"] {
		modes = append(modes, SecondModes...)
		doc = append(doc, "difftest:wrt "+wrt.name)
		g.feats["second"] = true
	}
	// The jets along 2 or 3 directions per call, as the jets along
	// one: seed=jet, and seed=line where the entry has it. (Drawn after
	// the second-order helpers, for the same reason.)
	if g.r.IntN(100) < g.w["lanes"] {
		modes = append(modes, ModeTaylorLanes)
		if slices.Contains(modes, ModeLine) {
			modes = append(modes, ModeLineLanes)
		}
		doc = append(doc, fmt.Sprintf("difftest:lanes %d", 2+g.r.IntN(2)))
		g.feats["lanes"] = true
	}
	// Binomial checkpointing of the state loops by the reverse modes,
	// with 1 or 2 copies of 3 steps (drawn last too).
	if f.stateLoop && g.r.IntN(100) < g.w["state-revolve"] {
		doc = append(doc, fmt.Sprintf("difftest:checkpoint %d", 1+g.r.IntN(2)))
		g.feats["state-revolve"] = true
	}
	doc = append(doc, "difftest:modes "+strings.Join(modes, " "))
	return decl, doc
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// loopChoice is the form of a loop loopOver writes, and the variables the
// forms read: ints that hold L (lens), slices and arrays of length L, and
// counters of enclosing loops that leave room for a triangular loop
// (outer).
type loopChoice struct {
	form                        string
	lens, slices, arrays, outer []*vr
}

// loopChoices picks the form of a loop among those the variables in scope
// allow; a full loop visits every index and reads it.
func (f *fn) loopChoices(full bool) loopChoice {
	g := f.g
	L := g.L
	opts := []string{"for-3clause", "for-down", "for-cond", "for-range-const"}
	var c loopChoice
	ints := f.vars(kInt)
	for _, v := range ints {
		if v.isLen {
			c.lens = append(c.lens, v)
		}
	}
	if len(c.lens) > 0 {
		opts = append(opts, "for-range-var")
	}
	c.slices = f.vars(kSlice)
	if len(c.slices) > 0 {
		opts = append(opts, "for-range-slice-iv", "for-range-slice-i", "for-range-slice-v")
	}
	c.arrays = f.vars(kArray)
	if len(c.arrays) > 0 {
		opts = append(opts, "for-range-array")
	}
	for _, v := range ints {
		if !v.isLen && v.lo >= 0 && v.lo+1 <= L-1 && v.hi <= L-1 {
			c.outer = append(c.outer, v)
		}
	}
	if len(c.outer) > 0 && !full {
		opts = append(opts, "for-tri")
	}
	if full {
		opts = slices.DeleteFunc(opts, func(o string) bool { return o == "for-range-slice-v" })
	}
	c.form = g.pick(opts...)
	if c.form == "" {
		c.form = "for-3clause"
	}
	return c
}
