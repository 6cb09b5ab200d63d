package ssaad

// This file defines Builder, with which the transformers append IR to the
// function they build: arithmetic that folds the zeros and ones it knows
// of (so that derivatives need no later clean-up of +0 and *1), and the
// lowering of the partial derivatives of package templates.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// Builder appends values to the block Cur of the function F.
type Builder struct {
	F   *ir.Func
	Cur *ir.Block
}

// Emit appends a new value to the current block.
func (b *Builder) Emit(op ir.Op, typ types.Type, args ...*ir.Value) *ir.Value {
	return b.Cur.NewValue(op, typ, args...)
}

// Zero returns the zero value of typ as a constant.
func (b *Builder) Zero(typ types.Type) *ir.Value {
	if bt, ok := typ.Underlying().(*types.Basic); ok {
		if bt.Info()&types.IsFloat != 0 {
			return b.F.ConstValue(typ, constant.MakeFloat64(0))
		}
		if bt.Info()&types.IsNumeric != 0 {
			return b.F.ConstValue(typ, constant.MakeInt64(0))
		}
	}
	return b.F.ConstValue(typ, nil)
}

// IsZero reports whether v is a constant zero.
func IsZero(v *ir.Value) bool {
	if v.Op != ir.OpConst {
		return false
	}
	if v.Const == nil {
		return true
	}
	return v.Const.Kind() != constant.Unknown && (v.Const.Kind() == constant.Int || v.Const.Kind() == constant.Float) && constant.Sign(v.Const) == 0
}

// IsOne reports whether v is the constant one.
func IsOne(v *ir.Value) bool {
	if v.Op != ir.OpConst || v.Const == nil {
		return false
	}
	k := v.Const.Kind()
	return (k == constant.Int || k == constant.Float) && constant.Compare(v.Const, token.EQL, constant.MakeInt64(1))
}

// Binary appends x tok y of x's type.
func (b *Builder) Binary(tok token.Token, x, y *ir.Value) *ir.Value {
	v := b.Emit(ir.OpBinary, x.Type, x, y)
	v.Tok = tok
	return v
}

// Add returns x+y, folding zeros.
func (b *Builder) Add(x, y *ir.Value) *ir.Value {
	switch {
	case IsZero(x):
		return y
	case IsZero(y):
		return x
	}
	return b.Binary(token.ADD, x, y)
}

// Sub returns x-y, folding zeros.
func (b *Builder) Sub(x, y *ir.Value) *ir.Value {
	switch {
	case IsZero(y):
		return x
	case IsZero(x):
		return b.Neg(y)
	}
	return b.Binary(token.SUB, x, y)
}

// Mul returns x*y, folding zeros and ones.
func (b *Builder) Mul(x, y *ir.Value) *ir.Value {
	switch {
	case IsZero(x):
		return x
	case IsZero(y):
		return y
	case IsOne(x):
		return y
	case IsOne(y):
		return x
	}
	return b.Binary(token.MUL, x, y)
}

// Quo returns x/y, folding a zero numerator and a unit divisor.
func (b *Builder) Quo(x, y *ir.Value) *ir.Value {
	if IsZero(x) || IsOne(y) {
		return x
	}
	return b.Binary(token.QUO, x, y)
}

// Neg returns -x, folding zero.
func (b *Builder) Neg(x *ir.Value) *ir.Value {
	if IsZero(x) {
		return x
	}
	v := b.Emit(ir.OpUnary, x.Type, x)
	v.Tok = token.SUB
	return v
}

// same emits the operation of v on the tangents or copies given.
// Same appends the operation of v (op, type and auxiliary fields) on args.
func (b *Builder) Same(v *ir.Value, args ...*ir.Value) *ir.Value {
	d := b.Emit(v.Op, v.Type, args...)
	d.Tok, d.Index, d.Heap, d.Pos = v.Tok, v.Index, v.Heap, v.Pos
	return d
}
