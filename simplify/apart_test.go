package simplify_test

import (
	"go/constant"
	"go/token"
	"go/types"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
)

// aliasCheck appends, at b's current block, the check that slices a and c
// (named an and cn) of function fn do not start at the same element, as
// reverse mode builds it (ir.AliasCheck), and leaves b after it.
func aliasCheck(b *irtest.Builder, fn string, a, c *ir.Value, an, cn string) {
	check, fail, next := b.Block("alias"), b.Block("alias.fail"), b.Block("alias.ok")
	nonEmpty := func(s *ir.Value) *ir.Value { return b.Bin(token.GTR, b.Cap(s), b.Int(0)) }
	b.If(b.Bin(token.LAND, nonEmpty(a), nonEmpty(c)), check, next)
	b.At(check)
	first := func(s *ir.Value) *ir.Value { return b.IndexAddr(b.Slice(s, nil, b.Int(1), nil), b.Int(0)) }
	b.If(b.Bin(token.EQL, first(a), first(c)), fail, next)
	b.At(fail)
	msg := b.Const(types.Typ[types.String], constant.MakeString(ir.AliasMessage(fn, an, cn)))
	b.Panic(b.Convert(types.NewInterfaceType(nil, nil), msg))
	b.At(next)
}

// branchPhis appends `if len(x) > 0 { p, q = then(), then() } else { p, q =
// els(), els() }` at b's current block and returns the φs p and q.
func branchPhis(b *irtest.Builder, x *ir.Value, then, els func(*irtest.Builder) *ir.Value) (*ir.Value, *ir.Value) {
	tb, eb, join := b.Block("then"), b.Block("else"), b.Block("join")
	b.If(b.Bin(token.GTR, b.Len(x), b.Int(0)), tb, eb)
	b.At(tb)
	t1, t2 := then(b), then(b)
	b.Jump(join)
	b.At(eb)
	e1, e2 := els(b), els(b)
	b.Jump(join)
	b.At(join)
	p, q := b.Phi("p", slice), b.Phi("q", slice)
	irtest.SetArgs(p, t1, e1)
	irtest.SetArgs(q, t2, e2)
	return p, q
}

// TestDropApartChecks: the check of a callee's reverse F(a, aBar) goes
// when every call passes slices apart — two the caller made, one it made
// and a parameter, or two parameters it checks itself, sliced from one
// offset, or φs of such slices and nil — and stays when one call passes
// slices of one slice, parameters the caller does not check against each
// other or sliced from different offsets, a φ that may be the other
// slice, and when F is not internal.
func TestDropApartChecks(t *testing.T) {
	type args func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value)
	made := func(b *irtest.Builder) *ir.Value { return b.MakeSlice(slice, b.Int(3), nil) }
	from := func(b *irtest.Builder, s *ir.Value, lo int64) *ir.Value { return b.Slice(s, b.Int(lo), nil, nil) }
	cases := []struct {
		name     string
		sites    []args
		internal bool
		dropped  bool
	}{
		{"made", []args{func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) {
			return made(b), made(b)
		}}, true, true},
		{"made and a parameter", []args{func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) {
			return from(b, made(b), 1), y
		}}, true, true},
		{"checked, one offset", []args{func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) {
			return from(b, x, 1), from(b, xBar, 1)
		}}, true, true},
		{"checked, two offsets", []args{func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) {
			return from(b, x, 1), from(b, xBar, 2)
		}}, true, false},
		{"unchecked", []args{func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) {
			return x, y
		}}, true, false},
		{"one slice", []args{func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) {
			return x, from(b, x, 1)
		}}, true, false},
		{"one call of two", []args{
			func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) { return made(b), made(b) },
			func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) { return x, y },
		}, true, false},
		{"φs of made slices and nil", []args{func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) {
			p, q := branchPhis(b, x, made, func(b *irtest.Builder) *ir.Value { return b.Const(slice, nil) })
			return p, q
		}}, true, true},
		{"a φ that may be the other slice", []args{func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) {
			p, _ := branchPhis(b, x, made, func(*irtest.Builder) *ir.Value { return y })
			return p, y
		}}, true, false},
		{"not internal", []args{func(b *irtest.Builder, x, xBar, y *ir.Value) (*ir.Value, *ir.Value) {
			return made(b), made(b)
		}}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fb := irtest.NewBuilder("F", pkg)
			a, aBar := fb.Param("a", slice), fb.Param("aBar", slice)
			aliasCheck(fb, "F", a, aBar, "a", "aBar")
			fb.Return()
			f := fb.F
			d := &ir.DerivedFunc{Name: "F", Sig: types.NewSignatureType(nil, nil, nil, types.NewTuple(
				types.NewParam(token.NoPos, nil, "a", slice), types.NewParam(token.NoPos, nil, "aBar", slice)), nil, false)}

			cb := irtest.NewBuilder("G", pkg)
			x, xBar, y := cb.Param("x", slice), cb.Param("xBar", slice), cb.Param("y", slice)
			aliasCheck(cb, "G", x, xBar, "x", "xBar")
			for _, site := range c.sites {
				p, q := site(cb, x, xBar, y)
				cb.CallDerived(d, p, q)
			}
			cb.Return()
			g := cb.F

			internal := func(fn *ir.Func) bool { return fn == f && c.internal }
			callee := func(v *ir.Value) *ir.Func {
				if v.Callee.Derived == d {
					return f
				}
				return nil
			}
			all := simplify.DropApartChecks([]*ir.Func{f, g}, internal, callee)
			for _, fn := range []*ir.Func{f, g} {
				if err := ir.Check(fn); err != nil {
					t.Fatalf("%v\n%s", err, fn)
				}
			}
			_, kept := ir.FindAliasCheck(f.Entry())
			if kept == c.dropped || all[f] != c.dropped {
				t.Errorf("F's check kept: %v (reported all dropped: %v), want dropped %v:\n%s\n%s", kept, all[f], c.dropped, f, g)
			}
			if _, ok := ir.FindAliasCheck(g.Entry()); !ok {
				t.Errorf("G, which is not internal, lost its check:\n%s", g)
			}
		})
	}
}
