package simplify

// This file defines the merging of straight-line chains of blocks: a
// block that ends in a jump to a block entered from it alone is one block
// with it. Inlining leaves such chains (the block of the call, split
// after it, the callee's blocks, the rest), and so does folding a
// constant branch. One block where there were three matters to reverse
// mode, which records at the end of each block what that block's reverse
// needs: a value two blocks of a chain need went on the tape twice (an
// LSTM cell with its sigmoids inlined recorded 14 values per unit where 8
// are needed).

import "github.com/gadgen/gadgen/ir"

// Straighten merges each block entered by a jump from a block that
// reaches it alone (not the entry, not itself) into that block; their φs
// have one argument, which replaces them.
func Straighten(f *ir.Func) {
	merged := false
	for _, b := range f.Blocks {
		for {
			term := b.Terminator()
			if term == nil || term.Op != ir.OpJump || len(b.Succs) != 1 {
				break
			}
			s := b.Succs[0]
			if s == b || s == f.Entry() || len(s.Preds) != 1 {
				break
			}
			b.Instrs = b.Instrs[:len(b.Instrs)-1] // the jump
			for _, v := range s.Instrs {
				if v.Op == ir.OpPhi {
					replaceUses(f, v, v.Args[0])
					continue
				}
				b.Append(v)
			}
			s.Instrs = nil
			b.Succs = s.Succs
			s.Succs, s.Preds = nil, nil
			for _, t := range b.Succs {
				for i, p := range t.Preds {
					if p == s {
						t.Preds[i] = b
					}
				}
			}
			merged = true
		}
	}
	if merged {
		removeUnreachable(f) // the merged blocks, emptied, entered from nowhere
	}
}
