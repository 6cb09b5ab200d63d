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
	"slices"

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
	// breaks are the blocks of the body that leave the loop (break,
	// return), in block order; the reverse of a break's iteration starts
	// there. breakTo, for a nested loop, are the blocks they leave for,
	// which record the index as exit does.
	breaks, breakTo []*ir.Block
	// part, for a loop with breaks, is a φ in the reverse of the header:
	// 0 when the iteration being reversed ran whole, i+1 when it left
	// from breaks[i].
	part *ir.Value
	// entries are the arguments of idx (and part, and of the aux's idx)
	// on each edge into the reverse of the header from after the loop.
	entries map[*ir.Block][]*ir.Value
	// aux are the loop's other induction variables (idx++ beside i++):
	// the reverse computes them from the index instead of taping them.
	aux []*auxVar
	// out is the block the header exits to.
	out *ir.Block
	// down: the reverse of the header only steps the index back, so the
	// loop's reverse is the countdown
	//
	//	for idx := start; idx >= init; idx -= step { reverse of the body at idx }
	//
	// (≤ for a negative step), and idx is the index of the iteration
	// being reversed (prev is idx).
	down bool
	// bound and adj: the loop goes on while the index is below bound (or
	// above it, or until it equals it), so that bound+adj is the index of
	// its last iteration when it runs at all, and below init when it does
	// not; nil when the test is of another form. closed: the reverse uses
	// it, so the final index is not recorded.
	bound  *ir.Value
	adj    int64
	closed bool
	// start is the index of the last iteration (down loops), computed
	// in the reverse of out; nil when it is computed on each edge into
	// the reverse of the header from the final index.
	start *ir.Value
}

// auxVar is an induction variable of a counted loop other than its index:
// a header φ(init, phi+step). At the header execution where the index is
// i, it is final - (finalIndex - i)/loopStep·step, from the values both
// have when the loop exits.
type auxVar struct {
	phi   *ir.Value
	step  constant.Value
	final *ir.Value // for a nested loop: the final value, popped in the exit's reverse
	start *ir.Value // for a down loop: its value at the last iteration, or nil (see countedLoop.start)
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
		// A loop that may not run (in a branch) has its final index
		// recorded by the block it exits to, as a nested loop has.
		inBranch := !nested && !t.cfg.Dominates(h, t.exit)
		nested = nested || inBranch
		pre, latch := 0, 1
		if body[h.Preds[0].Index] {
			pre, latch = 1, 0
		}
		if body[h.Preds[pre].Index] || !body[h.Preds[latch].Index] {
			continue
		}
		// Other blocks may leave the loop (break, return): the break
		// sources, each leaving it for a block that no other loop
		// around it leaves too; exits into blocks that never return
		// (panics) do not count.
		var breaks, breakTo []*ir.Block
		ok := true
		for _, b := range t.primal.Blocks {
			if !body[b.Index] || b == h || !t.cfg.Reachable(b) {
				continue
			}
			leaves := false
			for _, s := range b.Succs {
				if body[s.Index] || !t.returns[s] {
					continue
				}
				leaves = true
				for oi := range t.cfg.Loop {
					if o := t.primal.Blocks[oi]; o != h && t.cfg.InLoop(o, h) && !t.cfg.InLoop(o, s) {
						ok = false // leaves an outer loop too
					}
				}
				if nested && !t.onlyFrom(s, body) {
					ok = false // its target cannot record the index
				}
				if !slices.Contains(breakTo, s) {
					breakTo = append(breakTo, s)
				}
			}
			if leaves {
				breaks = append(breaks, b)
			}
		}
		if !ok || inBranch && len(breaks) > 0 {
			continue // a break's target would need the index too
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
			c := &countedLoop{header: h, phi: v, init: v.Args[pre], step: step, pre: pre, latch: latch, breaks: breaks}
			if nested {
				c.breakTo = breakTo
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
		for _, s := range c.header.Succs {
			if !t.cfg.InLoop(c.header, s) {
				c.out = s
			}
		}
		c.bound, c.adj = closedForm(c, t.cfg)
	}
	return out
}

// closedForm returns, for a loop whose test compares its index with a
// bound defined outside it and whose step is ±1, the bound and the
// offset adj such that bound+adj is the index of the last iteration
// when the loop runs at all (see countedLoop.bound); nil otherwise.
//
// For a step of +1: i < n gives n−1, i ≤ n gives n, i ≠ n gives n−1; for
// −1: i > n gives n+1, i ≥ n gives n, i ≠ n gives n+1. When the loop does
// not run, n+adj is below init (above, for −1), so the countdown from
// it does not run either.
func closedForm(c *countedLoop, cfg *ir.CFG) (*ir.Value, int64) {
	h := c.header
	term := h.Terminator()
	if term == nil || term.Op != ir.OpIf || c.out == nil {
		return nil, 0
	}
	cond := term.Args[0]
	if cond.Op != ir.OpBinary || len(cond.Args) != 2 {
		return nil, 0
	}
	step, ok := constant.Int64Val(c.step.Const)
	if !ok || step != 1 && step != -1 {
		return nil, 0
	}
	x, n, tok := cond.Args[0], cond.Args[1], cond.Tok
	if n == c.phi {
		x, n = n, x
		tok = map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ, token.GEQ: token.LEQ,
			token.EQL: token.EQL, token.NEQ: token.NEQ}[tok]
	}
	if x != c.phi || !invariantIn(cfg, h, n) {
		return nil, 0
	}
	if h.Succs[0] == c.out {
		// The loop goes on while the comparison fails: integers have no
		// NaN, so that is the opposite comparison.
		tok = map[token.Token]token.Token{token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.LEQ: token.GTR,
			token.EQL: token.NEQ, token.NEQ: token.EQL}[tok]
	}
	switch {
	case step == 1 && (tok == token.LSS || tok == token.NEQ):
		return n, -1
	case step == 1 && tok == token.LEQ:
		return n, 0
	case step == -1 && (tok == token.GTR || tok == token.NEQ):
		return n, 1
	case step == -1 && tok == token.GEQ:
		return n, 0
	}
	return nil, 0
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
	if c.down {
		c.prev = c.idx
		c.entries = map[*ir.Block][]*ir.Value{}
		if len(c.breaks) > 0 {
			c.part = t.F.NewValue(ir.OpPhi, intType)
			c.part.Name = "part"
			rh.Insert(1, c.part)
		}
	} else {
		c.prev = stepBack(t.F, c.idx, c.step.Const)
		rh.Insert(1, c.prev)
	}
	for _, a := range c.aux {
		a.idx = t.F.NewValue(ir.OpPhi, a.phi.Type)
		a.idx.Name = a.phi.Name
		rh.Insert(0, a.idx)
		if c.down {
			a.prev = a.idx
			continue
		}
		a.prev = stepBack(t.F, a.idx, a.step)
		a.prev.Name = a.phi.Name
		rh.Insert(len(c.aux)+2, a.prev)
	}
}

