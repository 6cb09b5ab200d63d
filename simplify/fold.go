package simplify

// This file defines constant folding and propagation, and strength
// reduction of math.Pow (Muchnick, §12.1 and §12.4).
//
// What is folded, exactly:
//
//   - Float arithmetic (+ - * /), comparisons and conversions of constants
//     are evaluated in the value's type (float32 arithmetic is rounded to
//     float32), as Go evaluates them at run time. A result that is NaN,
//     ±Inf or -0 is not folded: a Go constant cannot spell it, so the
//     operation stays (1/0 stays 1/0). The negation of a float constant
//     stays a negation, which the algebraic rules move (x * -(c) →
//     -(x*c)) so that the emitter writes x -= c·y, not x += -c·y.
//   - The integer identities x + 0, x - 0 and x * 1 (and 0 + x, 1 * x),
//     and max(x, 0) for an x that cannot be negative (a length plus a
//     small constant).
//   - Integer arithmetic, bitwise operations and comparisons of constants,
//     when the exact result fits the type — for int, uint and uintptr,
//     when it fits 32 bits, so that the folded program means the same on
//     every architecture — and division or remainder by a non-zero
//     constant. Shifts are not folded.
//   - Calls of primitives with constant arguments (the functions of
//     package templates' table of one to three float64 arguments and one
//     float64 result: math's Sqrt, Exp, Log, Pow, Atan2, FMA, …, mathext's
//     Lbeta, …), evaluated with the rule's Func at generation time: the
//     value the generated code computes on the architecture gadgen runs
//     on (for a package other than the standard library's, with the
//     version gadgen is built with). On another architecture, a function
//     without an assembly version can differ in the last bit where its
//     compiler fuses multiply-adds (arm64, ppc64, s390x). Results that are
//     NaN, ±Inf or -0 are not folded.
//   - The length and capacity of a slice made by make, len(make(T, n))
//     is n, and of a nil slice, 0.
//   - A select on a constant condition, an if on a constant condition
//     (the branch not taken and the blocks only it reached are removed),
//     and a φ whose arguments are all one value.
//
// Strength reduction of math.Pow(x, c) for a constant c (Go's math.Pow,
// pure Go on amd64 and arm64):
//
//	Pow(x, 0) → 1      exact for every x, NaN included (Pow(x, ±0) = 1)
//	Pow(x, 1) → x      exact for every x (Pow(x, 1) = x)
//	Pow(x, 2) → x*x    exact for every x whose square is not subnormal
//	                   (|x| ≥ 2^-511 ≈ 1.5e-154, or 0, ±Inf, NaN: Pow
//	                   returns +0, +Inf, NaN as x*x does); below, Pow
//	                   rounds the mantissa's square and then the scaled
//	                   result, x*x rounds once, and they can differ by one
//	                   unit in the last place of a subnormal (≤ 4.9e-324).
//
// Pow(x, 0.5) → Sqrt(x) is not done: Pow(-0, 0.5) = +0 and Pow(-Inf, 0.5)
// = +Inf, but Sqrt(-0) = -0 and Sqrt(-Inf) = NaN.

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"

	"github.com/gadgen/gadgen/ir"
)

// Fold folds constants, propagates them through φs, selects and
// branches, and reduces math.Pow with a constant exponent, until nothing
// changes.
func Fold(f *ir.Func) {
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				if w := foldValue(f, v); w != nil {
					replaceUses(f, v, w)
					if w.Op == ir.OpConst {
						w.Name = "" // constants are spelled, not named
					}
					changed = true
				} else if reducePow(f, v) || reassociate(f, v) {
					changed = true
				}
			}
		}
		if foldBranches(f) {
			changed = true
		}
		DeadCode(f)
	}
}

// constOf returns v's constant, or nil when v is not a constant with a
// value (a zero value of a struct has none).
func constOf(v *ir.Value) constant.Value {
	if v == nil || v.Op != ir.OpConst || v.Const == nil {
		return nil
	}
	return v.Const
}

// basic returns the basic underlying type of t, or nil.
func basic(t types.Type) *types.Basic {
	if t == nil {
		return nil
	}
	b, _ := t.Underlying().(*types.Basic)
	return b
}

