package emit

// This file defines the rendering of IR values as Go expressions:
// operator precedence, places (the variable or element an address
// denotes), calls, and constants.
//
// Every rendering function takes want, the type the context converts the
// expression to, or nil when the expression must carry its own type (the
// right-hand side of :=, an operand of an interface conversion, both
// operands of a binary operation being constants). Constants are written
// untyped when want gives them their type (x * 2, s = 0) and typed
// otherwise (s := 0.0, float32(1), Celsius(2)).

import (
	"bytes"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/gadgen/gadgen/ir"
)

// expr is a rendered expression and its precedence: 1-5 for binary
// operators (token.Precedence), precUnary, precPrimary.
type expr struct {
	c    jen.Code
	prec int
}

const (
	precUnary   = 6
	precPrimary = 7
)

// paren returns x, parenthesized if its precedence is below min.
func paren(x expr, min int) *jen.Statement {
	if x.prec < min {
		return jen.Parens(x.c)
	}
	return jen.Add(x.c)
}

func raw(s string) jen.Code { return jen.Op(s) }

// name returns the identifier of a value held in a variable.
func (e *emitter) name(v *ir.Value) string {
	if vr := e.vars[v.ID]; vr != nil {
		return vr.name
	}
	if v.Op == ir.OpParam {
		return e.params[v]
	}
	internalf("%s has no variable", v.LongString(nil))
	return ""
}

// ref renders v as the operand of another value or statement.
func (e *emitter) ref(v *ir.Value, want types.Type) expr {
	if v.Op == ir.OpConst {
		return e.constant(v.Type, v.Const, want)
	}
	switch e.kind[v.ID] {
	case kVar:
		if c := e.folded[e.vars[v.ID]]; c != nil {
			return e.condExpr(c)
		}
		return expr{jen.Id(e.name(v)), precPrimary}
	case kInline:
		return e.op(v, want)
	case kAddr:
		return e.addrValue(v)
	}
	internalf("cannot refer to %s (kind %d)", v.LongString(nil), e.kind[v.ID])
	return expr{}
}

// op renders v's own operation.
func (e *emitter) op(v *ir.Value, want types.Type) expr {
	switch v.Op {
	case ir.OpBinary:
		return e.binary(v, want)
	case ir.OpUnary:
		x := v.Args[0]
		w := want
		if w == nil || types.IsInterface(w) {
			w = nil
		} else {
			w = x.Type
		}
		return expr{jen.Op(v.Tok.String()).Add(paren(e.ref(x, w), precPrimary)), precUnary}
	case ir.OpConvert:
		return e.convert(v, want)
	case ir.OpCall:
		return e.call(v)
	case ir.OpLoad:
		pl, _ := e.place(v.Args[0])
		return pl
	case ir.OpField:
		x := v.Args[0]
		return expr{e.selBase(x).Dot(fieldName(x.Type, v.Index)), precPrimary}
	case ir.OpIndex:
		x, i := v.Args[0], v.Args[1]
		return expr{e.indexBase(x).Index(e.ref(i, i.Type).c), precPrimary}
	case ir.OpMakeSlice:
		args := []jen.Code{e.typ(v.Type)}
		for _, a := range v.Args {
			if a != nil {
				args = append(args, e.ref(a, a.Type).c)
			}
		}
		return expr{jen.Id("make").Call(args...), precPrimary}
	case ir.OpSlice:
		x := v.Args[0]
		var base *jen.Statement
		if e.kind[x.ID] == kAddr {
			pl, ptr := e.place(x)
			if ptr != nil {
				base = paren(*ptr, precPrimary)
			} else {
				base = paren(pl, precPrimary)
			}
		} else {
			base = paren(e.ref(x, nil), precPrimary)
		}
		var idx []jen.Code
		for k, a := range v.Args[1:] {
			if a == nil {
				if k < 2 {
					idx = append(idx, jen.Empty())
				}
				continue
			}
			idx = append(idx, e.ref(a, a.Type).c)
		}
		return expr{base.Index(idx...), precPrimary}
	case ir.OpLen, ir.OpCap:
		f := "len"
		if v.Op == ir.OpCap {
			f = "cap"
		}
		return expr{jen.Id(f).Call(e.ref(v.Args[0], nil).c), precPrimary}
	case ir.OpAlloc:
		return expr{jen.Id("new").Call(e.typ(v.Type.Underlying().(*types.Pointer).Elem())), precPrimary}
	case ir.OpConst:
		return e.constant(v.Type, v.Const, want)
	case opLiteral:
		return e.literal(v)
	}
	internalf("cannot render %s as an expression", v.LongString(nil))
	return expr{}
}

