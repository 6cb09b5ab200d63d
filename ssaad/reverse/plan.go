package reverse

// This file prints the transformer's plan: what its analyses decided
// before the sweeps are built, as gadgen's -dump=F shows it (stage
// "plan") and the tests snapshot. The sweeps follow it: the forward sweep
// records, at the end of each block, the values listed for it, and the
// reverse sweep recomputes, reloads or rebuilds the others.

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// planText returns the plan of the function being differentiated: the
// loops reversed by their index, the classes of memory restored, and per
// block the values recorded (with the tape type), recomputed, read back
// from memory (see reloadStore), the stores that record what they
// overwrite, and the calls reversed jointly with the arguments whose
// memory is saved before them.
func (t *transformer) planText() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "plan of %s:\n", t.primal.Name)
	for _, c := range t.countedLoops() {
		last := "recorded at its exit"
		if c.closed {
			last = "computed from " + c.bound.Ref()
		}
		fmt.Fprintf(&sb, "  loop b%d (%s): reversed by its index, from its last (%s) back to %s\n", c.header.Index, c.header.Comment, last, c.init.Ref())
	}
	if fl := t.fused; fl != nil {
		fmt.Fprintf(&sb, "  loop b%d (%s): reversed inside its forward, iteration by iteration\n", fl.c.header.Index, fl.c.header.Comment)
	}
	for _, b := range t.primal.Blocks {
		if l := t.revolve[b]; l != nil {
			fmt.Fprintf(&sb, "  loop b%d (%s): checkpointed, %d calls a step\n", b.Index, b.Comment, len(l.calls))
		}
	}
	var restored []string
	for c := range t.restored {
		restored = append(restored, t.classRoots(c))
	}
	slices.Sort(restored)
	if len(restored) > 0 {
		fmt.Fprintf(&sb, "  restored memory: %s\n", strings.Join(restored, "; "))
	}
	var recomputed []string
	for _, b := range t.primal.Blocks {
		for _, v := range b.Instrs {
			if t.recompute[v] && t.markRound[v] == t.round {
				recomputed = append(recomputed, v.Ref())
			}
		}
	}
	if len(recomputed) > 0 {
		fmt.Fprintf(&sb, "  recomputed in reverse: %s\n", strings.Join(recomputed, " "))
	}
	for _, b := range t.primal.Blocks {
		if !t.cfg.Reachable(b) {
			continue
		}
		var lines []string
		if needs := t.needs[b]; len(needs) > 0 {
			how := "records"
			if t.outOfLoops(b) {
				how = "keeps in variables"
			} else if t.revolveBody(b) != nil {
				how = "computes again from the checkpoints"
			}
			lines = append(lines, fmt.Sprintf("%s %s", how, refsTyped(needs)))
		}
		if h := b; t.cfg.LoopHeader[h.Index] && len(t.iterNeeds[h]) > 0 {
			lines = append(lines, "records once per iteration "+refsTyped(t.iterNeeds[h]))
		}
		for _, v := range b.Instrs {
			switch {
			case v.Op == ir.OpStore && t.restoredStore(v):
				line := "saves what " + v.Ref() + " overwrites"
				if t.reloadStore(v.Args[1]) == v {
					line += ", reads " + v.Args[1].Ref() + " back before putting it back"
				}
				lines = append(lines, line)
			case v.Op == ir.OpCall && t.splitCalls[v]:
				lines = append(lines, fmt.Sprintf("reverses %s %s in two halves (split)", v.Ref(), ir.FuncName(v.Callee.Func)))
			case v.Op == ir.OpCall && t.reversedCall(v):
				line := fmt.Sprintf("reverses %s %s jointly", v.Ref(), ir.FuncName(v.Callee.Func))
				var saved []string
				for i, a := range v.Args {
					if t.needsSnapshot(v, i) {
						saved = append(saved, a.Ref())
					}
				}
				if len(saved) > 0 {
					line += ", saving the memory of " + strings.Join(saved, " ")
				}
				lines = append(lines, line)
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(&sb, "  b%d (%s): %s\n", b.Index, b.Comment, strings.Join(lines, "; "))
		}
	}
	return sb.String()
}

// classRoots names class c of memory by the parameters and allocations
// of the primal in it.
func (t *transformer) classRoots(c int) string {
	var roots []string
	add := func(v *ir.Value) {
		if ssaad.IsPointerLike(v.Type) && t.act.Class(v) == c {
			roots = append(roots, v.Ref())
		}
	}
	for _, p := range t.primal.Params {
		add(p)
	}
	for _, b := range t.primal.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpAlloc || v.Op == ir.OpMakeSlice {
				add(v)
			}
		}
	}
	if len(roots) == 0 {
		return fmt.Sprintf("class %d", c)
	}
	return strings.Join(roots, " ")
}

// refsTyped lists vs by reference, each followed by its type when it is
// not float64.
func refsTyped(vs []*ir.Value) string {
	var out []string
	for _, v := range vs {
		s := v.Ref()
		if !types.Identical(v.Type, types.Typ[types.Float64]) {
			s += " (" + types.TypeString(v.Type, func(p *types.Package) string { return p.Name() }) + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}
