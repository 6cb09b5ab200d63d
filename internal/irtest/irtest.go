// Package irtest builds small IR functions by hand for the tests of passes
// and of the emitter.
package irtest

import (
	"errors"
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"sync"
	"testing"

	"github.com/gadgen/gadgen/ir"
)

var (
	Float64 = types.Typ[types.Float64]
	Int     = types.Typ[types.Int]
	Bool    = types.Typ[types.Bool]
)

// FuncOf returns a *types.Func in f's package with the name and signature
// of f, to call f by.
func FuncOf(f *ir.Func) *types.Func {
	var ps, rs []*types.Var
	for _, p := range f.Params {
		ps = append(ps, types.NewParam(token.NoPos, f.Pkg, p.Name, p.Type))
	}
	for _, t := range f.ResultTypes {
		rs = append(rs, types.NewParam(token.NoPos, f.Pkg, "", t))
	}
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(ps...), types.NewTuple(rs...), false)
	return types.NewFunc(token.NoPos, f.Pkg, f.Name, sig)
}

// NoCallees is the environment (an ssaad.Env) of a function that calls
// no function of the program: asked for a callee's derivative, it fails.
type NoCallees struct{}

// Derivative implements ssaad.Env: there is none.
func (NoCallees) Derivative(string, *types.Func, []bool, token.Pos) (*ir.DerivedFunc, error) {
	return nil, errors.New("irtest: no callees here")
}

// Position implements ssaad.Env: no position.
func (NoCallees) Position(token.Pos) token.Position { return token.Position{} }

// Writes implements ssaad.Env: unknown.
func (NoCallees) Writes(*types.Func) []bool { return nil }

// Reads implements ssaad.Env: unknown.
func (NoCallees) Reads(*types.Func) []bool { return nil }

// mathPkg returns package math as go/types sees it.
var mathPkg = sync.OnceValues(func() (*types.Package, error) {
	return importer.ForCompiler(token.NewFileSet(), "source", nil).Import("math")
})

// MathFunc returns the *types.Func of math.name; it fails t if there is
// none.
func MathFunc(t testing.TB, name string) *types.Func {
	t.Helper()
	p, err := mathPkg()
	if err != nil {
		t.Fatal(err)
	}
	fn, ok := p.Scope().Lookup(name).(*types.Func)
	if !ok {
		t.Fatalf("no function math.%s", name)
	}
	return fn
}

// SumSquares builds
//
//	func SumSquares(x []float64) float64 {
//		s := 0.0
//		for i := 0; i < len(x); i++ {
//			s += x[i] * x[i]
//		}
//		return s
//	}
func SumSquares(pkg *types.Package) *ir.Func {
	f := ir.NewFunc("SumSquares", pkg)
	x := f.AddParam("x", types.NewSlice(Float64))
	f.AddResult("", Float64)
	entry := f.NewBlock("entry")
	head := f.NewBlock("for.loop")
	body := f.NewBlock("for.body")
	done := f.NewBlock("for.done")
	zeroF := f.ConstValue(Float64, constant.MakeFloat64(0))
	zeroI := f.ConstValue(Int, constant.MakeInt64(0))
	oneI := f.ConstValue(Int, constant.MakeInt64(1))
	entry.Jump(head)
	s := head.NewValue(ir.OpPhi, Float64)
	s.Name = "s"
	i := head.NewValue(ir.OpPhi, Int)
	i.Name = "i"
	n := head.NewValue(ir.OpLen, Int, x)
	lt := head.NewValue(ir.OpBinary, Bool, i, n)
	lt.Tok = token.LSS
	head.If(lt, body, done)
	addr := body.NewValue(ir.OpIndexAddr, types.NewPointer(Float64), x, i)
	xi := body.NewValue(ir.OpLoad, Float64, addr)
	sq := body.NewValue(ir.OpBinary, Float64, xi, xi)
	sq.Tok = token.MUL
	s2 := body.NewValue(ir.OpBinary, Float64, s, sq)
	s2.Tok = token.ADD
	s2.Name = "s"
	i2 := body.NewValue(ir.OpBinary, Int, i, oneI)
	i2.Tok = token.ADD
	body.Jump(head)
	s.Args = []*ir.Value{zeroF, s2}
	i.Args = []*ir.Value{zeroI, i2}
	done.Return(s)
	return f
}
