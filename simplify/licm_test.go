package simplify_test

import (
	"go/importer"
	"go/token"
	"go/types"
	"math"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
)

// testEnv is a simplify.Env over hand-built bodies.
type testEnv struct {
	build   map[*types.Func]func() *ir.Func
	effects map[*types.Func]*simplify.Effects
}

func newTestEnv() *testEnv {
	return &testEnv{build: map[*types.Func]func() *ir.Func{}, effects: map[*types.Func]*simplify.Effects{}}
}

// add registers the body that build makes and returns the function to
// call it by.
func (e *testEnv) add(build func() *ir.Func) *types.Func {
	fn := irtest.FuncOf(build())
	e.build[fn] = build
	return fn
}

func (e *testEnv) Effects(fn *types.Func) *simplify.Effects {
	if s, ok := e.effects[fn]; ok {
		return s
	}
	e.effects[fn] = nil
	b := e.build[fn]
	if b == nil {
		return nil
	}
	s := simplify.Summarize(b(), e)
	e.effects[fn] = s
	return s
}

func (e *testEnv) Body(fn *types.Func) *ir.Func {
	if b := e.build[fn]; b != nil {
		return b()
	}
	return nil
}

// machine returns an interpreter that runs the bodies of e.
func (e *testEnv) machine() *interp.Machine {
	m := &interp.Machine{Funcs: map[*types.Func]*ir.Func{}}
	for fn, b := range e.build {
		m.Funcs[fn] = b()
	}
	return m
}

// mathFn returns math.name.
func mathFn(name string) *types.Func {
	m, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("math")
	if err != nil {
		panic(err)
	}
	return m.Scope().Lookup(name).(*types.Func)
}

var (
	f64   = irtest.Float64
	slice = types.NewSlice(irtest.Float64)
)

// loop emits `for i := 0; i < n; i++ { acc = step(i, acc) }` at b's
// current block, leaves b at the loop's exit and returns acc there.
func loop(b *irtest.Builder, n, acc0 *ir.Value, step func(i, acc *ir.Value) *ir.Value) *ir.Value {
	head, body, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
	b.Jump(head)
	b.At(head)
	i := b.Phi("i", irtest.Int)
	acc := b.Phi("s", acc0.Type)
	b.If(b.Bin(token.LSS, i, n), body, done)
	b.At(body)
	next := step(i, acc)
	i2 := b.Add(i, b.Int(1))
	b.Jump(head)
	irtest.SetArgs(i, b.Int(0), i2)
	irtest.SetArgs(acc, acc0, next)
	b.At(done)
	return acc
}

// magBody builds mag(x) = √(Σ x[i]²): pure but for reading x, total.
func magBody() *ir.Func {
	b := irtest.NewBuilder("mag", pkg)
	x := b.Param("x", slice)
	b.Result(f64)
	s := loop(b, b.Len(x), b.Float(0), func(i, s *ir.Value) *ir.Value {
		xi := b.Load(b.IndexAddr(x, i))
		return b.Add(s, b.Mul(xi, xi))
	})
	b.Return(b.Call(mathFn("Sqrt"), s))
	return b.F
}

// firstBody builds first(x) = x[0], which panics when x is empty.
func firstBody() *ir.Func {
	b := irtest.NewBuilder("first", pkg)
	x := b.Param("x", slice)
	b.Result(f64)
	b.Return(b.Load(b.IndexAddr(x, b.Int(0))))
	return b.F
}

// scaleBody builds scale(x) { for i := range x { x[i] *= 2 } }.
func scaleBody() *ir.Func {
	b := irtest.NewBuilder("scale", pkg)
	x := b.Param("x", slice)
	loop(b, b.Len(x), b.Int(0), func(i, acc *ir.Value) *ir.Value {
		a := b.IndexAddr(x, i)
		b.Store(a, b.Mul(b.Load(a), b.Float(2)))
		return acc
	})
	b.Return()
	return b.F
}

