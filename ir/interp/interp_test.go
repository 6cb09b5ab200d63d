package interp_test

// This file defines the tests of control flow, memory, calls and errors
// on hand-built functions.

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
)

func call(t *testing.T, m *interp.Machine, f *ir.Func, args ...interp.Value) []interp.Value {
	t.Helper()
	checked(t, f)
	res, err := m.Call(f, args...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// wantError checks that err is an *interp.Error of kind k whose text
// contains each of parts.
func wantError(t *testing.T, err error, k interp.ErrorKind, parts ...string) {
	t.Helper()
	e, ok := err.(*interp.Error)
	if !ok {
		t.Fatalf("got error %v, want an *interp.Error of kind %s", err, k)
	}
	if e.Kind != k {
		t.Errorf("got %s error %v, want kind %s", e.Kind, e, k)
	}
	for _, p := range parts {
		if !strings.Contains(e.Error(), p) {
			t.Errorf("error %q does not contain %q", e.Error(), p)
		}
	}
}

func TestSumSquares(t *testing.T) {
	f := irtest.SumSquares(pkg)
	var m interp.Machine
	res := call(t, &m, f, interp.FromGo([]float64{1, 2, 3.5}))
	if got, want := res[0], 1+4+3.5*3.5; got != want {
		t.Errorf("got %v, want %v", got, want)
	}
	res = call(t, &m, f, interp.FromGo([]float64(nil)))
	if got := res[0]; got != 0.0 {
		t.Errorf("empty: got %v, want 0", got)
	}
}

// fib builds
//
//	func fib(n int) int {
//		a, b := 0, 1
//		for i := 0; i < n; i++ {
//			a, b = b, a+b
//		}
//		return a
//	}
//
// whose loop φ-nodes read each other: they must be evaluated at once.
func fib() *ir.Func {
	b := newBuilder("fib")
	n := b.param("n", tInt)
	b.result(tInt)
	head, body, done := b.block("for.loop"), b.block("for.body"), b.block("for.done")
	b.b.Jump(head)
	b.at(head)
	a, bb, i := b.phi(tInt), b.phi(tInt), b.phi(tInt)
	b.b.If(b.bin(token.LSS, i, n), body, done)
	b.at(body)
	sum := b.bin(token.ADD, a, bb)
	i1 := b.bin(token.ADD, i, b.int(1))
	b.b.Jump(head)
	a.Args = []*ir.Value{b.int(0), bb}
	bb.Args = []*ir.Value{b.int(1), sum}
	i.Args = []*ir.Value{b.int(0), i1}
	b.at(done)
	b.ret(a)
	return b.f
}

func TestPhisAtOnce(t *testing.T) {
	var m interp.Machine
	for n, want := range []int{0, 1, 1, 2, 3, 5, 8, 13, 21} {
		if got := call(t, &m, fib(), n)[0]; got != want {
			t.Errorf("fib(%d) = %v, want %d", n, got, want)
		}
	}
}

func TestParallelEdges(t *testing.T) {
	// if c goto b1 else b1, with a φ-node distinguishing the edges.
	b := newBuilder("edges")
	c := b.param("c", tBool)
	b.result(tInt)
	join := b.block("join")
	b.b.If(c, join, join)
	b.at(join)
	p := b.phi(tInt)
	p.Args = []*ir.Value{b.int(1), b.int(2)}
	b.ret(p)
	var m interp.Machine
	for c, want := range map[bool]int{true: 1, false: 2} {
		if got := call(t, &m, b.f, c)[0]; got != want {
			t.Errorf("edges(%v) = %v, want %d", c, got, want)
		}
	}
}

func TestSelectAndMinMax(t *testing.T) {
	b := newBuilder("sel")
	x, y := b.param("x", tFloat64), b.param("y", tFloat64)
	b.result(tFloat64)
	b.result(tFloat64)
	b.result(tFloat64)
	s := b.op(ir.OpSelect, tFloat64, b.bin(token.GTR, x, y), x, y)
	b.ret(s, b.builtin("min", tFloat64, x, y), b.builtin("max", tFloat64, x, y, b.f64(0)))
	var m interp.Machine
	tests := []struct{ x, y, sel, min, max float64 }{
		{1, 2, 2, 1, 2},
		{-3, -5, -3, -5, 0},
		{0, negZero, negZero, negZero, 0},
		{nan, 1, 1, nan, nan},
	}
	for _, tc := range tests {
		res := call(t, &m, b.f, tc.x, tc.y)
		want := []interp.Value{tc.sel, tc.min, tc.max}
		if !interp.Identical(interp.Tuple(res), interp.Tuple(want)) {
			t.Errorf("sel(%v, %v) = %v, want %v", tc.x, tc.y, res, want)
		}
	}
}

var pointType = types.NewStruct([]*types.Var{
	types.NewField(token.NoPos, pkg, "X", tFloat64, false),
	types.NewField(token.NoPos, pkg, "Y", tFloat64, false),
}, nil)

func TestStructValueSemantics(t *testing.T) {
	// p := new(Point); q := &p.Y; *p = Point{a, c}; v := *p; p.X = 7
	// *p = pt; p.Y = 8; return v.X, *q, pt.Y
	// Stores into *p write into the variable q points into; v is a copy,
	// and so is what *p = pt stores.
	b := newBuilder("structs")
	a, c := b.param("a", tFloat64), b.param("c", tFloat64)
	pt := b.param("pt", pointType)
	b.result(tFloat64)
	b.result(tFloat64)
	b.result(tFloat64)
	p := b.alloc(pointType)
	q := b.fieldAddr(p, 1)
	tmp := b.alloc(pointType)
	b.store(b.fieldAddr(tmp, 0), a)
	b.store(b.fieldAddr(tmp, 1), c)
	b.store(p, b.load(tmp))
	v := b.load(p)
	b.store(b.fieldAddr(p, 0), b.f64(7))
	b.store(p, pt) // pt's own value must stay as passed
	b.store(b.fieldAddr(p, 1), b.f64(8))
	b.ret(b.field(v, 0), b.load(q), b.field(pt, 1))
	var m interp.Machine
	arg := interp.FromGo(struct{ X, Y float64 }{5, 6})
	res := call(t, &m, b.f, 1.0, 2.0, arg)
	if want := []interp.Value{1.0, 8.0, 6.0}; !interp.Identical(interp.Tuple(res), interp.Tuple(want)) {
		t.Errorf("got %v, want %v", res, want)
	}
	if got := interp.ToGo(arg, pointType); got != (struct{ X, Y float64 }{5, 6}) {
		t.Errorf("argument changed to %v", got)
	}
}

func TestSlices(t *testing.T) {
	// s := make([]float64, 2, 3); u := s[1:]; u[0] = x; w := append(s, y)
	// (in place: cap 3); w2 := append(w, 9) (grows); w2[0] = 4
	// return s[1], len(u), cap(u), w[2], cap(w2) > 3, s[0]
	sl := types.NewSlice(tFloat64)
	b := newBuilder("slices")
	x, y := b.param("x", tFloat64), b.param("y", tFloat64)
	for range 5 {
		b.result(tFloat64)
	}
	b.result(tBool)
	s := b.op(ir.OpMakeSlice, sl, b.int(2), b.int(3))
	u := b.op(ir.OpSlice, sl, s, b.int(1), nil, nil)
	b.store(b.indexAddr(u, b.int(0)), x)
	w := b.builtin("append", sl, s, y)
	w2 := b.builtin("append", sl, w, b.f64(9))
	b.store(b.indexAddr(w2, b.int(0)), b.f64(4))
	toF := func(v *ir.Value) *ir.Value { return b.convert(v, tFloat64) }
	grown := b.bin(token.GTR, b.op(ir.OpCap, tInt, w2), b.int(3))
	b.ret(b.load(b.indexAddr(s, b.int(1))), toF(b.op(ir.OpLen, tInt, u)), toF(b.op(ir.OpCap, tInt, u)),
		b.load(b.indexAddr(w, b.int(2))), b.load(b.indexAddr(s, b.int(0))), grown)
	var m interp.Machine
	res := call(t, &m, b.f, 1.5, 2.5)
	want := []interp.Value{1.5, 1.0, 2.0, 2.5, 0.0, true}
	if !interp.Identical(interp.Tuple(res), interp.Tuple(want)) {
		t.Errorf("got %v, want %v", res, want)
	}
}

var sink any

// TestAppendCapacity checks that append grows slices as the gc runtime
// does, for elements of several sizes with and without pointers.
func TestAppendCapacity(t *testing.T) {
	type big struct {
		a [5]float64
		p *int
	}
	check := func(name string, elem types.Type, goCaps []int) {
		t.Helper()
		sl := types.NewSlice(elem)
		// s := nil; for i < n { s = append(s, zero) ; caps[i] = cap(s) }
		b := newBuilder("grow")
		n := b.param("n", tInt)
		caps := b.param("caps", types.NewSlice(tInt))
		head, body, done := b.block("loop"), b.block("body"), b.block("done")
		b.b.Jump(head)
		b.at(head)
		s, i := b.phi(sl), b.phi(tInt)
		b.b.If(b.bin(token.LSS, i, n), body, done)
		b.at(body)
		s2 := b.builtin("append", sl, s, b.zero(elem))
		b.store(b.indexAddr(caps, i), b.op(ir.OpCap, tInt, s2))
		i2 := b.bin(token.ADD, i, b.int(1))
		b.b.Jump(head)
		s.Args = []*ir.Value{b.zero(sl), s2}
		i.Args = []*ir.Value{b.int(0), i2}
		b.at(done)
		b.ret()
		var m interp.Machine
		got := interp.FromGo(make([]int, len(goCaps)))
		call(t, &m, b.f, len(goCaps), got)
		if g := interp.ToGo(got, types.NewSlice(tInt)); !reflect.DeepEqual(g, goCaps) {
			t.Errorf("%s: caps %v, want %v", name, g, goCaps)
		}
	}
	const n = 40
	var f64s []float64
	var bytes []byte
	var ptrs []*int
	var bigs []big
	capsOf := func(k int, add func() int) []int {
		c := make([]int, k)
		for i := range c {
			c[i] = add()
		}
		return c
	}
	// The slices escape (to sink), so that the compiler does not start
	// them in a stack buffer, whose capacity growslice does not choose.
	check("float64", tFloat64, capsOf(n, func() int { f64s = append(f64s, 0); sink = f64s; return cap(f64s) }))
	check("byte", types.Typ[types.Byte], capsOf(n, func() int { bytes = append(bytes, 0); sink = bytes; return cap(bytes) }))
	check("pointer", types.NewPointer(tInt), capsOf(n, func() int { ptrs = append(ptrs, nil); sink = ptrs; return cap(ptrs) }))
	bigT := types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, pkg, "a", types.NewArray(tFloat64, 5), false),
		types.NewField(token.NoPos, pkg, "p", types.NewPointer(tInt), false),
	}, nil)
	check("struct", bigT, capsOf(n, func() int { bigs = append(bigs, big{}); sink = bigs; return cap(bigs) }))
}