// floatConst returns a constant of type t (float32 or float64) for x, or
// nil when x cannot be a Go constant (NaN, ±Inf, -0).
func floatConst(f *ir.Func, t types.Type, x float64) *ir.Value {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 && math.Signbit(x) {
		return nil
	}
	return f.ConstValue(t, constant.MakeFloat64(x))
}

// intConstOf returns a constant of integer type t for x, or nil when x
// does not fit (see the file comment on int, uint and uintptr).
func intConstOf(f *ir.Func, t types.Type, x constant.Value) *ir.Value {
	b := basic(t)
	if b == nil || x.Kind() != constant.Int {
		return nil
	}
	var lo, hi constant.Value
	bits := map[types.BasicKind]uint{types.Int8: 8, types.Int16: 16, types.Int32: 32, types.Int64: 64, types.Int: 32,
		types.Uint8: 8, types.Uint16: 16, types.Uint32: 32, types.Uint64: 64, types.Uint: 32, types.Uintptr: 32}[b.Kind()]
	if bits == 0 {
		return nil
	}
	if b.Info()&types.IsUnsigned != 0 {
		lo = constant.MakeInt64(0)
		hi = constant.Shift(constant.MakeInt64(1), token.SHL, bits)
		hi = constant.BinaryOp(hi, token.SUB, constant.MakeInt64(1))
	} else {
		hi = constant.BinaryOp(constant.Shift(constant.MakeInt64(1), token.SHL, bits-1), token.SUB, constant.MakeInt64(1))
		lo = constant.UnaryOp(token.SUB, constant.Shift(constant.MakeInt64(1), token.SHL, bits-1), 0)
	}
	if constant.Compare(x, token.LSS, lo) || constant.Compare(x, token.GTR, hi) {
		return nil
	}
	return f.ConstValue(t, x)
}

// toFloat returns c as the float of type b (rounded to float32 for
// float32).
func toFloat(c constant.Value, b *types.Basic) float64 {
	x, _ := constant.Float64Val(constant.ToFloat(c))
	if b.Kind() == types.Float32 {
		return float64(float32(x))
	}
	return x
}

// foldValue returns the value v is equal to when it can be computed now,
// or nil.
func foldValue(f *ir.Func, v *ir.Value) *ir.Value {
	switch v.Op {
	case ir.OpBinary:
		return foldBinary(f, v)
	case ir.OpUnary:
		x, b := constOf(v.Args[0]), basic(v.Type)
		if x == nil || b == nil {
			return nil
		}
		switch {
		case v.Tok == token.NOT && b.Info()&types.IsBoolean != 0:
			return f.ConstValue(v.Type, constant.MakeBool(!constant.BoolVal(x)))
		case v.Tok == token.SUB && b.Info()&types.IsInteger != 0:
			return intConstOf(f, v.Type, constant.UnaryOp(token.SUB, x, 0))
		}
	case ir.OpConvert:
		return foldConvert(f, v)
	case ir.OpSelect:
		if v.Args[1] == v.Args[2] || sameConst(v.Args[1], v.Args[2]) {
			return v.Args[1] // either way the same
		}
		if c := constOf(v.Args[0]); c != nil && c.Kind() == constant.Bool {
			if constant.BoolVal(c) {
				return v.Args[1]
			}
			return v.Args[2]
		}
	case ir.OpPhi:
		var same *ir.Value
		for _, a := range v.Args {
			switch {
			case a == v:
			case same == nil:
				same = a
			case a != same && !sameConst(a, same):
				return nil
			}
		}
		return same
	case ir.OpCall:
		if w := maxWithZero(v); w != nil {
			return w
		}
		return foldMath(f, v)
	case ir.OpLen, ir.OpCap:
		return sizeOfMake(v)
	}
	return nil
}

