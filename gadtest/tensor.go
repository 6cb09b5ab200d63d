package gadtest

// This file defines the checks of derivatives of functions of tensors and
// of structs of tensors: TensorJVP, TensorGrad, TensorGradTo, TensorVJP
// and TensorDot, at a point the caller gives, along random directions;
// and the helpers around them (Shadow, Accumulate, GradVJP,
// GradToVJP). The point is laid out as one vector by reflection
// (layout.go) and the checks compare with central differences of that
// vector, as the checks of vectors do.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/tensorops"
)

// Output is the type of the result of a function that the tensor checks
// take: a float, or a tensor.
type Output interface {
	~float64 | ~float32 | *tensorops.Tensor
}

// The defaults of the checks of float32 tensors (and float32 results),
// used when Settings leaves a value zero. A central difference of a
// float32 function loses about half of float32's 24 bits: the step is
// longer than float64's (round-off, ε/h, against truncation, h⁴ after
// extrapolation), and the tolerances looser.
const (
	// DefaultRel32 is the relative tolerance against central differences.
	DefaultRel32 = 2e-3
	// DefaultAbs32 is the absolute floor of the tolerance.
	DefaultAbs32 = 1e-5
	// DefaultStep32 is the finite-difference step, relative to the size
	// of the point.
	DefaultStep32 = 4e-3
	// DefaultDotRel32 is the relative tolerance of the dot-product test.
	DefaultDotRel32 = 1e-4
	// DefaultPrimalRel32 is the relative tolerance with which the value
	// a derivative returns must agree with the function's.
	DefaultPrimalRel32 = 1e-5
)

// componentLimit is the number of elements of a point up to which the
// gradient and VJP checks also compare every component with the central
// difference along its unit vector (4 evaluations of f each).
const componentLimit = 64

// defaultDirections is the number of random directions (and seeds) a
// tensor check draws at its point, unless Points says otherwise.
const defaultDirections = 3

// outLayout lays out the result of a function: a float or a tensor.
type outLayout struct {
	typ    reflect.Type
	tensor bool
	shape  []int
	f32    bool
	dev    tensorops.Device
	size   int
}

func outLayoutOf(y any, typ reflect.Type) (*outLayout, error) {
	o := &outLayout{typ: typ, size: 1}
	if typ != tensorType {
		o.f32 = typ.Kind() == reflect.Float32
		return o, nil
	}
	t := y.(*tensorops.Tensor)
	if t == nil {
		return nil, fmt.Errorf("f returned a nil tensor")
	}
	o.tensor, o.shape, o.f32, o.dev, o.size = true, t.Shape(), t.DType() == tensorops.Float32, t.Device(), t.Size()
	return o, nil
}

// flatten returns the elements of y, a result (or its tangent, or its
// seed): a nil tensor is zero.
func (o *outLayout) flatten(y any) ([]float64, error) {
	if !o.tensor {
		return []float64{reflect.ValueOf(y).Float()}, nil
	}
	t := y.(*tensorops.Tensor)
	if t == nil {
		return make([]float64, o.size), nil
	}
	if !slices.Equal(t.Shape(), o.shape) {
		return nil, fmt.Errorf("a tensor of shape %v where f's result has shape %v", t.Shape(), o.shape)
	}
	return tensorData(t), nil
}

// build returns the result holding vec: a seed.
func (o *outLayout) build(vec []float64) any {
	if !o.tensor {
		v := reflect.New(o.typ).Elem()
		v.SetFloat(vec[0])
		return v.Interface()
	}
	return newTensor(&leaf{shape: o.shape, f32: o.f32, dev: o.dev}, vec)
}

// elemName names component i of the result.
func (o *outLayout) elemName(i int) string {
	if !o.tensor {
		return ""
	}
	return index(o.shape, i)
}

// round rounds vec to float32 where the result is float32.
func (o *outLayout) round(vec []float64) {
	if o.f32 {
		for i := range vec {
			vec[i] = float64(float32(vec[i]))
		}
	}
}

// tcheck is a check of a derivative of f at one point.
type tcheck struct {
	in    *layout
	out   *outLayout
	x     any       // the point
	xv    []float64 // laid out
	fx    []float64 // f(x)
	f     func(any) any
	s     Settings
	r     *rand.Rand
	dirs  int
	where string
}

