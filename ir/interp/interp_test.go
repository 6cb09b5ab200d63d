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
	b := irtest.NewBuilder("fib", pkg)
	n := b.Param("n", tInt)
	b.Result(tInt)
	head, body, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
	b.Jump(head)
	b.At(head)
	a, bb, i := b.Phi("", tInt), b.Phi("", tInt), b.Phi("", tInt)
	b.If(b.Bin(token.LSS, i, n), body, done)
	b.At(body)
	sum := b.Bin(token.ADD, a, bb)
	i1 := b.Bin(token.ADD, i, b.Int(1))
	b.Jump(head)
	irtest.SetArgs(a, b.Int(0), bb)
	irtest.SetArgs(bb, b.Int(1), sum)
	irtest.SetArgs(i, b.Int(0), i1)
	b.At(done)
	b.Return(a)
	return b.F
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
	b := irtest.NewBuilder("edges", pkg)
	c := b.Param("c", tBool)
	b.Result(tInt)
	join := b.Block("join")
	b.If(c, join, join)
	b.At(join)
	p := b.Phi("", tInt)
	irtest.SetArgs(p, b.Int(1), b.Int(2))
	b.Return(p)
	var m interp.Machine
	for c, want := range map[bool]int{true: 1, false: 2} {
		if got := call(t, &m, b.F, c)[0]; got != want {
			t.Errorf("edges(%v) = %v, want %d", c, got, want)
		}
	}
}

