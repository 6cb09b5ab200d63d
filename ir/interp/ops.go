package interp

// This file defines the operations on values: constants, arithmetic and
// comparisons (OpBinary, OpUnary), conversions (OpConvert), and indexing,
// slicing, len and cap. Arithmetic is done by the host's Go operators on
// values of the operands' kinds, so that it follows the Go specification
// as the gc toolchain implements it (wrapping integers, IEEE floats
// rounded to their type, shifts by large counts).

import (
	"cmp"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"unicode/utf8"

	"github.com/gadgen/gadgen/ir"
)

type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

type float interface{ ~float32 | ~float64 }

type cplx interface{ ~complex64 | ~complex128 }

type realNumber interface{ integer | float }

// constValue returns the value of the constant v, converted to v's type.
func constValue(v *ir.Value) Value {
	if v.Const == nil {
		return Zero(v.Type)
	}
	return fromConstant(v.Const, v.Type)
}

// fromConstant converts c to a value of type t, as an implicit conversion
// of a constant does in Go: it must be representable (floats are rounded).
func fromConstant(c constant.Value, t types.Type) Value {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		info := u.Info()
		switch {
		case info&types.IsBoolean != 0:
			if c.Kind() == constant.Bool {
				return constant.BoolVal(c)
			}
		case info&types.IsString != 0:
			if c.Kind() == constant.String {
				return constant.StringVal(c)
			}
		case info&types.IsInteger != 0:
			return intConstant(c, u)
		case info&types.IsFloat != 0:
			c = constant.ToFloat(c)
			if c.Kind() != constant.Float {
				break
			}
			if u.Kind() == types.Float32 {
				f, _ := constant.Float32Val(c)
				return f
			}
			f, _ := constant.Float64Val(c)
			return f
		case info&types.IsComplex != 0:
			c = constant.ToComplex(c)
			if c.Kind() != constant.Complex {
				break
			}
			if u.Kind() == types.Complex64 {
				re, _ := constant.Float32Val(constant.Real(c))
				im, _ := constant.Float32Val(constant.Imag(c))
				return complex(re, im)
			}
			re, _ := constant.Float64Val(constant.Real(c))
			im, _ := constant.Float64Val(constant.Imag(c))
			return complex(re, im)
		}
	case *types.Interface:
		var dt types.Type
		switch c.Kind() {
		case constant.Bool:
			dt = types.Typ[types.Bool]
		case constant.String:
			dt = types.Typ[types.String]
		case constant.Int:
			dt = types.Typ[types.Int]
		case constant.Float:
			dt = types.Typ[types.Float64]
		case constant.Complex:
			dt = types.Typ[types.Complex128]
		}
		if dt != nil {
			return Iface{Type: dt, V: fromConstant(c, dt)}
		}
	}
	throw(Invalid, "constant %s of type %s", c.ExactString(), t)
	return nil
}

func intConstant(c constant.Value, b *types.Basic) Value {
	c = constant.ToInt(c)
	if c.Kind() != constant.Int {
		throw(Invalid, "constant %s is not an integer", c.ExactString())
	}
	var z Value
	if i, ok := constant.Int64Val(c); ok {
		z = convertNumber(i, b.Kind())
	} else if u, ok := constant.Uint64Val(c); ok {
		z = convertNumber(u, b.Kind())
	} else {
		throw(Invalid, "constant %s overflows %s", c.ExactString(), b)
	}
	// Representable: the value converts back to the constant.
	var back constant.Value
	if b.Info()&types.IsUnsigned != 0 {
		back = constant.MakeUint64(convertNumber(z, types.Uint64).(uint64))
	} else {
		back = constant.MakeInt64(convertNumber(z, types.Int64).(int64))
	}
	if constant.Compare(back, token.NEQ, c) {
		throw(Invalid, "constant %s overflows %s", c.ExactString(), b)
	}
	return z
}

