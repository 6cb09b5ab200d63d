package simplify_test

import (
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"math"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ir/interp"
	"github.com/gadgen/gadgen/simplify"
)

var pkg = types.NewPackage("example.com/p", "p")

// specials are the float64 values every exactness test runs on.
var specials = []float64{0, math.Copysign(0, -1), 1, -1.5, 3, math.Inf(1), math.Inf(-1), math.NaN(), 1e308, 5e-324}

// count returns how many values of f have op.
func count(f *ir.Func, op ir.Op) int {
	n := 0
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op == op {
				n++
			}
		}
	}
	return n
}

// interpOK fails t when err is an error of the interpreter itself (the
// IR or the arguments ill-formed, something it cannot run, a step limit):
// only a panic of the program is an outcome two runs can share, and two
// runs that both fail so compare nothing.
func interpOK(t *testing.T, what string, errs ...error) {
	t.Helper()
	for _, err := range errs {
		if e, ok := err.(*interp.Error); ok && e.Kind != interp.Panic {
			t.Fatalf("%s: %v", what, err)
		}
	}
}

// sameResults runs before and after on every pair of specials and
// requires bit-identical results.
func sameResults(t *testing.T, before, after *ir.Func, nargs int) {
	t.Helper()
	m := &interp.Machine{}
	args := make([]interp.Value, nargs)
	var rec func(k int)
	rec = func(k int) {
		if k == nargs {
			r1, err1 := m.Call(before, args...)
			r2, err2 := m.Call(after, args...)
			interpOK(t, fmt.Sprintf("args %v", args), err1, err2)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("args %v: errors %v and %v", args, err1, err2)
			}
			if !interp.Identical(interp.Tuple(r1), interp.Tuple(r2)) {
				t.Errorf("args %v: before %s, after %s\n%s", args, interp.Format(interp.Tuple(r1)), interp.Format(interp.Tuple(r2)), after)
			}
			return
		}
		for _, x := range specials {
			args[k] = x
			rec(k + 1)
		}
	}
	rec(0)
}

// TestAlgebraExact builds, for each rule, a function its pattern matches,
// checks that the rule rewrites it, and that the result is bit-identical
// on NaN, infinities, signed zeros and extremes.
func TestAlgebraExact(t *testing.T) {
	f64 := irtest.Float64
	cases := []struct {
		name  string
		build func(b *irtest.Builder, x, y *ir.Value) *ir.Value
		want  string // a line the rewritten function must contain
	}{
		{"neg neg", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Bin(token.ADD, b.Un(token.SUB, b.Un(token.SUB, x)), y)
		}, "binary + v1:x v2:y"},
		{"x - (-y)", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Bin(token.SUB, x, b.Un(token.SUB, y))
		}, "binary + v1:x v2:y"},
		{"x + (-y)", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Bin(token.ADD, x, b.Un(token.SUB, y))
		}, "binary - v1:x v2:y"},
		{"(-x) + y", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Bin(token.ADD, b.Un(token.SUB, x), y)
		}, "binary - v2:y v1:x"},
		{"x * (-y)", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Bin(token.MUL, x, b.Un(token.SUB, y))
		}, "binary * v1:x v2:y"},
		{"(-x) / y", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Bin(token.QUO, b.Un(token.SUB, x), y)
		}, "binary / v1:x v2:y"},
		{"(-x) * (-y)", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Bin(token.MUL, b.Un(token.SUB, x), b.Un(token.SUB, y))
		}, "binary * v1:x v2:y"},
		{"x*y + y*x", func(b *irtest.Builder, x, y *ir.Value) *ir.Value {
			return b.Bin(token.ADD, b.Bin(token.MUL, x, y), b.Bin(token.MUL, y, x))
		}, "binary * 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mk := func() *ir.Func {
				b := irtest.NewBuilder("F", pkg)
				x, y := b.Param("x", f64), b.Param("y", f64)
				b.F.AddResult("", f64)
				b.B.Return(tc.build(b, x, y))
				return b.F
			}
			before, after := mk(), mk()
			simplify.Run(after, []simplify.Pass{{Name: "algebra", Fn: simplify.Local(simplify.Algebra)}}, simplify.Config{Optimize: true, Check: true})
			if !strings.Contains(after.String(), tc.want) {
				t.Errorf("rule did not apply: want %q in\n%s", tc.want, after)
			}
			sameResults(t, before, after, 2)
		})
	}
}

func mathFunc(t *testing.T, name string) *types.Func {
	m, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("math")
	if err != nil {
		t.Fatal(err)
	}
	return m.Scope().Lookup(name).(*types.Func)
}

