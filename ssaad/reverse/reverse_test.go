package reverse_test

// This file tests the reverse-mode transformer on hand-built IR, with
// package interp as the machine.

import (
	"go/types"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/reverse"
)

// TestGradSumSquares: the gradient of Σ x[i]² is 2x, added into the
// shadow, with the function's value; unoptimized and optimized alike.
func TestGradSumSquares(t *testing.T) {
	for _, optimize := range []bool{false, true} {
		primal := irtest.SumSquares(types.NewPackage("example.com/p", "p"))
		req := &ssaad.Request{Mode: "grad", Target: irtest.FuncOf(primal), Name: "SumSquaresGrad", Active: []bool{true}}
		d, errs := reverse.Mode{}.Transform(primal, req, irtest.NoCallees{})
		if len(errs) > 0 {
			t.Fatalf("Transform: %v", errs)
		}
		if err := ir.Check(d); err != nil {
			t.Fatal(err)
		}
		simplify.Run(d, simplify.Derivative, simplify.Config{Optimize: optimize, Check: true})
		x := []float64{1, -2, 3.5}
		dx := []float64{10, 0, 0} // the gradient is added to it
		dxv := interp.FromGo(dx)
		res, err := (&interp.Machine{}).Call(d, interp.FromGo(x), dxv)
		if err != nil {
			t.Fatalf("optimize=%v: %v\n%s", optimize, err, d)
		}
		if len(res) != 1 || interp.ToGo(res[0], types.Typ[types.Float64]) != 1+4+12.25 {
			t.Errorf("optimize=%v: results %v, want [17.25]", optimize, res)
		}
		got := interp.ToGo(dxv, types.NewSlice(types.Typ[types.Float64])).([]float64)
		for i, want := range []float64{12, -4, 7} {
			if got[i] != want {
				t.Errorf("optimize=%v: dx[%d] = %v, want %v\n%s", optimize, i, got[i], want, d)
			}
		}
	}
}
