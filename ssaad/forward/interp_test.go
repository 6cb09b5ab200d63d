package forward_test

// This file defines execution tests of the forward-mode transformer on
// hand-built IR, with package interp as the machine: each primal and its
// JVP run on the same inputs; the JVP's primal results and side effects
// must equal the primal's exactly, and its tangents must match central
// finite differences (internal/fdcheck, gonum's fd.Central) of the
// interpreted primal, at seeded random points and directions.

import (
	"fmt"
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gadgen/gadgen/internal/fdcheck"
	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/forward"
)

// jvpCase is a primal function to differentiate and run.
type jvpCase struct {
	name string
	// build returns the primal and the IR bodies of the functions it
	// calls (nil if none).
	build func(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func)
	// args are the primal's arguments; the floats in the varied ones are
	// replaced by the point x (in the order interpFlatten reads them).
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
	target := funcOf(primal)
	active := tc.active
	if active == nil {
		active = ssaad.DefaultActivity(target)
	}
	e := &interpEnv{bodies: bodies, derived: map[string]*ir.Func{}}
	req := &ssaad.Request{Mode: "jvp", Target: target, Name: primal.Name + "JVP", Active: active}
	d, errs := forward.Mode{}.Transform(primal, req, e)
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
	dO, errs := forward.Mode{}.Transform(primalO, &ssaad.Request{Mode: "jvp", Target: target, Name: primal.Name + "JVP", Active: active}, eO)
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
			n += len(interpFlatten(nil, a))
		}
	}
	// args returns fresh arguments with the floats of the varied ones
	// taken from x.
	args := func(x []float64) []interp.Value {
		out := make([]interp.Value, len(tc.args))
		for i, a := range tc.args {
			if active[i] {
				out[i], x = interpFill(a, x)
			} else {
				out[i], _ = interpFill(a, nil)
			}
		}
		return out
	}
	// outputs flattens what a call produces: its results and the varied
	// arguments after the call.
	outputs := func(res, as []interp.Value) []float64 {
		var out []float64
		for _, r := range res {
			out = interpFlatten(out, r)
		}
		for i, a := range as {
			if active[i] {
				out = interpFlatten(out, a)
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

// interpFlatten appends the floats of v to dst: in slices (up to their
// length), arrays and struct fields in order, and behind pointers.
func interpFlatten(dst []float64, v interp.Value) []float64 {
	switch v := v.(type) {
	case float64:
		dst = append(dst, v)
	case float32:
		dst = append(dst, float64(v))
	case interp.Slice:
		for _, e := range v.Elems {
			dst = interpFlatten(dst, e)
		}
	case *interp.Array:
		for _, e := range v.Elems {
			dst = interpFlatten(dst, e)
		}
	case *interp.Struct:
		for _, f := range v.Fields {
			dst = interpFlatten(dst, f)
		}
	case interp.Pointer:
		if !v.IsNil() {
			dst = interpFlatten(dst, v.Load())
		}
	}
	return dst
}

// interpFill returns a copy of v, in new memory, whose floats are taken
// from x in interpFlatten's order (kept as they are when x is nil), and
// the rest of x.
func interpFill(v interp.Value, x []float64) (interp.Value, []float64) {
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
				elems[i], x = interpFill(e, x)
			} else {
				elems[i], _ = interpFill(e, nil)
			}
		}
		return interp.Slice{Elems: elems[:len(v.Elems)]}, x
	case *interp.Array:
		a := &interp.Array{Elems: make([]interp.Value, len(v.Elems))}
		for i, e := range v.Elems {
			a.Elems[i], x = interpFill(e, x)
		}
		return a, x
	case *interp.Struct:
		s := &interp.Struct{Fields: make([]interp.Value, len(v.Fields))}
		for i, f := range v.Fields {
			s.Fields[i], x = interpFill(f, x)
		}
		return s, x
	case interp.Pointer:
		if v.IsNil() {
			return v, x
		}
		e, rest := interpFill(v.Load(), x)
		return interp.NewVar(e), rest
	}
	return v, x
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
	sig, err := forward.Mode{}.Signature(req)
	if err != nil {
		return nil, err
	}
	if _, ok := e.derived[name]; !ok {
		e.derived[name] = nil // being generated: recursion stops here
		d, errs := forward.Mode{}.Transform(body, req, e)
		if len(errs) > 0 {
			return nil, fmt.Errorf("%v", errs)
		}
		e.derived[name] = d
	}
	return &ir.DerivedFunc{Name: name, Sig: sig}, nil
}