// newCheck lays out the point x of f and the result f(x), and sets the
// defaults of the settings from their dtypes. It reports a misuse on tb
// and returns nil.
func newCheck[P any, R Output](tb TB, fn string, f func(P) R, x P, opts []Option) *tcheck {
	tb.Helper()
	c := config{seed: 1}
	for _, o := range opts {
		o.apply(&c)
	}
	if c.domain != nil || c.at != nil {
		tb.Fatalf("gadtest.%s: the point is the argument x: Dim, Box, Around, Domain and At do not apply", fn)
		return nil
	}
	if c.n < 0 || c.n == 0 && c.nSet {
		tb.Fatalf("gadtest.%s: Points(%d): want at least one direction", fn, c.n)
		return nil
	}
	in, err := layoutOf(x, reflect.TypeFor[P]())
	if err != nil {
		tb.Fatalf("gadtest.%s: %v", fn, err)
		return nil
	}
	if in.n == 0 {
		tb.Fatalf("gadtest.%s: x holds no elements: there is no derivative to check", fn)
		return nil
	}
	k := &tcheck{in: in, x: x, s: c.s, r: NewRand(c.seed), dirs: defaultDirections}
	if c.nSet {
		k.dirs = c.n
	}
	k.f = func(p any) any { return f(p.(P)) }
	k.where = "at x = " + in.describe()
	var y any
	xv, err := in.flatten(x)
	if err != nil {
		tb.Fatalf("gadtest.%s: %v", fn, err)
		return nil
	}
	k.xv = xv
	if err := k.try(func() { y = k.f(in.build(x, xv, false)) }); err != nil {
		tb.Errorf("gadtest.%s: f(x) %v", fn, err)
		return nil
	}
	if k.out, err = outLayoutOf(y, reflect.TypeFor[R]()); err != nil {
		tb.Fatalf("gadtest.%s: %v", fn, err)
		return nil
	}
	if k.fx, err = k.out.flatten(y); err != nil {
		tb.Fatalf("gadtest.%s: %v", fn, err)
		return nil
	}
	if len(k.fx) == 0 {
		tb.Fatalf("gadtest.%s: f's result has no elements: there is no derivative to check", fn)
		return nil
	}
	if in.f32 || k.out.f32 || c.f32 {
		k.s.float32Defaults()
	}
	return k
}

// try runs call and returns its panic as an error.
func (c *tcheck) try(call func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	call()
	return nil
}

// F is f on the vector of a point.
func (c *tcheck) F(vec []float64) []float64 {
	y, err := c.out.flatten(c.f(c.in.build(c.x, vec, false)))
	if err != nil {
		panic("gadtest: f's result: " + err.Error())
	}
	return y
}

// point returns a fresh copy of the point.
func (c *tcheck) point() any { return c.in.build(c.x, c.xv, false) }

// direction returns a random direction in the point's layout, nonzero in
// leaf only (every leaf for leaf < 0), rounded to the leaves' dtypes.
func (c *tcheck) direction(leaf int) []float64 {
	v := make([]float64, c.in.n)
	for i, lf := range c.in.leaves {
		if leaf >= 0 && i != leaf {
			continue
		}
		copy(v[lf.off:lf.off+lf.size], Direction(c.r, lf.size))
	}
	c.in.round32(v)
	return v
}

// seed returns a random seed of the result's shape, rounded to its dtype.
func (c *tcheck) seed() []float64 {
	w := Direction(c.r, c.out.size)
	c.out.round(w)
	return w
}

// newError returns the Error of a check of what.
func (c *tcheck) newError(what string) *Error {
	return &Error{What: what, Point: c.where}
}

// unchanged fails e when the derivative modified the point p (built from
// the vector want) it was given.
func (c *tcheck) unchanged(e *Error, p any, want []float64, who, what string) bool {
	got, err := c.in.flatten(p)
	if err == nil && equal(got, want) {
		return true
	}
	e.fail("%s modified %s", who, what)
	return false
}

