package emit

// This file defines the φ copies on a CFG edge and their sequencing.
//
// The copies on one edge are a parallel assignment: every source is read
// before any destination is written. When the copies can be ordered so
// that no copy writes a variable a later copy reads, they are emitted as
// separate assignments, which read better (s += x[i]; i++); otherwise,
// as for a swap, as one Go parallel assignment (a, b = b, a+b), which
// needs no temporaries.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// edgeCopies returns the statements assigning the φs of b.Succs[k] on
// that edge.
func (e *emitter) edgeCopies(b *ir.Block, k int) []stmt {
	s := b.Succs[k]
	j := succPred(b, k)
	type item struct {
		dst   *variable
		src   *ir.Value
		phi   *ir.Value
		reads map[*variable]bool
		late  bool
	}
	var items []*item
	for _, phi := range e.livePhis(s) {
		src := phi.Args[j]
		dst := e.vars[phi.ID]
		if e.kind[src.ID] == kVar && e.vars[src.ID] == dst {
			continue
		}
		it := &item{dst: dst, src: src, phi: phi, reads: map[*variable]bool{}, late: e.induction[phi]}
		e.reads(src, func(x *ir.Value) { it.reads[e.vars[x.ID]] = true })
		items = append(items, it)
	}
	if len(items) == 0 {
		return nil
	}
	// Copy a must precede copy b when a reads b's destination. Among the
	// copies free to go, take them in φ order, loop counters last. Copies
	// that wait on each other (a swap) form one parallel assignment.
	var out []stmt
	done := map[*item]bool{}
	free := func(it *item) bool {
		for _, o := range items {
			if o != it && !done[o] && o.reads[it.dst] {
				return false // o still has to read it.dst
			}
		}
		return true
	}
	parallel := func(group []*item) {
		as := &sAssign{}
		for _, it := range group {
			as.dsts = append(as.dsts, it.dst)
			as.srcs = append(as.srcs, it.src)
			as.phis = append(as.phis, it.phi)
			done[it] = true
		}
		out = append(out, as)
	}
	for len(done) < len(items) {
		var pick *item
		var early, rest []*item
		for _, it := range items {
			if done[it] {
				continue
			}
			rest = append(rest, it)
			if !it.late {
				early = append(early, it)
			}
			if (pick == nil || pick.late && !it.late) && free(it) {
				pick = it
			}
		}
		if pick != nil && (!pick.late || len(early) == 0) {
			done[pick] = true
			out = append(out, &sAssign{dsts: []*variable{pick.dst}, srcs: []*ir.Value{pick.src}, phis: []*ir.Value{pick.phi}})
			continue
		}
		// The early copies wait on each other: assign them together if
		// no other copy reads what they write, else everything left.
		group := early
		if len(group) == 0 {
			group = rest
		}
		inGroup := map[*item]bool{}
		for _, it := range group {
			inGroup[it] = true
		}
		for _, o := range rest {
			for _, it := range group {
				if !inGroup[o] && o.reads[it.dst] {
					group = rest
				}
			}
		}
		parallel(group)
	}
	return out
}

// findInductions marks the φs of loop headers that the back edge updates
// by adding or subtracting an integer constant (loop counters).
func (e *emitter) findInductions() {
	for _, h := range e.cfg.RPO {
		if !e.cfg.LoopHeader[h.Index] {
			continue
		}
		for _, phi := range e.livePhis(h) {
			// Every back edge must step the counter (several back edges
			// carry the same step when it is computed in the header, as
			// in go/ssa's range loops).
			count, steps := 0, 0
			for j, p := range h.Preds {
				if !e.cfg.Reachable(p) || !e.cfg.IsBackEdge(p, h) {
					continue
				}
				count++
				if e.isStep(phi.Args[j], e.vars[phi.ID]) {
					steps++
				}
			}
			if count > 0 && steps == count {
				e.induction[phi] = true
			}
		}
	}
}

// isStep reports whether v computes vr ± c for an integer constant c.
func (e *emitter) isStep(v *ir.Value, vr *variable) bool {
	if v == nil || v.Op != ir.OpBinary || (v.Tok != token.ADD && v.Tok != token.SUB) {
		return false
	}
	x, c := v.Args[0], v.Args[1]
	if e.kind[x.ID] != kVar || e.vars[x.ID] != vr || c.Op != ir.OpConst || c.Const == nil {
		return false
	}
	b, ok := c.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && c.Const.Kind() == constant.Int
}
