package interp_test

// This file defines the tests of arithmetic, comparisons, conversions and
// constants against the results of the same Go expressions.

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir/interp"
)

// run builds func(x X, y Y) R { return x tok y } and runs it.
func runBinary(t *testing.T, tok token.Token, xt, yt types.Type, x, y interp.Value) (interp.Value, error) {
	t.Helper()
	b := irtest.NewBuilder("bin", pkg)
	px, py := b.Param("x", xt), b.Param("y", yt)
	r := b.Bin(tok, px, py)
	b.Result(r.Type)
	b.Return(r)
	var m interp.Machine
	res, err := m.Call(checked(t, b.F), x, y)
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// Operands as variables, so that Go computes the wanted values at run
// time with the operations' rounding, not exactly as constants.
var (
	f32a, f32b   = float32(0.1), float32(0.2)
	f64a, f64b   = 0.1, 0.2
	nan          = math.NaN()
	negZero      = math.Copysign(0, -1)
	i64min       = int64(math.MinInt64)
	big64        = int64(1<<60 + 1<<36 + 1) // float32(float64(big64)) != float32(big64)
	c128a, c128b = complex(1.5, -2), complex(0.25, 3)
)

func TestBinary(t *testing.T) {
	i8, u8, u, i32, i64 := types.Typ[types.Int8], types.Typ[types.Uint8], types.Typ[types.Uint], types.Typ[types.Int32], types.Typ[types.Int64]
	u32, c128 := types.Typ[types.Uint32], types.Typ[types.Complex128]
	tests := []struct {
		name   string
		tok    token.Token
		xt, yt types.Type
		x, y   interp.Value
		want   interp.Value
		panic  string // wanted panic message, instead of want
	}{
		{"int8 wraps", token.ADD, i8, i8, int8(127), int8(1), int8(-128), ""},
		{"uint8 wraps", token.SUB, u8, u8, uint8(0), uint8(1), uint8(255), ""},
		{"int8 mul wraps", token.MUL, i8, i8, int8(64), int8(4), int8(0), ""},
		{"MinInt64 / -1", token.QUO, i64, i64, i64min, int64(-1), i64min, ""},
		{"int division truncates", token.QUO, tInt, tInt, -7, 2, -3, ""},
		{"int remainder sign", token.REM, tInt, tInt, -7, 3, -1, ""},
		{"int division by zero", token.QUO, tInt, tInt, 7, 0, nil, "integer divide by zero"},
		{"int remainder by zero", token.REM, tInt, tInt, 7, 0, nil, "integer divide by zero"},
		{"and not", token.AND_NOT, u32, u32, uint32(0xff), uint32(0x0f), uint32(0xf0), ""},
		{"xor", token.XOR, tInt, tInt, 6, 3, 5, ""},
		{"int8 shl into sign", token.SHL, i8, u, int8(1), uint(7), int8(-128), ""},
		{"int32 shr of negative past width", token.SHR, i32, u, int32(-8), uint(40), int32(-1), ""},
		{"uint shl by 64", token.SHL, u, u, uint(1), uint(64), uint(0), ""},
		{"shl by int", token.SHL, tInt, i8, 3, int8(2), 12, ""},
		{"negative shift", token.SHL, tInt, tInt, 1, -1, nil, "negative shift amount"},
		{"float32 add rounds to float32", token.ADD, tFloat32, tFloat32, f32a, f32b, f32a + f32b, ""},
		{"float32 div rounds to float32", token.QUO, tFloat32, tFloat32, float32(1), float32(3), float32(1) / float32(3), ""},
		{"float64 add", token.ADD, tFloat64, tFloat64, f64a, f64b, f64a + f64b, ""},
		{"float64 1/0", token.QUO, tFloat64, tFloat64, 1.0, 0.0, math.Inf(1), ""},
		{"float64 -0 + -0", token.ADD, tFloat64, tFloat64, negZero, negZero, negZero, ""},
		{"float64 0 - 0", token.SUB, tFloat64, tFloat64, 0.0, 0.0, 0.0, ""},
		{"NaN == NaN", token.EQL, tFloat64, tFloat64, nan, nan, false, ""},
		{"NaN != NaN", token.NEQ, tFloat64, tFloat64, nan, nan, true, ""},
		{"NaN < 1", token.LSS, tFloat64, tFloat64, nan, 1.0, false, ""},
		{"-0 == 0", token.EQL, tFloat64, tFloat64, negZero, 0.0, true, ""},
		{"uint8 compare", token.GTR, u8, u8, uint8(200), uint8(100), true, ""},
		{"complex mul", token.MUL, c128, c128, c128a, c128b, c128a * c128b, ""},
		{"string concat", token.ADD, tString, tString, "ab", "c", "abc", ""},
		{"string less", token.LSS, tString, tString, "ab", "b", true, ""},
		{"bool and", token.LAND, tBool, tBool, true, false, false, ""},
		{"bool or", token.LOR, tBool, tBool, true, false, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := runBinary(t, tc.tok, tc.xt, tc.yt, tc.x, tc.y)
			if tc.panic != "" {
				e, ok := err.(*interp.Error)
				if !ok || e.Kind != interp.Panic || !strings.Contains(e.Msg, tc.panic) {
					t.Fatalf("got %v, %v; want a panic %q", got, err, tc.panic)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !interp.Identical(got, tc.want) {
				t.Errorf("%v %s %v = %v (%T), want %v (%T)", tc.x, tc.tok, tc.y, got, got, tc.want, tc.want)
			}
		})
	}
}

func TestUnary(t *testing.T) {
	tests := []struct {
		tok  token.Token
		t    types.Type
		x    interp.Value
		want interp.Value
	}{
		{token.SUB, tFloat64, 0.0, negZero},
		{token.SUB, types.Typ[types.Int8], int8(-128), int8(-128)},
		{token.XOR, types.Typ[types.Uint8], uint8(1), uint8(254)},
		{token.NOT, tBool, true, false},
	}
	for _, tc := range tests {
		b := irtest.NewBuilder("un", pkg)
		b.Result(tc.t)
		b.Return(b.Un(tc.tok, b.Param("x", tc.t)))
		var m interp.Machine
		res, err := m.Call(checked(t, b.F), tc.x)
		if err != nil {
			t.Fatal(err)
		}
		if !interp.Identical(res[0], tc.want) {
			t.Errorf("%s%v = %v, want %v", tc.tok, tc.x, res[0], tc.want)
		}
	}
}

func TestConvert(t *testing.T) {
	celsius := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Celsius", nil), tFloat64, nil)
	bytes, runes := types.NewSlice(types.Typ[types.Byte]), types.NewSlice(types.Typ[types.Rune])
	any := types.NewInterfaceType(nil, nil)
	i64, f32 := int64(1<<24+1), 0.1
	tests := []struct {
		name     string
		from, to types.Type
		x, want  interp.Value
	}{
		{"float64 to int truncates", tFloat64, tInt, 3.9, 3},
		{"negative float64 to int truncates", tFloat64, tInt, -3.9, -3},
		{"int64 to float32 rounds", types.Typ[types.Int64], tFloat32, i64, float32(i64)},
		{"int64 to float32 rounds once", types.Typ[types.Int64], tFloat32, big64, float32(big64)},
		{"float64 to float32 rounds", tFloat64, tFloat32, f32, float32(f32)},
		{"float32 to float64 is exact", tFloat32, tFloat64, float32(f32), float64(float32(f32))},
		{"int to uint8 wraps", tInt, types.Typ[types.Uint8], 300, uint8(44)},
		{"int to uint64 wraps", tInt, types.Typ[types.Uint64], -1, uint64(math.MaxUint64)},
		{"float64 to named", tFloat64, celsius, 1.5, 1.5},
		{"named to float64", celsius, tFloat64, 1.5, 1.5},
		{"int to string", tInt, tString, 65, "A"},
		{"invalid rune to string", tInt, tString, -1, "\uFFFD"},
		{"string to bytes", tString, bytes, "hé", interp.Slice{Elems: []interp.Value{uint8('h'), uint8(0xc3), uint8(0xa9)}}},
		{"string to runes", tString, runes, "hé", interp.Slice{Elems: []interp.Value{'h', 'é'}}},
		{"bytes to string", bytes, tString, interp.Slice{Elems: []interp.Value{uint8('o'), uint8('k')}}, "ok"},
		{"float64 to interface", tFloat64, any, 2.0, interp.Iface{Type: tFloat64, V: 2.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := irtest.NewBuilder("conv", pkg)
			b.Result(tc.to)
			b.Return(b.Convert(tc.to, b.Param("x", tc.from)))
			var m interp.Machine
			res, err := m.Call(checked(t, b.F), tc.x)
			if err != nil {
				t.Fatal(err)
			}
			if !interp.Identical(res[0], tc.want) {
				t.Errorf("%s(%v) = %s, want %s", tc.to, tc.x, interp.Format(res[0]), interp.Format(tc.want))
			}
		})
	}
}

func TestConstants(t *testing.T) {
	pt := types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, pkg, "X", tFloat64, false),
		types.NewField(token.NoPos, pkg, "N", tInt, false),
	}, nil)
	third := constant.BinaryOp(constant.MakeInt64(1), token.QUO, constant.MakeInt64(3))
	tests := []struct {
		name    string
		t       types.Type
		c       constant.Value
		want    interp.Value
		invalid bool
	}{
		{"exact 1/3 to float64", tFloat64, third, 1.0 / 3, false},
		{"exact 1/3 to float32", tFloat32, third, float32(1.0) / 3, false},
		{"int constant as float", tFloat64, constant.MakeInt64(2), 2.0, false},
		{"integral float constant as int", tInt, constant.MakeFloat64(4), 4, false},
		{"uint64 max", types.Typ[types.Uint64], constant.MakeUint64(math.MaxUint64), uint64(math.MaxUint64), false},
		{"zero struct", pt, nil, &interp.Struct{Fields: []interp.Value{0.0, 0}}, false},
		{"zero slice", types.NewSlice(tFloat64), nil, interp.Slice{}, false},
		{"zero array", types.NewArray(tFloat64, 2), nil, &interp.Array{Elems: []interp.Value{0.0, 0.0}}, false},
		{"int8 overflow", types.Typ[types.Int8], constant.MakeInt64(200), nil, true},
		{"fraction as int", tInt, constant.MakeFloat64(0.5), nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := irtest.NewBuilder("const", pkg)
			b.Result(tc.t)
			b.Return(b.Const(tc.t, tc.c))
			f := b.F
			if !tc.invalid {
				// ir.Check rejects a fraction in an int; the
				// interpreter must too, on IR nobody checked.
				f = checked(t, f)
			}
			var m interp.Machine
			res, err := m.Call(f)
			if tc.invalid {
				if e, ok := err.(*interp.Error); !ok || e.Kind != interp.Invalid {
					t.Fatalf("got %v, want an Invalid error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !interp.Identical(res[0], tc.want) {
				t.Errorf("got %s, want %s", interp.Format(res[0]), interp.Format(tc.want))
			}
		})
	}
}