// compare adds to e a mismatch for each component of got out of
// tolerance against want: rel times the larger of |got|, |want| and scale
// (the sum of the magnitudes of a sum's terms, when not nil), with the
// round-off noise of the differences.
func (c *tcheck) compare(e *Error, name func(i int) string, got, want, scale, noise []float64, rel float64) {
	e.compare(name, got, want, func(i int) float64 {
		sc := math.Max(math.Abs(got[i]), math.Abs(want[i]))
		if scale != nil {
			sc = math.Max(sc, scale[i])
		}
		n := 0.0
		if noise != nil {
			n = noise[i]
		}
		return c.s.tol(rel, sc, n)
	})
}

// primal compares the value a derivative returned with f(x).
func (c *tcheck) primal(e *Error, y any, who string) {
	if y == nil {
		return
	}
	yv, err := c.out.flatten(y)
	if err != nil {
		e.fail("%s returned %v", who, err)
		return
	}
	e.primal(yv, c.fx, &c.s, !c.out.tensor, who)
}

// along returns the central difference of ⟨w, f⟩ (of f when w is nil)
// along v, with its noise, and the sum of the magnitudes of its terms.
func (c *tcheck) along(v, w []float64) (d, noise []float64) {
	d, noise = central(c.F, c.xv, v, alongStep(c.xv, v, c.s.step()), len(c.fx))
	if w == nil {
		return d, noise
	}
	s, n := 0.0, 0.0
	for j := range d {
		s += w[j] * d[j]
		n += math.Abs(w[j]) * noise[j]
	}
	return []float64{s}, []float64{n}
}

// dot returns ⟨a, b⟩ and Σ|aᵢbᵢ|.
func dot(a, b []float64) (s, abs float64) {
	for i := range a {
		s += a[i] * b[i]
		abs += math.Abs(a[i] * b[i])
	}
	return s, abs
}

// checkJVP checks jvp at the point along v.
func (c *tcheck) checkJVP(jvp func(x, v any) (any, any), v []float64) (err error) {
	e := c.newError("J(x)·v")
	defer catch(&err, e)
	want, noise := c.along(v, nil)
	xp, vp := c.point(), c.in.build(c.x, v, false)
	y, dy := jvp(xp, vp)
	if !c.unchanged(e, xp, c.xv, "jvp", "x") || !c.unchanged(e, vp, v, "jvp", "dx") {
		return e
	}
	got, ferr := c.out.flatten(dy)
	if ferr != nil {
		return e.fail("jvp returned as tangent %v", ferr)
	}
	if !finite(want) {
		return e.fail("the finite difference is not finite: f is not smooth (or not defined) near x")
	}
	rel := c.s.rel(DefaultRel)
	c.compare(e, func(i int) string {
		if !c.out.tensor {
			return "∇f(x)·v"
		}
		return "tangent of f" + c.out.elemName(i)
	}, got, want, nil, noise, rel)
	if len(e.Mismatches) > 0 {
		// Which parts of the point does the tangent get wrong?
		for i := range c.in.leaves {
			vl := c.direction(i)
			want, noise := c.along(vl, nil)
			_, dy := jvp(c.point(), c.in.build(c.x, vl, false))
			got, ferr := c.out.flatten(dy)
			if ferr != nil {
				continue
			}
			sub := &Error{}
			c.compare(sub, func(k int) string {
				return fmt.Sprintf("along %s only: tangent of f%s", c.in.leafName(i), c.out.elemName(k))
			}, got, want, nil, noise, rel)
			if len(sub.Mismatches) > 0 {
				e.Partials = append(e.Partials, sub.Mismatches[0])
			}
		}
	}
	c.primal(e, y, "jvp")
	return e.result()
}