func (e *interpEnv) Position(token.Pos) token.Position { return token.Position{} }

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
	return ssaad.ParamWrites(body, e.Writes)
}

// funcOf returns a *types.Func with the name and signature of f.
func funcOf(f *ir.Func) *types.Func {
	var ps, rs []*types.Var
	for _, p := range f.Params {
		ps = append(ps, types.NewParam(token.NoPos, f.Pkg, p.Name, p.Type))
	}
	for _, t := range f.ResultTypes {
		rs = append(rs, types.NewParam(token.NoPos, f.Pkg, "", t))
	}
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(ps...), types.NewTuple(rs...), false)
	return types.NewFunc(token.NoPos, f.Pkg, f.Name, sig)
}

// irb appends values to the current block b of f.
type irb struct {
	f *ir.Func
	b *ir.Block
}

var (
	interpPkg = types.NewPackage("example.com/p", "p")
	f64T      = types.Typ[types.Float64]
	intT      = types.Typ[types.Int]
	boolT     = types.Typ[types.Bool]
	f64s      = types.NewSlice(types.Typ[types.Float64])
	pointT    = types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, interpPkg, "X", f64T, false),
		types.NewField(token.NoPos, interpPkg, "Y", f64T, false),
	}, nil)
)

func newIRB(name string) *irb {
	f := ir.NewFunc(name, interpPkg)
	return &irb{f: f, b: f.NewBlock("entry")}
}

func (b *irb) param(name string, t types.Type) *ir.Value { return b.f.AddParam(name, t) }
func (b *irb) result(t types.Type)                       { b.f.AddResult("", t) }
func (b *irb) block(comment string) *ir.Block            { return b.f.NewBlock(comment) }
func (b *irb) at(blk *ir.Block)                          { b.b = blk }
func (b *irb) f64(x float64) *ir.Value                   { return b.f.ConstValue(f64T, constant.MakeFloat64(x)) }
func (b *irb) int(x int) *ir.Value                       { return b.f.ConstValue(intT, constant.MakeInt64(int64(x))) }

func (b *irb) op(op ir.Op, t types.Type, args ...*ir.Value) *ir.Value {
	return b.b.NewValue(op, t, args...)
}

// bin returns x tok y: a bool for comparisons, of x's type otherwise.
func (b *irb) bin(tok token.Token, x, y *ir.Value) *ir.Value {
	t := x.Type
	switch tok {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		t = boolT
	}
	v := b.op(ir.OpBinary, t, x, y)
	v.Tok = tok
	return v
}

func (b *irb) add(x, y *ir.Value) *ir.Value { return b.bin(token.ADD, x, y) }
func (b *irb) sub(x, y *ir.Value) *ir.Value { return b.bin(token.SUB, x, y) }
func (b *irb) mul(x, y *ir.Value) *ir.Value { return b.bin(token.MUL, x, y) }
func (b *irb) quo(x, y *ir.Value) *ir.Value { return b.bin(token.QUO, x, y) }

func interpElem(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	}
	panic("no element type: " + t.String())
}

func (b *irb) load(p *ir.Value) *ir.Value { return b.op(ir.OpLoad, interpElem(p.Type), p) }
func (b *irb) store(p, x *ir.Value)       { b.op(ir.OpStore, nil, p, x) }

func (b *irb) indexAddr(s, i *ir.Value) *ir.Value {
	return b.op(ir.OpIndexAddr, types.NewPointer(interpElem(s.Type)), s, i)
}