func TestCopyClearAndArrays(t *testing.T) {
	// s := x[0:4:4]; n := copy(s[1:], s) (overlapping); clear(s[:1])
	// arr := new([3]float64); u := arr[1:2:3]; u[0] = 5; arr[2] = 6
	// return n, *arr, cap(u)
	sl := types.NewSlice(tFloat64)
	arrT := types.NewArray(tFloat64, 3)
	b := newBuilder("copy")
	x := b.param("x", sl)
	b.result(tInt)
	b.result(arrT)
	b.result(tInt)
	s := b.op(ir.OpSlice, sl, x, b.int(0), b.int(4), b.int(4))
	n := b.builtin("copy", tInt, b.op(ir.OpSlice, sl, s, b.int(1), nil, nil), s)
	b.builtin("clear", nil, b.op(ir.OpSlice, sl, s, nil, b.int(1), nil))
	arr := b.alloc(arrT)
	u := b.op(ir.OpSlice, sl, arr, b.int(1), b.int(2), b.int(3))
	b.store(b.indexAddr(u, b.int(0)), b.f64(5))
	b.store(b.indexAddr(arr, b.int(2)), b.f64(6))
	b.ret(n, b.load(arr), b.op(ir.OpCap, tInt, u))
	var m interp.Machine
	xs := interp.FromGo([]float64{1, 2, 3, 4, 5})
	res := call(t, &m, b.f, xs)
	if res[0] != 3 || res[2] != 2 {
		t.Errorf("copy returned %v, cap %v; want 3, 2", res[0], res[2])
	}
	if got, want := interp.ToGo(xs, sl), []float64{0, 1, 2, 3, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("x = %v, want %v", got, want)
	}
	if got, want := interp.ToGo(res[1], arrT), [3]float64{0, 5, 6}; got != want {
		t.Errorf("array = %v, want %v", got, want)
	}
}

