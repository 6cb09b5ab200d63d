package simplify

// This file defines the speculation of cheap values out of the blocks
// that evaluate the second operand of && and ||. go/ssa compiles
// `if a || b` into a block for a that branches to a block for b; once CSE
// has made b's operands values that later code uses too, that block holds
// more than the condition and the emitter can no longer fold it back into
// `a || b`. Values that cannot fail and have no effect (field reads of a
// struct value, len, arithmetic on floats, comparisons) are moved to the
// end of the predecessor, which then dominates their uses as before.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// Speculate hoists non-trapping pure values out of condition-only blocks
// into their single predecessor.
func Speculate(f *ir.Func) {
	uses := ir.Uses(f)
	cfg := ir.NewCFG(f)
	for _, b := range f.Blocks {
		if len(b.Preds) != 1 || b == f.Blocks[0] {
			continue
		}
		p := b.Preds[0]
		if cfg.LoopHeader[p.Index] || cfg.LoopHeader[b.Index] {
			continue // a loop's exit test, not a && or ||
		}
		pt, bt := p.Terminator(), b.Terminator()
		if pt == nil || pt.Op != ir.OpIf || bt == nil || bt.Op != ir.OpIf {
			continue
		}
		// The short-circuit shape: b shares a successor with p.
		shared := false
		for _, s := range b.Succs {
			for _, t := range p.Succs {
				shared = shared || s == t
			}
		}
		if !shared {
			continue
		}
		// Values used only within b stay: the emitter folds them into the
		// condition. The others move, if they all can.
		body := b.Instrs[:len(b.Instrs)-1]
		var move, stay []*ir.Value
		for _, v := range body {
			outside := false
			for _, u := range uses[v.ID] {
				outside = outside || u.Block != b
			}
			if outside {
				move = append(move, v)
			} else {
				stay = append(stay, v)
			}
		}
		ok := len(move) > 0
		moved := map[*ir.Value]bool{}
		for _, v := range move {
			moved[v] = true
		}
		for _, v := range body {
			ok = ok && cannotFail(v)
		}
		for _, v := range move {
			for _, a := range v.Args {
				ok = ok && (a == nil || a.Block != b || moved[a])
			}
		}
		if !ok {
			continue
		}
		at := len(p.Instrs) - 1
		for _, v := range move {
			p.Insert(at, v)
			at++
		}
		b.Instrs = append(stay, bt)
	}
}

// cannotFail reports whether v is pure and cannot panic, so that it can be
// evaluated where the source does not evaluate it.
func cannotFail(v *ir.Value) bool {
	switch v.Op {
	case ir.OpField, ir.OpExtract, ir.OpSelect:
		return true
	case ir.OpLen, ir.OpCap:
		_, isSlice := v.Args[0].Type.Underlying().(*types.Slice)
		return isSlice
	case ir.OpUnary:
		return true
	case ir.OpBinary:
		if isFloatType(v.Args[0].Type) {
			return true
		}
		switch v.Tok.String() {
		case "/", "%", "<<", ">>":
			return false
		}
		return true
	case ir.OpConvert:
		_, toIface := v.Type.Underlying().(*types.Interface)
		return !toIface
	case ir.OpCall:
		c := v.Callee
		return c.Primitive() != nil
	}
	return false
}
