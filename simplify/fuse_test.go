package simplify_test

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/templates"
)

// fakeTensorops returns a package with the path of the tensor runtime
// that declares Tensor and the functions the fusion tests call, with the
// runtime's signatures, and *Tensor.
func fakeTensorops() (map[string]*types.Func, types.Type) {
	pkg := types.NewPackage(templates.TensorPkg, "tensorops")
	obj := types.NewTypeName(token.NoPos, pkg, "Tensor", nil)
	tensor := types.NewPointer(types.NewNamed(obj, types.NewStruct(nil, nil), nil))
	pkg.Scope().Insert(obj)
	f64 := types.Typ[types.Float64]
	anyT := types.Universe.Lookup("any").Type()
	funcs := map[string]*types.Func{}
	decl := func(name string, variadic bool, params ...types.Type) {
		var vs []*types.Var
		for _, p := range params {
			vs = append(vs, types.NewParam(token.NoPos, pkg, "", p))
		}
		res := types.NewTuple(types.NewParam(token.NoPos, pkg, "", tensor))
		sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(vs...), res, variadic)
		fn := types.NewFunc(token.NoPos, pkg, name, sig)
		pkg.Scope().Insert(fn)
		funcs[name] = fn
	}
	for _, name := range []string{"Add", "Mul", "Sub", "TanhJVP", "Accumulate", "MatMul", "SumLike"} {
		decl(name, false, tensor, tensor)
	}
	for _, name := range []string{"Exp", "Neg", "Tanh"} {
		decl(name, false, tensor)
	}
	decl("Scale", false, tensor, f64)
	decl("AddScalar", false, tensor, f64)
	decl("Affine", false, tensor, f64, f64)
	decl("ScalarDiv", false, f64, tensor)
	decl("Fuse", true, types.Typ[types.String], types.NewSlice(anyT))
	decl("FuseInto", true, tensor, types.Typ[types.String], types.NewSlice(anyT))
	release := types.NewFunc(token.NoPos, pkg, "Release", types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewParam(token.NoPos, pkg, "ts", types.NewSlice(tensor))), nil, true))
	pkg.Scope().Insert(release)
	funcs["Release"] = release
	return funcs, tensor
}

// explainer records the rules that fire.
type explainer struct{ rules []string }

func (e *explainer) Effects(*types.Func) *simplify.Effects { return nil }
func (e *explainer) Body(*types.Func) *ir.Func             { return nil }
func (e *explainer) Fired(rule string, _ token.Pos)        { e.rules = append(e.rules, rule) }

// fuseCall returns the expression and the operands of the only call of
// Fuse in f, or "" when there is none.
func fuseCall(t *testing.T, f *ir.Func) (string, []*ir.Value) {
	t.Helper()
	expr, n := "", 0
	var operands []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpCall || v.Callee.Func == nil || v.Callee.Func.Name() != "Fuse" {
				continue
			}
			n++
			expr = constant.StringVal(v.Args[0].Const)
			for _, a := range v.Args[1:] {
				if a.Op != ir.OpConvert {
					t.Errorf("operand %s of Fuse is not converted to any", a.LongString(nil))
				}
				operands = append(operands, a.Args[0])
			}
		}
	}
	if n > 1 {
		t.Errorf("%d calls of Fuse, want at most 1:\n%s", n, f)
	}
	return expr, operands
}

