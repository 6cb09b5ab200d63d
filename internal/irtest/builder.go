package irtest

// This file defines Builder, a terse way to write IR by hand in tests.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// Builder appends values to a current block of a function.
type Builder struct {
	F *ir.Func
	B *ir.Block
}

// NewBuilder returns a builder of a new function name in pkg, positioned
// at its entry block.
func NewBuilder(name string, pkg *types.Package) *Builder {
	f := ir.NewFunc(name, pkg)
	return &Builder{F: f, B: f.NewBlock("entry")}
}

// Block returns a new block (the current block does not change).
func (b *Builder) Block(comment string) *ir.Block { return b.F.NewBlock(comment) }

// At makes blk the current block and returns b.
func (b *Builder) At(blk *ir.Block) *Builder {
	b.B = blk
	return b
}

// Param appends a parameter.
func (b *Builder) Param(name string, t types.Type) *ir.Value { return b.F.AddParam(name, t) }

// Result appends an unnamed result of type t.
func (b *Builder) Result(t types.Type) { b.F.AddResult("", t) }

// Const returns a constant of type t; nil means the zero value.
func (b *Builder) Const(t types.Type, c constant.Value) *ir.Value { return b.F.ConstValue(t, c) }

// Float returns a float64 constant.
func (b *Builder) Float(x float64) *ir.Value { return b.F.ConstValue(Float64, constant.MakeFloat64(x)) }

// Int returns an int constant.
func (b *Builder) Int(x int64) *ir.Value { return b.F.ConstValue(Int, constant.MakeInt64(x)) }

// Bool returns a bool constant.
func (b *Builder) Bool(x bool) *ir.Value { return b.F.ConstValue(Bool, constant.MakeBool(x)) }

// Named sets v's source name and returns v.
func Named(v *ir.Value, name string) *ir.Value {
	v.Name = name
	return v
}

// Bin appends x tok y: bool for comparisons, x's type otherwise.
func (b *Builder) Bin(tok token.Token, x, y *ir.Value) *ir.Value {
	t := x.Type
	switch tok {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		t = Bool
	}
	v := b.B.NewValue(ir.OpBinary, t, x, y)
	v.Tok = tok
	return v
}

// Add appends x + y.
func (b *Builder) Add(x, y *ir.Value) *ir.Value { return b.Bin(token.ADD, x, y) }

// Sub appends x - y.
func (b *Builder) Sub(x, y *ir.Value) *ir.Value { return b.Bin(token.SUB, x, y) }

// Mul appends x * y.
func (b *Builder) Mul(x, y *ir.Value) *ir.Value { return b.Bin(token.MUL, x, y) }

// Quo appends x / y.
func (b *Builder) Quo(x, y *ir.Value) *ir.Value { return b.Bin(token.QUO, x, y) }

// Un appends tok x.
func (b *Builder) Un(tok token.Token, x *ir.Value) *ir.Value {
	v := b.B.NewValue(ir.OpUnary, x.Type, x)
	v.Tok = tok
	return v
}

// Phi appends a φ of type t named name; set its arguments with SetArgs
// once the predecessors' values exist.
func (b *Builder) Phi(name string, t types.Type) *ir.Value {
	v := b.B.NewValue(ir.OpPhi, t)
	v.Name = name
	return v
}

// SetArgs sets the arguments of φ v, in the order of its block's Preds.
func SetArgs(v *ir.Value, args ...*ir.Value) { v.Args = args }

// Convert appends t(x).
func (b *Builder) Convert(t types.Type, x *ir.Value) *ir.Value {
	return b.B.NewValue(ir.OpConvert, t, x)
}

// Select appends "a if c else d".
func (b *Builder) Select(c, a, d *ir.Value) *ir.Value {
	return b.B.NewValue(ir.OpSelect, a.Type, c, a, d)
}

// Len appends len(x).
func (b *Builder) Len(x *ir.Value) *ir.Value { return b.B.NewValue(ir.OpLen, Int, x) }

// Cap appends cap(x).
func (b *Builder) Cap(x *ir.Value) *ir.Value { return b.B.NewValue(ir.OpCap, Int, x) }

// MakeSlice appends make(t, n, c) for slice type t; c nil means make(t, n).
func (b *Builder) MakeSlice(t types.Type, n, c *ir.Value) *ir.Value {
	return b.B.NewValue(ir.OpMakeSlice, t, n, c)
}

// Slice appends x[lo:hi:max], x a slice, a string or a pointer to an
// array; a nil bound is left out.
func (b *Builder) Slice(x, lo, hi, max *ir.Value) *ir.Value {
	t := x.Type
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = types.NewSlice(p.Elem().Underlying().(*types.Array).Elem())
	}
	return b.B.NewValue(ir.OpSlice, t, x, lo, hi, max)
}

