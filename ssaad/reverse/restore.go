package reverse

// This file defines memory restored in the reverse sweep. For memory the
// function overwrites, there are two ways to give the reverse sweep the
// values its loads read: record each value loaded that a later store may
// have overwritten (the default), or record, at each store, the value it
// overwrites, and put it back when the reverse sweep undoes the store, so
// that the memory holds, at every point of the reverse sweep, what it
// held at the same point of the forward sweep, and loads are done again
// (Tapenade's way with arrays overwritten in place: PUSH before the
// overwrite, POP after its adjoint). The second costs one record per
// store instead of one per load; an in-place Cholesky factorization loads
// each element O(n) times and stores it once, so it needs O(n²) records
// instead of O(n³).
//
// A class of memory is restored when every write to it is a store of a
// value that holds no memory (no call, copy or append writes it), and the
// records its loads would cost, weighted by the depth of the loops they
// run in, exceed those of its stores. Its loads are then done again in the
// reverse of an instruction when no store to it runs between the load and
// that instruction; calls reading it need no snapshot; and the parameters
// it belongs to get their final contents back before the gradient returns
// (see finalstate.go).

import (
	"slices"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// chooseRestored decides which classes of memory are restored, from the
// records the needs computed without restoring would make.
func (t *transformer) chooseRestored() {
	loads := map[int]float64{}
	stores := map[int]float64{}
	candidate := map[int]bool{}
	for c := range t.classWritten {
		candidate[c] = c >= 0 && t.freshIn(c) == nil
	}
	for _, b := range t.primal.Blocks {
		if !t.cfg.Reachable(b) {
			continue
		}
		w := t.loopWeight(b)
		for _, v := range b.Instrs {
			switch {
			case v.Op == ir.OpStore:
				c := t.act.Class(v.Args[0])
				stores[c] += w
				if ssaad.RefersToMemory(v.Args[1].Type) || !t.act.Varied(v.Args[0]) {
					candidate[c] = false
				}
			case v.Op == ir.OpCall:
				for i, a := range v.Args {
					if handsMemory(a.Type) && t.callWrites(v, i) {
						candidate[t.act.Class(a)] = false
					}
				}
			}
		}
		for _, x := range t.needs[b] {
			if x.Op == ir.OpLoad {
				loads[t.act.Class(x.Args[0])] += w
			}
		}
	}
	for c, ok := range candidate {
		if ok && loads[c] > stores[c] {
			t.restored[c] = true
		}
	}
}

// loopWeight estimates how many times block b runs relative to the
// function: 100 for each loop around it.
func (t *transformer) loopWeight(b *ir.Block) float64 {
	w := 1.0
	for hi := range t.cfg.Loop {
		if t.cfg.InLoop(t.primal.Blocks[hi], b) {
			w *= 100
		}
	}
	return w
}

// restoredStore reports whether store v writes restored memory that
// something may read before v runs: only then does the reverse sweep need
// the value v overwrites back (a kernel matrix filled once into fresh
// memory before anything reads it needs none).
func (t *transformer) restoredStore(v *ir.Value) bool {
	if v.Op != ir.OpStore || !t.restored[t.act.Class(v.Args[0])] {
		return false
	}
	r, ok := t.readBeforeMemo[v]
	if !ok {
		r = t.readBefore(v, t.act.Class(v.Args[0]))
		t.readBeforeMemo[v] = r
	}
	return r
}

// readBefore reports whether memory of class c may be read before store
// v runs: by a load or a call (any call given it) earlier in v's block, or
// in a block from which v's block can be reached (a loop around v
// included).
func (t *transformer) readBefore(v *ir.Value, c int) bool {
	reads := func(x *ir.Value) bool {
		switch x.Op {
		case ir.OpLoad:
			return t.act.Class(x.Args[0]) == c
		case ir.OpCall:
			for _, a := range x.Args {
				if handsMemory(a.Type) && t.act.Class(a) == c {
					return true
				}
			}
		}
		return false
	}
	for _, x := range v.Block.Instrs {
		if x == v {
			break
		}
		if reads(x) {
			return true
		}
	}
	// A read anywhere in a block from which v's block is reached again
	// (v's own block through a loop included).
	for _, b := range t.primal.Blocks {
		if t.cfg.Reachable(b) && slices.ContainsFunc(b.Instrs, reads) && t.reachFrom(b, nil, false)[v.Block] {
			return true
		}
	}
	return false
}

// saveOverwritten emits, in the forward sweep before store v of restored
// memory, the record of the value it overwrites.
func (t *transformer) saveOverwritten(v *ir.Value) {
	typ := v.Args[1].Type
	t.push(t.tape(typ), t.Emit(ir.OpLoad, typ, t.v(v.Args[0])))
}

// restoreOverwritten emits, in the reverse of store v of restored memory
// after its adjoint, the value it overwrote put back.
func (t *transformer) restoreOverwritten(v *ir.Value) {
	typ := v.Args[1].Type
	old := t.pop(t.tape(typ), 1)[0]
	t.Emit(ir.OpStore, nil, t.addrAt(v.Args[0]), old)
}

// writtenBetween reports whether memory of class c may be written between
// load l and the instruction at position pos of block b, where the reverse
// of b reads what l loaded: by a store after l in its block, before pos in
// b, or in a block on a path from l to b that does not run l again.
func (t *transformer) writtenBetween(l *ir.Value, c int, b *ir.Block, pos int) bool {
	writes := func(x *ir.Value) bool {
		return x.Op == ir.OpStore && t.act.Class(x.Args[0]) == c
	}
	lb := l.Block
	at := 0
	for i, x := range lb.Instrs {
		if x == l {
			at = i
		}
	}
	if lb == b {
		for _, x := range b.Instrs[at+1 : max(pos, at+1)] {
			if writes(x) {
				return true
			}
		}
		return false
	}
	for _, x := range lb.Instrs[at+1:] {
		if writes(x) {
			return true
		}
	}
	for _, x := range b.Instrs[:min(pos, len(b.Instrs))] {
		if writes(x) {
			return true
		}
	}
	// Blocks reachable from l, without passing its block again, that
	// reach b the same way.
	from := t.reachFrom(lb, lb, false)
	to := t.reachFrom(b, lb, true)
	for _, x := range t.primal.Blocks {
		if x == lb || x == b || !from[x] || !to[x] {
			continue
		}
		for _, y := range x.Instrs {
			if writes(y) {
				return true
			}
		}
	}
	// b again, after itself in a loop that does not run l again.
	if from[b] && to[b] {
		for _, x := range b.Instrs[min(pos, len(b.Instrs)):] {
			if writes(x) {
				return true
			}
		}
	}
	return false
}

// reachFrom returns the blocks reached from start's successors
// (predecessors, when back), not going through stop.
func (t *transformer) reachFrom(start, stop *ir.Block, back bool) map[*ir.Block]bool {
	seen := map[*ir.Block]bool{}
	next := func(x *ir.Block) []*ir.Block {
		if back {
			return x.Preds
		}
		return x.Succs
	}
	work := append([]*ir.Block(nil), next(start)...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] || x == stop || !t.cfg.Reachable(x) {
			continue
		}
		seen[x] = true
		work = append(work, next(x)...)
	}
	return seen
}

