package interp

// This file defines the representation of interpreted values, zero values,
// and the copying that gives structs and arrays their value semantics.
//
// Memory is made of slots of type Value: a variable is one slot, a slice's
// backing array a []Value, a struct's fields and an array's elements the
// slots of a *Struct or *Array. A Pointer is the address of one slot.
// Aggregates held in memory are owned by their slot: a store copies into
// them in place (so that pointers to their fields stay valid), and a load
// copies out. Values held in registers (the results of instructions) are
// never modified once made, so they may share aggregates freely.

import (
	"fmt"
	"go/types"
	"math"
	"strings"
)

// Value is an interpreted value; see the package documentation for the
// representation of each type.
type Value = any

// Slice is a slice value: Elems is a Go slice of the backing array's slots,
// whose length and capacity are the interpreted slice's. Slices of a slice
// share its slots, as in Go. A nil slice has nil Elems.
type Slice struct {
	Elems []Value
}

// Pointer is a pointer value: the address of a slot. The zero Pointer is
// nil. Pointers compare with == as Go pointers do.
type Pointer struct {
	ref *Value
}

// NewVar returns a pointer to a new variable holding a copy of v, as
// new(T) followed by a store.
func NewVar(v Value) Pointer {
	p := Pointer{new(Value)}
	*p.ref = copyValue(v)
	return p
}

// IsNil reports whether p is nil.
func (p Pointer) IsNil() bool { return p.ref == nil }

// Load returns a copy of the value p points to. It panics if p is nil.
func (p Pointer) Load() Value {
	if p.ref == nil {
		panic("interp: Load through a nil Pointer")
	}
	return copyValue(*p.ref)
}

// Store writes a copy of v where p points. It panics if p is nil.
func (p Pointer) Store(v Value) {
	if p.ref == nil {
		panic("interp: Store through a nil Pointer")
	}
	store(p.ref, v)
}

// Struct is a struct value: its fields in order.
type Struct struct {
	Fields []Value
}

// Array is an array value: its elements.
type Array struct {
	Elems []Value
}

// Iface is an interface value: a dynamic type and a value of it. The zero
// Iface is the nil interface.
type Iface struct {
	Type types.Type
	V    Value
}

// Tuple holds the results of a call with several results.
type Tuple []Value

// Zero returns the zero value of t: a fresh one for structs and arrays.
// It panics on types the interpreter does not represent (maps, channels;
// of func types, it represents continuations only).
func Zero(t types.Type) Value {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return zeroBasic(u)
	case *types.Slice:
		return Slice{}
	case *types.Pointer:
		return Pointer{}
	case *types.Interface:
		return Iface{}
	case *types.Signature:
		return (*Continuation)(nil) // the only func values: see Continuation
	case *types.Struct:
		s := &Struct{Fields: make([]Value, u.NumFields())}
		for i := range s.Fields {
			s.Fields[i] = Zero(u.Field(i).Type())
		}
		return s
	case *types.Array:
		a := &Array{Elems: make([]Value, u.Len())}
		for i := range a.Elems {
			a.Elems[i] = Zero(u.Elem())
		}
		return a
	case *types.Tuple:
		tu := make(Tuple, u.Len())
		for i := range tu {
			tu[i] = Zero(u.At(i).Type())
		}
		return tu
	}
	throw(Unsupported, "values of type %s", t)
	return nil
}

func zeroBasic(b *types.Basic) Value {
	z, ok := basicZero(b)
	if !ok {
		throw(Unsupported, "values of type %s", b)
	}
	return z
}

// basicZero returns the zero value of b and whether the interpreter
// represents values of b.
func basicZero(b *types.Basic) (Value, bool) {
	var z Value
	switch b.Kind() {
	case types.Bool, types.UntypedBool:
		z = false
	case types.Int, types.UntypedInt:
		z = int(0)
	case types.Int8:
		z = int8(0)
	case types.Int16:
		z = int16(0)
	case types.Int32, types.UntypedRune:
		z = int32(0)
	case types.Int64:
		z = int64(0)
	case types.Uint:
		z = uint(0)
	case types.Uint8:
		z = uint8(0)
	case types.Uint16:
		z = uint16(0)
	case types.Uint32:
		z = uint32(0)
	case types.Uint64:
		z = uint64(0)
	case types.Uintptr:
		z = uintptr(0)
	case types.Float32:
		z = float32(0)
	case types.Float64, types.UntypedFloat:
		z = float64(0)
	case types.Complex64:
		z = complex64(0)
	case types.Complex128, types.UntypedComplex:
		z = complex128(0)
	case types.String, types.UntypedString:
		z = ""
	default:
		return nil, false
	}
	return z, true
}