func (b *irb) fieldAddr(p *ir.Value, i int) *ir.Value {
	st := interpElem(p.Type).Underlying().(*types.Struct)
	v := b.op(ir.OpFieldAddr, types.NewPointer(st.Field(i).Type()), p)
	v.Index = i
	return v
}

func (b *irb) field(x *ir.Value, i int) *ir.Value {
	v := b.op(ir.OpField, x.Type.Underlying().(*types.Struct).Field(i).Type(), x)
	v.Index = i
	return v
}

func (b *irb) length(s *ir.Value) *ir.Value { return b.op(ir.OpLen, intT, s) }

// call calls fn, typing the result from its signature.
func (b *irb) call(fn *types.Func, args ...*ir.Value) *ir.Value {
	res := fn.Signature().Results()
	var t types.Type
	switch res.Len() {
	case 0:
	case 1:
		t = res.At(0).Type()
	default:
		t = res
	}
	v := b.op(ir.OpCall, t, args...)
	v.Callee = &ir.Callee{Func: fn}
	return v
}

func (b *irb) builtin(name string, t types.Type, args ...*ir.Value) *ir.Value {
	v := b.op(ir.OpCall, t, args...)
	v.Callee = &ir.Callee{Builtin: name}
	return v
}

func (b *irb) extract(x *ir.Value, i int) *ir.Value {
	v := b.op(ir.OpExtract, x.Type.(*types.Tuple).At(i).Type(), x)
	v.Index = i
	return v
}

// loop builds for i := 0; i < n; i++ { body(i) } from the current block
// and leaves the builder in the block after the loop. Extra loop-carried
// values are φ-nodes made by carried (their initial values) and updated by
// body's results.
func (b *irb) loop(n *ir.Value, init []*ir.Value, body func(i *ir.Value, carried []*ir.Value) []*ir.Value) []*ir.Value {
	head, blk, done := b.block("for.loop"), b.block("for.body"), b.block("for.done")
	b.b.Jump(head)
	b.at(head)
	i := b.op(ir.OpPhi, intT)
	var phis []*ir.Value
	for _, x := range init {
		phis = append(phis, b.op(ir.OpPhi, x.Type))
	}
	b.b.If(b.bin(token.LSS, i, n), blk, done)
	b.at(blk)
	next := body(i, phis)
	i1 := b.add(i, b.int(1))
	b.b.Jump(head)
	i.Args = []*ir.Value{b.int(0), i1}
	for k, p := range phis {
		p.Args = []*ir.Value{init[k], next[k]}
	}
	b.at(done)
	return phis
}

var interpMath = sync.OnceValues(func() (*types.Package, error) {
	return importer.ForCompiler(token.NewFileSet(), "source", nil).Import("math")
})

// mathFn returns the *types.Func of math.name.
func mathFn(t *testing.T, name string) *types.Func {
	p, err := interpMath()
	if err != nil {
		t.Fatal(err)
	}
	return p.Scope().Lookup(name).(*types.Func)
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
	sin, cos, abs := mathFn(t, "Sin"), mathFn(t, "Cos"), mathFn(t, "Abs")
	b := newIRB("Kepler")
	m, e := b.param("m", f64T), b.param("e", f64T)
	b.result(f64T)
	x0 := b.add(m, b.mul(e, b.call(sin, m)))
	head, body, next, done := b.block("for.loop"), b.block("for.body"), b.block("for.post"), b.block("for.done")
	b.b.Jump(head)
	b.at(head)
	x := b.op(ir.OpPhi, f64T)
	x.Name = "x"
	i := b.op(ir.OpPhi, intT)
	b.b.If(b.bin(token.LSS, i, b.int(50)), body, done)
	b.at(body)
	num := b.sub(b.sub(x, b.mul(e, b.call(sin, x))), m)
	step := b.quo(num, b.sub(b.f64(1), b.mul(e, b.call(cos, x))))
	x1 := b.sub(x, step)
	tol := b.mul(b.f64(1e-15), b.add(b.f64(1), b.call(abs, x1)))
	b.b.If(b.bin(token.LEQ, b.call(abs, step), tol), done, next)
	b.at(next)
	i1 := b.add(i, b.int(1))
	b.b.Jump(head)
	x.Args = []*ir.Value{x0, x1}
	i.Args = []*ir.Value{b.int(0), i1}
	b.at(done)
	r := b.op(ir.OpPhi, f64T, x, x1) // preds: head (loop ends), body (break)
	b.b.Return(r)
	return b.f, nil
}

