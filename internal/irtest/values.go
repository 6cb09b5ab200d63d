package irtest

// This file defines the helpers of execution tests that read and replace
// the floats of interpreter values (ir/interp): the inputs and outputs of
// a function under test flattened into one vector, as finite differences
// (gadtest, internal/fdcheck) take them.

import "github.com/gadgen/gadgen/ir/interp"

// Floats appends the floats of v to dst and returns it: in slices (up to
// their length), arrays and struct fields in order, and behind pointers.
func Floats(dst []float64, v interp.Value) []float64 {
	switch v := v.(type) {
	case float64:
		dst = append(dst, v)
	case float32:
		dst = append(dst, float64(v))
	case interp.Slice:
		for _, e := range v.Elems {
			dst = Floats(dst, e)
		}
	case *interp.Array:
		for _, e := range v.Elems {
			dst = Floats(dst, e)
		}
	case *interp.Struct:
		for _, f := range v.Fields {
			dst = Floats(dst, f)
		}
	case interp.Pointer:
		if !v.IsNil() {
			dst = Floats(dst, v.Load())
		}
	}
	return dst
}

// WithFloats returns a copy of v, in new memory, whose floats are taken
// from x in the order Floats reads them (kept as they are when x is nil),
// and the rest of x.
func WithFloats(v interp.Value, x []float64) (interp.Value, []float64) {
	switch v := v.(type) {
	case float64:
		if x == nil {
			return v, nil
		}
		return x[0], x[1:]
	case float32:
		if x == nil {
			return v, nil
		}
		return float32(x[0]), x[1:]
	case interp.Slice:
		if v.Elems == nil {
			return v, x
		}
		full := v.Elems[:cap(v.Elems)]
		elems := make([]interp.Value, len(full))
		for i, e := range full {
			if i < len(v.Elems) {
				elems[i], x = WithFloats(e, x)
			} else {
				elems[i], _ = WithFloats(e, nil)
			}
		}
		return interp.Slice{Elems: elems[:len(v.Elems)]}, x
	case *interp.Array:
		a := &interp.Array{Elems: make([]interp.Value, len(v.Elems))}
		for i, e := range v.Elems {
			a.Elems[i], x = WithFloats(e, x)
		}
		return a, x
	case *interp.Struct:
		s := &interp.Struct{Fields: make([]interp.Value, len(v.Fields))}
		for i, f := range v.Fields {
			s.Fields[i], x = WithFloats(f, x)
		}
		return s, x
	case interp.Pointer:
		if v.IsNil() {
			return v, x
		}
		e, rest := WithFloats(v.Load(), x)
		return interp.NewVar(e), rest
	}
	return v, x
}
