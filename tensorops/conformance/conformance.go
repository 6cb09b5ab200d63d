// Package conformance is a test suite for the ops of package tensorops,
// in the style of gonum's blas/testblas: Run checks every op of the API
// against naive float64 reference implementations written here (nested
// loops over multi-indices, independent of tensorops' kernels), on float64
// and float32, with odd shapes, broadcasting, sizes that are multiples of
// no block size, strided inputs (gonum views, padded and permuted storage),
// sizes above the parallel threshold, the nil conventions of automatic
// differentiation and the panic messages of shape mismatches.
//
// A backend is described by a Backend value: tensorops' own tests run the
// suite with the gonum and OpenBLAS BLAS backends and with one and several
// threads. A later device backend (CUDA) runs the same suite by providing
// ToDevice and FromDevice: every input is built on the host, moved with
// ToDevice before the op and every result moved back with FromDevice
// before it is compared. Tests of host-only features (views of Go slices
// and gonum matrices, At and Set on views) call Skip with the op name
// "host", so such a backend can skip them.
package conformance

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	T "github.com/gadgen/gadgen/tensorops"
)

// Backend describes the implementation the suite runs against.
type Backend struct {
	// Name is used in messages.
	Name string

	// Setup, if not nil, is called once at the start of Run (for
	// example to select a BLAS library or a number of threads); the
	// function it returns, if not nil, is called when Run ends.
	Setup func(t *testing.T) (teardown func())

	// ToDevice moves a host tensor to the backend's device; nil is the
	// identity (the CPU).
	ToDevice func(*T.Tensor) *T.Tensor

	// FromDevice moves a tensor back to the host; nil is the identity.
	FromDevice func(*T.Tensor) *T.Tensor

	// Skip, if not nil, reports whether the tests of an op (named as in
	// tensorops: "Add", "MatMulT", "Conv2D", ... or "host") are to be
	// skipped, and why.
	Skip func(op string) (reason string, skip bool)
}

// Run runs the whole suite against b, as subtests float64/GROUP/... and
// float32/GROUP/....
func Run(t *testing.T, b Backend) {
	if b.Setup != nil {
		if done := b.Setup(t); done != nil {
			defer done()
		}
	}
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		t.Run(dt.String(), func(t *testing.T) {
			for _, g := range groups {
				t.Run(g.name, func(t *testing.T) {
					c := &ctx{b: b, dt: dt, rng: rand.New(rand.NewPCG(seedOf(g.name), uint64(dt)))}
					g.run(t, c)
				})
			}
		})
	}
}

type group struct {
	name string
	run  func(t *testing.T, c *ctx)
}

// groups are the suite's parts, in order.
var groups = []group{
	{"basic", testBasic},
	{"unary", testUnary},
	{"scalar", testScalarForms},
	{"binary", testBinary},
	{"nil", testNil},
	{"reduce", testReduce},
	{"sumlike", testSumLike},
	{"shape", testShape},
	{"matmul", testMatMul},
	{"symmetric", testSymmetric},
	{"nn", testNN},
	{"maxgrad", testMaxGrad},
	{"conv", testConv},
	{"scale", testScale},
	{"pool", testPool},
	{"gather", testGather},
	{"convdilated", testConvDilated},
	{"activations", testActivationGrads},
	{"stats", testStats},
	{"params", testParams},
}

func seedOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// ctx is the state of one group's run.
type ctx struct {
	b   Backend
	dt  T.DType
	rng *rand.Rand
}

// skip skips t if the backend does not implement op.
func (c *ctx) skip(t *testing.T, op string) {
	t.Helper()
	if c.b.Skip != nil {
		// The backend's explicit list of the ops it does not implement, each
		// with its reason (the CUDA backend's: gpu's notOnDevice).
		if why, ok := c.b.Skip(op); ok {
			t.Skipf("%s: %s skipped: %s", c.b.Name, op, why)
		}
	}
}

func (c *ctx) in(x *T.Tensor) *T.Tensor {
	if c.b.ToDevice == nil || x == nil {
		return x
	}
	return c.b.ToDevice(x)
}

func (c *ctx) out(x *T.Tensor) *T.Tensor {
	if c.b.FromDevice == nil || x == nil {
		return x
	}
	return c.b.FromDevice(x)
}

// round returns v as the suite's dtype can hold it.
func (c *ctx) round(v float64) float64 {
	if c.dt == T.Float32 {
		return float64(float32(v))
	}
	return v
}

// rand returns a reference array of uniform values in [lo, hi), rounded
// to the dtype.
func (c *ctx) rand(lo, hi float64, shape ...int) *arr {
	a := newArr(shape...)
	for i := range a.v {
		a.v[i] = c.round(lo + (hi-lo)*c.rng.Float64())
	}
	return a
}

// randInt returns a reference array of integers in [lo, hi], for ties.
func (c *ctx) randInt(lo, hi int, shape ...int) *arr {
	a := newArr(shape...)
	for i := range a.v {
		a.v[i] = float64(lo + c.rng.IntN(hi-lo+1))
	}
	return a
}

// layout is how an input tensor's elements are stored.
type layout int

const (
	contig    layout = iota
	padded           // row-major with gaps between rows and an offset
	permuted         // column-major storage (strides increasing), with an offset
	gonumView        // a view of a larger *mat.Dense (2-D float64; padded otherwise)
)