func firstNegative(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("FirstNegative")
	x := b.param("x", f64s)
	b.result(f64T)
	head, body, cont, done := b.block("for.loop"), b.block("for.body"), b.block("if.done"), b.block("for.done")
	b.b.Jump(head)
	b.at(head)
	s, i := b.op(ir.OpPhi, f64T), b.op(ir.OpPhi, intT)
	b.b.If(b.bin(token.LSS, i, b.length(x)), body, done)
	b.at(body)
	xi := b.load(b.indexAddr(x, i))
	b.b.If(b.bin(token.LSS, xi, b.f64(0)), done, cont)
	b.at(cont)
	s1 := b.add(s, b.mul(xi, xi))
	i1 := b.add(i, b.int(1))
	b.b.Jump(head)
	s.Args = []*ir.Value{b.f64(0), s1}
	i.Args = []*ir.Value{b.int(0), i1}
	b.at(done)
	b.b.Return(b.op(ir.OpPhi, f64T, s, s))
	return b.f, nil
}

func softmax(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	exp := mathFn(t, "Exp")
	b := newIRB("Softmax")
	dst, x := b.param("dst", f64s), b.param("x", f64s)
	n := b.length(x)
	sum := b.loop(n, []*ir.Value{b.f64(0)}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		p := b.indexAddr(dst, i)
		b.store(p, b.call(exp, b.load(b.indexAddr(x, i))))
		return []*ir.Value{b.add(c[0], b.load(p))}
	})[0]
	b.loop(n, nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		p := b.indexAddr(dst, i)
		b.store(p, b.quo(b.load(p), sum))
		return nil
	})
	b.b.Return()
	return b.f, nil
}

func ramp(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Ramp")
	x := b.param("x", f64T)
	b.result(f64s)
	s := b.op(ir.OpMakeSlice, f64s, b.int(3), nil)
	b.loop(b.int(3), nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		k := b.op(ir.OpConvert, f64T, b.add(i, b.int(1)))
		b.store(b.indexAddr(s, i), b.mul(x, k))
		return nil
	})
	b.b.Return(b.builtin("append", f64s, s, b.mul(x, x)))
	return b.f, nil
}

func polar(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Polar")
	a, c := b.param("a", f64T), b.param("b", f64T)
	b.result(f64T)
	p := b.op(ir.OpAlloc, types.NewPointer(pointT))
	b.store(b.fieldAddr(p, 0), b.mul(a, c))
	b.store(b.fieldAddr(p, 1), b.sub(a, c))
	q := b.load(p)
	b.store(b.fieldAddr(p, 0), b.field(q, 1))
	qx := b.field(q, 0)
	px, py := b.load(b.fieldAddr(p, 0)), b.load(b.fieldAddr(p, 1))
	b.b.Return(b.add(b.mul(qx, qx), b.mul(px, py)))
	return b.f, nil
}

func move(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Move")
	p, a := b.param("p", types.NewPointer(pointT)), b.param("a", f64T)
	px, py := b.fieldAddr(p, 0), b.fieldAddr(p, 1)
	b.store(px, b.add(b.mul(b.load(px), a), b.load(py)))
	b.store(py, b.mul(a, a))
	b.b.Return()
	return b.f, nil
}

