package taylor_test

// This file defines execution tests of the forward-mode transformer on
// hand-built IR, with package interp as the machine: each primal and its
// JVP run on the same inputs; the JVP's primal results and side effects
// must equal the primal's exactly, and its tangents must match central
// finite differences (internal/fdcheck, gonum's fd.Central) of the
// interpreted primal, at seeded random points and directions.

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math/rand/v2"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/taylor"
)

// jvpCase is a primal function to differentiate and run.
type jvpCase struct {
	name string
	// build returns the primal and the IR bodies of the functions it
	// calls (nil if none).
	build func(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func)
	// args are the primal's arguments; the floats in the varied ones are
	// replaced by the point x (in the order irtest.Floats reads them).
	args []interp.Value
	// active is the activity of the parameters; nil means
	// ssaad.DefaultActivity.
	active []bool
	// lo, hi bound the coordinates of the points.
	lo, hi float64
	// rel is the relative tolerance of the finite-difference check; zero
	// means fdcheck's default.
	rel float64
}

func TestJVPInterp(t *testing.T) {
	for _, tc := range jvpCases() {
		t.Run(tc.name, func(t *testing.T) {
			runJVPCase(t, tc)
		})
	}
}

const jvpPoints = 6

func runJVPCase(t *testing.T, tc jvpCase) {
	primal, bodies := tc.build(t)
	if err := ir.Check(primal); err != nil {
		t.Fatal(err)
	}
	target := irtest.FuncOf(primal)
	active := tc.active
	if active == nil {
		active = ssaad.DefaultActivity(target)
	}
	e := &interpEnv{bodies: bodies, derived: map[string]*ir.Func{}}
	req := &ssaad.Request{Mode: "jvp", Target: target, Name: primal.Name + "JVP", Active: active}
	d, errs := taylor.Mode{Tangent: true}.Transform(primal, req, e)
	if len(errs) > 0 {
		t.Fatalf("Transform: %v", errs)
	}
	if err := ir.Check(d); err != nil {
		t.Fatal(err)
	}
	for name, f := range e.derived {
		if err := ir.Check(f); err != nil {
			t.Fatalf("derivative %s: %v", name, err)
		}
	}
	m := &interp.Machine{Funcs: bodies, Derived: e.derived}

	// The same with gadgen's optimization passes on the primals (before
	// differentiation) and on the derivatives (after): every result must
	// be identical, bit for bit.
	opt := simplify.Config{Optimize: true, Check: true}
	primalO, bodiesO := tc.build(t)
	for _, b := range bodiesO {
		if b != primalO {
			simplify.Run(b, simplify.Primal, opt)
		}
	}
	simplify.Run(primalO, simplify.Primal, opt)
	eO := &interpEnv{bodies: bodiesO, derived: map[string]*ir.Func{}}
	dO, errs := taylor.Mode{Tangent: true}.Transform(primalO, &ssaad.Request{Mode: "jvp", Target: target, Name: primal.Name + "JVP", Active: active}, eO)
	if len(errs) > 0 {
		t.Fatalf("Transform of the optimized primal: %v", errs)
	}
	simplify.Run(dO, simplify.Derivative, opt)
	for _, f := range eO.derived {
		simplify.Run(f, simplify.Derivative, opt)
	}
	mO := &interp.Machine{Funcs: bodiesO, Derived: eO.derived}

	// The point x holds the floats of the varied arguments.
	n := 0
	for i, a := range tc.args {
		if active[i] {
			n += len(irtest.Floats(nil, a))
		}
	}
	// args returns fresh arguments with the floats of the varied ones
	// taken from x.
	args := func(x []float64) []interp.Value {
		out := make([]interp.Value, len(tc.args))
		for i, a := range tc.args {
			if active[i] {
				out[i], x = irtest.WithFloats(a, x)
			} else {
				out[i], _ = irtest.WithFloats(a, nil)
			}
		}
		return out
	}
	// outputs flattens what a call produces: its results and the varied
	// arguments after the call.
	outputs := func(res, as []interp.Value) []float64 {
		var out []float64
		for _, r := range res {
			out = irtest.Floats(out, r)
		}
		for i, a := range as {
			if active[i] {
				out = irtest.Floats(out, a)
			}
		}
		return out
	}
	f := func(x []float64) []float64 {
		as := args(x)
		res, err := m.Call(primal, as...)
		if err != nil {
			t.Fatalf("primal: %v", err)
		}
		return outputs(res, as)
	}
	nres := len(primal.ResultTypes)
	// jvp runs the derivative, checks its primal part against the primal,
	// and returns the tangent part.
	jvp := func(x, v []float64) []float64 {
		as, das := args(x), args(v)
		var jargs []interp.Value
		for i := range as {
			jargs = append(jargs, as[i])
			if active[i] {
				jargs = append(jargs, das[i])
			}
		}
		var argsO []interp.Value
		{
			as, das := args(x), args(v)
			for i := range as {
				argsO = append(argsO, as[i])
				if active[i] {
					argsO = append(argsO, das[i])
				}
			}
		}
		res, err := m.Call(d, jargs...)
		if err != nil {
			t.Fatalf("JVP: %v\n%s", err, d)
		}
		resO, err := mO.Call(dO, argsO...)
		if err != nil {
			t.Fatalf("optimized JVP: %v\n%s", err, dO)
		}
		if !interp.Identical(interp.Tuple(res), interp.Tuple(resO)) || !interp.Identical(interp.Tuple(jargs), interp.Tuple(argsO)) {
			t.Errorf("at x = %v, v = %v: optimized JVP gives %s, unoptimized %s\noptimized:\n%s", x, v,
				interp.Format(interp.Tuple(resO)), interp.Format(interp.Tuple(res)), dO)
		}
		pas := args(x)
		pres, err := m.Call(primal, pas...)
		if err != nil {
			t.Fatalf("primal: %v", err)
		}
		if !interp.Identical(interp.Tuple(res[:nres]), interp.Tuple(pres)) {
			t.Errorf("at x = %v: JVP's primal results %s, primal's %s", x, interp.Format(interp.Tuple(res[:nres])), interp.Format(interp.Tuple(pres)))
		}
		if !interp.Identical(interp.Tuple(as), interp.Tuple(pas)) {
			t.Errorf("at x = %v: JVP leaves arguments %s, primal %s", x, interp.Format(interp.Tuple(as)), interp.Format(interp.Tuple(pas)))
		}
		return outputs(res[nres:], das)
	}

	r := rand.New(rand.NewPCG(1, uint64(len(tc.name))))
	for k := range jvpPoints {
		x, v := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = tc.lo + (tc.hi-tc.lo)*r.Float64()
			v[i] = 2*r.Float64() - 1
		}
		if err := fdcheck.Check(f, jvp, x, v, &fdcheck.Settings{Rel: tc.rel}); err != nil {
			t.Errorf("point %d: %v", k, err)
		}
		if t.Failed() {
			t.Logf("JVP:\n%s", d)
			return
		}
	}
}

