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
	"go/types"

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
}

// findCountedLoops returns the loops of the primal that can be reversed
// by their index: not nested in another loop, on every path to the return,
// entered once, left only from the header, with an index stepping by a
// constant from an available start.
func (t *transformer) findCountedLoops() map[*ir.Block]*countedLoop {
	out := map[*ir.Block]*countedLoop{}
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
			b, ok := v.Type.Underlying().(*types.Basic)
			if !ok || b.Info()&types.IsInteger == 0 {
				continue
			}
			next := v.Args[latch]
			if next.Op != ir.OpBinary || next.Args[0] != v || next.Args[1].Op != ir.OpConst ||
				next.Tok != token.ADD && next.Tok != token.SUB || !t.available(v.Args[pre]) {
				continue
			}
			step := next.Args[1]
			if next.Tok == token.SUB {
				step = t.F.ConstValue(step.Type, constant.UnaryOp(token.SUB, step.Const, 0))
			}
			if constant.Sign(step.Const) == 0 {
				continue
			}
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
				if c.exit == nil || len(c.exit.Preds) != 1 || !isConstOrParam(c.init) {
					break
				}
			}
			out[h] = c
			break
		}
	}
	return out
}

// startCounted prepares the reverse of a counted loop's header: the φ of
// the index being reversed and the index before it.
func (t *transformer) startCounted(c *countedLoop) {
	rh := t.rev[c.header]
	c.idx = t.F.NewValue(ir.OpPhi, c.phi.Type)
	c.idx.Name = c.phi.Name
	rh.Insert(0, c.idx)
	c.prev = t.F.NewValue(ir.OpBinary, c.phi.Type, c.idx, t.F.ConstValue(c.step.Type, c.step.Const))
	c.prev.Tok = token.SUB
	rh.Insert(1, c.prev)
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
