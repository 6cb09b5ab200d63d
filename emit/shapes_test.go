package emit_test

// This file defines the test cases of the shapes that read as a person
// writes them: switch statements, constants by name, composite literals
// and booleans used where they are computed.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
)

func init() { cases = append(cases, shapeCases...) }

// tokenPkg returns package go/token as the test's importer sees it.
func tokenPkg() *types.Package {
	p, err := imp.Import("go/token")
	if err != nil {
		panic(err)
	}
	return p
}

var shapeCases = []testCase{
	{
		// func Weigh(codes []Activation, x float64) float64 {
		//	s := 0.0
		// loop:
		//	for i := 0; i < len(codes); i++ {
		//		switch codes[i] {
		//		case Tanh:
		//			continue
		//		case Sigmoid, ReLU:
		//			s += x
		//		case Softplus:
		//			break loop
		//		default:
		//			s -= x
		//		}
		//	}
		//	return s
		// }
		//
		// Each comparison loads codes[i] again (the tag is an expression
		// without effects); the break of the loop needs a label.
		name: "switch",
		build: func(ev *env) []*ir.Func {
			act := ev.typ("Activation")
			b := irtest.NewBuilder("Weigh", ev.pkg)
			codes, x := b.Param("codes", types.NewSlice(act)), b.Param("x", f64)
			b.F.AddResult("", f64)
			loop, arm0, arm1, arm1b, arm2, add, dflt, post, done := b.Block("for.loop"), b.Block("switch.next"),
				b.Block("switch.next"), b.Block("switch.next"), b.Block("switch.next"), b.Block("switch.body"),
				b.Block("switch.default"), b.Block("for.post"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			s, i := b.Phi("s", f64), b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, b.Len(codes)), arm0, done)
			k := func(n int64) *ir.Value { return b.Const(act, constant.MakeInt64(n)) }
			tag := func() *ir.Value { return b.Load(b.IndexAddr(codes, i)) }
			b.At(arm0).If(b.Bin(token.EQL, tag(), k(0)), post, arm1)
			b.At(arm1).If(b.Bin(token.EQL, tag(), k(1)), add, arm1b)
			b.At(arm1b).If(b.Bin(token.EQL, tag(), k(2)), add, arm2)
			b.At(arm2).If(b.Bin(token.EQL, tag(), k(3)), done, dflt)
			b.At(add)
			sAdd := named(b.Bin(token.ADD, s, x), "s")
			b.Jump(post)
			b.At(dflt)
			sSub := named(b.Bin(token.SUB, s, x), "s")
			b.Jump(post)
			b.At(post)
			sp := b.Phi("s", f64)
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done)
			sd := b.Phi("s", f64)
			b.Return(sd)
			args(s, b.Float(0), sp)
			args(i, b.Int(0), i2)
			args(sp, s, sAdd, sSub) // preds: arm0, add, dflt
			args(sd, s, s)          // preds: loop, arm2
			return one(b.F)
		},
		check: `eq(t, "Weigh", Weigh([]Activation{Tanh, Sigmoid, 7, ReLU, Softplus, Sigmoid}, 2), 2.0)
		eq(t, "Weigh all", Weigh([]Activation{ReLU, 9}, 1), 0.0)`,
	},
	{
		// func Dup(k int) int {
		//	if k == 1 {
		//		return 10
		//	} else if k == 2 {
		//		return 20
		//	} else if k == 1 { // a switch cannot repeat 1: the chain ends
		//		return 30
		//	}
		//	return 0
		// }
		//
		// func Two(k int, x float64) float64 {
		//	if k == 1 {
		//		x *= 2
		//	} else if k == 2 {
		//		x *= 3
		//	}
		//	return x
		// }
		//
		// Two arms without a default stay an else-if chain.
		name: "switchshort",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Dup", ev.pkg)
			k := b.Param("k", intT)
			b.F.AddResult("", intT)
			r1, n1, r2, n2, r3, r0 := b.Block("if.then"), b.Block("if.else"), b.Block("if.then"), b.Block("if.else"),
				b.Block("if.then"), b.Block("if.done")
			b.If(b.Bin(token.EQL, k, b.Int(1)), r1, n1)
			b.At(r1).Return(b.Int(10))
			b.At(n1).If(b.Bin(token.EQL, k, b.Int(2)), r2, n2)
			b.At(r2).Return(b.Int(20))
			b.At(n2).If(b.Bin(token.EQL, k, b.Int(1)), r3, r0)
			b.At(r3).Return(b.Int(30))
			b.At(r0).Return(b.Int(0))

			b2 := irtest.NewBuilder("Two", ev.pkg)
			k2, x := b2.Param("k", intT), b2.Param("x", f64)
			b2.F.AddResult("", f64)
			t1, e1, t2, done := b2.Block("if.then"), b2.Block("if.else"), b2.Block("if.then"), b2.Block("if.done")
			b2.If(b2.Bin(token.EQL, k2, b2.Int(1)), t1, e1)
			b2.At(t1)
			x1 := named(b2.Bin(token.MUL, x, b2.Float(2)), "x")
			b2.Jump(done)
			b2.At(e1).If(b2.Bin(token.EQL, k2, b2.Int(2)), t2, done)
			b2.At(t2)
			x2 := named(b2.Bin(token.MUL, x, b2.Float(3)), "x")
			b2.Jump(done)
			b2.At(done)
			xd := b2.Phi("x", f64)
			args(xd, x1, x, x2) // preds: t1, e1, t2
			b2.Return(xd)
			return []*ir.Func{b.F, b2.F}
		},
		check: `for k, want := range []int{0, 10, 20, 0} {
			eq(t, "Dup", Dup(k), want)
		}
		eq(t, "Two(1)", Two(1, 1), 2.0)
		eq(t, "Two(2)", Two(2, 1), 3.0)
		eq(t, "Two(3)", Two(3, 1), 1.0)`,
	},
	{
		// func Consts(a Activation) (Activation, Mode, Mode, Mode, token.Token, token.Token, any, bool) {
		//	return ReLU, Fast, Slow, slowest, token.Token(3), token.IDENT, Softplus, a == Tanh
		// }
		//
		// Fast is also Auto, so 0 stays a number; go/token's constant 3
		// is unexported.
		name: "namedconst",
		build: func(ev *env) []*ir.Func {
			act, mode := ev.typ("Activation"), ev.typ("Mode")
			tok := tokenPkg().Scope().Lookup("Token").Type()
			anyT := types.Universe.Lookup("any").Type()
			b := irtest.NewBuilder("Consts", ev.pkg)
			a := b.Param("a", act)
			for _, t := range []types.Type{act, mode, mode, mode, tok, tok, anyT, boolT} {
				b.F.AddResult("", t)
			}
			k := func(t types.Type, n int64) *ir.Value { return b.Const(t, constant.MakeInt64(n)) }
			b.Return(k(act, 2), k(mode, 0), k(mode, 1), k(mode, 2), k(tok, 3), k(tok, 4),
				b.Convert(anyT, k(act, 3)), b.Bin(token.EQL, a, k(act, 0)))
			return one(b.F)
		},
		check: `r, m0, m1, m2, t3, t4, v, eq0 := Consts(Tanh)
		eq(t, "r", r, ReLU)
		eq(t, "modes", [3]Mode{m0, m1, m2}, [3]Mode{Fast, Slow, slowest})
		eq(t, "tokens", [2]int{int(t3), int(t4)}, [2]int{3, 4})
		eq(t, "any", v, any(Softplus))
		eq(t, "eq0", eq0, true)`,
	},
}
