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
	if IsZero(x) {
		return y
	}
	if IsZero(y) {
		return x
	}
	if tensorOp(x, y) {
		return b.tensorBinary(token.ADD, x, y)
	}
	return b.Binary(token.ADD, x, y)
}

// Sub returns x-y, folding zeros.
func (b *Builder) Sub(x, y *ir.Value) *ir.Value {
	if IsZero(y) {
		return x
	}
	if IsZero(x) {
		return b.Neg(y)
	}
	if tensorOp(x, y) {
		return b.tensorBinary(token.SUB, x, y)
	}
	return b.Binary(token.SUB, x, y)
}

// Mul returns x*y, folding zeros and ones.
func (b *Builder) Mul(x, y *ir.Value) *ir.Value {
	if IsZero(x) || IsOne(y) {
		return x
	}
	if IsZero(y) || IsOne(x) {
		return y
	}
	if tensorOp(x, y) {
		return b.tensorBinary(token.MUL, x, y)
	}
	return b.Binary(token.MUL, x, y)
}

// Quo returns x/y, folding a zero numerator and a unit divisor.
func (b *Builder) Quo(x, y *ir.Value) *ir.Value {
	if IsZero(x) || IsOne(y) {
		return x
	}
	if tensorOp(x, y) {
		return b.tensorBinary(token.QUO, x, y)
	}
	return b.Binary(token.QUO, x, y)
}

