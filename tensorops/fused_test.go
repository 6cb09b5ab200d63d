package tensorops_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// fuseCase is an expression and the separate operations it stands for.
type fuseCase struct {
	expr  string
	chain func(a, b, c, d *T.Tensor, s float64) *T.Tensor
	args  string // the operands in order: a–d tensors, s the scalar
}

var fuseCases = []fuseCase{
	{"(1 - a*a)*d - 2*a*b*c", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Sub(T.Mul(T.Affine(T.Mul(a, a), -1, 1), d), T.Mul(T.Mul(T.Scale(a, 2), b), c))
	}, "abcd"},
	{"-2*a*b*c + (1 - a*a)*d", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Add(T.Mul(T.Mul(T.Scale(a, -2), b), c), T.Mul(T.Affine(T.Mul(a, a), -1, 1), d))
	}, "abcd"},
	{"0.5*(-(a*b + b*a)*c)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Scale(T.Mul(T.Neg(T.Add(T.Mul(a, b), T.Mul(b, a))), c), 0.5)
	}, "abc"},
	{"TanhJVP(a, b) + SigmoidJVP(c, d) - ReLUJVP(b, a)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Sub(T.Add(T.TanhJVP(a, b), T.SigmoidJVP(c, d)), T.ReLUJVP(b, a))
	}, "abcd"},
	{"Affine(a, 0.1, -3) / (b - 0.3) + 1e-05", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.AddScalar(T.Div(T.Affine(a, 0.1, -3), T.AddScalar(b, -0.3)), 1e-05)
	}, "ab"},
	{"Exp(a) + Log(b) + Tanh(c) + Sigmoid(d)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Add(T.Add(T.Add(T.Exp(a), T.Log(b)), T.Tanh(c)), T.Sigmoid(d))
	}, "abcd"},
	{"ReLU(a)*Sqrt(b) - Abs(c)*Square(d)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Sub(T.Mul(T.ReLU(a), T.Sqrt(b)), T.Mul(T.Abs(c), T.Square(d)))
	}, "abcd"},
	{"Sin(a)*Cos(b) + Sign(c)*Step(d)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Add(T.Mul(T.Sin(a), T.Cos(b)), T.Mul(T.Sign(c), T.Step(d)))
	}, "abcd"},
	{"Log1p(Abs(a)) - Expm1(b)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Sub(T.Log1p(T.Abs(a)), T.Expm1(b))
	}, "ab"},
	{"Maximum(a, b) - Minimum(c, d) + Pow(Abs(a), b)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Add(T.Sub(T.Maximum(a, b), T.Minimum(c, d)), T.Pow(T.Abs(a), b))
	}, "abcd"},
	{"3/a + 2/(b*c)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Add(T.ScalarDiv(3, a), T.ScalarDiv(2, T.Mul(b, c)))
	}, "abc"},
	// Scalar operands: e is s.
	{"e*a + b*e - (c - e) + (e - d)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Add(T.Sub(T.Add(T.Scale(a, s), T.Scale(b, s)), T.AddScalar(c, -s)), T.Affine(d, -1, s))
	}, "abcde"},
	{"Affine(a*b, e, e) + e/c + (d + e)", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Add(T.Add(T.Affine(T.Mul(a, b), s, s), T.ScalarDiv(s, c)), T.AddScalar(d, s))
	}, "abcde"},
	{"-a - -b", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Sub(T.Neg(a), T.Neg(b))
	}, "ab"},
	{"a*b*0.1*0.1 - 0.1", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.AddScalar(T.Scale(T.Scale(T.Mul(a, b), 0.1), 0.1), -0.1)
	}, "ab"},
	{"(a + b) * -0", func(a, b, c, d *T.Tensor, s float64) *T.Tensor {
		return T.Scale(T.Add(a, b), math.Copysign(0, -1))
	}, "ab"},
}

// operands returns the arguments of Fuse for c.
func (c fuseCase) operands(ts [4]*T.Tensor, s float64) []any {
	var out []any
	for _, r := range c.args {
		if r == 'e' {
			out = append(out, s)
		} else {
			out = append(out, ts[r-'a'])
		}
	}
	return out
}

// fuseData returns a tensor of shape with random values and specials.
func fuseData(rng *rand.Rand, dt T.DType, shape ...int) *T.Tensor {
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e-310, 3e38}
	x := T.RandN(rng, T.Float64, shape...)
	if x.Size() > 0 {
		v := x.Float64s()
		for i := range v {
			if rng.IntN(4) == 0 {
				v[i] = specials[rng.IntN(len(specials))]
			}
		}
	}
	return T.AsType(x, dt)
}

