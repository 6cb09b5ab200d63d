package simplify_test

import (
	"go/token"
	"math"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
)

// clearedAdjoint builds f(x) (u, r) over a float variable d, an adjoint
// when adjoint is set: d += x; u := d; d = 0; d -= x; r := d.
func clearedAdjoint(adjoint bool) *ir.Func {
	f64 := irtest.Float64
	b := irtest.NewBuilder("f", pkg)
	x := b.Param("x", f64)
	b.Result(f64)
	b.Result(f64)
	d := b.Alloc("dy", f64, false)
	d.Adjoint = adjoint
	b.Store(d, b.Add(b.Load(d), x))
	u := b.Load(d)
	b.Store(d, b.Float(0))
	b.Store(d, b.Sub(b.Load(d), x))
	b.Return(u, b.Load(d))
	return b.F
}

// TestMem2RegAdjointZeros: promoted, an adjoint's sums with its zero are
// the contributions themselves (0 + x is x, 0 - x is -x), equal to the
// sums but for the sign of a zero; the same sums over a variable that is
// no adjoint stay, bit for bit.
func TestMem2RegAdjointZeros(t *testing.T) {
	f := clearedAdjoint(true)
	simplify.Mem2Reg(f)
	if err := ir.Check(f); err != nil {
		t.Fatal(err)
	}
	if n := count(f, ir.OpAlloc) + count(f, ir.OpLoad) + count(f, ir.OpBinary); n != 0 || count(f, ir.OpUnary) != 1 {
		t.Errorf("want return x, -x, got\n%s", f)
	}
	m := &interp.Machine{}
	for _, x := range specials {
		want, err1 := m.Call(clearedAdjoint(true), x)
		got, err2 := m.Call(f, x)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for i := range want {
			w, g := want[i].(float64), got[i].(float64)
			if w != g && !(math.IsNaN(w) && math.IsNaN(g)) {
				t.Errorf("x = %v: result %d is %v, want %v", x, i, g, w)
			}
		}
	}

	g := clearedAdjoint(false)
	simplify.Mem2Reg(g)
	if err := ir.Check(g); err != nil {
		t.Fatal(err)
	}
	if count(g, ir.OpAlloc) != 0 || count(g, ir.OpBinary) != 2 {
		t.Errorf("want d promoted and 0 + x, 0 - x kept, got\n%s", g)
	}
	sameResults(t, clearedAdjoint(false), g, 1)
}

// resetInLoops builds f(x, n) = Σ over n×n iterations of x, the inner
// loop adding x to an adjoint d that it reads and clears at each
// iteration (d += x; s += d; d = 0), as a reverse sweep does.
func resetInLoops() *ir.Func {
	f64, i64 := irtest.Float64, irtest.Int
	b := irtest.NewBuilder("f", pkg)
	x := b.Param("x", f64)
	n := b.Param("n", i64)
	b.Result(f64)
	d := b.Alloc("dy", f64, false)
	d.Adjoint = true
	s := b.Alloc("s", f64, false)
	outer, body, inner, ibody, next, exit := b.Block("outer"), b.Block("body"), b.Block("inner"), b.Block("ibody"), b.Block("next"), b.Block("exit")
	b.Jump(outer)
	i := b.At(outer).Phi("i", i64)
	b.If(b.Bin(token.LSS, i, n), body, exit)
	b.At(body).Jump(inner)
	j := b.At(inner).Phi("j", i64)
	b.If(b.Bin(token.LSS, j, n), ibody, next)
	b.At(ibody)
	b.Store(d, b.Add(b.Load(d), x))
	b.Store(s, b.Add(b.Load(s), b.Load(d)))
	b.Store(d, b.Float(0))
	j2 := b.Add(j, b.Int(1))
	b.Jump(inner)
	irtest.SetArgs(j, b.Int(0), j2)
	i2 := b.At(next).Add(i, b.Int(1))
	b.Jump(outer)
	irtest.SetArgs(i, b.Int(0), i2)
	b.At(exit).Return(b.Load(s))
	return b.F
}

// TestMem2RegPhiWeb: an adjoint cleared at the end of each iteration of
// an inner loop is zero at every loop header; the φs that merge only its
// zero, from one loop to the other, go, and the sum with it is x.
func TestMem2RegPhiWeb(t *testing.T) {
	f := resetInLoops()
	simplify.Mem2Reg(f)
	if err := ir.Check(f); err != nil {
		t.Fatal(err)
	}
	if s := f.String(); strings.Contains(s, ":dy = phi") || count(f, ir.OpPhi) != 4 {
		t.Errorf("want the φs of i, j and s (two) only, got\n%s", s)
	}
	m := &interp.Machine{}
	for _, n := range []int{0, 1, 3} {
		want, err1 := m.Call(resetInLoops(), 1.5, n)
		got, err2 := m.Call(f, 1.5, n)
		if err1 != nil || err2 != nil || !interp.Identical(interp.Tuple(want), interp.Tuple(got)) {
			t.Errorf("n = %d: got %v (%v), want %v (%v)", n, got, err2, want, err1)
		}
	}
}
