package ir_test

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
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

// TestCheckFindsTypeErrors: values that break their op's type rule (op.go,
// typerules.go) are reported, each with the rule's message.
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
		{"call argument", func(f *ir.Func) {
			body := f.Blocks[2]
			c := body.NewValue(ir.OpCall, types.Typ[types.Float64], body.Instrs[4]) // g(i+1)
			c.Callee = &ir.Callee{Func: fn(pkg, false, types.Typ[types.Float64])}
			beforeTerminator(body)
		}, "call of example.com/p.g: argument 0 of type int for a parameter of type float64"},
		{"variadic call argument", func(f *ir.Func) {
			body := f.Blocks[2]
			c := body.NewValue(ir.OpCall, types.Typ[types.Float64], body.Instrs[3], body.Instrs[4]) // g(s, i+1)
			c.Callee = &ir.Callee{Func: fn(pkg, true, types.Typ[types.Float64])}
			beforeTerminator(body)
		}, "call of example.com/p.g: argument 1 of type int for a parameter of type float64"},
		{"call result", func(f *ir.Func) {
			body := f.Blocks[2]
			c := body.NewValue(ir.OpCall, types.Typ[types.Int], body.Instrs[3])
			c.Callee = &ir.Callee{Func: fn(pkg, false, types.Typ[types.Float64])}
			beforeTerminator(body)
		}, "call of example.com/p.g has type int, its result float64"},
		{"extract", func(f *ir.Func) {
			body := f.Blocks[2]
			c := body.NewValue(ir.OpCall, nil, body.Instrs[3])
			c.Callee = &ir.Callee{Func: fn(pkg, false, types.Typ[types.Float64], types.Typ[types.Int])}
			c.Type = c.Callee.Func.Signature().Results()
			beforeTerminator(body)
			x := body.NewValue(ir.OpExtract, types.Typ[types.Int], c)
			x.Index = 2
			beforeTerminator(body)
		}, "extract #2 from a tuple of 2"},
		{"builtin", func(f *ir.Func) {
			body := f.Blocks[2]
			c := body.NewValue(ir.OpCall, types.Typ[types.Float64], body.Instrs[3], body.Instrs[4]) // min(s, i+1)
			c.Callee = &ir.Callee{Builtin: "min"}
			beforeTerminator(body)
		}, "min of type float64 has an operand of type int"},
		{"load", func(f *ir.Func) {
			f.Blocks[2].Instrs[1].Type = types.Typ[types.Int]
		}, "load of float64 has type int"},
		{"load arity", func(f *ir.Func) {
			ld := f.Blocks[2].Instrs[1]
			ld.Args = append(ld.Args, ld.Args[0])
		}, "load takes 1 arguments, has 2"},
		{"indexaddr", func(f *ir.Func) {
			f.Blocks[2].Instrs[0].Type = types.NewPointer(types.Typ[types.Int])
		}, "address of an element of []float64 has type *int"},
		{"len", func(f *ir.Func) {
			f.Blocks[1].Instrs[2].Type = types.Typ[types.Float64]
		}, "len of type float64"},
		{"comparison", func(f *ir.Func) {
			f.Blocks[1].Instrs[3].Type = types.Typ[types.Int]
		}, "comparison < of type int"},
		{"arithmetic", func(f *ir.Func) {
			f.Blocks[2].Instrs[2].Type = types.Typ[types.Int]
		}, "* of float64 operands has type int"},
		{"operator", func(f *ir.Func) {
			f.Blocks[2].Instrs[4].Tok = token.LAND
		}, "&& of int operands"},
		{"constant", func(f *ir.Func) {
			f.Blocks[1].Instrs[0].Args[0] = f.ConstValue(types.Typ[types.Float64], constant.MakeBool(true))
		}, "constant true of type float64"},
		{"fraction", func(f *ir.Func) {
			f.Blocks[1].Instrs[1].Args[0] = f.ConstValue(types.Typ[types.Int], constant.MakeFloat64(0.5))
		}, "constant 0.5 of type int"},
		{"return", func(f *ir.Func) {
			ret := f.Blocks[3].Instrs[0]
			ret.Args[0] = f.Blocks[1].Instrs[1]
		}, "result 0 of type int for a result of type float64"},
		{"store with a type", func(f *ir.Func) {
			body := f.Blocks[2]
			body.NewValue(ir.OpStore, types.Typ[types.Float64], body.Instrs[0], body.Instrs[3])
			beforeTerminator(body)
		}, "store of type float64"},
		{"argument without result", func(f *ir.Func) {
			body := f.Blocks[2]
			st := body.NewValue(ir.OpStore, nil, body.Instrs[0], body.Instrs[3])
			beforeTerminator(body)
			body.NewValue(ir.OpUnary, types.Typ[types.Float64], st).Tok = token.SUB
			beforeTerminator(body)
		}, "argument 0, v18, has no result"},
		{"conversion", func(f *ir.Func) {
			body := f.Blocks[2]
			body.NewValue(ir.OpConvert, types.NewSlice(types.Typ[types.Int]), body.Instrs[3])
			beforeTerminator(body)
		}, "conversion of float64 to []int"},
		{"field", func(f *ir.Func) {
			st := types.NewStruct([]*types.Var{types.NewField(0, pkg, "X", types.Typ[types.Float64], false)}, nil)
			body := f.Blocks[2]
			a := body.NewValue(ir.OpAlloc, types.NewPointer(st))
			beforeTerminator(body)
			body.NewValue(ir.OpFieldAddr, types.NewPointer(types.Typ[types.Int]), a)
			beforeTerminator(body)
		}, "field 0 has type *float64, the value *int"},
		{"global", func(f *ir.Func) {
			body := f.Blocks[2]
			g := body.NewValue(ir.OpGlobal, types.Typ[types.Float64])
			g.Global = types.NewVar(0, pkg, "G", types.Typ[types.Float64])
			beforeTerminator(body)
		}, "global G of type float64 has type float64"},
		{"slice", func(f *ir.Func) {
			body := f.Blocks[2]
			body.NewValue(ir.OpSlice, types.NewSlice(types.Typ[types.Int]), f.Params[0], body.Instrs[4], nil, nil)
			beforeTerminator(body)
		}, "slice of []float64 has type []int"},
	} {
		f := irtest.SumSquares(pkg)
		tc.mutate(f)
		if err := ir.Check(f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// fn returns a function g of one float64 parameter (...float64 when
// variadic) and the given results.
func fn(pkg *types.Package, variadic bool, results ...types.Type) *types.Func {
	pt := types.Type(types.Typ[types.Float64])
	if variadic {
		pt = types.NewSlice(pt)
	}
	var res []*types.Var
	for _, r := range results {
		res = append(res, types.NewParam(0, pkg, "", r))
	}
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewParam(0, pkg, "x", pt)), types.NewTuple(res...), variadic)
	return types.NewFunc(0, pkg, "g", sig)
}

