package difftest

// This file defines the generator's simulation and nesting constructs:
// a state struct of slices stepped in place by methods in a time loop
// (Euler steps, or the leapfrog's kick-drift-kick, a method calling
// methods), built by a constructor or a literal, with a method that
// replaces a field's slice and a field grown by append; helpers that
// return a slice they allocated; and calls of generated derivatives
// (//gad:grad and //gad:jvp helpers) inside the differentiated
// function, with a reference derivative written by the generator for
// the twin.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// stateSteps is the number of time steps of a state loop.
const stateSteps = 3

// parseDecls parses Go declarations (the source after the package
// clause) in g's file set, with each identifier named in subst
// replaced by a copy of its expression.
func (g *gen) parseDecls(src string, subst map[string]ast.Expr) []ast.Decl {
	f, err := parser.ParseFile(g.fset, "", "package p\n\n"+src, parser.SkipObjectResolution)
	if err != nil {
		panic(fmt.Sprintf("difftest: a template: %v\n%s", err, src))
	}
	for _, d := range f.Decls {
		astutil.Apply(d, nil, func(c *astutil.Cursor) bool {
			if i, ok := c.Node().(*ast.Ident); ok {
				if e, ok := subst[i.Name]; ok {
					c.Replace(clone(e))
				}
			}
			return true
		})
	}
	return f.Decls
}

// declare adds the declarations of src, each under its name (T.m for
// methods), with the doc comment lines doc[name].
func (g *gen) declare(src string, subst map[string]ast.Expr, doc map[string][]string) {
	for _, d := range g.parseDecls(src, subst) {
		name := ""
		switch d := d.(type) {
		case *ast.FuncDecl:
			name = d.Name.Name
			if d.Recv != nil {
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				name = t.(*ast.Ident).Name + "." + name
			}
		case *ast.GenDecl:
			name = d.Specs[0].(*ast.TypeSpec).Name.Name
		}
		g.helpers[name] = d
		if lines := doc[name]; lines != nil {
			g.docs[name] = lines
		}
	}
}

// helperExpr returns a float expression of depth d over the float
// variables floats and the slices slices (indexed by i, in [0, L)), as
// in a helper: it calls no helper.
func (g *gen) helperExpr(d int, floats, slices []string, i string) ast.Expr {
	f := g.helperFn(1)
	f.push()
	for _, n := range floats {
		f.declare(&vr{name: n, k: kFloat, param: true})
	}
	for _, n := range slices {
		f.declare(&vr{name: n, k: kSlice, param: true})
	}
	if i != "" {
		f.declare(&vr{name: i, k: kInt, lo: 0, hi: g.L - 1})
	}
	return f.expr(d)
}

// stateType declares type stateN struct{ q, v, hist []float64 } and
// returns its name.
func (g *gen) stateType() string {
	name := g.name("state")
	if g.helpers[name] == nil {
		g.declare(fmt.Sprintf("type %s struct {\n\tq, v []float64\n\thist []float64\n}", name), nil, nil)
	}
	return name
}

// stateMethods declares the step method of the state type st (and the
// methods it calls): func (s *st) stepN(dt, c float64).
func (g *gen) stateMethods(st string) string {
	step := g.name("step")
	if g.helpers[st+"."+step] != nil {
		return step
	}
	force := g.helperExpr(2, []string{"x", "c"}, []string{"s.q"}, "i")
	update := "x := s.q[i]\n\t\ts.v[i] -= dt * (x + c*FORCE)"
	pre := ""
	if g.w["nest-grad"] > 0 && g.maybe("nest-in-step", 1) {
		// The particle's shape: the force is the gradient of a
		// potential, from its generated derivative.
		grad := g.nested("grad")
		pre = fmt.Sprintf("g := make([]float64, len(s.q))\n\t%s(s.q, g)\n\t", grad)
		update = "x := s.q[i]\n\t\ts.v[i] -= dt * (c*g[i] + x*FORCE)"
	}
	hist := ""
	if g.maybe("state-append", 1) {
		hist = fmt.Sprintf("\n\ts.hist = append(s.hist, s.q[0]*s.v[%d])", g.r.IntN(g.L))
		g.stateHist = true
	}
	var src string
	if g.pick("state-euler", "state-leapfrog") == "state-leapfrog" {
		kick, drift := g.name("kick"), g.name("drift")
		src = fmt.Sprintf(`func (s *%[1]s) %[2]s(dt, c float64) {
	%[5]sfor i := range s.q {
		%[6]s
	}
}

func (s *%[1]s) %[3]s(dt float64) {
	for i := range s.q {
		s.q[i] += dt * s.v[i]
	}
}

func (s *%[1]s) %[4]s(dt, c float64) {
	s.%[2]s(dt/2, c)
	s.%[3]s(dt)
	s.%[2]s(dt/2, c)%[7]s
}
`, st, kick, drift, step, pre, update, hist)
	} else {
		src = fmt.Sprintf(`func (s *%[1]s) %[2]s(dt, c float64) {
	%[3]sfor i := range s.q {
		%[4]s
	}
	for i := range s.q {
		s.q[i] += dt * s.v[i]
	}%[5]s
}
`, st, step, pre, update, hist)
	}
	var doc map[string][]string
	if g.maybe("state-checkpoint", 2) {
		// The step as a checkpoint: its calls are never inlined.
		doc = map[string][]string{st + "." + step: {"//gad:checkpoint"}}
	}
	g.declare(src, map[string]ast.Expr{"FORCE": force}, doc)
	return step
}