// binary returns x tok y; xt is the type of x.
func binary(tok token.Token, xt types.Type, x, y Value) Value {
	switch tok {
	case token.EQL:
		return equal(x, y)
	case token.NEQ:
		return !equal(x, y)
	}
	switch x := x.(type) {
	case int:
		return intBinary(tok, x, y)
	case int8:
		return intBinary(tok, x, y)
	case int16:
		return intBinary(tok, x, y)
	case int32:
		return intBinary(tok, x, y)
	case int64:
		return intBinary(tok, x, y)
	case uint:
		return intBinary(tok, x, y)
	case uint8:
		return intBinary(tok, x, y)
	case uint16:
		return intBinary(tok, x, y)
	case uint32:
		return intBinary(tok, x, y)
	case uint64:
		return intBinary(tok, x, y)
	case uintptr:
		return intBinary(tok, x, y)
	case float32:
		return floatBinary(tok, x, y.(float32))
	case float64:
		return floatBinary(tok, x, y.(float64))
	case complex64:
		return complexBinary(tok, x, y.(complex64))
	case complex128:
		return complexBinary(tok, x, y.(complex128))
	case string:
		y := y.(string)
		if tok == token.ADD {
			return x + y
		}
		if r, ok := compare(tok, x, y); ok {
			return r
		}
	case bool:
		y := y.(bool)
		switch tok {
		case token.LAND:
			return x && y
		case token.LOR:
			return x || y
		}
	}
	throw(Invalid, "operator %s on %s", tok, xt)
	return nil
}

// compare returns x tok y for an ordering tok, and whether tok is one.
func compare[T cmp.Ordered](tok token.Token, x, y T) (bool, bool) {
	switch tok {
	case token.LSS:
		return x < y, true
	case token.LEQ:
		return x <= y, true
	case token.GTR:
		return x > y, true
	case token.GEQ:
		return x >= y, true
	}
	return false, false
}

func intBinary[T integer](tok token.Token, x T, yv Value) Value {
	switch tok {
	case token.SHL:
		return x << shiftCount(yv)
	case token.SHR:
		return x >> shiftCount(yv)
	}
	y := yv.(T)
	switch tok {
	case token.ADD:
		return x + y
	case token.SUB:
		return x - y
	case token.MUL:
		return x * y
	case token.QUO:
		if y == 0 {
			runtimeError("integer divide by zero")
		}
		return x / y
	case token.REM:
		if y == 0 {
			runtimeError("integer divide by zero")
		}
		return x % y
	case token.AND:
		return x & y
	case token.OR:
		return x | y
	case token.XOR:
		return x ^ y
	case token.AND_NOT:
		return x &^ y
	}
	if r, ok := compare(tok, x, y); ok {
		return r
	}
	throw(Invalid, "operator %s on %T", tok, x)
	return nil
}

// shiftCount returns a shift count of any integer type as a uint64; a
// negative count panics.
func shiftCount(v Value) uint64 {
	i, u, signed := toInt64(v)
	if signed {
		if i < 0 {
			runtimeError("negative shift amount")
		}
		return uint64(i)
	}
	return u
}

func floatBinary[T float](tok token.Token, x, y T) Value {
	switch tok {
	case token.ADD:
		return x + y
	case token.SUB:
		return x - y
	case token.MUL:
		return x * y
	case token.QUO:
		return x / y
	}
	if r, ok := compare(tok, x, y); ok {
		return r
	}
	throw(Invalid, "operator %s on %T", tok, x)
	return nil
}

func complexBinary[T cplx](tok token.Token, x, y T) Value {
	switch tok {
	case token.ADD:
		return x + y
	case token.SUB:
		return x - y
	case token.MUL:
		return x * y
	case token.QUO:
		return x / y
	}
	throw(Invalid, "operator %s on %T", tok, x)
	return nil
}

// equal reports whether x == y in Go.
func equal(x, y Value) bool {
	switch x := x.(type) {
	case Slice:
		y := y.(Slice)
		if x.Elems != nil && y.Elems != nil {
			throw(Invalid, "comparison of two non-nil slices")
		}
		return x.Elems == nil && y.Elems == nil
	case *Struct:
		y := y.(*Struct)
		for i := range x.Fields {
			if !equal(x.Fields[i], y.Fields[i]) {
				return false
			}
		}
		return true
	case *Array:
		y := y.(*Array)
		for i := range x.Elems {
			if !equal(x.Elems[i], y.Elems[i]) {
				return false
			}
		}
		return true
	case Iface:
		y := y.(Iface)
		if x.Type == nil || y.Type == nil {
			return x.Type == nil && y.Type == nil
		}
		if !types.Identical(x.Type, y.Type) {
			return false
		}
		if !types.Comparable(x.Type) {
			runtimeError("comparing uncomparable type %s", x.Type)
		}
		return equal(x.V, y.V)
	case Tuple:
		throw(Invalid, "comparison of tuples")
	}
	return x == y
}