// beforeTerminator moves the last value of b, just added, before b's
// terminator.
func beforeTerminator(b *ir.Block) {
	n := len(b.Instrs)
	b.Instrs[n-2], b.Instrs[n-1] = b.Instrs[n-1], b.Instrs[n-2]
}

// TestCheckInvokeEmbedded: a method of an embedded interface called on the
// embedding interface has a receiver of the embedded type, to which the
// argument is assignable but not identical; Check accepts it, and rejects
// a receiver that lacks the method.
func TestCheckInvokeEmbedded(t *testing.T) {
	const src = `package p
type A interface{ M(x float64) float64 }
type B interface{ A; N() }
type C interface{ N() }
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := new(types.Config).Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, _, _ := types.LookupFieldOrMethod(pkg.Scope().Lookup("B").Type(), false, pkg, "M")
	for _, tc := range []struct {
		recv string
		want string
	}{
		{"B", ""},
		{"C", "call of invoke (p.A).M: argument 0 of type p.C for a parameter of type p.A"},
	} {
		b := irtest.NewBuilder("F", pkg)
		x := b.Param("x", pkg.Scope().Lookup(tc.recv).Type())
		b.Result(types.Typ[types.Float64])
		c := b.B.NewValue(ir.OpCall, types.Typ[types.Float64], x, b.Float(1))
		c.Callee = &ir.Callee{Func: m.(*types.Func), Invoke: true}
		b.Return(c)
		err := ir.Check(b.F)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("receiver %s: got %v, want %q", tc.recv, err, tc.want)
		}
	}
}
