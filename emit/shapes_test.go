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
		// func Grade(p Point) int {
		//	switch p.X {
		//	case 0:
		//		return 1
		//	case 0.5:
		//		return 2
		//	case 1:
		//		return 3
		//	}
		//	return 0
		// }
		//
		// In Weigh, each comparison loads codes[i] again (the tag is an
		// expression without effects); the break of the loop needs a
		// label. In Grade, the tag is held in a variable, which the
		// switch makes unnecessary.
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

			b2 := irtest.NewBuilder("Grade", ev.pkg)
			p := b2.Param("p", ev.typ("Point"))
			b2.F.AddResult("", intT)
			px := b2.Field(p, 0)
			for i, c := range []float64{0, 0.5, 1} {
				then, next := b2.Block("switch.body"), b2.Block("switch.next")
				b2.If(b2.Bin(token.EQL, px, b2.Float(c)), then, next)
				b2.At(then).Return(b2.Int(int64(i + 1)))
				b2.At(next)
			}
			b2.Return(b2.Int(0))
			return []*ir.Func{b.F, b2.F}
		},
		check: `eq(t, "Weigh", Weigh([]Activation{Tanh, Sigmoid, 7, ReLU, Softplus, Sigmoid}, 2), 2.0)
		eq(t, "Weigh all", Weigh([]Activation{ReLU, 9}, 1), 0.0)
		for x, want := range map[float64]int{0: 1, 0.5: 2, 1: 3, 2: 0} {
			eq(t, "Grade", Grade(Point{X: x}), want)
		}`,
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
	{
		// func Lits(a, b, c float64) (Point, [3]float64, [4]float64, float64, Point) {
		//	p := Point{Y: b, X: a}
		//	arr := [3]float64{a, b, c}
		//	sparse := [4]float64{2: c, 0: a}
		//	m := mean([]float64{a, b, c}...)
		//	q := new(Point) // on the heap, but only its value is used
		//	q.X = m
		//	return p, arr, sparse, m, *q
		// }
		//
		// The struct, array and heap cases are go/ssa's shapes; the slice
		// is the forward transformer's argument list of a variadic call.
		name: "literals",
		build: func(ev *env) []*ir.Func {
			point := ev.typ("Point")
			a3, a4 := types.NewArray(f64, 3), types.NewArray(f64, 4)
			b := irtest.NewBuilder("Lits", ev.pkg)
			pa, pb, pc := b.Param("a", f64), b.Param("b", f64), b.Param("c", f64)
			for _, t := range []types.Type{point, a3, a4, f64, point} {
				b.F.AddResult("", t)
			}
			p := b.Alloc("", point, false)
			b.Store(b.FieldAddr(p, 1), pb)
			b.Store(b.FieldAddr(p, 0), pa)
			pv := named(b.Load(p), "p")
			arr := b.Alloc("", a3, false)
			for i, x := range []*ir.Value{pa, pb, pc} {
				b.Store(b.IndexAddr(arr, b.Int(int64(i))), x)
			}
			arrv := named(b.Load(arr), "arr")
			sp := b.Alloc("sparse", a4, false)
			b.Store(b.IndexAddr(sp, b.Int(2)), pc)
			b.Store(b.IndexAddr(sp, b.Int(0)), pa)
			spv := b.Load(sp)
			s := b.MakeSlice(f64s, b.Int(3), nil)
			for i, x := range []*ir.Value{pa, pb, pc} {
				b.Store(b.IndexAddr(s, b.Int(int64(i))), x)
			}
			m := b.Call(ev.fn("mean"), s)
			m.Callee.Spread = true
			named(m, "m")
			q := b.Alloc("q", point, true)
			b.Store(b.FieldAddr(q, 0), m)
			b.Return(pv, arrv, spv, m, b.Load(q))
			return one(b.F)
		},
		check: `p, arr, sparse, m, q := Lits(1, 2, 6)
		eq(t, "p", p, Point{1, 2})
		eq(t, "arr", arr, [3]float64{1, 2, 6})
		eq(t, "sparse", sparse, [4]float64{1, 0, 6, 0})
		eq(t, "m", m, 3.0)
		eq(t, "q", q, Point{X: 3})`,
	},
	{
		// func Ordered(x []float64) Point {
		//	t := x[0]
		//	return Point{X: t, Y: record(1)} // record may change x[0]
		// }
		//
		// func Partial(a float64) []float64 {
		//	s := make([]float64, 2)
		//	s[0] = a
		//	s[1] = mean(s...) // s is used before it is complete
		//	return s
		// }
		//
		// func Origin(x float64) int {
		//	if (Point{X: x}) == (Point{}) {
		//		return 1
		//	}
		//	return 0
		// }
		name: "literalorder",
		build: func(ev *env) []*ir.Func {
			point := ev.typ("Point")
			b := irtest.NewBuilder("Ordered", ev.pkg)
			x := b.Param("x", f64s)
			b.F.AddResult("", point)
			p := b.Alloc("", point, false)
			t := b.Load(b.IndexAddr(x, b.Int(0)))
			b.Store(b.FieldAddr(p, 0), t)
			r := b.Call(ev.fn("record"), b.Float(1))
			b.Store(b.FieldAddr(p, 1), r)
			b.Return(b.Load(p))

			b2 := irtest.NewBuilder("Partial", ev.pkg)
			a := b2.Param("a", f64)
			b2.F.AddResult("", f64s)
			s := named(b2.MakeSlice(f64s, b2.Int(2), nil), "s")
			b2.Store(b2.IndexAddr(s, b2.Int(0)), a)
			m := b2.Call(ev.fn("mean"), s)
			m.Callee.Spread = true
			b2.Store(b2.IndexAddr(s, b2.Int(1)), m)
			b2.Return(s)

			b3 := irtest.NewBuilder("Origin", ev.pkg)
			x3 := b3.Param("x", f64)
			b3.F.AddResult("", intT)
			o := b3.Alloc("", point, false)
			b3.Store(b3.FieldAddr(o, 0), x3)
			then, done := b3.Block("if.then"), b3.Block("if.done")
			b3.If(b3.Bin(token.EQL, b3.Load(o), b3.Const(point, nil)), then, done)
			b3.At(then).Return(b3.Int(1))
			b3.At(done).Return(b3.Int(0))
			return []*ir.Func{b.F, b2.F, b3.F}
		},
		check: `calls = nil
		eq(t, "Ordered", Ordered([]float64{5}), Point{5, 1})
		s := Partial(4)
		eq(t, "Partial", [2]float64{s[0], s[1]}, [2]float64{4, 2})
		eq(t, "Origin(0)", Origin(0), 1)
		eq(t, "Origin(1)", Origin(1), 0)`,
	},
	{
		// func Mean3JVP(a, da, b, db, c, dc float64) (float64, float64) {
		//	t := make([]float64, 3)
		//	t[0], t[1], t[2] = a, b, c
		//	t2 := make([]float64, 3)
		//	t2[0], t2[1], t2[2] = da, db, dc
		//	t3, t4 := sumJVP(t, t2)
		//	return t3 / 3, t4 / 3
		// }
		//
		// The forward transformer's shape of mean3's call sum(a, b, c).
		//
		// func Cross(a, b Vec3) (Vec3, [2][2]float64) {
		//	return Vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X},
		//		[2][2]float64{{a.X}, {1: b.X}}
		// }
		name: "literalslice",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Mean3JVP", ev.pkg)
			var ps []*ir.Value
			for _, n := range []string{"a", "da", "b", "db", "c", "dc"} {
				ps = append(ps, b.Param(n, f64))
			}
			b.F.AddResult("", f64)
			b.F.AddResult("", f64)
			t := b.MakeSlice(f64s, b.Int(3), nil)
			for i := 0; i < 3; i++ {
				b.Store(b.IndexAddr(t, b.Int(int64(i))), ps[2*i])
			}
			t2 := b.MakeSlice(f64s, b.Int(3), nil)
			for i := 0; i < 3; i++ {
				b.Store(b.IndexAddr(t2, b.Int(int64(i))), ps[2*i+1])
			}
			call := b.Call(ev.fn("sumJVP"), t, t2)
			b.Return(b.Bin(token.QUO, b.Extract(call, 0), b.Float(3)), b.Bin(token.QUO, b.Extract(call, 1), b.Float(3)))

			vec := ev.typ("Vec3")
			m22 := types.NewArray(types.NewArray(f64, 2), 2)
			b2 := irtest.NewBuilder("Cross", ev.pkg)
			pa, pb := b2.Param("a", vec), b2.Param("b", vec)
			b2.F.AddResult("", vec)
			b2.F.AddResult("", m22)
			fa := func(i int) *ir.Value { return b2.Field(pa, i) }
			fb := func(i int) *ir.Value { return b2.Field(pb, i) }
			cross := func(i, j int) *ir.Value {
				return b2.Bin(token.SUB, b2.Bin(token.MUL, fa(i), fb(j)), b2.Bin(token.MUL, fa(j), fb(i)))
			}
			r := b2.Alloc("", vec, false)
			b2.Store(b2.FieldAddr(r, 0), cross(1, 2))
			b2.Store(b2.FieldAddr(r, 1), cross(2, 0))
			b2.Store(b2.FieldAddr(r, 2), cross(0, 1))
			// go/ssa builds each row in its own memory.
			m := b2.Alloc("", m22, false)
			row0 := b2.Alloc("", types.NewArray(f64, 2), false)
			b2.Store(b2.IndexAddr(row0, b2.Int(0)), fa(0))
			b2.Store(b2.IndexAddr(m, b2.Int(0)), b2.Load(row0))
			row1 := b2.Alloc("", types.NewArray(f64, 2), false)
			b2.Store(b2.IndexAddr(row1, b2.Int(1)), fb(0))
			b2.Store(b2.IndexAddr(m, b2.Int(1)), b2.Load(row1))
			b2.Return(b2.Load(r), b2.Load(m))
			return []*ir.Func{b.F, b2.F}
		},
		check: `y, dy := Mean3JVP(1, 1, 2, 0, 6, 2)
		eq(t, "Mean3JVP", [2]float64{y, dy}, [2]float64{3, 1})
		v, m := Cross(Vec3{1, 0, 0}, Vec3{0, 1, 0})
		eq(t, "Cross", v, Vec3{0, 0, 1})
		eq(t, "Cross m", m, [2][2]float64{{1, 0}, {0, 0}})`,
	},
	{
		// func Between(a, b, c float64) int {
		//	t := a < b && b < c
		//	if t {
		//		return 1
		//	}
		//	return 0
		// }
		//
		// func Twice(p, q bool) (bool, bool) { t := p || q; return t, t }
		//
		// func FirstNeg(x []float64, ok bool) (float64, bool) {
		//	t := x[0] < 0 && ok
		//	return record(1), t // record might write x[0]
		// }
		//
		// A boolean computed with && and || and read once right after
		// goes where it is read, unless that could reorder effects.
		name: "boolfold",
		build: func(ev *env) []*ir.Func {
			// value builds "t := l && r" (or ||) in go/ssa's shape, r's
			// computation in its own block, and returns the block after
			// it, where t is available.
			value := func(b *irtest.Builder, and bool, l *ir.Value, r func() *ir.Value) (*ir.Value, *ir.Block) {
				rhs, done := b.Block("binop.rhs"), b.Block("binop.done")
				short := b.Bool(!and)
				if and {
					b.If(l, rhs, done)
				} else {
					b.If(l, done, rhs)
				}
				b.At(rhs)
				rv := r()
				b.Jump(done)
				b.At(done)
				t := b.Phi("t", boolT)
				args(t, short, rv) // preds: the first block, rhs
				return t, done
			}

			b := irtest.NewBuilder("Between", ev.pkg)
			pa, pb, pc := b.Param("a", f64), b.Param("b", f64), b.Param("c", f64)
			b.F.AddResult("", intT)
			t, _ := value(b, true, b.Bin(token.LSS, pa, pb), func() *ir.Value { return b.Bin(token.LSS, pb, pc) })
			then, els := b.Block("if.then"), b.Block("if.done")
			b.If(t, then, els)
			b.At(then).Return(b.Int(1))
			b.At(els).Return(b.Int(0))

			b2 := irtest.NewBuilder("Twice", ev.pkg)
			p, q := b2.Param("p", boolT), b2.Param("q", boolT)
			b2.F.AddResult("", boolT)
			b2.F.AddResult("", boolT)
			t2, _ := value(b2, false, p, func() *ir.Value { return q })
			b2.Return(t2, t2)

			b3 := irtest.NewBuilder("FirstNeg", ev.pkg)
			x, ok := b3.Param("x", f64s), b3.Param("ok", boolT)
			b3.F.AddResult("", f64)
			b3.F.AddResult("", boolT)
			neg := b3.Bin(token.LSS, b3.Load(b3.IndexAddr(x, b3.Int(0))), b3.Float(0))
			t3, _ := value(b3, true, neg, func() *ir.Value { return ok })
			b3.Return(b3.Call(ev.fn("record"), b3.Float(1)), t3)
			return []*ir.Func{b.F, b2.F, b3.F}
		},
		check: `eq(t, "Between(1, 2, 3)", Between(1, 2, 3), 1)
		eq(t, "Between(1, 3, 2)", Between(1, 3, 2), 0)
		p, q := Twice(false, true)
		eq(t, "Twice", p && q, true)
		_, neg := FirstNeg([]float64{-1}, true)
		eq(t, "FirstNeg", neg, true)`,
	},
}
