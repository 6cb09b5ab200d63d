package simplify

// This file defines the removal of recomputed calls that nothing needs.
// Joint reversal calls a callee's reverse after the caller has run the
// callee; the reverse's forward sweep runs the callee's body again, calls
// included, on the same arguments and memory (reverse mode marks those
// calls ir.Callee.Recomputed). A call there whose results nothing reads
// and whose callee writes nothing did its work the first time: it cannot
// panic (it returned before) and changes nothing, so it goes, with the
// slicing and arithmetic that only fed it (dead code). Elsewhere such a
// call stays: it may panic, which the program may rely on.

import (
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// DropRecomputed removes the recomputed calls (ir.Callee.Recomputed) of f
// whose results are unread and whose callees write neither their
// arguments' memory nor package-level variables (env's summaries).
func DropRecomputed(f *ir.Func, env Env) {
	uses := ir.Uses(f)
	drop := map[*ir.Value]bool{}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpCall || v.Callee == nil || !v.Callee.Recomputed || !callEffects(v, env).WritesNothing() {
				continue
			}
			extracts, unread := []*ir.Value{}, true
			for _, u := range uses[v.ID] {
				if u.Op != ir.OpExtract || len(uses[u.ID]) > 0 {
					unread = false
					break
				}
				extracts = append(extracts, u)
			}
			if unread {
				drop[v] = true
				for _, x := range extracts {
					drop[x] = true
				}
			}
		}
	}
	if len(drop) == 0 {
		return
	}
	for _, b := range f.Blocks {
		b.Instrs = slices.DeleteFunc(b.Instrs, func(v *ir.Value) bool { return drop[v] })
	}
	DeadCode(f)
}
