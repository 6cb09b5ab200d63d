package ir_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
)

func TestCheckAndPrint(t *testing.T) {
	f := irtest.SumSquares(types.NewPackage("example.com/p", "p"))
	if err := ir.Check(f); err != nil {
		t.Fatal(err)
	}
	want := `func SumSquares(v1:x []float64) (float64)
b0: ; entry
  jump -> b1
b1: <- b0 b2 ; for.loop
  v6:s = phi 0 v14:s : float64
  v7:i = phi 0 v15 : int
  v8 = len v1:x : int
  v9 = binary < v7:i v8 : bool
  if v9 -> b2 b3
b2: <- b1 ; for.body
  v11 = indexaddr v1:x v7:i : *float64
  v12 = load v11 : float64
  v13 = binary * v12 v12 : float64
  v14:s = binary + v6:s v13 : float64
  v15 = binary + v7:i 1 : int
  jump -> b1
b3: <- b1 ; for.done
  return v6:s
`
	if got := f.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	cfg := ir.NewCFG(f)
	if !cfg.LoopHeader[1] || !cfg.InLoop(f.Blocks[1], f.Blocks[2]) || cfg.InLoop(f.Blocks[1], f.Blocks[3]) {
		t.Errorf("loop analysis wrong")
	}
}

func TestCheckFindsErrors(t *testing.T) {
	f := irtest.SumSquares(types.NewPackage("example.com/p", "p"))
	// Use a value defined in the loop body from the exit block.
	body, done := f.Blocks[2], f.Blocks[3]
	done.Instrs[len(done.Instrs)-1].Args[0] = body.Instrs[3]
	err := ir.Check(f)
	if err == nil || !strings.Contains(err.Error(), "does not dominate") {
		t.Fatalf("got %v, want a dominance error", err)
	}
}