// sizeOfMake returns n for len(make(T, n, m)), and m (n when m is
// missing) for its cap, when that operand is an int: len(sumq) is k after
// sumq := make([]float64, k). The length and capacity of a nil slice are
// 0 (the shadow of append([]float64(nil), x...) reads them).
func sizeOfMake(v *ir.Value) *ir.Value {
	m := v.Args[0]
	if _, ok := m.Type.Underlying().(*types.Slice); ok && ir.IsNil(m) && isIntType(v.Type) {
		return v.Block.Func.ConstValue(v.Type, constant.MakeInt64(0))
	}
	if m.Op != ir.OpMakeSlice {
		return nil
	}
	n := m.Args[0]
	if v.Op == ir.OpCap && len(m.Args) > 1 && m.Args[1] != nil {
		n = m.Args[1]
	}
	if !types.Identical(n.Type, v.Type) {
		return nil
	}
	return n
}

// maxWithZero returns x for the integer max(x, 0) or max(0, x) when x
// cannot be negative (see nonNegative): the tape sizes' max(len(x)+2, 0).
func maxWithZero(v *ir.Value) *ir.Value {
	if v.Callee.Builtin != "max" || len(v.Args) != 2 || !isIntType(v.Type) {
		return nil
	}
	x, y := v.Args[0], v.Args[1]
	switch {
	case isIntConst(y, 0) && nonNegative(x, 4):
		return x
	case isIntConst(x, 0) && nonNegative(y, 4):
		return y
	}
	return nil
}

// nonNegative reports whether integer v is sure not to be negative: a
// length or capacity, a constant ≥ 0, or the sum (which cannot overflow:
// lengths are far below the int's maximum) of such values, depth deep.
func nonNegative(v *ir.Value, depth int) bool {
	switch {
	case depth == 0:
		return false
	case v.Op == ir.OpLen || v.Op == ir.OpCap:
		return true
	case v.Op == ir.OpConst:
		c, ok := intConst(v)
		return ok && c >= 0 && c < 1<<20
	case v.Op == ir.OpBinary && v.Tok == token.ADD:
		return nonNegative(v.Args[0], depth-1) && nonNegative(v.Args[1], depth-1)
	}
	return false
}

// intIdentity returns x for the integer x + 0, 0 + x, x - 0, x * 1 and
// 1 * x (exact for integers, unlike x + 0 for floats at -0), or nil.
func intIdentity(v *ir.Value) *ir.Value {
	if !isIntType(v.Type) {
		return nil
	}
	x, y := v.Args[0], v.Args[1]
	switch {
	case (v.Tok == token.ADD || v.Tok == token.SUB) && isIntConst(y, 0), v.Tok == token.MUL && isIntConst(y, 1):
		return x
	case v.Tok == token.ADD && isIntConst(x, 0), v.Tok == token.MUL && isIntConst(x, 1):
		return y
	}
	return nil
}

// sameConst reports whether a and b are constants of one type and value.
// fresh reports whether v is memory the function allocates: new(T), &T{}
// or make([]T, n), never nil and apart from any other memory.
func fresh(v *ir.Value) bool { return v.Op == ir.OpAlloc || v.Op == ir.OpMakeSlice }

// freshVsNil folds p == nil and p != nil where p is fresh memory, never
// nil: new(T) or &T{} (an alloc), or make([]T, n), even of length 0. Reverse
// mode guards the snapshot of what a call writes through p by p != nil.
func freshVsNil(f *ir.Func, v *ir.Value) *ir.Value {
	if v.Tok != token.EQL && v.Tok != token.NEQ {
		return nil
	}
	x, y := v.Args[0], v.Args[1]
	if (fresh(x) && ir.IsNil(y)) || (ir.IsNil(x) && fresh(y)) {
		return f.ConstValue(v.Type, constant.MakeBool(v.Tok == token.NEQ))
	}
	return nil
}

func sameConst(a, b *ir.Value) bool {
	ca, cb := constOf(a), constOf(b)
	return ca != nil && cb != nil && types.Identical(a.Type, b.Type) && ca.Kind() == cb.Kind() && constant.Compare(ca, token.EQL, cb)
}