// Alloc appends a local (or, with heap, escaping) variable of type t.
func (b *Builder) Alloc(name string, t types.Type, heap bool) *ir.Value {
	v := b.B.NewValue(ir.OpAlloc, types.NewPointer(t))
	v.Name = name
	v.Heap = heap
	return v
}

// Global appends &g, g a package-level variable.
func (b *Builder) Global(g *types.Var) *ir.Value {
	v := b.B.NewValue(ir.OpGlobal, types.NewPointer(g.Type()))
	v.Global = g
	return v
}

// Load appends *p.
func (b *Builder) Load(p *ir.Value) *ir.Value {
	return b.B.NewValue(ir.OpLoad, p.Type.Underlying().(*types.Pointer).Elem(), p)
}

// Store appends *p = x.
func (b *Builder) Store(p, x *ir.Value) *ir.Value { return b.B.NewValue(ir.OpStore, nil, p, x) }

// IndexAddr appends &x[i], x a slice or a pointer to an array.
func (b *Builder) IndexAddr(x, i *ir.Value) *ir.Value {
	var elem types.Type
	switch t := x.Type.Underlying().(type) {
	case *types.Slice:
		elem = t.Elem()
	case *types.Pointer:
		elem = t.Elem().Underlying().(*types.Array).Elem()
	}
	return b.B.NewValue(ir.OpIndexAddr, types.NewPointer(elem), x, i)
}

// FieldAddr appends &p.f, f the field number i of the struct p points to.
func (b *Builder) FieldAddr(p *ir.Value, i int) *ir.Value {
	st := p.Type.Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	v := b.B.NewValue(ir.OpFieldAddr, types.NewPointer(st.Field(i).Type()), p)
	v.Index = i
	return v
}

// Field appends x.f, f the field number i of struct x.
func (b *Builder) Field(x *ir.Value, i int) *ir.Value {
	st := x.Type.Underlying().(*types.Struct)
	v := b.B.NewValue(ir.OpField, st.Field(i).Type(), x)
	v.Index = i
	return v
}

// Index appends x[i] for an array or string value x.
func (b *Builder) Index(x, i *ir.Value) *ir.Value {
	var t types.Type
	switch u := x.Type.Underlying().(type) {
	case *types.Array:
		t = u.Elem()
	case *types.Basic:
		t = types.Typ[types.Byte]
	}
	return b.B.NewValue(ir.OpIndex, t, x, i)
}

// Call appends a call of fn (a function or method; a method's receiver
// first in args). Its type is fn's result: nil, one type, or a tuple.
func (b *Builder) Call(fn *types.Func, args ...*ir.Value) *ir.Value {
	sig := fn.Type().(*types.Signature)
	v := b.B.NewValue(ir.OpCall, resultType(sig), args...)
	v.Callee = &ir.Callee{Func: fn}
	return v
}

// CallBuiltin appends a call of builtin name with result type t.
func (b *Builder) CallBuiltin(name string, t types.Type, args ...*ir.Value) *ir.Value {
	v := b.B.NewValue(ir.OpCall, t, args...)
	v.Callee = &ir.Callee{Builtin: name}
	return v
}

// CallDerived appends a call of generated function d.
func (b *Builder) CallDerived(d *ir.DerivedFunc, args ...*ir.Value) *ir.Value {
	v := b.B.NewValue(ir.OpCall, resultType(d.Sig), args...)
	v.Callee = &ir.Callee{Derived: d}
	return v
}

// CallHelper appends a call of template helper name with result type t.
func (b *Builder) CallHelper(name string, t types.Type, args ...*ir.Value) *ir.Value {
	v := b.B.NewValue(ir.OpCall, t, args...)
	v.Callee = &ir.Callee{Derived: &ir.DerivedFunc{Name: name, Helper: true}}
	return v
}

// resultType returns the type of a call of sig: nil for no result, the
// result's type for one, the tuple of results for several.
func resultType(sig *types.Signature) types.Type {
	switch r := sig.Results(); r.Len() {
	case 0:
		return nil
	case 1:
		return r.At(0).Type()
	default:
		return r
	}
}

// Extract appends element i of tuple x.
func (b *Builder) Extract(x *ir.Value, i int) *ir.Value {
	v := b.B.NewValue(ir.OpExtract, x.Type.(*types.Tuple).At(i).Type(), x)
	v.Index = i
	return v
}

// Panic appends panic(x).
func (b *Builder) Panic(x *ir.Value) *ir.Value { return b.B.NewValue(ir.OpPanic, nil, x) }

// Jump ends the current block with a jump to to.
func (b *Builder) Jump(to *ir.Block) { b.B.Jump(to) }

// If ends the current block with a branch on c.
func (b *Builder) If(c *ir.Value, then, els *ir.Block) { b.B.If(c, then, els) }

// Return ends the current block with a return.
func (b *Builder) Return(results ...*ir.Value) { b.B.Return(results...) }
