package conformance

import (
	"fmt"
	"math"
	"strings"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// bigShape has more elements than the parallel threshold of the
// transcendental kernels (32k) and dimensions that are multiples of no
// block size; hugeShape more than that of the memory-bound kernels (512k).
// (tensorops' tests also run the suite with the thresholds lowered.)
var (
	bigShape  = []int{301, 131}
	hugeShape = []int{1031, 521}
)

// elemShapes are the shapes of the elementwise tests.
var elemShapes = [][]int{{}, {1}, {7}, {3, 5}, {2, 3, 4}, {0, 3}, bigShape}

// layoutsFor returns the layouts to test for shape (fewer for big shapes,
// whose reference loops are slow).
func layoutsFor(shape []int) []layout {
	if numel(shape) > 10000 {
		return []layout{contig, permuted}
	}
	return allLayouts
}

type unaryCase struct {
	name   string
	f      func(*T.Tensor) *T.Tensor
	to     func(dst, a *T.Tensor) *T.Tensor
	ref    func(float64) float64
	lo, hi float64
	ints   bool // integer inputs (zeros and ties)
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}

var unaryCases = []unaryCase{
	{"Neg", T.Neg, T.NegTo, func(x float64) float64 { return -x }, -3, 3, false},
	{"Exp", T.Exp, T.ExpTo, math.Exp, -5, 5, false},
	{"Log", T.Log, T.LogTo, math.Log, 0.01, 10, false},
	{"Tanh", T.Tanh, T.TanhTo, math.Tanh, -4, 4, false},
	{"Sigmoid", T.Sigmoid, T.SigmoidTo, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, -9, 9, false},
	{"ReLU", T.ReLU, T.ReLUTo, func(x float64) float64 { return math.Max(x, 0) }, -3, 3, false},
	{"ReLU", T.ReLU, T.ReLUTo, func(x float64) float64 { return math.Max(x, 0) }, -2, 2, true},
	{"Sqrt", T.Sqrt, T.SqrtTo, math.Sqrt, 0, 9, false},
	{"Abs", T.Abs, T.AbsTo, math.Abs, -3, 3, false},
	{"Square", T.Square, T.SquareTo, func(x float64) float64 { return x * x }, -3, 3, false},
	{"Sin", T.Sin, T.SinTo, math.Sin, -6, 6, false},
	{"Cos", T.Cos, T.CosTo, math.Cos, -6, 6, false},
	{"Sign", T.Sign, T.SignTo, sign, -2, 2, true},
	{"Step", T.Step, T.StepTo, func(x float64) float64 {
		if x > 0 {
			return 1
		}
		return 0
	}, -2, 2, true},
	{"Log1p", T.Log1p, T.Log1pTo, math.Log1p, -0.9, 5, false},
	{"Expm1", T.Expm1, T.Expm1To, math.Expm1, -3, 3, false},
	// The activations by their definitions (GELU with erf, Softplus
	// without its stable form: the tolerance's absolute part covers the
	// references' cancellation for negative x).
	{"GELU", T.GELU, T.GELUTo, func(x float64) float64 { return x * refPhi(x) }, -7, 7, false},
	{"SiLU", T.SiLU, T.SiLUTo, func(x float64) float64 { return x * refSigmoid(x) }, -9, 9, false},
	{"Softplus", T.Softplus, T.SoftplusTo, func(x float64) float64 { return math.Log(1 + math.Exp(x)) }, -15, 15, false},
	{"Erf", T.Erf, T.ErfTo, math.Erf, -4, 4, false},
}

func (c *ctx) input(uc unaryCase, shape []int) *arr {
	if uc.ints {
		return c.randInt(int(uc.lo), int(uc.hi), shape...)
	}
	return c.rand(uc.lo, uc.hi, shape...)
}

func testUnary(t *testing.T, c *ctx) {
	for _, uc := range unaryCases {
		t.Run(uc.name, func(t *testing.T) {
			c.skip(t, uc.name)
			tl := c.tl(math64, math32)
			for _, shape := range elemShapes {
				a := c.input(uc, shape)
				want := refUnary(a, func(x float64) float64 { return c.round(uc.ref(x)) })
				for _, l := range layoutsFor(shape) {
					name := fmt.Sprintf("%s(%s %v)", uc.name, shapeName(shape), l)
					x := c.tensor(a, l)
					c.check(t, name, uc.f(x), want, tl)
					if numel(shape) > 10000 {
						continue
					}
					// To forms: a fresh dst, a strided dst, dst = the operand.
					dst := c.tensor(newArr(shape...), padded)
					if got := uc.to(dst, x); got != dst {
						t.Errorf("%sTo: got a tensor other than dst", name)
					}
					c.check(t, name+"To padded dst", dst, want, tl)
				}
				x := c.tensor(a, contig)
				uc.to(x, x)
				c.check(t, fmt.Sprintf("%sTo(x, x) %s", uc.name, shapeName(shape)), x, want, tl)
			}
			mustPanic(t, uc.name+"To bad dst", func() {
				uc.to(c.tensor(newArr(3, 2), contig), c.tensor(newArr(2, 3), contig))
			}, "tensorops: "+uc.name+"To: ", "[3 2]", "[2 3]")
		})
	}
	t.Run("Exp/nil", func(t *testing.T) {
		mustPanic(t, "Exp(nil)", func() { T.Exp(nil) }, "tensorops: Exp: nil tensor")
	})
}

type scalarCase struct {
	name   string
	f      func(a *T.Tensor) *T.Tensor
	to     func(dst, a *T.Tensor) *T.Tensor
	ref    func(x float64) float64
	lo, hi float64
}

func scalarCases() []scalarCase {
	var cs []scalarCase
	for _, s := range []float64{2.5, -1, 0} {
		cs = append(cs, scalarCase{fmt.Sprintf("Scale(%g)", s),
			func(a *T.Tensor) *T.Tensor { return T.Scale(a, s) },
			func(d, a *T.Tensor) *T.Tensor { return T.ScaleTo(d, a, s) },
			func(x float64) float64 { return s * x }, -3, 3})
	}
	cs = append(cs,
		scalarCase{"AddScalar(-1.25)",
			func(a *T.Tensor) *T.Tensor { return T.AddScalar(a, -1.25) },
			func(d, a *T.Tensor) *T.Tensor { return T.AddScalarTo(d, a, -1.25) },
			func(x float64) float64 { return x - 1.25 }, -3, 3},
		scalarCase{"Affine(1.5,-0.5)",
			func(a *T.Tensor) *T.Tensor { return T.Affine(a, 1.5, -0.5) },
			func(d, a *T.Tensor) *T.Tensor { return T.AffineTo(d, a, 1.5, -0.5) },
			func(x float64) float64 { return 1.5*x - 0.5 }, -3, 3},
		scalarCase{"ScalarDiv(3)",
			func(a *T.Tensor) *T.Tensor { return T.ScalarDiv(3, a) },
			func(d, a *T.Tensor) *T.Tensor { return T.ScalarDivTo(d, 3, a) },
			func(x float64) float64 { return 3 / x }, 0.25, 4},
	)
	for _, p := range []float64{2, 0.5, 3, -1.5, 1, 0} {
		cs = append(cs, scalarCase{fmt.Sprintf("PowScalar(%g)", p),
			func(a *T.Tensor) *T.Tensor { return T.PowScalar(a, p) },
			func(d, a *T.Tensor) *T.Tensor { return T.PowScalarTo(d, a, p) },
			func(x float64) float64 { return math.Pow(x, p) }, 0.5, 2})
	}
	return cs
}

func testScalarForms(t *testing.T, c *ctx) {
	for _, sc := range scalarCases() {
		t.Run(sc.name, func(t *testing.T) {
			op, _, _ := strings.Cut(sc.name, "(") // "Scale(2.5)": Scale
			c.skip(t, op)
			tl := c.tl(tol{1e-14, 1e-14}, math32)
			for _, shape := range elemShapes {
				a := c.rand(sc.lo, sc.hi, shape...)
				want := refUnary(a, func(x float64) float64 { return c.round(sc.ref(x)) })
				for _, l := range layoutsFor(shape) {
					name := fmt.Sprintf("%s %s %v", sc.name, shapeName(shape), l)
					x := c.tensor(a, l)
					c.check(t, name, sc.f(x), want, tl)
					dst := c.tensor(newArr(shape...), padded)
					sc.to(dst, x)
					c.check(t, name+" To", dst, want, tl)
				}
				x := c.tensor(a, contig)
				sc.to(x, x)
				c.check(t, sc.name+" To(x, x)", x, want, tl)
			}
		})
	}
}

type binaryCase struct {
	name           string
	f              func(a, b *T.Tensor) *T.Tensor
	to             func(dst, a, b *T.Tensor) *T.Tensor
	ref            func(x, y float64) float64
	alo, ahi       float64
	blo, bhi       float64
	ints, grainful bool
}

func nanMax(x, y float64) float64 {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	return math.Max(x, y)
}

func nanMin(x, y float64) float64 {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	return math.Min(x, y)
}

var binaryCases = []binaryCase{
	{"Add", T.Add, T.AddTo, func(x, y float64) float64 { return x + y }, -3, 3, -3, 3, false, false},
	{"Sub", T.Sub, T.SubTo, func(x, y float64) float64 { return x - y }, -3, 3, -3, 3, false, false},
	{"Mul", T.Mul, T.MulTo, func(x, y float64) float64 { return x * y }, -3, 3, -3, 3, false, false},
	{"Div", T.Div, T.DivTo, func(x, y float64) float64 { return x / y }, -3, 3, 0.5, 3, false, false},
	{"Pow", T.Pow, T.PowTo, math.Pow, 0.5, 2, -2, 2, false, false},
	{"Maximum", T.Maximum, T.MaximumTo, nanMax, -2, 2, -2, 2, true, false},
	{"Minimum", T.Minimum, T.MinimumTo, nanMin, -2, 2, -2, 2, true, false},
}

// broadcastPairs are operand shapes that broadcast.
var broadcastPairs = [][2][]int{
	{{3, 4}, {3, 4}},
	{{3, 4}, {4}},
	{{4}, {3, 4}},
	{{3, 1}, {1, 4}},
	{{2, 1, 5}, {3, 1}},
	{{}, {2, 3}},
	{{5}, {}},
	{{1}, {1}},
	{{4, 1}, {4, 7}},
	{{2, 0, 3}, {3}},
	{bigShape, bigShape},
	{bigShape, {131}},
	{{301, 1}, bigShape},
}

func (c *ctx) binInputs(bc binaryCase, sa, sb []int) (*arr, *arr) {
	if bc.ints {
		return c.randInt(int(bc.alo), int(bc.ahi), sa...), c.randInt(int(bc.blo), int(bc.bhi), sb...)
	}
	a := c.rand(bc.alo, bc.ahi, sa...)
	b := c.rand(bc.blo, bc.bhi, sb...)
	if bc.name == "Div" {
		for i := range b.v {
			if i%2 == 1 {
				b.v[i] = -b.v[i]
			}
		}
	}
	return a, b
}

func testBinary(t *testing.T, c *ctx) {
	for _, bc := range binaryCases {
		t.Run(bc.name, func(t *testing.T) {
			c.skip(t, bc.name)
			tl := c.tl(math64, math32)
			for _, p := range broadcastPairs {
				a, b := c.binInputs(bc, p[0], p[1])
				want := refBinary(a, b, func(x, y float64) float64 { return c.round(bc.ref(x, y)) })
				big := numel(want.shape) > 10000
				for _, l := range layoutsFor(want.shape) {
					name := fmt.Sprintf("%s(%s, %s %v)", bc.name, shapeName(p[0]), shapeName(p[1]), l)
					x, y := c.tensor(a, l), c.tensor(b, l)
					c.check(t, name, bc.f(x, y), want, tl)
					if big {
						continue
					}
					dst := c.tensor(newArr(want.shape...), padded)
					if got := bc.to(dst, x, y); got != dst {
						t.Errorf("%sTo: got a tensor other than dst", name)
					}
					c.check(t, name+" To padded dst", dst, want, tl)
				}
				// dst = an operand of the result's shape.
				if sameInts(a.shape, want.shape) {
					x, y := c.tensor(a, contig), c.tensor(b, permuted)
					bc.to(x, x, y)
					c.check(t, bc.name+"To(a, a, b) "+shapeName(a.shape), x, want, tl)
				}
				if sameInts(b.shape, want.shape) && !big {
					x, y := c.tensor(a, padded), c.tensor(b, padded)
					bc.to(y, x, y)
					c.check(t, bc.name+"To(b, a, b) padded "+shapeName(b.shape), y, want, tl)
				}
			}
			x, y := c.tensor(newArr(2, 3), contig), c.tensor(newArr(4, 5), contig)
			mustPanic(t, bc.name+" shapes", func() { bc.f(x, y) }, "tensorops: "+bc.name+": shapes [2 3] and [4 5]")
			mustPanic(t, bc.name+"To shapes", func() { bc.to(c.tensor(newArr(2, 3), contig), x, y) }, "tensorops: "+bc.name+"To: shapes [2 3] and [4 5]")
			mustPanic(t, bc.name+"To dst", func() { bc.to(c.tensor(newArr(3, 2), contig), x, x) }, "tensorops: "+bc.name+"To: ", "[3 2]", "[2 3]")
			other := T.Float32
			if c.dt == T.Float32 {
				other = T.Float64
			}
			z := c.in(T.New(other, 2, 3))
			mustPanic(t, bc.name+" dtypes", func() { bc.f(x, z) }, "tensorops: "+bc.name+": ", "dtypes")
		})
	}
	t.Run("huge", func(t *testing.T) {
		// Above every parallel threshold, contiguous and broadcast, with a
		// flat reference loop.
		a := c.rand(-1, 1, hugeShape...)
		b := c.rand(0.5, 2, hugeShape...)
		row := c.rand(0.5, 2, hugeShape[1])
		x, y, r := c.tensor(a, contig), c.tensor(b, contig), c.tensor(row, contig)
		for _, bc := range binaryCases[:4] {
			want := newArr(hugeShape...)
			wantRow := newArr(hugeShape...)
			for i := range want.v {
				want.v[i] = c.round(bc.ref(a.v[i], b.v[i]))
				wantRow.v[i] = c.round(bc.ref(a.v[i], row.v[i%hugeShape[1]]))
			}
			c.check(t, bc.name+" huge", bc.f(x, y), want, c.tl(math64, math32))
			c.check(t, bc.name+" huge row", bc.f(x, r), wantRow, c.tl(math64, math32))
		}
		m, n := hugeShape[0], hugeShape[1]
		want := newArr(hugeShape...)
		rows, cols := newArr(m), newArr(n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				v := a.v[i*n+j]
				want.v[i*n+j] = c.round(math.Exp(v))
				rows.v[i] += v
				cols.v[j] += v
			}
		}
		c.check(t, "Exp huge", T.Exp(x), want, c.tl(math64, math32))
		c.checkScalar(t, "SumAll huge", T.SumAll(x), fsum(a.v), c.sumTol(len(a.v), 1))
		c.check(t, "Sum(huge, 1)", T.Sum(x, 1), rows, c.sumTol(n, 1))
		c.check(t, "Sum(huge, 0)", T.Sum(x, 0), cols, c.sumTol(m, 1))
	})
	t.Run("AddInto", func(t *testing.T) {
		c.skip(t, "AddInto")
		for _, gs := range [][]int{{3, 4}, {4}, {3, 1}, {}, {1, 4}} {
			d0 := c.rand(-1, 1, 3, 4)
			g := c.rand(-1, 1, gs...)
			want := refBinary(d0, g, func(x, y float64) float64 { return c.round(x + y) })
			for _, l := range []layout{contig, padded, gonumView} {
				dst := c.tensor(d0, l)
				T.AddInto(dst, c.tensor(g, permuted))
				c.check(t, fmt.Sprintf("AddInto(%v, %s)", l, shapeName(gs)), dst, want, c.tl(tight64, tight32))
			}
		}
		dst := c.tensor(newArr(3, 4), contig)
		mustPanic(t, "AddInto shapes", func() { T.AddInto(dst, c.tensor(newArr(5), contig)) }, "tensorops: AddInto: shapes [3 4] and [5]")
		mustPanic(t, "AddInto broadcast dst", func() { T.AddInto(dst, c.tensor(newArr(2, 3, 4), contig)) }, "tensorops: AddInto: shapes [3 4] and [2 3 4]")
	})
}