func relu(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Relu")
	x, y := b.param("x", f64T), b.param("y", f64T)
	b.result(f64T)
	sel := b.op(ir.OpSelect, f64T, b.bin(token.GTR, x, y), b.mul(x, x), y)
	mx := b.builtin("max", f64T, x, y, b.f64(0.5))
	mn := b.builtin("min", f64T, x, y)
	b.b.Return(b.add(sel, b.mul(mx, mn)))
	return b.f, nil
}

func trig(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	sin, exp, pow, atan2 := mathFn(t, "Sin"), mathFn(t, "Exp"), mathFn(t, "Pow"), mathFn(t, "Atan2")
	b := newIRB("Trig")
	x, y := b.param("x", f64T), b.param("y", f64T)
	b.result(f64T)
	r := b.mul(b.call(sin, x), b.call(exp, y))
	r = b.add(r, b.call(pow, b.add(b.mul(x, x), b.f64(1)), y))
	r = b.add(r, b.call(atan2, y, x))
	b.b.Return(r)
	return b.f, nil
}

func tuples(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Tuples")
	x := b.param("x", f64T)
	b.result(f64T)
	sc := b.call(mathFn(t, "Sincos"), x)
	fe := b.call(mathFn(t, "Frexp"), b.mul(x, x))
	mf := b.call(mathFn(t, "Modf"), b.mul(b.f64(3), x))
	lg := b.call(mathFn(t, "Lgamma"), x)
	toF := func(v *ir.Value) *ir.Value { return b.op(ir.OpConvert, f64T, v) }
	r := b.mul(b.extract(sc, 0), b.extract(sc, 1))
	r = b.add(r, b.mul(b.extract(fe, 0), toF(b.extract(fe, 1))))
	r = b.add(r, b.extract(mf, 1))
	r = b.add(r, b.mul(b.extract(lg, 0), toF(b.extract(lg, 1))))
	b.b.Return(r)
	return b.f, nil
}

func useSq(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	sb := newIRB("sq")
	x := sb.param("x", f64T)
	sb.result(f64T)
	sb.b.Return(sb.mul(x, x))
	sq := funcOf(sb.f)

	b := newIRB("UseSq")
	u, v := b.param("x", f64T), b.param("y", f64T)
	b.result(f64T)
	b.b.Return(b.add(b.call(sq, b.mul(u, v)), b.call(sq, v)))
	return b.f, map[*types.Func]*ir.Func{sq: sb.f}
}

func concat(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Concat")
	x := b.param("x", f64s)
	y := b.param("y", f64T)
	b.result(f64T)
	empty := b.op(ir.OpSlice, f64s, x, b.int(0), b.int(0), b.int(0))
	s := b.builtin("append", f64s, empty, y, b.mul(y, y))
	s2 := b.builtin("append", f64s, s, x)
	s2.Callee.Spread = true
	at := func(i *ir.Value) *ir.Value { return b.load(b.indexAddr(s2, i)) }
	last := b.sub(b.length(s2), b.int(1))
	b.b.Return(b.add(b.mul(at(b.int(0)), at(b.int(3))), b.mul(at(b.int(1)), at(last))))
	return b.f, nil
}

func useDivmod(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	db := newIRB("divmod")
	x, y := db.param("x", f64T), db.param("y", f64T)
	db.result(f64T)
	db.result(f64T)
	q := db.quo(x, y)
	db.b.Return(q, db.sub(x, db.mul(db.mul(q, y), y)))
	divmod := funcOf(db.f)

	b := newIRB("UseDivmod")
	u, v := b.param("x", f64T), b.param("y", f64T)
	b.result(f64T)
	qr := b.call(divmod, b.mul(u, u), v)
	b.b.Return(b.mul(b.extract(qr, 0), b.extract(qr, 1)))
	return b.f, map[*types.Func]*ir.Func{divmod: db.f}
}

