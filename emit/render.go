package emit

// This file defines the rendering of the statement tree as jennifer code.

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/gadgen/gadgen/ir"
)

// maxDeclNames is the widest list of names, with their ", ", that one var
// statement declares: lines stay within the width gofmt'ed code reads at.
const maxDeclNames = 72

// renderList renders the statements of l.
func (e *emitter) renderList(l *slist) []jen.Code {
	var out []jen.Code
	for i := 0; i < len(l.stmts); i++ {
		// Adjacent declarations of one type: var s, ds float64; a new
		// var statement when the names would make the line long.
		if d, ok := l.stmts[i].(*sDecl); ok {
			names := []jen.Code{jen.Id(d.v.name)}
			width := len(d.v.name)
			for i+1 < len(l.stmts) {
				d2, ok := l.stmts[i+1].(*sDecl)
				if !ok || !types.Identical(d2.v.typ, d.v.typ) || width+2+len(d2.v.name) > maxDeclNames {
					break
				}
				names = append(names, jen.Id(d2.v.name))
				width += 2 + len(d2.v.name)
				i++
			}
			out = append(out, jen.Var().List(names...).Add(e.typ(d.v.typ)))
			continue
		}
		if i+1 < len(l.stmts) {
			if c := e.selectPair(l.stmts[i], l.stmts[i+1]); c != nil {
				out = append(out, c...)
				i++
				continue
			}
		}
		out = append(out, e.renderStmt(l.stmts[i])...)
	}
	return out
}

// selectPair renders two adjacent selects on one condition, each of a
// variable or constant, as one pair of assignments,
//
//	t2, t3 := 0.0, 1.0
//	if t {
//		t2, t3 = 1, 0
//	}
//
// (the derivative rule of max: where(x >= y, 1, 0), where(x >= y, 0, 1)),
// or returns nil. Neither select may read the other's variable, so that
// assigning both at once changes nothing.
func (e *emitter) selectPair(s1, s2 stmt) []jen.Code {
	v1, ok1 := s1.(*sValue)
	v2, ok2 := s2.(*sValue)
	if !ok1 || !ok2 || v1.v.Op != ir.OpSelect || v2.v.Op != ir.OpSelect || v1.define != v2.define ||
		v1.v.Args[0] != v2.v.Args[0] || e.kind[v1.v.ID] != kVar || e.kind[v2.v.ID] != kVar {
		return nil
	}
	vr1, vr2 := e.vars[v1.v.ID], e.vars[v2.v.ID]
	if vr1 == vr2 {
		return nil
	}
	simple := func(x *ir.Value) bool {
		if x.Op == ir.OpConst {
			return !v1.define || !e.needsVarForm(x)
		}
		return e.kind[x.ID] == kVar && e.vars[x.ID] != vr1 && e.vars[x.ID] != vr2
	}
	c := v1.v.Args[0]
	if e.kind[c.ID] != kVar || e.vars[c.ID] == vr1 || e.vars[c.ID] == vr2 {
		return nil
	}
	for _, x := range []*ir.Value{v1.v.Args[1], v1.v.Args[2], v2.v.Args[1], v2.v.Args[2]} {
		if !simple(x) {
			return nil
		}
	}
	op := "="
	if v1.define {
		op = ":="
	}
	var want1, want2 types.Type
	if !v1.define {
		want1, want2 = vr1.typ, vr2.typ
	}
	// names returns a new statement: jennifer appends to the one it has.
	names := func() *jen.Statement { return jen.List(jen.Id(vr1.name), jen.Id(vr2.name)) }
	first := names().Op(op).List(e.ref(v1.v.Args[2], want1).c, e.ref(v2.v.Args[2], want2).c)
	then := names().Op("=").List(e.ref(v1.v.Args[1], vr1.typ).c, e.ref(v2.v.Args[1], vr2.typ).c)
	return []jen.Code{first, jen.If(e.ref(c, c.Type).c).Block(then)}
}

