package simplify_test

import (
	"go/token"
	"go/types"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
)

// TestEmptyBranches: an if whose arms reach the same block through empty
// blocks becomes a jump, its condition and the blocks go; an if whose
// arms differ, or whose join tells them apart by a φ, stays.
func TestEmptyBranches(t *testing.T) {
	f64 := irtest.Float64
	b := irtest.NewBuilder("f", pkg)
	x := b.Param("x", f64)
	b.Result(f64)
	then, els, mid, join := b.Block("then"), b.Block("else"), b.Block("mid"), b.Block("join")
	c := b.Bin(token.GTR, x, b.Float(0))
	b.If(c, then, els)
	b.At(then).Jump(mid)
	b.At(mid).Jump(join)
	b.At(els).Jump(join)
	b.At(join).Return(b.Mul(x, x))
	f := b.F
	simplify.DeadCode(f)
	if err := ir.Check(f); err != nil {
		t.Fatal(err)
	}
	if n := count(f, ir.OpIf); n != 0 || len(f.Blocks) != 2 {
		t.Errorf("want the branch and its empty blocks gone, got\n%s", f)
	}

	// A φ at the join tells the arms apart.
	b = irtest.NewBuilder("g", pkg)
	x = b.Param("x", f64)
	b.Result(f64)
	then, join = b.Block("then"), b.Block("join")
	b.If(b.Bin(token.GTR, x, b.Float(0)), then, join)
	b.At(then).Jump(join)
	phi := b.At(join).Phi("y", f64)
	irtest.SetArgs(phi, x, b.Float(1))
	b.Return(phi)
	g := b.F
	simplify.DeadCode(g)
	if n := count(g, ir.OpIf); n != 1 {
		t.Errorf("branch feeding a φ removed:\n%s", g)
	}
}

// TestScratchStores: stores into scratch memory that only feed stores
// back into it (x[i] += y) go; a store read back for a result stays, and
// so does everything with Scratch unset.
func TestScratchStores(t *testing.T) {
	f64 := irtest.Float64
	s64 := types.NewSlice(f64)
	build := func(readBack bool) *ir.Func {
		b := irtest.NewBuilder("f", pkg)
		dst := b.Param("dst", s64)
		out := b.Param("out", s64)
		x := b.Param("x", f64)
		p := b.IndexAddr(dst, b.Int(0))
		b.Store(p, b.Mul(x, x))
		b.Store(p, b.Add(b.Load(p), x)) // dst[0] += x
		q := b.IndexAddr(out, b.Int(0))
		if readBack {
			b.Store(q, b.Load(p))
		} else {
			b.Store(q, x)
		}
		b.Return()
		return b.F
	}
	f := build(false)
	f.Scratch = []bool{true, false, false}
	simplify.DeadCode(f)
	if s := f.String(); count(f, ir.OpStore) != 1 || strings.Contains(s, "load") {
		t.Errorf("want only the store into out left, got\n%s", s)
	}
	g := build(true)
	g.Scratch = []bool{true, false, false}
	simplify.DeadCode(g)
	if count(g, ir.OpStore) != 3 {
		t.Errorf("stores into dst that out reads back removed:\n%s", g)
	}
	h := build(false)
	simplify.DeadCode(h)
	if count(h, ir.OpStore) != 3 {
		t.Errorf("stores removed without Scratch:\n%s", h)
	}
}