// literal renders composite literal v: keyed for a struct, positional
// for an array or slice whose elements come in index order. A long
// literal is written one element per line, as gofmt'ed code written by
// hand has it, unless its elements are all constants (a table).
func (e *emitter) literal(v *ir.Value) expr {
	elems, table := e.literalElems(v)
	x := e.composite(v.Type, elems)
	if len(elems) >= 2 && !table && textLen(x.c) > maxLiteralLine {
		multi := jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}
		x = e.compositeWith(v.Type, jen.Custom(multi, elems...))
	}
	return x
}

// maxLiteralLine is the length beyond which a literal is written on
// several lines.
const maxLiteralLine = 40

// textLen returns the length of the source text of c, or 0 if jennifer
// cannot render it alone.
func textLen(c jen.Code) int {
	var buf bytes.Buffer
	if err := jen.Add(c).Render(&buf); err != nil {
		return 0
	}
	return buf.Len()
}

// literalElems renders the elements of literal v, and reports whether
// they are all constants.
func (e *emitter) literalElems(v *ir.Value) (elems []jen.Code, table bool) {
	lit := e.lits[v]
	table = true
	isConst := func(a *ir.Value) bool {
		if a.Op == ir.OpConst {
			return true
		}
		if e.kind[a.ID] == kInline && a.Op == opLiteral {
			_, t := e.literalElems(a)
			return t
		}
		return false
	}
	switch t := v.Type.Underlying().(type) {
	case *types.Struct:
		for i, a := range v.Args {
			f := t.Field(lit.keys[i])
			elems = append(elems, jen.Id(f.Name()).Op(":").Add(e.ref(a, f.Type()).c))
			table = table && isConst(a)
		}
	default:
		var elem types.Type
		switch t := t.(type) {
		case *types.Array:
			elem = t.Elem()
		case *types.Slice:
			elem = t.Elem()
		}
		inOrder := true
		for i, k := range lit.keys {
			inOrder = inOrder && k == i
		}
		for i, a := range v.Args {
			x := e.elemRef(a, elem)
			if !inOrder {
				x = jen.Lit(lit.keys[i]).Op(":").Add(x)
			}
			elems = append(elems, x)
			table = table && isConst(a)
		}
	}
	return elems, table
}

// elemRef renders element a of an array or slice literal whose elements
// have type elem. The type of an element that is itself a composite
// literal goes without saying: [2][2]float64{{1, 0}, {0, 1}}.
func (e *emitter) elemRef(a *ir.Value, elem types.Type) jen.Code {
	if types.Identical(a.Type, elem) {
		switch {
		case e.kind[a.ID] == kInline && a.Op == opLiteral:
			elems, _ := e.literalElems(a)
			return jen.Values(elems...)
		case a.Op == ir.OpConst && a.Const == nil:
			switch elem.Underlying().(type) {
			case *types.Struct, *types.Array:
				return jen.Values()
			}
		}
	}
	return e.ref(a, elem).c
}

// composite renders the composite literal t{elems}. In a statement
// header, a literal whose type is a name is parenthesized (if p ==
// (Point{}) {...}): Go would read its brace as the start of the block.
// Inside the parentheses of a call the literal needs none.
func (e *emitter) composite(t types.Type, elems []jen.Code) expr {
	return e.compositeWith(t, jen.Values(elems...))
}