// finishCounted gives the index φ of the reversed header its arguments.
// For a down loop: the index of the last iteration when coming from after
// the loop, the index stepped back when coming back from the reverse of an
// iteration. Otherwise: the final index when coming from after the loop,
// the previous one when coming back from the reverse of an iteration.
func (t *transformer) finishCounted(c *countedLoop) {
	// before emits x − step at the end of block p.
	before := func(p *ir.Block, x *ir.Value, step constant.Value) *ir.Value {
		v := stepBack(t.F, x, step)
		v.Name = x.Name
		p.Insert(len(p.Instrs)-1, v)
		return v
	}
	for _, p := range t.rev[c.header].Preds {
		if c.down {
			entry := c.entries[p]
			if t.backEdge[p] {
				entry = []*ir.Value{before(p, c.idx, c.step.Const)}
				if c.part != nil {
					entry = append(entry, t.F.Int(0))
				}
				for _, a := range c.aux {
					entry = append(entry, before(p, a.idx, a.step))
				}
			}
			c.idx.Args = append(c.idx.Args, entry[0])
			entry = entry[1:]
			if c.part != nil {
				c.part.Args = append(c.part.Args, entry[0])
				entry = entry[1:]
			}
			for k, a := range c.aux {
				a.idx.Args = append(a.idx.Args, entry[k])
			}
			continue
		}
		// The index (or counter) along the edge from p: the previous
		// one back from the body, the final one from the exit, else the
		// forward's.
		arg := func(prev, final, phi *ir.Value) *ir.Value {
			switch {
			case t.backEdge[p]:
				return prev
			case c.exit != nil:
				return final
			}
			return t.v(phi)
		}
		c.idx.Args = append(c.idx.Args, arg(c.prev, c.final, c.phi))
		for _, a := range c.aux {
			a.idx.Args = append(a.idx.Args, arg(a.prev, a.final, a.phi))
		}
	}
}