// whileBody builds a loop that is not counted: for x > 1 { x /= 2 }.
func whileBody() *ir.Func {
	b := irtest.NewBuilder("halve", pkg)
	x := b.Param("x", f64)
	b.Result(f64)
	head, body, done := b.Block("loop"), b.Block("body"), b.Block("done")
	b.Jump(head)
	b.At(head)
	v := b.Phi("x", f64)
	b.If(b.Bin(token.GTR, v, b.Float(1)), body, done)
	b.At(body)
	h := b.Quo(v, b.Float(2))
	b.Jump(head)
	irtest.SetArgs(v, x, h)
	b.At(done)
	b.Return(v)
	return b.F
}

// TestSummarize snapshots the effects of small functions.
func TestSummarize(t *testing.T) {
	env := newTestEnv()
	for _, tc := range []struct {
		build func() *ir.Func
		want  string
	}{
		{magBody, "reads [0]"},
		{firstBody, "reads [0] mayPanic"},
		{scaleBody, "reads [0] writes [0]"},
		{whileBody, "mayNotReturn"},
		{func() *ir.Func { return irtest.SumSquares(pkg) }, "reads [0]"},
	} {
		f := tc.build()
		t.Run(f.Name, func(t *testing.T) {
			if got := simplify.Summarize(f, env).String(); got != tc.want {
				t.Errorf("got %q, want %q\n%s", got, tc.want, f)
			}
		})
	}
}

// callBlocks returns, for each call of fn in f, whether it is in a loop.
func callsInLoops(f *ir.Func, fn *types.Func) (inLoop, outside int) {
	cfg := ir.NewCFG(f)
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpCall || v.Callee.Func != fn {
				continue
			}
			in := false
			for h := range cfg.Loop {
				in = in || cfg.InLoop(f.Blocks[h], b)
			}
			if in {
				inLoop++
			} else {
				outside++
			}
		}
	}
	return inLoop, outside
}

// runLICM runs the primal pipeline's LICM with the IR checker.
func runLICM(f *ir.Func, env simplify.Env) {
	simplify.Run(f, []simplify.Pass{{Name: "licm", Fn: simplify.LICM}}, simplify.Config{Optimize: true, Check: true, Env: env})
}

// sameOn runs before and after on args (fresh copies each) and requires
// identical results and errors.
func sameOn(t *testing.T, m *interp.Machine, before, after *ir.Func, args func() []interp.Value) {
	t.Helper()
	r1, err1 := m.Call(before, args()...)
	r2, err2 := m.Call(after, args()...)
	interpOK(t, "the loop before and after LICM", err1, err2)
	if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
		t.Fatalf("errors differ: before %v, after %v", err1, err2)
	}
	if !interp.Identical(interp.Tuple(r1), interp.Tuple(r2)) {
		t.Errorf("before %s, after %s", interp.Format(interp.Tuple(r1)), interp.Format(interp.Tuple(r2)))
	}
}

// normalizeLoop builds
//
//	func F(x []float64) float64 {
//		out := make([]float64, len(x))   // or out := x, with inPlace
//		s := 0.0
//		for i := 0; i < len(x); i++ {
//			out[i] = x[i] / mag(x)
//			s += out[i]
//		}
//		return s
//	}
func normalizeLoop(mag *types.Func, inPlace bool) func() *ir.Func {
	return func() *ir.Func {
		b := irtest.NewBuilder("F", pkg)
		x := b.Param("x", slice)
		b.Result(f64)
		out := x
		if !inPlace {
			out = b.MakeSlice(slice, b.Len(x), nil)
		}
		s := loop(b, b.Len(x), b.Float(0), func(i, s *ir.Value) *ir.Value {
			q := b.Quo(b.Load(b.IndexAddr(x, i)), b.Call(mag, x))
			b.Store(b.IndexAddr(out, i), q)
			return b.Add(s, b.Load(b.IndexAddr(out, i)))
		})
		b.Return(s)
		return b.F
	}
}

func vec(xs ...float64) func() []interp.Value {
	return func() []interp.Value { return []interp.Value{interp.FromGo(append([]float64(nil), xs...))} }
}