// interpEnv is the ssaad.Env of the tests: it differentiates callees whose
// IR bodies it has, for the Machine's Derived map.
type interpEnv struct {
	bodies     map[*types.Func]*ir.Func
	derived    map[string]*ir.Func
	inProgress map[*types.Func]bool
}

func (e *interpEnv) Derivative(mode string, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	body := e.bodies[callee]
	if body == nil {
		return nil, fmt.Errorf("no IR body for %s", callee.Name())
	}
	name := callee.Name() + "JVP"
	for i, a := range active {
		if a {
			name += fmt.Sprint(i)
		}
	}
	req := &ssaad.Request{Mode: mode, Target: callee, Name: name, Active: active, Pos: pos}
	sig, err := taylor.Mode{Tangent: true}.Signature(req)
	if err != nil {
		return nil, err
	}
	if _, ok := e.derived[name]; !ok {
		e.derived[name] = nil // being generated: recursion stops here
		d, errs := taylor.Mode{Tangent: true}.Transform(body, req, e)
		if len(errs) > 0 {
			return nil, fmt.Errorf("%v", errs)
		}
		e.derived[name] = d
	}
	return &ir.DerivedFunc{Name: name, Sig: sig}, nil
}

func (e *interpEnv) Position(token.Pos) token.Position { return token.Position{} }

// Reads implements ssaad.Env: unknown, every argument assumed read.
func (e *interpEnv) Reads(*types.Func) []bool { return nil }

// Writes implements ssaad.Env from the IR bodies; nil (unknown) while a
// recursive callee's summary is being computed.
func (e *interpEnv) Writes(callee *types.Func) []bool {
	body := e.bodies[callee]
	if body == nil || e.inProgress[callee] {
		return nil
	}
	if e.inProgress == nil {
		e.inProgress = map[*types.Func]bool{}
	}
	e.inProgress[callee] = true
	defer delete(e.inProgress, callee)
	return ssaad.ParamWrites(body, e.Writes, ssaad.CalleeFacts{})
}

var (
	interpPkg = types.NewPackage("example.com/p", "p")
	f64T      = irtest.Float64
	intT      = irtest.Int
	f64s      = types.NewSlice(types.Typ[types.Float64])
	pointT    = types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, interpPkg, "X", f64T, false),
		types.NewField(token.NoPos, interpPkg, "Y", f64T, false),
	}, nil)
)

// loop builds for i := 0; i < n; i++ { body(i) } from b's current block
// and leaves b in the block after the loop. Extra loop-carried values are
// φ-nodes made by carried (their initial values) and updated by body's
// results.
func loop(b *irtest.Builder, n *ir.Value, init []*ir.Value, body func(i *ir.Value, carried []*ir.Value) []*ir.Value) []*ir.Value {
	head, blk, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.done")
	b.Jump(head)
	b.At(head)
	i := b.Phi("", intT)
	var phis []*ir.Value
	for _, x := range init {
		phis = append(phis, b.Phi("", x.Type))
	}
	b.If(b.Bin(token.LSS, i, n), blk, done)
	b.At(blk)
	next := body(i, phis)
	i1 := b.Add(i, b.Int(1))
	b.Jump(head)
	irtest.SetArgs(i, b.Int(0), i1)
	for k, p := range phis {
		irtest.SetArgs(p, init[k], next[k])
	}
	b.At(done)
	return phis
}

func floats(xs ...float64) interp.Value { return interp.FromGo(xs) }

