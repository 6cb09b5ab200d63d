package ssaad

import (
	"fmt"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// AsPrimal prepares a generated derivative g to be differentiated in turn
// (the HVP is forward mode over a gradient): the calls of other generated
// functions become calls of their Go objects (ir.DerivedFunc.Obj), which
// a mode differentiates like any function, asking Env for their
// derivatives; and reverse mode's calls slices.Grow(s, n), which grow its
// tapes, become s2 := append(s, make([]T, n)...)[:len(s)], with the same
// length and contents and room for n more, which every mode
// differentiates (append and slicing act on shadows alike), and
// slices.Clone(s), with which it restores overwritten slices, becomes
// append(s[:0:0], s...). Calls of templates' helpers stay as they are.
func AsPrimal(g *ir.Func) error {
	intT := types.Typ[types.Int]
	for _, b := range g.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			v := b.Instrs[i]
			if v.Op != ir.OpCall {
				continue
			}
			c := v.Callee
			if d := c.Derived; d != nil {
				if d.Obj != nil {
					v.Callee = &ir.Callee{Func: d.Obj, Spread: c.Spread}
				}
				continue
			}
			if c.Func == nil || c.Func.Pkg() == nil || c.Func.Pkg().Path() != "slices" {
				continue
			}
			if c.Func.Name() == "Clone" && len(v.Args) == 1 {
				// slices.Clone(s), which reverse mode's restores of
				// overwritten slices call: append(s[:0:0], s...).
				s := v.Args[0]
				zero := g.Int(0)
				empty := g.NewValue(ir.OpSlice, s.Type, s, zero, zero, zero)
				b.Insert(i, empty)
				i++
				v.Callee = &ir.Callee{Builtin: "append", Spread: true}
				v.Args = []*ir.Value{empty, s}
				continue
			}
			if c.Func.Name() != "Grow" {
				continue
			}
			if len(v.Args) != 2 {
				return fmt.Errorf("%s: slices.Grow with %d arguments", g.Name, len(v.Args))
			}
			s, n := v.Args[0], v.Args[1]
			mk := g.NewValue(ir.OpMakeSlice, s.Type, n, nil)
			ap := g.NewValue(ir.OpCall, s.Type, s, mk)
			ap.Callee = &ir.Callee{Builtin: "append", Spread: true}
			ln := g.NewValue(ir.OpLen, intT, s)
			for k, w := range []*ir.Value{mk, ap, ln} {
				b.Insert(i+k, w)
			}
			i += 3
			v.Op, v.Args, v.Callee = ir.OpSlice, []*ir.Value{ap, nil, ln, nil}, nil
		}
	}
	return ir.Check(g)
}