// unary returns tok x.
func unary(tok token.Token, x Value) Value {
	switch tok {
	case token.ADD:
		return x
	case token.NOT:
		return !x.(bool)
	case token.SUB:
		switch x := x.(type) {
		case int:
			return -x
		case int8:
			return -x
		case int16:
			return -x
		case int32:
			return -x
		case int64:
			return -x
		case uint:
			return -x
		case uint8:
			return -x
		case uint16:
			return -x
		case uint32:
			return -x
		case uint64:
			return -x
		case uintptr:
			return -x
		case float32:
			return -x
		case float64:
			return -x
		case complex64:
			return -x
		case complex128:
			return -x
		}
	case token.XOR:
		switch x := x.(type) {
		case int:
			return ^x
		case int8:
			return ^x
		case int16:
			return ^x
		case int32:
			return ^x
		case int64:
			return ^x
		case uint:
			return ^x
		case uint8:
			return ^x
		case uint16:
			return ^x
		case uint32:
			return ^x
		case uint64:
			return ^x
		case uintptr:
			return ^x
		}
	}
	throw(Invalid, "operator %s on %T", tok, x)
	return nil
}

// convert returns the conversion of x, of type from, to type to.
func convert(x Value, from, to types.Type) Value {
	fu := from.Underlying()
	switch tu := to.Underlying().(type) {
	case *types.Interface:
		if _, ok := fu.(*types.Interface); ok {
			return x
		}
		return Iface{Type: from, V: x}
	case *types.Basic:
		info := tu.Info()
		switch {
		case info&types.IsString != 0:
			return toString(x, fu)
		case info&types.IsNumeric != 0:
			return convertNumber(x, tu.Kind())
		case info&types.IsBoolean != 0:
			return x.(bool)
		}
	case *types.Slice:
		if s, ok := x.(string); ok {
			return fromString(s, tu)
		}
		return x.(Slice)
	case *types.Pointer:
		if s, ok := x.(Slice); ok {
			// (*[N]T)(s): a pointer to an array that aliases s's
			// elements.
			n := int(tu.Elem().Underlying().(*types.Array).Len())
			if len(s.Elems) < n {
				runtimeError("cannot convert slice with length %d to array or pointer to array with length %d", len(s.Elems), n)
			}
			if s.Elems == nil {
				return Pointer{}
			}
			return Pointer{ref: newSlot(&Array{Elems: s.Elems[:n:n]})}
		}
		if o, ok := x.(Opaque); ok {
			return o
		}
		return x.(Pointer)
	case *types.Array:
		if s, ok := x.(Slice); ok {
			n := int(tu.Len())
			if len(s.Elems) < n {
				runtimeError("cannot convert slice with length %d to array or pointer to array with length %d", len(s.Elems), n)
			}
			return copyValue(&Array{Elems: s.Elems[:n]})
		}
		return x.(*Array)
	case *types.Struct:
		return x.(*Struct)
	}
	throw(Unsupported, "conversion from %s to %s", from, to)
	return nil
}

// convertNumber converts the number x to the basic kind k.
func convertNumber(x Value, k types.BasicKind) Value {
	switch k {
	case types.Int:
		return convertReal[int](x)
	case types.Int8:
		return convertReal[int8](x)
	case types.Int16:
		return convertReal[int16](x)
	case types.Int32:
		return convertReal[int32](x)
	case types.Int64:
		return convertReal[int64](x)
	case types.Uint:
		return convertReal[uint](x)
	case types.Uint8:
		return convertReal[uint8](x)
	case types.Uint16:
		return convertReal[uint16](x)
	case types.Uint32:
		return convertReal[uint32](x)
	case types.Uint64:
		return convertReal[uint64](x)
	case types.Uintptr:
		return convertReal[uintptr](x)
	case types.Float32:
		return convertReal[float32](x)
	case types.Float64:
		return convertReal[float64](x)
	case types.Complex64:
		return convertComplex[complex64](x)
	case types.Complex128:
		return convertComplex[complex128](x)
	}
	throw(Invalid, "conversion of %T to kind %d", x, k)
	return nil
}

