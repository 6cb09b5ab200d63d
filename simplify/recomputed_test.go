package simplify_test

import (
	"go/types"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
)

// TestDropRecomputed: a recomputed call (ir.Callee.Recomputed) whose
// result nothing reads and whose callee writes nothing goes, with the
// slice that only fed it; the same call read, not marked, or of a callee
// that writes its argument stays.
func TestDropRecomputed(t *testing.T) {
	env := newTestEnv()
	f64s := types.NewSlice(irtest.Float64)
	sum := env.add(func() *ir.Func { // sum(s) = s[0], reads s only
		b := irtest.NewBuilder("sum", pkg)
		s := b.Param("s", f64s)
		b.Result(irtest.Float64)
		b.Return(b.Load(b.IndexAddr(s, b.Int(0))))
		return b.F
	})
	zero := env.add(func() *ir.Func { // zero(s) sets s[0] = 0 and returns 0
		b := irtest.NewBuilder("zero", pkg)
		s := b.Param("s", f64s)
		b.Result(irtest.Float64)
		b.Store(b.IndexAddr(s, b.Int(0)), b.Float(0))
		b.Return(b.Float(0))
		return b.F
	})
	for _, c := range []struct {
		name             string
		recomputed, read bool
		kept             bool
	}{
		{name: "dropped", recomputed: true, kept: false},
		{name: "read", recomputed: true, read: true, kept: true},
		{name: "not recomputed", kept: true},
		{name: "writes", recomputed: true, kept: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := irtest.NewBuilder("f", pkg)
			x := b.Param("x", f64s)
			b.Result(irtest.Float64)
			callee := sum
			if c.name == "writes" {
				callee = zero
			}
			call := b.Call(callee, b.Slice(x, b.Int(1), nil, nil))
			call.Callee.Recomputed = c.recomputed
			if c.read {
				b.Return(call)
			} else {
				b.Return(b.Float(1))
			}
			f := b.F
			simplify.DropRecomputed(f, env)
			if err := ir.Check(f); err != nil {
				t.Fatal(err)
			}
			if got := count(f, ir.OpCall) == 1; got != c.kept {
				t.Errorf("call kept: %v, want %v:\n%s", got, c.kept, f)
			}
			if !c.kept && count(f, ir.OpSlice) != 0 {
				t.Errorf("the slice that fed the call stays:\n%s", f)
			}
		})
	}
}