func TestRuntimePanics(t *testing.T) {
	sl := types.NewSlice(tFloat64)
	tests := []struct {
		name  string
		build func(b *builder, x *ir.Value)
		parts []string
	}{
		{"index", func(b *builder, x *ir.Value) { b.load(b.indexAddr(x, b.int(3))) },
			[]string{"indexaddr", "index out of range [3] with length 3"}},
		{"negative index", func(b *builder, x *ir.Value) { b.indexAddr(x, b.int(-1)) },
			[]string{"index out of range [-1]"}},
		{"slice", func(b *builder, x *ir.Value) { b.op(ir.OpSlice, sl, x, nil, b.int(5), nil) },
			[]string{"slice bounds out of range [:5] with capacity 3"}},
		{"slice3", func(b *builder, x *ir.Value) { b.op(ir.OpSlice, sl, x, b.int(2), b.int(1), b.int(3)) },
			[]string{"slice bounds out of range [2:1:]"}},
		{"nil", func(b *builder, x *ir.Value) { b.load(b.zero(types.NewPointer(tFloat64))) },
			[]string{"load", "nil pointer dereference"}},
		{"makeslice", func(b *builder, x *ir.Value) { b.op(ir.OpMakeSlice, sl, b.int(-1), nil) },
			[]string{"makeslice: len out of range"}},
		{"panic op", func(b *builder, x *ir.Value) {
			b.op(ir.OpPanic, nil, b.convert(b.konst(tString, constant.MakeString("boom")), types.NewInterfaceType(nil, nil)))
		}, []string{"boom"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder("f")
			x := b.param("x", sl)
			tc.build(b, x)
			if b.b.Terminator() == nil {
				b.ret()
			}
			var m interp.Machine
			_, err := m.Call(checked(t, b.f), interp.FromGo([]float64{1, 2, 3}))
			wantError(t, err, interp.Panic, tc.parts...)
		})
	}
}

