package interp

// This file defines calls (OpCall): of functions with IR bodies, of
// natives, of primitives (the functions of package templates' table:
// math's, mathext's, ...) and of templates' helpers, and of the builtins.

import (
	"cmp"
	"go/types"
	"reflect"
	"runtime"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// callOp executes the call v and returns its result: the value for one
// result, a Tuple for several, noValue for none.
func (fr *frame) callOp(v *ir.Value) Value {
	c := v.Callee
	if c == nil {
		throw(Invalid, "call without a callee")
	}
	args := make([]Value, len(v.Args))
	for i, a := range v.Args {
		args[i] = fr.get(a)
	}
	if c.Builtin != "" {
		return fr.builtin(v, args)
	}
	if c.Invoke {
		throw(Unsupported, "dynamic call of interface method %s", c)
	}
	if c.Value {
		k, ok := args[0].(*Continuation)
		if !ok {
			throw(Unsupported, "call of a func value other than a continuation")
		}
		return results(v, k.call(args[1:]))
	}
	if c.Func != nil && c.Func.Signature().Variadic() && !c.Spread {
		args = packVariadic(c.Func.Signature(), args)
	}
	var res []Value
	m := fr.m
	switch {
	case c.Derived != nil:
		name := c.Derived.Name
		if f := m.Derived[name]; f != nil {
			res = fr.callIR(f, args)
		} else if n := m.Natives[name]; n != nil {
			res = callNative(name, n, args)
		} else if r, ok := templates.Lookup("", name); ok && c.Derived.Helper && r.Func != nil {
			res = callFunc(name, r.Func, args)
		} else {
			throw(Unsupported, "no body for generated function %s (Machine.Derived)", name)
		}
	case c.Func != nil:
		fn := c.Func
		if f := m.Funcs[fn]; f != nil {
			res = fr.callIR(f, args)
		} else if f := m.Funcs[fn.Origin()]; f != nil {
			res = fr.callIR(f, args)
		} else if n := m.Natives[fn.FullName()]; n != nil {
			res = callNative(fn.FullName(), n, args)
		} else if r := c.Primitive(); r != nil {
			res = callFunc(fn.FullName(), r.Func, args)
		} else {
			throw(Unsupported, "no body for %s (Machine.Funcs or Natives)", fn.FullName())
		}
	default:
		throw(Invalid, "call without a callee")
	}
	return results(v, res)
}

// packVariadic returns args, the arguments of a call of a function of
// signature sig without "..." (a method's receiver first), with the variadic ones packed into a new
// slice, as Go passes them: the callee's last parameter is a slice.
func packVariadic(sig *types.Signature, args []Value) []Value {
	n := sig.Params().Len() - 1
	if sig.Recv() != nil {
		n++ // args holds the receiver first
	}
	if len(args) < n {
		throw(Invalid, "%d arguments for a variadic function of %d parameters", len(args), n+1)
	}
	var s Slice
	if len(args) > n {
		s.Elems = make([]Value, len(args)-n)
		for i, a := range args[n:] {
			s.Elems[i] = copyValue(a)
		}
	}
	return append(args[:n:n], s)
}

// results packs the results of call v as its register value.
func results(v *ir.Value, res []Value) Value {
	switch t := v.Type.(type) {
	case nil:
		return noValue{}
	case *types.Tuple:
		if len(res) != t.Len() {
			throw(Invalid, "callee returned %d results for %d", len(res), t.Len())
		}
		return Tuple(res)
	}
	if len(res) != 1 {
		throw(Invalid, "callee returned %d results for 1", len(res))
	}
	return res[0]
}

func (fr *frame) callIR(f *ir.Func, args []Value) []Value {
	res, err := fr.m.call(f, args)
	if err != nil {
		panic(err) // run adds this frame to the error's stack.
	}
	return res
}

func callNative(name string, n Native, args []Value) []Value {
	res, err := n(args)
	if err != nil {
		throw(Panic, "%s: %v", name, err)
	}
	return res
}

// callFunc calls f, the Go function of a primitive or helper named name.
func callFunc(name string, f any, args []Value) []Value {
	fv := reflect.ValueOf(f)
	ft := fv.Type()
	if len(args) != ft.NumIn() {
		throw(Invalid, "%s takes %d arguments, got %d", name, ft.NumIn(), len(args))
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
		if in[i].Type() != ft.In(i) {
			throw(Invalid, "argument %d of %s is %T, not %s", i, name, a, ft.In(i))
		}
	}
	out := fv.Call(in)
	res := make([]Value, len(out))
	for i, o := range out {
		res[i] = o.Interface()
	}
	return res
}

// builtin executes the call v of a builtin with arguments args.
func (fr *frame) builtin(v *ir.Value, args []Value) Value {
	name := v.Callee.Builtin
	argType := func(i int) types.Type { return v.Args[i].Type }
	switch name {
	case "len":
		return length(args[0], argType(0))
	case "cap":
		return capacity(args[0], argType(0))
	case "append":
		st, ok := v.Type.Underlying().(*types.Slice)
		if !ok {
			throw(Invalid, "append of type %s", v.Type)
		}
		s := args[0].(Slice)
		xs := args[1:]
		if v.Callee.Spread {
			if len(args) != 2 {
				throw(Invalid, "append with ... has %d arguments", len(args))
			}
			switch y := args[1].(type) {
			case Slice:
				xs = y.Elems
			case string:
				xs = fromString(y, st).Elems
			default:
				throw(Invalid, "append of %s...", Format(y))
			}
		}
		return appendValues(st.Elem(), s, xs)
	case "copy":
		dst := args[0].(Slice)
		var src []Value
		switch y := args[1].(type) {
		case Slice:
			src = y.Elems
		case string:
			src = fromString(y, types.NewSlice(types.Typ[types.Byte])).Elems
		default:
			throw(Invalid, "copy from %s", Format(y))
		}
		n := min(len(dst.Elems), len(src))
		// Read before writing: the slices may overlap.
		vals := make([]Value, n)
		for i := range vals {
			vals[i] = copyValue(src[i])
		}
		for i, x := range vals {
			store(&dst.Elems[i], x)
		}
		return n
	case "min", "max":
		if len(args) == 0 {
			throw(Invalid, "%s without arguments", name)
		}
		return minMax(name == "max", args)
	case "clear":
		s, ok := args[0].(Slice)
		if !ok {
			throw(Unsupported, "clear of %s", argType(0))
		}
		elem := argType(0).Underlying().(*types.Slice).Elem()
		for i := range s.Elems {
			store(&s.Elems[i], Zero(elem))
		}
		return noValue{}
	case "print", "println":
		return noValue{}
	}
	throw(Unsupported, "builtin %s", name)
	return nil
}

// appendValues returns append(s, xs...) for a slice of elem.
func appendValues(elem types.Type, s Slice, xs []Value) Slice {
	// Copy the new elements first: they may be slots of s's backing array.
	vals := make([]Value, len(xs))
	for i, x := range xs {
		vals[i] = copyValue(x)
	}
	n, need := len(s.Elems), len(s.Elems)+len(xs)
	if need <= cap(s.Elems) {
		out := s.Elems[:need]
		for i, x := range vals {
			store(&out[n+i], x)
		}
		return Slice{Elems: out}
	}
	out := make([]Value, need, growCap(elem, n, cap(s.Elems), need))
	for i, x := range s.Elems {
		out[i] = copyValue(x)
	}
	copy(out[n:], vals)
	spare := out[need:cap(out)]
	for i := range spare {
		spare[i] = Zero(elem)
	}
	return Slice{Elems: out}
}

var hostSizes = types.SizesFor("gc", runtime.GOARCH)

// growCap returns the capacity the gc runtime gives the backing array of
// a slice of elem of length oldLen and capacity oldCap grown by append to
// newLen > oldCap elements. It asks the runtime: it appends to a slice of
// an element type of the same size and pointer-ness through reflect
// (reflect.Value.Grow and append share runtime.growslice), so it follows
// the host toolchain's growth policy and size classes exactly.
func growCap(elem types.Type, oldLen, oldCap, newLen int) int {
	size := hostSizes.Sizeof(elem)
	var et reflect.Type
	if hasPointers(elem) {
		ptr := hostSizes.Sizeof(types.Typ[types.UnsafePointer])
		et = reflect.ArrayOf(int((size+ptr-1)/ptr), reflect.TypeFor[*byte]())
	} else {
		et = reflect.ArrayOf(int(size), reflect.TypeFor[byte]())
	}
	s := reflect.MakeSlice(reflect.SliceOf(et), oldLen, oldCap)
	s = reflect.AppendSlice(s, reflect.MakeSlice(reflect.SliceOf(et), newLen-oldLen, newLen-oldLen))
	return s.Cap()
}

// hasPointers reports whether values of t hold pointers, which decides
// the size classes of their allocation.
func hasPointers(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.String || u.Kind() == types.UnsafePointer
	case *types.Array:
		return u.Len() > 0 && hasPointers(u.Elem())
	case *types.Struct:
		for f := range u.Fields() {
			if hasPointers(f.Type()) {
				return true
			}
		}
		return false
	}
	return true
}

