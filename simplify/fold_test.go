package simplify_test

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
)

func runFold(f *ir.Func) {
	simplify.Run(f, []simplify.Pass{{Name: "fold", Fn: simplify.Local(simplify.Fold)}}, simplify.Config{Optimize: true, Check: true})
}

// TestFoldPow: Pow(x, 0), Pow(x, 1) and Pow(x, 2) become 1, x and x*x,
// bit-identical on the specials (NaN, ±0, ±Inf, the largest and smallest
// floats); Pow(x, 0.5) stays.
func TestFoldPow(t *testing.T) {
	pow := irtest.MathFunc(t, "Pow")
	for _, c := range []float64{0, 1, 2, 0.5} {
		mk := func() *ir.Func {
			b := irtest.NewBuilder("F", pkg)
			x := b.Param("x", f64)
			b.Result(f64)
			b.Return(b.Call(pow, x, b.Float(c)))
			return b.F
		}
		f := mk()
		runFold(f)
		calls := count(f, ir.OpCall)
		if want := map[bool]int{true: 1, false: 0}[c == 0.5]; calls != want {
			t.Errorf("Pow(x, %v): %d calls after folding, want %d:\n%s", c, calls, want, f)
		}
		sameResults(t, mk(), f, 1)
	}
}

// TestFoldConstants: calls of primitives (math's, mathext's) and
// arithmetic of constants fold to the value Go computes; results a
// constant cannot spell, and integer overflow, do not fold.
func TestFoldConstants(t *testing.T) {
	sqrt, exp := irtest.MathFunc(t, "Sqrt"), irtest.MathFunc(t, "Exp")
	param := func(name string) *types.Var { return types.NewParam(token.NoPos, nil, name, f64) }
	lbeta := types.NewFunc(token.NoPos, types.NewPackage("gonum.org/v1/gonum/mathext", "mathext"), "Lbeta",
		types.NewSignatureType(nil, nil, nil, types.NewTuple(param("a"), param("b")), types.NewTuple(param("")), false))
	cases := []struct {
		name  string
		build func(b *irtest.Builder) *ir.Value
		want  any // the folded constant, or nil: not folded
	}{
		{"sqrt2*e", func(b *irtest.Builder) *ir.Value {
			return b.Mul(b.Call(sqrt, b.Float(2)), b.Call(exp, b.Float(1)))
		}, math.Sqrt(2) * math.Exp(1)},
		{"mathext.Lbeta(2, 3)", func(b *irtest.Builder) *ir.Value {
			return b.Call(lbeta, b.Float(2), b.Float(3))
		}, mathext.Lbeta(2, 3)},
		{"1/0", func(b *irtest.Builder) *ir.Value { return b.Quo(b.Float(1), b.Float(0)) }, nil},
		{"0*-1", func(b *irtest.Builder) *ir.Value { return b.Mul(b.Float(0), b.Float(-1)) }, nil},
		{"float32 1/3", func(b *irtest.Builder) *ir.Value {
			f32 := types.Typ[types.Float32]
			return b.Quo(b.Const(f32, constant.MakeFloat64(1)), b.Const(f32, constant.MakeFloat64(3)))
		}, float64(float32(1) / float32(3))},
		{"int8 overflow", func(b *irtest.Builder) *ir.Value {
			i8 := types.Typ[types.Int8]
			return b.Add(b.Const(i8, constant.MakeInt64(100)), b.Const(i8, constant.MakeInt64(100)))
		}, nil},
		{"int 7/2", func(b *irtest.Builder) *ir.Value { return b.Quo(b.Int(7), b.Int(-2)) }, int64(-3)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := irtest.NewBuilder("F", pkg)
			r := tc.build(b)
			b.Result(r.Type)
			b.Return(r)
			runFold(b.F)
			got := b.F.Blocks[0].Terminator().Args[0]
			if tc.want == nil {
				if got.Op == ir.OpConst {
					t.Errorf("folded to %v:\n%s", got.Const, b.F)
				}
				return
			}
			if got.Op != ir.OpConst {
				t.Fatalf("not folded:\n%s", b.F)
			}
			switch w := tc.want.(type) {
			case float64:
				if x, _ := constant.Float64Val(got.Const); x != w {
					t.Errorf("got %v, want %v", x, w)
				}
			case int64:
				if x, _ := constant.Int64Val(got.Const); x != w {
					t.Errorf("got %v, want %v", x, w)
				}
			}
		})
	}
}

// TestFoldBranch: an if on a constant becomes a jump, the block not taken
// goes, and the φ that merged both becomes the value taken.
func TestFoldBranch(t *testing.T) {
	mk := func() *ir.Func {
		b := irtest.NewBuilder("F", pkg)
		x := b.Param("x", f64)
		b.Result(f64)
		then, els, done := b.Block("if.then"), b.Block("if.else"), b.Block("if.done")
		b.If(b.Bin(token.LSS, b.Int(1), b.Int(2)), then, els)
		b.At(then)
		y := b.Mul(x, x)
		b.Jump(done)
		b.At(els)
		z := b.Add(x, x)
		b.Jump(done)
		b.At(done)
		p := b.Phi("p", f64)
		irtest.SetArgs(p, y, z)
		b.Return(p)
		return b.F
	}
	f := mk()
	runFold(f)
	if len(f.Blocks) != 3 || count(f, ir.OpIf) != 0 || count(f, ir.OpPhi) != 0 {
		t.Errorf("branch not folded:\n%s", f)
	}
	sameResults(t, mk(), f, 1)
}