// sameBits reports whether got and want have one shape and dtype and
// bit-identical elements (any NaN equal to any NaN).
func sameBits(got, want *T.Tensor) error {
	if got == nil || want == nil {
		if got != want {
			return fmt.Errorf("got %v, want %v", got, want)
		}
		return nil
	}
	if !got.SameShape(want) || got.DType() != want.DType() {
		return fmt.Errorf("got shape %v %v, want %v %v", got.Shape(), got.DType(), want.Shape(), want.DType())
	}
	x, y := T.AsType(got, T.Float64).Float64s(), T.AsType(want, T.Float64).Float64s()
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) && !(x[i] != x[i] && y[i] != y[i]) {
			return fmt.Errorf("element %d: got %v, want %v", i, x[i], y[i])
		}
	}
	return nil
}

// TestFuseExact checks each expression bit for bit against its separate
// operations, on float64 and float32, for operands of one shape, for
// broadcasting and strided operands, and split across threads.
func TestFuseExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := []struct {
		name string
		s    [4][]int
	}{
		{"same", [4][]int{{7, 300}, {7, 300}, {7, 300}, {7, 300}}},
		{"0-d", [4][]int{{}, {}, {}, {}}},
		{"empty", [4][]int{{0, 3}, {0, 3}, {0, 3}, {0, 3}}},
		{"broadcast leaves", [4][]int{{5, 4, 300}, {300}, {1}, {4, 1}}},
		{"broadcast all", [4][]int{{5, 1, 300}, {300}, {1}, {4, 1}}},
		{"scalar leaf", [4][]int{{600}, {}, {600}, {600}}},
	}
	for _, restore := range []func(){nil, T.SetGrainsForTest(64, 64)} {
		split := restore != nil
		for _, dt := range []T.DType{T.Float64, T.Float32} {
			for _, sh := range shapes {
				var ts [4]*T.Tensor
				for i := range ts {
					ts[i] = fuseData(rng, dt, sh.s[i]...)
				}
				for _, c := range fuseCases {
					if strings.Contains(c.expr, "JVP") && sh.name != "same" && sh.name != "0-d" && sh.name != "empty" {
						continue // the JVPs need operands of one shape
					}
					for _, s := range []float64{0.3, -2, math.Copysign(0, -1)} {
						want := c.chain(ts[0], ts[1], ts[2], ts[3], s)
						got := T.Fuse(c.expr, c.operands(ts, s)...)
						if err := sameBits(got, want); err != nil {
							t.Errorf("%s, %v, %s shapes, s=%v, split %v: %v", c.expr, dt, sh.name, s, split, err)
						}
						if want.SameShape(ts[0]) && !strings.HasPrefix(sh.name, "broadcast all") {
							// Into a copy of a, a's operand.
							in := ts
							in[0] = ts[0].Clone()
							got = T.FuseInto(in[0], c.expr, c.operands(in, s)...)
							// Of one shape, nothing is left to the separate
							// operations: a's buffer is the result.
							inPlace := sh.name == "same" || sh.name == "0-d"
							if err := sameBits(got, want); err != nil || inPlace && got != in[0] {
								t.Errorf("FuseInto %s, %v, %s shapes, s=%v, split %v: %v (into a: %v)", c.expr, dt, sh.name, s, split, err, got == in[0])
							}
						}
					}
				}
			}
		}
		if restore != nil {
			restore()
		}
	}
	// Strided operands: a transposed view and a column of a wider matrix.
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		tr := T.AsStrided(fuseData(rng, dt, 40, 60), []int{60, 40}, []int{1, 60}, 0)
		col := T.AsStrided(fuseData(rng, dt, 60, 80), []int{60, 40}, []int{80, 1}, 5)
		bb, cc, dd := fuseData(rng, dt, 60, 40), fuseData(rng, dt, 40), fuseData(rng, dt, 60, 1)
		for _, c := range fuseCases[:3] {
			ts := [4]*T.Tensor{tr, col, cc, dd}
			if c.args == "abc" {
				ts = [4]*T.Tensor{tr, bb, col}
			}
			want := c.chain(ts[0], ts[1], ts[2], ts[3], 1)
			if err := sameBits(T.Fuse(c.expr, c.operands(ts, 1)...), want); err != nil {
				t.Errorf("%s, %v, strided: %v", c.expr, dt, err)
			}
		}
	}
}

// TestFuseIntermediateBroadcast: an operation of small operands whose
// result is broadcast is left to the separate operations, with their
// result.
func TestFuseIntermediateBroadcast(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, b, c := fuseData(rng, T.Float64, 4), fuseData(rng, T.Float64, 4), fuseData(rng, T.Float64, 3, 4)
	want := T.Add(T.Mul(T.Exp(a), b), c)
	if err := sameBits(T.Fuse("Exp(a)*b + c", a, b, c), want); err != nil {
		t.Error(err)
	}
}