// copyValue returns v with its structs and arrays copied (not what slices
// and pointers refer to).
func copyValue(v Value) Value {
	switch v := v.(type) {
	case *Struct:
		c := &Struct{Fields: make([]Value, len(v.Fields))}
		for i, f := range v.Fields {
			c.Fields[i] = copyValue(f)
		}
		return c
	case *Array:
		c := &Array{Elems: make([]Value, len(v.Elems))}
		for i, e := range v.Elems {
			c.Elems[i] = copyValue(e)
		}
		return c
	}
	return v
}

// store writes v into slot: in place into the struct or array the slot
// holds, so that pointers into it stay valid.
func store(slot *Value, v Value) {
	switch old := (*slot).(type) {
	case *Struct:
		if nv, ok := v.(*Struct); ok && len(nv.Fields) == len(old.Fields) {
			for i := range old.Fields {
				store(&old.Fields[i], nv.Fields[i])
			}
			return
		}
	case *Array:
		if nv, ok := v.(*Array); ok && len(nv.Elems) == len(old.Elems) {
			for i := range old.Elems {
				store(&old.Elems[i], nv.Elems[i])
			}
			return
		}
	}
	*slot = copyValue(v)
}

// Identical reports whether x and y are the same value: floats with the
// same bits (any NaN matches any NaN, but 0 and -0 differ), slices with the
// same length and identical elements, pointers to identical values, and
// structs, arrays, interfaces and tuples made of identical parts. It is the
// test of "a pass changes no result". Values must not be cyclic.
func Identical(x, y Value) bool {
	switch x := x.(type) {
	case float64:
		y, ok := y.(float64)
		return ok && (math.Float64bits(x) == math.Float64bits(y) || x != x && y != y)
	case float32:
		y, ok := y.(float32)
		return ok && (math.Float32bits(x) == math.Float32bits(y) || x != x && y != y)
	case complex128:
		y, ok := y.(complex128)
		return ok && Identical(real(x), real(y)) && Identical(imag(x), imag(y))
	case complex64:
		y, ok := y.(complex64)
		return ok && Identical(real(x), real(y)) && Identical(imag(x), imag(y))
	case Slice:
		y, ok := y.(Slice)
		if !ok || (x.Elems == nil) != (y.Elems == nil) || len(x.Elems) != len(y.Elems) {
			return false
		}
		for i := range x.Elems {
			if !Identical(x.Elems[i], y.Elems[i]) {
				return false
			}
		}
		return true
	case Pointer:
		y, ok := y.(Pointer)
		if !ok || x.IsNil() != y.IsNil() {
			return false
		}
		return x == y || x.IsNil() || Identical(*x.ref, *y.ref)
	case *Struct:
		y, ok := y.(*Struct)
		return ok && identicalAll(x.Fields, y.Fields)
	case *Array:
		y, ok := y.(*Array)
		return ok && identicalAll(x.Elems, y.Elems)
	case Tuple:
		y, ok := y.(Tuple)
		return ok && identicalAll(x, y)
	case Iface:
		y, ok := y.(Iface)
		if !ok || (x.Type == nil) != (y.Type == nil) {
			return false
		}
		return x.Type == nil || types.Identical(x.Type, y.Type) && Identical(x.V, y.V)
	}
	return x == y
}

func identicalAll(x, y []Value) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !Identical(x[i], y[i]) {
			return false
		}
	}
	return true
}

// Format returns a readable form of v for messages: numbers as %v,
// slices and arrays in brackets, structs in braces, pointers as &value.
func Format(v Value) string {
	var sb strings.Builder
	format(&sb, v, 0)
	return sb.String()
}

func format(sb *strings.Builder, v Value, depth int) {
	if depth > 8 {
		sb.WriteString("…")
		return
	}
	list := func(open, close string, xs []Value) {
		sb.WriteString(open)
		for i, x := range xs {
			if i > 0 {
				sb.WriteString(" ")
			}
			format(sb, x, depth+1)
		}
		sb.WriteString(close)
	}
	switch v := v.(type) {
	case Slice:
		if v.Elems == nil {
			sb.WriteString("[]nil")
			return
		}
		list("[", "]", v.Elems)
	case *Array:
		list("[", "]", v.Elems)
	case *Struct:
		list("{", "}", v.Fields)
	case Tuple:
		list("(", ")", v)
	case Pointer:
		if v.IsNil() {
			sb.WriteString("nil")
			return
		}
		sb.WriteString("&")
		format(sb, *v.ref, depth+1)
	case Iface:
		if v.Type == nil {
			sb.WriteString("nil")
			return
		}
		format(sb, v.V, depth)
	case string:
		fmt.Fprintf(sb, "%q", v)
	default:
		fmt.Fprint(sb, v)
	}
}