func TestLimits(t *testing.T) {
	// for {}
	b := newBuilder("spin")
	loop := b.block("loop")
	b.b.Jump(loop)
	b.at(loop)
	b.b.Jump(loop)
	m := interp.Machine{MaxSteps: 1000}
	_, err := m.Call(checked(t, b.f))
	wantError(t, err, interp.Limit, "more than 1000 steps")

	// func rec() { rec() }
	r := newBuilder("rec")
	fn := sig(r.f)
	r.call(fn)
	r.ret()
	m = interp.Machine{Funcs: map[*types.Func]*ir.Func{fn: r.f}, MaxDepth: 50}
	_, err = m.Call(checked(t, r.f))
	wantError(t, err, interp.Limit, "deeper than 50")
}

func TestCalls(t *testing.T) {
	// sq(x) = x*x, called as a function, a derived function and a native;
	// math.Sincos and math.Frexp with several results; the helper
	// gadDigamma.
	sqb := newBuilder("sq")
	x := sqb.param("x", tFloat64)
	sqb.result(tFloat64)
	sqb.ret(sqb.bin(token.MUL, x, x))
	sqFn := sig(sqb.f)
	cube := types.NewFunc(token.NoPos, pkg, "cube", sqFn.Signature())

	b := newBuilder("calls")
	y := b.param("y", tFloat64)
	for range 7 {
		b.result(tFloat64)
	}
	r1 := b.call(sqFn, y)
	r2 := b.op(ir.OpCall, tFloat64, y)
	r2.Callee = &ir.Callee{Derived: &ir.DerivedFunc{Name: "sqDerived", Sig: sqFn.Type().(*types.Signature)}}
	r3 := b.call(cube, y)
	sc := b.call(mathFunc(t, "Sincos"), y)
	fr := b.call(mathFunc(t, "Frexp"), y)
	dg := b.op(ir.OpCall, tFloat64, y)
	dg.Callee = &ir.Callee{Derived: &ir.DerivedFunc{Name: "gadDigamma", Helper: true}}
	b.ret(r1, r2, r3, b.extract(sc, 0), b.extract(sc, 1), b.convert(b.extract(fr, 1), tFloat64), dg)

	m := interp.Machine{
		Funcs:   map[*types.Func]*ir.Func{sqFn: sqb.f},
		Derived: map[string]*ir.Func{"sqDerived": sqb.f},
		Natives: map[string]interp.Native{
			"example.com/p.cube": func(args []interp.Value) ([]interp.Value, error) {
				x := args[0].(float64)
				return []interp.Value{x * x * x}, nil
			},
		},
	}
	const v = 3.0
	res := call(t, &m, b.f, v)
	s, c := math.Sincos(v)
	_, e := math.Frexp(v)
	// ψ(3) = 3/2 - γ.
	want := []interp.Value{9.0, 9.0, 27.0, s, c, float64(e), 1.5 - 0.5772156649015329}
	for i := range want {
		if i == 6 {
			if math.Abs(res[i].(float64)-want[i].(float64)) > 1e-14 {
				t.Errorf("digamma: got %v, want %v", res[i], want[i])
			}
			continue
		}
		if !interp.Identical(res[i], want[i]) {
			t.Errorf("result %d: got %v, want %v", i, res[i], want[i])
		}
	}

	// Errors: unknown callee, a dynamic call, and a panic in a callee
	// reported with the call stack.
	unknown := types.NewFunc(token.NoPos, pkg, "nobody", sqFn.Signature())
	u := newBuilder("callsUnknown")
	u.call(unknown, u.f64(1))
	u.ret()
	_, err := m.Call(checked(t, u.f))
	wantError(t, err, interp.Unsupported, "example.com/p.nobody")

	inv := newBuilder("invoke")
	iv := inv.call(sqFn, inv.f64(1))
	iv.Callee.Invoke = true
	inv.ret()
	_, err = m.Call(checked(t, inv.f))
	wantError(t, err, interp.Unsupported, "dynamic call")

	bad := newBuilder("bad")
	bx := bad.param("x", types.NewSlice(tFloat64))
	bad.result(tFloat64)
	bad.ret(bad.load(bad.indexAddr(bx, bad.int(0))))
	badFn := sig(bad.f)
	outer := newBuilder("outer")
	outer.result(tFloat64)
	outer.ret(outer.call(badFn, outer.zero(types.NewSlice(tFloat64))))
	m.Funcs[badFn] = bad.f
	_, err = m.Call(checked(t, outer.f))
	wantError(t, err, interp.Panic, "interp: bad: ", "index out of range [0] with length 0", "called from outer: ")
}