// checkGrad checks g, the gradient (w = nil) or the VJP with seed w that
// a derivative returned at the point, against central differences: of ⟨g,
// v⟩ along a random direction in each part of the point, and of each
// component when the point is small.
func (c *tcheck) checkGrad(e *Error, g, w []float64) {
	rel := c.s.rel(DefaultRel)
	for i := range c.in.leaves {
		if c.in.leaves[i].size == 0 {
			continue
		}
		v := c.direction(i)
		want, noise := c.along(v, w)
		if !finite(want) {
			e.fail("the finite difference along %s is not finite: f is not smooth (or not defined) near x", c.in.leafName(i))
			return
		}
		got, abs := dot(g, v)
		c.compare(e, func(int) string {
			return fmt.Sprintf("⟨∂f/∂%s, v⟩ along a random v in %s", c.in.leafName(i), c.in.leafName(i))
		}, []float64{got}, want, []float64{abs}, noise, rel)
	}
	if c.in.n > componentLimit {
		return
	}
	for k := range c.in.n {
		u := make([]float64, c.in.n)
		u[k] = 1
		d, noise := central(c.F, c.xv, u, c.s.step()*math.Max(1, math.Abs(c.xv[k])), len(c.fx))
		want, n := d[0], noise[0]
		if w != nil {
			want, n = 0, 0
			for j := range d {
				want += w[j] * d[j]
				n += math.Abs(w[j]) * noise[j]
			}
		}
		if math.IsNaN(want) || math.IsInf(want, 0) {
			continue // reported along the leaf
		}
		c.compare(e, func(int) string { return "∂f/∂" + c.in.elemName(k) }, []float64{g[k]}, []float64{want}, nil, []float64{n}, rel)
	}
}

// checkReturned checks a gradient or VJP that returns the derivative: w
// is the seed of a VJP, nil for a gradient.
func (c *tcheck) checkReturned(call func(x any, w []float64) (y, g any), w []float64) (err error) {
	e := c.newError("∇f(x)")
	if w != nil {
		e.What = "Jᵀ(x)·w"
	}
	defer catch(&err, e)
	xp := c.point()
	y, gp := call(xp, w)
	if !c.unchanged(e, xp, c.xv, "the derivative", "x") {
		return e
	}
	g, ferr := c.in.flatten(gp)
	if ferr != nil {
		return e.fail("the derivative returned %v", ferr)
	}
	c.checkGrad(e, g, w)
	c.primal(e, y, "the derivative")
	return e.result()
}

// checkAccumulated checks a gradient that adds to a shadow of the point:
// from a shadow with nil tensors, it checks the gradient; then, called on
// a shadow holding buffers, it must add to them in place.
func (c *tcheck) checkAccumulated(grad func(x, xBar any) float64) (err error) {
	e := c.newError("∇f(x)")
	defer catch(&err, e)
	xp := c.point()
	shadow := c.in.build(c.x, make([]float64, c.in.n), true)
	y := grad(xp, shadow)
	if !c.unchanged(e, xp, c.xv, "grad", "x") {
		return e
	}
	g, ferr := c.in.flatten(shadow)
	if ferr != nil {
		return e.fail("the shadow (from nil tensors) holds %v", ferr)
	}
	c.checkGrad(e, g, nil)
	c.primal(e, y, "grad")
	if e.result() != nil {
		return e
	}
	// Accumulation: from buffers holding p, the shadow must hold p + g,
	// in the same tensors.
	p := make([]float64, c.in.n)
	for i := range p {
		p[i] = math.Max(1, math.Abs(g[i])) * float64(1-2*(i%2)) * (1 + float64(i%4)/4)
	}
	c.in.round32(p)
	buf := c.in.build(c.x, p, false)
	before := c.in.tensors(buf)
	grad(c.point(), buf)
	acc, ferr := c.in.flatten(buf)
	if ferr != nil {
		return e.fail("the shadow (from buffers) holds %v", ferr)
	}
	sum, scale := make([]float64, c.in.n), make([]float64, c.in.n)
	for i := range sum {
		sum[i], scale[i] = p[i]+g[i], math.Abs(p[i])+math.Abs(g[i])
	}
	c.compare(e, func(k int) string {
		return fmt.Sprintf("xBar.%s (held %g before the call)", c.in.elemName(k), p[k])
	}, acc, sum, scale, nil, c.s.rel(DefaultRel))
	if len(e.Mismatches) > 0 {
		e.Msg = "grad must add the gradient to the tensors of the shadow: called again on a shadow holding buffers, it did not add the gradient of the call with nil tensors"
		return e
	}
	for i, t := range c.in.tensors(buf) {
		if before[i] != nil && t != before[i] {
			return e.fail("grad replaced the tensor %s of the shadow: a tensor of the right shape must receive the gradient in place", c.in.leafName(i))
		}
	}
	return nil
}