// TestFuseNil: a nil operand gives what the separate operations give:
// nil, or a copy where they give an operand itself.
func TestFuseNil(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, y := fuseData(rng, T.Float64, 3, 4), fuseData(rng, T.Float64, 3, 4)
	for _, c := range []struct {
		expr  string
		args  []any
		want  *T.Tensor
		ident bool // the result is want itself (nil)
	}{
		{"a*b + c", []any{x, (*T.Tensor)(nil), y}, y, false},
		{"a*b + c", []any{x, y, nil}, T.Mul(x, y), false},
		{"a - b*c", []any{(*T.Tensor)(nil), x, y}, T.Neg(T.Mul(x, y)), false},
		{"2*a*b", []any{(*T.Tensor)(nil), y}, nil, true},
		{"(a + b)*2", []any{(*T.Tensor)(nil), (*T.Tensor)(nil)}, nil, true},
		{"-a + b", []any{(*T.Tensor)(nil), x}, x, false},
		{"TanhJVP(a, b*c)", []any{x, (*T.Tensor)(nil), y}, nil, true},
	} {
		got := T.Fuse(c.expr, c.args...)
		if c.ident {
			if got != c.want {
				t.Errorf("%s: got %p, want %p", c.expr, got, c.want)
			}
			continue
		}
		if err := sameBits(got, c.want); err != nil {
			t.Errorf("%s: %v", c.expr, err)
		}
		for _, a := range c.args {
			if a, ok := a.(*T.Tensor); ok && got == a {
				t.Errorf("%s: the result is an operand, not a copy", c.expr)
			}
		}
	}
	mustPanic(t, "Exp(a) + b", "tensorops: Exp: nil tensor", func() { T.Fuse("Exp(a) + b", (*T.Tensor)(nil), x) })
}

// mustPanic checks that f panics with a message that starts with want.
func mustPanic(t *testing.T, what, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if msg, _ := r.(string); !strings.HasPrefix(msg, want) {
			t.Errorf("%s: panic %v, want %q", what, r, want)
		}
	}()
	f()
}

// TestFusePanics: shapes and dtypes that make an operation panic make
// Fuse panic as the operation does; bad expressions panic naming them.
func TestFusePanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x, y, z := fuseData(rng, T.Float64, 3, 4), fuseData(rng, T.Float64, 5), fuseData(rng, T.Float32, 3, 4)
	for _, c := range []struct {
		what string
		f    func()
		want string
	}{
		{"broadcast", func() { T.Fuse("a*b + a", x, y) }, "tensorops: Mul: shapes [3 4] and [5] do not broadcast"},
		{"dtype", func() { T.Fuse("a*b + a", x, z) }, "tensorops: Mul: shapes [3 4] and [3 4] have dtypes float64 and float32"},
		{"JVP shapes", func() { T.Fuse("TanhJVP(a, b*2)", x, T.Ones(1, 4)) }, "tensorops: TanhJVP: shapes [3 4] and [1 4] differ"},
		{"syntax", func() { T.Fuse("a*(b + ", x, x) }, `tensorops: Fuse: expression "a*(b + ": unexpected end`},
		{"unknown function", func() { T.Fuse("Foo(a)", x) }, `tensorops: Fuse: expression "Foo(a)": unknown function Foo`},
		{"unused operand", func() { T.Fuse("-a", x, x) }, `tensorops: Fuse: expression "-a": operand b is not used`},
		{"unknown operand", func() { T.Fuse("a + c", x, x) }, `tensorops: Fuse: expression "a + c": unknown operand "c"`},
		{"tensor / scalar", func() { T.Fuse("a/2") }, `tensorops: Fuse: expression "a/2": unknown operand "a"`},
		{"tensor / scalar", func() { T.Fuse("a/2", x) }, `tensorops: Fuse: expression "a/2": a tensor divided by a scalar`},
		{"scalar result", func() { T.Fuse("b*2 + a", x, 1.0) }, `tensorops: Fuse: expression "b*2 + a": * of two scalars`},
		{"operand type", func() { T.Fuse("a + b", x, 1) }, `tensorops: Fuse: expression "a + b": operand b is a int`},
		{"argument kind", func() { T.Fuse("Affine(a, b, 1)", x, x) }, `tensorops: Fuse: expression "Affine(a, b, 1)": argument 2 of Affine is not a scalar`},
		{"no operation", func() { T.Fuse("(a)", x) }, `tensorops: Fuse: expression "(a)": no operation`},
	} {
		mustPanic(t, c.what, c.want, c.f)
	}
}

