package interp_test

import (
	"errors"
	"go/token"
	"go/types"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir/interp"
)

// box is a Go type the interpreter holds as an Opaque.
type box struct{ v float64 }

func TestGoFunc(t *testing.T) {
	// f(y) = get(newBox(y)) + sum(y, 2, 3) + fill(s)[0]: an opaque
	// pointer made and read by natives, a variadic native called without
	// "...", and a native writing into a slice of the interpreted program.
	boxT := types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, pkg, "box", nil), types.NewStruct(nil, nil), nil))
	sig := func(params []types.Type, variadic bool, result types.Type) *types.Signature {
		var vs []*types.Var
		for _, p := range params {
			vs = append(vs, types.NewParam(token.NoPos, pkg, "", p))
		}
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(vs...),
			types.NewTuple(types.NewParam(token.NoPos, pkg, "", result)), variadic)
	}
	sl := types.NewSlice(tFloat64)
	newBox := types.NewFunc(token.NoPos, pkg, "newBox", sig([]types.Type{tFloat64}, false, boxT))
	get := types.NewFunc(token.NoPos, pkg, "get", sig([]types.Type{boxT}, false, tFloat64))
	sum := types.NewFunc(token.NoPos, pkg, "sum", sig([]types.Type{sl}, true, tFloat64))
	fill := types.NewFunc(token.NoPos, pkg, "fill", sig([]types.Type{sl}, false, sl))
	m := interp.Machine{Natives: map[string]interp.Native{
		"example.com/p.newBox": interp.GoFunc(func(v float64) *box { return &box{v} }),
		"example.com/p.get": interp.GoFunc(func(b *box) float64 {
			if b == nil {
				panic("get of nil")
			}
			return b.v
		}),
		"example.com/p.sum": interp.GoFunc(func(xs ...float64) float64 {
			s := 0.0
			for _, x := range xs {
				s += x
			}
			return s
		}),
		"example.com/p.fill": interp.GoFunc(func(dst []float64) []float64 {
			for i := range dst {
				dst[i] = 7
			}
			return dst
		}),
	}}

	b := irtest.NewBuilder("f", pkg)
	y := b.Param("y", tFloat64)
	s := b.Param("s", sl)
	b.Result(tFloat64)
	b.Result(tFloat64)
	g := b.Call(get, b.Call(newBox, y))
	sm := b.Call(sum, y, b.Float(2), b.Float(3))
	filled := b.Call(fill, s)
	b.Return(b.Bin(token.ADD, b.Bin(token.ADD, g, sm), b.Load(b.IndexAddr(filled, b.Int(0)))), b.Load(b.IndexAddr(s, b.Int(1))))
	arg := interp.Slice{Elems: []interp.Value{1.0, 2.0}}
	res := call(t, &m, checked(t, b.F), 10.0, arg)
	// 10 + (10+2+3) + 7, and s[1] written by fill.
	if res[0] != 32.0 || res[1] != 7.0 {
		t.Errorf("got %v, want [32 7]", res)
	}

	// A panic of a native is a panic of the program; a nil pointer
	// passes as a nil *box.
	p := irtest.NewBuilder("p", pkg)
	p.Result(tFloat64)
	p.Return(p.Call(get, p.Const(boxT, nil)))
	_, err := m.Call(checked(t, p.F))
	wantError(t, err, interp.Panic, "get of nil")

	// An argument of the wrong kind is Invalid.
	q := irtest.NewBuilder("q", pkg)
	q.Result(tFloat64)
	q.Return(q.Call(get, q.Call(newBox, q.Float(1))))
	m.Natives["example.com/p.newBox"] = interp.GoFunc(func(v float64) *int { return new(int) })
	_, err = m.Call(checked(t, q.F))
	var e *interp.Error
	if !errors.As(err, &e) || e.Kind != interp.Invalid {
		t.Errorf("a native given another Go type: got %v, want an Invalid error", err)
	}
}