// TestLICMHoistsMag: mag(x) leaves a loop that writes a fresh slice, and
// the results do not change.
func TestLICMHoistsMag(t *testing.T) {
	env := newTestEnv()
	mag := env.add(magBody)
	mk := normalizeLoop(mag, false)
	f := mk()
	runLICM(f, env)
	if in, out := callsInLoops(f, mag); in != 0 || out != 1 {
		t.Errorf("mag in loops %d, outside %d times; want 0, 1:\n%s", in, out, f)
	}
	for _, xs := range [][]float64{{}, {3, 4}, {1, -2, math.Inf(1)}} {
		sameOn(t, env.machine(), mk(), f, vec(xs...))
	}
}

// TestLICMLoopWritesSlice: when the loop writes x, which mag reads, mag
// stays in the loop (each iteration sees the elements written before).
func TestLICMLoopWritesSlice(t *testing.T) {
	env := newTestEnv()
	mag := env.add(magBody)
	mk := normalizeLoop(mag, true)
	f := mk()
	runLICM(f, env)
	if in, _ := callsInLoops(f, mag); in != 1 {
		t.Errorf("mag hoisted out of a loop that writes its argument:\n%s", f)
	}
	sameOn(t, env.machine(), mk(), f, vec(3, 4, 12))
}

// TestLICMMayPanic: a call that may panic leaves its loop only under the
// loop's test (guard.go), so that a loop that runs zero times does not
// evaluate it, and one that runs panics as it did.
func TestLICMMayPanic(t *testing.T) {
	env := newTestEnv()
	first := env.add(firstBody)
	mk := func() *ir.Func {
		b := irtest.NewBuilder("F", pkg)
		x, n := b.Param("x", slice), b.Param("n", irtest.Int)
		b.Result(f64)
		b.Return(loop(b, n, b.Float(0), func(i, s *ir.Value) *ir.Value {
			return b.Add(s, b.Call(first, x))
		}))
		return b.F
	}
	f := mk()
	runLICM(f, env)
	if in, out := callsInLoops(f, first); in != 0 || out != 1 {
		t.Errorf("first: in loops %d, outside %d; want 0, 1:\n%s", in, out, f)
	}
	if count(f, ir.OpIf) != 2 {
		t.Errorf("no guard:\n%s", f)
	}
	m := env.machine()
	for _, tc := range []struct {
		x []float64
		n int
	}{{nil, 0}, {nil, 2}, {[]float64{3}, 2}} {
		args := func() []interp.Value { return []interp.Value{interp.FromGo(tc.x), tc.n} }
		if _, err := m.Call(f, args()...); (err != nil) != (len(tc.x) == 0 && tc.n > 0) {
			t.Errorf("x=%v n=%d: error %v", tc.x, tc.n, err)
		}
		sameOn(t, m, mk(), f, args)
	}
}

// TestLICMMayPanicAfterEffect: a call that may panic stays in its loop
// when the loop stores before it: hoisted, its panic would come before
// the store.
func TestLICMMayPanicAfterEffect(t *testing.T) {
	env := newTestEnv()
	first := env.add(firstBody)
	mk := func() *ir.Func {
		b := irtest.NewBuilder("F", pkg)
		x, n := b.Param("x", slice), b.Param("n", irtest.Int)
		b.Result(f64)
		out := b.MakeSlice(slice, b.Int(2), nil) // a store to it cannot alias x
		b.Return(loop(b, n, b.Float(0), func(i, s *ir.Value) *ir.Value {
			b.Store(b.IndexAddr(out, i), b.Float(1))
			return b.Add(s, b.Call(first, x))
		}))
		return b.F
	}
	f := mk()
	runLICM(f, env)
	if in, _ := callsInLoops(f, first); in != 1 {
		t.Errorf("a call that may panic moved above a store:\n%s", f)
	}
}

