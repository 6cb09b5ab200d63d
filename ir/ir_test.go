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

// TestCheckFindsTypeErrors: a φ argument, a select operand, a field and a
// call's arguments of the wrong types or number are reported.
func TestCheckFindsTypeErrors(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	for _, tc := range []struct {
		name   string
		mutate func(f *ir.Func)
		want   string
	}{
		{"phi", func(f *ir.Func) {
			phi := f.Blocks[1].Instrs[0] // s = phi 0 s'
			phi.Args[0] = f.ConstValue(types.Typ[types.Int], nil)
		}, "φ of type float64 has argument 0 of type int"},
		{"select", func(f *ir.Func) {
			body := f.Blocks[2]
			sq := body.Instrs[2] // x[i]*x[i]
			body.NewValue(ir.OpSelect, types.Typ[types.Float64], f.Blocks[1].Instrs[3], sq, body.Instrs[4])
			beforeTerminator(body)
		}, "select of type float64 has an operand of type int"},
		{"call", func(f *ir.Func) {
			sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewParam(0, pkg, "x", types.Typ[types.Float64])), types.NewTuple(types.NewParam(0, pkg, "", types.Typ[types.Float64])), false)
			fn := types.NewFunc(0, pkg, "g", sig)
			body := f.Blocks[2]
			c := body.NewValue(ir.OpCall, types.Typ[types.Float64])
			c.Callee = &ir.Callee{Func: fn}
			beforeTerminator(body)
		}, "with 0 arguments for 1 parameters"},
	} {
		f := irtest.SumSquares(pkg)
		tc.mutate(f)
		if err := ir.Check(f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// beforeTerminator moves the last value of b, just added, before b's
// terminator.
func beforeTerminator(b *ir.Block) {
	n := len(b.Instrs)
	b.Instrs[n-2], b.Instrs[n-1] = b.Instrs[n-1], b.Instrs[n-2]
}