func foldBinary(f *ir.Func, v *ir.Value) *ir.Value {
	if w := intIdentity(v); w != nil {
		return w
	}
	if w := freshVsNil(f, v); w != nil {
		return w
	}
	x, y := constOf(v.Args[0]), constOf(v.Args[1])
	b := basic(v.Args[0].Type)
	if x == nil || y == nil || b == nil {
		return nil
	}
	switch v.Tok {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		switch {
		case b.Info()&types.IsFloat != 0:
			xf, yf := toFloat(x, b), toFloat(y, b)
			r := map[token.Token]bool{token.EQL: xf == yf, token.NEQ: xf != yf, token.LSS: xf < yf,
				token.LEQ: xf <= yf, token.GTR: xf > yf, token.GEQ: xf >= yf}[v.Tok]
			return f.ConstValue(v.Type, constant.MakeBool(r))
		case b.Info()&(types.IsInteger|types.IsBoolean) != 0 && x.Kind() == y.Kind():
			return f.ConstValue(v.Type, constant.MakeBool(constant.Compare(x, v.Tok, y)))
		}
		return nil
	}
	switch {
	case b.Info()&types.IsFloat != 0:
		xf, yf := toFloat(x, b), toFloat(y, b)
		var r float64
		switch v.Tok {
		case token.ADD:
			r = xf + yf
		case token.SUB:
			r = xf - yf
		case token.MUL:
			r = xf * yf
		case token.QUO:
			r = xf / yf
		default:
			return nil
		}
		if b.Kind() == types.Float32 {
			r = float64(float32(r))
		}
		return floatConst(f, v.Type, r)
	case b.Info()&types.IsInteger != 0:
		if x.Kind() != constant.Int || y.Kind() != constant.Int {
			return nil
		}
		var r constant.Value
		switch v.Tok {
		case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
			if b.Info()&types.IsUnsigned != 0 && (v.Tok == token.XOR || v.Tok == token.AND_NOT) {
				return nil
			}
			r = constant.BinaryOp(x, v.Tok, y)
		case token.QUO, token.REM:
			if constant.Sign(y) == 0 {
				return nil
			}
			if v.Tok == token.QUO {
				r = constant.BinaryOp(x, token.QUO_ASSIGN, y) // truncated, as Go's /
			} else {
				r = constant.BinaryOp(x, token.REM, y)
			}
		default:
			return nil
		}
		return intConstOf(f, v.Type, r)
	}
	return nil
}

func foldConvert(f *ir.Func, v *ir.Value) *ir.Value {
	x := constOf(v.Args[0])
	from, to := basic(v.Args[0].Type), basic(v.Type)
	if x == nil || from == nil || to == nil || from.Info()&types.IsNumeric == 0 || to.Info()&types.IsNumeric == 0 ||
		from.Info()&types.IsComplex != 0 || to.Info()&types.IsComplex != 0 {
		return nil
	}
	switch {
	case to.Info()&types.IsFloat != 0:
		var r float64
		if from.Info()&types.IsFloat != 0 {
			r = toFloat(x, from)
		} else {
			xi, exact := constant.Int64Val(x)
			if !exact {
				return nil
			}
			r = float64(xi) // rounds as the conversion does
		}
		if to.Kind() == types.Float32 {
			r = float64(float32(r))
		}
		return floatConst(f, v.Type, r)
	case to.Info()&types.IsInteger != 0:
		if from.Info()&types.IsFloat != 0 {
			xf := toFloat(x, from)
			if math.IsNaN(xf) || math.Abs(xf) >= 1<<31 {
				return nil // out of range: implementation-defined
			}
			return intConstOf(f, v.Type, constant.MakeInt64(int64(xf)))
		}
		return intConstOf(f, v.Type, x)
	}
	return nil
}

// isPrimitive reports whether v calls a primitive (ir.Callee.Primitive):
// a function of package templates' table, such as math's.
func isPrimitive(v *ir.Value) bool { return v.Op == ir.OpCall && v.Callee.Primitive() != nil }

// isMath reports whether v calls math.name.
func isMath(v *ir.Value, name string) bool {
	if !isPrimitive(v) {
		return false
	}
	r := v.Callee.Primitive()
	return r.Pkg == "math" && r.Name == name
}