var layoutNames = [...]string{"contig", "padded", "permuted", "gonum"}

func (l layout) String() string { return layoutNames[l] }

var allLayouts = []layout{contig, padded, permuted, gonumView}

// host builds a host tensor holding a's elements in layout l.
func (c *ctx) host(a *arr, l layout) *T.Tensor {
	n := len(a.shape)
	var t *T.Tensor
	switch {
	case l == contig || n == 0:
		t = T.New(c.dt, a.shape...)
	case l == gonumView && n == 2 && c.dt == T.Float64 && a.shape[0] > 0 && a.shape[1] > 0:
		r, cc := a.shape[0], a.shape[1]
		m := mat.NewDense(r+3, cc+2, nil)
		t = T.FromDense(m.Slice(2, r+2, 1, cc+1).(*mat.Dense))
	case l == permuted:
		st := make([]int, n)
		s := 1
		for i := range st {
			st[i] = s
			s *= max(a.shape[i], 1)
		}
		t = T.AsStrided(T.New(c.dt, s+2), a.shape, st, 2)
	default: // padded
		st := make([]int, n)
		s := 1
		for i := n - 1; i >= 0; i-- {
			st[i] = s
			pad := 1
			if i == n-1 {
				pad = 3
			}
			s *= a.shape[i] + pad
		}
		t = T.AsStrided(T.New(c.dt, s+5), a.shape, st, 5)
	}
	if t.IsContiguous() {
		if c.dt == T.Float32 {
			d := t.Float32s()
			for i, v := range a.v {
				d[i] = float32(v)
			}
		} else {
			copy(t.Float64s(), a.v)
		}
		return t
	}
	forEach(a.shape, func(idx []int) { t.Set(a.at(idx), idx...) })
	return t
}

// tensor builds a's tensor in layout l on the backend's device.
func (c *ctx) tensor(a *arr, l layout) *T.Tensor { return c.in(c.host(a, l)) }

// tol is a comparison tolerance: |got − want| ≤ atol + rtol·|want|.
type tol struct{ rtol, atol float64 }

// tl picks the tolerance of the suite's dtype.
func (c *ctx) tl(f64, f32 tol) tol {
	if c.dt == T.Float32 {
		return f32
	}
	return f64
}

var (
	exact   = tol{0, 0}
	tight64 = tol{1e-14, 1e-14}
	tight32 = tol{1e-6, 1e-6}
	math64  = tol{1e-12, 1e-13}
	math32  = tol{1e-5, 1e-6}
)

// sumTol returns the tolerance of a sum of n terms of magnitude up to mag.
func (c *ctx) sumTol(n int, mag float64) tol {
	if c.dt == T.Float32 {
		return tol{1e-5, 2e-7 * float64(n+1) * mag}
	}
	return tol{1e-12, 4e-16 * float64(n+1) * mag}
}

// check compares got (on the device) with want.
func (c *ctx) check(t *testing.T, what string, got *T.Tensor, want *arr, tl tol) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: got nil, want shape %v", what, want.shape)
		return
	}
	if c.b.ToDevice != nil && got.Device() == T.CPU {
		t.Errorf("%s: the result is on the CPU, want it on the backend's device", what)
		return
	}
	h := c.out(got)
	if h.DType() != c.dt {
		t.Errorf("%s: got dtype %v, want %v", what, h.DType(), c.dt)
		return
	}
	if !sameInts(h.Shape(), want.shape) {
		t.Errorf("%s: got shape %v, want %v", what, h.Shape(), want.shape)
		return
	}
	bad := 0
	get := func(idx []int, p int) float64 { return h.At(idx...) }
	if h.IsContiguous() {
		if c.dt == T.Float32 {
			d := h.Float32s()
			get = func(_ []int, p int) float64 { return float64(d[p]) }
		} else {
			d := h.Float64s()
			get = func(_ []int, p int) float64 { return d[p] }
		}
	}
	p := 0
	forEach(want.shape, func(idx []int) {
		g, w := get(idx, p), want.v[p]
		p++
		if near(g, w, tl) {
			return
		}
		bad++
		if bad <= 3 {
			t.Errorf("%s: at %v got %v, want %v (rtol %g, atol %g)", what, idx, g, w, tl.rtol, tl.atol)
		}
	})
	if bad > 3 {
		t.Errorf("%s: %d elements differ in all", what, bad)
	}
}

// checkScalar compares a float64 result.
func (c *ctx) checkScalar(t *testing.T, what string, got, want float64, tl tol) {
	t.Helper()
	if !near(got, want, tl) {
		t.Errorf("%s: got %v, want %v (rtol %g, atol %g)", what, got, want, tl.rtol, tl.atol)
	}
}

func near(g, w float64, tl tol) bool {
	if g == w || (math.IsNaN(g) && math.IsNaN(w)) {
		return true
	}
	return math.Abs(g-w) <= tl.atol+tl.rtol*math.Abs(w)
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// mustPanic checks that f panics with a message containing each of want.
func mustPanic(t *testing.T, what string, f func(), want ...string) {
	t.Helper()
	msg := func() (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		f()
		return ""
	}()
	if msg == "" {
		t.Errorf("%s: got no panic, want one containing %q", what, want)
		return
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s: got panic %q, want it to contain %q", what, msg, w)
		}
	}
}

func shapeName(s []int) string { return strings.ReplaceAll(fmt.Sprint(s), " ", "x") }