// TestFoldMakeSize: len(make(T, n)) and cap(make(T, n)) are n,
// cap(make(T, n, m)) is m, and the length of a slice of it stays a length.
func TestFoldMakeSize(t *testing.T) {
	b := irtest.NewBuilder("F", pkg)
	n := b.Param("n", irtest.Int)
	m := b.Param("m", irtest.Int)
	b.Result(irtest.Int)
	s := b.MakeSlice(slice, n, nil)
	s2 := b.MakeSlice(slice, n, m)
	sum := b.Add(b.Add(b.Len(s), b.Cap(s)), b.Cap(s2))
	sub := b.Len(b.Slice(s2, b.Int(1), nil, nil))
	b.Return(b.Add(sum, sub))
	f := b.F
	runFold(f)
	if got := count(f, ir.OpLen) + count(f, ir.OpCap); got != 1 {
		t.Errorf("%d lengths and capacities after folding, want 1 (of the slice):\n%s", got, f)
	}
	if x, y := sum.Args[0].Args, sum.Args[1]; x[0] != n || x[1] != n || y != m {
		t.Errorf("len(make(n)) + cap(make(n)) + cap(make(n, m)) folds to %v + %v + %v, want n + n + m", x[0], x[1], y)
	}
}

// TestFoldIntIdentities: for integers, x + 0, 0 + x, x - 0, x * 1 and
// 1 * x are x, and len and cap of a nil slice are 0; the float x + 0
// stays (-0 + 0 is +0).
func TestFoldIntIdentities(t *testing.T) {
	b := irtest.NewBuilder("F", pkg)
	k := b.Param("k", irtest.Int)
	x := b.Param("x", f64)
	b.Result(irtest.Int)
	b.Result(f64)
	nilSlice := b.Const(slice, nil)
	sum := b.Add(b.Add(b.Add(k, b.Int(0)), b.Sub(b.Int(0), b.Int(0))), b.Mul(b.Int(1), b.Sub(k, b.Int(0))))
	withLen := b.Add(b.Mul(sum, b.Int(1)), b.Add(b.Len(nilSlice), b.Cap(nilSlice)))
	fx := b.Add(x, b.Float(0))
	b.Return(withLen, fx)
	f := b.F
	runFold(f)
	ret := f.Entry().Terminator()
	if r := ret.Args[0]; r.Op != ir.OpBinary || r.Args[0] != k || r.Args[1] != k {
		t.Errorf("the integer sum folds to %v, want k + k:\n%s", r, f)
	}
	if ret.Args[1] != fx {
		t.Errorf("x + 0 on floats folded:\n%s", f)
	}
}

// TestFoldMaxWithZero: max(len(s)+2, 0) is len(s)+2, and max(0, cap(s))
// is cap(s); max(k+2, 0) of a parameter k stays.
func TestFoldMaxWithZero(t *testing.T) {
	b := irtest.NewBuilder("F", pkg)
	s := b.Param("s", slice)
	k := b.Param("k", irtest.Int)
	b.Result(irtest.Int)
	l2 := b.Add(b.Len(s), b.Int(2))
	c := b.Cap(s)
	kept := b.CallBuiltin("max", irtest.Int, b.Add(k, b.Int(2)), b.Int(0))
	sum := b.Add(b.Add(b.CallBuiltin("max", irtest.Int, l2, b.Int(0)), b.CallBuiltin("max", irtest.Int, b.Int(0), c)), kept)
	b.Return(sum)
	f := b.F
	runFold(f)
	if x := sum.Args[0].Args; x[0] != l2 || x[1] != c {
		t.Errorf("max(len(s)+2, 0) + max(0, cap(s)) folds to %v + %v, want len(s)+2 + cap(s):\n%s", x[0], x[1], f)
	}
	if sum.Args[1] != kept || count(f, ir.OpCall) != 1 {
		t.Errorf("max(k+2, 0) of a parameter folded:\n%s", f)
	}
}

// TestFoldFreshVsNil: new(T) != nil and make([]T, n) != nil are true (make
// never yields nil, even of length 0), == nil false, on either side; a
// parameter compared with nil stays.
func TestFoldFreshVsNil(t *testing.T) {
	b := irtest.NewBuilder("F", pkg)
	n := b.Param("n", irtest.Int)
	ptr := types.NewPointer(f64)
	p := b.Param("p", ptr)
	for range 3 {
		b.Result(irtest.Bool)
	}
	a := b.Alloc("a", f64, true)
	s := b.MakeSlice(slice, n, nil)
	kept := b.Bin(token.NEQ, p, b.Const(ptr, nil))
	b.Return(b.Bin(token.NEQ, a, b.Const(ptr, nil)), b.Bin(token.EQL, b.Const(slice, nil), s), kept)
	f := b.F
	runFold(f)
	ret := f.Entry().Terminator()
	for i, want := range []bool{true, false} {
		if r := ret.Args[i]; r.Op != ir.OpConst || r.Const == nil || constant.BoolVal(r.Const) != want {
			t.Errorf("result %d folds to %v, want %v:\n%s", i, r, want, f)
		}
	}
	if ret.Args[2] != kept {
		t.Errorf("p != nil of a parameter folded:\n%s", f)
	}
}