func accumulate(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Accumulate")
	x := b.param("x", f64s)
	b.result(f64T)
	p := b.loop(b.length(x), []*ir.Value{b.f.ConstValue(pointT, nil)}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		p := c[0]
		xi := b.load(b.indexAddr(x, i))
		tp := b.op(ir.OpAlloc, types.NewPointer(pointT))
		b.store(b.fieldAddr(tp, 0), b.add(b.field(p, 0), xi))
		b.store(b.fieldAddr(tp, 1), b.add(b.mul(b.field(p, 1), xi), b.f64(1)))
		return []*ir.Value{b.load(tp)}
	})[0]
	b.b.Return(b.mul(b.field(p, 0), b.field(p, 1)))
	return b.f, nil
}

func arrays(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	arr3, arr2 := types.NewArray(f64T, 3), types.NewArray(f64T, 2)
	b := newIRB("Arrays")
	a, p := b.param("a", arr3), b.param("p", types.NewPointer(arr2))
	b.result(f64T)
	ai := func(i int) *ir.Value { return b.op(ir.OpIndex, f64T, a, b.int(i)) }
	pi := func(i int) *ir.Value { return b.op(ir.OpIndexAddr, types.NewPointer(f64T), p, b.int(i)) }
	b.store(pi(0), b.mul(ai(0), ai(1)))
	s := b.op(ir.OpSlice, f64s, p, nil, nil, nil)
	b.store(b.indexAddr(s, b.int(1)), b.mul(ai(2), b.load(b.indexAddr(s, b.int(0)))))
	b.b.Return(b.add(ai(0), b.load(pi(1))))
	return b.f, nil
}

func matrix(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Matrix")
	a := b.param("a", types.NewSlice(f64s))
	b.result(f64T)
	at := func(i, j int) *ir.Value {
		row := b.load(b.indexAddr(a, b.int(i)))
		return b.indexAddr(row, b.int(j))
	}
	b.store(at(0, 0), b.mul(b.load(at(0, 1)), b.load(at(1, 0))))
	b.b.Return(b.mul(b.load(at(0, 0)), b.load(at(1, 1))))
	return b.f, nil
}

func copyInto(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("CopyInto")
	dst, x := b.param("dst", f64s), b.param("x", f64s)
	b.result(f64T)
	n := b.builtin("copy", intT, b.op(ir.OpSlice, f64s, dst, b.int(1), nil, nil), x)
	at := func(s *ir.Value, i int) *ir.Value { return b.indexAddr(s, b.int(i)) }
	b.store(at(dst, 0), b.mul(b.load(at(x, 0)), b.op(ir.OpConvert, f64T, n)))
	b.b.Return(b.mul(b.load(at(dst, 1)), b.load(at(dst, 2))))
	return b.f, nil
}

func intArgs(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	celsius := types.NewNamed(types.NewTypeName(token.NoPos, interpPkg, "Celsius", nil), f64T, nil)
	b := newIRB("IntArgs")
	c, y := b.param("c", celsius), b.param("y", f64T)
	b.result(celsius)
	x := b.op(ir.OpConvert, f64T, c)
	r := b.add(b.call(mathFn(t, "Ldexp"), x, b.int(3)), b.call(mathFn(t, "Jn"), b.int(2), x))
	r = b.add(r, b.call(mathFn(t, "Hypot"), x, y))
	r = b.add(r, b.mul(b.call(mathFn(t, "Sqrt"), x), b.call(mathFn(t, "Log"), y)))
	r = b.add(r, b.call(mathFn(t, "Max"), x, y))
	r = b.sub(r, b.call(mathFn(t, "Floor"), x))
	b.b.Return(b.mul(b.op(ir.OpConvert, celsius, r), c))
	return b.f, nil
}

func indirect(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	pf := types.NewPointer(f64T)
	b := newIRB("Indirect")
	x := b.param("x", f64T)
	b.result(f64T)
	v := b.op(ir.OpAlloc, pf)
	pp := b.op(ir.OpAlloc, types.NewPointer(pf))
	b.store(pp, v)
	q := b.load(pp)
	b.store(q, b.mul(x, x))
	b.b.Return(b.load(v))
	return b.f, nil
}