// TestLICMNested: a call invariant in two nested loops leaves both; a
// value that depends on the outer loop's index leaves only the inner one.
func TestLICMNested(t *testing.T) {
	env := newTestEnv()
	mag := env.add(magBody)
	exp := irtest.MathFunc(t, "Exp")
	mk := func() *ir.Func {
		b := irtest.NewBuilder("F", pkg)
		x, n := b.Param("x", slice), b.Param("n", irtest.Int)
		b.Result(f64)
		b.Return(loop(b, n, b.Float(0), func(j, s *ir.Value) *ir.Value {
			fj := b.Convert(f64, j)
			return loop(b, n, s, func(i, s *ir.Value) *ir.Value {
				term := b.Mul(b.Call(mag, x), b.Call(exp, fj))
				return b.Add(s, b.Mul(term, b.Convert(f64, i)))
			})
		}))
		return b.F
	}
	f := mk()
	runLICM(f, env)
	if in, out := callsInLoops(f, mag); in != 0 || out != 1 {
		t.Errorf("mag: in loops %d, outside %d; want 0, 1:\n%s", in, out, f)
	}
	// exp(j) leaves the inner loop only: it is in the outer loop's body.
	cfg := ir.NewCFG(f)
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpCall || v.Callee.Func != exp {
				continue
			}
			depth := 0
			for h := range cfg.Loop {
				if cfg.InLoop(f.Blocks[h], b) {
					depth++
				}
			}
			if depth != 1 {
				t.Errorf("exp(j) at loop depth %d, want 1:\n%s", depth, f)
			}
		}
	}
	for _, n := range []int{0, 1, 3} {
		sameOn(t, env.machine(), mk(), f, func() []interp.Value {
			return []interp.Value{interp.FromGo([]float64{1, 2, 2}), n}
		})
	}
}

// TestInlineNormalize: Normalize(dst, x), on its own, cannot hoist mag(x)
// (dst and x may share memory); called on a slice the caller allocated,
// it is inlined and mag(x) leaves the loop.
func TestInlineNormalize(t *testing.T) {
	env := newTestEnv()
	mag := env.add(magBody)
	normalize := env.add(func() *ir.Func {
		b := irtest.NewBuilder("Normalize", pkg)
		dst, x := b.Param("dst", slice), b.Param("x", slice)
		loop(b, b.Len(x), b.Int(0), func(i, acc *ir.Value) *ir.Value {
			b.Store(b.IndexAddr(dst, i), b.Quo(b.Load(b.IndexAddr(x, i)), b.Call(mag, x)))
			return acc
		})
		b.Return()
		return b.F
	})
	alone := env.Body(normalize)
	simplify.Run(alone, simplify.Primal, simplify.Config{Optimize: true, Check: true, Env: env})
	if in, _ := callsInLoops(alone, mag); in != 1 {
		t.Errorf("mag hoisted out of Normalize, whose dst may be x:\n%s", alone)
	}

	mk := func() *ir.Func {
		b := irtest.NewBuilder("Loss", pkg)
		x := b.Param("x", slice)
		b.Result(f64)
		out := b.MakeSlice(slice, b.Len(x), nil)
		b.Call(normalize, out, x)
		b.Return(loop(b, b.Len(out), b.Float(0), func(i, s *ir.Value) *ir.Value {
			return b.Add(s, b.Load(b.IndexAddr(out, i)))
		}))
		return b.F
	}
	f := mk()
	simplify.Run(f, simplify.Primal, simplify.Config{Optimize: true, Check: true, Env: env})
	if strings.Contains(f.String(), "Normalize") {
		t.Errorf("Normalize not inlined:\n%s", f)
	}
	if in, out := callsInLoops(f, mag); in != 0 || out != 1 {
		t.Errorf("mag: in loops %d, outside %d; want 0, 1:\n%s", in, out, f)
	}
	for _, xs := range [][]float64{{}, {3, 4}, {1, 2, 3, 4, 5}} {
		sameOn(t, env.machine(), mk(), f, vec(xs...))
	}
}