// compositeWith renders the composite literal of type t with body
// values, the braces and what they enclose.
func (e *emitter) compositeWith(t types.Type, values jen.Code) expr {
	c := jen.Add(e.typ(t)).Add(values)
	switch t.(type) {
	case *types.Named, *types.Alias:
		if e.header {
			return expr{jen.Parens(c), precPrimary}
		}
	}
	return expr{c, precPrimary}
}

func (e *emitter) binary(v *ir.Value, want types.Type) expr {
	return e.binaryTok(v, v.Tok, want)
}

// compare renders comparison v with operator tok instead of its own.
func (e *emitter) compare(v *ir.Value, tok token.Token) expr {
	return e.binaryTok(v, tok, v.Type)
}

func (e *emitter) binaryTok(v *ir.Value, tok token.Token, want types.Type) expr {
	x, y := v.Args[0], v.Args[1]
	p := tok.Precedence()
	// A constant operand is typed by the other operand; if both are
	// constants, the first spells its type.
	wx, wy := x.Type, y.Type
	spell := false
	switch {
	case v.Tok == token.SHL || v.Tok == token.SHR:
		// An untyped constant shifted by a variable count takes its type
		// from the context (float64(1 << n) shifts a float64, and so
		// does float64(-(1 << n) + 1)), which may not be the IR's: spell
		// it, as int(1) even for the default type, unless there is no
		// context. A want that is not nil does not tell the context:
		// conversions and operators pass their operand's own type.
		if x.Op == ir.OpConst {
			wx = nil
			spell = want != nil
		}
	case e.constExpr(x) && e.constExpr(y):
		wx = nil
	}
	l, r := e.ref(x, wx), e.ref(y, wy)
	if spell {
		l = e.typedConv(x.Type, e.constant(x.Type, x.Const, x.Type))
	}
	lmin, rmin := p, p+1
	if isComparison(tok) {
		lmin = p + 1
	}
	return expr{paren(l, lmin).Op(tok.String()).Add(paren(r, rmin)), p}
}

// constExpr reports whether v renders as an expression of constants
// only (-2, 1 + 2), whose type Go takes from the context.
func (e *emitter) constExpr(v *ir.Value) bool {
	if v.Op == ir.OpConst {
		return true
	}
	if e.kind[v.ID] != kInline || v.Op != ir.OpUnary && v.Op != ir.OpBinary {
		return false
	}
	for _, a := range v.Args {
		if !e.constExpr(a) {
			return false
		}
	}
	return true
}

