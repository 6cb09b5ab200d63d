package simplify

// This file defines loop-invariant code motion (Muchnick, Advanced
// Compiler Design and Implementation, §13.2): a value computed in a loop
// from values defined outside it is computed once, before the loop. Which
// values move:
//
//   - arithmetic, conversions, field and element reads of values, when
//     they cannot panic;
//   - loads whose address cannot fault (locals, and slice elements shown
//     in bounds where the load moves) from memory that nothing in the loop
//     writes (alias classes, alias.go);
//   - calls whose callee writes no memory that outlives the call, returns
//     no memory, always returns and never panics (its Effects, from
//     Summarize through Env), and reads no memory the loop writes.
//
// Every value moved may therefore be evaluated where the source would
// not evaluate it (before a zero-trip loop, or when the branch holding it
// is not taken) without any observable difference: it has no effect,
// cannot panic and returns. A call that may panic or may not return moves
// only under the loop's test, when the loop's first iteration would
// evaluate it before anything observable (guard.go); otherwise it stays
// in its loop. Moving integer index arithmetic, lengths, addresses,
// negations and conversions alone gains nothing and makes the emitted loop
// read worse, so they move only when a value that moves needs them.
//
// The Enzyme example: in `for i := range x { out[i] = x[i] / mag(x) }`,
// with out a slice the function allocated, mag(x) reads only x, which the
// loop does not write, so it is computed once and the loop (and its
// derivative) is O(n) instead of O(n²).

