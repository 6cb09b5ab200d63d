package reverse

// This file defines the adjoints of aggregate values: structs and arrays
// of floats (a Vec3, a [4]float64 of coefficients) that carry derivatives
// as values rather than in memory. The adjoint of an aggregate is a
// variable of the same type; reading a field moves the field's adjoint
// into it, and aggregates are added leaf by leaf.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// maxLeaves bounds the float leaves of an aggregate added leaf by leaf.
const maxLeaves = 64

// leaf is a path to a float inside an aggregate: field or element indices.
type leaf struct {
	path []int
	typ  types.Type
}

// floatLeaves returns the float leaves of type typ, or nil and false when
// typ holds something else than floats, structs and arrays of them, or
// too many leaves.
func floatLeaves(typ types.Type) ([]leaf, bool) {
	var out []leaf
	var walk func(t types.Type, path []int) bool
	walk = func(t types.Type, path []int) bool {
		if len(out) > maxLeaves {
			return false
		}
		if ir.IsTensor(t) {
			out = append(out, leaf{append([]int(nil), path...), t})
			return true
		}
		if ssaad.IsPointerLike(t) {
			return true // memory: a shadow, not an adjoint (see shadows.go)
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			if !isFloat(u) {
				return u.Info()&types.IsNumeric != 0 || u.Info()&types.IsBoolean != 0 || u.Info()&types.IsString != 0
			}
			out = append(out, leaf{append([]int(nil), path...), t})
			return true
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if !walk(u.Field(i).Type(), append(path, i)) {
					return false
				}
			}
			return true
		case *types.Array:
			for i := int64(0); i < u.Len(); i++ {
				if !walk(u.Elem(), append(path, int(i))) {
					return false
				}
			}
			return true
		}
		return false
	}
	if !walk(typ, nil) || len(out) > maxLeaves {
		return nil, false
	}
	return out, true
}

// isAggregate reports whether typ is a struct or array holding floats
// that reverse mode can give an adjoint: a value of its type whose float
// leaves hold the adjoints of the value's (its slices and pointers have
// shadows instead).
func isAggregate(typ types.Type) bool {
	switch typ.Underlying().(type) {
	case *types.Struct, *types.Array:
		leaves, ok := floatLeaves(typ)
		return ok && len(leaves) > 0
	}
	return false
}

// hasAdjoint reports whether values of type typ get an adjoint: floats
// and aggregates of them.
func hasAdjoint(typ types.Type) bool {
	return typ != nil && (isFloat(typ) || isAggregate(typ))
}

// leafAddr returns the address of leaf l inside the aggregate at addr.
func (t *transformer) leafAddr(addr *ir.Value, l leaf) *ir.Value {
	cur := addr
	typ := addr.Type.(*types.Pointer).Elem()
	for _, i := range l.path {
		switch u := typ.Underlying().(type) {
		case *types.Struct:
			typ = u.Field(i).Type()
			a := t.Emit(ir.OpFieldAddr, types.NewPointer(typ), cur)
			a.Index = i
			cur = a
		case *types.Array:
			typ = u.Elem()
			cur = t.Emit(ir.OpIndexAddr, types.NewPointer(typ), cur, t.F.Int(int64(i)))
		}
	}
	return cur
}

// leafOf returns leaf l of the aggregate value x.
func (t *transformer) leafOf(x *ir.Value, l leaf) *ir.Value {
	cur := x
	for _, i := range l.path {
		switch u := cur.Type.Underlying().(type) {
		case *types.Struct:
			f := t.Emit(ir.OpField, u.Field(i).Type(), cur)
			f.Index = i
			cur = f
		case *types.Array:
			cur = t.Emit(ir.OpIndex, u.Elem(), cur, t.F.Int(int64(i)))
		}
	}
	return cur
}

// addInto adds the aggregate or float value x into the memory at addr,
// leaf by leaf.
func (t *transformer) addInto(addr, x *ir.Value) {
	elem := addr.Type.(*types.Pointer).Elem()
	if isFloat(elem) {
		old := t.Emit(ir.OpLoad, elem, addr)
		t.Emit(ir.OpStore, nil, addr, t.accumulated(old, x))
		return
	}
	leaves, _ := floatLeaves(elem)
	for _, l := range leaves {
		a := t.leafAddr(addr, l)
		old := t.Emit(ir.OpLoad, l.typ, a)
		t.Emit(ir.OpStore, nil, a, t.accumulated(old, t.leafOf(x, l)))
	}
}

// accumulated returns old+x for a shadow in memory: for tensors,
// tensorops.Accumulate, which adds x into old in place (a shadow in memory
// owns its tensor: the caller's gradient buffer, or a copy of the first
// adjoint stored into a nil one).
func (t *transformer) accumulated(old, x *ir.Value) *ir.Value {
	if ir.IsTensor(old.Type) && !ssaad.IsZero(x) {
		return t.TensorCall("Accumulate", old, x)
	}
	return t.Add(old, x)
}
