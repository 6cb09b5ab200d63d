package tensorrules

// This file holds the machinery of tensorrules_test.go: values (tensors
// and float64s) flattened to vectors and back, calls of the wrappers and
// their derivatives through reflection, and the checks of one case at one
// point in float64 (against central differences, the dot-product test,
// the Taylor recurrence) and in float32 (against the float64 results).

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/gadtest"
	"github.com/gadgen/gadgen/tensorops"
)

// order is the order of the Taylor-mode derivatives (//gad:taylor order=3).
const order = 3

// A value is an argument or a result of a wrapper: a *tensorops.Tensor or
// a float64. A slot is its type: a tensor of a shape, or a float64.
type slot struct {
	tensor bool
	shape  []int
}

func slotOf(v any) slot {
	if t, ok := v.(*T); ok {
		return slot{tensor: true, shape: t.Shape()}
	}
	return slot{}
}

func (s slot) size() int {
	n := 1
	for _, d := range s.shape {
		n *= d
	}
	return n
}

func (s slot) String() string {
	if !s.tensor {
		return "float64"
	}
	return fmt.Sprint(s.shape)
}

func slotsOf(vs []any) []slot {
	out := make([]slot, len(vs))
	for i, v := range vs {
		out[i] = slotOf(v)
	}
	return out
}

// flatten returns the elements of the values, of the slots ss, as one
// vector of float64s. A nil tensor is zero (the adjoint of an argument
// that the result depends on through its shape only). It panics if a
// value does not have its slot's type or shape: callers check derivatives
// through it, and the checks report panics.
func flatten(vs []any, ss []slot) []float64 {
	if len(vs) != len(ss) {
		panic(fmt.Sprintf("%d values for %d slots", len(vs), len(ss)))
	}
	var out []float64
	for i, v := range vs {
		s := ss[i]
		switch v := v.(type) {
		case float64:
			if s.tensor {
				panic(fmt.Sprintf("value %d is a float64, want a tensor of shape %v", i, s.shape))
			}
			out = append(out, v)
		case *T:
			if !s.tensor {
				panic(fmt.Sprintf("value %d is a tensor, want a float64", i))
			}
			if v == nil {
				out = append(out, make([]float64, s.size())...)
				continue
			}
			if !slices.Equal(v.Shape(), s.shape) {
				panic(fmt.Sprintf("value %d has shape %v, want %v", i, v.Shape(), s.shape))
			}
			out = append(out, tensorops.AsType(v, tensorops.Float64).Float64s()...)
		default:
			panic(fmt.Sprintf("value %d is a %T", i, v))
		}
	}
	return out
}

// build returns values of the slots ss read from x, the tensors of dtype
// dt (fresh, contiguous).
func build(ss []slot, x []float64, dt tensorops.DType) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		if !s.tensor {
			out[i] = x[0]
			x = x[1:]
			continue
		}
		n := s.size()
		t := tensorops.FromFloat64s(slices.Clone(x[:n]), append([]int{}, s.shape...)...)
		if dt != tensorops.Float64 {
			t = tensorops.AsType(t, dt)
		}
		out[i] = t
		x = x[n:]
	}
	return out
}

// toType returns the values with their tensors converted to dt.
func toType(vs []any, dt tensorops.DType) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		if t, ok := v.(*T); ok {
			v = tensorops.AsType(t, dt)
		}
		out[i] = v
	}
	return out
}

