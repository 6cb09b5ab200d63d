package simplify

// This file defines common-subexpression elimination by dominator-based
// value numbering (Briggs, Cooper & Simpson, "Value Numbering", 1997, the
// dominator-tree variant): a pure value equal to one computed in a
// dominating position is replaced by it. Loads are numbered too, within a
// block, until a store or a call that may write memory. go/ssa does no
// CSE (x[i] used twice is two IndexAddr+Load pairs), and the derivative
// rules recompute primal subexpressions (cos x in the tangent of sin x
// next to cos x of the primal): this pass makes both one value.

import (
	"fmt"
	"go/constant"
	"go/types"
	"strings"

	"github.com/gadgen/gadgen/ir"
)

// CSE replaces pure values and loads that repeat an available one.
func CSE(f *ir.Func) {
	cfg := ir.NewCFG(f)
	avail := map[string]*ir.Value{}
	repl := map[*ir.Value]*ir.Value{}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		var added []string
		loads := map[string]*ir.Value{}
		for _, v := range b.Instrs {
			for i, a := range v.Args {
				if r, ok := repl[a]; ok {
					v.Args[i] = r
				}
			}
			switch {
			case v.Op == ir.OpLoad:
				k := key(v)
				if w, ok := loads[k]; ok {
					repl[v] = w
					continue
				}
				loads[k] = v
			case v.Op == ir.OpStore || v.Op == ir.OpCall && !isPure(v):
				clear(loads)
			case pureOp(v) && !cheapIndex(v):
				k := key(v)
				if w, ok := avail[k]; ok {
					repl[v] = w
					continue
				}
				avail[k] = v
				added = append(added, k)
			}
		}
		for _, c := range cfg.Children[b.Index] {
			walk(c)
		}
		for _, k := range added {
			delete(avail, k)
		}
	}
	walk(f.Blocks[0])
	// φ arguments may come from later blocks.
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			for i, a := range v.Args {
				if r, ok := repl[a]; ok {
					v.Args[i] = r
				}
			}
		}
	}
	for old, new := range repl {
		if new.Name == "" {
			new.Name = old.Name
		}
	}
	DeadCode(f)
}

// cheapIndex reports whether v is integer arithmetic with a constant
// (i+1, 2*i): cheaper to recompute than to keep in a variable, and clearer
// in the generated code as x[i+1] and i++.
func cheapIndex(v *ir.Value) bool {
	if v.Op != ir.OpBinary || v.Type == nil {
		return false
	}
	b, ok := v.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && (v.Args[0].Op == ir.OpConst || v.Args[1].Op == ir.OpConst)
}

// pureOp reports whether v computes its result from its arguments alone,
// without effects, so that two such values with equal keys are equal.
func pureOp(v *ir.Value) bool {
	switch v.Op {
	case ir.OpBinary, ir.OpUnary, ir.OpConvert, ir.OpSelect, ir.OpField, ir.OpIndex,
		ir.OpFieldAddr, ir.OpIndexAddr, ir.OpLen, ir.OpCap, ir.OpExtract, ir.OpSlice, ir.OpGlobal:
		return true
	case ir.OpCall:
		return isPure(v)
	}
	return false
}

// isPure reports whether call v has no effects and a result that depends
// on its arguments alone: functions of package math and the builtins min,
// max, len and cap.
func isPure(v *ir.Value) bool {
	c := v.Callee
	switch {
	case c.Builtin != "":
		switch c.Builtin {
		case "min", "max", "len", "cap":
			return true
		}
		return false
	case c.Derived != nil:
		return c.Derived.Helper
	case c.Func != nil && !c.Invoke && c.Func.Pkg() != nil && c.Func.Pkg().Path() == "math":
		return true
	}
	return false
}

// key returns a string that two values share exactly when they compute
// the same thing from the same arguments.
func key(v *ir.Value) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d|%s|%d|%d|", v.Op, v.Tok, v.Index, len(v.Args))
	if v.Type != nil {
		sb.WriteString(v.Type.String())
	}
	if v.Callee != nil {
		sb.WriteString("|" + v.Callee.String())
	}
	if v.Global != nil {
		fmt.Fprintf(&sb, "|%p", v.Global)
	}
	for _, a := range v.Args {
		sb.WriteString("|")
		switch {
		case a == nil:
			sb.WriteString("nil")
		case a.Op == ir.OpConst:
			c := "zero"
			if a.Const != nil {
				c = a.Const.ExactString()
				if a.Const.Kind() == constant.Float || a.Const.Kind() == constant.Int {
					c = "n" + c
				}
			}
			fmt.Fprintf(&sb, "c:%s:%s", a.Type, c)
		default:
			fmt.Fprintf(&sb, "v%d", a.ID)
		}
	}
	return sb.String()
}