// stateConstructor declares func newStateN(a []float64, b float64) *st,
// which allocates the state's slices and stores them in a new state.
func (g *gen) stateConstructor(st string) string {
	name := g.name("newState")
	if g.helpers[name] == nil {
		init := g.helperExpr(2, []string{"b"}, []string{"a"}, "i")
		g.declare(fmt.Sprintf(`func %[1]s(a []float64, b float64) *%[2]s {
	s := &%[2]s{q: make([]float64, len(a)), v: make([]float64, len(a))}
	for i := range a {
		s.q[i] = a[i]
		s.v[i] = b * INIT
	}
	return s
}
`, name, st), map[string]ast.Expr{"INIT": init}, nil)
	}
	return name
}

// stateWrap declares func wrapN(a []float64, b float64) *st, which
// stores its caller's slice a as the state's q: stepping the state
// writes a.
func (g *gen) stateWrap(st string) string {
	name := g.name("wrap")
	if g.helpers[name] == nil {
		init := g.helperExpr(2, []string{"b"}, []string{"a"}, "i")
		g.declare(fmt.Sprintf(`func %[1]s(a []float64, b float64) *%[2]s {
	s := &%[2]s{q: a, v: make([]float64, len(a))}
	for i := range a {
		s.v[i] = b * INIT
	}
	return s
}
`, name, st), map[string]ast.Expr{"INIT": init}, nil)
	}
	return name
}

// stateReset declares func (s *st) resetN(a []float64, c float64),
// which replaces the slice of the field v by a new one.
func (g *gen) stateReset(st string) string {
	name := g.name("reset")
	if g.helpers[st+"."+name] == nil {
		e := g.helperExpr(1, []string{"c"}, []string{"a"}, "i")
		g.declare(fmt.Sprintf(`func (s *%[1]s) %[2]s(a []float64, c float64) {
	v := make([]float64, len(a))
	for i := range a {
		v[i] = 0.5*s.v[i] + c*E
	}
	s.v = v
}
`, st, name), map[string]ast.Expr{"E": e}, nil)
	}
	return name
}

// stateEnergy declares func energyN(s *st) float64, which reads the
// state through its pointer.
func (g *gen) stateEnergy(st string) string {
	name := g.name("energy")
	if g.helpers[name] == nil {
		g.declare(fmt.Sprintf(`func %[1]s(s *%[2]s) float64 {
	e := 0.0
	for i := range s.q {
		e += 0.5*s.v[i]*s.v[i] + 0.5*s.q[i]*s.q[i]
	}
	return e
}
`, name, st), nil, nil)
	}
	return name
}

// stateValueStep declares func stepvN(s st, dt, c float64), an Euler
// step of the state given by value: it writes through the value's slices.
func (g *gen) stateValueStep(st string) string {
	name := g.name("stepv")
	if g.helpers[name] == nil {
		force := g.helperExpr(2, []string{"x", "c"}, []string{"s.q"}, "i")
		g.declare(fmt.Sprintf(`func %[1]s(s %[2]s, dt, c float64) {
	for i := range s.q {
		x := s.q[i]
		s.v[i] -= dt * (x + c*FORCE)
	}
	for i := range s.q {
		s.q[i] += dt * s.v[i]
	}
}
`, name, st), map[string]ast.Expr{"FORCE": force}, nil)
	}
	return name
}