// convertReal converts an integer or float x to T by Go's conversion T(x),
// which rounds once (float32 of an int64 is not float32 of float64 of it).
// A float out of the range of an integer type T gives what the host's
// conversion gives: the result is implementation-specific in Go.
func convertReal[T realNumber](x Value) T {
	switch x := x.(type) {
	case int:
		return T(x)
	case int8:
		return T(x)
	case int16:
		return T(x)
	case int32:
		return T(x)
	case int64:
		return T(x)
	case uint:
		return T(x)
	case uint8:
		return T(x)
	case uint16:
		return T(x)
	case uint32:
		return T(x)
	case uint64:
		return T(x)
	case uintptr:
		return T(x)
	case float32:
		return T(x)
	case float64:
		return T(x)
	}
	throw(Invalid, "conversion of %T to %T", x, *new(T))
	return 0
}

func convertComplex[T cplx](x Value) T {
	switch x := x.(type) {
	case complex64:
		return T(x)
	case complex128:
		return T(x)
	}
	throw(Invalid, "conversion of %T to %T", x, *new(T))
	return 0
}

// toString converts x, of underlying type from, to a string.
func toString(x Value, from types.Type) string {
	switch x := x.(type) {
	case string:
		return x
	case Slice:
		var b []byte
		for _, e := range x.Elems {
			switch e := e.(type) {
			case uint8:
				b = append(b, e)
			case int32:
				b = utf8.AppendRune(b, e)
			default:
				throw(Invalid, "conversion of %s to string", from)
			}
		}
		return string(b)
	}
	// An integer: the UTF-8 encoding of the rune, "\uFFFD" when it is not
	// a valid one.
	i, u, signed := toInt64(x)
	if !signed {
		if u > math.MaxInt32 {
			return "\uFFFD"
		}
		i = int64(u)
	}
	if i != int64(int32(i)) {
		return "\uFFFD"
	}
	return string(rune(i))
}

// fromString converts s to a []byte or []rune of type t.
func fromString(s string, t *types.Slice) Slice {
	var elems []Value
	if b, ok := t.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Int32 {
		for _, r := range s {
			elems = append(elems, r)
		}
	} else {
		for i := 0; i < len(s); i++ {
			elems = append(elems, s[i])
		}
	}
	if elems == nil {
		elems = []Value{}
	}
	return Slice{Elems: elems}
}

// toInt64 returns an integer of any kind as an int64 (signed kinds) or a
// uint64 (unsigned kinds).
func toInt64(v Value) (i int64, u uint64, signed bool) {
	switch v := v.(type) {
	case int:
		return int64(v), 0, true
	case int8:
		return int64(v), 0, true
	case int16:
		return int64(v), 0, true
	case int32:
		return int64(v), 0, true
	case int64:
		return v, 0, true
	case uint:
		return 0, uint64(v), false
	case uint8:
		return 0, uint64(v), false
	case uint16:
		return 0, uint64(v), false
	case uint32:
		return 0, uint64(v), false
	case uint64:
		return 0, v, false
	case uintptr:
		return 0, uint64(v), false
	}
	throw(Invalid, "%s is not an integer", Format(v))
	return 0, 0, false
}

// checkIndex returns index i as an int, or panics as Go does when it is
// not in [0, n).
func checkIndex(i Value, n int) int {
	k, u, signed := toInt64(i)
	switch {
	case signed && k < 0:
		runtimeError("index out of range [%d]", k)
	case !signed && u > math.MaxInt64:
		runtimeError("index out of range [%d] with length %d", u, n)
	case !signed:
		k = int64(u)
	}
	if k >= int64(n) {
		runtimeError("index out of range [%d] with length %d", k, n)
	}
	return int(k)
}

// bound returns a slice bound or make size as an int; a bound that does
// not fit is -1, which the callers report as out of range.
func bound(v Value) int {
	k, u, signed := toInt64(v)
	if !signed {
		if u > math.MaxInt64 {
			return -1
		}
		k = int64(u)
	}
	if k < 0 || k != int64(int(k)) {
		return -1
	}
	return int(k)
}