func (e *emitter) renderStmt(st stmt) []jen.Code {
	switch st := st.(type) {
	case *sValue:
		return e.renderValue(st)
	case *sAssign:
		return []jen.Code{e.renderAssign(st)}
	case *sSetBool:
		c := e.condExpr(st.cond).c
		switch {
		case !st.define:
			return []jen.Code{jen.Id(st.dst.name).Op("=").Add(c)}
		case types.Identical(st.dst.typ, types.Typ[types.Bool]):
			return []jen.Code{jen.Id(st.dst.name).Op(":=").Add(c)}
		}
		return []jen.Code{jen.Var().Id(st.dst.name).Add(e.typ(st.dst.typ)).Op("=").Add(c)}
	case *sIf:
		return []jen.Code{e.renderIf(st)}
	case *sSwitch:
		var clauses []jen.Code
		for _, c := range st.cases {
			var vals []jen.Code
			for _, v := range c.vals {
				vals = append(vals, e.ref(v, st.tag.Type).c)
			}
			clauses = append(clauses, jen.Case(vals...).Block(e.renderList(c.body)...))
		}
		if st.dflt != nil {
			clauses = append(clauses, jen.Default().Block(e.renderList(st.dflt)...))
		}
		tag := e.inHeader(func() expr {
			if st.inlineTag {
				return e.op(st.tag, st.tag.Type)
			}
			return e.ref(st.tag, st.tag.Type)
		})
		return []jen.Code{jen.Switch(tag.c).Block(clauses...)}
	case *sFor:
		return e.renderFor(st)
	case *sSuspend:
		return []jen.Code{e.renderSuspend(st)}
	case *sBranch:
		s := jen.Break()
		if st.tok == token.CONTINUE {
			s = jen.Continue()
		}
		if st.labeled {
			s.Id(st.loop.label)
		}
		return []jen.Code{s}
	case *sDecl:
		return []jen.Code{jen.Var().Id(st.v.name).Add(e.typ(st.v.typ))}
	case *sLabel:
		return []jen.Code{jen.Id(st.name).Op(":")}
	case *sGoto:
		return []jen.Code{jen.Goto().Id(st.name)}
	}
	internalf("unknown statement %T", st)
	return nil
}

func (e *emitter) renderIf(st *sIf) *jen.Statement {
	s := jen.If(e.inHeader(func() expr { return e.condExpr(st.cond) }).c).Block(e.renderList(st.then)...)
	if st.els.empty() {
		return s
	}
	if len(st.els.stmts) == 1 {
		if elif, ok := st.els.stmts[0].(*sIf); ok {
			return s.Else().Add(e.renderIf(elif))
		}
	}
	return s.Else().Block(e.renderList(st.els)...)
}

func (e *emitter) renderFor(st *sFor) []jen.Code {
	var out []jen.Code
	if st.label != "" {
		out = append(out, jen.Id(st.label).Op(":"))
	}
	var clauses []jen.Code
	var cond jen.Code = jen.Empty()
	if st.cond != nil {
		cond = e.inHeader(func() expr { return e.condExpr(st.cond) }).c
	}
	if st.init == nil && st.post == nil {
		if st.cond != nil {
			clauses = []jen.Code{cond}
		}
	} else {
		e.header = true
		clauses = []jen.Code{e.simple(st.init), cond, e.simple(st.post)}
		e.header = false
	}
	return append(out, jen.For(clauses...).Block(e.renderList(st.body)...))
}

// simple renders the init or post statement of a for loop.
func (e *emitter) simple(st stmt) jen.Code {
	if st == nil {
		return jen.Empty()
	}
	cs := e.renderStmt(st)
	if len(cs) != 1 {
		internalf("for clause renders as %d statements", len(cs))
	}
	return cs[0]
}

