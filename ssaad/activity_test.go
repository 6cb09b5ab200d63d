package ssaad_test

// This file tests activity analysis on IR built by hand.

import (
	"go/constant"
	"go/types"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// TestVariedSumSquares: in Σ x[i]², the elements loaded from a varied x
// and the sums are varied; the index, the length and the comparison are
// not.
func TestVariedSumSquares(t *testing.T) {
	f := irtest.SumSquares(types.NewPackage("example.com/p", "p"))
	a := ssaad.Varied(f, []bool{true}, nil)
	head, body := f.Blocks[1], f.Blocks[2]
	s, i, n, cmp := head.Instrs[0], head.Instrs[1], head.Instrs[2], head.Instrs[3]
	load, sq, sum := body.Instrs[1], body.Instrs[2], body.Instrs[3]
	for _, v := range []*ir.Value{f.Params[0], s, load, sq, sum} {
		if !a.Varied(v) {
			t.Errorf("%s is not varied:\n%s", v.LongString(nil), f)
		}
	}
	for _, v := range []*ir.Value{i, n, cmp} {
		if a.Varied(v) {
			t.Errorf("%s is varied:\n%s", v.LongString(nil), f)
		}
	}
	// With x fixed, nothing is.
	b := ssaad.Varied(f, []bool{false}, nil)
	for _, blk := range f.Blocks {
		for _, v := range blk.Instrs {
			if b.Varied(v) {
				t.Errorf("x fixed: %s is varied", v.LongString(nil))
			}
		}
	}
}

// TestVariedThroughMemory: a float stored into a local slice makes the
// slice and what is loaded from it varied, and a constant stored next to
// it does not make an unrelated slice varied.
func TestVariedThroughMemory(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	b := irtest.NewBuilder("F", pkg)
	x := b.Param("x", irtest.Float64)
	b.Result(irtest.Float64)
	sl := types.NewSlice(irtest.Float64)
	buf := b.F.Blocks[0].NewValue(ir.OpMakeSlice, sl, b.Int(2), b.Int(2))
	other := b.F.Blocks[0].NewValue(ir.OpMakeSlice, sl, b.Int(2), b.Int(2))
	p0 := b.IndexAddr(buf, b.Int(0))
	b.F.Blocks[0].NewValue(ir.OpStore, nil, p0, x)
	q0 := b.IndexAddr(other, b.Int(0))
	b.F.Blocks[0].NewValue(ir.OpStore, nil, q0, b.Const(irtest.Float64, constant.MakeFloat64(1)))
	y := b.Load(b.IndexAddr(buf, b.Int(0)))
	z := b.Load(b.IndexAddr(other, b.Int(0)))
	b.Return(y)
	if err := ir.Check(b.F); err != nil {
		t.Fatal(err)
	}
	a := ssaad.Varied(b.F, []bool{true}, nil)
	if !a.Varied(buf) || !a.Varied(y) {
		t.Errorf("the slice x is stored into, or its load, is not varied:\n%s", b.F)
	}
	if a.Varied(other) || a.Varied(z) {
		t.Errorf("a slice holding only a constant is varied:\n%s", b.F)
	}
}