// countdowns decides, once the needs of every block are known, which
// counted loops are reversed as countdowns (down) and which of those start
// from their bound (closed), recording no final index.
func (t *transformer) countdowns() {
	for _, c := range t.countedLoops() {
		c.down = t.quietHeader(c.header)
		if !c.down && len(c.breaks) > 0 {
			// Its reverse would need the path through the header.
			delete(t.counted, c.header)
			t.computeNeeds()
			t.countdowns()
			return
		}
	}
	for _, c := range t.countedLoops() {
		if !c.down || c.bound == nil || len(c.aux) > 0 || c.out == nil || !t.knownIn(c.out, c.bound) || !t.knownIn(c.out, c.init) {
			continue
		}
		c.closed = true
		if c.exit != nil {
			t.needs[c.exit] = slices.DeleteFunc(t.needs[c.exit], func(w *ir.Value) bool { return w == c.phi })
		}
	}
}

// countedLoops returns the loops reversed by index, in block order.
func (t *transformer) countedLoops() []*countedLoop {
	var out []*countedLoop
	for _, b := range t.primal.Blocks {
		if c := t.counted[b]; c != nil {
			out = append(out, c)
		}
	}
	return out
}

// knownIn reports whether the reverse of block b knows v without
// recording anything.
func (t *transformer) knownIn(b *ir.Block, v *ir.Value) bool {
	saved, savedPos := t.cur, t.curPos
	t.cur, t.curPos = b, len(b.Instrs)
	defer func() { t.cur, t.curPos = saved, savedPos }()
	return len(t.plan(v)) == 0
}

// enterCountdown ends the current block, in the reverse of what follows
// the down loop c, with a jump into the reverse of its header: after its
// normal exit (from < 0), the countdown starts at the last iteration;
// after breaks[from], at the iteration that left, which part makes start
// at that break.
func (t *transformer) enterCountdown(c *countedLoop, from int) {
	// The header's last index (the final one, or the one that left)
	// comes from the forward sweep or a record, unless the bound gives
	// the start.
	var entry []*ir.Value
	switch {
	case from >= 0:
		entry = append(entry, t.r(c.phi))
	case c.start != nil:
		entry = append(entry, c.start)
	default:
		entry = append(entry, t.emitStepBack(t.r(c.phi), c.step.Const))
	}
	if c.part != nil {
		entry = append(entry, t.F.Int(int64(from+1)))
	}
	for _, a := range c.aux {
		ai := t.r(a.phi)
		if from < 0 {
			ai = t.emitStepBack(ai, a.step)
		}
		entry = append(entry, ai)
	}
	c.entries[t.Cur] = entry
	t.Cur.Jump(t.rev[c.header])
}

// emitStepBack emits x − step in the current block.
func (t *transformer) emitStepBack(x *ir.Value, step constant.Value) *ir.Value {
	v := stepBack(t.F, x, step)
	v.Name = x.Name
	t.Cur.Append(v)
	return v
}

// quietHeader reports whether the reverse of loop header h does nothing:
// it records nothing and none of its values has a reverse (its φs' move
// along the edges).
func (t *transformer) quietHeader(h *ir.Block) bool {
	if len(t.needs[h]) > 0 {
		return false
	}
	for _, v := range h.Instrs {
		switch {
		case v.Op == ir.OpPhi || v.Op.IsTerminator():
		case v.Op == ir.OpStore || v.Op == ir.OpCall && t.anyVariedArg(v):
			return false
		case t.act.Varied(v) && hasAdjoint(v.Type):
			return false
		}
	}
	return true
}

// invariantIn reports whether integer v has the same value throughout
// the loop headed by h: defined outside it, or integer arithmetic, len or
// cap of such values (n−1 in a loop's test).
func invariantIn(cfg *ir.CFG, h *ir.Block, v *ir.Value) bool {
	if v.Block == nil || !cfg.InLoop(h, v.Block) {
		return true
	}
	switch v.Op {
	case ir.OpLen, ir.OpCap:
		return invariantIn(cfg, h, v.Args[0])
	case ir.OpBinary:
		return v.Tok != token.QUO && v.Tok != token.REM && invariantIn(cfg, h, v.Args[0]) && invariantIn(cfg, h, v.Args[1])
	}
	return false
}

func isConstOrParam(v *ir.Value) bool { return v.Op == ir.OpConst || v.Op == ir.OpParam }

// countedExit returns the nested counted loop that exits to b, by its
// header or a break, or nil: b records the loop's index.
func (t *transformer) countedExit(b *ir.Block) *countedLoop {
	for _, c := range t.countedLoops() {
		if c.exit == b || slices.Contains(c.breakTo, b) {
			return c
		}
	}
	return nil
}

// onlyFrom reports whether every predecessor of b is in body.
func (t *transformer) onlyFrom(b *ir.Block, body []bool) bool {
	for _, p := range b.Preds {
		if t.cfg.Reachable(p) && !body[p.Index] {
			return false
		}
	}
	return true
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
