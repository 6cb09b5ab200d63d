package reverse

// This file defines fused reduction loops. A loop that only sums terms
// into accumulators which the function returns as they are,
//
//	for i := 0; i < n-1; i++ {
//		sum += 100*(x[i+1]-x[i]*x[i])² + (1-x[i])²
//	}
//	return sum
//
// knows the adjoint of its accumulators before it starts: the seed. The
// reverse of each iteration then needs nothing from the iterations after
// it, so the generated function runs it right after the iteration's
// forward, in the same loop, and records nothing: one pass over x
// instead of two, as a hand-written gradient does.
//
// The conditions: a counted loop, not nested, whose body is one block;
// its varied header φs are accumulators (s = φ ± x); its body loads
// memory but stores none and calls only package math (a store's reverse
// needs the adjoint of the memory, which later code gives); the loop exits
// to the return, which returns the accumulators or values the loop does
// not compute.

import (
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// fusedLoop is a loop whose reverse runs inside its forward.
type fusedLoop struct {
	c    *countedLoop
	body *ir.Block
}

// findFused returns the counted loop to fuse, or nil.
func (t *transformer) findFused() *fusedLoop {
	for _, c := range t.countedLoops() {
		if c.exit != nil || len(c.breaks) > 0 {
			continue
		}
		h := c.header
		body := h.Preds[c.latch]
		if len(body.Preds) != 1 || body.Preds[0] != h || len(h.Succs) != 2 {
			continue
		}
		var out *ir.Block
		for _, s := range h.Succs {
			if s != body {
				out = s
			}
		}
		if out != t.exit || len(out.Preds) != 1 {
			continue
		}
		if t.fusable(c, body) {
			return &fusedLoop{c: c, body: body}
		}
	}
	return nil
}

func (t *transformer) fusable(c *countedLoop, body *ir.Block) bool {
	h := c.header
	for _, v := range h.Instrs {
		if v.Op == ir.OpPhi && t.act.Varied(v) && hasAdjoint(v.Type) {
			shared := false
			for s, phi := range t.share {
				shared = shared || phi == v && s.Block == body
			}
			if !shared {
				return false
			}
		}
		if v.Op == ir.OpCall || v.Op == ir.OpStore {
			return false
		}
	}
	for _, v := range body.Instrs {
		switch v.Op {
		case ir.OpStore:
			return false
		case ir.OpCall:
			if !isMath(v) && v.Callee.Builtin != "min" && v.Callee.Builtin != "max" {
				return false
			}
		}
	}
	// The return reads only the accumulators and values from outside
	// the loop; nothing else in its block is varied.
	for _, v := range t.exit.Instrs {
		if v.Op == ir.OpReturn {
			for _, a := range v.Args {
				if ssaad.RefersToMemory(a.Type) {
					return false // a slice's seed goes into its shadow in the reverse
				}
				// Values of the loop: only its header's φs (the
				// accumulators, checked above, or inactive ones).
				if a.Block == body || a.Block == h && a.Op != ir.OpPhi {
					return false
				}
			}
			continue
		}
		if t.act.Varied(v) || v.Op.HasEffect() {
			return false
		}
	}
	return true
}

// inFused reports whether b is the header or the body of the fused loop.
func (t *transformer) inFused(b *ir.Block) bool {
	return t.fused != nil && (b == t.fused.c.header || b == t.fused.body)
}

// emitFusedReverse emits, at the end of the forward copy of the loop's
// body, the reverse of the iteration just run.
func (t *transformer) emitFusedReverse(fl *fusedLoop) {
	b := fl.body
	t.cur = b
	clear(t.rvals)
	clear(t.rshadow)
	clear(t.pend)
	for _, blk := range []*ir.Block{fl.c.header, b} {
		for _, v := range blk.Instrs {
			if nv, ok := t.val[v]; ok {
				t.rvals[v] = nv
			}
		}
	}
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if v := b.Instrs[i]; v.Op != ir.OpPhi && !v.Op.IsTerminator() {
			t.adjoint(v)
		}
	}
	t.cur = nil
}
