package simplify_test

import (
	"go/token"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
)

// TestSink: a value computed before a loop and read once after it moves
// to its reader, with the values only it reads; one read in the loop, one
// named after a source variable and one whose operand would stay behind
// (a call that cannot move) stay.
func TestSink(t *testing.T) {
	b := irtest.NewBuilder("f", pkg)
	x := b.Param("x", f64)
	n := b.Param("n", irtest.Int)
	xs := b.Param("xs", slice)
	b.Result(f64)
	half := b.Mul(x, b.Float(0.5))           // read after the loop: moves
	scaled := b.Mul(half, b.Convert(f64, n)) // reads half: moves with it
	inLoop := b.Add(x, b.Float(1))           // read in the loop: stays
	named := b.Mul(x, b.Float(3))            // named: stays
	named.Name = "c"
	first := b.Load(b.IndexAddr(xs, b.Int(0))) // a load cannot follow
	behind := b.Add(first, b.Float(2))         // would leave first behind: stays
	s := loop(b, n, b.Float(0), func(i, s *ir.Value) *ir.Value {
		return b.Add(s, inLoop)
	})
	b.Return(b.Add(b.Add(b.Add(s, scaled), named), behind))
	f := b.F
	exit := b.B
	simplify.Sink(f, nil)
	if err := ir.Check(f); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		v     *ir.Value
		moved bool
	}{
		{"half", half, true}, {"scaled", scaled, true}, {"inLoop", inLoop, false},
		{"named", named, false}, {"behind", behind, false},
	} {
		if got := c.v.Block == exit; got != c.moved {
			t.Errorf("%s moved to the loop's exit: %v, want %v\n%s", c.name, got, c.moved, f)
		}
	}
}

// TestSinkLoads: in one block, a load of a number moves past a store and
// an append into other memory down to the sum that reads it, for the store
// of the sum, and not past a store into its own memory.
func TestSinkLoads(t *testing.T) {
	for _, c := range []struct {
		name  string
		same  bool
		moved bool
	}{
		{"other memory", false, true},
		{"its memory", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := irtest.NewBuilder("f", pkg)
			xs := b.Param("xs", slice)
			b.Result(f64)
			buf := b.MakeSlice(slice, b.Int(4), nil)
			tape := b.MakeSlice(slice, b.Int(0), b.Int(4))
			v := b.Load(b.IndexAddr(xs, b.Int(0)))
			dst := buf
			if c.same {
				dst = xs
			}
			b.Store(b.IndexAddr(dst, b.Int(1)), b.Float(0))
			grown := b.CallBuiltin("append", slice, tape, b.Float(1))
			r := b.Bin(token.ADD, v, b.Load(b.IndexAddr(grown, b.Int(0))))
			b.Store(b.IndexAddr(buf, b.Int(2)), r)
			b.Return(b.Float(0))
			f := b.F
			simplify.Sink(f, nil)
			if err := ir.Check(f); err != nil {
				t.Fatal(err)
			}
			instrs := f.Entry().Instrs
			at := 0
			for i, w := range instrs {
				if w == v {
					at = i
				}
			}
			if got := instrs[at+1] == r; got != c.moved {
				t.Errorf("load moved to its reader: %v, want %v\n%s", got, c.moved, f)
			}
		})
	}
}