// checkDot is the dot-product test of jvp and vjp along v with seed w.
func (c *tcheck) checkDot(jvp func(x, v any) (any, any), vjp func(x any, w []float64) (y, g any), v, w []float64) (err error) {
	e := c.newError("⟨J·v, w⟩ = ⟨v, Jᵀ·w⟩")
	defer catch(&err, e)
	rel := c.s.rel(DefaultDotRel)
	side := func(v, w []float64) (lhs, rhs, scale float64, y1, y2 any, err error) {
		y1, dy := jvp(c.point(), c.in.build(c.x, v, false))
		jv, err := c.out.flatten(dy)
		if err != nil {
			return 0, 0, 0, nil, nil, fmt.Errorf("jvp returned as tangent %v", err)
		}
		y2, gp := vjp(c.point(), w)
		g, err := c.in.flatten(gp)
		if err != nil {
			return 0, 0, 0, nil, nil, fmt.Errorf("the VJP returned %v", err)
		}
		lhs, ls := dot(jv, w)
		rhs, rs := dot(v, g)
		return lhs, rhs, math.Max(ls, rs), y1, y2, nil
	}
	lhs, rhs, scale, y1, y2, serr := side(v, w)
	if serr != nil {
		return e.fail("%v", serr)
	}
	c.compare(e, func(int) string { return "⟨v, Jᵀ·w⟩ (vjp) against ⟨J·v, w⟩ (jvp)" },
		[]float64{rhs}, []float64{lhs}, []float64{scale}, nil, rel)
	if len(e.Mismatches) > 0 {
		for i := range c.in.leaves {
			lhs, rhs, scale, _, _, serr := side(c.direction(i), w)
			if serr != nil {
				continue
			}
			sub := &Error{}
			c.compare(sub, func(int) string {
				return fmt.Sprintf("along %s only: ⟨v, Jᵀ·w⟩ (vjp) against ⟨J·v, w⟩ (jvp)", c.in.leafName(i))
			}, []float64{rhs}, []float64{lhs}, []float64{scale}, nil, rel)
			e.Partials = append(e.Partials, sub.Mismatches...)
		}
	}
	if y1 != nil && y2 != nil {
		a, err1 := c.out.flatten(y1)
		b, err2 := c.out.flatten(y2)
		if err1 == nil && err2 == nil {
			e.primal(b, a, &c.s, !c.out.tensor, "vjp (against jvp)")
		}
	}
	return e.result()
}

// each runs check once per direction, reporting each failure on tb, and
// stops after a panic.
func (c *tcheck) each(tb TB, check func() error) {
	tb.Helper()
	for i := range c.dirs {
		err := check()
		if err == nil {
			continue
		}
		tb.Errorf("direction %d: %v", i, err)
		var e *Error
		if errors.As(err, &e) && strings.HasPrefix(e.Msg, "panic: ") {
			return
		}
	}
}

func finite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// TensorJVP checks a forward-mode derivative of f at the point x, in the
// shape gadgen generates for a function of tensors: jvp(x, dx) returns
// f(x) and its tangent along dx. x is a *tensorops.Tensor, a float, or a
// struct, pointer, slice or array of them (a model: see the package
// documentation); dx has x's type and shapes; f returns a float or a
// tensor. Along random directions v (3, or Points(n)), it compares the
// tangent with the central difference of f along v, component by
// component, and the value with f(x); when they disagree, it also reports
// the parts of x along which the tangent is wrong. It fails when jvp
// modifies x or dx.
func TensorJVP[P any, R Output](tb TB, f func(x P) R, jvp func(x, dx P) (R, R), x P, opts ...Option) {
	tb.Helper()
	c := newCheck(tb, "TensorJVP", f, x, opts)
	if c == nil {
		return
	}
	j := func(x, v any) (any, any) { return jvp(x.(P), v.(P)) }
	c.each(tb, func() error { return c.checkJVP(j, c.direction(-1)) })
}

