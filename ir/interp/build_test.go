package interp_test

// This file defines a small builder of IR functions for the tests of
// package interp.

import (
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"sync"
	"testing"

	"github.com/gadgen/gadgen/ir"
)

var (
	tFloat64 = types.Typ[types.Float64]
	tFloat32 = types.Typ[types.Float32]
	tInt     = types.Typ[types.Int]
	tBool    = types.Typ[types.Bool]
	tString  = types.Typ[types.String]
	pkg      = types.NewPackage("example.com/p", "p")
)

// builder appends values to the current block b of f.
type builder struct {
	f *ir.Func
	b *ir.Block
}

// newBuilder returns a builder of a function named name whose entry block
// is current.
func newBuilder(name string) *builder {
	f := ir.NewFunc(name, pkg)
	return &builder{f: f, b: f.NewBlock("entry")}
}

func (b *builder) param(name string, t types.Type) *ir.Value { return b.f.AddParam(name, t) }
func (b *builder) result(t types.Type)                       { b.f.AddResult("", t) }
func (b *builder) block(comment string) *ir.Block            { return b.f.NewBlock(comment) }
func (b *builder) at(blk *ir.Block)                          { b.b = blk }

func (b *builder) op(op ir.Op, t types.Type, args ...*ir.Value) *ir.Value {
	return b.b.NewValue(op, t, args...)
}

func isComparison(tok token.Token) bool {
	switch tok {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// bin returns x tok y, of type bool for comparisons and x's type
// otherwise.
func (b *builder) bin(tok token.Token, x, y *ir.Value) *ir.Value {
	t := x.Type
	if isComparison(tok) {
		t = tBool
	}
	v := b.op(ir.OpBinary, t, x, y)
	v.Tok = tok
	return v
}

func (b *builder) un(tok token.Token, x *ir.Value) *ir.Value {
	v := b.op(ir.OpUnary, x.Type, x)
	v.Tok = tok
	return v
}

func (b *builder) konst(t types.Type, c constant.Value) *ir.Value { return b.f.ConstValue(t, c) }
func (b *builder) f64(x float64) *ir.Value                        { return b.konst(tFloat64, constant.MakeFloat64(x)) }
func (b *builder) int(x int) *ir.Value                            { return b.konst(tInt, constant.MakeInt64(int64(x))) }
func (b *builder) zero(t types.Type) *ir.Value                    { return b.konst(t, nil) }

func (b *builder) convert(x *ir.Value, t types.Type) *ir.Value {
	return b.op(ir.OpConvert, t, x)
}

func (b *builder) alloc(t types.Type) *ir.Value {
	return b.op(ir.OpAlloc, types.NewPointer(t))
}

func elem(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	}
	panic("elem of " + t.String())
}

func (b *builder) load(p *ir.Value) *ir.Value { return b.op(ir.OpLoad, elem(p.Type), p) }
func (b *builder) store(p, x *ir.Value)       { b.op(ir.OpStore, nil, p, x) }

func (b *builder) indexAddr(s, i *ir.Value) *ir.Value {
	t := elem(s.Type)
	if _, ok := s.Type.Underlying().(*types.Pointer); ok {
		t = elem(t)
	}
	return b.op(ir.OpIndexAddr, types.NewPointer(t), s, i)
}

func (b *builder) fieldAddr(p *ir.Value, i int) *ir.Value {
	st := elem(p.Type).Underlying().(*types.Struct)
	v := b.op(ir.OpFieldAddr, types.NewPointer(st.Field(i).Type()), p)
	v.Index = i
	return v
}

func (b *builder) field(x *ir.Value, i int) *ir.Value {
	st := x.Type.Underlying().(*types.Struct)
	v := b.op(ir.OpField, st.Field(i).Type(), x)
	v.Index = i
	return v
}

// call calls fn, typing the result from its signature.
func (b *builder) call(fn *types.Func, args ...*ir.Value) *ir.Value {
	res := fn.Type().(*types.Signature).Results()
	var t types.Type
	switch res.Len() {
	case 0:
	case 1:
		t = res.At(0).Type()
	default:
		t = res
	}
	v := b.op(ir.OpCall, t, args...)
	v.Callee = &ir.Callee{Func: fn}
	return v
}

func (b *builder) builtin(name string, t types.Type, args ...*ir.Value) *ir.Value {
	v := b.op(ir.OpCall, t, args...)
	v.Callee = &ir.Callee{Builtin: name}
	return v
}

func (b *builder) extract(x *ir.Value, i int) *ir.Value {
	v := b.op(ir.OpExtract, x.Type.(*types.Tuple).At(i).Type(), x)
	v.Index = i
	return v
}

// phi returns a φ-node of type t; set its Args once the predecessors'
// values exist.
func (b *builder) phi(t types.Type) *ir.Value { return b.op(ir.OpPhi, t) }

func (b *builder) ret(xs ...*ir.Value) { b.b.Return(xs...) }

// sig returns a *types.Func named name with the signature of f.
func sig(f *ir.Func) *types.Func {
	var ps, rs []*types.Var
	for _, p := range f.Params {
		ps = append(ps, types.NewParam(token.NoPos, pkg, p.Name, p.Type))
	}
	for _, t := range f.ResultTypes {
		rs = append(rs, types.NewParam(token.NoPos, pkg, "", t))
	}
	return types.NewFunc(token.NoPos, pkg, f.Name, types.NewSignatureType(nil, nil, nil, types.NewTuple(ps...), types.NewTuple(rs...), false))
}

// mathPkg returns package math as go/types sees it.
var mathPkg = sync.OnceValues(func() (*types.Package, error) {
	return importer.ForCompiler(token.NewFileSet(), "source", nil).Import("math")
})

// mathFunc returns the *types.Func of math.name.
func mathFunc(t testing.TB, name string) *types.Func {
	t.Helper()
	p, err := mathPkg()
	if err != nil {
		t.Fatal(err)
	}
	fn, ok := p.Scope().Lookup(name).(*types.Func)
	if !ok {
		t.Fatalf("no function math.%s", name)
	}
	return fn
}

// checked returns f after checking it with ir.Check.
func checked(t testing.TB, f *ir.Func) *ir.Func {
	t.Helper()
	if err := ir.Check(f); err != nil {
		t.Fatal(err)
	}
	return f
}