// direction returns a random value of the slots ss: standard normal
// elements.
func direction(r *rand.Rand, ss []slot) []float64 {
	n := 0
	for _, s := range ss {
		n += s.size()
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

// invoke calls fn on args through reflection and returns its results. It
// panics with a message naming fn if fn panics or writes into a tensor
// argument.
func invoke(fn any, args ...any) []any {
	name := funcName(fn)
	before := make([][]float64, len(args))
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
		if t, ok := a.(*T); ok && t != nil {
			before[i] = tensorops.AsType(t, tensorops.Float64).Float64s()
		}
	}
	out := func() (out []reflect.Value) {
		defer func() {
			if e := recover(); e != nil {
				panic(fmt.Sprintf("%s panicked: %v", name, e))
			}
		}()
		return reflect.ValueOf(fn).Call(in)
	}()
	for i, a := range args {
		if t, ok := a.(*T); ok && t != nil {
			if after := tensorops.AsType(t, tensorops.Float64).Float64s(); !identical(before[i], after) {
				panic(fmt.Sprintf("%s wrote into its argument %d", name, i))
			}
		}
	}
	res := make([]any, len(out))
	for i, o := range out {
		res[i] = o.Interface()
	}
	return res
}

// funcName returns the name of the function fn, without its package path.
func funcName(fn any) string {
	name := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	return name[strings.LastIndex(name, ".")+1:]
}

// identical reports whether a and b hold the same float64s, bit for bit.
func identical(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// interleave returns, for values xs[0] with their companions xs[1], …
// (tangents, or Taylor coefficients), the arguments of a derivative:
// xs[0][0], xs[1][0], …, xs[0][1], xs[1][1], ….
func interleave(xs ...[]any) []any {
	var out []any
	for j := range xs[0] {
		for _, x := range xs {
			out = append(out, x[j])
		}
	}
	return out
}

// dtypes checks that the tensors among vs have dtype dt.
func dtypes(what string, vs []any, dt tensorops.DType) error {
	for i, v := range vs {
		if t, ok := v.(*T); ok && t != nil && t.DType() != dt {
			return fmt.Errorf("%s %d has dtype %v, want %v", what, i, t.DType(), dt)
		}
	}
	return nil
}

// point is one test point of a case: the arguments x (float64), a
// direction v of the arguments, a seed w of the result, and the Taylor
// coefficients x1 = v, x2, x3 of the arguments.
type point struct {
	args  []any  // the arguments, float64 tensors
	in    []slot // their slots
	out   slot   // the result's
	x     []float64
	v     []float64
	w     []float64
	coefs [order + 1][]float64 // x, x1, x2, x3
}

// draw returns a point of c in configuration gens, drawn from r: the
// arguments are redrawn until c.valid accepts them.
func (c *opCase) draw(r *rand.Rand, gens []gen) (p *point, err error) {
	defer func() {
		if e := recover(); e != nil {
			p, err = nil, fmt.Errorf("%v", e)
		}
	}()
	p = &point{}
	for try := 0; ; try++ {
		if try == 1000 {
			return nil, fmt.Errorf("no valid point in 1000 draws")
		}
		p.args = make([]any, len(gens))
		for i, g := range gens {
			p.args[i] = g(r)
		}
		if c.valid == nil || c.valid(p.args) {
			break
		}
	}
	p.in = slotsOf(p.args)
	p.out = slotOf(invoke(c.f, p.args...)[0])
	p.x = flatten(p.args, p.in)
	p.v = direction(r, p.in)
	p.w = direction(r, []slot{p.out})
	p.coefs[0], p.coefs[1] = p.x, p.v
	for k := 2; k <= order; k++ {
		p.coefs[k] = direction(r, p.in)
	}
	return p, nil
}

// f is the wrapper, flattened.
func (c *opCase) flatF(p *point) gadtest.Func {
	return func(x []float64) []float64 {
		return flatten(invoke(c.f, build(p.in, x, tensorops.Float64)...), []slot{p.out})
	}
}

// flatJVP is the JVP, flattened; it does not return the value.
func (c *opCase) flatJVP(p *point, dt tensorops.DType) gadtest.JVPFunc {
	return func(x, v []float64) ([]float64, []float64) {
		res := invoke(c.jvp, interleave(build(p.in, x, dt), build(p.in, v, dt))...)
		if err := dtypes("tangent", res[1:], dt); err != nil {
			panic(err)
		}
		return nil, flatten(res[1:], []slot{p.out})
	}
}

// flatVJP is the VJP, flattened; it adds the adjoints to xBar and does
// not return the value.
func (c *opCase) flatVJP(p *point, dt tensorops.DType) gadtest.VJPFunc {
	return func(x, w, xBar []float64) []float64 {
		res := invoke(c.vjp, append(build(p.in, x, dt), build([]slot{p.out}, w, dt)...)...)
		if len(res) != 1+len(p.in) {
			panic(fmt.Sprintf("the VJP returns %d results, want the value and %d adjoints", len(res), len(p.in)))
		}
		if err := dtypes("adjoint", res[1:], dt); err != nil {
			panic(err)
		}
		for i, b := range flatten(res[1:], p.in) {
			xBar[i] += b
		}
		return nil
	}
}

// taylorAt returns the Taylor coefficients 0 to order of the result,
// flattened, when the arguments move on the curve x(t) = x + x1·t + x2·t² +
// x3·t³ re-expanded at t = t0: their coefficients there are x(t0),
// x′(t0), x″(t0)/2, x‴(t0)/6.
func (c *opCase) taylorAt(p *point, t0 float64, dt tensorops.DType) [order + 1][]float64 {
	x, x1, x2, x3 := p.coefs[0], p.coefs[1], p.coefs[2], p.coefs[3]
	var a [order + 1][]float64
	for k := range a {
		a[k] = make([]float64, len(x))
	}
	for i := range x {
		a[0][i] = x[i] + t0*(x1[i]+t0*(x2[i]+t0*x3[i]))
		a[1][i] = x1[i] + t0*(2*x2[i]+3*t0*x3[i])
		a[2][i] = x2[i] + 3*t0*x3[i]
		a[3][i] = x3[i]
	}
	var cols [order + 1][]any
	for k := range a {
		cols[k] = build(p.in, a[k], dt)
	}
	res := invoke(c.taylor, interleave(cols[:]...)...)
	if len(res) != order+1 {
		panic(fmt.Sprintf("the Taylor derivative returns %d results, want %d", len(res), order+1))
	}
	if err := dtypes("Taylor coefficient", res, dt); err != nil {
		panic(err)
	}
	var out [order + 1][]float64
	for k := range out {
		out[k] = flatten(res[k:k+1], []slot{p.out})
	}
	return out
}

// checker collects the failures of one case at one point.
type checker struct {
	errs []string
}

func (ck *checker) errorf(format string, args ...any) {
	ck.errs = append(ck.errs, fmt.Sprintf(format, args...))
}

// try runs f, turning a panic into a failure named what.
func (ck *checker) try(what string, f func()) {
	defer func() {
		if e := recover(); e != nil {
			ck.errorf("%s: %v", what, e)
		}
	}()
	f()
}

// check64 checks the derivatives of c at p in float64:
//  1. the JVP against central differences of f along v, elementwise;
//  2. the dot-product test ⟨w, J·v⟩ = ⟨Jᵀ·w, v⟩ of the JVP and the VJP;
//  3. Taylor mode: along the curve, coefficient k at t equals (1/k)·d/dt
//     of coefficient k−1 at t, by central differences in t; and at t = 0
//     coefficient 1 is the JVP's tangent along x1;
//  4. the value each derivative returns is f's, bit for bit.
func (c *opCase) check64(ck *checker, p *point) {
	f := c.flatF(p)
	s := &gadtest.Settings{Rel: c.rel, PrimalRel: -1}
	fx := f(p.x)
	primal := func(who string, got []float64) {
		if !identical(got, fx) {
			ck.errorf("%s: value %v, want f's %v", who, got, fx)
		}
	}
	ck.try("JVP", func() {
		res := invoke(c.jvp, interleave(build(p.in, p.x, tensorops.Float64), build(p.in, p.v, tensorops.Float64))...)
		primal("JVP", flatten(res[:1], []slot{p.out}))
		if err := gadtest.CheckJVP(f, c.flatJVP(p, tensorops.Float64), p.x, p.v, s); err != nil {
			ck.errorf("JVP against central differences: %v", err)
		}
	})
	ck.try("VJP", func() {
		res := invoke(c.vjp, append(build(p.in, p.x, tensorops.Float64), build([]slot{p.out}, p.w, tensorops.Float64)...)...)
		primal("VJP", flatten(res[:1], []slot{p.out}))
		if err := gadtest.CheckDot(c.flatJVP(p, tensorops.Float64), c.flatVJP(p, tensorops.Float64), p.x, p.v, p.w,
			&gadtest.Settings{PrimalRel: -1}); err != nil {
			ck.errorf("dot-product test of the JVP and the VJP: %v", err)
		}
	})
	if c.taylor == nil {
		return
	}
	ck.try("Taylor", func() {
		cs := c.taylorAt(p, 0, tensorops.Float64)
		primal("Taylor", cs[0])
		_, d := c.flatJVP(p, tensorops.Float64)(p.x, p.v)
		if i, ok := near(cs[1], d, 1e-12); !ok {
			ck.errorf("Taylor coefficient 1 is not the JVP's tangent along x1: at %d, %v against %v", i, cs[1][i], d[i])
		}
		for k := 1; k <= order; k++ {
			g := func(t []float64) []float64 { return c.taylorAt(p, t[0], tensorops.Float64)[k-1] }
			dg := func(t, dt []float64) ([]float64, []float64) {
				next := c.taylorAt(p, t[0], tensorops.Float64)[k]
				out := make([]float64, len(next))
				for i := range next {
					out[i] = float64(k) * next[i] * dt[0]
				}
				return nil, out
			}
			if err := gadtest.CheckJVP(g, dg, []float64{0}, []float64{1}, s); err != nil {
				ck.errorf("Taylor coefficient %d against the differences of coefficient %d along the curve: %v", k, k-1, err)
			}
		}
	})
}

// near reports whether got and want agree within rel·(|want_i| + ‖want‖∞)
// elementwise, and else the first index where they do not.
func near(got, want []float64, rel float64) (int, bool) {
	if len(got) != len(want) {
		return 0, false
	}
	norm := 0.0
	for _, w := range want {
		norm = math.Max(norm, math.Abs(w))
	}
	for i := range want {
		if !(math.Abs(got[i]-want[i]) <= rel*(math.Abs(want[i])+norm)) {
			return i, false
		}
	}
	return 0, true
}

// check32 checks c at p in float32: the arguments are p's rounded to
// float32 (float64 arguments stay float64). Each derivative must return
// float32 tensors, the float32 value of f bit for bit, and derivatives
// within rel32 of the float64 derivatives (checked by float64) of the
// same, rounded, arguments; the dot-product test holds within dotRel32.
func (c *opCase) check32(ck *checker, p *point) {
	const f32, f64 = tensorops.Float32, tensorops.Float64
	rel := c.rel32
	if rel == 0 {
		rel = defaultRel32
	}
	// The rounded point, in float64.
	q := *p
	q.x = flatten(toType(build(p.in, p.x, f32), f64), p.in)
	for k := range q.coefs {
		q.coefs[k] = flatten(toType(build(p.in, p.coefs[k], f32), f64), p.in)
	}
	q.coefs[0] = q.x
	q.v = q.coefs[1]
	q.w = flatten(toType(build([]slot{p.out}, p.w, f32), f64), []slot{p.out})

	compare := func(what string, got, want []float64) {
		if i, ok := near(got, want, rel); !ok {
			ck.errorf("float32 %s: element %d is %v, float64 gives %v (tolerance %g relative to |want_i| + ‖want‖∞)", what, i, got[i], want[i], rel)
		}
	}
	var fx32 []float64
	ck.try("float32 f", func() {
		res := invoke(c.f, build(q.in, q.x, f32)...)
		if err := dtypes("result", res, f32); err != nil {
			panic(err)
		}
		fx32 = flatten(res, []slot{q.out})
		compare("value", fx32, c.flatF(&q)(q.x))
	})
	if fx32 == nil {
		return
	}
	primal := func(who string, got []float64) {
		if !identical(got, fx32) {
			ck.errorf("float32 %s: value %v, want f's %v", who, got, fx32)
		}
	}
	ck.try("float32 JVP", func() {
		res := invoke(c.jvp, interleave(build(q.in, q.x, f32), build(q.in, q.v, f32))...)
		primal("JVP", flatten(res[:1], []slot{q.out}))
		_, d32 := c.flatJVP(&q, f32)(q.x, q.v)
		_, d64 := c.flatJVP(&q, f64)(q.x, q.v)
		compare("tangent", d32, d64)
	})
	ck.try("float32 VJP", func() {
		res := invoke(c.vjp, append(build(q.in, q.x, f32), build([]slot{q.out}, q.w, f32)...)...)
		primal("VJP", flatten(res[:1], []slot{q.out}))
		b32, b64 := make([]float64, len(q.x)), make([]float64, len(q.x))
		c.flatVJP(&q, f32)(q.x, q.w, b32)
		c.flatVJP(&q, f64)(q.x, q.w, b64)
		compare("adjoint", b32, b64)
		if err := gadtest.CheckDot(c.flatJVP(&q, f32), c.flatVJP(&q, f32), q.x, q.v, q.w,
			&gadtest.Settings{Rel: dotRel32, PrimalRel: -1}); err != nil {
			ck.errorf("float32 dot-product test: %v", err)
		}
	})
	if c.taylor == nil {
		return
	}
	ck.try("float32 Taylor", func() {
		c32 := c.taylorAt(&q, 0, f32)
		c64 := c.taylorAt(&q, 0, f64)
		primal("Taylor", c32[0])
		for k := 1; k <= order; k++ {
			compare(fmt.Sprintf("Taylor coefficient %d", k), c32[k], c64[k])
		}
	})
}

// report returns the failures of ck, one per line, or "".
func (ck *checker) report() string { return strings.Join(ck.errs, "\n") }