// TestFuseInto: FuseInto writes into a dst of the result's shape, an
// operand included, and allocates otherwise.
func TestFuseInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, dt := range []T.DType{T.Float64, T.Float32} {
		x, y, b := fuseData(rng, dt, 3, 500), fuseData(rng, dt, 3, 500), fuseData(rng, dt, 500)
		want := T.Add(T.Mul(T.TanhJVP(x, y), x), b)
		dst := x.Clone()
		got := T.FuseInto(dst, "TanhJVP(a, b)*a + c", dst, y, b)
		if got != dst {
			t.Errorf("%v: FuseInto into its operand allocated", dt)
		}
		if err := sameBits(got, want); err != nil {
			t.Errorf("%v: FuseInto into its operand: %v", dt, err)
		}
		small := b.Clone()
		got = T.FuseInto(small, "TanhJVP(a, b)*a + c", x, y, small)
		if got == small {
			t.Errorf("%v: FuseInto wrote into a dst of another shape", dt)
		}
		if err := sameBits(got, want); err != nil {
			t.Errorf("%v: FuseInto with a dst of another shape: %v", dt, err)
		}
		if err := sameBits(small, b); err != nil {
			t.Errorf("%v: FuseInto changed a dst it did not use: %v", dt, err)
		}
		if got := T.FuseInto(dst, "(a + b)*2", (*T.Tensor)(nil), dst); got == dst || sameBits(got, T.Scale(dst, 2)) != nil {
			t.Errorf("%v: FuseInto with a nil operand: %v", dt, got)
		}
		if got := T.FuseInto(dst, "a + b*c", dst, (*T.Tensor)(nil), y); got != dst {
			t.Errorf("%v: FuseInto whose operations return dst: %p, want dst %p", dt, got, dst)
		}
	}
}

// TestFuseIntoSymmetric: a symmetric matrix written into is no longer
// marked symmetric (its products would use SYMM).
func TestFuseIntoSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	a, b := T.RandN(rng, T.Float64, 5, 3), T.RandN(rng, T.Float64, 5, 5)
	g := T.Gram(a, false)
	if !g.IsSymmetric() {
		t.Fatal("Gram's result is not marked symmetric")
	}
	want := T.MatMul(T.Add(g.Clone(), b), b)
	got := T.FuseInto(g, "a + b", g, b)
	if got != g || got.IsSymmetric() {
		t.Errorf("FuseInto into a symmetric matrix: into it %v, still marked symmetric %v", got == g, got.IsSymmetric())
	}
	if d := T.MaxAbsDiff(T.MatMul(got, b), want); !(d <= 1e-12) {
		t.Errorf("product of the written matrix differs by %v", d)
	}
}

// TestFuseConcurrent evaluates expressions from many goroutines (the
// program cache and the pooled registers are shared).
func TestFuseConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var ts [4]*T.Tensor
	for i := range ts {
		ts[i] = fuseData(rng, T.Float64, 2, 700)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 20 {
				c := fuseCases[(g+k)%len(fuseCases)]
				got := T.Fuse(c.expr+strings.Repeat(" ", k%3), c.operands(ts, 0.7)...)
				if err := sameBits(got, c.chain(ts[0], ts[1], ts[2], ts[3], 0.7)); err != nil {
					t.Errorf("%s: %v", c.expr, err)
				}
			}
		}()
	}
	wg.Wait()
}

// TestFuseAllocs: a fused call allocates the result (a tensor is three
// allocations) and nothing per operation.
func TestFuseAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	a, b, c, d := fuseData(rng, T.Float64, 64, 64), fuseData(rng, T.Float64, 64, 64), fuseData(rng, T.Float64, 64, 64), fuseData(rng, T.Float64, 64, 64)
	expr := "(1 - a*a)*d - 2*a*b*c"
	T.Fuse(expr, a, b, c, d)
	n := testing.AllocsPerRun(50, func() { T.Fuse(expr, a, b, c, d) })
	if n > 3 {
		t.Errorf("Fuse: %v allocations per call, want at most 3", n)
	}
	dst := a.Clone()
	n = testing.AllocsPerRun(50, func() { T.FuseInto(dst, expr, dst, b, c, d) })
	if n > 0 {
		t.Errorf("FuseInto: %v allocations per call, want 0", n)
	}
}

// BenchmarkFuse compares a fused expression with its separate operations.
func BenchmarkFuse(b *testing.B) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{128, 512, 1 << 10, 1 << 14, 1 << 18} {
		var ts [4]*T.Tensor
		for i := range ts {
			ts[i] = T.RandN(rng, T.Float64, n)
		}
		c := fuseCases[0]
		b.Run(fmt.Sprintf("n=%d/chain", n), func(b *testing.B) {
			for b.Loop() {
				c.chain(ts[0], ts[1], ts[2], ts[3], 0)
			}
		})
		b.Run(fmt.Sprintf("n=%d/fused", n), func(b *testing.B) {
			for b.Loop() {
				T.Fuse(c.expr, ts[0], ts[1], ts[2], ts[3])
			}
		})
	}
}