// state returns the statements of a state stepped in place in a time
// loop: made by the constructor or a literal, its v replaced by a
// method before the loop or in it, and declares it.
func (f *fn) state() []ast.Stmt {
	g := f.g
	st := g.stateType()
	step := g.stateMethods(st)
	s := f.fresh("s")
	var out []ast.Stmt
	ss := f.vars(kSlice)
	var writable []*vr
	for _, v := range ss {
		if v.writable {
			writable = append(writable, v)
		}
	}
	opts := []string{"state-literal"}
	if len(ss) > 0 {
		opts = append(opts, "state-new")
	}
	if len(writable) > 0 {
		opts = append(opts, "state-alias")
	}
	switch g.pick(opts...) {
	case "state-new":
		out = append(out, define(s, call(id(g.stateConstructor(st)), f.read(f.any(ss)), f.expr(1))))
	case "state-alias":
		// The state's q is the caller's slice a (a local, or a
		// parameter the entry writes through): the steps write it.
		a := f.any(writable)
		f.writes(a)
		a.dirty = true
		out = append(out, define(s, call(id(g.stateWrap(st)), f.read(a), f.expr(1))))
	default:
		g.feats["state-literal"] = true
		mk := func() ast.Expr { return call(id("make"), sliceOf(id("float64")), intLit(g.L)) }
		lit := &ast.UnaryExpr{Op: token.AND, X: &ast.CompositeLit{Type: id(st), Elts: []ast.Expr{
			&ast.KeyValueExpr{Key: id("q"), Value: mk()},
			&ast.KeyValueExpr{Key: id("v"), Value: mk()},
		}}}
		out = append(out, define(s, lit))
		out = append(out, f.fill(sel(id(s), "q"))...)
		out = append(out, f.fill(sel(id(s), "v"))...)
	}
	var reset ast.Stmt
	if len(ss) > 0 && g.maybe("state-replace", 1) {
		reset = exprStmt(call(sel(id(s), g.stateReset(st)), f.read(f.any(ss)), f.expr(1)))
	}
	k := f.fresh("k")
	force := f.expr(1)
	var carried string
	if g.maybe("state-carry", 2) {
		// A time carried from step to step beside the state.
		carried = f.fresh("tm")
		out = append(out, define(carried, floatLit(0.25)))
		force = bin(id(carried), token.MUL, force)
	}
	body := []ast.Stmt{exprStmt(call(sel(id(s), step), floatLit(0.1), force))}
	hist := g.stateHist
	if g.maybe("state-value", 3) {
		// The step as a function of the state by value (*s): a copy
		// that shares the state's slices (and appends to no history).
		body[0] = exprStmt(call(id(g.stateValueStep(st)), &ast.StarExpr{X: id(s)}, floatLit(0.1), force))
		hist = false
	}
	if carried != "" {
		body = append(body, assign(id(carried), token.ADD_ASSIGN, floatLit(0.1)))
	}
	if reset != nil {
		if g.chance(0.5) {
			out = append(out, reset)
		} else {
			body = append(body, reset)
		}
	}
	out = append(out, &ast.ForStmt{
		Init: define(k, intLit(0)),
		Cond: bin(id(k), token.LSS, intLit(stateSteps)),
		Post: &ast.IncDecStmt{X: id(k), Tok: token.INC},
		Body: block(body...),
	})
	f.declare(&vr{name: s, k: kState, hist: hist})
	if carried != "" {
		f.declare(&vr{name: carried, k: kFloat})
	}
	f.stateLoop = true
	return out
}

// readState returns a float expression that reads the state v: an
// element of q or v, its history, or its energy through a helper.
func (f *fn) readState(v *vr) ast.Expr {
	g := f.g
	v.read, v.dirty = true, false
	switch k := g.r.IntN(4); {
	case k == 0 && v.hist:
		return index(sel(id(v.name), "hist"), intLit(g.r.IntN(stateSteps)))
	case k == 1:
		g.feats["state-energy"] = true
		return call(id(g.stateEnergy(g.stateType())), id(v.name))
	case k == 2:
		return index(sel(id(v.name), "v"), f.index())
	}
	return index(sel(id(v.name), "q"), f.index())
}

// sliceMaker declares func mkN(a []float64, c float64) []float64, which
// returns a slice it allocated (by make, or grown by append from nil).
func (g *gen) sliceMaker() string {
	name := g.name("mk")
	if g.helpers[name] == nil {
		e := g.helperExpr(2, []string{"c"}, []string{"a"}, "i")
		src := `func %[1]s(a []float64, c float64) []float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = E
	}
	return r
}
`
		if g.chance(0.4) {
			src = `func %[1]s(a []float64, c float64) []float64 {
	var r []float64
	for i := range a {
		r = append(r, c*a[i]+E)
	}
	return r
}
`
		}
		g.declare(fmt.Sprintf(src, name), map[string]ast.Expr{"E": e}, nil)
	}
	return name
}

// potentials are the terms φ of the nested helpers' potentials, with
// their derivatives φ′, of QI.
var potentials = [][2]string{
	{"QI * QI", "2 * QI"},
	{"math.Sin(QI)", "math.Cos(QI)"},
	{"math.Cos(QI)", "-math.Sin(QI)"},
	{"math.Log(1 + QI*QI)", "2 * QI / (1 + QI*QI)"},
	{"math.Exp(math.Sin(QI))", "math.Cos(QI) * math.Exp(math.Sin(QI))"},
	{"math.Atan(QI)", "1 / (1 + QI*QI)"},
	{"math.Sqrt(1 + QI*QI)", "QI / math.Sqrt(1 + QI*QI)"},
}

