package reverse

// This file defines the choice between recording a value for the reverse
// sweep and recomputing it there: a value that is cheap arithmetic on
// values the reverse has anyway, or an element of memory the function never
// writes, is recomputed from those (Griewank & Walther, ch. 12, on
// trading storage for recomputation; Tapenade's "recompute intermediate
// values" for cheap expressions). Only the leaves go on the tape.

import (
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// maxRecompute bounds the operations recomputed for one value.
const maxRecompute = 12

// plan returns the values to record so that w is known in the reverse of
// its block: none when w is available, the leaves of its recomputation
// when that is cheap, else w itself. It marks recomputed values in
// t.recompute.
func (t *transformer) plan(w *ir.Value) []*ir.Value {
	if t.known(w) {
		return nil
	}
	if ssaad.RefersToMemory(w.Type) {
		return []*ir.Value{w} // a root addrNeeds cannot rebuild: recorded with its shadow
	}
	if leaves, ok := t.recomputable(w, maxRecompute); ok {
		return leaves
	}
	return []*ir.Value{w}
}

// known reports whether the reverse sweep has w without recording or
// recomputing it: available, the index of a loop reversed by index, or
// kept in a variable where it is computed (see spilled).
func (t *transformer) known(w *ir.Value) bool {
	return t.available(w) || t.isCountedIndex(w) || t.spilled(w) || t.ofIteration(w) || t.reloaded(w)
}

// recomputable reports whether w can be recomputed in reverse with at
// most budget operations, and returns the values that must be recorded
// for it and the operations it takes.
func (t *transformer) recomputable(w *ir.Value, budget int) ([]*ir.Value, bool) {
	leaves, cost, ok := t.recomputeCost(w, budget)
	if !ok || cost > budget {
		return nil, false
	}
	t.markRecompute(w)
	return leaves, true
}

func (t *transformer) recomputeCost(w *ir.Value, budget int) (leaves []*ir.Value, cost int, ok bool) {
	if budget <= 0 || !t.cheap(w) {
		return nil, 0, false
	}
	cost = 1
	leaf := func(x *ir.Value) {
		if x == nil || t.known(x) {
			return
		}
		l, c, ok := t.recomputeCost(x, budget-cost)
		if ok {
			leaves = append(leaves, l...)
			cost += c
			return
		}
		leaves = append(leaves, x)
	}
	for _, a := range w.Args {
		switch {
		case a == nil || t.known(a):
		case ssaad.RefersToMemory(a.Type):
			// An address: rebuilt by addrAt (see shadows.go).
			for _, x := range t.addrNeeds(a, nil) {
				leaf(x)
			}
		default:
			leaf(a)
		}
	}
	return leaves, cost, cost <= budget
}

// markRecompute marks w and the cheap values it is recomputed from.
// Marks of an earlier computation of the needs do not stop it: with
// memory restored, a load that was recorded may be recomputed now.
func (t *transformer) markRecompute(w *ir.Value) {
	if t.recompute[w] && t.markRound[w] == t.round {
		return
	}
	t.recompute[w] = true
	t.markRound[w] = t.round
	for _, a := range w.Args {
		switch {
		case a == nil || t.known(a):
		case ssaad.RefersToMemory(a.Type):
			for _, x := range t.addrNeeds(a, nil) {
				if !t.known(x) && t.cheap(x) {
					if _, _, ok := t.recomputeCost(x, maxRecompute); ok {
						t.markRecompute(x)
					}
				}
			}
		default:
			if t.cheap(a) {
				if _, _, ok := t.recomputeCost(a, maxRecompute); ok {
					t.markRecompute(a)
				}
			}
		}
	}
}

// cheap reports whether w is an operation the reverse may repeat: integer
// and float arithmetic other than integer division, conversions between
// numbers, and loads from memory the function does not write after them.
func (t *transformer) cheap(w *ir.Value) bool {
	switch w.Op {
	case ir.OpBinary:
		if b, ok := w.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return w.Tok == token.ADD || w.Tok == token.SUB || w.Tok == token.MUL
		}
		return isFloat(w.Type) || w.Type.Underlying().(*types.Basic).Info()&types.IsBoolean != 0
	case ir.OpUnary:
		return w.Tok == token.SUB
	case ir.OpConvert:
		_, fromBasic := w.Args[0].Type.Underlying().(*types.Basic)
		_, toBasic := w.Type.Underlying().(*types.Basic)
		return fromBasic && toBasic
	case ir.OpLen, ir.OpCap:
		// Of a slice the reverse rebuilds (see shadows.go).
		return ssaad.IsPointerLike(w.Args[0].Type)
	case ir.OpLoad:
		// Memory nothing writes between the load and its reverse reads
		// the same there. Slices and pointers are rebuilt, not
		// recomputed (see addrNeeds).
		return ssaad.IsPointerLike(w.Args[0].Type) && !ssaad.RefersToMemory(w.Type) && !t.overwritten(w)
	}
	return false
}

// overwritten reports whether the memory load w read may be overwritten
// by the time the reverse of the block being planned (t.cur) reads it
// again: after w, or, for memory the reverse restores, between w and the
// instruction being planned.
func (t *transformer) overwritten(w *ir.Value) bool {
	c := t.act.Class(w.Args[0])
	if ssaad.RefersToMemory(w.Type) {
		// A slice header or pointer: only a write of slices or pointers
		// can change it (Go's types keep a store of floats off it), and
		// restored memory has none.
		return !t.restored[c] && t.headersWrittenAfter(w, c)
	}
	if t.restored[c] && t.cur != nil {
		return t.writtenBetween(w, c, t.cur, t.curPos)
	}
	return t.writtenAfter(w, c)
}

// recomputeAt emits, in the reverse block being built, the recomputation
// of w from recorded and available values.
func (t *transformer) recomputeAt(w *ir.Value) *ir.Value {
	var x *ir.Value
	if w.Op == ir.OpLoad {
		x = t.Emit(ir.OpLoad, w.Type, t.addrAt(w.Args[0]))
	} else {
		args := make([]*ir.Value, len(w.Args))
		for i, a := range w.Args {
			if a != nil && ssaad.RefersToMemory(a.Type) {
				args[i] = t.addrAt(a)
			} else {
				args[i] = t.r(a)
			}
		}
		x = t.Same(w, args...)
	}
	x.Name = w.Name
	t.rvals[w] = x
	return x
}

// isCountedIndex reports whether w is the index of a loop reversed by its
// index: the reverse knows it without a tape.
func (t *transformer) isCountedIndex(w *ir.Value) bool {
	c := t.counted[w.Block]
	if c == nil || c.phi != w && c.auxOf(w) == nil {
		return false
	}
	// The index itself is known wherever the loop's reverse runs and
	// after it, from the exit's record; the other induction variables are
	// computed from it inside the loop.
	return c.phi == w || t.cur != nil && t.cfg.InLoop(c.header, t.cur)
}
