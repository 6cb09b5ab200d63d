package ssaad

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// ZeroShadow returns, in the current block, a new zero shadow of the
// pointer-like value x, which has no tangent of its own but through which
// varied values are stored or which a derivative of a callee takes:
// make([]T, len(x), cap(x)) for a slice, new(T) for a pointer, where T
// holds no pointers or slices or is a tensor (nil, the zero tensor); for
// a pointer to a struct that holds slices or pointers, new(T) whose slice
// and pointer fields, in nested struct values too, are zero shadows of
// x's, built the same way. It returns nil when it cannot build one (a
// slice of slices, whose shadow needs a loop).
func (b *Builder) ZeroShadow(x *ir.Value) *ir.Value {
	if ir.IsTensor(x.Type) {
		return b.Zero(x.Type) // nil: tensors are values, not memory
	}
	switch u := x.Type.Underlying().(type) {
	case *types.Slice:
		if holdsNonTensorPointers(u.Elem()) {
			return nil // a slice of tensors' (or structs of them) zero holds nil tensors
		}
		n := b.Emit(ir.OpLen, types.Typ[types.Int], x)
		c := b.Emit(ir.OpCap, types.Typ[types.Int], x)
		return b.Emit(ir.OpMakeSlice, x.Type, n, c)
	case *types.Pointer:
		st, isStruct := u.Elem().Underlying().(*types.Struct)
		if HoldsPointers(u.Elem()) && !isStruct {
			return nil
		}
		a := b.Emit(ir.OpAlloc, x.Type)
		a.Heap = true
		if !isStruct || b.zeroFields(x, a, st) {
			return a
		}
	}
	return nil
}

// zeroFields sets the slice and pointer fields of the struct (of type st)
// a points to to zero shadows of those of the struct x points to, the
// fields of nested struct values too, and reports whether it could.
func (b *Builder) zeroFields(x, a *ir.Value, st *types.Struct) bool {
	for k := range st.NumFields() {
		ft := st.Field(k).Type()
		if !HoldsPointers(ft) || ir.IsTensor(ft) {
			continue // a tensor field's zero is nil, new(T)'s
		}
		pf := b.Emit(ir.OpFieldAddr, types.NewPointer(ft), x)
		pf.Index = k
		af := b.Emit(ir.OpFieldAddr, types.NewPointer(ft), a)
		af.Index = k
		if fst, ok := ft.Underlying().(*types.Struct); ok {
			if !b.zeroFields(pf, af, fst) {
				return false
			}
			continue
		}
		if !IsPointerLike(ft) {
			return false
		}
		s := b.ZeroShadow(b.Emit(ir.OpLoad, ft, pf))
		if s == nil {
			return false
		}
		b.Emit(ir.OpStore, nil, af, s)
	}
	return true
}

// ZeroShadowOfValue returns, in the current block, a zero of the shape of
// x, a struct value that holds slices or pointers: a copy of x whose
// float leaves are zero and whose slices and pointers are zero shadows of
// x's (see ZeroShadow). It returns nil when it cannot build one.
func (b *Builder) ZeroShadowOfValue(x *ir.Value) *ir.Value {
	if ir.IsTensor(x.Type) {
		return b.Zero(x.Type) // nil, the zero tensor of the arithmetic
	}
	if _, ok := x.Type.Underlying().(*types.Struct); !ok {
		return nil
	}
	tmp := b.Emit(ir.OpAlloc, types.NewPointer(x.Type))
	b.Emit(ir.OpStore, nil, tmp, x)
	z := b.ZeroShadow(tmp)
	if z == nil {
		return nil
	}
	return b.Emit(ir.OpLoad, x.Type, z)
}

// HoldsPointers reports whether values of type t contain pointers or
// slices (or other references).
func HoldsPointers(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	case *types.Array:
		return HoldsPointers(u.Elem())
	case *types.Struct:
		for f := range u.Fields() {
			if HoldsPointers(f.Type()) {
				return true
			}
		}
	}
	return false
}

// holdsNonTensorPointers is HoldsPointers, tensors aside: the zero value
// of a type that holds only floats and tensors is its zero tangent.
func holdsNonTensorPointers(t types.Type) bool {
	if ir.IsTensor(t) {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Array:
		return holdsNonTensorPointers(u.Elem())
	case *types.Struct:
		for f := range u.Fields() {
			if holdsNonTensorPointers(f.Type()) {
				return true
			}
		}
		return false
	}
	return HoldsPointers(t)
}

// GrowShadow emits, in the current block, what lets a caller pass a
// shadow or tangent struct without sizing its slices: for each slice field
// of the struct that shadow points to (in nested struct fields too) that
// is shorter than primal's (a pointer to, or a value of, the same struct
// type), the field grown to primal's length with zeros (nil tensors):
//
//	dm.Ws = append(dm.Ws, make([]*tensorops.Tensor, max(len(m.Ws)-len(dm.Ws), 0))...)
//
// A zero is the zero tangent or the adjoint nothing has added to yet.
func (b *Builder) GrowShadow(primal, shadow *ir.Value) {
	st, ok := shadow.Type.(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return
	}
	intType := types.Typ[types.Int]
	for k := range st.NumFields() {
		ft := st.Field(k).Type()
		_, isSlice := ft.Underlying().(*types.Slice)
		_, isStruct := ft.Underlying().(*types.Struct)
		if !isSlice && !isStruct || !HoldsPointers(ft) && !isSlice {
			continue
		}
		var pf *ir.Value
		if _, ptr := primal.Type.Underlying().(*types.Pointer); ptr {
			a := b.Emit(ir.OpFieldAddr, types.NewPointer(ft), primal)
			a.Index = k
			pf = b.Emit(ir.OpLoad, ft, a)
		} else {
			pf = b.Emit(ir.OpField, ft, primal)
			pf.Index = k
		}
		sa := b.Emit(ir.OpFieldAddr, types.NewPointer(ft), shadow)
		sa.Index = k
		if isStruct {
			b.GrowShadow(pf, sa)
			continue
		}
		sf := b.Emit(ir.OpLoad, ft, sa)
		short := b.Sub(b.Emit(ir.OpLen, intType, pf), b.Emit(ir.OpLen, intType, sf))
		n := b.Emit(ir.OpCall, intType, short, b.F.Int(0))
		n.Callee = &ir.Callee{Builtin: "max"}
		grown := b.Emit(ir.OpCall, ft, sf, b.Emit(ir.OpMakeSlice, ft, n, nil))
		grown.Callee = &ir.Callee{Builtin: "append", Spread: true}
		b.Emit(ir.OpStore, nil, sa, grown)
	}
}

// IsStructPointer reports whether typ is a pointer to a struct (not a
// tensor, which is a value).
func IsStructPointer(typ types.Type) bool {
	if ir.IsTensor(typ) {
		return false
	}
	p, ok := typ.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Struct)
	return ok
}