func jvpCases() []jvpCase {
	return []jvpCase{
		{
			name: "SumSquares",
			build: func(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
				return irtest.SumSquares(interpPkg), nil
			},
			args: []interp.Value{floats(0, 0, 0, 0)},
			lo:   -2, hi: 2,
		},
		{
			// func Kepler(m, e float64) float64 {
			// 	x := m + e*math.Sin(m)
			// 	for i := 0; i < 50; i++ {
			// 		step := (x - e*math.Sin(x) - m) / (1 - e*math.Cos(x))
			// 		x -= step
			// 		if math.Abs(step) <= 1e-15*(1+math.Abs(x)) {
			// 			break
			// 		}
			// 	}
			// 	return x
			// }
			name:  "Kepler (Newton with a data-dependent break)",
			build: kepler,
			args:  []interp.Value{0.0, 0.0},
			lo:    0.2, hi: 0.8,
		},
		{
			// func FirstNegative(x []float64) float64 {
			// 	s := 0.0
			// 	for i := 0; i < len(x); i++ {
			// 		if x[i] < 0 {
			// 			break
			// 		}
			// 		s += x[i] * x[i]
			// 	}
			// 	return s
			// }
			name:  "FirstNegative (break on data)",
			build: firstNegative,
			args:  []interp.Value{floats(0, 0, 0, 0, 0, 0)},
			lo:    -0.5, hi: 2,
		},
		{
			// func Softmax(dst, x []float64) {
			// 	s := 0.0
			// 	for i := 0; i < len(x); i++ {
			// 		dst[i] = math.Exp(x[i])
			// 		s += dst[i]
			// 	}
			// 	for i := 0; i < len(x); i++ {
			// 		dst[i] /= s
			// 	}
			// }
			name:  "Softmax (writes an output slice)",
			build: softmax,
			args:  []interp.Value{floats(0, 0, 0), floats(0, 0, 0)},
			lo:    -2, hi: 2,
		},
		{
			// func Ramp(x float64) []float64 {
			// 	s := make([]float64, 3)
			// 	for i := 0; i < 3; i++ {
			// 		s[i] = x * float64(i+1)
			// 	}
			// 	s = append(s, x*x)
			// 	return s
			// }
			name:  "Ramp (returns a new slice)",
			build: ramp,
			args:  []interp.Value{0.0},
			lo:    -2, hi: 2,
		},
		{
			// func Polar(a, b float64) float64 {
			// 	p := new(Point)
			// 	p.X = a * b
			// 	p.Y = a - b
			// 	q := *p
			// 	p.X = q.Y
			// 	return q.X*q.X + p.X*p.Y
			// }
			name:  "Polar (struct via alloc and fieldaddr)",
			build: polar,
			args:  []interp.Value{0.0, 0.0},
			lo:    -2, hi: 2,
		},
		{
			// func Move(p *Point, a float64) {
			// 	p.X = p.X*a + p.Y
			// 	p.Y = a * a
			// }
			name:  "Move (through a pointer parameter)",
			build: move,
			args:  []interp.Value{interp.FromGo(&struct{ X, Y float64 }{}), 0.0},
			lo:    -2, hi: 2,
		},
		{
			// func Relu(x, y float64) float64 {
			// 	return select(x > y, x*x, y) + max(x, y, 0.5) * min(x, y)
			// }
			name:  "Relu (select, min and max)",
			build: relu,
			args:  []interp.Value{0.0, 0.0},
			lo:    -2, hi: 2,
		},
		{
			// func Trig(x, y float64) float64 {
			// 	return math.Sin(x)*math.Exp(y) + math.Pow(x*x+1, y) + math.Atan2(y, x)
			// }
			name:  "Trig (math.Sin, Exp, Pow, Atan2)",
			build: trig,
			args:  []interp.Value{0.0, 0.0},
			lo:    0.3, hi: 2,
		},
		{
			// func Tuples(x float64) float64 {
			// 	s, c := math.Sincos(x)
			// 	fr, e := math.Frexp(x * x)
			// 	_, fp := math.Modf(3 * x)
			// 	lg, sign := math.Lgamma(x)
			// 	return s*c + fr*float64(e) + fp + lg*float64(sign)
			// }
			name:  "Tuples (math functions with several results)",
			build: tuples,
			args:  []interp.Value{0.0},
			lo:    0.3, hi: 3,
		},
		{
			// func sq(x float64) float64 { return x * x }
			// func UseSq(x, y float64) float64 { return sq(x*y) + sq(y) }
			name:  "UseSq (calls of a derivative)",
			build: useSq,
			args:  []interp.Value{0.0, 0.0},
			lo:    -2, hi: 2,
		},
		{
			// func Concat(x []float64, y float64) float64 {
			// 	s := append(x[:0:0], y, y*y)
			// 	s = append(s, x...)
			// 	return s[0]*s[3] + s[1]*s[len(s)-1]
			// }
			name:  "Concat (append, with ...)",
			build: concat,
			args:  []interp.Value{floats(0, 0, 0), 0.0},
			lo:    -2, hi: 2,
		},
		{
			// func divmod(x, y float64) (float64, float64) {
			// 	q := x / y
			// 	return q, x - q*y*y
			// }
			// func UseDivmod(x, y float64) float64 {
			// 	q, r := divmod(x*x, y)
			// 	return q * r
			// }
			name:  "UseDivmod (call of a derivative with two results)",
			build: useDivmod,
			args:  []interp.Value{0.0, 0.0},
			lo:    0.5, hi: 2,
		},
		{
			// func Accumulate(x []float64) float64 {
			// 	var p Point
			// 	for i := 0; i < len(x); i++ {
			// 		t := new(Point)
			// 		t.X = p.X + x[i]
			// 		t.Y = p.Y*x[i] + 1
			// 		p = *t
			// 	}
			// 	return p.X * p.Y
			// }
			name:  "Accumulate (struct-valued φ)",
			build: accumulate,
			args:  []interp.Value{floats(0, 0, 0)},
			lo:    -2, hi: 2,
		},
		{
			// func Arrays(a [3]float64, p *[2]float64) float64 {
			// 	p[0] = a[0] * a[1]
			// 	s := p[:]
			// 	s[1] = a[2] * s[0]
			// 	return a[0] + p[1]
			// }
			name:  "Arrays (array value, pointer to array, slice of it)",
			build: arrays,
			args:  []interp.Value{interp.FromGo([3]float64{}), interp.FromGo(&[2]float64{})},
			lo:    -2, hi: 2,
		},
		{
			// func Matrix(a [][]float64) float64 {
			// 	a[0][0] = a[0][1] * a[1][0]
			// 	return a[0][0] * a[1][1]
			// }
			name:  "Matrix (slice of slices)",
			build: matrix,
			args:  []interp.Value{interp.FromGo([][]float64{{0, 0}, {0, 0}})},
			lo:    -2, hi: 2,
		},
		{
			// func CopyInto(dst, x []float64) float64 {
			// 	n := copy(dst[1:], x)
			// 	dst[0] = x[0] * float64(n)
			// 	return dst[1] * dst[2]
			// }
			name:  "CopyInto (copy)",
			build: copyInto,
			args:  []interp.Value{floats(0, 0, 0), floats(0, 0, 0, 0)},
			lo:    -2, hi: 2,
		},
		{
			// type Celsius float64
			// func IntArgs(c Celsius, y float64) Celsius {
			// 	x := float64(c)
			// 	r := math.Ldexp(x, 3) + math.Jn(2, x) + math.Hypot(x, y) +
			// 		math.Sqrt(x)*math.Log(y) + math.Max(x, y) - math.Floor(x)
			// 	return Celsius(r) * c
			// }
			name:  "IntArgs (math with int parameters, a named float type)",
			build: intArgs,
			args:  []interp.Value{0.0, 0.0},
			lo:    0.5, hi: 3,
		},
		{
			// func Indirect(x float64) float64 {
			// 	v := new(float64)
			// 	pp := new(*float64)
			// 	*pp = v
			// 	q := *pp
			// 	*q = x * x
			// 	return *v
			// }
			name:  "Indirect (pointer to pointer)",
			build: indirect,
			args:  []interp.Value{0.0},
			lo:    -2, hi: 2,
		},
		{
			// func MakePoint(a float64) Point {
			// 	p := new(Point)
			// 	p.X = a
			// 	p.Y = a * a
			// 	return *p
			// }
			name:  "MakePoint (returns a struct)",
			build: makePoint,
			args:  []interp.Value{0.0},
			lo:    -2, hi: 2,
		},
		{
			// func MoreMath(x, y float64) float64 {
			// 	return math.FMA(x, y, x*x) + math.Mod(x*7, y) + math.Remainder(x*5, y) +
			// 		math.Dim(x, y) + math.Copysign(x, y-1.25) + math.Cbrt(x-y) +
			// 		math.Pow(x-1.25, 3) + math.Abs(x-y)
			// }
			name:  "MoreMath (FMA, Mod, Remainder, Dim, Copysign, Cbrt, Pow, Abs)",
			build: moreMath,
			args:  []interp.Value{0.0, 0.0},
			lo:    0.5, hi: 2,
		},
		{
			// type Spring struct{ K float64 }
			// func (s Spring) Energy(x float64) float64 { return 0.5 * s.K * x * x }
			// func Total(s Spring, x float64) float64 { return s.Energy(x) + x }
			name:  "Total (call of a method's derivative)",
			build: total,
			args:  []interp.Value{&interp.Struct{Fields: []interp.Value{0.0}}, 0.0},
			lo:    -2, hi: 2,
		},
		{
			// func fill(dst []float64, a float64) {
			// 	for i := 0; i < len(dst); i++ {
			// 		dst[i] = a * float64(i)
			// 	}
			// }
			// func UseFill(x float64) float64 {
			// 	b := make([]float64, 3)
			// 	fill(b, x*x)
			// 	return b[1] * b[2]
			// }
			name:  "UseFill (a callee writes into a local slice)",
			build: useFill,
			args:  []interp.Value{0.0},
			lo:    -2, hi: 2,
		},
		{
			// func Power(x float64, n int) float64 {
			// 	if n == 0 {
			// 		return 1
			// 	}
			// 	return x * Power(x, n-1)
			// }
			name:  "Power (recursion)",
			build: power,
			args:  []interp.Value{0.0, 5},
			lo:    -2, hi: 2,
		},
		{
			// func Single(x float32, y float64) float64 {
			// 	z := x*x + 1/x
			// 	return float64(z) * y
			// }
			// float32 arithmetic: finite differences see float32 round-off.
			name:  "Single (float32 arithmetic and conversion)",
			build: single,
			args:  []interp.Value{float32(0), 0.0},
			lo:    0.5, hi: 2,
			rel: 2e-2,
		},
		{
			// func Collect(x float64) float64 {
			// 	var s []float64
			// 	for i := 0; i < 4; i++ {
			// 		s = append(s, x*float64(i))
			// 	}
			// 	return s[1] * s[3]
			// }
			name:  "Collect (append in a loop from a nil slice)",
			build: collect,
			args:  []interp.Value{0.0},
			lo:    -2, hi: 2,
		},
		{
			// var scale float64
			// func Global(x float64) float64 {
			// 	scale = 3
			// 	return x * scale
			// }
			name:  "Global (package-level variable)",
			build: global,
			args:  []interp.Value{0.0},
			lo:    -2, hi: 2,
		},
		{
			// type Buf struct{ Data []float64 }
			// func SumBuf(b Buf) float64 { return b.Data[0] * b.Data[1] }
			name:  "SumBuf (slice in a struct parameter)",
			build: sumBuf,
			args:  []interp.Value{&interp.Struct{Fields: []interp.Value{floats(0, 0)}}},
			lo:    -2, hi: 2,
		},
		{
			// func newBuf(n int) []float64 { return make([]float64, n) }
			// func Buffered(x float64) float64 {
			// 	b := newBuf(2)
			// 	b[0] = x * x
			// 	return b[0]
			// }
			name:  "Buffered (writes into a slice a call returned)",
			build: buffered,
			args:  []interp.Value{0.0},
			lo:    -2, hi: 2,
		},
		{
			// func Spare(out []float64, x float64) float64 {  // wrt x only
			// 	o := out[:cap(out)]
			// 	o[len(o)-1] = x * x
			// 	return o[len(o)-1]
			// }
			name:   "Spare (inactive output slice resliced to its capacity)",
			build:  spare,
			args:   []interp.Value{interp.Slice{Elems: []interp.Value{0.0, 0.0}[:1]}, 0.0},
			active: []bool{false, true},
			lo:     -2, hi: 2,
		},
	}
}

