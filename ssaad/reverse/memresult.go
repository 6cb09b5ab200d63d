package reverse

// This file defines the results of callees that are memory holding
// memory: a *state of slices, a [][]float64, that a helper allocates and
// returns (newState(q0)). The shadow of such a result, in the caller, is
// memory of the same shape, zeroed: new variables for its pointers, slices
// of the same lengths and capacities, all the way down. The caller's
// reverse passes it, holding the adjoints of what the result held, as
// the seed of the callee's reverse, which adds it into its own shadow of
// the result (the callee's reverse recomputes the result in fresh memory).
// This is right only when the whole result is fresh, no argument's memory
// inside it: ssaad.ResultOrigins says so (OriginFresh).

import (
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// memResult reports whether a result of type typ is a pointer or slice
// whose memory holds slices or pointers, and floats, in structs, arrays,
// slices and pointers only (no tensors, no recursive type): its seed is a
// value of its type, the shadow of the result.
func memResult(typ types.Type) bool {
	if typ == nil || !ssaad.IsPointerLike(typ) || sliceResult(typ) || !ssaad.HasFloat(typ) {
		return false
	}
	return boundedMemory(typ, false)
}

// shadowResult reports whether a result of type typ has its shadow for
// seed: a slice of floats (sliceResult) or memory holding memory
// (memResult).
func shadowResult(typ types.Type) bool { return sliceResult(typ) || memResult(typ) }

// zeroShape emits, in the forward sweep, memory of the shape of the slice
// or pointer x, zeroed: the shadow of a result the callee allocates.
func (t *transformer) zeroShape(x *ir.Value) *ir.Value {
	var d *ir.Value
	t.detached(func() { d = t.zeroShapeOf(x) })
	return d
}

func (t *transformer) zeroShapeOf(x *ir.Value) *ir.Value {
	switch u := x.Type.Underlying().(type) {
	case *types.Pointer:
		nonNil := t.Emit(ir.OpBinary, boolType, x, t.F.ConstValue(x.Type, nil))
		nonNil.Tok = token.NEQ
		return t.forwardIf(nonNil, func() *ir.Value {
			p := t.Emit(ir.OpAlloc, x.Type)
			p.Heap = true
			t.fillShape(p, x, u.Elem())
			return p
		}, func() *ir.Value { return t.F.ConstValue(x.Type, nil) })
	case *types.Slice:
		d := t.Emit(ir.OpMakeSlice, x.Type, t.Emit(ir.OpLen, intType, x), t.Emit(ir.OpCap, intType, x))
		if ssaad.RefersToMemory(u.Elem()) {
			ptr := types.NewPointer(u.Elem())
			t.forRange(t.Emit(ir.OpLen, intType, x), func(k *ir.Value) {
				t.fillShape(t.Emit(ir.OpIndexAddr, ptr, d, k), t.Emit(ir.OpIndexAddr, ptr, x, k), u.Elem())
			})
		}
		return d
	}
	panic("reverse: zeroShape of " + x.Type.String())
}

// fillShape stores into the zeroed value of type typ at address d the
// zeroed shapes of the slices and pointers of the value at address x.
func (t *transformer) fillShape(d, x *ir.Value, typ types.Type) {
	if ssaad.IsPointerLike(typ) {
		t.Emit(ir.OpStore, nil, d, t.zeroShapeOf(t.Emit(ir.OpLoad, typ, x)))
		return
	}
	t.eachPartOf([]*ir.Value{d, x}, typ, false, func(qs []*ir.Value, pt types.Type) {
		t.Emit(ir.OpStore, nil, qs[0], t.zeroShapeOf(t.Emit(ir.OpLoad, pt, qs[1])))
	})
}

// addShadow emits, in the reverse sweep, the addition of the floats of the
// memory that seed refers to into the same places of the memory that d,
// of the same type and shape, refers to: the seed of a memResult.
func (t *transformer) addShadow(d, seed *ir.Value) {
	switch u := seed.Type.Underlying().(type) {
	case *types.Pointer:
		t.ifNotNil(seed, func() {
			t.ifNotNil(d, func() { t.addFloats(d, seed, u.Elem()) })
		})
	case *types.Slice:
		ptr := types.NewPointer(u.Elem())
		t.forRange(t.Emit(ir.OpLen, intType, seed), func(k *ir.Value) {
			t.addFloats(t.Emit(ir.OpIndexAddr, ptr, d, k), t.Emit(ir.OpIndexAddr, ptr, seed, k), u.Elem())
		})
	}
}

// addFloats adds the floats of the value of type typ at address s, and of
// the memory behind it, into those of the value at address d.
func (t *transformer) addFloats(d, s *ir.Value, typ types.Type) {
	if !ssaad.HasFloat(typ) {
		return
	}
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		t.addInto(d, t.Emit(ir.OpLoad, typ, s))
	case *types.Pointer, *types.Slice:
		t.addShadow(t.Emit(ir.OpLoad, typ, d), t.Emit(ir.OpLoad, typ, s))
	case *types.Struct:
		for k := range u.NumFields() {
			ft := u.Field(k).Type()
			fd := t.Emit(ir.OpFieldAddr, types.NewPointer(ft), d)
			fd.Index = k
			fs := t.Emit(ir.OpFieldAddr, types.NewPointer(ft), s)
			fs.Index = k
			t.addFloats(fd, fs, ft)
		}
	case *types.Array:
		ptr := types.NewPointer(u.Elem())
		t.forRange(t.F.Int(u.Len()), func(k *ir.Value) {
			t.addFloats(t.Emit(ir.OpIndexAddr, ptr, d, k), t.Emit(ir.OpIndexAddr, ptr, s, k), u.Elem())
		})
	}
}
