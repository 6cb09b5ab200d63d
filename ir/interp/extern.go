package interp

// This file defines opaque values and GoFunc, which let a caller supply
// Go implementations of functions the IR calls (a runtime package's, such
// as the tensor runtime's) without the interpreter importing them.

import (
	"fmt"
	"reflect"
)

// Opaque is a value the interpreter does not look into: a Go value made
// by a native, such as a *tensorops.Tensor, held as is and passed as is to
// other natives. It may be a value of a pointer type (it compares unequal
// to nil and equal to the same Go pointer) or of an interface type. The
// interpreter cannot load or store through it.
type Opaque struct {
	V any
}

// GoFunc returns a Native that calls fn, a Go function, through reflect:
// a method expression takes the receiver first, and the last argument of
// a variadic function is a slice of the variadic arguments (as the
// interpreter passes them to every callee). A panic of fn is an error,
// which the interpreter makes a panic of the interpreted program. Arguments convert to
// fn's parameter types: an Opaque gives its value, a nil Pointer the nil
// of a pointer, slice, map, func or interface parameter, a Slice a new Go
// slice of its elements (whose new values are copied back into the Slice
// after the call, so that fn may write into it), a basic value is
// converted to the parameter's (possibly named) type, and structs, arrays
// and pointers to Go values convert as by ToGo's rules. Results convert
// back: a nil pointer, slice or interface to its interpreted zero, a
// pointer to a struct or a non-nil interface (which the interpreter cannot
// represent) to an Opaque, a slice that shares the backing array of a
// Slice argument to that Slice resliced, and other values as by FromGo.
// GoFunc panics if fn is not a function.
func GoFunc(fn any) Native {
	fv := reflect.ValueOf(fn)
	ft := fv.Type()
	if ft.Kind() != reflect.Func {
		panic(fmt.Sprintf("interp: GoFunc of a %s", ft))
	}
	return func(args []Value) ([]Value, error) {
		if len(args) != ft.NumIn() {
			return nil, fmt.Errorf("%d arguments for %d parameters", len(args), ft.NumIn())
		}
		in := make([]reflect.Value, len(args))
		var backs []func()
		for i, a := range args {
			rt := ft.In(i)
			rv, back, err := goArg(a, rt)
			if err != nil {
				throw(Invalid, "argument %d of a native: %v", i, err)
			}
			in[i] = rv
			if back != nil {
				backs = append(backs, back)
			}
		}
		out, err := callGo(fv, in)
		for _, b := range backs {
			b()
		}
		if err != nil {
			return nil, err
		}
		res := make([]Value, len(out))
		for i, o := range out {
			res[i] = interpResult(o, args, in)
		}
		return res, nil
	}
}

// callGo calls fv with in (the variadic arguments in a slice) and returns
// its results, or what it panicked with as an error.
func callGo(fv reflect.Value, in []reflect.Value) (out []reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if fv.Type().IsVariadic() {
		return fv.CallSlice(in), nil
	}
	return fv.Call(in), nil
}

// goArg converts the interpreted value a to a Go value of type rt, and
// returns with it a function that copies what the callee wrote into a Go
// slice back into a's Slice (nil when there is none).
func goArg(a Value, rt reflect.Type) (reflect.Value, func(), error) {
	switch a := a.(type) {
	case Opaque:
		rv := reflect.ValueOf(a.V)
		if !rv.Type().AssignableTo(rt) {
			return reflect.Value{}, nil, fmt.Errorf("an opaque %s is not a %s", rv.Type(), rt)
		}
		return rv, nil, nil
	case Pointer:
		if a.IsNil() {
			switch rt.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Func, reflect.Interface:
				return reflect.Zero(rt), nil, nil
			}
		}
		if rt.Kind() != reflect.Pointer {
			return reflect.Value{}, nil, fmt.Errorf("a pointer is not a %s", rt)
		}
		elem, _, err := goArg(*a.ref, rt.Elem())
		if err != nil {
			return reflect.Value{}, nil, err
		}
		p := reflect.New(rt.Elem())
		p.Elem().Set(elem)
		back := func() { store(a.ref, fromReflect(p.Elem())) }
		return p, back, nil
	case Slice:
		if rt.Kind() != reflect.Slice {
			return reflect.Value{}, nil, fmt.Errorf("a slice is not a %s", rt)
		}
		if a.Elems == nil {
			return reflect.Zero(rt), nil, nil
		}
		s := reflect.MakeSlice(rt, len(a.Elems), len(a.Elems))
		for i, e := range a.Elems {
			ev, _, err := goArg(e, rt.Elem())
			if err != nil {
				return reflect.Value{}, nil, err
			}
			s.Index(i).Set(ev)
		}
		back := func() {
			for i := range a.Elems {
				if _, opaque := a.Elems[i].(Opaque); opaque {
					continue
				}
				store(&a.Elems[i], interpValue(s.Index(i)))
			}
		}
		return s, back, nil
	case Iface:
		if a.Type == nil {
			return reflect.Zero(rt), nil, nil
		}
		return goArg(a.V, rt)
	case *Struct, *Array, noValue, Tuple, nil:
		return reflect.Value{}, nil, fmt.Errorf("%s is not a %s", Format(a), rt)
	}
	rv := reflect.ValueOf(a)
	if !rv.Type().ConvertibleTo(rt) {
		return reflect.Value{}, nil, fmt.Errorf("a %s is not a %s", rv.Type(), rt)
	}
	return rv.Convert(rt), nil, nil
}

// interpResult converts the result o of a native called with the
// interpreted arguments args, passed as in.
func interpResult(o reflect.Value, args []Value, in []reflect.Value) Value {
	if o.Kind() == reflect.Slice && !o.IsNil() && o.Len() > 0 {
		// A result that shares an argument's backing array is that
		// argument resliced, as in Go.
		for i, a := range in {
			s, ok := args[i].(Slice)
			if ok && a.Kind() == reflect.Slice && a.Len() > 0 && a.Type() == o.Type() &&
				a.Pointer() == o.Pointer() && o.Len() <= cap(s.Elems) {
				return Slice{Elems: s.Elems[:o.Len()]}
			}
		}
	}
	return interpValue(o)
}

// interpValue converts a Go value to an interpreted one, making Opaques
// of the values FromGo cannot convert.
func interpValue(o reflect.Value) Value {
	switch o.Kind() {
	case reflect.Pointer:
		if o.IsNil() {
			return Pointer{}
		}
		if o.Elem().Kind() == reflect.Struct {
			return Opaque{o.Interface()}
		}
		return NewVar(interpValue(o.Elem()))
	case reflect.Interface:
		if o.IsNil() {
			return Iface{}
		}
		return Opaque{o.Interface()}
	case reflect.Slice:
		if o.IsNil() {
			return Slice{}
		}
		elems := make([]Value, o.Len())
		for i := range elems {
			elems[i] = interpValue(o.Index(i))
		}
		return Slice{Elems: elems}
	case reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return Opaque{o.Interface()}
	}
	return fromReflect(o)
}