func indexAddr(x, i Value) Pointer {
	switch x := x.(type) {
	case Slice:
		k := checkIndex(i, len(x.Elems))
		return Pointer{ref: &x.Elems[k]}
	case Pointer:
		a := (*deref(x).ref).(*Array)
		k := checkIndex(i, len(a.Elems))
		return Pointer{ref: &a.Elems[k]}
	}
	throw(Invalid, "indexaddr of %s", Format(x))
	return Pointer{}
}

func index(x, i Value) Value {
	switch x := x.(type) {
	case *Array:
		return x.Elems[checkIndex(i, len(x.Elems))]
	case string:
		return x[checkIndex(i, len(x))]
	case Slice:
		return copyValue(x.Elems[checkIndex(i, len(x.Elems))])
	}
	throw(Invalid, "index of %s", Format(x))
	return nil
}

// makeSlice returns make(v.Type, n, c); c is nil when omitted.
func makeSlice(v *ir.Value, n, c Value) Slice {
	st, ok := v.Type.Underlying().(*types.Slice)
	if !ok {
		throw(Invalid, "makeslice of type %s", v.Type)
	}
	ln := bound(n)
	if ln < 0 {
		runtimeError("makeslice: len out of range")
	}
	cp := ln
	if c != nil {
		if cp = bound(c); cp < ln {
			runtimeError("makeslice: cap out of range")
		}
	}
	elems := make([]Value, cp)
	for i := range elems {
		elems[i] = Zero(st.Elem())
	}
	return Slice{Elems: elems[:ln]}
}

// slice returns x[lo:hi:max]; missing bounds are nil.
func slice(x, lo, hi, max Value) Value {
	var l, h, m int
	get := func(v Value, def int) int {
		if v == nil {
			return def
		}
		return bound(v)
	}
	switch s := x.(type) {
	case string:
		l, h = get(lo, 0), get(hi, len(s))
		checkSlice(l, h, len(s), len(s), false, max != nil, "length")
		return s[l:h]
	case Slice:
		c := cap(s.Elems)
		l, h, m = get(lo, 0), get(hi, len(s.Elems)), get(max, c)
		checkSlice(l, h, m, c, max != nil, false, "capacity")
		return Slice{Elems: s.Elems[l:h:m]}
	case Pointer:
		a := (*deref(s).ref).(*Array)
		c := len(a.Elems)
		l, h, m = get(lo, 0), get(hi, c), get(max, c)
		checkSlice(l, h, m, c, max != nil, false, "length")
		return Slice{Elems: a.Elems[l:h:m]}
	}
	throw(Invalid, "slice of %s", Format(x))
	return nil
}

// checkSlice panics as the gc runtime does unless 0 ≤ l ≤ h ≤ m ≤ c;
// three says whether the expression has three indices, what names c
// ("capacity" or "length").
func checkSlice(l, h, m, c int, three, bad3 bool, what string) {
	if bad3 {
		throw(Invalid, "3-index slice of a string")
	}
	if three {
		switch {
		case m < 0 || m > c:
			runtimeError("slice bounds out of range [::%d] with %s %d", m, what, c)
		case h < 0 || h > m:
			runtimeError("slice bounds out of range [:%d:%d]", h, m)
		case l < 0 || l > h:
			runtimeError("slice bounds out of range [%d:%d:]", l, h)
		}
		return
	}
	switch {
	case h < 0 || h > m:
		runtimeError("slice bounds out of range [:%d] with %s %d", h, what, c)
	case l < 0 || l > h:
		runtimeError("slice bounds out of range [%d:%d]", l, h)
	}
}

// length returns len(x); t is x's type (len of a pointer to an array is
// the array's length, even for a nil pointer).
func length(x Value, t types.Type) int {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if a, ok := p.Elem().Underlying().(*types.Array); ok {
			return int(a.Len())
		}
	}
	switch x := x.(type) {
	case Slice:
		return len(x.Elems)
	case string:
		return len(x)
	case *Array:
		return len(x.Elems)
	}
	throw(Invalid, "len of %s", Format(x))
	return 0
}

// capacity returns cap(x); t is x's type.
func capacity(x Value, t types.Type) int {
	if s, ok := x.(Slice); ok {
		return cap(s.Elems)
	}
	return length(x, t)
}
