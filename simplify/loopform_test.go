package simplify_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
)

// TestLoopForm lowers the functions of testdata/loops, puts their loops in
// canonical form after folding, and checks that the loops the comments
// call canonical are tested at the top by a counter, the others are
// unchanged, and that every function computes the same results before and
// after.
func TestLoopForm(t *testing.T) {
	prog, err := frontend.Load(&frontend.Config{Dir: "testdata/loops"}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if errs := prog.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	funcs := 0
	for _, lp := range prog.Roots {
		if lp.ForTest != "" {
			continue
		}
		for _, file := range lp.Syntax {
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				fn := lp.TypesInfo.Defs[fd.Name].(*types.Func)
				canonical := strings.Contains(fd.Doc.Text(), "is canonical")
				t.Run(fn.Name(), func(t *testing.T) { testLoopForm(t, prog, fn, canonical) })
				funcs++
			}
		}
	}
	if funcs == 0 {
		t.Fatal("testdata/loops declares no function")
	}
}

func testLoopForm(t *testing.T, prog *frontend.Program, fn *types.Func, canonical bool) {
	before, diags := prog.Lower(fn)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	after, _ := prog.Lower(fn)
	simplify.Fold(before)
	simplify.Fold(after)
	want := before.String()
	simplify.LoopForm(after)
	if err := ir.Check(after); err != nil {
		t.Fatalf("%v\n%s", err, after)
	}
	cfg := ir.NewCFG(after)
	loops := 0
	for _, h := range cfg.RPO {
		if !cfg.LoopHeader[h.Index] {
			continue
		}
		loops++
		if got := topTested(cfg, h); got != canonical {
			t.Errorf("loop b%d: tested at the top by its counter: %v, want %v\n%s", h.Index, got, canonical, after)
		}
	}
	if loops == 0 {
		t.Errorf("no loop: nothing for loopform to put in canonical form or to keep\n%s", after)
	}
	if !canonical && after.String() != want {
		t.Errorf("changed a loop it must keep:\nbefore:\n%s\nafter:\n%s", want, after)
	}
	m := &interp.Machine{}
	ran := 0
	for _, n := range []int{-1, 0, 1, 2, 7} {
		for _, xs := range [][]float64{{0.5}, {2, -1, 0.25, 3, 0.5}, {-1, 0.5, 3, 1.5, 2, -0.5}} {
			args := []interp.Value{interp.FromGo(xs)}
			if len(before.Params) == 2 {
				args = append(args, n)
			}
			r1, err1 := m.Call(before, args...)
			r2, err2 := m.Call(after, args...)
			interpOK(t, fmt.Sprintf("x=%v n=%d", xs, n), err1, err2)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("x=%v n=%d: errors %v and %v", xs, n, err1, err2)
			}
			if err1 == nil {
				ran++
			}
			if !interp.Identical(interp.Tuple(r1), interp.Tuple(r2)) {
				t.Errorf("x=%v n=%d: before %s, after %s", xs, n, interp.Format(interp.Tuple(r1)), interp.Format(interp.Tuple(r2)))
			}
		}
	}
	if ran == 0 {
		t.Errorf("every call failed, before and after: no result compared")
	}
}

// topTested reports whether loop header h ends with a test of one of its
// φs, stepped by a constant on its back edge, whose one edge stays in the
// loop and the other leaves it.
func topTested(cfg *ir.CFG, h *ir.Block) bool {
	term := h.Terminator()
	if term.Op != ir.OpIf || cfg.InLoop(h, h.Succs[0]) == cfg.InLoop(h, h.Succs[1]) || len(h.Preds) != 2 {
		return false
	}
	latch := 1
	if cfg.InLoop(h, h.Preds[0]) {
		latch = 0
	}
	for _, a := range term.Args[0].Args {
		if a.Op == ir.OpPhi && a.Block == h && ir.InductionStep(a, latch) != nil {
			return true
		}
	}
	return false
}