// TensorGrad checks a gradient of f: x ↦ float64 at the point x, in the
// shape gadgen generates for a function of one tensor, or of a struct of
// tensors passed by value: grad(x) returns f(x) and the gradient, of x's
// type and shapes (a nil tensor in it is zero). Along a random direction
// in each part of x (each tensor, float or float slice; 3 times, or
// Points(n)), it compares ⟨∇f, v⟩ with the central difference of f along
// v; at a point of at most 64 elements, it also compares each component
// with the central difference along its unit vector. It also compares the
// value with f(x).
func TensorGrad[P any](tb TB, f func(x P) float64, grad func(x P) (float64, P), x P, opts ...Option) {
	tb.Helper()
	c := newCheck(tb, "TensorGrad", f, x, opts)
	if c == nil {
		return
	}
	g := func(x any, _ []float64) (any, any) { return grad(x.(P)) }
	c.each(tb, func() error { return c.checkReturned(g, nil) })
}

// TensorGradTo checks a gradient of f: x ↦ float64 at the point x that
// adds to a shadow, in the shape gadgen generates for a pointer to a
// struct of tensors (func (m, mBar *Model, …) float64) or a slice of
// tensors: grad(x, xBar) returns f(x) and adds the gradient to xBar. It
// checks the gradient as TensorGrad does, from a shadow whose tensors are
// nil (Shadow(x)), which must receive fresh tensors; then the shadow
// convention: called on a shadow holding tensors of the right shapes, the
// gradient must be added to them, in place.
func TensorGradTo[P any](tb TB, f func(x P) float64, grad func(x, xBar P) float64, x P, opts ...Option) {
	tb.Helper()
	if k := reflect.TypeFor[P]().Kind(); k != reflect.Pointer && k != reflect.Slice {
		tb.Fatalf("gadtest.TensorGradTo: a shadow of type %v cannot receive a gradient: use TensorGrad, whose grad returns it", reflect.TypeFor[P]())
		return
	}
	c := newCheck(tb, "TensorGradTo", f, x, opts)
	if c == nil {
		return
	}
	g := func(x, xBar any) float64 { return grad(x.(P), xBar.(P)) }
	c.each(tb, func() error { return c.checkAccumulated(g) })
}

// TensorVJP checks a reverse-mode derivative of f at the point x, for a
// function with a tensor (or float) result: vjp(x, rBar) returns f(x) and
// the adjoint of x for the adjoint rBar of the result, of x's type and
// shapes. With random seeds w (3, or Points(n)), it compares ⟨xBar, v⟩,
// along a random direction v in each part of x, with the central
// difference of ⟨w, f⟩ along v (and each component at a point of at most
// 64 elements), and the value with f(x). Use Shadow in vjp for a
// derivative that adds to a shadow.
func TensorVJP[P any, R Output](tb TB, f func(x P) R, vjp func(x P, rBar R) (R, P), x P, opts ...Option) {
	tb.Helper()
	c := newCheck(tb, "TensorVJP", f, x, opts)
	if c == nil {
		return
	}
	g := c.vjpFunc(func(x any, w any) (any, any) { return vjp(x.(P), w.(R)) })
	c.each(tb, func() error { return c.checkReturned(g, c.seed()) })
}

// vjpFunc adapts a VJP taking the seed as a result value.
func (c *tcheck) vjpFunc(vjp func(x, w any) (any, any)) func(x any, w []float64) (any, any) {
	return func(x any, w []float64) (any, any) { return vjp(x, c.out.build(w)) }
}

// TensorDot checks a JVP against a VJP of the same function at the point
// x by the dot-product test ⟨J·v, w⟩ = ⟨v, Jᵀ·w⟩, with random directions
// v and seeds w (3, or Points(n)), without finite differences: the two
// sides agree to round-off (DefaultDotRel, DefaultDotRel32). On failure it
// also reports the parts of x along which they disagree. For a gradient,
// pass GradVJP(grad) or GradToVJP(grad).
func TensorDot[P any, R Output](tb TB, jvp func(x, dx P) (R, R), vjp func(x P, rBar R) (R, P), x P, opts ...Option) {
	tb.Helper()
	f := func(x P) R { y, _ := jvp(x, zeroLike(x)); return y }
	c := newCheck(tb, "TensorDot", f, x, opts)
	if c == nil {
		return
	}
	j := func(x, v any) (any, any) { return jvp(x.(P), v.(P)) }
	g := c.vjpFunc(func(x any, w any) (any, any) { return vjp(x.(P), w.(R)) })
	c.each(tb, func() error { return c.checkDot(j, g, c.direction(-1), c.seed()) })
}

