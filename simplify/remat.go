package simplify

// This file defines rematerialization of cheap index arithmetic: an
// integer value such as i+1 or 2*i with several uses is recomputed at each
// use rather than held in a variable, as a person writes x[i+1] and
// dx[i+1] (Briggs, Cooper & Torczon, "Rematerialization", PLDI 1992).

import "github.com/gadgen/gadgen/ir"

// Rematerialize gives each use of a cheap integer expression of a
// parameter or φ (see cheapIndex) its own copy, placed just before the use
// (for a φ argument, at the end of the predecessor).
func Rematerialize(f *ir.Func) {
	uses := ir.Uses(f)
	for _, b := range f.Blocks {
		for _, v := range append([]*ir.Value(nil), b.Instrs...) {
			if v.ID >= len(uses) || !cheapIndex(v) || len(uses[v.ID]) < 2 || !stableOperands(v) {
				continue
			}
			// A loop's step (i+1 feeding the φ of i) stays one value: it
			// is the loop's post statement.
			feedsPhi := false
			for _, u := range uses[v.ID] {
				feedsPhi = feedsPhi || u.Op == ir.OpPhi
			}
			if feedsPhi {
				continue
			}
			for _, u := range uses[v.ID] {
				for i, a := range u.Args {
					if a != v {
						continue
					}
					at, pos := u.Block, -1
					if u.Op == ir.OpPhi {
						at = u.Block.Preds[i]
						pos = len(at.Instrs) - 1
					} else {
						pos = indexOf(at, u)
					}
					c := f.NewValue(v.Op, v.Type, v.Args...)
					c.Tok, c.Pos = v.Tok, v.Pos
					at.Insert(pos, c)
					u.Args[i] = c
				}
			}
		}
	}
	DeadCode(f)
}

// stableOperands reports whether v's operands are constants, parameters
// or φs: values whose variables hold them wherever v is used.
func stableOperands(v *ir.Value) bool {
	for _, a := range v.Args {
		switch a.Op {
		case ir.OpConst, ir.OpParam, ir.OpPhi:
		default:
			return false
		}
	}
	return true
}