func kepler(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	sin, cos, abs := irtest.MathFunc(t, "Sin"), irtest.MathFunc(t, "Cos"), irtest.MathFunc(t, "Abs")
	b := irtest.NewBuilder("Kepler", interpPkg)
	m, e := b.Param("m", f64T), b.Param("e", f64T)
	b.Result(f64T)
	x0 := b.Add(m, b.Mul(e, b.Call(sin, m)))
	head, body, next, done := b.Block("for.loop"), b.Block("for.body"), b.Block("for.post"), b.Block("for.done")
	b.Jump(head)
	b.At(head)
	x := b.Phi("x", f64T)
	i := b.Phi("", intT)
	b.If(b.Bin(token.LSS, i, b.Int(50)), body, done)
	b.At(body)
	num := b.Sub(b.Sub(x, b.Mul(e, b.Call(sin, x))), m)
	step := b.Quo(num, b.Sub(b.Float(1), b.Mul(e, b.Call(cos, x))))
	x1 := b.Sub(x, step)
	tol := b.Mul(b.Float(1e-15), b.Add(b.Float(1), b.Call(abs, x1)))
	b.If(b.Bin(token.LEQ, b.Call(abs, step), tol), done, next)
	b.At(next)
	i1 := b.Add(i, b.Int(1))
	b.Jump(head)
	irtest.SetArgs(x, x0, x1)
	irtest.SetArgs(i, b.Int(0), i1)
	b.At(done)
	r := b.Phi("", f64T)
	irtest.SetArgs(r, x, x1) // preds: head (loop ends), body (break)
	b.Return(r)
	return b.F, nil
}