func foldMath(f *ir.Func, v *ir.Value) *ir.Value {
	if !isPrimitive(v) || !types.Identical(v.Type, types.Typ[types.Float64]) {
		return nil
	}
	var xs []float64
	for _, a := range v.Args {
		c := constOf(a)
		b := basic(a.Type)
		if c == nil || b == nil || b.Kind() != types.Float64 {
			return nil
		}
		xs = append(xs, toFloat(c, b))
	}
	switch fn := v.Callee.Primitive().Func.(type) {
	case func(float64) float64:
		return floatConst(f, v.Type, fn(xs[0]))
	case func(float64, float64) float64:
		return floatConst(f, v.Type, fn(xs[0], xs[1]))
	case func(float64, float64, float64) float64:
		return floatConst(f, v.Type, fn(xs[0], xs[1], xs[2]))
	}
	return nil
}

// reducePow rewrites math.Pow(x, c) for c = 0, 1, 2 (see the file
// comment) and reports whether it did.
func reducePow(f *ir.Func, v *ir.Value) bool {
	if !isMath(v, "Pow") || len(v.Args) != 2 {
		return false
	}
	c := constOf(v.Args[1])
	if c == nil {
		return false
	}
	x := v.Args[0]
	switch y := toFloat(c, basic(v.Args[1].Type)); y {
	case 0:
		replaceUses(f, v, f.ConstValue(v.Type, constant.MakeFloat64(1)))
	case 1:
		replaceUses(f, v, x)
	case 2:
		v.Op, v.Tok, v.Callee, v.Args = ir.OpBinary, token.MUL, nil, []*ir.Value{x, x}
	default:
		return false
	}
	return true
}

// reassociate rewrites the integer (x ± c1) ± c2 into x ± c, c = ±c1 ± c2
// computed exactly, when c fits the type as foldBinary requires (integer
// addition wraps, so the two agree for every x). It reports whether it
// changed v.
func reassociate(f *ir.Func, v *ir.Value) bool {
	if v.Op != ir.OpBinary || v.Tok != token.ADD && v.Tok != token.SUB || !isIntType(v.Type) {
		return false
	}
	in := v.Args[0]
	if in.Op != ir.OpBinary || in.Tok != token.ADD && in.Tok != token.SUB {
		return false
	}
	c2, c1 := constOf(v.Args[1]), constOf(in.Args[1])
	if c1 == nil || c2 == nil || c1.Kind() != constant.Int || c2.Kind() != constant.Int {
		return false
	}
	if in.Tok == token.SUB {
		c1 = constant.UnaryOp(token.SUB, c1, 0)
	}
	c := constant.BinaryOp(c1, v.Tok, c2)
	tok := token.ADD
	if constant.Sign(c) < 0 {
		tok, c = token.SUB, constant.UnaryOp(token.SUB, c, 0)
	}
	k := intConstOf(f, v.Type, c)
	if k == nil {
		return false
	}
	v.Args = []*ir.Value{in.Args[0], k}
	v.Tok = tok
	return true
}

// foldBranches turns each if on a constant into a jump, and removes the
// blocks no longer reachable. It reports whether it changed anything.
func foldBranches(f *ir.Func) bool {
	changed := false
	for _, b := range f.Blocks {
		term := b.Terminator()
		if term == nil || term.Op != ir.OpIf {
			continue
		}
		c := constOf(term.Args[0])
		if c == nil || c.Kind() != constant.Bool {
			continue
		}
		taken, other := b.Succs[0], b.Succs[1]
		if !constant.BoolVal(c) {
			taken, other = other, taken
		}
		removeEdge(b, other) // when taken == other, one of its two edges
		b.Succs = []*ir.Block{taken}
		term.Op, term.Args = ir.OpJump, nil
		changed = true
	}
	if !changed {
		return false
	}
	cfg := ir.NewCFG(f)
	var keep []*ir.Block
	for _, b := range f.Blocks {
		if cfg.Reachable(b) {
			keep = append(keep, b)
			continue
		}
		for _, s := range b.Succs {
			if cfg.Reachable(s) {
				removeEdge(b, s)
			}
		}
	}
	f.Blocks = keep
	f.Renumber()
	return true
}

// removeEdge removes one edge from → to from to's predecessors and the
// φ arguments that flow along it (from.Succs is the caller's to fix).
func removeEdge(from, to *ir.Block) {
	i := to.PredIndex(from)
	if i < 0 {
		return
	}
	to.RemovePred(i)
}