// TestCSE: x[i]*x[i] loads once, and sin x computed twice is computed once.
func TestCSE(t *testing.T) {
	f64, sl := irtest.Float64, types.NewSlice(irtest.Float64)
	sin := mathFunc(t, "Sin")
	mk := func() *ir.Func {
		b := irtest.NewBuilder("F", pkg)
		xs, y := b.Param("xs", sl), b.Param("y", f64)
		b.F.AddResult("", f64)
		i := b.Int(0)
		a := b.Load(b.IndexAddr(xs, i))
		c := b.Load(b.IndexAddr(xs, i))
		s1, s2 := b.Call(sin, y), b.Call(sin, y)
		b.B.Return(b.Bin(token.ADD, b.Bin(token.MUL, a, c), b.Bin(token.MUL, s1, s2)))
		return b.F
	}
	f := mk()
	simplify.Run(f, []simplify.Pass{{Name: "cse", Fn: simplify.CSE}}, simplify.Config{Optimize: true, Check: true})
	if n := count(f, ir.OpLoad); n != 1 {
		t.Errorf("%d loads after CSE, want 1:\n%s", n, f)
	}
	if n := count(f, ir.OpCall); n != 1 {
		t.Errorf("%d calls after CSE, want 1:\n%s", n, f)
	}
	m := &interp.Machine{}
	for _, y := range specials {
		xs := interp.FromGo([]float64{1.5})
		r1, err1 := m.Call(mk(), xs, y)
		r2, err2 := m.Call(f, interp.FromGo([]float64{1.5}), y)
		if err1 != nil || err2 != nil {
			t.Fatalf("y=%v: %v; %v", y, err1, err2)
		}
		if !interp.Identical(interp.Tuple(r1), interp.Tuple(r2)) {
			t.Errorf("y=%v: %v vs %v", y, r1, r2)
		}
	}
}

// TestCSEStoreBetween: a store between two loads of the same address
// keeps both.
func TestCSEStoreBetween(t *testing.T) {
	f64, sl := irtest.Float64, types.NewSlice(irtest.Float64)
	b := irtest.NewBuilder("F", pkg)
	xs, y := b.Param("xs", sl), b.Param("y", f64)
	b.F.AddResult("", f64)
	i := b.Int(0)
	a := b.Load(b.IndexAddr(xs, i))
	b.Store(b.IndexAddr(xs, i), y)
	c := b.Load(b.IndexAddr(xs, i))
	b.B.Return(b.Bin(token.ADD, a, c))
	simplify.Run(b.F, []simplify.Pass{{Name: "cse", Fn: simplify.CSE}}, simplify.Config{Optimize: true, Check: true})
	if n := count(b.F, ir.OpLoad); n != 2 {
		t.Errorf("%d loads, want 2:\n%s", n, b.F)
	}
}

// TestPromote: the local copy go/ssa makes of a struct parameter becomes
// field reads of the parameter.
func TestPromote(t *testing.T) {
	f64 := irtest.Float64
	st := types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, pkg, "A", f64, false),
		types.NewField(token.NoPos, pkg, "B", f64, false),
	}, nil)
	b := irtest.NewBuilder("F", pkg)
	p := b.Param("p", st)
	b.F.AddResult("", f64)
	a := b.Alloc("p", st, false)
	b.Store(a, p)
	x := b.Load(b.FieldAddr(a, 0))
	y := b.Load(b.FieldAddr(a, 1))
	b.B.Return(b.Bin(token.MUL, x, y))
	simplify.Run(b.F, []simplify.Pass{{Name: "promote", Fn: simplify.Local(simplify.PromoteReadOnly)}}, simplify.Config{Optimize: true, Check: true})
	if count(b.F, ir.OpAlloc) != 0 || count(b.F, ir.OpField) != 2 {
		t.Errorf("not promoted:\n%s", b.F)
	}
}

// TestRemat: i+1 used twice is computed at each use.
func TestRemat(t *testing.T) {
	sl := types.NewSlice(irtest.Float64)
	b := irtest.NewBuilder("F", pkg)
	xs, ys := b.Param("xs", sl), b.Param("ys", sl)
	i := b.Param("i", irtest.Int)
	b.F.AddResult("", irtest.Float64)
	j := b.Bin(token.ADD, i, b.Int(1))
	b.B.Return(b.Bin(token.ADD, b.Load(b.IndexAddr(xs, j)), b.Load(b.IndexAddr(ys, j))))
	simplify.Run(b.F, []simplify.Pass{{Name: "remat", Fn: simplify.Local(simplify.Rematerialize)}}, simplify.Config{Optimize: true, Check: true})
	adds := 0
	for _, v := range b.F.Blocks[0].Instrs {
		if v.Op == ir.OpBinary && v.Type == irtest.Int {
			adds++
		}
	}
	if adds != 2 {
		t.Errorf("%d copies of i+1, want 2:\n%s", adds, b.F)
	}
}

// TestPipelineOrder: the constraints of the ordering table hold in every
// pipeline that runs both of their passes, and each constraint is checked
// in at least one (a constraint naming a pass no pipeline runs, or two
// passes no pipeline runs together, holds vacuously: a misspelling, or a
// constraint left behind).
func TestPipelineOrder(t *testing.T) {
	checked := make([]bool, len(simplify.Order))
	for _, pl := range [][]simplify.Pass{simplify.Primal, simplify.Derivative, simplify.Final} {
		pos := map[string][]int{}
		for i, p := range pl {
			pos[p.Name] = append(pos[p.Name], i)
		}
		for k, c := range simplify.Order {
			b, a := pos[c.Before], pos[c.After]
			if len(b) == 0 || len(a) == 0 {
				continue
			}
			checked[k] = true
			if b[0] > a[len(a)-1] {
				t.Errorf("%s must run before %s (%s)", c.Before, c.After, c.Why)
			}
		}
		if pl[len(pl)-1].Name != "deadcode" || !pl[len(pl)-1].Required {
			t.Errorf("a pipeline must end with the required deadcode pass")
		}
	}
	for k, c := range simplify.Order {
		if !checked[k] {
			t.Errorf("no pipeline runs both %s and %s: the constraint (%s) checks nothing", c.Before, c.After, c.Why)
		}
	}
}