func firstNegative(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("FirstNegative", interpPkg)
	x := b.Param("x", f64s)
	b.Result(f64T)
	head, body, cont, done := b.Block("for.loop"), b.Block("for.body"), b.Block("if.done"), b.Block("for.done")
	b.Jump(head)
	b.At(head)
	s, i := b.Phi("", f64T), b.Phi("", intT)
	b.If(b.Bin(token.LSS, i, b.Len(x)), body, done)
	b.At(body)
	xi := b.Load(b.IndexAddr(x, i))
	b.If(b.Bin(token.LSS, xi, b.Float(0)), done, cont)
	b.At(cont)
	s1 := b.Add(s, b.Mul(xi, xi))
	i1 := b.Add(i, b.Int(1))
	b.Jump(head)
	irtest.SetArgs(s, b.Float(0), s1)
	irtest.SetArgs(i, b.Int(0), i1)
	b.At(done)
	r := b.Phi("", f64T)
	irtest.SetArgs(r, s, s)
	b.Return(r)
	return b.F, nil
}

func softmax(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	exp := irtest.MathFunc(t, "Exp")
	b := irtest.NewBuilder("Softmax", interpPkg)
	dst, x := b.Param("dst", f64s), b.Param("x", f64s)
	n := b.Len(x)
	sum := loop(b, n, []*ir.Value{b.Float(0)}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		p := b.IndexAddr(dst, i)
		b.Store(p, b.Call(exp, b.Load(b.IndexAddr(x, i))))
		return []*ir.Value{b.Add(c[0], b.Load(p))}
	})[0]
	loop(b, n, nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		p := b.IndexAddr(dst, i)
		b.Store(p, b.Quo(b.Load(p), sum))
		return nil
	})
	b.Return()
	return b.F, nil
}

func ramp(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Ramp", interpPkg)
	x := b.Param("x", f64T)
	b.Result(f64s)
	s := b.MakeSlice(f64s, b.Int(3), nil)
	loop(b, b.Int(3), nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		k := b.Convert(f64T, b.Add(i, b.Int(1)))
		b.Store(b.IndexAddr(s, i), b.Mul(x, k))
		return nil
	})
	b.Return(b.CallBuiltin("append", f64s, s, b.Mul(x, x)))
	return b.F, nil
}

func polar(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Polar", interpPkg)
	a, c := b.Param("a", f64T), b.Param("b", f64T)
	b.Result(f64T)
	p := b.Alloc("", pointT, false)
	b.Store(b.FieldAddr(p, 0), b.Mul(a, c))
	b.Store(b.FieldAddr(p, 1), b.Sub(a, c))
	q := b.Load(p)
	b.Store(b.FieldAddr(p, 0), b.Field(q, 1))
	qx := b.Field(q, 0)
	px, py := b.Load(b.FieldAddr(p, 0)), b.Load(b.FieldAddr(p, 1))
	b.Return(b.Add(b.Mul(qx, qx), b.Mul(px, py)))
	return b.F, nil
}

