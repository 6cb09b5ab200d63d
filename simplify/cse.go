package simplify

// This file defines common-subexpression elimination by dominator-based
// value numbering (Briggs, Cooper & Simpson, "Value Numbering", 1997, the
// dominator-tree variant): a pure value equal to one computed in a
// dominating position is replaced by it. Loads, and calls that only read
// memory, are numbered too, within an extended basic block, until a store
// or a call that may write their memory. go/ssa does no
// CSE (x[i] used twice is two IndexAddr+Load pairs), and the derivative
// rules recompute primal subexpressions (cos x in the tangent of sin x
// next to cos x of the primal): this pass makes both one value.

import (
	"fmt"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/ir"
)

// CSE replaces pure values and loads that repeat an available one. A
// load, or a call that only reads memory, is available until something
// that may write its memory (alias classes, alias.go): through the rest
// of its block, and into a block whose only predecessor is its block. A
// call of a function that neither reads nor writes memory (its Effects,
// from env) is a pure value.
func CSE(f *ir.Func, env Env) {
	cfg := ir.NewCFG(f)
	mem := newMemory(f, env, true)
	uses := ir.Uses(f)
	avail := map[string]*ir.Value{}
	repl := map[*ir.Value]*ir.Value{}
	// cheap holds the structural keys of the cheap index values, which
	// stay apart (x[i+1] reads better than t := i + 1) but stand in the
	// keys of their uses for what they compute: two (2*k+1)*b are one.
	cheap := map[*ir.Value]string{}
	key := func(v *ir.Value) string {
		return keyWith(v, func(a *ir.Value) (string, bool) {
			k, ok := cheap[a]
			return k, ok
		})
	}
	var walk func(b *ir.Block, loads map[string]memRead)
	walk = func(b *ir.Block, loads map[string]memRead) {
		var added []string
		for _, v := range b.Instrs {
			for i, a := range v.Args {
				if r, ok := repl[a]; ok {
					v.Args[i] = r
				}
			}
			switch {
			case v.Op == ir.OpLoad || v.Op == ir.OpCall && readOnlyCall(v, env):
				k := key(v)
				if w, ok := loads[k]; ok {
					repl[v] = w.v
					continue
				}
				loads[k] = memRead{v, readClasses(v, mem, env)}
			case v.Op == ir.OpStore:
				c := mem.class(v.Args[0])
				for k, r := range loads {
					if r.classes[c] && (r.v.Op != ir.OpLoad || typesOverlap(r.v.Type, v.Args[1].Type)) {
						delete(loads, k)
					}
				}
			case v.Op == ir.OpCall && !isPure(v) && !pureCall(v, env):
				kill(loads, writeClasses(v, mem, env))
			case pureOp(v) && cheapIndex(v):
				k := key(v)
				cheap[v] = k
				// Two of them used more than once would be two variables
				// holding one value (t2 := n - 1; t3 := n - 1): one.
				ck := "cheap " + k
				if w, ok := avail[ck]; ok && len(uses[v.ID]) > 1 {
					repl[v] = w
					continue
				}
				if len(uses[v.ID]) > 1 {
					avail[ck] = v
					added = append(added, ck)
				}
			case pureOp(v) || v.Op == ir.OpCall && pureCall(v, env):
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
			inherited := map[string]memRead{}
			if len(c.Preds) == 1 && c.Preds[0] == b {
				for k, r := range loads {
					inherited[k] = r
				}
			}
			walk(c, inherited)
		}
		for _, k := range added {
			delete(avail, k)
		}
	}
	walk(f.Blocks[0], map[string]memRead{})
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
	// A replaced call is no longer needed, though DeadCode cannot tell:
	// it repeats one that returned.
	for _, b := range f.Blocks {
		b.Instrs = slices.DeleteFunc(b.Instrs, func(v *ir.Value) bool {
			_, ok := repl[v]
			return ok && v.Op == ir.OpCall
		})
	}
	DeadCode(f)
}

// memRead is an available load or read-only call and the alias classes
// it reads.
type memRead struct {
	v       *ir.Value
	classes map[int]bool
}

// kill forgets the reads of any of the classes written.
func kill(loads map[string]memRead, written map[int]bool) {
	for k, r := range loads {
		for c := range r.classes {
			if written[c] {
				delete(loads, k)
				break
			}
		}
	}
}

// readClasses returns the alias classes load or call v reads.
func readClasses(v *ir.Value, mem *memory, env Env) map[int]bool {
	cs := map[int]bool{}
	if v.Op == ir.OpLoad {
		cs[mem.class(v.Args[0])] = true
		return cs
	}
	e := callEffects(v, env)
	for i, a := range v.Args {
		if c := mem.class(a); c >= 0 && e.Reads[i] {
			cs[c] = true
		}
	}
	if e.ReadsGlobal {
		cs[mem.find(globalNode)] = true
	}
	return cs
}

// writeClasses returns the alias classes call v may write.
func writeClasses(v *ir.Value, mem *memory, env Env) map[int]bool {
	cs := map[int]bool{}
	e := callEffects(v, env)
	for i, a := range v.Args {
		if c := mem.class(a); c >= 0 && e.Writes[i] {
			cs[c] = true
		}
	}
	if e.WritesGlobal {
		cs[mem.find(globalNode)] = true
	}
	return cs
}

// pureCall reports whether call v of a function of the program (not a
// primitive, not a builtin) reads and writes no memory and returns none: two
// such calls with equal arguments give equal results.
func pureCall(v *ir.Value, env Env) bool {
	if v.Callee.Func == nil || v.Callee.Builtin != "" || isPure(v) || v.Type == nil || refersToMemory(v) {
		return false
	}
	e := callEffects(v, env)
	if !e.WritesNothing() || e.ReadsGlobal {
		return false
	}
	for _, r := range e.Reads {
		if r {
			return false
		}
	}
	return true
}

// readOnlyCall reports whether call v of a function of the program reads
// memory but writes none and returns no memory: like a load, it gives the
// same result again until its memory is written.
func readOnlyCall(v *ir.Value, env Env) bool {
	if v.Callee.Func == nil || v.Callee.Builtin != "" || isPure(v) || v.Type == nil || refersToMemory(v) || pureCall(v, env) {
		return false
	}
	return callEffects(v, env).WritesNothing()
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
// without effects, so that two such values with equal keys are equal: its
// op is pure (ir.OpInfo.Pure), or it is a call of a pure function.
func pureOp(v *ir.Value) bool {
	return v.Op.Info().Pure || v.Op == ir.OpCall && isPure(v)
}

// isPure reports whether call v has no effects and a result that depends
// on its arguments alone (ir.Callee.Pure).
func isPure(v *ir.Value) bool { return v.Callee.Pure() }

// keyWith returns a string that two values share exactly when they
// compute the same thing from the same arguments: an argument is named by
// sub's key when sub knows it (nil: none), else by its identity.
func keyWith(v *ir.Value, sub func(*ir.Value) (string, bool)) string {
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
			if sub != nil {
				if k, ok := sub(a); ok {
					sb.WriteString("(" + k + ")")
					continue
				}
			}
			fmt.Fprintf(&sb, "v%d", a.ID)
		}
	}
	return sb.String()
}
