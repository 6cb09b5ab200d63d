package emit_test

// This file defines the hand-built IR of the emitter's test cases, each
// in the shape go/ssa gives the Go source in its comment.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
)

var (
	f64   = types.Typ[types.Float64]
	f32   = types.Typ[types.Float32]
	i64   = types.Typ[types.Int64]
	intT  = types.Typ[types.Int]
	boolT = types.Typ[types.Bool]
	str   = types.Typ[types.String]
	f64s  = types.NewSlice(f64)
	named = irtest.Named
	args  = irtest.SetArgs
)

func one(f *ir.Func) []*ir.Func { return []*ir.Func{f} }

var cases = []testCase{
	{
		name:  "sumsquares",
		build: func(ev *env) []*ir.Func { return one(irtest.SumSquares(ev.pkg)) },
		check: `near(t, "SumSquares", SumSquares([]float64{1, 2, 3}), 14)`,
	},
	{
		// func NilErr() bool {
		//	var e error
		//	return e != nil
		// }
		//
		// e is the constant nil of type error (unfolded): nil != nil
		// would not compile.
		name: "nilcompare",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("NilErr", ev.pkg)
			b.F.AddResult("", boolT)
			errT := types.Universe.Lookup("error").Type()
			b.Return(b.Bin(token.NEQ, b.Const(errT, nil), b.Const(errT, nil)))
			return one(b.F)
		},
		check: `eq(t, "NilErr", NilErr(), false)`,
	},
	{
		// func Pow2(n int) float64 {
		//	return float64(int(1)<<uint(n)) + float64(-(int(3)>>uint(n))+1)
		// }
		//
		// Inside float64(…), 1 << uint(n) would shift a float64, and so
		// would -(3 >> uint(n)) + 1: the shifted constants keep their type.
		name: "shiftconv",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Pow2", ev.pkg)
			n := b.Param("n", intT)
			b.F.AddResult("", f64)
			u := b.Convert(types.Typ[types.Uint], n)
			p := b.Convert(f64, b.Bin(token.SHL, b.Int(1), u))
			q := b.Convert(f64, b.Add(b.Un(token.SUB, b.Bin(token.SHR, b.Int(3), u)), b.Int(1)))
			b.Return(b.Add(p, q))
			return one(b.F)
		},
		check: `near(t, "Pow2(0)", Pow2(0), -1)
		near(t, "Pow2(3)", Pow2(3), 9)`,
	},
	{
		// func Dot(x, y []float64) float64 {
		//	s := 0.0
		//	for i := 0; i < len(x); i++ {
		//		s += x[i] * y[i]
		//	}
		//	return s
		// }
		name: "dot",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Dot", ev.pkg)
			b.F.Doc = "Dot returns the dot product of x and y."
			x, y := b.Param("x", f64s), b.Param("y", f64s)
			b.F.AddResult("", f64)
			loop, body, post, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.post"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			s, i := b.Phi("s", f64), b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, b.Len(x)), body, done)
			b.At(body)
			m := b.Bin(token.MUL, b.Load(b.IndexAddr(x, i)), b.Load(b.IndexAddr(y, i)))
			s2 := named(b.Bin(token.ADD, s, m), "s")
			b.Jump(post)
			b.At(post)
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			args(s, b.Float(0), s2)
			args(i, b.Int(0), i2)
			b.At(done).Return(s)
			return one(b.F)
		},
		check: `near(t, "Dot", Dot([]float64{1, 2, 3}, []float64{4, 5, 6}), 32)`,
	},
	{
		// func MatVec(y, a, x []float64, n int) {
		//	for i := 0; i < n; i++ {
		//		s := 0.0
		//		for j := 0; j < n; j++ {
		//			s += a[i*n+j] * x[j]
		//		}
		//		y[i] = s
		//	}
		// }
		name: "nested",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("MatVec", ev.pkg)
			y, a, x, n := b.Param("y", f64s), b.Param("a", f64s), b.Param("x", f64s), b.Param("n", intT)
			oloop, obody, iloop, ibody, idone, odone := b.Block("outer.loop"), b.Block("outer.body"),
				b.Block("inner.loop"), b.Block("inner.body"), b.Block("inner.done"), b.Block("outer.done")
			b.Jump(oloop)
			b.At(oloop)
			i := b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, n), obody, odone)
			b.At(obody).Jump(iloop)
			b.At(iloop)
			s, j := b.Phi("s", f64), b.Phi("j", intT)
			b.If(b.Bin(token.LSS, j, n), ibody, idone)
			b.At(ibody)
			k := b.Bin(token.ADD, b.Bin(token.MUL, i, n), j)
			m := b.Bin(token.MUL, b.Load(b.IndexAddr(a, k)), b.Load(b.IndexAddr(x, j)))
			s2 := named(b.Bin(token.ADD, s, m), "s")
			j2 := b.Bin(token.ADD, j, b.Int(1))
			b.Jump(iloop)
			b.At(idone)
			b.Store(b.IndexAddr(y, i), s)
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(oloop)
			b.At(odone).Return()
			args(i, b.Int(0), i2)
			args(s, b.Float(0), s2)
			args(j, b.Int(0), j2)
			return one(b.F)
		},
		check: `y := make([]float64, 2)
		MatVec(y, []float64{1, 2, 3, 4}, []float64{5, 6}, 2)
		eq(t, "y[0]", y[0], 17.0)
		eq(t, "y[1]", y[1], 39.0)`,
	},
	{
		// func Clamp(x, lo, hi float64) float64 {
		//	var y float64
		//	if x < lo {
		//		y = lo
		//	} else if x > hi {
		//		y = hi
		//	} else {
		//		y = x
		//	}
		//	return y
		// }
		name: "ifelse",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Clamp", ev.pkg)
			x, lo, hi := b.Param("x", f64), b.Param("lo", f64), b.Param("hi", f64)
			b.F.AddResult("", f64)
			then, els, then2, els2, done := b.Block("if.then"), b.Block("if.else"), b.Block("if.then"), b.Block("if.else"), b.Block("if.done")
			b.If(b.Bin(token.LSS, x, lo), then, els)
			b.At(then).Jump(done)
			b.At(els).If(b.Bin(token.GTR, x, hi), then2, els2)
			b.At(then2).Jump(done)
			b.At(els2).Jump(done)
			b.At(done)
			y := b.Phi("y", f64)
			args(y, lo, hi, x)
			b.Return(y)
			return one(b.F)
		},
		check: `eq(t, "Clamp(-1)", Clamp(-1, 0, 1), 0.0)
		eq(t, "Clamp(2)", Clamp(2, 0, 1), 1.0)
		eq(t, "Clamp(0.5)", Clamp(0.5, 0, 1), 0.5)`,
	},
	{
		// func Find(x []float64, v float64) int {
		//	for i := 0; i < len(x); i++ {
		//		if x[i] == v {
		//			return i
		//		}
		//	}
		//	return -1
		// }
		name: "earlyreturn",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Find", ev.pkg)
			x, v := b.Param("x", f64s), b.Param("v", f64)
			b.F.AddResult("", intT)
			loop, body, then, post, done := b.Block("for.loop"), b.Block("for.body"), b.Block("if.then"), b.Block("for.post"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			i := b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, b.Len(x)), body, done)
			b.At(body).If(b.Bin(token.EQL, b.Load(b.IndexAddr(x, i)), v), then, post)
			b.At(then).Return(i)
			b.At(post)
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done).Return(b.Int(-1))
			args(i, b.Int(0), i2)
			return one(b.F)
		},
		check: `eq(t, "Find(2)", Find([]float64{1, 2, 3}, 2), 1)
		eq(t, "Find(5)", Find([]float64{1, 2, 3}, 5), -1)`,
	},
	{
		// func SumUntil(x []float64) float64 {
		//	s := 0.0
		//	for i := 0; i < len(x); i++ {
		//		if x[i] < 0 {
		//			continue
		//		}
		//		if x[i] > 10 {
		//			break
		//		}
		//		s += x[i]
		//	}
		//	return s
		// }
		name: "breakcontinue",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("SumUntil", ev.pkg)
			x := b.Param("x", f64s)
			b.F.AddResult("", f64)
			loop, body, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
			notNeg, add, post := b.Block("if.done"), b.Block("if.done"), b.Block("for.post")
			b.Jump(loop)
			b.At(loop)
			s, i := b.Phi("s", f64), b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, b.Len(x)), body, done)
			b.At(body).If(b.Bin(token.LSS, b.Load(b.IndexAddr(x, i)), b.Float(0)), post, notNeg)
			b.At(notNeg).If(b.Bin(token.GTR, b.Load(b.IndexAddr(x, i)), b.Float(10)), done, add)
			b.At(add)
			s2 := named(b.Bin(token.ADD, s, b.Load(b.IndexAddr(x, i))), "s")
			b.Jump(post)
			b.At(post)
			s3 := b.Phi("s", f64)
			args(s3, s, s2) // preds: body, add
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done).Return(s)
			args(s, b.Float(0), s3)
			args(i, b.Int(0), i2)
			return one(b.F)
		},
		check: `eq(t, "SumUntil", SumUntil([]float64{1, -5, 2, 11, 4}), 3.0)
		eq(t, "SumUntil all", SumUntil([]float64{1, 2}), 3.0)`,
	},
	{
		// func Labeled(a []float64, n int) float64 {
		//	s := 0.0
		// outer:
		//	for i := 0; i < n; i++ {
		//		for j := 0; j < n; j++ {
		//			v := a[i*n+j]
		//			if v < 0 {
		//				continue outer
		//			}
		//			if v > 100 {
		//				break outer
		//			}
		//			s += v
		//		}
		//	}
		//	return s
		// }
		name: "labeled",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Labeled", ev.pkg)
			a, n := b.Param("a", f64s), b.Param("n", intT)
			b.F.AddResult("", f64)
			oloop, obody, odone := b.Block("outer.loop"), b.Block("outer.body"), b.Block("outer.done")
			iloop, ibody, notNeg, add, ipost, idone, opost := b.Block("inner.loop"), b.Block("inner.body"),
				b.Block("if.done"), b.Block("if.done"), b.Block("inner.post"), b.Block("inner.done"), b.Block("outer.post")
			b.Jump(oloop)
			b.At(oloop)
			s, i := b.Phi("s", f64), b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, n), obody, odone)
			b.At(obody).Jump(iloop)
			b.At(iloop)
			s4, j := b.Phi("s", f64), b.Phi("j", intT)
			b.If(b.Bin(token.LSS, j, n), ibody, idone)
			b.At(ibody)
			v := named(b.Load(b.IndexAddr(a, b.Bin(token.ADD, b.Bin(token.MUL, i, n), j))), "v")
			b.If(b.Bin(token.LSS, v, b.Float(0)), opost, notNeg)
			b.At(notNeg).If(b.Bin(token.GTR, v, b.Float(100)), odone, add)
			b.At(add)
			s2 := named(b.Bin(token.ADD, s4, v), "s")
			b.Jump(ipost)
			b.At(ipost)
			j2 := b.Bin(token.ADD, j, b.Int(1))
			b.Jump(iloop)
			b.At(idone).Jump(opost)
			b.At(opost)
			s5 := b.Phi("s", f64)
			args(s5, s4, s4) // preds: ibody, idone
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(oloop)
			b.At(odone)
			s6 := b.Phi("s", f64)
			args(s6, s, s4) // preds: oloop, notNeg
			b.Return(s6)
			args(s, b.Float(0), s5)
			args(i, b.Int(0), i2)
			args(s4, s, s2)
			args(j, b.Int(0), j2)
			return one(b.F)
		},
		check: `eq(t, "Labeled", Labeled([]float64{1, 2, -1, 5}, 2), 3.0)
		eq(t, "Labeled break", Labeled([]float64{1, 2, 200, 5}, 2), 3.0)
		eq(t, "Labeled all", Labeled([]float64{1, 2, 3, 4}, 2), 10.0)`,
	},
	{
		// func CountIn(x []float64, lo, hi float64) int {
		//	n := 0
		//	for i := 0; i < len(x) && x[i] >= 0; i++ {
		//		if x[i] > lo && x[i] < hi || x[i] == 0 {
		//			n++
		//		}
		//	}
		//	return n
		// }
		name: "shortcircuit",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("CountIn", ev.pkg)
			x, lo, hi := b.Param("x", f64s), b.Param("lo", f64), b.Param("hi", f64)
			b.F.AddResult("", intT)
			loop, condTrue, body, and2, or2, then, post, done := b.Block("for.loop"), b.Block("cond.true"),
				b.Block("for.body"), b.Block("cond.true"), b.Block("cond.false"), b.Block("if.then"), b.Block("if.done"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			n, i := b.Phi("n", intT), b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, b.Len(x)), condTrue, done)
			b.At(condTrue).If(b.Bin(token.GEQ, b.Load(b.IndexAddr(x, i)), b.Float(0)), body, done)
			b.At(body).If(b.Bin(token.GTR, b.Load(b.IndexAddr(x, i)), lo), and2, or2)
			b.At(and2).If(b.Bin(token.LSS, b.Load(b.IndexAddr(x, i)), hi), then, or2)
			b.At(or2).If(b.Bin(token.EQL, b.Load(b.IndexAddr(x, i)), b.Float(0)), then, post)
			b.At(then)
			n2 := b.Bin(token.ADD, n, b.Int(1))
			b.Jump(post)
			b.At(post)
			n3 := b.Phi("n", intT)
			args(n3, n, n2) // preds: or2, then
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done).Return(n)
			args(n, b.Int(0), n3)
			args(i, b.Int(0), i2)
			return one(b.F)
		},
		check: `eq(t, "CountIn", CountIn([]float64{0, 1, 5, 2, -1, 1}, 0.5, 3), 3)`,
	},
	{
		// func Fib(n int) float64 {
		//	a, b := 0.0, 1.0
		//	for i := 0; i < n; i++ {
		//		a, b = b, a+b
		//	}
		//	return a
		// }
		name: "swap",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Fib", ev.pkg)
			n := b.Param("n", intT)
			b.F.AddResult("", f64)
			loop, body, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			pa, pb, i := b.Phi("a", f64), b.Phi("b", f64), b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, n), body, done)
			b.At(body)
			sum := b.Bin(token.ADD, pa, pb)
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done).Return(pa)
			args(pa, b.Float(0), pb)
			args(pb, b.Float(1), sum)
			args(i, b.Int(0), i2)
			return one(b.F)
		},
		check: `eq(t, "Fib(10)", Fib(10), 55.0)`,
	},
	{
		// func Norm2(x, y float64) float64 {
		//	var p Point
		//	p.X = x
		//	p.Y = y
		//	return p.X*p.X + p.Y*p.Y
		// }
		name: "structlocal",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Norm2", ev.pkg)
			x, y := b.Param("x", f64), b.Param("y", f64)
			b.F.AddResult("", f64)
			p := b.Alloc("p", ev.typ("Point"), false)
			b.Store(b.FieldAddr(p, 0), x)
			b.Store(b.FieldAddr(p, 1), y)
			xx := b.Bin(token.MUL, b.Load(b.FieldAddr(p, 0)), b.Load(b.FieldAddr(p, 0)))
			yy := b.Bin(token.MUL, b.Load(b.FieldAddr(p, 1)), b.Load(b.FieldAddr(p, 1)))
			b.Return(b.Bin(token.ADD, xx, yy))
			return one(b.F)
		},
		check: `eq(t, "Norm2", Norm2(3, 4), 25.0)`,
	},
	{
		// func Sum3(a, b, c float64) float64 {
		//	var arr [3]float64
		//	arr[0], arr[1], arr[2] = a, b, c
		//	s := 0.0
		//	for i := 0; i < 3; i++ {
		//		s += arr[i]
		//	}
		//	return s
		// }
		name: "arraylocal",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Sum3", ev.pkg)
			pa, pb, pc := b.Param("a", f64), b.Param("b", f64), b.Param("c", f64)
			b.F.AddResult("", f64)
			arr := b.Alloc("arr", types.NewArray(f64, 3), false)
			b.Store(b.IndexAddr(arr, b.Int(0)), pa)
			b.Store(b.IndexAddr(arr, b.Int(1)), pb)
			b.Store(b.IndexAddr(arr, b.Int(2)), pc)
			loop, body, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			s, i := b.Phi("s", f64), b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, b.Int(3)), body, done)
			b.At(body)
			s2 := b.Bin(token.ADD, s, b.Load(b.IndexAddr(arr, i)))
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done).Return(s)
			args(s, b.Float(0), s2)
			args(i, b.Int(0), i2)
			return one(b.F)
		},
		check: `eq(t, "Sum3", Sum3(1, 2, 4), 7.0)`,
	},
	{
		// func Axpy(alpha float64, x, y []float64) {
		//	for i := 0; i < len(x); i++ {
		//		y[i] += alpha * x[i]
		//	}
		//	Total += alpha
		// }
		name: "outslice",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Axpy", ev.pkg)
			alpha, x, y := b.Param("alpha", f64), b.Param("x", f64s), b.Param("y", f64s)
			loop, body, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			i := b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, b.Len(x)), body, done)
			b.At(body)
			m := b.Bin(token.MUL, alpha, b.Load(b.IndexAddr(x, i)))
			sum := b.Bin(token.ADD, b.Load(b.IndexAddr(y, i)), m)
			b.Store(b.IndexAddr(y, i), sum)
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done)
			g := b.B.NewValue(ir.OpGlobal, types.NewPointer(f64))
			g.Global = ev.global("Total")
			b.Store(g, b.Bin(token.ADD, b.Load(g), alpha))
			b.Return()
			args(i, b.Int(0), i2)
			return one(b.F)
		},
		check: `y := []float64{1, 1}
		Axpy(2, []float64{3, 4}, y)
		eq(t, "y[0]", y[0], 7.0)
		eq(t, "y[1]", y[1], 9.0)
		eq(t, "Total", Total, 2.0)`,
	},
	{
		// func DivMod(a, b int) int {
		//	q, r := divmod(a, b)
		//	return q*b + r
		// }
		//
		// func Quot(a, b int) int {
		//	q, _ := divmod(a, b)
		//	return q
		// }
		name: "tuple",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("DivMod", ev.pkg)
			x, y := b.Param("a", intT), b.Param("b", intT)
			b.F.AddResult("", intT)
			c := b.Call(ev.fn("divmod"), x, y)
			q, r := named(b.Extract(c, 0), "q"), named(b.Extract(c, 1), "r")
			b.Return(b.Bin(token.ADD, b.Bin(token.MUL, q, y), r))

			b2 := irtest.NewBuilder("Quot", ev.pkg)
			x2, y2 := b2.Param("a", intT), b2.Param("b", intT)
			b2.F.AddResult("", intT)
			c2 := b2.Call(ev.fn("divmod"), x2, y2)
			b2.Return(b2.Extract(c2, 0))
			return []*ir.Func{b.F, b2.F}
		},
		check: `eq(t, "DivMod", DivMod(17, 5), 17)
		eq(t, "Quot", Quot(17, 5), 3)`,
	},
	{
		// func Max(x, y float64) float64 { m := y; if x > y { m = x }; return m }
		name: "select",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Max", ev.pkg)
			x, y := b.Param("x", f64), b.Param("y", f64)
			b.F.AddResult("", f64)
			m := named(b.Select(b.Bin(token.GTR, x, y), x, y), "m")
			b.Return(m)
			return one(b.F)
		},
		check: `eq(t, "Max(1, 2)", Max(1, 2), 2.0)
		eq(t, "Max(3, 2)", Max(3, 2), 3.0)`,
	},
	{
		// The reverse of max: two selects on one condition, one pair of
		// assignments (t2, t3 := 0.0, 1.0; if t { t2, t3 = 1, 0 }).
		// func MaxAdjoint(x, y, g float64) (float64, float64) {
		//	c := x >= y
		//	return where(c, 1, 0) * g, where(c, 0, 1) * g
		// }
		name: "selectpair",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("MaxAdjoint", ev.pkg)
			x, y, g := b.Param("x", f64), b.Param("y", f64), b.Param("g", f64)
			b.F.AddResult("", f64)
			b.F.AddResult("", f64)
			c := b.Bin(token.GEQ, x, y)
			dx := b.Select(c, b.Float(1), b.Float(0))
			dy := b.Select(c, b.Float(0), b.Float(1))
			b.Return(b.Mul(dx, g), b.Mul(dy, g))
			return one(b.F)
		},
		check: `gx, gy := MaxAdjoint(3, 2, 5)
		eq(t, "MaxAdjoint(3, 2, 5)", [2]float64{gx, gy}, [2]float64{5, 0})
		gx, gy = MaxAdjoint(1, 2, 5)
		eq(t, "MaxAdjoint(1, 2, 5)", [2]float64{gx, gy}, [2]float64{0, 5})`,
	},
	{
		// // Scale returns p scaled by k.
		// func (p Point) Scale(k float64) Point {
		//	var q Point
		//	q.X = p.X * k
		//	q.Y = p.Y * k
		//	return q
		// }
		//
		// func (*Point) Grow(k float64) float64 {  // unnamed receiver, used
		//	p.Shift(k)
		//	n := p.Norm()
		//	p.Y *= 2
		//	return n + p.Y
		// }
		name: "method",
		build: func(ev *env) []*ir.Func {
			point := ev.typ("Point")
			b := irtest.NewBuilder("Scale", ev.pkg)
			b.F.Doc = "Scale returns p scaled by k."
			b.F.Recv = point
			p, k := b.Param("p", point), b.Param("k", f64)
			b.F.AddResult("", point)
			q := b.Alloc("q", point, false)
			b.Store(b.FieldAddr(q, 0), b.Bin(token.MUL, b.Field(p, 0), k))
			b.Store(b.FieldAddr(q, 1), b.Bin(token.MUL, b.Field(p, 1), k))
			b.Return(b.Load(q))

			b2 := irtest.NewBuilder("Grow", ev.pkg)
			b2.F.Recv = types.NewPointer(point)
			pp, k2 := b2.Param("", types.NewPointer(point)), b2.Param("k", f64)
			b2.F.AddResult("", f64)
			b2.Call(ev.method("Point", "Shift"), pp, k2)
			n := named(b2.Call(ev.method("Point", "Norm"), b2.Load(pp)), "n")
			fy := b2.FieldAddr(pp, 1)
			b2.Store(fy, b2.Bin(token.MUL, b2.Load(fy), b2.Float(2)))
			b2.Return(b2.Bin(token.ADD, n, b2.Load(b2.FieldAddr(pp, 1))))
			return []*ir.Func{b.F, b2.F}
		},
		check: `eq(t, "Scale", Point{1, 2}.Scale(3), Point{3, 6})
		p := &Point{0, 4}
		eq(t, "Grow", p.Grow(3), 13.0)
		eq(t, "p", *p, Point{3, 8})`,
	},
	{
		// func Order(x float64) float64 {
		//	a := record(x)
		//	b := record(2 * x)
		//	return b - a
		// }
		name: "callorder",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Order", ev.pkg)
			x := b.Param("x", f64)
			b.F.AddResult("", f64)
			ca := b.Call(ev.fn("record"), x)
			cb := b.Call(ev.fn("record"), b.Bin(token.MUL, b.Float(2), x))
			b.Return(b.Bin(token.SUB, cb, ca))
			return one(b.F)
		},
		check: `calls = nil
		eq(t, "Order", Order(1), 1.0)
		eq(t, "first call", calls[0], 1.0)`,
	},
	{
		// func FirstAbove(x []float64, limit float64) float64 {
		//	i := 0
		//	var t float64
		//	for {
		//		t = x[i] * 2
		//		if t > limit {
		//			break
		//		}
		//		i++
		//	}
		//	return t
		// }
		name: "hoist",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("FirstAbove", ev.pkg)
			x, limit := b.Param("x", f64s), b.Param("limit", f64)
			b.F.AddResult("", f64)
			loop, next, done := b.Block("for.body"), b.Block("if.done"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			i := b.Phi("i", intT)
			tv := named(b.Bin(token.MUL, b.Load(b.IndexAddr(x, i)), b.Float(2)), "t")
			b.If(b.Bin(token.GTR, tv, limit), done, next)
			b.At(next)
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done).Return(tv)
			args(i, b.Int(0), i2)
			return one(b.F)
		},
		check: `eq(t, "FirstAbove", FirstAbove([]float64{1, 2, 3, 4}, 5), 6.0)`,
	},
	{
		// func Typed(x float32, n int) (float32, Celsius, int64, bool) {
		//	s, t, k, ok := float32(0), Celsius(1.5), int64(1), false
		//	for i := 0; i < n; i++ {
		//		s += x * 0.5
		//		t *= 2
		//		k <<= 1
		//		ok = true
		//	}
		//	return s, t, k, ok
		// }
		//
		// func Huge() float64 { return math.Inf(1) }
		name: "constants",
		build: func(ev *env) []*ir.Func {
			cel := ev.typ("Celsius")
			b := irtest.NewBuilder("Typed", ev.pkg)
			x, n := b.Param("x", f32), b.Param("n", intT)
			b.F.AddResult("", f32)
			b.F.AddResult("", cel)
			b.F.AddResult("", i64)
			b.F.AddResult("", boolT)
			loop, body, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			s, tt, k, ok, i := b.Phi("s", f32), b.Phi("t", cel), b.Phi("k", i64), b.Phi("ok", boolT), b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, n), body, done)
			b.At(body)
			s2 := b.Bin(token.ADD, s, b.Bin(token.MUL, x, b.Const(f32, constant.MakeFloat64(0.5))))
			t2 := b.Bin(token.MUL, tt, b.Const(cel, constant.MakeFloat64(2)))
			k2 := b.Bin(token.SHL, k, b.Const(types.Typ[types.Uint], constant.MakeInt64(1)))
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done).Return(s, tt, k, ok)
			args(s, b.Const(f32, constant.MakeFloat64(0)), s2)
			args(tt, b.Const(cel, constant.MakeFloat64(1.5)), t2)
			args(k, b.Const(i64, constant.MakeInt64(1)), k2)
			args(ok, b.Bool(false), b.Bool(true))
			args(i, b.Int(0), i2)

			b2 := irtest.NewBuilder("Huge", ev.pkg)
			b2.F.AddResult("", f64)
			b2.Return(b2.Const(f64, constant.MakeFromLiteral("1e400", token.FLOAT, 0)))
			return []*ir.Func{b.F, b2.F}
		},
		check: `s, c, k, ok := Typed(2, 3)
		eq(t, "s", s, float32(3))
		eq(t, "t", c, Celsius(12))
		eq(t, "k", k, int64(8))
		eq(t, "ok", ok, true)
		eq(t, "Huge", Huge(), math.Inf(1))`,
	},
	{
		// // CubeJVP returns x³ and its derivative along dx.
		// func CubeJVP(x, dx float64) (float64, float64) {
		//	y, dy := SquareJVP(x, dx)
		//	if x < 0 {
		//		panic("negative")
		//	}
		//	return y * x, dy*x + y*dx
		// }
		name: "derived",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("CubeJVP", ev.pkg)
			b.F.Doc = "CubeJVP returns x³ and its derivative along dx.\n\nIt panics for negative x."
			x, dx := b.Param("x", f64), b.Param("dx", f64)
			b.F.AddResult("", f64)
			b.F.AddResult("", f64)
			sq := ev.fn("SquareJVP")
			d := &ir.DerivedFunc{Name: "SquareJVP", Sig: sq.Type().(*types.Signature)}
			c := b.CallDerived(d, x, dx)
			y, dy := named(b.Extract(c, 0), "y"), named(b.Extract(c, 1), "dy")
			bad, ok := b.Block("if.then"), b.Block("if.done")
			b.If(b.Bin(token.LSS, x, b.Float(0)), bad, ok)
			b.At(bad)
			msg := b.Convert(types.NewInterfaceType(nil, nil), b.Const(str, constant.MakeString("negative")))
			b.B.NewValue(ir.OpPanic, nil, msg)
			b.At(ok)
			b.Return(b.Bin(token.MUL, y, x), b.Bin(token.ADD, b.Bin(token.MUL, dy, x), b.Bin(token.MUL, y, dx)))
			return one(b.F)
		},
		check: `y, dy := CubeJVP(2, 1)
		eq(t, "y", y, 8.0)
		eq(t, "dy", dy, 12.0)`,
	},
	{
		// func SumPos(x []float64) float64 {
		//	s := 0.0
		//	for _, v := range x {
		//		if v < 0 {
		//			continue
		//		}
		//		s += v
		//	}
		//	return s
		// }
		//
		// go/ssa steps the index at the top of the loop, from -1.
		name: "rangeloop",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("SumPos", ev.pkg)
			x := b.Param("x", f64s)
			b.F.AddResult("", f64)
			n := b.Len(x)
			loop, body, add, done := b.Block("rangeindex.loop"), b.Block("rangeindex.body"), b.Block("if.done"), b.Block("rangeindex.done")
			b.Jump(loop)
			b.At(loop)
			s, i := b.Phi("s", f64), b.Phi("", intT)
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.If(b.Bin(token.LSS, i2, n), body, done)
			b.At(body)
			v := named(b.Load(b.IndexAddr(x, i2)), "v")
			b.If(b.Bin(token.LSS, v, b.Float(0)), loop, add)
			b.At(add)
			s2 := named(b.Bin(token.ADD, s, v), "s")
			b.Jump(loop)
			b.At(done).Return(s)
			args(s, b.Float(0), s, s2) // preds: entry, body, add
			args(i, b.Int(-1), i2, i2)
			return one(b.F)
		},
		check: `eq(t, "SumPos", SumPos([]float64{1, -2, 3}), 4.0)`,
	},
	{
		// func Harmonic(n int) float64 {
		//	s := 0.0
		//	for i := range n {
		//		s += 1 / float64(i+1)
		//	}
		//	return s
		// }
		//
		// go/ssa makes a guarded do-while loop of range over an int.
		name: "rangeint",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Harmonic", ev.pkg)
			n := b.Param("n", intT)
			b.F.AddResult("", f64)
			body, done := b.Block("rangeint.body"), b.Block("rangeint.done")
			b.If(b.Bin(token.LSS, b.Int(0), n), body, done)
			b.At(body)
			s, i := b.Phi("s", f64), b.Phi("i", intT)
			q := b.Bin(token.QUO, b.Float(1), b.Convert(f64, b.Bin(token.ADD, i, b.Int(1))))
			s2 := named(b.Bin(token.ADD, s, q), "s")
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.If(b.Bin(token.LSS, i2, n), body, done)
			b.At(done)
			s3 := b.Phi("s", f64)
			b.Return(s3)
			args(s, b.Float(0), s2)
			args(i, b.Int(0), i2)
			args(s3, b.Float(0), s2)
			return one(b.F)
		},
		check: `near(t, "Harmonic(3)", Harmonic(3), 1+0.5+1.0/3)
		eq(t, "Harmonic(0)", Harmonic(0), 0.0)`,
	},
	{
		// func Fall(k int, x float64) float64 {
		//	s := 0.0
		//	switch k {
		//	case 3, 4:
		//		s = x * x * x
		//		fallthrough
		//	case 2:
		//		s += x * x
		//		fallthrough
		//	case 1:
		//		s += x
		//	}
		//	return s
		// }
		//
		// Jumps into a chain of merge nodes: small tails are duplicated.
		name: "fallthrough",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Fall", ev.pkg)
			k, x := b.Param("k", intT), b.Param("x", f64)
			b.F.AddResult("", f64)
			done, body3, body2, next4, next2, body1, next1 := b.Block("switch.done"), b.Block("switch.body"), b.Block("switch.body"),
				b.Block("switch.next"), b.Block("switch.next"), b.Block("switch.body"), b.Block("switch.next")
			b.If(b.Bin(token.EQL, k, b.Int(3)), body3, next4)
			b.At(next4).If(b.Bin(token.EQL, k, b.Int(4)), body3, next2)
			b.At(next2).If(b.Bin(token.EQL, k, b.Int(2)), body2, next1)
			b.At(next1).If(b.Bin(token.EQL, k, b.Int(1)), body1, done)
			b.At(body3)
			s1 := named(b.Bin(token.MUL, b.Bin(token.MUL, x, x), x), "s")
			b.Jump(body2)
			b.At(body2)
			s2 := b.Phi("s", f64)
			s3 := named(b.Bin(token.ADD, s2, b.Bin(token.MUL, x, x)), "s")
			b.Jump(body1)
			b.At(body1)
			s4 := b.Phi("s", f64)
			s5 := named(b.Bin(token.ADD, s4, x), "s")
			b.Jump(done)
			b.At(done)
			s6 := b.Phi("s", f64)
			b.Return(s6)
			args(s2, b.Float(0), s1) // preds: next2, body3
			args(s4, b.Float(0), s3) // preds: next1, body2
			args(s6, b.Float(0), s5) // preds: next1, body1
			return one(b.F)
		},
		check: `for k, want := range []float64{0, 2, 6, 14, 14} {
			eq(t, "Fall", Fall(k, 2), want)
		}`,
	},
	{
		// func Xor(a, b bool) bool { return a && !b || b && !a }
		name: "boolvalue",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Xor", ev.pkg)
			x, y := b.Param("a", boolT), b.Param("b", boolT)
			b.F.AddResult("", boolT)
			rhs, done, condTrue, rhs2, done2 := b.Block("binop.rhs"), b.Block("binop.done"), b.Block("cond.true"),
				b.Block("binop.rhs"), b.Block("binop.done")
			b.If(x, condTrue, rhs)
			b.At(condTrue).If(y, rhs, done)
			b.At(rhs).If(y, rhs2, done2)
			b.At(rhs2)
			na := b.Un(token.NOT, x)
			b.Jump(done2)
			b.At(done2)
			v2 := b.Phi("", boolT)
			args(v2, b.Bool(false), na) // preds: rhs, rhs2
			b.Jump(done)
			b.At(done)
			v := b.Phi("", boolT)
			args(v, b.Bool(true), v2) // preds: condTrue, done2
			b.Return(v)
			return one(b.F)
		},
		check: `eq(t, "Xor(true, false)", Xor(true, false), true)
		eq(t, "Xor(true, true)", Xor(true, true), false)
		eq(t, "Xor(false, true)", Xor(false, true), true)
		eq(t, "Xor(false, false)", Xor(false, false), false)`,
	},
	{
		// func Rotate(p Point, n int) Point {
		//	for i := 0; i < n; i++ {
		//		p = Point{-p.Y, p.X}
		//	}
		//	return p
		// }
		//
		// go/ssa keeps p in memory (its fields are used): a local copy of
		// the parameter, which the emitter keeps in the parameter.
		name: "paramcopy",
		build: func(ev *env) []*ir.Func {
			point := ev.typ("Point")
			b := irtest.NewBuilder("Rotate", ev.pkg)
			p, n := b.Param("p", point), b.Param("n", intT)
			b.F.AddResult("", point)
			pp := b.Alloc("p", point, false)
			b.Store(pp, p)
			loop, body, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			i := b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, n), body, done)
			b.At(body)
			q := b.Alloc("", point, false)
			b.Store(b.FieldAddr(q, 0), b.Un(token.SUB, b.Load(b.FieldAddr(pp, 1))))
			b.Store(b.FieldAddr(q, 1), b.Load(b.FieldAddr(pp, 0)))
			b.Store(pp, b.Load(q))
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done).Return(b.Load(pp))
			args(i, b.Int(0), i2)
			return one(b.F)
		},
		check: `eq(t, "Rotate", Rotate(Point{1, 2}, 3), Point{2, -1})`,
	},
	{
		// func MemOrder(x []float64, _ int, k float64) float64 {
		//	t := x[0]
		//	x[0] = k  // the load above must stay before this store
		//	return t + x[0]
		// }
		//
		// The third parameter has no name in the IR but is used.
		name: "memorder",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("MemOrder", ev.pkg)
			x, _, k := b.Param("x", f64s), b.Param("_", intT), b.Param("", f64)
			b.F.AddResult("", f64)
			a := b.IndexAddr(x, b.Int(0))
			l1 := b.Load(a)
			b.Store(a, k)
			l2 := b.Load(b.IndexAddr(x, b.Int(0)))
			b.Return(b.Bin(token.ADD, l1, l2))
			return one(b.F)
		},
		check: `x := []float64{1}
		eq(t, "MemOrder", MemOrder(x, 0, 5), 6.0)`,
	},
	{
		// The lost-copy shape: the φ x is used after the loop that
		// updates it, so x and its update cannot share a variable.
		//
		//	b1: x = φ(0, x'); x' = x + 1; if x' < n goto b1 else b2
		//	b2: return x
		name: "lostcopy",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("LastBefore", ev.pkg)
			n := b.Param("n", intT)
			b.F.AddResult("", intT)
			loop, done := b.Block("loop"), b.Block("done")
			b.Jump(loop)
			b.At(loop)
			x := b.Phi("x", intT)
			x2 := named(b.Bin(token.ADD, x, b.Int(1)), "x")
			b.If(b.Bin(token.LSS, x2, n), loop, done)
			b.At(done).Return(x)
			args(x, b.Int(0), x2)
			return one(b.F)
		},
		check: `eq(t, "LastBefore(5)", LastBefore(5), 4)`,
	},
	{
		// func Escape(x float64) float64 {
		//	var p Point
		//	p.X = x
		//	scale(&p, 2)
		//	return p.X
		// }
		//
		// func NewPoint(x float64) *Point {
		//	p := new(Point)
		//	p.X = x
		//	return p
		// }
		name: "addrtaken",
		build: func(ev *env) []*ir.Func {
			point := ev.typ("Point")
			b := irtest.NewBuilder("Escape", ev.pkg)
			x := b.Param("x", f64)
			b.F.AddResult("", f64)
			p := b.Alloc("p", point, false)
			b.Store(b.FieldAddr(p, 0), x)
			b.Call(ev.fn("scale"), p, b.Float(2))
			b.Return(b.Load(b.FieldAddr(p, 0)))

			b2 := irtest.NewBuilder("NewPoint", ev.pkg)
			x2 := b2.Param("x", f64)
			b2.F.AddResult("", types.NewPointer(point))
			q := b2.Alloc("p", point, true)
			b2.Store(b2.FieldAddr(q, 0), x2)
			b2.Return(q)
			return []*ir.Func{b.F, b2.F}
		},
		check: `eq(t, "Escape", Escape(3), 6.0)
		eq(t, "NewPoint", *NewPoint(3), Point{3, 0})`,
	},
	{
		// Types of every kind in a signature, conversions to interfaces
		// and a dynamic method call:
		//
		// func Kinds(m map[string][]float64, f func(float64) (float64, error), c chan<- int,
		//	s struct{ X int "json:\"x\"" }, a *[3]float64, g Box[float64], n Normer, e error) (int, any) {
		//	t := any(g.V)
		//	return len(m) + s.X, t
		// }
		//
		// func Boxed(x float64) (any, any, error) { t := any(x); return t, t, nil }
		//
		// func CallNorm(n Normer) float64 { return n.Norm() }
		name: "types",
		build: func(ev *env) []*ir.Func {
			box := ev.pkg.Scope().Lookup("Box").Type().(*types.Named)
			boxF, err := types.Instantiate(nil, box, []types.Type{f64}, true)
			if err != nil {
				panic(err)
			}
			normer := ev.typ("Normer")
			errT := types.Universe.Lookup("error").Type()
			anyT := types.Universe.Lookup("any").Type()
			st := types.NewStruct([]*types.Var{types.NewField(0, ev.pkg, "X", intT, false)}, []string{`json:"x"`})
			fn := types.NewSignatureType(nil, nil, nil,
				types.NewTuple(types.NewParam(0, nil, "", f64)),
				types.NewTuple(types.NewParam(0, nil, "", f64), types.NewParam(0, nil, "", errT)), false)
			b := irtest.NewBuilder("Kinds", ev.pkg)
			m := b.Param("m", types.NewMap(str, f64s))
			b.Param("f", fn)
			b.Param("c", types.NewChan(types.SendOnly, intT))
			s := b.Param("s", st)
			b.Param("a", types.NewPointer(types.NewArray(f64, 3)))
			g := b.Param("g", boxF)
			b.Param("n", normer)
			b.Param("e", errT)
			b.F.AddResult("", intT)
			b.F.AddResult("", anyT)
			tv := b.Convert(anyT, b.Field(g, 0))
			n := b.B.NewValue(ir.OpLen, intT, m)
			b.Return(b.Bin(token.ADD, n, b.Field(s, 0)), tv)

			b2 := irtest.NewBuilder("Boxed", ev.pkg)
			x := b2.Param("x", f64)
			b2.F.AddResult("", anyT)
			b2.F.AddResult("", anyT)
			b2.F.AddResult("", errT)
			bx := b2.Convert(anyT, x)
			b2.Return(bx, bx, b2.Const(errT, nil))

			b3 := irtest.NewBuilder("CallNorm", ev.pkg)
			nn := b3.Param("n", normer)
			b3.F.AddResult("", f64)
			norm := normer.Underlying().(*types.Interface).Method(0)
			call := b3.Call(norm, nn)
			call.Callee.Invoke = true
			b3.Return(call)
			return []*ir.Func{b.F, b2.F, b3.F}
		},
		check: `k, v := Kinds(map[string][]float64{"a": nil}, nil, nil, struct {
			X int ` + "`json:\"x\"`" + `
		}{2}, nil, Box[float64]{1.5}, nil, nil)
		eq(t, "Kinds", k, 3)
		eq(t, "Kinds any", v, any(1.5))
		bx, _, err := Boxed(2)
		eq(t, "Boxed", bx, any(2.0))
		eq(t, "Boxed err", err, nil)
		eq(t, "CallNorm", CallNorm(Point{3, 4}), 5.0)`,
	},
	{
		// func Sum(xs ...float64) float64 {
		//	s := 0.0
		//	for i := 0; i < len(xs); i++ {
		//		s += xs[i]
		//	}
		//	return s
		// }
		//
		// func Mean2(xs []float64) float64 { return mean(xs...) + mean(1, 2) }
		name: "variadic",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Sum", ev.pkg)
			b.F.Variadic = true
			xs := b.Param("xs", f64s)
			b.F.AddResult("", f64)
			loop, body, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
			b.Jump(loop)
			b.At(loop)
			s, i := b.Phi("s", f64), b.Phi("i", intT)
			b.If(b.Bin(token.LSS, i, b.Len(xs)), body, done)
			b.At(body)
			s2 := b.Bin(token.ADD, s, b.Load(b.IndexAddr(xs, i)))
			i2 := b.Bin(token.ADD, i, b.Int(1))
			b.Jump(loop)
			b.At(done).Return(s)
			args(s, b.Float(0), s2)
			args(i, b.Int(0), i2)

			b2 := irtest.NewBuilder("Mean2", ev.pkg)
			ys := b2.Param("xs", f64s)
			b2.F.AddResult("", f64)
			c1 := b2.Call(ev.fn("mean"), ys)
			c1.Callee.Spread = true
			c2 := b2.Call(ev.fn("mean"), b2.Float(1), b2.Float(2))
			b2.Return(b2.Bin(token.ADD, c1, c2))
			return []*ir.Func{b.F, b2.F}
		},
		check: `eq(t, "Sum", Sum(1, 2, 3), 6.0)
		eq(t, "Mean2", Mean2([]float64{2, 4}), 4.5)`,
	},
	{
		// An irreducible loop (two entries), which only goto expresses:
		//
		//	if odd { goto B }
		// A:	n--; if n > 0 { goto B }; return n
		// B:	n -= 2; if n > 0 { goto A }; return n
		name: "irreducible",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Irreducible", ev.pkg)
			n, odd := b.Param("n", intT), b.Param("odd", boolT)
			b.F.AddResult("", intT)
			ba, bb, exit := b.Block("A"), b.Block("B"), b.Block("exit")
			b.If(odd, bb, ba)
			b.At(ba)
			na := b.Phi("n", intT)
			na2 := named(b.Bin(token.SUB, na, b.Int(1)), "n")
			b.If(b.Bin(token.GTR, na2, b.Int(0)), bb, exit)
			b.At(bb)
			nb := b.Phi("n", intT)
			nb2 := named(b.Bin(token.SUB, nb, b.Int(2)), "n")
			b.If(b.Bin(token.GTR, nb2, b.Int(0)), ba, exit)
			b.At(exit)
			r := b.Phi("n", intT)
			b.Return(r)
			// ba preds: entry, bb; bb preds: entry, ba; exit preds: ba, bb.
			args(na, n, nb2)
			args(nb, n, na2)
			args(r, na2, nb2)
			return one(b.F)
		},
		check: `eq(t, "Irreducible(10, false)", Irreducible(10, false), 0)
		eq(t, "Irreducible(10, true)", Irreducible(10, true), -1)`,
	},
	{
		// func Square(x []float64) (float64, func(seed float64) float64) {
		//	var y float64
		//	for i := range x { y += x[i] * x[i] }  (a loop before)
		//	x0 := x[0]
		//	return y, func(seed float64) float64 {
		//		s := 0.0
		//		for i := 0; i < 3; i++ { s += seed * x0 }
		//		return s
		//	}
		// }
		// func UseSquare(x []float64) float64 {
		//	y, back := Square(x)
		//	x[0] = 100
		//	return y + back(2)
		// }
		//
		// A function split by a suspension (reverse mode's split reversal):
		// the continuation reads x0, loaded before the caller writes x[0].
		name: "suspend",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Square", ev.pkg)
			x := b.Param("x", f64s)
			seed := b.Param("seed", f64)
			b.F.AddResult("", f64)
			b.F.Suspend = &ir.Suspend{Names: []string{""}, Types: []types.Type{f64}, BackParams: 1, Back: "back"}
			head, body, done, loop, lbody, exit := b.Block("head"), b.Block("body"), b.Block("done"), b.Block("loop"), b.Block("lbody"), b.Block("exit")
			b.Jump(head)
			b.At(head)
			i := b.Phi("i", intT)
			y := b.Phi("y", f64)
			b.If(b.Bin(token.LSS, i, b.Len(x)), body, done)
			b.At(body)
			xi := b.Load(b.IndexAddr(x, i))
			y2 := named(b.Add(y, b.Mul(xi, xi)), "y")
			i2 := b.Add(i, b.Int(1))
			b.Jump(head)
			args(i, b.Int(0), i2)
			args(y, b.Float(0), y2)
			b.At(done)
			x0 := named(b.Load(b.IndexAddr(x, b.Int(0))), "x0")
			b.CallBuiltin(ir.SuspendBuiltin, nil, y, x)
			b.Jump(loop)
			b.At(loop)
			k := b.Phi("k", intT)
			s := b.Phi("s", f64)
			b.If(b.Bin(token.LSS, k, b.Int(3)), lbody, exit)
			b.At(lbody)
			s2 := named(b.Add(s, b.Mul(seed, x0)), "s")
			k2 := b.Add(k, b.Int(1))
			b.Jump(loop)
			args(k, b.Int(0), k2)
			args(s, b.Float(0), s2)
			b.At(exit)
			b.Return(s)

			back := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewParam(token.NoPos, nil, "seed", f64)), types.NewTuple(types.NewParam(token.NoPos, nil, "", f64)), false)
			sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewParam(token.NoPos, nil, "x", f64s)),
				types.NewTuple(types.NewParam(token.NoPos, nil, "", f64), types.NewParam(token.NoPos, nil, "back", back)), false)
			u := irtest.NewBuilder("UseSquare", ev.pkg)
			ux := u.Param("x", f64s)
			u.F.AddResult("", f64)
			call := u.CallDerived(&ir.DerivedFunc{Name: "Square", Sig: sig}, ux)
			uy, ub := u.Extract(call, 0), named(u.Extract(call, 1), "back")
			u.Store(u.IndexAddr(ux, u.Int(0)), u.Float(100))
			g := u.B.NewValue(ir.OpCall, f64, ub, u.Float(2))
			g.Callee = &ir.Callee{Value: true}
			u.Return(u.Add(uy, g))
			return []*ir.Func{b.F, u.F}
		},
		check: `near(t, "UseSquare", UseSquare([]float64{3, 4}), 25+18)`,
	},
	{
		// The irreducible loop of "irreducible" before a suspension: the
		// first half in goto form, the continuation a func literal of its
		// own, labels and gotos on each side.
		name: "suspendgoto",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("HalfIrreducible", ev.pkg)
			n, odd := b.Param("n", intT), b.Param("odd", boolT)
			seed := b.Param("seed", intT)
			b.F.AddResult("", intT)
			b.F.Suspend = &ir.Suspend{Names: []string{""}, Types: []types.Type{intT}, BackParams: 1, Back: "back"}
			ba, bb, exit, back, more, done := b.Block("A"), b.Block("B"), b.Block("exit"), b.Block("back"), b.Block("more"), b.Block("done")
			b.If(odd, bb, ba)
			b.At(ba)
			na := b.Phi("n", intT)
			na2 := named(b.Bin(token.SUB, na, b.Int(1)), "n")
			b.If(b.Bin(token.GTR, na2, b.Int(0)), bb, exit)
			b.At(bb)
			nb := b.Phi("n", intT)
			nb2 := named(b.Bin(token.SUB, nb, b.Int(2)), "n")
			b.If(b.Bin(token.GTR, nb2, b.Int(0)), ba, exit)
			b.At(exit)
			r := b.Phi("n", intT)
			b.CallBuiltin(ir.SuspendBuiltin, nil, r)
			b.Jump(back)
			b.At(back)
			b.If(b.Bin(token.GTR, seed, b.Int(0)), more, done)
			b.At(more)
			b.Return(b.Add(seed, r))
			b.At(done)
			b.Return(r)
			args(na, n, nb2)
			args(nb, n, na2)
			args(r, na2, nb2)
			return one(b.F)
		},
		check: `v, back := HalfIrreducible(10, true)
		eq(t, "HalfIrreducible", v, -1)
		eq(t, "back(5)", back(5), 4)`,
	},
	{
		// func Overwritten(x []float64, c bool) float64 {
		//	e := Mark(x) // writes x[0] on every path
		//	if c {
		//		e = 2
		//	}
		//	return e + x[0]
		// }
		//
		// e's φ takes the call's result on the edge out of the branch: the
		// call stays a statement before the if, not a copy on that edge
		// (found by difftest: a gradient call writing its shadow moved into
		// an else branch).
		name: "effectphi",
		build: func(ev *env) []*ir.Func {
			b := irtest.NewBuilder("Overwritten", ev.pkg)
			x, c := b.Param("x", f64s), b.Param("c", boolT)
			b.F.AddResult("", f64)
			then, join := b.Block("then"), b.Block("join")
			m := named(b.Call(ev.fn("Mark"), x), "e")
			b.If(c, then, join)
			b.At(then)
			b.Jump(join)
			b.At(join)
			e := b.Phi("e", f64)
			args(e, m, b.Float(2))
			b.Return(b.Add(e, b.Load(b.IndexAddr(x, b.Int(0)))))
			return one(b.F)
		},
		check: `eq(t, "Overwritten(true)", Overwritten([]float64{1}, true), 7.0)
		eq(t, "Overwritten(false)", Overwritten([]float64{1}, false), 6.0)`,
	},
}
