package ir

// This file defines the helpers on go/types that the front end and the
// differentiation modes share: a function's parameters as derivatives see
// them, which types carry derivatives, the default activity, and a
// function's name in messages.

import "go/types"

// Params returns the parameters of fn as the derivative sees them: the
// receiver first for a method.
func Params(fn *types.Func) []*types.Var {
	sig := fn.Type().(*types.Signature)
	var ps []*types.Var
	if r := sig.Recv(); r != nil {
		ps = append(ps, r)
	}
	for v := range sig.Params().Variables() {
		ps = append(ps, v)
	}
	return ps
}

// HasFloat reports whether values of type t hold floating-point numbers
// (float32, float64), directly or through slices, arrays, pointers and
// struct fields: the types that can carry derivatives.
func HasFloat(t types.Type) bool {
	return Holds(t, func(t types.Type) bool {
		b, ok := t.Underlying().(*types.Basic)
		return IsTensor(t) || ok && b.Info()&types.IsFloat != 0
	})
}

// Holds reports whether t, or a type that values of t hold through
// slices, arrays, pointers and struct fields, satisfies is.
func Holds(t types.Type, is func(types.Type) bool) bool {
	return holds(t, is, map[types.Type]bool{})
}

func holds(t types.Type, is func(types.Type) bool, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if is(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return holds(u.Elem(), is, seen)
	case *types.Array:
		return holds(u.Elem(), is, seen)
	case *types.Pointer:
		return holds(u.Elem(), is, seen)
	case *types.Struct:
		for f := range u.Fields() {
			if holds(f.Type(), is, seen) {
				return true
			}
		}
	}
	return false
}

// DefaultActivity returns the default activity of fn's parameters
// (receiver first): parameters whose types hold floats are varied;
// ints, bools, strings and method receivers are not.
func DefaultActivity(fn *types.Func) []bool {
	ps := Params(fn)
	act := make([]bool, len(ps))
	hasRecv := fn.Type().(*types.Signature).Recv() != nil
	for i, p := range ps {
		act[i] = HasFloat(p.Type()) && !(hasRecv && i == 0)
	}
	return act
}

// FullActivity marks every parameter of fn whose type holds floats as
// varied, the receiver included.
func FullActivity(fn *types.Func) []bool {
	ps := Params(fn)
	act := make([]bool, len(ps))
	for i, p := range ps {
		act[i] = HasFloat(p.Type())
	}
	return act
}

// FuncName names fn in messages and doc comments: "F", or "T.M" for a
// method (pointer receivers and aliases too).
func FuncName(fn *types.Func) string {
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		switch t := t.(type) {
		case *types.Named:
			return t.Obj().Name() + "." + fn.Name()
		case *types.Alias:
			return t.Obj().Name() + "." + fn.Name()
		case *types.Interface:
			return "interface." + fn.Name()
		}
	}
	return fn.Name()
}