func move(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Move", interpPkg)
	p, a := b.Param("p", types.NewPointer(pointT)), b.Param("a", f64T)
	px, py := b.FieldAddr(p, 0), b.FieldAddr(p, 1)
	b.Store(px, b.Add(b.Mul(b.Load(px), a), b.Load(py)))
	b.Store(py, b.Mul(a, a))
	b.Return()
	return b.F, nil
}

func relu(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Relu", interpPkg)
	x, y := b.Param("x", f64T), b.Param("y", f64T)
	b.Result(f64T)
	sel := b.Select(b.Bin(token.GTR, x, y), b.Mul(x, x), y)
	mx := b.CallBuiltin("max", f64T, x, y, b.Float(0.5))
	mn := b.CallBuiltin("min", f64T, x, y)
	b.Return(b.Add(sel, b.Mul(mx, mn)))
	return b.F, nil
}

func trig(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	sin, exp, pow, atan2 := irtest.MathFunc(t, "Sin"), irtest.MathFunc(t, "Exp"), irtest.MathFunc(t, "Pow"), irtest.MathFunc(t, "Atan2")
	b := irtest.NewBuilder("Trig", interpPkg)
	x, y := b.Param("x", f64T), b.Param("y", f64T)
	b.Result(f64T)
	r := b.Mul(b.Call(sin, x), b.Call(exp, y))
	r = b.Add(r, b.Call(pow, b.Add(b.Mul(x, x), b.Float(1)), y))
	r = b.Add(r, b.Call(atan2, y, x))
	b.Return(r)
	return b.F, nil
}

func tuples(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Tuples", interpPkg)
	x := b.Param("x", f64T)
	b.Result(f64T)
	sc := b.Call(irtest.MathFunc(t, "Sincos"), x)
	fe := b.Call(irtest.MathFunc(t, "Frexp"), b.Mul(x, x))
	mf := b.Call(irtest.MathFunc(t, "Modf"), b.Mul(b.Float(3), x))
	lg := b.Call(irtest.MathFunc(t, "Lgamma"), x)
	toF := func(v *ir.Value) *ir.Value { return b.Convert(f64T, v) }
	r := b.Mul(b.Extract(sc, 0), b.Extract(sc, 1))
	r = b.Add(r, b.Mul(b.Extract(fe, 0), toF(b.Extract(fe, 1))))
	r = b.Add(r, b.Extract(mf, 1))
	r = b.Add(r, b.Mul(b.Extract(lg, 0), toF(b.Extract(lg, 1))))
	b.Return(r)
	return b.F, nil
}

func useSq(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	sb := irtest.NewBuilder("sq", interpPkg)
	x := sb.Param("x", f64T)
	sb.Result(f64T)
	sb.Return(sb.Mul(x, x))
	sq := irtest.FuncOf(sb.F)

	b := irtest.NewBuilder("UseSq", interpPkg)
	u, v := b.Param("x", f64T), b.Param("y", f64T)
	b.Result(f64T)
	b.Return(b.Add(b.Call(sq, b.Mul(u, v)), b.Call(sq, v)))
	return b.F, map[*types.Func]*ir.Func{sq: sb.F}
}

func concat(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Concat", interpPkg)
	x := b.Param("x", f64s)
	y := b.Param("y", f64T)
	b.Result(f64T)
	empty := b.Slice(x, b.Int(0), b.Int(0), b.Int(0))
	s := b.CallBuiltin("append", f64s, empty, y, b.Mul(y, y))
	s2 := b.CallBuiltin("append", f64s, s, x)
	s2.Callee.Spread = true
	at := func(i *ir.Value) *ir.Value { return b.Load(b.IndexAddr(s2, i)) }
	last := b.Sub(b.Len(s2), b.Int(1))
	b.Return(b.Add(b.Mul(at(b.Int(0)), at(b.Int(3))), b.Mul(at(b.Int(1)), at(last))))
	return b.F, nil
}

func useDivmod(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	db := irtest.NewBuilder("divmod", interpPkg)
	x, y := db.Param("x", f64T), db.Param("y", f64T)
	db.Result(f64T)
	db.Result(f64T)
	q := db.Quo(x, y)
	db.Return(q, db.Sub(x, db.Mul(db.Mul(q, y), y)))
	divmod := irtest.FuncOf(db.F)

	b := irtest.NewBuilder("UseDivmod", interpPkg)
	u, v := b.Param("x", f64T), b.Param("y", f64T)
	b.Result(f64T)
	qr := b.Call(divmod, b.Mul(u, u), v)
	b.Return(b.Mul(b.Extract(qr, 0), b.Extract(qr, 1)))
	return b.F, map[*types.Func]*ir.Func{divmod: db.F}
}

func accumulate(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Accumulate", interpPkg)
	x := b.Param("x", f64s)
	b.Result(f64T)
	p := loop(b, b.Len(x), []*ir.Value{b.Const(pointT, nil)}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		p := c[0]
		xi := b.Load(b.IndexAddr(x, i))
		tp := b.Alloc("", pointT, false)
		b.Store(b.FieldAddr(tp, 0), b.Add(b.Field(p, 0), xi))
		b.Store(b.FieldAddr(tp, 1), b.Add(b.Mul(b.Field(p, 1), xi), b.Float(1)))
		return []*ir.Value{b.Load(tp)}
	})[0]
	b.Return(b.Mul(b.Field(p, 0), b.Field(p, 1)))
	return b.F, nil
}