// testNil checks the nil-as-zero convention of the linear ops and of the
// derivative helpers.
func testNil(t *testing.T, c *ctx) {
	c.skip(t, "nil")
	a0, b0 := c.rand(-1, 1, 2, 3), c.rand(-1, 1, 2, 3)
	a, b := c.tensor(a0, contig), c.tensor(b0, padded)
	same := func(what string, got, want *T.Tensor) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %p, want the tensor %p itself", what, got, want)
		}
	}
	same("Add(nil, b)", T.Add(nil, b), b)
	same("Add(a, nil)", T.Add(a, nil), a)
	same("Add(nil, nil)", T.Add(nil, nil), nil)
	same("Sub(a, nil)", T.Sub(a, nil), a)
	same("Sub(nil, nil)", T.Sub(nil, nil), nil)
	c.check(t, "Sub(nil, b)", T.Sub(nil, b), refUnary(b0, func(x float64) float64 { return -x }), exact)
	same("Neg(nil)", T.Neg(nil), nil)
	same("Scale(nil, 2)", T.Scale(nil, 2), nil)
	same("SumLike(nil, a)", T.SumLike(nil, a), nil)
	same("SumLike(a, nil)", T.SumLike(a, nil), nil)
	same("AddScalar(nil, 0)", T.AddScalar(nil, 0), nil)
	same("Affine(nil, 2, 0)", T.Affine(nil, 2, 0), nil)
	mustPanic(t, "AddScalar(nil, 1)", func() { T.AddScalar(nil, 1) }, "tensorops: AddScalar: nil tensor")

	dst := c.tensor(c.rand(5, 6, 2, 3), padded)
	same("AddTo(dst, a, nil)", T.AddTo(dst, a, nil), dst)
	c.check(t, "AddTo(dst, a, nil)", dst, a0, exact)
	T.AddTo(dst, nil, b)
	c.check(t, "AddTo(dst, nil, b)", dst, b0, exact)
	T.AddTo(dst, nil, nil)
	c.check(t, "AddTo(dst, nil, nil)", dst, newArr(2, 3), exact)
	T.SubTo(dst, nil, b)
	c.check(t, "SubTo(dst, nil, b)", dst, refUnary(b0, func(x float64) float64 { return -x }), exact)
	T.ScaleTo(dst, nil, 3)
	c.check(t, "ScaleTo(dst, nil, 3)", dst, newArr(2, 3), exact)
	T.AddTo(dst, a, nil)
	T.AddInto(dst, nil)
	c.check(t, "AddInto(dst, nil)", dst, a0, exact)

	v := c.tensor(c.rand(-1, 1, 3), contig)
	m := c.tensor(c.rand(-1, 1, 3, 3), contig)
	for _, h := range []struct {
		name string
		got  *T.Tensor
	}{
		{"ReshapeLike", T.ReshapeLike(nil, a)},
		{"ExpandAxis", T.ExpandAxis(nil, a, 0)},
		{"MeanGrad", T.MeanGrad(nil, a, 1)},
		{"MaxGrad", T.MaxGrad(a, nil, 1)},
		{"MaxJVP", T.MaxJVP(a, nil, 1)},
		{"TransposeBack", T.TransposeBack(nil)},
		{"SliceGrad", T.SliceGrad(nil, a, 1, 0)},
		{"PadGrad", T.PadGrad(nil, a, 1, 0)},
		{"SoftmaxJVP", T.SoftmaxJVP(a, nil, 1)},
		{"LogSoftmaxJVP", T.LogSoftmaxJVP(a, nil, 1)},
		{"LogSoftmaxVJP", T.LogSoftmaxVJP(a, nil, 1)},
		{"MatMulGradA", T.MatMulGradA(nil, m, v, false, false)},
		{"MatMulGradB", T.MatMulGradB(nil, m, v, false, false)},
	} {
		if h.got != nil {
			t.Errorf("%s with a nil adjoint: got %v, want nil", h.name, h.got)
		}
	}
	if got := T.MaxAllJVP(a, nil); got != 0 {
		t.Errorf("MaxAllJVP(a, nil): got %v, want 0", got)
	}
	// Every operation linear in an operand takes nil there for zero: nil
	// back (0 for a float result).
	for _, h := range []struct {
		name string
		got  *T.Tensor
	}{
		{"Mul(nil, b)", T.Mul(nil, b)},
		{"Mul(a, nil)", T.Mul(a, nil)},
		{"Div(nil, b)", T.Div(nil, b)},
		{"MatMul(nil, m)", T.MatMul(nil, m)},
		{"MatMulT(m, nil)", T.MatMulT(m, nil, true, false)},
		{"Outer(nil, v)", T.Outer(nil, v)},
		{"Sum", T.Sum(nil, 0)},
		{"Mean", T.Mean(nil, 0)},
		{"Transpose", T.Transpose(nil)},
		{"Reshape", T.Reshape(nil, 6)},
		{"Unsqueeze", T.Unsqueeze(nil, 0)},
		{"Squeeze", T.Squeeze(nil, 0)},
		{"Slice", T.Slice(nil, 0, 0, 1)},
		{"Pad", T.Pad(nil, 0, 1, 1)},
		{"Broadcast", T.Broadcast(nil, 2, 3)},
		{"BroadcastLike", T.BroadcastLike(nil, a)},
		{"Diag", T.Diag(nil)},
		{"DiagPart", T.DiagPart(nil)},
		{"Neg", T.Neg(nil)},
		{"Scale", T.Scale(nil, 2)},
	} {
		if h.got != nil {
			t.Errorf("%s: got %v, want nil", h.name, h.got)
		}
	}
	for _, h := range []struct {
		name string
		got  float64
	}{
		{"Dot(nil, b)", T.Dot(nil, b)},
		{"Dot(a, nil)", T.Dot(a, nil)},
		{"SumAll(nil)", T.SumAll(nil)},
		{"MeanAll(nil)", T.MeanAll(nil)},
	} {
		if h.got != 0 {
			t.Errorf("%s: got %v, want 0", h.name, h.got)
		}
	}
	// Where an operation is not linear in the operand, nil panics.
	mustPanic(t, "Exp(nil)", func() { T.Exp(nil) }, "tensorops: Exp: nil tensor")
	mustPanic(t, "Div(a, nil)", func() { T.Div(a, nil) }, "tensorops: Div: nil tensor")
}