func TestSelectAndMinMax(t *testing.T) {
	b := irtest.NewBuilder("sel", pkg)
	x, y := b.Param("x", tFloat64), b.Param("y", tFloat64)
	b.Result(tFloat64)
	b.Result(tFloat64)
	b.Result(tFloat64)
	s := b.Select(b.Bin(token.GTR, x, y), x, y)
	b.Return(s, b.CallBuiltin("min", tFloat64, x, y), b.CallBuiltin("max", tFloat64, x, y, b.Float(0)))
	var m interp.Machine
	tests := []struct{ x, y, sel, min, max float64 }{
		{1, 2, 2, 1, 2},
		{-3, -5, -3, -5, 0},
		{0, negZero, negZero, negZero, 0},
		{nan, 1, 1, nan, nan},
	}
	for _, tc := range tests {
		res := call(t, &m, b.F, tc.x, tc.y)
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
	b := irtest.NewBuilder("structs", pkg)
	a, c := b.Param("a", tFloat64), b.Param("c", tFloat64)
	pt := b.Param("pt", pointType)
	b.Result(tFloat64)
	b.Result(tFloat64)
	b.Result(tFloat64)
	p := b.Alloc("", pointType, false)
	q := b.FieldAddr(p, 1)
	tmp := b.Alloc("", pointType, false)
	b.Store(b.FieldAddr(tmp, 0), a)
	b.Store(b.FieldAddr(tmp, 1), c)
	b.Store(p, b.Load(tmp))
	v := b.Load(p)
	b.Store(b.FieldAddr(p, 0), b.Float(7))
	b.Store(p, pt) // pt's own value must stay as passed
	b.Store(b.FieldAddr(p, 1), b.Float(8))
	b.Return(b.Field(v, 0), b.Load(q), b.Field(pt, 1))
	var m interp.Machine
	arg := interp.FromGo(struct{ X, Y float64 }{5, 6})
	res := call(t, &m, b.F, 1.0, 2.0, arg)
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
	b := irtest.NewBuilder("slices", pkg)
	x, y := b.Param("x", tFloat64), b.Param("y", tFloat64)
	for range 5 {
		b.Result(tFloat64)
	}
	b.Result(tBool)
	s := b.MakeSlice(sl, b.Int(2), b.Int(3))
	u := b.Slice(s, b.Int(1), nil, nil)
	b.Store(b.IndexAddr(u, b.Int(0)), x)
	w := b.CallBuiltin("append", sl, s, y)
	w2 := b.CallBuiltin("append", sl, w, b.Float(9))
	b.Store(b.IndexAddr(w2, b.Int(0)), b.Float(4))
	toF := func(v *ir.Value) *ir.Value { return b.Convert(tFloat64, v) }
	grown := b.Bin(token.GTR, b.Cap(w2), b.Int(3))
	b.Return(b.Load(b.IndexAddr(s, b.Int(1))), toF(b.Len(u)), toF(b.Cap(u)),
		b.Load(b.IndexAddr(w, b.Int(2))), b.Load(b.IndexAddr(s, b.Int(0))), grown)
	var m interp.Machine
	res := call(t, &m, b.F, 1.5, 2.5)
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
		b := irtest.NewBuilder("grow", pkg)
		n := b.Param("n", tInt)
		caps := b.Param("caps", types.NewSlice(tInt))
		head, body, done := b.Block("loop"), b.Block("body"), b.Block("done")
		b.Jump(head)
		b.At(head)
		s, i := b.Phi("", sl), b.Phi("", tInt)
		b.If(b.Bin(token.LSS, i, n), body, done)
		b.At(body)
		s2 := b.CallBuiltin("append", sl, s, b.Const(elem, nil))
		b.Store(b.IndexAddr(caps, i), b.Cap(s2))
		i2 := b.Bin(token.ADD, i, b.Int(1))
		b.Jump(head)
		irtest.SetArgs(s, b.Const(sl, nil), s2)
		irtest.SetArgs(i, b.Int(0), i2)
		b.At(done)
		b.Return()
		var m interp.Machine
		got := interp.FromGo(make([]int, len(goCaps)))
		call(t, &m, b.F, len(goCaps), got)
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
	b := irtest.NewBuilder("copy", pkg)
	x := b.Param("x", sl)
	b.Result(tInt)
	b.Result(arrT)
	b.Result(tInt)
	s := b.Slice(x, b.Int(0), b.Int(4), b.Int(4))
	n := b.CallBuiltin("copy", tInt, b.Slice(s, b.Int(1), nil, nil), s)
	b.CallBuiltin("clear", nil, b.Slice(s, nil, b.Int(1), nil))
	arr := b.Alloc("", arrT, false)
	u := b.Slice(arr, b.Int(1), b.Int(2), b.Int(3))
	b.Store(b.IndexAddr(u, b.Int(0)), b.Float(5))
	b.Store(b.IndexAddr(arr, b.Int(2)), b.Float(6))
	b.Return(n, b.Load(arr), b.Cap(u))
	var m interp.Machine
	xs := interp.FromGo([]float64{1, 2, 3, 4, 5})
	res := call(t, &m, b.F, xs)
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
		build func(b *irtest.Builder, x *ir.Value)
		parts []string
	}{
		{"index", func(b *irtest.Builder, x *ir.Value) { b.Load(b.IndexAddr(x, b.Int(3))) },
			[]string{"indexaddr", "index out of range [3] with length 3"}},
		{"negative index", func(b *irtest.Builder, x *ir.Value) { b.IndexAddr(x, b.Int(-1)) },
			[]string{"index out of range [-1]"}},
		{"slice", func(b *irtest.Builder, x *ir.Value) { b.Slice(x, nil, b.Int(5), nil) },
			[]string{"slice bounds out of range [:5] with capacity 3"}},
		{"slice3", func(b *irtest.Builder, x *ir.Value) { b.Slice(x, b.Int(2), b.Int(1), b.Int(3)) },
			[]string{"slice bounds out of range [2:1:]"}},
		{"nil", func(b *irtest.Builder, x *ir.Value) { b.Load(b.Const(types.NewPointer(tFloat64), nil)) },
			[]string{"load", "nil pointer dereference"}},
		{"makeslice", func(b *irtest.Builder, x *ir.Value) { b.MakeSlice(sl, b.Int(-1), nil) },
			[]string{"makeslice: len out of range"}},
		{"panic op", func(b *irtest.Builder, x *ir.Value) {
			b.Panic(b.Convert(types.NewInterfaceType(nil, nil), b.Const(tString, constant.MakeString("boom"))))
		}, []string{"boom"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := irtest.NewBuilder("f", pkg)
			x := b.Param("x", sl)
			tc.build(b, x)
			if b.B.Terminator() == nil {
				b.Return()
			}
			var m interp.Machine
			_, err := m.Call(checked(t, b.F), interp.FromGo([]float64{1, 2, 3}))
			wantError(t, err, interp.Panic, tc.parts...)
		})
	}
}

