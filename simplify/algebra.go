package simplify

// This file defines algebraic simplification: rewrite rules kept as a
// table, in the manner of cmd/compile's *.rules files, each rule's text
// beside the code that applies it. Every rule is exact in IEEE arithmetic
// for every value, NaN, infinities and signed zeros included: negation
// only flips a sign bit, rounding to nearest is symmetric, and x+(-y) is
// defined as x-y; rules that are not exact (x*0 → 0 fails for NaN and
// Inf, x+0 → x fails for x = -0) are not here.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// rule is one rewrite: match reports whether it applies to v and, if so,
// rewrites v in place.
type rule struct {
	text  string
	apply func(v *ir.Value) bool
}

func isNeg(v *ir.Value) bool { return v.Op == ir.OpUnary && v.Tok == token.SUB }

func isBin(v *ir.Value, tok token.Token) bool { return v.Op == ir.OpBinary && v.Tok == tok }

// isNumeric reports whether v is a float: the rules are stated for IEEE
// arithmetic (for ints, x/(-y) → -(x/y) fails at y = MinInt64).
func isNumeric(v *ir.Value) bool { return v.Type != nil && isFloatType(v.Type) }

// isFloatConst reports whether v is the float constant x.
func isFloatConst(v *ir.Value, x float64) bool {
	c := constOf(v)
	if c == nil || !isNumeric(v) || c.Kind() != constant.Int && c.Kind() != constant.Float {
		return false
	}
	f, _ := constant.Float64Val(c)
	return f == x
}

// identity rewrites v, x op c or c op x (argument k the constant c), into x
// when neg is false and into -x when it is true.
func identity(v *ir.Value, tok token.Token, k int, c float64, neg bool) bool {
	if !isBin(v, tok) || !isNumeric(v) || !isFloatConst(v.Args[k], c) {
		return false
	}
	x := v.Args[1-k]
	if neg {
		v.Op, v.Tok, v.Args = ir.OpUnary, token.SUB, []*ir.Value{x}
		return true
	}
	copyValue(v, x)
	return true
}

var algebraRules = []rule{
	{"x * 1 → x (exact: multiplying by one rounds nothing, NaN stays NaN, -0 stays -0)", func(v *ir.Value) bool {
		return identity(v, token.MUL, 1, 1, false)
	}},
	{"1 * x → x", func(v *ir.Value) bool { return identity(v, token.MUL, 0, 1, false) }},
	{"x / 1 → x", func(v *ir.Value) bool { return identity(v, token.QUO, 1, 1, false) }},
	{"x * -1 → -x (exact: only the sign changes)", func(v *ir.Value) bool {
		return identity(v, token.MUL, 1, -1, true)
	}},
	{"-1 * x → -x", func(v *ir.Value) bool { return identity(v, token.MUL, 0, -1, true) }},
	{"x / -1 → -x", func(v *ir.Value) bool { return identity(v, token.QUO, 1, -1, true) }},
	{"x - 0 → x (exact: x - (+0) is x for every x, -0 - 0 = -0; x + 0 is not, -0 + 0 = +0)", func(v *ir.Value) bool {
		return identity(v, token.SUB, 1, 0, false)
	}},
	{"x + x → 2 * x (x and its copy equal up to commuting * and +)", func(v *ir.Value) bool {
		if !isBin(v, token.ADD) || !isNumeric(v) || !equalUpToCommuting(v.Args[0], v.Args[1]) {
			return false
		}
		v.Tok = token.MUL
		v.Args = []*ir.Value{v.Block.Func.ConstValue(v.Type, constantTwo), v.Args[0]}
		return true
	}},
	{"(-(-x)) → x", func(v *ir.Value) bool {
		if isNeg(v) && isNeg(v.Args[0]) {
			copyValue(v, v.Args[0].Args[0])
			return true
		}
		return false
	}},
	{"x - (-y) → x + y", func(v *ir.Value) bool {
		if isBin(v, token.SUB) && isNeg(v.Args[1]) && isNumeric(v) {
			v.Tok, v.Args[1] = token.ADD, v.Args[1].Args[0]
			return true
		}
		return false
	}},
	{"x + (-y) → x - y", func(v *ir.Value) bool {
		if isBin(v, token.ADD) && isNeg(v.Args[1]) && isNumeric(v) {
			v.Tok, v.Args[1] = token.SUB, v.Args[1].Args[0]
			return true
		}
		return false
	}},
	{"(-x) + y → y - x", func(v *ir.Value) bool {
		if isBin(v, token.ADD) && isNeg(v.Args[0]) && !isNeg(v.Args[1]) && isNumeric(v) {
			v.Tok, v.Args[0], v.Args[1] = token.SUB, v.Args[1], v.Args[0].Args[0]
			return true
		}
		return false
	}},
	{"(-x) * (-y) → x * y", func(v *ir.Value) bool {
		if (isBin(v, token.MUL) || isBin(v, token.QUO)) && isNeg(v.Args[0]) && isNeg(v.Args[1]) && isNumeric(v) {
			v.Args = []*ir.Value{v.Args[0].Args[0], v.Args[1].Args[0]}
			return true
		}
		return false
	}},
	{"x * (-y) → -(x * y)", func(v *ir.Value) bool {
		return pullNeg(v, token.MUL, 1)
	}},
	{"(-x) * y → -(x * y)", func(v *ir.Value) bool {
		return pullNeg(v, token.MUL, 0)
	}},
	{"x / (-y) → -(x / y)", func(v *ir.Value) bool {
		return pullNeg(v, token.QUO, 1)
	}},
	{"(-x) / y → -(x / y)", func(v *ir.Value) bool {
		return pullNeg(v, token.QUO, 0)
	}},
}