func isComparison(tok token.Token) bool {
	switch tok {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

func (e *emitter) convert(v *ir.Value, want types.Type) expr {
	x, t := v.Args[0], v.Type
	if types.IsInterface(t) {
		if want != nil && types.IsInterface(want) {
			return e.ref(x, nil) // the context converts implicitly
		}
		return expr{jen.Add(e.typ(t)).Call(e.ref(x, nil).c), precPrimary}
	}
	if x.Op == ir.OpConst && x.Const != nil {
		if c, ok := convertConst(x.Const, t); ok {
			return e.constant(t, c, want)
		}
	}
	tc := jen.Add(e.typ(t))
	switch t.(type) {
	case *types.Pointer, *types.Signature, *types.Chan:
		tc = jen.Parens(e.typ(t))
	}
	return expr{tc.Call(e.ref(x, x.Type).c), precPrimary}
}

// convertConst converts constant c to basic type t when that is exact.
func convertConst(c constant.Value, t types.Type) (constant.Value, bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return nil, false
	}
	switch {
	case b.Info()&types.IsFloat != 0 && (c.Kind() == constant.Int || c.Kind() == constant.Float):
		return constant.ToFloat(c), true
	case b.Info()&types.IsInteger != 0 && c.Kind() == constant.Int:
		return c, true
	}
	return nil, false
}

// call renders a call.
// callMulti is call with the arguments one to a line (when there are
// more than two), for a call after a wide left side.
func (e *emitter) callMulti(v *ir.Value) expr {
	e.multiCall = true
	defer func() { e.multiCall = false }()
	return e.call(v)
}

func (e *emitter) call(v *ir.Value) expr {
	multi := e.multiCall
	e.multiCall = false // not the arguments' calls
	c := v.Callee
	args, spread := e.callArgs(v)
	var fn *jen.Statement
	var sig *types.Signature
	switch {
	case c.Builtin != "":
		var cs []jen.Code
		allConst := true
		for _, a := range args {
			allConst = allConst && e.constExpr(a)
		}
		for i, a := range args {
			var w types.Type
			switch c.Builtin {
			case "min", "max":
				if !allConst {
					w = v.Type
				}
			case "append":
				switch {
				case i == 0:
					// Untyped: append(nil, …) does not compile.
				case !spread:
					w = args[0].Type.Underlying().(*types.Slice).Elem()
				default:
					w = a.Type
				}
			case "print", "println":
			default:
				w = a.Type
			}
			cs = append(cs, e.ref(a, w).c)
		}
		if spread && len(cs) > 0 {
			cs[len(cs)-1] = jen.Add(cs[len(cs)-1]).Op("...")
		}
		return expr{jen.Id(c.Builtin).Call(cs...), precPrimary}
	case c.Derived != nil:
		sig = c.Derived.Sig
		if c.Derived.Method {
			fn = e.recvExpr(args[0]).Dot(c.Derived.Name)
			args = args[1:]
		} else if c.Derived.Pkg == nil || c.Derived.Pkg.Path() == e.fs.pkgPath {
			fn = jen.Id(c.Derived.Name)
		} else {
			fn = jen.Qual(c.Derived.Pkg.Path(), c.Derived.Name)
		}
	case c.Value:
		sig = args[0].Type.Underlying().(*types.Signature)
		fn = jen.Add(e.ref(args[0], nil).c)
		args = args[1:]
	case c.Func != nil:
		sig = c.Func.Type().(*types.Signature)
		if c.Invoke || sig.Recv() != nil {
			fn = e.recvExpr(args[0]).Dot(c.Func.Name())
			args = args[1:]
		} else {
			fn = e.fs.qual(c.Func)
		}
	default:
		internalf("call without callee: %s", v.LongString(nil))
	}
	var cs []jen.Code
	header := e.header
	e.header = false // the arguments are in parentheses
	// The arguments of an instance of a generic function infer its type
	// arguments: constants (nil) are spelled with their types. (The
	// transformers call package slices' functions, all generic, as
	// instances they make: see reverse's slicesFunc.)
	generic := c.Func != nil && (c.Func.Origin() != c.Func || c.Func.Signature().TypeParams().Len() > 0 ||
		c.Func.Pkg() != nil && c.Func.Pkg().Path() == "slices")
	for i, a := range args {
		var w types.Type = a.Type
		switch {
		case generic && a.Op == ir.OpConst:
			w = nil
		case sig != nil:
			w = paramType(sig, i, spread)
		}
		cs = append(cs, e.ref(a, w).c)
	}
	e.header = header
	if spread && len(cs) > 0 {
		cs[len(cs)-1] = jen.Add(cs[len(cs)-1]).Op("...")
	}
	switch {
	case len(cs) <= 2:
	case multi:
		// One argument to a line, as gofmt keeps them.
		return expr{fn.Custom(jen.Options{Open: "(", Close: ")", Separator: ",", Multi: true}, cs...), precPrimary}
	case e.opWidth(v) > maxCallWidth:
		cs = packArgs(fmt.Sprintf("%#v", fn), cs)
	}
	return expr{fn.Call(cs...), precPrimary}
}

// packArgs breaks the arguments cs of a call of fn into lines of at most
// maxCallWidth columns, as many to a line as fit (gofmt indents the lines
// after the first): f(a, aBar, b, bBar,
//
//	c, cBar)
func packArgs(fn string, cs []jen.Code) []jen.Code {
	out := make([]jen.Code, len(cs))
	width := utf8.RuneCountInString(fn) + 1
	for i, c := range cs {
		w := utf8.RuneCountInString(fmt.Sprintf("%#v", c)) + 2
		if i > 0 && width+w > maxCallWidth {
			out[i] = jen.Line().Add(c)
			width = 1 + w // the tab gofmt indents with
			continue
		}
		out[i] = c
		width += w
	}
	return out
}

// callArgs returns the arguments of call v as they are written, and
// whether the last is passed with "...". A slice literal passed with
// "..." is written as its elements, f(a, b) rather than
// f([]float64{a, b}...): the callee receives a new slice either way.
func (e *emitter) callArgs(v *ir.Value) ([]*ir.Value, bool) {
	args, spread := v.Args, v.Callee.Spread
	if !spread || len(args) == 0 {
		return args, spread
	}
	last := args[len(args)-1]
	if e.kind[last.ID] != kInline || last.Op != opLiteral {
		return args, spread
	}
	for i, k := range e.lits[last].keys {
		if k != i {
			return args, spread
		}
	}
	return append(args[:len(args)-1:len(args)-1], last.Args...), false
}

// paramType returns the type argument i of a call of sig is converted to.
func paramType(sig *types.Signature, i int, spread bool) types.Type {
	ps := sig.Params()
	n := ps.Len()
	if n == 0 {
		return nil
	}
	if sig.Variadic() && i >= n-1 {
		t := ps.At(n - 1).Type()
		if spread {
			return t
		}
		return t.(*types.Slice).Elem()
	}
	if i < n {
		return ps.At(i).Type()
	}
	return nil
}

// recvExpr renders the receiver of a method call: an addressable place
// as itself (Go takes its address for pointer methods).
func (e *emitter) recvExpr(x *ir.Value) *jen.Statement {
	if e.kind[x.ID] == kAddr {
		pl, ptr := e.place(x)
		if ptr != nil {
			return paren(*ptr, precPrimary)
		}
		return paren(pl, precPrimary)
	}
	return e.selBase(x)
}

// selBase renders x as the operand of a field or method selector; a
// value loaded through a pointer is written as the pointer, which Go
// dereferences.
func (e *emitter) selBase(x *ir.Value) *jen.Statement {
	if e.kind[x.ID] == kInline && x.Op == ir.OpLoad {
		if _, ptr := e.place(x.Args[0]); ptr != nil {
			return paren(*ptr, precPrimary)
		}
	}
	return paren(e.ref(x, nil), precPrimary)
}

// indexBase renders x as the operand of an index expression.
func (e *emitter) indexBase(x *ir.Value) *jen.Statement {
	if _, ok := x.Type.Underlying().(*types.Array); ok && e.kind[x.ID] == kInline && x.Op == ir.OpLoad {
		if _, ptr := e.place(x.Args[0]); ptr != nil {
			return paren(*ptr, precPrimary)
		}
	}
	return paren(e.ref(x, nil), precPrimary)
}

// place renders the variable, field or element that address a denotes.
// When that is *q for a pointer value q, it also returns q.
func (e *emitter) place(a *ir.Value) (expr, *expr) {
	if e.kind[a.ID] == kAddr {
		switch a.Op {
		case ir.OpAlloc:
			return expr{jen.Id(e.allocs[a].v.name), precPrimary}, nil
		case ir.OpGlobal:
			return expr{e.fs.qual(a.Global), precPrimary}, nil
		case ir.OpFieldAddr:
			base := e.placeBase(a.Args[0])
			elem := a.Args[0].Type.Underlying().(*types.Pointer).Elem()
			return expr{base.Dot(fieldName(elem, a.Index)), precPrimary}, nil
		case ir.OpIndexAddr:
			x, i := a.Args[0], a.Args[1]
			var base *jen.Statement
			if _, ok := x.Type.Underlying().(*types.Slice); ok {
				base = paren(e.ref(x, nil), precPrimary)
			} else {
				base = e.placeBase(x)
			}
			return expr{base.Index(e.ref(i, i.Type).c), precPrimary}, nil
		}
	}
	q := e.ref(a, nil)
	return expr{jen.Op("*").Add(paren(q, precUnary)), precUnary}, &q
}

// placeBase renders the base of a field or array-element address.
func (e *emitter) placeBase(x *ir.Value) *jen.Statement {
	if e.kind[x.ID] == kAddr {
		pl, ptr := e.place(x)
		if ptr != nil {
			return paren(*ptr, precPrimary)
		}
		return paren(pl, precPrimary)
	}
	// A pointer value: Go dereferences it in selectors and indexes of
	// arrays.
	return paren(e.ref(x, nil), precPrimary)
}

// addrValue renders address a used as a value.
func (e *emitter) addrValue(a *ir.Value) expr {
	pl, ptr := e.place(a)
	if ptr != nil {
		return *ptr
	}
	return expr{jen.Op("&").Add(pl.c), precUnary}
}

// samePlace reports whether addresses a and b are the same place.
func (e *emitter) samePlace(a, b *ir.Value) bool {
	if a == b {
		return true
	}
	if a.Op != b.Op || e.kind[a.ID] != kAddr || e.kind[b.ID] != kAddr {
		return false
	}
	switch a.Op {
	case ir.OpFieldAddr:
		return a.Index == b.Index && e.samePlace(a.Args[0], b.Args[0]) ||
			a.Index == b.Index && a.Args[0] == b.Args[0]
	case ir.OpIndexAddr:
		return (a.Args[0] == b.Args[0] || e.samePlace(a.Args[0], b.Args[0])) && e.sameValue(a.Args[1], b.Args[1]) &&
			e.kind[a.Args[1].ID] != kInline
	case ir.OpGlobal:
		return a.Global == b.Global
	}
	return false
}

func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		internalf("field %d of non-struct %s", i, t)
	}
	return st.Field(i).Name()
}

