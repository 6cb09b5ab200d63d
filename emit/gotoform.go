package emit

// This file defines the fallback for control flow that cannot be
// structured (irreducible CFGs, forward jumps Go cannot express): every
// block becomes a labeled run of statements ending in gotos. All variables
// are declared at the top of the function (placeDecls), so no goto jumps
// over a declaration, and no goto jumps into a block. Code that came from
// structured Go never takes this path.

import (
	"strconv"

	"github.com/gadgen/gadgen/ir"
)

// gotoForm returns the function body in goto form.
func (e *emitter) gotoForm() *slist {
	blocks := e.cfg.RPO
	next := map[*ir.Block]*ir.Block{}
	for i := 0; i+1 < len(blocks); i++ {
		next[blocks[i]] = blocks[i+1]
	}
	label := func(b *ir.Block) string { return "b" + strconv.Itoa(b.Index) }
	targets := map[*ir.Block]bool{}

	body := &slist{}
	// jump appends the copies of b's k-th edge and a goto, unless the
	// target is the next block and fall is allowed.
	jump := func(out *slist, b *ir.Block, k int, fall bool) {
		out.add(e.edgeCopies(b, k)...)
		t := b.Succs[k]
		if fall && next[b] == t {
			return
		}
		targets[t] = true
		out.add(&sGoto{name: label(t)})
	}
	// A split function's continuation (the blocks its entry dominates)
	// is a func literal of its own: no goto enters or leaves it. (There
	// are several when splitIrreducible copied a suspension's block.)
	conts := map[*ir.Block]*sSuspend{} // by the continuation's entry
	var entries []*ir.Block
	for _, b := range blocks {
		if sv := suspendAt(b); sv != nil {
			conts[b.Succs[0]] = &sSuspend{v: sv, body: &slist{}}
			entries = append(entries, b.Succs[0])
		}
	}
	// owner returns the entry of the continuation b belongs to, or nil.
	owner := func(b *ir.Block) *ir.Block {
		for _, en := range entries {
			if e.cfg.Dominates(en, b) {
				return en
			}
		}
		return nil
	}
	var stmts []stmt
	contStmts := map[*ir.Block][]stmt{}
	for _, b := range blocks {
		var out slist
		out.add(&sLabel{name: label(b)})
		e.blockStmts(b, &out)
		term := b.Terminator()
		switch {
		case suspendAt(b) != nil:
			dropSuspendStmt(&out, suspendAt(b))
			out.add(e.edgeCopies(b, 0)...)
			out.add(conts[b.Succs[0]])
		case term.Op == ir.OpJump:
			jump(&out, b, 0, true)
		case term.Op == ir.OpIf:
			then := &slist{}
			jump(then, b, 0, false)
			out.add(&sIf{cond: leaf(term.Args[0]), then: then, els: &slist{}})
			jump(&out, b, 1, true)
		default:
			out.add(&sValue{v: term})
		}
		if en := owner(b); en != nil {
			contStmts[en] = append(contStmts[en], out.stmts...)
		} else {
			stmts = append(stmts, out.stmts...)
		}
	}
	usedLabels := func(stmts []stmt, out *slist) {
		for _, st := range stmts {
			if l, ok := st.(*sLabel); ok {
				used := false
				for t := range targets {
					used = used || label(t) == l.name
				}
				if !used {
					continue
				}
			}
			out.add(st)
		}
	}
	usedLabels(stmts, body)
	for _, en := range entries {
		usedLabels(contStmts[en], conts[en].body)
	}
	return body
}