func TestLimits(t *testing.T) {
	// for {}
	b := irtest.NewBuilder("spin", pkg)
	loop := b.Block("loop")
	b.Jump(loop)
	b.At(loop)
	b.Jump(loop)
	m := interp.Machine{MaxSteps: 1000}
	_, err := m.Call(checked(t, b.F))
	wantError(t, err, interp.Limit, "more than 1000 steps")

	// func rec() { rec() }
	r := irtest.NewBuilder("rec", pkg)
	fn := irtest.FuncOf(r.F)
	r.Call(fn)
	r.Return()
	m = interp.Machine{Funcs: map[*types.Func]*ir.Func{fn: r.F}, MaxDepth: 50}
	_, err = m.Call(checked(t, r.F))
	wantError(t, err, interp.Limit, "deeper than 50")
}

func TestCalls(t *testing.T) {
	// sq(x) = x*x, called as a function, a derived function and a native;
	// math.Sincos and math.Frexp with several results; the helper
	// gadDigamma.
	sqb := irtest.NewBuilder("sq", pkg)
	x := sqb.Param("x", tFloat64)
	sqb.Result(tFloat64)
	sqb.Return(sqb.Bin(token.MUL, x, x))
	sqFn := irtest.FuncOf(sqb.F)
	cube := types.NewFunc(token.NoPos, pkg, "cube", sqFn.Signature())

	b := irtest.NewBuilder("calls", pkg)
	y := b.Param("y", tFloat64)
	for range 7 {
		b.Result(tFloat64)
	}
	r1 := b.Call(sqFn, y)
	r2 := b.CallDerived(&ir.DerivedFunc{Name: "sqDerived", Sig: sqFn.Type().(*types.Signature)}, y)
	r3 := b.Call(cube, y)
	sc := b.Call(irtest.MathFunc(t, "Sincos"), y)
	fr := b.Call(irtest.MathFunc(t, "Frexp"), y)
	dg := b.CallHelper("gadDigamma", tFloat64, y)
	b.Return(r1, r2, r3, b.Extract(sc, 0), b.Extract(sc, 1), b.Convert(tFloat64, b.Extract(fr, 1)), dg)

	m := interp.Machine{
		Funcs:   map[*types.Func]*ir.Func{sqFn: sqb.F},
		Derived: map[string]*ir.Func{"sqDerived": sqb.F},
		Natives: map[string]interp.Native{
			"example.com/p.cube": func(args []interp.Value) ([]interp.Value, error) {
				x := args[0].(float64)
				return []interp.Value{x * x * x}, nil
			},
		},
	}
	const v = 3.0
	res := call(t, &m, b.F, v)
	s, c := math.Sincos(v)
	_, e := math.Frexp(v)
	// ψ(3) = 3/2 - γ.
	want := []interp.Value{9.0, 9.0, 27.0, s, c, float64(e), 1.5 - 0.5772156649015329}
	for i := range want {
		if i == 6 {
			if !(math.Abs(res[i].(float64)-want[i].(float64)) <= 1e-14) {
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
	u := irtest.NewBuilder("callsUnknown", pkg)
	u.Call(unknown, u.Float(1))
	u.Return()
	_, err := m.Call(checked(t, u.F))
	wantError(t, err, interp.Unsupported, "example.com/p.nobody")

	inv := irtest.NewBuilder("invoke", pkg)
	iv := inv.Call(sqFn, inv.Float(1))
	iv.Callee.Invoke = true
	inv.Return()
	_, err = m.Call(checked(t, inv.F))
	wantError(t, err, interp.Unsupported, "dynamic call")

	bad := irtest.NewBuilder("bad", pkg)
	bx := bad.Param("x", types.NewSlice(tFloat64))
	bad.Result(tFloat64)
	bad.Return(bad.Load(bad.IndexAddr(bx, bad.Int(0))))
	badFn := irtest.FuncOf(bad.F)
	outer := irtest.NewBuilder("outer", pkg)
	outer.Result(tFloat64)
	outer.Return(outer.Call(badFn, outer.Const(types.NewSlice(tFloat64), nil)))
	m.Funcs[badFn] = bad.F
	_, err = m.Call(checked(t, outer.F))
	wantError(t, err, interp.Panic, "interp: bad: ", "index out of range [0] with length 0", "called from outer: ")
}

func TestGlobals(t *testing.T) {
	g := types.NewVar(token.NoPos, pkg, "counter", tInt)
	// counter++; return counter
	b := irtest.NewBuilder("incr", pkg)
	b.Result(tInt)
	p := b.Global(g)
	n := b.Bin(token.ADD, b.Load(p), b.Int(1))
	b.Store(p, n)
	b.Return(b.Load(p))
	var m interp.Machine
	call(t, &m, b.F)
	if got := call(t, &m, b.F)[0]; got != 2 {
		t.Errorf("counter = %v after two calls, want 2", got)
	}
	m.Globals[g] = interp.NewVar(10)
	if got := call(t, &m, b.F)[0]; got != 11 {
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
	b := irtest.NewBuilder("misc", pkg)
	s := b.Param("s", sl)
	for _, rt := range []types.Type{tInt, tInt, tBool, tBool, types.Typ[types.Byte], tString, tBool, tBool} {
		b.Result(rt)
	}
	a := b.Alloc("", arr3, false)
	p := b.Convert(types.NewPointer(arr2), s)
	b.Store(b.IndexAddr(p, b.Int(1)), b.Float(7))
	nilLen := b.Len(b.Const(types.NewPointer(arr3), nil))
	capA := b.Cap(b.Slice(a, b.Int(1), nil, nil))
	same := b.Bin(token.EQL, b.IndexAddr(a, b.Int(0)), b.IndexAddr(a, b.Int(0)))
	diff := b.Bin(token.EQL, b.IndexAddr(a, b.Int(0)), b.IndexAddr(a, b.Int(1)))
	str := b.Const(tString, constant.MakeString("héllo"))
	ch := b.Index(str, b.Int(1))
	tail := b.Slice(str, b.Int(3), nil, nil)
	one := b.Convert(anyT, b.Float(1))
	eqAny := b.Bin(token.EQL, one, b.Convert(anyT, b.Float(1)))
	neAny := b.Bin(token.EQL, one, b.Convert(anyT, b.Int(1)))
	b.Return(nilLen, capA, same, diff, ch, tail, eqAny, neAny)
	var m interp.Machine
	xs := interp.FromGo([]float64{1, 2, 3})
	res := call(t, &m, b.F, xs)
	want := []interp.Value{3, 2, true, false, uint8(0xc3), "llo", true, false}
	if !interp.Identical(interp.Tuple(res), interp.Tuple(want)) {
		t.Errorf("got %s, want %s", interp.Format(interp.Tuple(res)), interp.Format(interp.Tuple(want)))
	}
	if got := interp.ToGo(xs, sl); !reflect.DeepEqual(got, []float64{1, 7, 3}) {
		t.Errorf("store through (*[2]float64)(s) gave s = %v, want [1 7 3]", got)
	}
}
