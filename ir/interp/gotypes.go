package interp

// This file defines FromGo and ToGo, which convert between Go values and
// interpreted values for tests.

import (
	"fmt"
	"go/types"
	"reflect"
)

// FromGo returns the interpreted value of the Go value x: basic values
// keep their kind (a named type becomes its underlying kind), slices,
// arrays, structs and pointers are converted element by element. The
// result shares no memory with x: a slice gets a new backing array with
// x's length and capacity, and a pointer a new variable (two pointers to
// one variable become pointers to two). FromGo(nil) is nil. FromGo panics
// on maps, channels, functions, non-nil interfaces and cyclic pointers.
func FromGo(x any) Value {
	if x == nil {
		return nil
	}
	return fromReflect(reflect.ValueOf(x))
}

func fromReflect(rv reflect.Value) Value {
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool()
	case reflect.Int:
		return int(rv.Int())
	case reflect.Int8:
		return int8(rv.Int())
	case reflect.Int16:
		return int16(rv.Int())
	case reflect.Int32:
		return int32(rv.Int())
	case reflect.Int64:
		return rv.Int()
	case reflect.Uint:
		return uint(rv.Uint())
	case reflect.Uint8:
		return uint8(rv.Uint())
	case reflect.Uint16:
		return uint16(rv.Uint())
	case reflect.Uint32:
		return uint32(rv.Uint())
	case reflect.Uint64:
		return rv.Uint()
	case reflect.Uintptr:
		return uintptr(rv.Uint())
	case reflect.Float32:
		return float32(rv.Float())
	case reflect.Float64:
		return rv.Float()
	case reflect.Complex64:
		return complex64(rv.Complex())
	case reflect.Complex128:
		return rv.Complex()
	case reflect.String:
		return rv.String()
	case reflect.Slice:
		if rv.IsNil() {
			return Slice{}
		}
		full := rv.Slice3(0, rv.Cap(), rv.Cap())
		elems := make([]Value, rv.Cap())
		for i := range elems {
			elems[i] = fromReflect(full.Index(i))
		}
		return Slice{Elems: elems[:rv.Len()]}
	case reflect.Array:
		a := &Array{Elems: make([]Value, rv.Len())}
		for i := range a.Elems {
			a.Elems[i] = fromReflect(rv.Index(i))
		}
		return a
	case reflect.Struct:
		s := &Struct{Fields: make([]Value, rv.NumField())}
		for i := range s.Fields {
			s.Fields[i] = fromReflect(rv.Field(i))
		}
		return s
	case reflect.Pointer:
		if rv.IsNil() {
			return Pointer{}
		}
		return Pointer{ref: newSlot(fromReflect(rv.Elem()))}
	case reflect.Interface:
		if rv.IsNil() {
			return Iface{}
		}
	}
	panic(fmt.Sprintf("interp: FromGo: cannot convert a value of type %s", rv.Type()))
}

// ToGo returns the interpreted value v of type t as a Go value. A named
// type gives a value of its underlying type (a struct type keeps its field
// names), an interface type the Go value of the dynamic value; slices,
// arrays, structs and pointers are converted element by element into new
// memory, and pointers that alias become pointers to distinct variables.
// ToGo panics if v is not a value of type t, or if t has a type Go values
// cannot be made of by reflect (unexported struct fields, maps, channels,
// functions, non-empty interfaces).
func ToGo(v Value, t types.Type) any {
	rv := reflect.New(reflectType(t)).Elem()
	setReflect(rv, v, t)
	return rv.Interface()
}

var basicTypes = map[types.BasicKind]reflect.Type{
	types.Bool:       reflect.TypeFor[bool](),
	types.Int:        reflect.TypeFor[int](),
	types.Int8:       reflect.TypeFor[int8](),
	types.Int16:      reflect.TypeFor[int16](),
	types.Int32:      reflect.TypeFor[int32](),
	types.Int64:      reflect.TypeFor[int64](),
	types.Uint:       reflect.TypeFor[uint](),
	types.Uint8:      reflect.TypeFor[uint8](),
	types.Uint16:     reflect.TypeFor[uint16](),
	types.Uint32:     reflect.TypeFor[uint32](),
	types.Uint64:     reflect.TypeFor[uint64](),
	types.Uintptr:    reflect.TypeFor[uintptr](),
	types.Float32:    reflect.TypeFor[float32](),
	types.Float64:    reflect.TypeFor[float64](),
	types.Complex64:  reflect.TypeFor[complex64](),
	types.Complex128: reflect.TypeFor[complex128](),
	types.String:     reflect.TypeFor[string](),
}

// reflectType returns the Go type of ToGo's results for t.
func reflectType(t types.Type) reflect.Type {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if rt, ok := basicTypes[u.Kind()]; ok {
			return rt
		}
	case *types.Slice:
		return reflect.SliceOf(reflectType(u.Elem()))
	case *types.Array:
		return reflect.ArrayOf(int(u.Len()), reflectType(u.Elem()))
	case *types.Pointer:
		return reflect.PointerTo(reflectType(u.Elem()))
	case *types.Struct:
		fields := make([]reflect.StructField, u.NumFields())
		for i := range fields {
			f := u.Field(i)
			if !f.Exported() {
				panic(fmt.Sprintf("interp: ToGo: unexported field %s of %s", f.Name(), t))
			}
			fields[i] = reflect.StructField{Name: f.Name(), Type: reflectType(f.Type()), Tag: reflect.StructTag(u.Tag(i)), Anonymous: f.Embedded()}
		}
		return reflect.StructOf(fields)
	case *types.Interface:
		if u.Empty() {
			return reflect.TypeFor[any]()
		}
	}
	panic(fmt.Sprintf("interp: ToGo: cannot make Go values of type %s", t))
}

func setReflect(rv reflect.Value, v Value, t types.Type) {
	bad := func() {
		panic(fmt.Sprintf("interp: ToGo: %s is not a value of type %s", Format(v), t))
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		x := reflect.ValueOf(v)
		if !x.IsValid() || x.Type() != rv.Type() {
			bad()
		}
		rv.Set(x)
	case *types.Slice:
		s, ok := v.(Slice)
		if !ok {
			bad()
		}
		if s.Elems == nil {
			return
		}
		full := s.Elems[:cap(s.Elems)]
		out := reflect.MakeSlice(rv.Type(), len(full), len(full))
		for i, e := range full {
			setReflect(out.Index(i), e, u.Elem())
		}
		rv.Set(out.Slice(0, len(s.Elems)))
	case *types.Array:
		a, ok := v.(*Array)
		if !ok || int64(len(a.Elems)) != u.Len() {
			bad()
		}
		for i, e := range a.Elems {
			setReflect(rv.Index(i), e, u.Elem())
		}
	case *types.Struct:
		s, ok := v.(*Struct)
		if !ok || len(s.Fields) != u.NumFields() {
			bad()
		}
		for i, f := range s.Fields {
			setReflect(rv.Field(i), f, u.Field(i).Type())
		}
	case *types.Pointer:
		p, ok := v.(Pointer)
		if !ok {
			bad()
		}
		if p.IsNil() {
			return
		}
		x := reflect.New(rv.Type().Elem())
		setReflect(x.Elem(), *p.ref, u.Elem())
		rv.Set(x)
	case *types.Interface:
		i, ok := v.(Iface)
		if !ok {
			bad()
		}
		if i.Type == nil {
			return
		}
		rv.Set(reflect.ValueOf(ToGo(i.V, i.Type)))
	default:
		bad()
	}
}