func (e *emitter) renderValue(st *sValue) []jen.Code {
	v := st.v
	switch v.Op {
	case ir.OpReturn:
		var rs []jen.Code
		for i, a := range v.Args {
			rs = append(rs, e.ref(a, e.fn.ResultTypes[i]).c)
		}
		list, _ := wrapList(rs, 9, 0)
		return []jen.Code{jen.Return(list)}
	case ir.OpPanic:
		return []jen.Code{jen.Panic(e.ref(v.Args[0], anyType).c)}
	case ir.OpStore:
		return []jen.Code{e.renderStore(v)}
	case ir.OpAlloc:
		if info := e.allocs[v]; info != nil {
			vr := info.v
			switch {
			case st.define && st.merged != nil:
				return []jen.Code{jen.Id(vr.name).Op(":=").Add(e.ref(st.merged.Args[1], nil).c)}
			case st.define:
				return []jen.Code{jen.Var().Id(vr.name).Add(e.typ(vr.typ))}
			case st.zero:
				return []jen.Code{jen.Id(vr.name).Op("=").Add(e.constant(vr.typ, nil, vr.typ).c)}
			}
			return nil
		}
	case ir.OpCall:
		if e.kind[v.ID] == kStmt {
			call := e.call(v).c
			if v.Type != nil && !isTuple(v.Type) && notStatement[v.Callee.Builtin] {
				// Not permitted in statement context: kept for its
				// effect (append's on spare capacity).
				return []jen.Code{jen.Id("_").Op("=").Add(call)}
			}
			if v.Type == nil || !isTuple(v.Type) {
				return []jen.Code{call}
			}
			names := make([]jen.Code, v.Type.(*types.Tuple).Len())
			any := false
			for i := range names {
				names[i] = jen.Id("_")
			}
			for _, x := range e.extract[v] {
				if vr := e.vars[x.ID]; !e.unread[vr] {
					names[x.Index] = jen.Id(vr.name)
					any = true
				}
			}
			if !any {
				return []jen.Code{call}
			}
			op := "="
			if st.define {
				op = ":="
			}
			lhs, lead := wrapList(names, 2, 0)
			r := fmt.Sprintf("%#v", call)
			if lead+len(op)+2+utf8.RuneCountInString(strings.SplitN(r, "\n", 2)[0]) > maxLine {
				// The call's arguments one to a line after a wide left side.
				call = e.callMulti(v).c
				r = fmt.Sprintf("%#v", call)
			}
			// The left side wrapped if the call's first line ("f(") does
			// not fit after it.
			if reserve := len(op) + 2 + utf8.RuneCountInString(strings.SplitN(r, "\n", 2)[0]); lead+reserve > maxLine {
				lhs, _ = wrapList(names, 2, reserve)
			}
			return []jen.Code{lhs.Op(op).Add(call)}
		}
	case ir.OpSelect:
		// v := b; if c { v = a }, leaving out what v already holds.
		vr := e.vars[v.ID]
		c, a, b := v.Args[0], v.Args[1], v.Args[2]
		holds := func(x *ir.Value) bool { return e.kind[x.ID] == kVar && e.vars[x.ID] == vr }
		switch {
		case e.selectHeld(v):
			return nil
		case holds(b):
			return []jen.Code{jen.If(e.inHeader(func() expr { return e.ref(c, c.Type) }).c).Block(jen.Id(vr.name).Op("=").Add(e.ref(a, vr.typ).c))}
		case holds(a):
			neg := expr{jen.Op("!").Add(paren(e.inHeader(func() expr { return e.ref(c, c.Type) }), precPrimary)), precUnary}
			return []jen.Code{jen.If(neg.c).Block(jen.Id(vr.name).Op("=").Add(e.ref(b, vr.typ).c))}
		}
		first := e.define(vr, b, false, st.define)
		second := jen.If(e.inHeader(func() expr { return e.ref(c, c.Type) }).c).Block(jen.Id(vr.name).Op("=").Add(e.ref(a, vr.typ).c))
		return []jen.Code{first, second}
	}
	if e.kind[v.ID] == kVar {
		return []jen.Code{e.define(e.vars[v.ID], v, true, st.define)}
	}
	internalf("cannot render statement %s", v.LongString(nil))
	return nil
}

// selectHeld reports whether both operands of select v are held in v's
// own variable: the select is then no statement at all.
func (e *emitter) selectHeld(v *ir.Value) bool {
	vr := e.vars[v.ID]
	holds := func(x *ir.Value) bool { return e.kind[x.ID] == kVar && e.vars[x.ID] == vr }
	return holds(v.Args[1]) && holds(v.Args[2])
}

var anyType = types.Universe.Lookup("any").Type()