// Neg returns -x, folding zero.
func (b *Builder) Neg(x *ir.Value) *ir.Value {
	if IsZero(x) {
		return x
	}
	if ir.IsTensor(x.Type) {
		return b.TensorCall("Neg", x)
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

// CopyOf returns the copy in b.F of primal value x, as val records the
// copies: a constant is made on its first use; any other value must be
// copied already (mode names the transformer in the panic that says it
// is not).
func (b *Builder) CopyOf(val map[*ir.Value]*ir.Value, x *ir.Value, mode string) *ir.Value {
	if x == nil {
		return nil
	}
	if c, ok := val[x]; ok {
		return c
	}
	if x.Op != ir.OpConst {
		panic(mode + ": " + x.Ref() + " used before its definition")
	}
	c := b.F.ConstValue(x.Type, x.Const)
	val[x] = c
	return c
}

// MinMax returns the tangents (or Taylor coefficients) of a call of the
// builtin min or max (name) of the values xs, whose coefficients are
// ds[i] (one slice per argument, all of one length): ties go to the
// earliest argument, the rule of package templates for the builtins
// applied pairwise, and the result's coefficients are the chosen
// argument's. typ is the result's type.
func (b *Builder) MinMax(name string, typ types.Type, xs []*ir.Value, ds [][]*ir.Value) []*ir.Value {
	tok := token.LSS
	if name == "max" {
		tok = token.GTR
	}
	m := xs[0]
	dm := append([]*ir.Value(nil), ds[0]...)
	for k := 1; k < len(xs); k++ {
		a, da := xs[k], ds[k]
		cond := b.Emit(ir.OpBinary, types.Typ[types.Bool], a, m)
		cond.Tok = tok
		for j := range dm {
			if IsZero(da[j]) && IsZero(dm[j]) {
				continue
			}
			dm[j] = b.Emit(ir.OpSelect, typ, cond, da[j], dm[j])
		}
		if k < len(xs)-1 {
			m2 := b.Emit(ir.OpCall, typ, m, a)
			m2.Callee = &ir.Callee{Builtin: name}
			m = m2
		}
	}
	return dm
}

// Extract returns result i of call c whose result tuple is res: c itself
// when there is one result.
func (b *Builder) Extract(c *ir.Value, i int, res *types.Tuple) *ir.Value {
	if res.Len() == 1 {
		return c
	}
	e := b.Emit(ir.OpExtract, res.At(i).Type(), c)
	e.Index = i
	return e
}

// Scale returns c·x for a constant c.
func (b *Builder) Scale(c float64, x *ir.Value) *ir.Value {
	if IsZero(x) {
		return x
	}
	if c == -1 {
		return b.Neg(x)
	}
	typ := x.Type
	if ir.IsTensor(typ) {
		typ = types.Typ[types.Float64]
	}
	return b.Mul(b.F.ConstValue(typ, constant.MakeFloat64(c)), x)
}

// tensorOp reports whether x op y is an operation on tensors (at least
// one of them is a tensor, the other a tensor or a float).
func tensorOp(x, y *ir.Value) bool { return ir.IsTensor(x.Type) || ir.IsTensor(y.Type) }

// tensorBinary returns x op y for op one of + − * / where x or y is a
// tensor and the other a tensor or a float64, by the runtime's functions:
// elementwise (broadcasting) between tensors, Scale, AddScalar, Affine
// and ScalarDiv between a tensor and a float.
func (b *Builder) tensorBinary(op token.Token, x, y *ir.Value) *ir.Value {
	xt, yt := ir.IsTensor(x.Type), ir.IsTensor(y.Type)
	if xt && yt {
		name := map[token.Token]string{token.ADD: "Add", token.SUB: "Sub", token.MUL: "Mul", token.QUO: "Div"}[op]
		return b.TensorCall(name, x, y)
	}
	f64 := types.Typ[types.Float64]
	float := func(v *ir.Value) *ir.Value {
		if types.Identical(v.Type, f64) {
			return v
		}
		if v.Op == ir.OpConst && v.Const != nil {
			return b.F.ConstValue(f64, constant.ToFloat(v.Const))
		}
		return b.Same(&ir.Value{Op: ir.OpConvert, Type: f64}, v)
	}
	switch {
	case op == token.ADD && xt:
		return b.TensorCall("AddScalar", x, float(y))
	case op == token.ADD:
		return b.TensorCall("AddScalar", y, float(x))
	case op == token.SUB && xt:
		return b.TensorCall("AddScalar", x, b.Neg(float(y)))
	case op == token.SUB:
		return b.TensorCall("Affine", y, b.F.ConstValue(f64, constant.MakeFloat64(-1)), float(x))
	case op == token.MUL && xt:
		return b.TensorCall("Scale", x, float(y))
	case op == token.MUL:
		return b.TensorCall("Scale", y, float(x))
	case op == token.QUO && xt:
		return b.TensorCall("Scale", x, b.Quo(b.F.ConstValue(f64, constant.MakeFloat64(1)), float(y)))
	}
	return b.TensorCall("ScalarDiv", float(x), y)
}

// TensorCall appends a call of the function name of package tensorops on
// args, one of which is a tensor.
func (b *Builder) TensorCall(name string, args ...*ir.Value) *ir.Value {
	var fn *types.Func
	for _, a := range args {
		if fn = ir.TensorFunc(a.Type, name); fn != nil {
			break
		}
	}
	if fn == nil {
		panic("ssaad: no function tensorops." + name)
	}
	res := fn.Signature().Results()
	var typ types.Type = res
	if res.Len() == 1 {
		typ = res.At(0).Type()
	}
	v := b.Emit(ir.OpCall, typ, args...)
	v.Callee = &ir.Callee{Func: fn}
	return v
}

// SliceOf emits make(st, len(elems)) and stores elems into it, leaving
// the zero constants to make.
func (b *Builder) SliceOf(st types.Type, elems []*ir.Value) *ir.Value {
	s := b.Emit(ir.OpMakeSlice, st, b.F.Int(int64(len(elems))), nil)
	elem := st.Underlying().(*types.Slice).Elem()
	for i, e := range elems {
		if IsZero(e) {
			continue // make zeroes
		}
		addr := b.Emit(ir.OpIndexAddr, types.NewPointer(elem), s, b.F.Int(int64(i)))
		b.Emit(ir.OpStore, nil, addr, e)
	}
	return s
}