// TestFuseElementwise builds chains of elementwise calls and checks the
// expression fusion writes for them, its operands, and where it must not
// fuse: a value with two uses, a write between an operation and its use,
// a use in another block, a lone operation.
func TestFuseElementwise(t *testing.T) {
	fn, tensor := fakeTensorops()
	f64 := irtest.Float64
	cases := []struct {
		name     string
		build    func(b *irtest.Builder, x, y, z, w, s *ir.Value) *ir.Value
		expr     string
		operands string // the names of the operands
		calls    int    // calls left besides Fuse
	}{
		{"product rule", func(b *irtest.Builder, h, g, dh, dg, s *ir.Value) *ir.Value {
			t1 := b.Call(fn["Mul"], b.Call(fn["Mul"], b.Call(fn["Scale"], h, b.Float(-2)), g), dh)
			t2 := b.Call(fn["Mul"], b.Call(fn["Affine"], b.Call(fn["Mul"], h, h), b.Float(-1), b.Float(1)), dg)
			return b.Call(fn["Add"], t1, t2)
		}, "-2*a*b*c + (1 - a*a)*d", "x y z w", 0},
		{"scalar operand", func(b *irtest.Builder, x, y, z, w, s *ir.Value) *ir.Value {
			return b.Call(fn["Scale"], b.Call(fn["Add"], x, b.Call(fn["AddScalar"], y, s)), s)
		}, "a*(b + (c + a))", "s x y", 0},
		{"forms", func(b *irtest.Builder, x, y, z, w, s *ir.Value) *ir.Value {
			q := b.Call(fn["Mul"], b.Call(fn["ScalarDiv"], b.Float(1), x), b.Call(fn["AddScalar"], y, b.Float(-0.5)))
			n := b.Call(fn["Neg"], b.Call(fn["Sub"], z, b.Call(fn["Neg"], w)))
			return b.Call(fn["TanhJVP"], b.Call(fn["Tanh"], q), b.Call(fn["Scale"], n, b.Float(0.1)))
		}, "TanhJVP(Tanh(1/a*(b - 0.5)), 0.1*(-(c - (-d))))", "x y z w", 0},
		{"two uses", func(b *irtest.Builder, x, y, z, w, s *ir.Value) *ir.Value {
			e := b.Call(fn["Exp"], x)
			return b.Call(fn["Add"], e, b.Call(fn["Mul"], e, y))
		}, "a + a*b", "t y", 1},
		{"a write between", func(b *irtest.Builder, x, y, z, w, s *ir.Value) *ir.Value {
			m := b.Call(fn["Mul"], x, y)
			b.Call(fn["Accumulate"], z, w)
			return b.Call(fn["Add"], m, z)
		}, "", "", 3},
		{"a product", func(b *irtest.Builder, x, y, z, w, s *ir.Value) *ir.Value {
			return b.Call(fn["Exp"], b.Call(fn["MatMul"], b.Call(fn["Neg"], x), y))
		}, "", "", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := irtest.NewBuilder("F", pkg)
			x, y, z, w := b.Param("x", tensor), b.Param("y", tensor), b.Param("z", tensor), b.Param("w", tensor)
			s := b.Param("s", f64)
			b.F.AddResult("", tensor)
			r := c.build(b, x, y, z, w, s)
			b.B.Return(r)
			env := &explainer{}
			simplify.FuseElementwise(b.F, env)
			if err := ir.Check(b.F); err != nil {
				t.Fatalf("%v\n%s", err, b.F)
			}
			expr, operands := fuseCall(t, b.F)
			if expr != c.expr {
				t.Errorf("expression %q, want %q\n%s", expr, c.expr, b.F)
			}
			var names []string
			for _, o := range operands {
				name := o.Name
				if name == "" {
					name = "t"
				}
				names = append(names, name)
			}
			if got := strings.Join(names, " "); got != c.operands {
				t.Errorf("operands %s, want %s", got, c.operands)
			}
			calls := 0
			for _, v := range b.F.Blocks[0].Instrs {
				if v.Op == ir.OpCall && v.Callee.Func.Name() != "Fuse" {
					calls++
				}
			}
			if calls != c.calls {
				t.Errorf("%d other calls, want %d\n%s", calls, c.calls, b.F)
			}
			if fired := len(env.rules) > 0; fired != (c.expr != "") {
				t.Errorf("rules fired: %v", env.rules)
			}
		})
	}
}