func makePoint(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("MakePoint")
	a := b.param("a", f64T)
	b.result(pointT)
	p := b.op(ir.OpAlloc, types.NewPointer(pointT))
	b.store(b.fieldAddr(p, 0), a)
	b.store(b.fieldAddr(p, 1), b.mul(a, a))
	b.b.Return(b.load(p))
	return b.f, nil
}

func moreMath(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("MoreMath")
	x, y := b.param("x", f64T), b.param("y", f64T)
	b.result(f64T)
	m := func(name string, args ...*ir.Value) *ir.Value { return b.call(mathFn(t, name), args...) }
	r := m("FMA", x, y, b.mul(x, x))
	r = b.add(r, m("Mod", b.mul(x, b.f64(7)), y))
	r = b.add(r, m("Remainder", b.mul(x, b.f64(5)), y))
	r = b.add(r, m("Dim", x, y))
	r = b.add(r, m("Copysign", x, b.sub(y, b.f64(1.25))))
	r = b.add(r, m("Cbrt", b.sub(x, y)))
	r = b.add(r, m("Pow", b.sub(x, b.f64(1.25)), b.f64(3)))
	r = b.add(r, m("Abs", b.sub(x, y)))
	b.b.Return(r)
	return b.f, nil
}

func total(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	spring := types.NewNamed(types.NewTypeName(token.NoPos, interpPkg, "Spring", nil), types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, interpPkg, "K", f64T, false),
	}, nil), nil)
	eb := newIRB("Energy")
	s, x := eb.param("s", spring), eb.param("x", f64T)
	eb.result(f64T)
	eb.f.Recv = spring
	eb.b.Return(eb.mul(eb.mul(eb.mul(eb.f64(0.5), eb.field(s, 0)), x), x))
	recv := types.NewParam(token.NoPos, interpPkg, "s", spring)
	esig := types.NewSignatureType(recv, nil, nil,
		types.NewTuple(types.NewParam(token.NoPos, interpPkg, "x", f64T)),
		types.NewTuple(types.NewParam(token.NoPos, interpPkg, "", f64T)), false)
	energy := types.NewFunc(token.NoPos, interpPkg, "Energy", esig)
	spring.AddMethod(energy)

	b := newIRB("Total")
	ts, tx := b.param("s", spring), b.param("x", f64T)
	b.result(f64T)
	b.b.Return(b.add(b.call(energy, ts, tx), tx))
	return b.f, map[*types.Func]*ir.Func{energy: eb.f}
}

func useFill(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	fb := newIRB("fill")
	dst, a := fb.param("dst", f64s), fb.param("a", f64T)
	fb.loop(fb.length(dst), nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		fb.store(fb.indexAddr(dst, i), fb.mul(a, fb.op(ir.OpConvert, f64T, i)))
		return nil
	})
	fb.b.Return()
	fill := funcOf(fb.f)

	b := newIRB("UseFill")
	x := b.param("x", f64T)
	b.result(f64T)
	buf := b.op(ir.OpMakeSlice, f64s, b.int(3), nil)
	b.call(fill, buf, b.mul(x, x))
	at := func(i int) *ir.Value { return b.load(b.indexAddr(buf, b.int(i))) }
	b.b.Return(b.mul(at(1), at(2)))
	return b.f, map[*types.Func]*ir.Func{fill: fb.f}
}

func power(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Power")
	x, n := b.param("x", f64T), b.param("n", intT)
	b.result(f64T)
	self := funcOf(b.f)
	base, rec := b.block("if.then"), b.block("if.else")
	b.b.If(b.bin(token.EQL, n, b.int(0)), base, rec)
	b.at(base)
	b.b.Return(b.f64(1))
	b.at(rec)
	b.b.Return(b.mul(x, b.call(self, x, b.sub(n, b.int(1)))))
	return b.f, map[*types.Func]*ir.Func{self: b.f}
}

