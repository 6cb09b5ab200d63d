package simplify_test

import (
	"go/token"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
)

// TestStraighten: a chain of blocks each entered by a jump from the one
// before alone becomes one block, its one-argument φ replaced by the
// argument; a block entered from two stays.
func TestStraighten(t *testing.T) {
	f64 := irtest.Float64
	b := irtest.NewBuilder("f", pkg)
	x := b.Param("x", f64)
	b.Result(f64)
	mid, tail, then, join := b.Block("mid"), b.Block("tail"), b.Block("then"), b.Block("join")
	y := b.Mul(x, x)
	b.Jump(mid)
	phi := b.At(mid).Phi("z", f64)
	irtest.SetArgs(phi, y)
	w := b.Mul(phi, x)
	b.Jump(tail)
	b.At(tail).If(b.Bin(token.GTR, w, b.Float(0)), then, join)
	b.At(then).Jump(join)
	r := b.At(join).Phi("r", f64)
	irtest.SetArgs(r, w, y)
	b.Return(r)
	f := b.F
	simplify.Straighten(f)
	if err := ir.Check(f); err != nil {
		t.Fatalf("%v\n%s", err, f)
	}
	// entry+mid+tail, then, join.
	if len(f.Blocks) != 3 || count(f, ir.OpPhi) != 1 || count(f, ir.OpIf) != 1 {
		t.Errorf("want entry, mid and tail one block, the join's φ kept, got\n%s", f)
	}
	if w.Args[0] != y {
		t.Errorf("the one-argument φ is still read:\n%s", f)
	}
}