// TestEmptyLoops: a loop that only counts is replaced by the closed form
// of its final values, which the interpreter confirms for every trip
// count, zero and negative included.
func TestEmptyLoops(t *testing.T) {
	i64 := irtest.Int
	build := func() *ir.Func {
		b := irtest.NewBuilder("f", pkg)
		lo := b.Param("lo", i64)
		n := b.Param("n", i64)
		b.Result(i64)
		b.Result(i64)
		head, body, done := b.Block("head"), b.Block("body"), b.Block("done")
		b.Jump(head)
		i := b.At(head).Phi("i", i64)
		k := b.Phi("k", i64)
		b.If(b.Bin(token.LSS, b.Add(i, b.Int(1)), n), body, done)
		i2 := b.At(body).Add(i, b.Int(1))
		k2 := b.Sub(k, b.Int(3))
		b.Jump(head)
		irtest.SetArgs(i, lo, i2)
		irtest.SetArgs(k, b.Int(7), k2)
		b.At(done).Return(i, k)
		return b.F
	}
	before, f := build(), withoutLoop(t, build)
	m := &interp.Machine{}
	for _, args := range [][2]int{{0, 10}, {5, 3}, {-4, -1}, {2, 3}, {7, 7}} {
		r1, err1 := m.Call(before, args[0], args[1])
		r2, err2 := m.Call(f, args[0], args[1])
		if err1 != nil || err2 != nil || !interp.Identical(interp.Tuple(r1), interp.Tuple(r2)) {
			t.Errorf("lo, n = %v: loop gives %v (%v), closed form %v (%v)", args, r1, err1, r2, err2)
		}
	}
}

// TestEmptyLoopLen: a counting loop whose test reads len(s) in the loop
// (as go/ssa evaluates a condition i < len(s)), and whose last value of
// len(s) the code after it uses, is replaced too.
func TestEmptyLoopLen(t *testing.T) {
	i64 := irtest.Int
	build := func() *ir.Func {
		b := irtest.NewBuilder("f", pkg)
		s := b.Param("s", types.NewSlice(irtest.Float64))
		b.Result(i64)
		b.Result(i64)
		head, body, done := b.Block("head"), b.Block("body"), b.Block("done")
		b.Jump(head)
		i := b.At(head).Phi("i", i64)
		n := b.Len(s)
		b.If(b.Bin(token.LSS, i, n), body, done)
		i2 := b.At(body).Add(i, b.Int(1))
		b.Jump(head)
		irtest.SetArgs(i, b.Int(1), i2)
		b.At(done).Return(i, b.Sub(n, b.Int(1)))
		return b.F
	}
	before, f := build(), withoutLoop(t, build)
	m := &interp.Machine{}
	for _, n := range []int{0, 1, 2, 9} {
		s := interp.Slice{Elems: make([]interp.Value, n)}
		for i := range s.Elems {
			s.Elems[i] = 0.5
		}
		r1, err1 := m.Call(before, s)
		r2, err2 := m.Call(f, s)
		if err1 != nil || err2 != nil || !interp.Identical(interp.Tuple(r1), interp.Tuple(r2)) {
			t.Errorf("len(s) = %d: loop gives %v (%v), closed form %v (%v)", n, r1, err1, r2, err2)
		}
	}
}

// withoutLoop returns the function build makes with DeadCode run on it,
// which must leave it valid and without its loop.
func withoutLoop(t *testing.T, build func() *ir.Func) *ir.Func {
	t.Helper()
	f := build()
	simplify.DeadCode(f)
	if err := ir.Check(f); err != nil {
		t.Fatal(err)
	}
	if count(f, ir.OpPhi) != 0 {
		t.Fatalf("loop left:\n%s", f)
	}
	return f
}

