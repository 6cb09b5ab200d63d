package ir

// This file defines the type rules of the opcode table (op.go): for each
// op, how the type of a value follows from the types of its arguments and
// its auxiliary fields. The IR is lowered from go/ssa, whose values carry
// the types go/types gave the source, so the rules ask for identical types
// wherever Go's own rules do. They ask for identical types too where Go
// asks for assignability (a stored value, a call's argument, a returned
// value): go/ssa converts those to the type they go to (its emitConv), and
// the passes keep it so; an interface method's receiver is the exception.

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
)

func invalidType(v *Value) string { return "invalid op" }

// constType: a constant's value is of the kind of its type: a boolean, a
// string, or a number, which for an integer type is integral (go/ssa's
// constants, like Go's untyped ones, may hold 2 for a float64 or 4.0 for an
// int); nil for a zero value. Whether an integer fits its type (200 in an
// int8) is left to the Go compiler and the interpreter: the size of int
// depends on the target.
func constType(v *Value) string {
	if v.Const == nil {
		return ""
	}
	b, ok := v.Type.Underlying().(*types.Basic)
	var want bool
	switch k := v.Const.Kind(); {
	case !ok:
		want = false
	case k == constant.Bool:
		want = b.Info()&types.IsBoolean != 0
	case k == constant.String:
		want = b.Info()&types.IsString != 0
	case b.Info()&types.IsInteger != 0:
		want = constant.ToInt(v.Const).Kind() == constant.Int
	case b.Info()&types.IsFloat != 0:
		want = k == constant.Int || k == constant.Float
	case b.Info()&types.IsComplex != 0:
		want = k == constant.Int || k == constant.Float || k == constant.Complex
	}
	if !want {
		return fmt.Sprintf("constant %s of type %s", v.Const, v.Type)
	}
	return ""
}

func phiType(v *Value) string {
	for j, a := range v.Args {
		if a != nil && !types.Identical(a.Type, v.Type) {
			return fmt.Sprintf("φ of type %s has argument %d of type %s", v.Type, j, a.Type)
		}
	}
	return ""
}

func binaryType(v *Value) string {
	x, y := v.Args[0], v.Args[1]
	switch v.Tok {
	case token.SHL, token.SHR:
		if !isInteger(x.Type) || !isInteger(y.Type) {
			return fmt.Sprintf("%s of %s by %s", v.Tok, x.Type, y.Type)
		}
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ,
		token.ADD, token.SUB, token.MUL, token.QUO, token.REM,
		token.AND, token.OR, token.XOR, token.AND_NOT, token.LAND, token.LOR:
		if !types.Identical(x.Type, y.Type) {
			return fmt.Sprintf("%s operands of types %s and %s", v.Tok, x.Type, y.Type)
		}
		if (v.Tok == token.LAND || v.Tok == token.LOR) && !isBoolean(x.Type) {
			return fmt.Sprintf("%s of %s operands", v.Tok, x.Type)
		}
	default:
		return fmt.Sprintf("binary operator %s", v.Tok)
	}
	if isComparison(v.Tok) {
		if !isBoolean(v.Type) {
			return fmt.Sprintf("comparison %s of type %s", v.Tok, v.Type)
		}
		return ""
	}
	if !types.Identical(v.Type, x.Type) {
		return fmt.Sprintf("%s of %s operands has type %s", v.Tok, x.Type, v.Type)
	}
	return ""
}

func unaryType(v *Value) string {
	x := v.Args[0]
	switch v.Tok {
	case token.SUB, token.XOR, token.NOT:
	default:
		return fmt.Sprintf("unary operator %s", v.Tok)
	}
	if v.Tok == token.NOT && !isBoolean(x.Type) {
		return fmt.Sprintf("! of %s", x.Type)
	}
	if !types.Identical(v.Type, x.Type) {
		return fmt.Sprintf("%s of %s has type %s", v.Tok, x.Type, v.Type)
	}
	return ""
}

func convertType(v *Value) string {
	if x := v.Args[0]; !types.ConvertibleTo(x.Type, v.Type) {
		return fmt.Sprintf("conversion of %s to %s", x.Type, v.Type)
	}
	return ""
}

func selectType(v *Value) string {
	if c := v.Args[0]; !isBoolean(c.Type) {
		return fmt.Sprintf("select on a condition of type %s", c.Type)
	}
	for _, a := range v.Args[1:] {
		if !types.Identical(a.Type, v.Type) {
			return fmt.Sprintf("select of type %s has an operand of type %s", v.Type, a.Type)
		}
	}
	return ""
}