func TestGlobals(t *testing.T) {
	g := types.NewVar(token.NoPos, pkg, "counter", tInt)
	// counter++; return counter
	b := newBuilder("incr")
	b.result(tInt)
	p := b.op(ir.OpGlobal, types.NewPointer(tInt))
	p.Global = g
	n := b.bin(token.ADD, b.load(p), b.int(1))
	b.store(p, n)
	b.ret(b.load(p))
	var m interp.Machine
	call(t, &m, b.f)
	if got := call(t, &m, b.f)[0]; got != 2 {
		t.Errorf("counter = %v after two calls, want 2", got)
	}
	m.Globals[g] = interp.NewVar(10)
	if got := call(t, &m, b.f)[0]; got != 11 {
		t.Errorf("counter = %v, want 11", got)
	}
}

func TestArgumentsChecked(t *testing.T) {
	var m interp.Machine
	// Elements are not checked before the call, but using them is.
	_, err := m.Call(irtest.SumSquares(pkg), interp.FromGo([]int{1}))
	wantError(t, err, interp.Invalid, "binary +")
	_, err = m.Call(irtest.SumSquares(pkg), 1.0)
	wantError(t, err, interp.Invalid, "argument 0")
}

func TestFromGoToGo(t *testing.T) {
	type pair struct {
		A float64
		B []float64
		C *float64
		D [2]float32
	}
	c := 4.0
	in := pair{A: 1, B: []float64{2, 3}, C: &c, D: [2]float32{5, 6}}
	typ := types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, pkg, "A", tFloat64, false),
		types.NewField(token.NoPos, pkg, "B", types.NewSlice(tFloat64), false),
		types.NewField(token.NoPos, pkg, "C", types.NewPointer(tFloat64), false),
		types.NewField(token.NoPos, pkg, "D", types.NewArray(tFloat32, 2), false),
	}, nil)
	v := interp.FromGo(in)
	out := interp.ToGo(v, typ)
	got := reflect.ValueOf(out).Convert(reflect.TypeFor[pair]()).Interface().(pair)
	if got.A != 1 || !reflect.DeepEqual(got.B, in.B) || *got.C != 4 || got.D != in.D {
		t.Errorf("round trip gave %+v, want %+v", got, in)
	}
	if got.C == in.C {
		t.Errorf("ToGo(FromGo(p)) aliases p")
	}
	if interp.FromGo([]float64(nil)).(interp.Slice).Elems != nil {
		t.Errorf("nil slice became non-nil")
	}
}