// Shadow returns a shadow of x for a derivative that adds to one: a copy
// of x's structs, pointers, slices and arrays holding floats, with nil
// tensors and zero floats, slices of the same lengths (so a []*Tensor
// field needs no pre-sizing) and what holds no floats shared with x. It
// panics if x holds nothing to vary.
func Shadow[P any](x P) P {
	l, err := layoutOf(x, reflect.TypeFor[P]())
	if err != nil {
		panic("gadtest: Shadow: " + err.Error())
	}
	return l.build(x, make([]float64, l.n), true).(P)
}

// zeroLike returns a direction of zeros at the point x: zero tensors of
// x's shapes.
func zeroLike[P any](x P) P {
	l, err := layoutOf(x, reflect.TypeFor[P]())
	if err != nil {
		panic("gadtest: " + err.Error())
	}
	return l.build(x, make([]float64, l.n), false).(P)
}

// Accumulate adds g to *dst, part by part, as gadgen's gradients add to a
// shadow: a nil tensor of *dst gets a copy of g's, another has g's added
// in place; floats and slices of floats are added. It lets a test turn a
// derivative that returns adjoints into one that adds them to a shadow:
// gadtest.Accumulate(&xBar.W, wBar). It panics if *dst and g do not have
// the same parts.
func Accumulate[P any](dst *P, g P) {
	typ := reflect.TypeFor[P]()
	var dsts, gs []reflect.Value
	collect := func(out *[]reflect.Value) func(string, reflect.Value) error {
		return func(_ string, v reflect.Value) error { *out = append(*out, v); return nil }
	}
	_ = walk(reflect.ValueOf(dst).Elem(), "", collect(&dsts))
	_ = walk(addressable(g, typ), "", collect(&gs))
	if len(dsts) != len(gs) {
		panic(fmt.Sprintf("gadtest: Accumulate: *dst has %d parts holding floats, g %d", len(dsts), len(gs)))
	}
	for i, d := range dsts {
		s := gs[i]
		switch {
		case d.Type() == tensorType:
			gt := s.Interface().(*tensorops.Tensor)
			switch {
			case gt == nil:
			case d.IsNil():
				d.Set(reflect.ValueOf(gt.Clone()))
			default:
				tensorops.AddInto(d.Interface().(*tensorops.Tensor), gt)
			}
		case isFloatKind(d.Kind()):
			d.SetFloat(d.Float() + s.Float())
		default:
			if d.Len() != s.Len() {
				panic(fmt.Sprintf("gadtest: Accumulate: a slice of length %d for one of length %d", d.Len(), s.Len()))
			}
			for k := range d.Len() {
				d.Index(k).SetFloat(d.Index(k).Float() + s.Index(k).Float())
			}
		}
	}
}

// GradVJP turns a gradient that returns it, func(x) (f, xBar), into the
// VJP of f with a float seed w (w·∇f), for TensorDot.
func GradVJP[P any](grad func(x P) (float64, P)) func(x P, w float64) (float64, P) {
	return func(x P, w float64) (float64, P) {
		y, g := grad(x)
		return y, scaled(x, g, w)
	}
}

// GradToVJP turns a gradient that adds to a shadow, func(x, xBar) f, into
// the VJP of f with a float seed w (w·∇f, in a fresh Shadow(x)), for
// TensorDot.
func GradToVJP[P any](grad func(x, xBar P) float64) func(x P, w float64) (float64, P) {
	return func(x P, w float64) (float64, P) {
		g := Shadow(x)
		y := grad(x, g)
		return y, scaled(x, g, w)
	}
}

// scaled returns w·g for g a derivative at the point x.
func scaled[P any](x, g P, w float64) P {
	l, err := layoutOf(x, reflect.TypeFor[P]())
	if err != nil {
		panic("gadtest: " + err.Error())
	}
	v, err := l.flatten(g)
	if err != nil {
		panic("gadtest: the gradient: " + err.Error())
	}
	for i := range v {
		v[i] *= w
	}
	return l.build(x, v, false).(P)
}
