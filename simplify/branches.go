package simplify

// This file defines the removal of branches that decide nothing: an if
// whose two arms reach the same block through empty blocks, with no φ
// there to tell them apart (its arguments on both paths are the same),
// becomes a jump. Reverse mode makes such
// branches when the reverse of both arms of a primal if turns out empty
// (the branch reads a recorded "came from" value that nothing else reads).

import "github.com/gadgen/gadgen/ir"

// emptyBranches replaces the branches of f that decide nothing with jumps
// and removes the blocks no longer reached. It reports whether it changed
// anything.
func emptyBranches(f *ir.Func) bool {
	changed := false
	for _, b := range f.Blocks {
		term := b.Terminator()
		if term == nil || term.Op != ir.OpIf {
			continue
		}
		to, p0 := throughEdge(b.Succs[0], b)
		to1, p1 := throughEdge(b.Succs[1], b)
		if to != to1 {
			continue
		}
		// The φs of to must not tell the two paths apart. When both
		// paths enter to from one block, they merge there: b jumps to
		// that block, which has no φ, being empty.
		var args []*ir.Value
		if to.HasPhi() {
			if p0 == p1 {
				if p0 == b {
					continue
				}
				to = p0
			} else {
				i0, i1 := to.PredIndex(p0), to.PredIndex(p1)
				same := true
				for _, v := range to.Instrs {
					if v.Op != ir.OpPhi {
						break
					}
					same = same && v.Args[i0] == v.Args[i1]
					args = append(args, v.Args[i0])
				}
				if !same {
					continue
				}
			}
		}
		for _, s := range b.Succs {
			if i := s.PredIndex(b); i >= 0 {
				s.RemovePred(i)
			}
		}
		b.Succs = nil
		b.Instrs = b.Instrs[:len(b.Instrs)-1]
		b.Jump(to)
		for k, a := range args {
			to.Instrs[k].Args = append(to.Instrs[k].Args, a)
		}
		changed = true
	}
	if changed {
		removeUnreachable(f)
	}
	return changed
}

// empty reports whether b holds only a jump.
func empty(b *ir.Block) bool {
	return len(b.Instrs) == 1 && b.Instrs[0].Op == ir.OpJump
}

// throughEdge returns the block that b, a successor of from, leads to
// through empty blocks, and its predecessor on that path.
func throughEdge(b, from *ir.Block) (to, pred *ir.Block) {
	seen := map[*ir.Block]bool{}
	pred = from
	for empty(b) && !seen[b] {
		seen[b] = true
		pred, b = b, b.Succs[0]
	}
	return b, pred
}

// removeUnreachable removes the blocks that the entry no longer reaches.
func removeUnreachable(f *ir.Func) {
	reached := map[*ir.Block]bool{}
	work := []*ir.Block{f.Entry()}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if reached[b] {
			continue
		}
		reached[b] = true
		work = append(work, b.Succs...)
	}
	kept := f.Blocks[:0]
	for _, b := range f.Blocks {
		if reached[b] {
			kept = append(kept, b)
			continue
		}
		for _, s := range b.Succs {
			for {
				i := s.PredIndex(b)
				if i < 0 {
					break
				}
				s.RemovePred(i)
			}
		}
	}
	for i := len(kept); i < len(f.Blocks); i++ {
		f.Blocks[i] = nil
	}
	f.Blocks = kept
	f.Renumber()
}