// constant renders constant c (nil: the zero value) of type t.
func (e *emitter) constant(t types.Type, c constant.Value, want types.Type) expr {
	typed := want == nil || types.IsInterface(want)
	u := t.Underlying()
	b, basic := u.(*types.Basic)
	if c == nil {
		if !basic {
			switch u.(type) {
			case *types.Struct, *types.Array:
				return e.composite(t, nil)
			}
			// nil where the context has no type (a comparison of
			// two constants) is untyped: spell its type, error(nil).
			if typed && (!types.IsInterface(t) || want == nil) {
				return e.typedConv(t, expr{jen.Nil(), precPrimary})
			}
			return expr{jen.Nil(), precPrimary}
		}
		c = zeroConst(b)
	}
	if obj := e.fs.constName(t, c); obj != nil && (typed || types.Identical(want, t)) {
		// The constant's name, which has type t: valid wherever a
		// value of type t is, and where the context has no type.
		return expr{e.fs.qual(obj), precPrimary}
	}
	var lit expr
	var deflt types.Type
	switch {
	case b == nil:
		internalf("constant %s of non-basic type %s", c, t)
	case b.Info()&types.IsBoolean != 0:
		lit, deflt = expr{raw(c.ExactString()), precPrimary}, types.Typ[types.Bool]
	case b.Info()&types.IsString != 0:
		lit, deflt = expr{jen.Lit(constant.StringVal(c)), precPrimary}, types.Typ[types.String]
	case b.Info()&types.IsInteger != 0:
		s := constant.ToInt(c).ExactString()
		lit, deflt = numLit(s), types.Typ[types.Int]
	case b.Info()&types.IsFloat != 0:
		s, finite := floatLit(t, c)
		if !finite {
			x := e.nonFinite(c)
			if typed && !types.Identical(t, types.Typ[types.Float64]) || !typed && !types.Identical(want, types.Typ[types.Float64]) {
				return e.typedConv(t, x)
			}
			return x
		}
		if typed && types.Identical(t, types.Typ[types.Float64]) && !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		lit, deflt = numLit(s), types.Typ[types.Float64]
	case b.Info()&types.IsComplex != 0:
		bits := 64
		if b.Kind() == types.Complex64 {
			bits = 32
		}
		re, _ := constant.Float64Val(constant.Real(c))
		im, _ := constant.Float64Val(constant.Imag(c))
		lit = expr{jen.Id("complex").Call(raw(strconv.FormatFloat(re, 'g', -1, bits)), raw(strconv.FormatFloat(im, 'g', -1, bits))), precPrimary}
		deflt = types.Typ[types.Complex128]
	default:
		lit = expr{raw(c.ExactString()), precPrimary}
	}
	if !typed || deflt == nil || types.Identical(t, deflt) {
		return lit
	}
	return e.typedConv(t, lit)
}

