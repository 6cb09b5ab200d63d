package simplify_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
)

// TestReleaseTemporaries builds functions of fresh temporaries and checks
// which ones the release before the return names: those used twice that
// nothing returned, stored or given to another function shares, in a
// block that runs once and dominates the return.
func TestReleaseTemporaries(t *testing.T) {
	fn, tensor := fakeTensorops()
	cases := []struct {
		name  string
		build func(b *irtest.Builder, x, y, c *ir.Value)
		want  string // the names released, "" for no release
	}{
		{"temporary", func(b *irtest.Builder, x, y, c *ir.Value) {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			b.Return(b.Call(fn["Mul"], p, p))
		}, "p"},
		{"used once", func(b *irtest.Builder, x, y, c *ir.Value) {
			b.Return(b.Call(fn["Exp"], b.Call(fn["MatMul"], x, y)))
		}, ""},
		{"returned", func(b *irtest.Builder, x, y, c *ir.Value) {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			b.Call(fn["Exp"], p)
			b.Return(p)
		}, ""},
		{"returned through SumLike", func(b *irtest.Builder, x, y, c *ir.Value) {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			b.Call(fn["Exp"], p)
			b.Return(b.Call(fn["SumLike"], p, y))
		}, ""},
		{"returned through FuseInto", func(b *irtest.Builder, x, y, c *ir.Value) {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			any := types.Universe.Lookup("any").Type()
			b.Return(b.Call(fn["FuseInto"], p, b.Const(types.Typ[types.String], nil), b.Convert(any, p)))
		}, ""},
		{"through a φ", func(b *irtest.Builder, x, y, c *ir.Value) {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			b.Call(fn["Exp"], p)
			join := b.Block("join")
			b.Jump(join)
			b.At(join)
			phi := b.Phi("r", tensor)
			phi.Args = []*ir.Value{p}
			b.Return(phi)
		}, ""},
		{"accumulated into a parameter", func(b *irtest.Builder, x, y, c *ir.Value) {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			b.Return(b.Call(fn["Accumulate"], x, b.Call(fn["Mul"], p, p)))
		}, "p"},
		{"stored", func(b *irtest.Builder, x, y, c *ir.Value) {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			b.Store(b.Alloc("keep", tensor, true), p)
			b.Return(b.Call(fn["Mul"], p, p))
		}, ""},
		{"given to a generated function", func(b *irtest.Builder, x, y, c *ir.Value) {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			b.CallHelper("keepIt", nil, p)
			b.Return(b.Call(fn["Mul"], p, p))
		}, ""},
		{"in a loop", func(b *irtest.Builder, x, y, c *ir.Value) {
			loop, exit := b.Block("loop"), b.Block("exit")
			b.Jump(loop)
			b.At(loop)
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			b.Call(fn["Mul"], p, p)
			b.If(c, loop, exit)
			b.At(exit)
			b.Return(x)
		}, ""},
		{"in a branch", func(b *irtest.Builder, x, y, c *ir.Value) {
			then, join := b.Block("then"), b.Block("join")
			q := irtest.Named(b.Call(fn["MatMul"], y, x), "q")
			b.Call(fn["Mul"], q, q)
			b.If(c, then, join)
			b.At(then)
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			b.Call(fn["Mul"], p, p)
			b.Jump(join)
			b.At(join)
			b.Return(x)
		}, "q"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := irtest.NewBuilder("F", pkg)
			x, y := b.Param("x", tensor), b.Param("y", tensor)
			cond := b.Param("c", types.Typ[types.Bool])
			b.F.AddResult("", tensor)
			c.build(b, x, y, cond)
			b.F.Renumber()
			simplify.ReleaseTemporaries(b.F, &explainer{})
			if err := ir.Check(b.F); err != nil {
				t.Fatalf("%v\n%s", err, b.F)
			}
			var got []string
			for _, blk := range b.F.Blocks {
				for _, v := range blk.Instrs {
					if v.Op == ir.OpCall && v.Callee.Func != nil && v.Callee.Func.Name() == "Release" {
						if i := len(blk.Instrs) - 2; blk.Instrs[i] != v || blk.Instrs[i+1].Op != ir.OpReturn {
							t.Errorf("the release is not just before the return\n%s", b.F)
						}
						for _, a := range v.Args {
							got = append(got, a.Name)
						}
					}
				}
			}
			if s := strings.Join(got, " "); s != c.want {
				t.Errorf("released %q, want %q\n%s", s, c.want, b.F)
			}
		})
	}
}