func arrays(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	arr3, arr2 := types.NewArray(f64T, 3), types.NewArray(f64T, 2)
	b := irtest.NewBuilder("Arrays", interpPkg)
	a, p := b.Param("a", arr3), b.Param("p", types.NewPointer(arr2))
	b.Result(f64T)
	ai := func(i int64) *ir.Value { return b.Index(a, b.Int(i)) }
	pi := func(i int64) *ir.Value { return b.IndexAddr(p, b.Int(i)) }
	b.Store(pi(0), b.Mul(ai(0), ai(1)))
	s := b.Slice(p, nil, nil, nil)
	b.Store(b.IndexAddr(s, b.Int(1)), b.Mul(ai(2), b.Load(b.IndexAddr(s, b.Int(0)))))
	b.Return(b.Add(ai(0), b.Load(pi(1))))
	return b.F, nil
}

func matrix(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Matrix", interpPkg)
	a := b.Param("a", types.NewSlice(f64s))
	b.Result(f64T)
	at := func(i, j int64) *ir.Value {
		row := b.Load(b.IndexAddr(a, b.Int(i)))
		return b.IndexAddr(row, b.Int(j))
	}
	b.Store(at(0, 0), b.Mul(b.Load(at(0, 1)), b.Load(at(1, 0))))
	b.Return(b.Mul(b.Load(at(0, 0)), b.Load(at(1, 1))))
	return b.F, nil
}

func copyInto(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("CopyInto", interpPkg)
	dst, x := b.Param("dst", f64s), b.Param("x", f64s)
	b.Result(f64T)
	n := b.CallBuiltin("copy", intT, b.Slice(dst, b.Int(1), nil, nil), x)
	at := func(s *ir.Value, i int64) *ir.Value { return b.IndexAddr(s, b.Int(i)) }
	b.Store(at(dst, 0), b.Mul(b.Load(at(x, 0)), b.Convert(f64T, n)))
	b.Return(b.Mul(b.Load(at(dst, 1)), b.Load(at(dst, 2))))
	return b.F, nil
}

func intArgs(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	celsius := types.NewNamed(types.NewTypeName(token.NoPos, interpPkg, "Celsius", nil), f64T, nil)
	b := irtest.NewBuilder("IntArgs", interpPkg)
	c, y := b.Param("c", celsius), b.Param("y", f64T)
	b.Result(celsius)
	x := b.Convert(f64T, c)
	r := b.Add(b.Call(irtest.MathFunc(t, "Ldexp"), x, b.Int(3)), b.Call(irtest.MathFunc(t, "Jn"), b.Int(2), x))
	r = b.Add(r, b.Call(irtest.MathFunc(t, "Hypot"), x, y))
	r = b.Add(r, b.Mul(b.Call(irtest.MathFunc(t, "Sqrt"), x), b.Call(irtest.MathFunc(t, "Log"), y)))
	r = b.Add(r, b.Call(irtest.MathFunc(t, "Max"), x, y))
	r = b.Sub(r, b.Call(irtest.MathFunc(t, "Floor"), x))
	b.Return(b.Mul(b.Convert(celsius, r), c))
	return b.F, nil
}

func indirect(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	pf := types.NewPointer(f64T)
	b := irtest.NewBuilder("Indirect", interpPkg)
	x := b.Param("x", f64T)
	b.Result(f64T)
	v := b.Alloc("", f64T, false)
	pp := b.Alloc("", pf, false)
	b.Store(pp, v)
	q := b.Load(pp)
	b.Store(q, b.Mul(x, x))
	b.Return(b.Load(v))
	return b.F, nil
}

func makePoint(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("MakePoint", interpPkg)
	a := b.Param("a", f64T)
	b.Result(pointT)
	p := b.Alloc("", pointT, false)
	b.Store(b.FieldAddr(p, 0), a)
	b.Store(b.FieldAddr(p, 1), b.Mul(a, a))
	b.Return(b.Load(p))
	return b.F, nil
}

func moreMath(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("MoreMath", interpPkg)
	x, y := b.Param("x", f64T), b.Param("y", f64T)
	b.Result(f64T)
	m := func(name string, args ...*ir.Value) *ir.Value { return b.Call(irtest.MathFunc(t, name), args...) }
	r := m("FMA", x, y, b.Mul(x, x))
	r = b.Add(r, m("Mod", b.Mul(x, b.Float(7)), y))
	r = b.Add(r, m("Remainder", b.Mul(x, b.Float(5)), y))
	r = b.Add(r, m("Dim", x, y))
	r = b.Add(r, m("Copysign", x, b.Sub(y, b.Float(1.25))))
	r = b.Add(r, m("Cbrt", b.Sub(x, y)))
	r = b.Add(r, m("Pow", b.Sub(x, b.Float(1.25)), b.Float(3)))
	r = b.Add(r, m("Abs", b.Sub(x, y)))
	b.Return(r)
	return b.F, nil
}