// callType: the arguments match the callee's parameters (the receiver
// first for a method) in number and type, and the result has the callee's
// result types; for builtins, the rules of the builtin. The receiver of
// an interface method called dynamically (Invoke) is any interface that
// has the method: one embedding the method's interface is assignable to
// it, not identical.
func callType(v *Value) string {
	c := v.Callee
	if c == nil {
		return "call without callee"
	}
	var sig *types.Signature
	recv := false
	switch {
	case c.Derived != nil:
		sig, recv = c.Derived.Sig, c.Derived.Method
	case c.Func != nil:
		sig = c.Func.Type().(*types.Signature)
		recv = sig.Recv() != nil
	case c.Builtin != "":
		return builtinType(v)
	case c.Value:
		if len(v.Args) == 0 {
			return "call of a func value without it"
		}
		s, ok := v.Args[0].Type.Underlying().(*types.Signature)
		if !ok {
			return fmt.Sprintf("call of a value of type %s", v.Args[0].Type)
		}
		sig = s
		v = &Value{Type: v.Type, Args: v.Args[1:], Callee: c}
	}
	if sig == nil {
		return ""
	}
	var params []types.Type
	if recv {
		params = append(params, sig.Recv().Type())
	}
	for p := range sig.Params().Variables() {
		params = append(params, p.Type())
	}
	if sig.Variadic() && !c.Spread {
		// The variadic arguments are plain arguments, any number of them.
		last := len(params) - 1
		elem := params[last].(*types.Slice).Elem()
		params = params[:last]
		if len(v.Args) < last {
			return fmt.Sprintf("call of %s with %d arguments for %d or more parameters", c, len(v.Args), last)
		}
		for len(params) < len(v.Args) {
			params = append(params, elem)
		}
	}
	if len(v.Args) != len(params) {
		return fmt.Sprintf("call of %s with %d arguments for %d parameters", c, len(v.Args), len(params))
	}
	for i, a := range v.Args {
		ok := types.Identical(a.Type, params[i])
		if i == 0 && c.Invoke {
			ok = types.AssignableTo(a.Type, params[i])
		}
		if !ok {
			return fmt.Sprintf("call of %s: argument %d of type %s for a parameter of type %s", c, i, a.Type, params[i])
		}
	}
	var want types.Type
	switch res := sig.Results(); res.Len() {
	case 0:
	case 1:
		want = res.At(0).Type()
	default:
		want = res
	}
	if !sameType(v.Type, want) {
		return fmt.Sprintf("call of %s has type %s, its result %s", c, v.Type, want)
	}
	return ""
}

// builtinType is callType for the builtins the IR calls.
func builtinType(v *Value) string {
	c := v.Callee
	var want types.Type
	switch c.Builtin {
	case "copy":
		want = types.Typ[types.Int]
	case "min", "max":
		want = v.Type
		for _, a := range v.Args {
			if !types.Identical(a.Type, want) {
				return fmt.Sprintf("%s of type %s has an operand of type %s", c.Builtin, want, a.Type)
			}
		}
	case "append":
		if len(v.Args) == 0 {
			return "append without arguments"
		}
		want = v.Args[0].Type
	case "print", "println", "clear", SuspendBuiltin:
	case LaneFloatBuiltin:
		if len(v.Args) != 1 || !IsTensor(v.Args[0].Type) {
			return "lanefloat takes a tensor and returns a float"
		}
		want = v.Type
	case LaneTensorBuiltin:
		if len(v.Args) != 1 || !IsTensor(v.Type) {
			return "lanetensor takes a float and returns a tensor"
		}
		want = v.Type
	case LaneSumBuiltin:
		if len(v.Args) != 1 || !types.Identical(v.Args[0].Type, v.Type) {
			return "lanesum takes a float and returns one of its type"
		}
		want = v.Type
	default:
		return fmt.Sprintf("call of unknown builtin %s", c.Builtin)
	}
	if !sameType(v.Type, want) {
		return fmt.Sprintf("call of %s has type %s, want %s", c.Builtin, v.Type, want)
	}
	return ""
}

func extractType(v *Value) string {
	t, ok := v.Args[0].Type.(*types.Tuple)
	switch {
	case !ok:
		return fmt.Sprintf("extract from non-tuple %s", v.Args[0].Type)
	case v.Index < 0 || v.Index >= t.Len():
		return fmt.Sprintf("extract #%d from a tuple of %d", v.Index, t.Len())
	case !types.Identical(t.At(v.Index).Type(), v.Type):
		return fmt.Sprintf("extract #%d of type %s has type %s", v.Index, t.At(v.Index).Type(), v.Type)
	}
	return ""
}

func allocType(v *Value) string {
	if _, ok := v.Type.Underlying().(*types.Pointer); !ok {
		return fmt.Sprintf("alloc of non-pointer type %s", v.Type)
	}
	return ""
}

func globalType(v *Value) string {
	if v.Global == nil {
		return "global without variable"
	}
	if !types.Identical(v.Type, types.NewPointer(v.Global.Type())) {
		return fmt.Sprintf("global %s of type %s has type %s", v.Global.Name(), v.Global.Type(), v.Type)
	}
	return ""
}

func loadType(v *Value) string {
	a := v.Args[0]
	if p, ok := a.Type.Underlying().(*types.Pointer); !ok {
		return fmt.Sprintf("load from non-pointer %s", a.Type)
	} else if !types.Identical(p.Elem(), v.Type) {
		return fmt.Sprintf("load of %s has type %s", p.Elem(), v.Type)
	}
	return ""
}