// equalUpToCommuting reports whether a and b compute the same value: the
// same value, or the same commutative operation (* or +, exact in IEEE
// arithmetic in either order) or negation of equal operands.
func equalUpToCommuting(a, b *ir.Value) bool {
	if a == b {
		return true
	}
	if a.Op != b.Op || a.Tok != b.Tok || a.Block == nil || b.Block == nil {
		return false
	}
	switch {
	case isNeg(a):
		return equalUpToCommuting(a.Args[0], b.Args[0])
	case isBin(a, token.MUL), isBin(a, token.ADD):
		return equalUpToCommuting(a.Args[0], b.Args[0]) && equalUpToCommuting(a.Args[1], b.Args[1]) ||
			equalUpToCommuting(a.Args[0], b.Args[1]) && equalUpToCommuting(a.Args[1], b.Args[0])
	}
	return false
}

// pullNeg rewrites v = x op y, whose argument i is a negation -z, into
// -(x' op y') with z in place of the negation: the negation is inserted
// before v as the new operation and v becomes the negation.
func pullNeg(v *ir.Value, tok token.Token, i int) bool {
	if !isBin(v, tok) || !isNeg(v.Args[i]) || isNeg(v.Args[1-i]) || !isNumeric(v) {
		return false
	}
	args := []*ir.Value{v.Args[0], v.Args[1]}
	args[i] = args[i].Args[0]
	inner := v.Block.Func.NewValue(ir.OpBinary, v.Type, args...)
	inner.Tok, inner.Pos = tok, v.Pos
	v.Block.Insert(indexOf(v.Block, v), inner)
	v.Op, v.Tok, v.Args = ir.OpUnary, token.SUB, []*ir.Value{inner}
	return true
}

// copyValue makes v compute the same as w by becoming a copy of it: every
// use of v is redirected to w.
func copyValue(v, w *ir.Value) {
	replaceUses(v.Block.Func, v, w)
}

// Algebra applies algebraRules until none applies.
func Algebra(f *ir.Func) {
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for i := 0; i < len(b.Instrs); i++ {
				v := b.Instrs[i]
				for _, r := range algebraRules {
					if r.apply(v) {
						changed = true
					}
				}
			}
		}
		DeadCode(f)
	}
}

var constantTwo = constant.MakeInt64(2)

func isFloatType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}