func total(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	spring := types.NewNamed(types.NewTypeName(token.NoPos, interpPkg, "Spring", nil), types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, interpPkg, "K", f64T, false),
	}, nil), nil)
	eb := irtest.NewBuilder("Energy", interpPkg)
	s, x := eb.Param("s", spring), eb.Param("x", f64T)
	eb.Result(f64T)
	eb.F.Recv = spring
	eb.Return(eb.Mul(eb.Mul(eb.Mul(eb.Float(0.5), eb.Field(s, 0)), x), x))
	recv := types.NewParam(token.NoPos, interpPkg, "s", spring)
	esig := types.NewSignatureType(recv, nil, nil,
		types.NewTuple(types.NewParam(token.NoPos, interpPkg, "x", f64T)),
		types.NewTuple(types.NewParam(token.NoPos, interpPkg, "", f64T)), false)
	energy := types.NewFunc(token.NoPos, interpPkg, "Energy", esig)
	spring.AddMethod(energy)

	b := irtest.NewBuilder("Total", interpPkg)
	ts, tx := b.Param("s", spring), b.Param("x", f64T)
	b.Result(f64T)
	b.Return(b.Add(b.Call(energy, ts, tx), tx))
	return b.F, map[*types.Func]*ir.Func{energy: eb.F}
}

func useFill(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	fb := irtest.NewBuilder("fill", interpPkg)
	dst, a := fb.Param("dst", f64s), fb.Param("a", f64T)
	loop(fb, fb.Len(dst), nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		fb.Store(fb.IndexAddr(dst, i), fb.Mul(a, fb.Convert(f64T, i)))
		return nil
	})
	fb.Return()
	fill := irtest.FuncOf(fb.F)

	b := irtest.NewBuilder("UseFill", interpPkg)
	x := b.Param("x", f64T)
	b.Result(f64T)
	buf := b.MakeSlice(f64s, b.Int(3), nil)
	b.Call(fill, buf, b.Mul(x, x))
	at := func(i int64) *ir.Value { return b.Load(b.IndexAddr(buf, b.Int(i))) }
	b.Return(b.Mul(at(1), at(2)))
	return b.F, map[*types.Func]*ir.Func{fill: fb.F}
}

func power(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Power", interpPkg)
	x, n := b.Param("x", f64T), b.Param("n", intT)
	b.Result(f64T)
	self := irtest.FuncOf(b.F)
	base, rec := b.Block("if.then"), b.Block("if.else")
	b.If(b.Bin(token.EQL, n, b.Int(0)), base, rec)
	b.At(base)
	b.Return(b.Float(1))
	b.At(rec)
	b.Return(b.Mul(x, b.Call(self, x, b.Sub(n, b.Int(1)))))
	return b.F, map[*types.Func]*ir.Func{self: b.F}
}

func single(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	f32 := types.Typ[types.Float32]
	b := irtest.NewBuilder("Single", interpPkg)
	x, y := b.Param("x", f32), b.Param("y", f64T)
	b.Result(f64T)
	one := b.Const(f32, constant.MakeFloat64(1))
	z := b.Add(b.Mul(x, x), b.Quo(one, x))
	b.Return(b.Mul(b.Convert(f64T, z), y))
	return b.F, nil
}

func collect(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Collect", interpPkg)
	x := b.Param("x", f64T)
	b.Result(f64T)
	s := loop(b, b.Int(4), []*ir.Value{b.Const(f64s, nil)}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		return []*ir.Value{b.CallBuiltin("append", f64s, c[0], b.Mul(x, b.Convert(f64T, i)))}
	})[0]
	at := func(i int64) *ir.Value { return b.Load(b.IndexAddr(s, b.Int(i))) }
	b.Return(b.Mul(at(1), at(3)))
	return b.F, nil
}

func global(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Global", interpPkg)
	x := b.Param("x", f64T)
	b.Result(f64T)
	g := b.Global(types.NewVar(token.NoPos, interpPkg, "scale", f64T))
	b.Store(g, b.Float(3))
	b.Return(b.Mul(x, b.Load(g)))
	return b.F, nil
}

func sumBuf(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	buf := types.NewNamed(types.NewTypeName(token.NoPos, interpPkg, "Buf", nil), types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, interpPkg, "Data", f64s, false),
	}, nil), nil)
	b := irtest.NewBuilder("SumBuf", interpPkg)
	bv := b.Param("b", buf)
	b.Result(f64T)
	data := b.Field(bv, 0)
	at := func(i int64) *ir.Value { return b.Load(b.IndexAddr(data, b.Int(i))) }
	b.Return(b.Mul(at(0), at(1)))
	return b.F, nil
}

func buffered(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	nb := irtest.NewBuilder("newBuf", interpPkg)
	n := nb.Param("n", intT)
	nb.Result(f64s)
	nb.Return(nb.MakeSlice(f64s, n, nil))
	newBuf := irtest.FuncOf(nb.F)

	b := irtest.NewBuilder("Buffered", interpPkg)
	x := b.Param("x", f64T)
	b.Result(f64T)
	buf := b.Call(newBuf, b.Int(2))
	b.Store(b.IndexAddr(buf, b.Int(0)), b.Mul(x, x))
	b.Return(b.Load(b.IndexAddr(buf, b.Int(0))))
	return b.F, map[*types.Func]*ir.Func{newBuf: nb.F}
}

func spare(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := irtest.NewBuilder("Spare", interpPkg)
	out, x := b.Param("out", f64s), b.Param("x", f64T)
	b.Result(f64T)
	o := b.Slice(out, nil, b.Cap(out), nil)
	last := b.IndexAddr(o, b.Sub(b.Len(o), b.Int(1)))
	b.Store(last, b.Mul(x, x))
	b.Return(b.Load(last))
	return b.F, nil
}