// restoredParams returns the parameters whose memory is restored, which
// the reverse sweep rolls back to their contents on entry.
func (t *transformer) restoredParams() map[*ir.Value]bool {
	out := map[*ir.Value]bool{}
	for _, p := range t.primal.Params {
		if ssaad.IsPointerLike(p.Type) && t.restored[t.act.Class(p)] {
			out[p] = true
		}
	}
	return out
}

// reloadStore returns the store of w, later in w's block, after whose
// reverse the reverse sweep reads w back from memory instead of recording
// it, or nil. It is a store into restored memory that records the value
// it overwrites: every store of its class that runs after it records too
// (what made it record precedes them), and no call writes restored
// memory, so when the reverse sweep reaches the store, the later stores
// are undone and the memory holds w again, until the store's own old
// value is put back. An in-place factorization's z[i] = s/d then records
// s (or the quotient) no more: the adjoint of the division reads the
// quotient back from z[i].
func (t *transformer) reloadStore(w *ir.Value) *ir.Value {
	if w.Block == nil || t.fused != nil || ssaad.RefersToMemory(w.Type) || !isFloat(w.Type) {
		return nil
	}
	after := false
	for _, v := range w.Block.Instrs {
		if v == w {
			after = true
			continue
		}
		if after && v.Op == ir.OpStore && v.Args[1] == w && t.restoredStore(v) {
			return v
		}
	}
	return nil
}

// reloaded reports whether the reverse of the instruction being planned
// or reversed (t.curPos in t.cur) reads w back from memory (see
// reloadStore): it precedes w's store in w's block.
func (t *transformer) reloaded(w *ir.Value) bool {
	if t.cur == nil || w.Block != t.cur {
		return false
	}
	s := t.reloadStore(w)
	return s != nil && t.curPos < slices.Index(w.Block.Instrs, s)
}

// reloadStored reads back, in the reverse of store v before its old value
// is put back, the value it stored, for the reverses of the instructions
// before it that need it (see reloadStore).
func (t *transformer) reloadStored(v *ir.Value) {
	w := v.Args[1]
	if _, ok := t.rvals[w]; ok || t.reloadStore(w) != v {
		return
	}
	x := t.Emit(ir.OpLoad, w.Type, t.addrAt(v.Args[0]))
	x.Name = w.Name
	t.rvals[w] = x
}