// typedConv renders the conversion t(x).
func (e *emitter) typedConv(t types.Type, x expr) expr {
	tc := jen.Add(e.typ(t))
	switch t.(type) {
	case *types.Pointer, *types.Signature, *types.Chan:
		tc = jen.Parens(e.typ(t))
	}
	return expr{tc.Call(x.c), precPrimary}
}

func numLit(s string) expr {
	if strings.HasPrefix(s, "-") {
		return expr{raw(s), precUnary}
	}
	return expr{raw(s), precPrimary}
}

// nonFinite renders an infinite or NaN float constant. go/constant cannot
// represent either: an out-of-range exact value stands for an infinity,
// an unknown value for NaN.
func (e *emitter) nonFinite(c constant.Value) expr {
	if c.Kind() == constant.Unknown {
		return expr{jen.Qual("math", "NaN").Call(), precPrimary}
	}
	sign := "1"
	if constant.Sign(c) < 0 {
		sign = "-1"
	}
	return expr{jen.Qual("math", "Inf").Call(raw(sign)), precPrimary}
}

// floatLit returns the shortest literal of float constant c of type t
// that reads back exactly, and whether c is finite in t.
func floatLit(t types.Type, c constant.Value) (string, bool) {
	if c == nil {
		return "0", true
	}
	if c.Kind() == constant.Unknown {
		return "", false
	}
	if b, ok := t.Underlying().(*types.Basic); ok && b.Kind() == types.Float32 {
		f, _ := constant.Float32Val(c)
		if math.IsInf(float64(f), 0) {
			return "", false
		}
		return strconv.FormatFloat(float64(f), 'g', -1, 32), true
	}
	f, _ := constant.Float64Val(c)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	return strconv.FormatFloat(f, 'g', -1, 64), true
}