// nested declares a potential helper with the directive of mode
// ("grad" or "jvp"),
//
//	potN(q []float64) float64 = Σᵢ a·φ(q[i]) + b·Σᵢ (q[i+1] − q[i])²,
//
// and its reference derivative for the twin, potNGrad(q, qBar) (qBar +=
// ∇pot) or potNJVP(q, dq) (pot and ∇pot·dq), written out from φ′; it
// returns the derivative's name, which the mode packages get from
// gadgen.
func (g *gen) nested(mode string) string {
	base := map[string]string{"grad": "pot", "jvp": "potj"}[mode]
	name := g.name(base)
	suffix := map[string]string{"grad": "Grad", "jvp": "JVP"}[mode]
	if g.helpers[name] != nil {
		return name + suffix
	}
	g.feats["nest-"+mode] = true
	// The terms of the math functions switched on (math-exp=0 leaves
	// out math.Exp).
	var terms [][2]string
	for _, t := range potentials {
		on := true
		for _, fn := range []string{"Sin", "Cos", "Log", "Exp", "Atan", "Sqrt"} {
			if strings.Contains(t[0]+t[1], "math."+fn) && g.w["math-"+strings.ToLower(fn)] == 0 {
				on = false
			}
		}
		if on {
			terms = append(terms, t)
		}
	}
	pot := terms[g.r.IntN(len(terms))]
	phi := strings.ReplaceAll(pot[0], "QI", "q[i]")
	dphi := strings.ReplaceAll(pot[1], "QI", "q[i]")
	a, b := constants[g.r.IntN(len(constants))], []float64{0.5, 0.25, 1, 0.1}[g.r.IntN(4)]
	src := fmt.Sprintf(`func %[1]s(q []float64) float64 {
	e := 0.0
	for i := range q {
		e += %[2]g * %[3]s
	}
	for i := 0; i < len(q)-1; i++ {
		d := q[i+1] - q[i]
		e += %[4]g * d * d
	}
	return e
}
`, name, a, phi, b)
	if mode == "grad" {
		src += fmt.Sprintf(`
func %[1]sGrad(q, qBar []float64) float64 {
	e := 0.0
	for i := range q {
		e += %[2]g * %[3]s
		qBar[i] += %[2]g * (%[5]s)
	}
	for i := 0; i < len(q)-1; i++ {
		d := q[i+1] - q[i]
		e += %[4]g * d * d
		qBar[i+1] += 2 * %[4]g * d
		qBar[i] -= 2 * %[4]g * d
	}
	return e
}
`, name, a, phi, b, dphi)
	} else {
		src += fmt.Sprintf(`
func %[1]sJVP(q, dq []float64) (float64, float64) {
	e, de := 0.0, 0.0
	for i := range q {
		e += %[2]g * %[3]s
		de += %[2]g * (%[5]s) * dq[i]
	}
	for i := 0; i < len(q)-1; i++ {
		d := q[i+1] - q[i]
		e += %[4]g * d * d
		de += 2 * %[4]g * d * (dq[i+1] - dq[i])
	}
	return e, de
}
`, name, a, phi, b, dphi)
	}
	g.declare(src, nil, map[string][]string{
		name:          {"//gad:" + mode},
		name + suffix: {fmt.Sprintf("// %s%s is the derivative gadgen writes for %s, written out for the twin.", name, suffix, name), "//", "//difftest:reference " + name},
	})
	return name + suffix
}

// nestCall returns the statements of a call of a generated derivative
// in the entry: e, g := pot(x), ∇pot(x) (the gradient into a new
// slice), or e, d := pot(x), ∇pot(x)·y.
func (f *fn) nestCall(mode string) []ast.Stmt {
	g := f.g
	ss := f.vars(kSlice)
	var out []ast.Stmt
	if len(ss) == 0 {
		out = f.localSlice()
		ss = f.vars(kSlice)
	}
	fn := g.nested(mode)
	e := f.declare(&vr{name: f.fresh("e"), k: kFloat})
	if mode == "grad" {
		gs := f.fresh("g")
		x := f.read(f.any(ss))
		out = append(out, define(gs, call(id("make"), sliceOf(id("float64")), call(id("len"), clone(x)))),
			define(e.name, call(id(fn), x, id(gs))))
		f.declare(&vr{name: gs, k: kSlice, writable: true})
		return out
	}
	d := f.declare(&vr{name: f.fresh("d"), k: kFloat})
	out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{id(e.name), id(d.name)}, Tok: token.DEFINE,
		Rhs: []ast.Expr{call(id(fn), f.read(f.any(ss)), f.read(f.any(ss)))}})
	return out
}