import (
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// LICM hoists the loop-invariant values of f out of its loops, innermost
// loops first, so that a value invariant in several nested loops leaves
// them all. A value moves to the end of the immediate dominator of the
// loop's header: every value that moves may be evaluated speculatively,
// so it need not be a preheader that only the loop's entry reaches, and
// no block is added (which would hide the loop's shape from the
// emitter: go/ssa's range-over-int loops are entered from their guard).
// When that dominator is not the header's only predecessor outside the
// loop, blocks between them may write memory, so loads and calls that
// read memory move only out of loops entered from their header's
// dominator alone.
func LICM(f *ir.Func, env Env) { licm(f, env) }

// licm is LICM, returning the values it moved: first those that may be
// evaluated anywhere, then, one at a time, calls under a guard (guard.go),
// each followed by the values it makes invariant.
func licm(f *ir.Func, env Env) []*ir.Value {
	moved := hoistAll(f, env)
	for range 100 {
		v := hoistGuarded(f, env)
		if v == nil {
			break
		}
		moved = append(moved, v)
		moved = append(moved, hoistAll(f, env)...)
	}
	return moved
}

// hoistAll moves the values of every loop that may be evaluated anywhere.
func hoistAll(f *ir.Func, env Env) []*ir.Value {
	lf := newLoopFacts(f)
	cfg := lf.cfg
	mem := newMemory(f, env, true)
	var headers []*ir.Block
	for h := range cfg.Loop {
		headers = append(headers, f.Blocks[h])
	}
	size := func(h *ir.Block) int {
		n := 0
		for _, in := range cfg.Loop[h.Index] {
			if in {
				n++
			}
		}
		return n
	}
	slices.SortFunc(headers, func(a, b *ir.Block) int {
		if d := size(a) - size(b); d != 0 {
			return d
		}
		return a.Index - b.Index
	})
	var hoisted []*ir.Value
	for _, h := range headers {
		hoisted = append(hoisted, hoistLoop(f, h, lf, mem, env)...)
	}
	return hoisted
}

// hoistLoop moves the invariant values of the loop headed by h into its
// preheader.
func hoistLoop(f *ir.Func, h *ir.Block, lf *loopFacts, mem *memory, env Env) []*ir.Value {
	cfg := lf.cfg
	body := cfg.Loop[h.Index]
	pre := cfg.Idom[h.Index]
	if pre == nil {
		return nil
	}
	// Unless pre is the only predecessor of h outside the loop, blocks
	// between them may write memory: then only values that read none move.
	direct := true
	for _, p := range h.Preds {
		direct = direct && (p == pre || cfg.IsBackEdge(p, h))
	}
	inLoop := func(v *ir.Value) bool { return v != nil && v.Block != nil && body[v.Block.Index] }

	// What the loop writes.
	written := map[int]bool{}
	typed := writeSet{}
	for _, b := range f.Blocks {
		if !body[b.Index] {
			continue
		}
		for _, v := range b.Instrs {
			switch v.Op {
			case ir.OpStore:
				written[mem.class(v.Args[0])] = true
				typed.add(mem.class(v.Args[0]), v.Args[1].Type)
			case ir.OpCall:
				ce := callEffects(v, env)
				for i, a := range v.Args {
					if c := mem.class(a); c >= 0 && ce.Writes[i] {
						written[c] = true
						typed.addAll(c)
					}
				}
				if ce.WritesGlobal {
					written[mem.find(globalNode)] = true
					typed.addAll(mem.find(globalNode))
				}
			}
		}
	}

	movable := func(v *ir.Value) bool {
		switch v.Op {
		case ir.OpBinary, ir.OpUnary, ir.OpSelect, ir.OpField, ir.OpIndex, ir.OpFieldAddr,
			ir.OpIndexAddr, ir.OpLen, ir.OpCap, ir.OpExtract:
			return !lf.mayFail(v, pre)
		case ir.OpConvert:
			return !typeRefersToMemory(v.Type) && !lf.mayFail(v, pre)
		case ir.OpLoad:
			return direct && !typed.mayWrite(mem.class(v.Args[0]), v.Type) && lf.safeAddress(v.Args[0], pre)
		case ir.OpCall:
			if v.Type == nil || refersToMemory(v) {
				return false
			}
			ce := callEffects(v, env)
			if !ce.WritesNothing() || !ce.Total() {
				return false
			}
			for i, a := range v.Args {
				if c := mem.class(a); c >= 0 && ce.Reads[i] && (written[c] || !direct) {
					return false
				}
			}
			return !ce.ReadsGlobal || direct && !written[mem.find(globalNode)]
		}
		return false
	}
	worthwhile := func(v *ir.Value) bool {
		switch v.Op {
		case ir.OpCall:
			return v.Callee.Builtin == ""
		case ir.OpLoad:
			return true
		case ir.OpBinary:
			return isFloatType(v.Type)
		}
		// A negation or a conversion alone is as cheap as reading the
		// variable that would hold it, and in a reverse sweep it would
		// cost an adjoint variable of its own.
		return false
	}

	// The invariant values, in an order where arguments come first.
	cand := map[*ir.Value]bool{}
	var order []*ir.Value
	for _, b := range cfg.RPO {
		if !body[b.Index] {
			continue
		}
		for _, v := range b.Instrs {
			if v.Op == ir.OpPhi || v.Op.IsTerminator() || v.Op == ir.OpStore {
				continue
			}
			ok := true
			for _, a := range v.Args {
				ok = ok && (!inLoop(a) || cand[a])
			}
			if ok && movable(v) {
				cand[v] = true
				order = append(order, v)
			}
		}
	}
	move := map[*ir.Value]bool{}
	var need func(v *ir.Value)
	need = func(v *ir.Value) {
		if move[v] {
			return
		}
		move[v] = true
		for _, a := range v.Args {
			if inLoop(a) {
				need(a)
			}
		}
	}
	for _, v := range order {
		if worthwhile(v) {
			need(v)
		}
	}
	// The results of a call that moves move with it.
	for _, v := range order {
		if v.Op == ir.OpExtract && move[v.Args[0]] {
			need(v)
		}
	}
	var moved []*ir.Value
	for _, v := range order {
		if !move[v] {
			continue
		}
		removeValue(v)
		pre.Insert(len(pre.Instrs)-1, v)
		moved = append(moved, v)
	}
	return moved
}