func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// constValue returns the value of a constant of type t, c or, for nil,
// the zero value when t is a basic type.
func constValue(t types.Type, c constant.Value) constant.Value {
	if b, ok := t.Underlying().(*types.Basic); ok && c == nil {
		return zeroConst(b)
	}
	return c
}

func zeroConst(b *types.Basic) constant.Value {
	switch {
	case b.Info()&types.IsBoolean != 0:
		return constant.MakeBool(false)
	case b.Info()&types.IsString != 0:
		return constant.MakeString("")
	case b.Info()&types.IsComplex != 0:
		return constant.MakeImag(constant.MakeInt64(0))
	}
	return constant.MakeInt64(0)
}

// condExpr renders a branch condition.
func (e *emitter) condExpr(c *cond) expr {
	switch c.op {
	case token.ILLEGAL:
		return e.ref(c.v, c.v.Type)
	case token.NOT:
		if x := c.x; x.op == token.ILLEGAL && e.kind[x.v.ID] == kInline {
			v := x.v
			switch {
			case v.Op == ir.OpUnary && v.Tok == token.NOT:
				return e.ref(v.Args[0], v.Type)
			case v.Op == ir.OpBinary && (v.Tok == token.EQL || v.Tok == token.NEQ):
				// !(a == b) is a != b, NaNs included (unlike <).
				tok := token.NEQ
				if v.Tok == token.NEQ {
					tok = token.EQL
				}
				return e.compare(v, tok)
			}
		}
		return expr{jen.Op("!").Add(paren(e.condExpr(c.x), precPrimary)), precUnary}
	}
	p := c.op.Precedence()
	x, y := e.condExpr(c.x), e.condExpr(c.y)
	return expr{paren(x, p).Op(c.op.String()).Add(paren(y, p)), p}
}