// minMax returns the builtin min or max of xs, folded from the left with
// the host's builtins (NaN wins; min(-0, +0) is -0).
func minMax(isMax bool, xs []Value) Value {
	switch xs[0].(type) {
	case int:
		return fold[int](isMax, xs)
	case int8:
		return fold[int8](isMax, xs)
	case int16:
		return fold[int16](isMax, xs)
	case int32:
		return fold[int32](isMax, xs)
	case int64:
		return fold[int64](isMax, xs)
	case uint:
		return fold[uint](isMax, xs)
	case uint8:
		return fold[uint8](isMax, xs)
	case uint16:
		return fold[uint16](isMax, xs)
	case uint32:
		return fold[uint32](isMax, xs)
	case uint64:
		return fold[uint64](isMax, xs)
	case uintptr:
		return fold[uintptr](isMax, xs)
	case float32:
		return fold[float32](isMax, xs)
	case float64:
		return fold[float64](isMax, xs)
	case string:
		return fold[string](isMax, xs)
	}
	throw(Invalid, "min or max of %s", Format(xs[0]))
	return nil
}

func fold[T cmp.Ordered](isMax bool, xs []Value) T {
	r := xs[0].(T)
	for _, x := range xs[1:] {
		y, ok := x.(T)
		if !ok {
			throw(Invalid, "min or max of %T and %T", r, x)
		}
		if isMax {
			r = max(r, y)
		} else {
			r = min(r, y)
		}
	}
	return r
}