func storeType(v *Value) string {
	a, x := v.Args[0], v.Args[1]
	if p, ok := a.Type.Underlying().(*types.Pointer); !ok {
		return fmt.Sprintf("store to non-pointer %s", a.Type)
	} else if !types.Identical(x.Type, p.Elem()) {
		return fmt.Sprintf("store of %s to *%s", x.Type, p.Elem())
	}
	return ""
}

// fieldType is the rule of OpField and OpFieldAddr.
func fieldType(v *Value) string {
	t := v.Args[0].Type
	if v.Op == OpFieldAddr {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			return fmt.Sprintf("field address of non-pointer %s", t)
		}
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	switch {
	case !ok:
		return fmt.Sprintf("field of non-struct %s", t)
	case v.Index < 0 || v.Index >= st.NumFields():
		return fmt.Sprintf("field %d of a struct of %d fields", v.Index, st.NumFields())
	}
	want := st.Field(v.Index).Type()
	if v.Op == OpFieldAddr {
		want = types.NewPointer(want)
	}
	if !types.Identical(want, v.Type) {
		return fmt.Sprintf("field %d has type %s, the value %s", v.Index, want, v.Type)
	}
	return ""
}

func indexAddrType(v *Value) string {
	x, i := v.Args[0], v.Args[1]
	var elem types.Type
	switch t := x.Type.Underlying().(type) {
	case *types.Slice:
		elem = t.Elem()
	case *types.Pointer:
		if a, ok := t.Elem().Underlying().(*types.Array); ok {
			elem = a.Elem()
		}
	}
	switch {
	case elem == nil:
		return fmt.Sprintf("index address in %s", x.Type)
	case !isInteger(i.Type):
		return fmt.Sprintf("index of type %s", i.Type)
	case !types.Identical(v.Type, types.NewPointer(elem)):
		return fmt.Sprintf("address of an element of %s has type %s", x.Type, v.Type)
	}
	return ""
}

func indexType(v *Value) string {
	x, i := v.Args[0], v.Args[1]
	var elem types.Type
	switch t := x.Type.Underlying().(type) {
	case *types.Array:
		elem = t.Elem()
	case *types.Basic:
		if t.Info()&types.IsString != 0 {
			elem = types.Typ[types.Byte]
		}
	}
	switch {
	case elem == nil:
		return fmt.Sprintf("index in %s", x.Type)
	case !isInteger(i.Type):
		return fmt.Sprintf("index of type %s", i.Type)
	case !types.Identical(v.Type, elem):
		return fmt.Sprintf("element of %s has type %s", x.Type, v.Type)
	}
	return ""
}

func makeSliceType(v *Value) string {
	if _, ok := v.Type.Underlying().(*types.Slice); !ok {
		return fmt.Sprintf("make of non-slice %s", v.Type)
	}
	return integerArgs(v, 0)
}

// sliceType: slicing a slice or a string keeps its type; slicing a
// pointer to an array gives a slice of its elements.
func sliceType(v *Value) string {
	x := v.Args[0]
	var want types.Type
	switch t := x.Type.Underlying().(type) {
	case *types.Slice:
		want = x.Type
	case *types.Basic:
		if t.Info()&types.IsString != 0 {
			want = x.Type
		}
	case *types.Pointer:
		if a, ok := t.Elem().Underlying().(*types.Array); ok {
			want = types.NewSlice(a.Elem())
		}
	}
	switch {
	case want == nil:
		return fmt.Sprintf("slice of %s", x.Type)
	case !types.Identical(v.Type, want):
		return fmt.Sprintf("slice of %s has type %s", x.Type, v.Type)
	}
	return integerArgs(v, 1)
}

// lenType is the rule of OpLen and OpCap.
func lenType(v *Value) string {
	if !types.Identical(v.Type, types.Typ[types.Int]) {
		return fmt.Sprintf("%s of type %s", v.Op, v.Type)
	}
	return ""
}

func ifType(v *Value) string {
	if c := v.Args[0]; !isBoolean(c.Type) {
		return fmt.Sprintf("condition of type %s", c.Type)
	}
	return ""
}

// returnType: the results have the function's result types (their number
// is checked with the block).
func returnType(v *Value) string {
	if v.Block == nil || v.Block.Func == nil {
		return ""
	}
	res := v.Block.Func.ResultTypes
	for i, a := range v.Args {
		if i < len(res) && !types.Identical(a.Type, res[i]) {
			return fmt.Sprintf("result %d of type %s for a result of type %s", i, a.Type, res[i])
		}
	}
	return ""
}

// integerArgs checks that the arguments of v from first on, those that are
// present, are integers.
func integerArgs(v *Value, first int) string {
	for _, a := range v.Args[first:] {
		if a != nil && !isInteger(a.Type) {
			return fmt.Sprintf("%s with an operand of type %s", v.Op, a.Type)
		}
	}
	return ""
}

// sameType is types.Identical where either type may be nil.
func sameType(x, y types.Type) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	return types.Identical(x, y)
}

func isBoolean(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func isComparison(tok token.Token) bool {
	switch tok {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}