// TestMergeExtracts: two extracts of one result of a call (as a
// transformer makes them, and nothing merges without optimization) become
// one, just after the call, which the emitter can write as one assignment.
func TestMergeExtracts(t *testing.T) {
	b := irtest.NewBuilder("f", pkg)
	x := b.Param("x", irtest.Float64)
	b.Result(irtest.Float64)
	c := b.Call(irtest.MathFunc(t, "Sincos"), x)
	s1 := b.Extract(c, 0)
	y := b.Bin(token.MUL, s1, s1)
	s2 := b.Extract(c, 0)
	co := b.Extract(c, 1)
	b.Return(b.Bin(token.ADD, b.Bin(token.ADD, y, s2), co))
	if err := ir.Check(b.F); err != nil {
		t.Fatal(err)
	}
	simplify.DeadCode(b.F)
	if err := ir.Check(b.F); err != nil {
		t.Fatal(err)
	}
	var extracts []*ir.Value
	for _, v := range b.F.Blocks[0].Instrs {
		if v.Op == ir.OpExtract {
			extracts = append(extracts, v)
		}
	}
	if len(extracts) != 2 || extracts[0].Index == extracts[1].Index {
		t.Fatalf("want one extract per result:\n%s", b.F)
	}
	if i := slices.Index(b.F.Blocks[0].Instrs, c); b.F.Blocks[0].Instrs[i+1].Op != ir.OpExtract || b.F.Blocks[0].Instrs[i+2].Op != ir.OpExtract {
		t.Errorf("the extracts do not follow the call:\n%s", b.F)
	}
	m := &interp.Machine{}
	got, err := m.Call(b.F, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	s, co2 := math.Sincos(0.5)
	if want := s*s + s + co2; got[0] != want {
		t.Errorf("f(0.5) = %v, want %v", got[0], want)
	}
}

// TestDeadAppends: a slice started from a local array and only appended
// to in a loop goes, appends and φ-nodes; one whose length is read, one
// started from a parameter, and one resliced into a result stay.
func TestDeadAppends(t *testing.T) {
	f64 := irtest.Float64
	s64 := types.NewSlice(f64)
	build := func(use string) *ir.Func {
		b := irtest.NewBuilder("f", pkg)
		x := b.Param("x", f64)
		p := b.Param("p", s64)
		b.Result(f64)
		var start *ir.Value
		if use == "param" {
			start = p
		} else {
			start = b.Slice(b.Alloc("buf", types.NewArray(f64, 8), false), nil, b.Int(0), nil)
		}
		head, body, exit := b.Block("head"), b.Block("body"), b.Block("exit")
		b.Jump(head)
		i := b.At(head).Phi("i", irtest.Int)
		tape := b.Phi("tape", s64)
		b.If(b.Bin(token.LSS, i, b.Int(4)), body, exit)
		next := b.At(body).CallBuiltin("append", s64, tape, b.Mul(x, x))
		grown := b.CallBuiltin("append", s64, next, x)
		irtest.SetArgs(i, b.Int(0), b.Add(i, b.Int(1)))
		irtest.SetArgs(tape, start, grown)
		b.Jump(head)
		b.At(exit)
		switch use {
		case "len":
			b.Return(b.Convert(f64, b.Len(tape)))
		case "reslice":
			b.Return(b.Load(b.IndexAddr(b.Slice(tape, nil, b.Int(1), nil), b.Int(0))))
		default:
			b.Return(x)
		}
		return b.F
	}
	for _, c := range []struct {
		use     string
		appends int
	}{{"none", 0}, {"param", 2}, {"len", 2}, {"reslice", 2}} {
		f := build(c.use)
		simplify.DeadCode(f)
		if err := ir.Check(f); err != nil {
			t.Fatalf("%s: %v", c.use, err)
		}
		n := 0
		for _, blk := range f.Blocks {
			for _, v := range blk.Instrs {
				if v.Op == ir.OpCall && v.Callee.Builtin == "append" {
					n++
				}
			}
		}
		if n != c.appends {
			t.Errorf("%s: got %d appends, want %d:\n%s", c.use, n, c.appends, f)
		}
	}
}

// TestMergeExtractsOrder: the merged extracts follow their call in the
// order of its results, whichever came first, every time (they were
// placed in a map's order, and gadgen's output changed from run to run).
func TestMergeExtractsOrder(t *testing.T) {
	for run := range 30 {
		b := irtest.NewBuilder("f", pkg)
		x := b.Param("x", irtest.Float64)
		b.Result(irtest.Float64)
		c := b.Call(irtest.MathFunc(t, "Sincos"), x)
		co := b.Extract(c, 1)
		s := b.Extract(c, 0)
		y := b.Bin(token.ADD, co, b.Extract(c, 1))
		b.Return(b.Bin(token.MUL, y, s))
		simplify.DeadCode(b.F)
		if err := ir.Check(b.F); err != nil {
			t.Fatal(err)
		}
		instrs := b.F.Blocks[0].Instrs
		i := slices.Index(instrs, c)
		if i+2 >= len(instrs) || instrs[i+1].Op != ir.OpExtract || instrs[i+1].Index != 0 ||
			instrs[i+2].Op != ir.OpExtract || instrs[i+2].Index != 1 {
			t.Fatalf("run %d: want the call followed by the extracts of results 0 and 1, got\n%s", run, b.F)
		}
	}
}
