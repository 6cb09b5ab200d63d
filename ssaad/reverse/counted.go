package reverse

// This file defines the reversal of counted loops by their index: a loop
// `for i := a; i < n; i += c` (any comparison, any constant step) whose
// header is its only exit runs backwards from the index's final value
// down to a, so neither the index nor the path through the header goes on
// a tape. This is what Tapenade does for DO loops, and what the issue's
// "reverse counted loops by index instead of taping the counter" asks.

import (
	"go/constant"
	"go/token"

	"github.com/gadgen/gadgen/ir"
)

// countedLoop describes a loop reversed by its index.
type countedLoop struct {
	header *ir.Block
	phi    *ir.Value // the index: φ(init, phi+step)
	init   *ir.Value
	step   *ir.Value // constant
	pre    int       // position of the preheader in header.Preds
	latch  int       // position of the latch
	// exit, for a loop nested in another, is the block the loop exits to,
	// which records the final index; final is that index as popped in its
	// reverse.
	exit  *ir.Block
	final *ir.Value
	// In the reverse of the header: idx is the index of the header
	// execution being reversed (a φ), prev = idx - step the index of the
	// iteration before it.
	idx, prev *ir.Value
	// aux are the loop's other induction variables (idx++ beside i++):
	// the reverse computes them from the index instead of taping them.
	aux []*auxVar
}

// auxVar is an induction variable of a counted loop other than its index:
// a header φ(init, phi+step). At the header execution where the index is
// i, it is final - (finalIndex - i)/loopStep·step, from the values both
// have when the loop exits.
type auxVar struct {
	phi   *ir.Value
	step  constant.Value
	final *ir.Value // for a nested loop: the final value, popped in the exit's reverse
	// In the reverse of the header, like the index's idx and prev.
	idx, prev *ir.Value
}

// findCountedLoops returns the loops of the primal that can be reversed
// by their index: not nested in another loop, on every path to the return,
// entered once, left only from the header, with an index stepping by a
// constant from an available start.
func (t *transformer) findCountedLoops() map[*ir.Block]*countedLoop {
	out := map[*ir.Block]*countedLoop{}
	var pending []*countedLoop
	for hi, body := range t.cfg.Loop {
		h := t.primal.Blocks[hi]
		if len(h.Preds) != 2 {
			continue
		}
		nested := false
		for oi := range t.cfg.Loop {
			nested = nested || oi != hi && t.cfg.InLoop(t.primal.Blocks[oi], h)
		}
		if !nested && !t.cfg.Dominates(h, t.exit) {
			continue
		}
		pre, latch := 0, 1
		if body[h.Preds[0].Index] {
			pre, latch = 1, 0
		}
		if body[h.Preds[pre].Index] || !body[h.Preds[latch].Index] {
			continue
		}
		// The header is the only block that leaves the loop.
		single := true
		for _, b := range t.primal.Blocks {
			if !body[b.Index] || b == h {
				continue
			}
			for _, s := range b.Succs {
				single = single && body[s.Index]
			}
		}
		if !single {
			continue
		}
		for _, v := range h.Instrs {
			if v.Op != ir.OpPhi {
				break
			}
			st := ir.InductionStep(v, latch)
			if st == nil || !nested && !t.available(v.Args[pre]) {
				continue
			}
			step := t.F.ConstValue(v.Type, st)
			c := &countedLoop{header: h, phi: v, init: v.Args[pre], step: step, pre: pre, latch: latch}
			if nested {
				// The final index changes with the outer iterations: the
				// block the loop exits to records it, once per run of the
				// loop. It must be the header's only way out.
				for _, s := range h.Succs {
					if !body[s.Index] {
						c.exit = s
					}
				}
				if c.exit == nil || len(c.exit.Preds) != 1 {
					break
				}
				if !isConstOrParam(c.init) {
					// Decided below, once the loops around it are known.
					pending = append(pending, c)
					continue
				}
			}
			out[h] = c
			break
		}
	}
	// A nested loop whose start is computed from the indices of the loops
	// around it (for j := i + 1; …) is reversed by its index too when the
	// reverse can recompute that start: accept such loops until no more
	// qualify, outer ones first.
	t.counted = out
	for changed := true; changed; {
		changed = false
		for i, c := range pending {
			if c == nil || out[c.header] != nil {
				continue
			}
			t.cur = c.header
			if leaves, _, ok := t.recomputeCost(c.init, maxRecompute); ok && len(leaves) == 0 {
				t.markRecompute(c.init)
				out[c.header] = c
				pending[i] = nil
				changed = true
			}
			t.cur = nil
		}
	}
	for _, c := range out {
		for _, v := range c.header.Instrs {
			if v.Op != ir.OpPhi {
				break
			}
			if v == c.phi {
				continue
			}
			if st := ir.InductionStep(v, c.latch); st != nil {
				c.aux = append(c.aux, &auxVar{phi: v, step: st})
			}
		}
	}
	return out
}

// auxOf returns the induction variable of c that w is, or nil.
func (c *countedLoop) auxOf(w *ir.Value) *auxVar {
	for _, a := range c.aux {
		if a.phi == w {
			return a
		}
	}
	return nil
}

// startCounted prepares the reverse of a counted loop's header: the φ of
// the index being reversed and the index before it.
func (t *transformer) startCounted(c *countedLoop) {
	rh := t.rev[c.header]
	c.idx = t.F.NewValue(ir.OpPhi, c.phi.Type)
	c.idx.Name = c.phi.Name
	rh.Insert(0, c.idx)
	c.prev = stepBack(t.F, c.idx, c.step.Const)
	rh.Insert(1, c.prev)
	for _, a := range c.aux {
		a.idx = t.F.NewValue(ir.OpPhi, a.phi.Type)
		a.idx.Name = a.phi.Name
		rh.Insert(0, a.idx)
		a.prev = stepBack(t.F, a.idx, a.step)
		a.prev.Name = a.phi.Name
		rh.Insert(len(c.aux)+2, a.prev)
	}
}

// finishCounted gives the index φ of the reversed header its arguments:
// the final index when coming from after the loop, the previous one when
// coming back from the reverse of an iteration.
func (t *transformer) finishCounted(c *countedLoop) {
	for _, p := range t.rev[c.header].Preds {
		arg := t.v(c.phi)
		if c.exit != nil {
			arg = c.final
		}
		if t.backEdge[p] {
			arg = c.prev
		}
		c.idx.Args = append(c.idx.Args, arg)
		for _, a := range c.aux {
			arg := t.v(a.phi)
			if c.exit != nil {
				arg = a.final
			}
			if t.backEdge[p] {
				arg = a.prev
			}
			a.idx.Args = append(a.idx.Args, arg)
		}
	}
}

func isConstOrParam(v *ir.Value) bool { return v.Op == ir.OpConst || v.Op == ir.OpParam }

// countedExit returns the nested counted loop that exits to b, or nil.
func (t *transformer) countedExit(b *ir.Block) *countedLoop {
	for _, c := range t.counted {
		if c.exit == b {
			return c
		}
	}
	return nil
}

// stepBack returns a new value x - step, written x + |step| when step is
// negative.
func stepBack(f *ir.Func, x *ir.Value, step constant.Value) *ir.Value {
	tok := token.SUB
	if constant.Sign(step) < 0 {
		tok, step = token.ADD, constant.UnaryOp(token.SUB, step, 0)
	}
	v := f.NewValue(ir.OpBinary, x.Type, x, f.ConstValue(x.Type, step))
	v.Tok = tok
	return v
}