// TestFuseBlocks: an operation used in another block stays there.
func TestFuseBlocks(t *testing.T) {
	fn, tensor := fakeTensorops()
	b := irtest.NewBuilder("F", pkg)
	x, y := b.Param("x", tensor), b.Param("y", tensor)
	b.F.AddResult("", tensor)
	m := b.Call(fn["Mul"], x, y)
	next := b.Block("next")
	b.Jump(next)
	b.At(next)
	b.B.Return(b.Call(fn["Exp"], m))
	simplify.FuseElementwise(b.F, nil)
	if expr, _ := fuseCall(t, b.F); expr != "" {
		t.Errorf("fused across blocks: %q\n%s", expr, b.F)
	}
}

// TestReuseBuffers builds elementwise operations of fresh and shared
// operands and checks which buffer each writes into: a fresh operand
// that nothing else reads (its shape aside), never a parameter, a value
// read twice, one from another block, or one stored.
func TestReuseBuffers(t *testing.T) {
	fn, tensor := fakeTensorops()
	cases := []struct {
		name  string
		build func(b *irtest.Builder, x, y *ir.Value) *ir.Value
		dst   string // the name of FuseInto's dst, "" for none
		expr  string
	}{
		{"fresh product", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Call(fn["Tanh"], irtest.Named(b.Call(fn["MatMul"], x, y), "p"))
		}, "p", "Tanh(a)"},
		{"shape read after", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			s := b.Call(fn["Add"], p, y)
			return b.Call(fn["SumLike"], s, p)
		}, "p", "a + b"},
		{"fused", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			return b.Call(fn["TanhJVP"], x, b.Call(fn["Mul"], y, p))
		}, "p", "TanhJVP(a, b*c)"},
		{"through SumLike", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			s := irtest.Named(b.Call(fn["SumLike"], b.Call(fn["Exp"], x), y), "s")
			return b.Call(fn["Neg"], s)
		}, "s", "-a"},
		{"parameters", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Call(fn["Mul"], x, y)
		}, "", ""},
		{"read twice", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			return b.Call(fn["Add"], b.Call(fn["Exp"], p), irtest.Named(b.Call(fn["MatMul"], p, y), "q"))
		}, "q", "Exp(a) + b"},
		{"read twice in one expression", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			p := irtest.Named(b.Call(fn["MatMul"], x, y), "p")
			return b.Call(fn["Add"], b.Call(fn["Exp"], p), b.Call(fn["Tanh"], p))
		}, "p", "Exp(a) + Tanh(a)"},
		{"SumLike of a shared value", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			e := b.Call(fn["Exp"], x)
			return b.Call(fn["Mul"], b.Call(fn["SumLike"], e, y), e)
		}, "", ""},
		{"stored", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			p := b.Call(fn["MatMul"], x, y)
			b.Store(b.Alloc("keep", tensor, true), p)
			return b.Call(fn["Exp"], p)
		}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := irtest.NewBuilder("F", pkg)
			x, y := b.Param("x", tensor), b.Param("y", tensor)
			b.F.AddResult("", tensor)
			b.B.Return(c.build(b, x, y))
			env := &explainer{}
			simplify.FuseElementwise(b.F, env)
			simplify.ReuseBuffers(b.F, env)
			if err := ir.Check(b.F); err != nil {
				t.Fatalf("%v\n%s", err, b.F)
			}
			dst, expr := "", ""
			for _, v := range b.F.Blocks[0].Instrs {
				if v.Op == ir.OpCall && v.Callee.Func.Name() == "FuseInto" {
					dst, expr = v.Args[0].Name, constant.StringVal(v.Args[1].Const)
				}
			}
			if dst != c.dst || expr != c.expr {
				t.Errorf("FuseInto into %q of %q, want %q of %q\n%s", dst, expr, c.dst, c.expr, b.F)
			}
			if reused := slices.Contains(env.rules, "reuse-buffer"); reused != (c.dst != "") {
				t.Errorf("rules fired: %v", env.rules)
			}
		})
	}
}