// TestCSEAcrossStores: a load survives a store to a slice the function
// allocated (another alias class), and two calls of a function that reads
// only its argument's memory are one while nothing writes it.
func TestCSEAcrossStores(t *testing.T) {
	env := newTestEnv()
	mag := env.add(magBody)
	mk := func() *ir.Func {
		b := irtest.NewBuilder("F", pkg)
		x := b.Param("x", slice)
		b.Result(f64)
		out := b.MakeSlice(slice, b.Int(2), nil)
		a := b.Load(b.IndexAddr(x, b.Int(0)))
		m1 := b.Call(mag, x)
		b.Store(b.IndexAddr(out, b.Int(0)), a)
		c := b.Load(b.IndexAddr(x, b.Int(0)))
		m2 := b.Call(mag, x)
		b.Store(b.IndexAddr(x, b.Int(1)), c) // writes x: a third read stays
		m3 := b.Call(mag, x)
		b.Return(b.Add(b.Add(b.Mul(a, c), b.Mul(m1, m2)), m3))
		return b.F
	}
	f := mk()
	simplify.Run(f, []simplify.Pass{{Name: "cse", Fn: simplify.CSE}}, simplify.Config{Optimize: true, Check: true, Env: env})
	if n := count(f, ir.OpLoad); n != 1 {
		t.Errorf("%d loads, want 1:\n%s", n, f)
	}
	if n := count(f, ir.OpCall); n != 2 {
		t.Errorf("%d calls of mag, want 2:\n%s", n, f)
	}
	sameOn(t, env.machine(), mk(), f, vec(3, 4))
}

// TestLICMStoreBeforeLoop: the loop's header has two predecessors
// outside it, one of which stores into the variable p; a load of p in the
// loop does not move above that store (to the header's dominator).
func TestLICMStoreBeforeLoop(t *testing.T) {
	mk := func() *ir.Func {
		b := irtest.NewBuilder("F", pkg)
		x, c := b.Param("x", slice), b.Param("c", irtest.Bool)
		b.Result(f64)
		p := b.Alloc("p", f64, false)
		b.Store(p, b.Float(1))
		st, head, body, done := b.Block("if.then"), b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
		b.If(c, st, head)
		b.At(st)
		b.Store(p, b.Float(7))
		b.Jump(head)
		b.At(head)
		i := b.Phi("i", irtest.Int)
		s := b.Phi("s", f64)
		b.If(b.Bin(token.LSS, i, b.Len(x)), body, done)
		b.At(body)
		s2 := b.Add(s, b.Mul(b.Load(p), b.Load(b.IndexAddr(x, i))))
		i2 := b.Add(i, b.Int(1))
		b.Jump(head)
		// head.Preds: entry, if.then, for.body.
		irtest.SetArgs(i, b.Int(0), b.Int(0), i2)
		irtest.SetArgs(s, b.Float(0), b.Float(0), s2)
		b.At(done)
		b.Return(s)
		return b.F
	}
	f := mk()
	runLICM(f, newTestEnv())
	for _, c := range []bool{false, true} {
		sameOn(t, &interp.Machine{}, mk(), f, func() []interp.Value { return []interp.Value{interp.FromGo([]float64{1, 2}), c} })
	}
}

// TestCSEPureCall: a function of the program that reads no memory is a
// pure value: two calls with the same argument are one, even across a
// store.
func TestCSEPureCall(t *testing.T) {
	env := newTestEnv()
	sq := env.add(func() *ir.Func {
		b := irtest.NewBuilder("sq", pkg)
		x := b.Param("x", f64)
		b.Result(f64)
		b.Return(b.Mul(x, x))
		return b.F
	})
	mk := func() *ir.Func {
		b := irtest.NewBuilder("F", pkg)
		xs, y := b.Param("xs", slice), b.Param("y", f64)
		b.Result(f64)
		a := b.Call(sq, y)
		b.Store(b.IndexAddr(xs, b.Int(0)), a)
		c := b.Call(sq, y)
		b.Return(b.Add(a, c))
		return b.F
	}
	f := mk()
	simplify.Run(f, []simplify.Pass{{Name: "cse", Fn: simplify.CSE}}, simplify.Config{Optimize: true, Check: true, Env: env})
	if n := count(f, ir.OpCall); n != 1 {
		t.Errorf("%d calls of sq, want 1:\n%s", n, f)
	}
	sameOn(t, env.machine(), mk(), f, func() []interp.Value { return []interp.Value{interp.FromGo([]float64{1}), 3.0} })
}