// define renders the assignment of x to vr (of x's operation if asOp,
// else of x as an operand), declaring vr if decl.
func (e *emitter) define(vr *variable, x *ir.Value, asOp, decl bool) *jen.Statement {
	render := func(want types.Type) expr {
		if asOp {
			return e.op(x, want)
		}
		return e.ref(x, want)
	}
	if decl {
		if x.Op == ir.OpConst && x.Const == nil && nilable(vr.typ) {
			return jen.Var().Id(vr.name).Add(e.typ(vr.typ))
		}
		if e.needsVarForm(x) {
			return jen.Var().Id(vr.name).Add(e.typ(vr.typ)).Op("=").Add(render(vr.typ).c)
		}
		return jen.Id(vr.name).Op(":=").Add(render(nil).c)
	}
	// Compound assignment: v = v op y.
	if (asOp || e.kind[x.ID] == kInline) && x.Op == ir.OpBinary && compoundable(x.Tok) {
		l, r := x.Args[0], x.Args[1]
		if e.kind[l.ID] == kVar && e.vars[l.ID] == vr {
			if e.isStep(x, vr) && constant1(r) {
				if x.Tok == token.ADD {
					return jen.Id(vr.name).Op("++")
				}
				return jen.Id(vr.name).Op("--")
			}
			return jen.Id(vr.name).Op(x.Tok.String() + "=").Add(e.ref(r, r.Type).c)
		}
	}
	return jen.Id(vr.name).Op("=").Add(render(vr.typ).c)
}

func (e *emitter) renderAssign(st *sAssign) *jen.Statement {
	if len(st.dsts) == 1 {
		return e.define(st.dsts[0], st.srcs[0], false, st.define)
	}
	var ls, rs []jen.Code
	for i, d := range st.dsts {
		ls = append(ls, jen.Id(d.name))
		var want types.Type = d.typ
		if st.define {
			want = nil
		}
		rs = append(rs, e.ref(st.srcs[i], want).c)
	}
	op := "="
	if st.define {
		op = ":="
	}
	return jen.List(ls...).Op(op).List(rs...)
}

func (e *emitter) renderStore(v *ir.Value) *jen.Statement {
	addr, val := v.Args[0], v.Args[1]
	pl, _ := e.place(addr)
	elem := addr.Type.Underlying().(*types.Pointer).Elem()
	// x[i] = x[i] op y  =>  x[i] op= y
	if e.kind[val.ID] == kInline && val.Op == ir.OpBinary && compoundable(val.Tok) {
		l, r := val.Args[0], val.Args[1]
		if e.kind[l.ID] == kInline && l.Op == ir.OpLoad && e.samePlace(l.Args[0], addr) {
			if (val.Tok == token.ADD || val.Tok == token.SUB) && constant1(r) && isInteger(r.Type) {
				if val.Tok == token.ADD {
					return jen.Add(pl.c).Op("++")
				}
				return jen.Add(pl.c).Op("--")
			}
			return jen.Add(pl.c).Op(val.Tok.String() + "=").Add(e.ref(r, r.Type).c)
		}
	}
	return jen.Add(pl.c).Op("=").Add(e.ref(val, elem).c)
}

func compoundable(tok token.Token) bool {
	switch tok {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM,
		token.AND, token.OR, token.XOR, token.SHL, token.SHR, token.AND_NOT:
		return true
	}
	return false
}

func constant0(v *ir.Value) bool {
	return v.Op == ir.OpConst && v.Const != nil && v.Const.ExactString() == "0"
}

func constant1(v *ir.Value) bool {
	return v.Op == ir.OpConst && v.Const != nil && v.Const.ExactString() == "1"
}

func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	}
	return false
}

// needsVarForm reports whether "x := v" would give x a type other than
// v's: an untyped boolean of a named boolean type, or nil.
func (e *emitter) needsVarForm(v *ir.Value) bool {
	if v.Op == ir.OpConst {
		return v.Const == nil && nilable(v.Type)
	}
	if types.Identical(v.Type, types.Typ[types.Bool]) {
		return false
	}
	switch {
	case v.Op == ir.OpBinary && isComparison(v.Tok):
		return true
	case v.Op == ir.OpUnary && v.Tok == token.NOT && e.kind[v.Args[0].ID] == kInline:
		return e.needsVarForm(v.Args[0])
	}
	return false
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// notStatement holds the builtins that Go does not permit in statement
// context.
var notStatement = map[string]bool{"append": true, "cap": true, "complex": true, "imag": true, "len": true,
	"make": true, "max": true, "min": true, "new": true, "real": true}
