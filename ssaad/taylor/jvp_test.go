package taylor_test

import (
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/taylor"
)

type env struct{ fset *token.FileSet }

func (e env) Derivative(mode string, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	panic("no calls expected")
}
func (e env) Position(pos token.Pos) token.Position { return e.fset.Position(pos) }
func (e env) Writes(*types.Func) []bool             { return nil }
func (e env) Reads(*types.Func) []bool              { return nil }

func TestSumSquares(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	f := irtest.SumSquares(pkg)
	x := types.NewParam(token.NoPos, pkg, "x", types.NewSlice(irtest.Float64))
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(x), types.NewTuple(types.NewParam(token.NoPos, pkg, "", irtest.Float64)), false)
	fn := types.NewFunc(token.NoPos, pkg, "SumSquares", sig)
	req := &ssaad.Request{Mode: "jvp", Target: fn, Name: "SumSquaresJVP", Active: ssaad.DefaultActivity(fn)}
	gsig, err := taylor.Mode{Tangent: true}.Signature(req)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := gsig.String(), "func(x []float64, dx []float64) (float64, float64)"; got != want {
		t.Errorf("signature %s, want %s", got, want)
	}
	d, errs := taylor.Mode{Tangent: true}.Transform(f, req, env{token.NewFileSet()})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if err := ir.Check(d); err != nil {
		t.Fatal(err)
	}
	s := d.String()
	if !strings.Contains(s, "ds = phi") || !strings.Contains(s, "indexaddr v") {
		t.Errorf("unexpected derivative:\n%s", s)
	}
	t.Logf("\n%s", s)
}