func TestPointersArraysStrings(t *testing.T) {
	// a := new([3]float64); p := (*[2]float64)(s); p[1] = 7
	// return len(nilArrayPtr), cap(a[1:]), &a[0] == &a[0], &a[0] == &a[1],
	//	"héllo"[1], "héllo"[3:], any(1.0) == any(1.0), any(1.0) == any(1)
	sl := types.NewSlice(tFloat64)
	arr3, arr2 := types.NewArray(tFloat64, 3), types.NewArray(tFloat64, 2)
	anyT := types.NewInterfaceType(nil, nil)
	b := newBuilder("misc")
	s := b.param("s", sl)
	for _, rt := range []types.Type{tInt, tInt, tBool, tBool, types.Typ[types.Byte], tString, tBool, tBool} {
		b.result(rt)
	}
	a := b.alloc(arr3)
	p := b.convert(s, types.NewPointer(arr2))
	b.store(b.indexAddr(p, b.int(1)), b.f64(7))
	nilLen := b.op(ir.OpLen, tInt, b.zero(types.NewPointer(arr3)))
	capA := b.op(ir.OpCap, tInt, b.op(ir.OpSlice, sl, a, b.int(1), nil, nil))
	same := b.bin(token.EQL, b.indexAddr(a, b.int(0)), b.indexAddr(a, b.int(0)))
	diff := b.bin(token.EQL, b.indexAddr(a, b.int(0)), b.indexAddr(a, b.int(1)))
	str := b.konst(tString, constant.MakeString("héllo"))
	ch := b.op(ir.OpIndex, types.Typ[types.Byte], str, b.int(1))
	tail := b.op(ir.OpSlice, tString, str, b.int(3), nil, nil)
	one := b.convert(b.f64(1), anyT)
	eqAny := b.bin(token.EQL, one, b.convert(b.f64(1), anyT))
	neAny := b.bin(token.EQL, one, b.convert(b.int(1), anyT))
	b.ret(nilLen, capA, same, diff, ch, tail, eqAny, neAny)
	var m interp.Machine
	xs := interp.FromGo([]float64{1, 2, 3})
	res := call(t, &m, b.f, xs)
	want := []interp.Value{3, 2, true, false, uint8(0xc3), "llo", true, false}
	if !interp.Identical(interp.Tuple(res), interp.Tuple(want)) {
		t.Errorf("got %s, want %s", interp.Format(interp.Tuple(res)), interp.Format(interp.Tuple(want)))
	}
	if got := interp.ToGo(xs, sl); !reflect.DeepEqual(got, []float64{1, 7, 3}) {
		t.Errorf("store through (*[2]float64)(s) gave s = %v, want [1 7 3]", got)
	}
}