func single(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	f32 := types.Typ[types.Float32]
	b := newIRB("Single")
	x, y := b.param("x", f32), b.param("y", f64T)
	b.result(f64T)
	one := b.f.ConstValue(f32, constant.MakeFloat64(1))
	z := b.add(b.mul(x, x), b.quo(one, x))
	b.b.Return(b.mul(b.op(ir.OpConvert, f64T, z), y))
	return b.f, nil
}

func collect(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Collect")
	x := b.param("x", f64T)
	b.result(f64T)
	s := b.loop(b.int(4), []*ir.Value{b.f.ConstValue(f64s, nil)}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		return []*ir.Value{b.builtin("append", f64s, c[0], b.mul(x, b.op(ir.OpConvert, f64T, i)))}
	})[0]
	at := func(i int) *ir.Value { return b.load(b.indexAddr(s, b.int(i))) }
	b.b.Return(b.mul(at(1), at(3)))
	return b.f, nil
}

func global(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Global")
	x := b.param("x", f64T)
	b.result(f64T)
	g := b.op(ir.OpGlobal, types.NewPointer(f64T))
	g.Global = types.NewVar(token.NoPos, interpPkg, "scale", f64T)
	b.store(g, b.f64(3))
	b.b.Return(b.mul(x, b.load(g)))
	return b.f, nil
}

func sumBuf(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	buf := types.NewNamed(types.NewTypeName(token.NoPos, interpPkg, "Buf", nil), types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, interpPkg, "Data", f64s, false),
	}, nil), nil)
	b := newIRB("SumBuf")
	bv := b.param("b", buf)
	b.result(f64T)
	data := b.field(bv, 0)
	at := func(i int) *ir.Value { return b.load(b.indexAddr(data, b.int(i))) }
	b.b.Return(b.mul(at(0), at(1)))
	return b.f, nil
}

func buffered(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	nb := newIRB("newBuf")
	n := nb.param("n", intT)
	nb.result(f64s)
	nb.b.Return(nb.op(ir.OpMakeSlice, f64s, n, nil))
	newBuf := funcOf(nb.f)

	b := newIRB("Buffered")
	x := b.param("x", f64T)
	b.result(f64T)
	buf := b.call(newBuf, b.int(2))
	b.store(b.indexAddr(buf, b.int(0)), b.mul(x, x))
	b.b.Return(b.load(b.indexAddr(buf, b.int(0))))
	return b.f, map[*types.Func]*ir.Func{newBuf: nb.f}
}

func spare(t *testing.T) (*ir.Func, map[*types.Func]*ir.Func) {
	b := newIRB("Spare")
	out, x := b.param("out", f64s), b.param("x", f64T)
	b.result(f64T)
	o := b.op(ir.OpSlice, f64s, out, nil, b.op(ir.OpCap, intT, out), nil)
	last := b.indexAddr(o, b.sub(b.length(o), b.int(1)))
	b.store(last, b.mul(x, x))
	b.b.Return(b.load(last))
	return b.f, nil
}

// TestInterpFlattenFill checks the helpers of the execution tests.
func TestInterpFlattenFill(t *testing.T) {
	v := interp.FromGo(struct {
		A []float64
		P *[2]float64
		N int
	}{[]float64{1, 2}, &[2]float64{3, 4}, 5})
	got := interpFlatten(nil, v)
	if want := []float64{1, 2, 3, 4}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("flatten: got %v, want %v", got, want)
	}
	w, rest := interpFill(v, []float64{5, 6, 7, 8, 9})
	if got := interpFlatten(nil, w); fmt.Sprint(got) != fmt.Sprint([]float64{5, 6, 7, 8}) || len(rest) != 1 {
		t.Errorf("fill: got %v, rest %v", got, rest)
	}
	if got := interpFlatten(nil, v); fmt.Sprint(got) != fmt.Sprint([]float64{1, 2, 3, 4}) {
		t.Errorf("fill changed its input: %v", got)
	}
}
