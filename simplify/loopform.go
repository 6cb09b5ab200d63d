package simplify

// This file defines the canonical form of loops: tested at the top, with
// the counter that the test reads being a header φ stepped by a constant
// on the back edge. It is the shape of a three-clause Go loop,
//
//	for i := a; i < n; i += c { B }
//
// which reverse mode runs backwards by its index (no tape of the index or
// of the path through the header) and the emitter writes back as a
// three-clause for statement. go/ssa gives two other shapes for range
// loops, which this pass rewrites into it:
//
//   - Range over an integer (Go 1.22, for i := range n) is tested at the
//     end of its body and guarded on entry (loop inversion):
//
//	if 0 < n { for { B; i++; if !(i < n) { break } } }
//
//     The guard and the latch's test are the same comparison of the
//     counter with an invariant bound, so they merge into one test at a
//     new header. When constant folding has removed the guard, the
//     rewrite is done only if the test holds for the first value (both
//     constants): a do-while loop whose body must run once stays as it
//     is.
//   - Range over a slice or array steps its counter before the test:
//
//	i := -1; for { t := i + 1; if !(t < n) { break }; B(t); i = t }
//
//     t is itself a counter (t₀ = −1 + 1, t ← t + 1), so t becomes the
//     header φ, starting at the folded constant, and i, if anything else
//     reads it, is t − 1.
//
// This is the loop rotation and induction-variable canonicalization of
// optimizing compilers (Muchnick, §14.1 and §18.2), run in the opposite
// direction to rotation: gadgen wants the top-tested form. The exit of a
// loop's test gets a block of its own where it would join other paths
// (LLVM's "dedicated exits").

import (
	"go/constant"
	"go/token"

	"github.com/gadgen/gadgen/ir"
)

// LoopForm rewrites the loops of f into the canonical form described
// above, innermost loops first. It is required: reverse mode and the
// emitter rely on it even when optimization is off.
func LoopForm(f *ir.Func) {
	for changed := true; changed; {
		changed = false
		cfg := ir.NewCFG(f)
		for _, h := range loopHeaders(cfg) {
			if oneEdge(f, cfg, h, true) || oneEdge(f, cfg, h, false) {
				changed = true
				break // the CFG changed
			}
			if unrotate(f, cfg, h) {
				changed = true
				break // the CFG changed
			}
			if dedicatedExit(f, cfg, h) {
				changed = true
				break // the CFG changed
			}
			if preIncrement(f, cfg, h) {
				changed = true
			}
		}
	}
}

// loopHeaders returns the loop headers of cfg, inner loops before the
// loops around them.
func loopHeaders(cfg *ir.CFG) []*ir.Block {
	var hs []*ir.Block
	for i := len(cfg.RPO) - 1; i >= 0; i-- {
		if b := cfg.RPO[i]; cfg.LoopHeader[b.Index] {
			hs = append(hs, b)
		}
	}
	return hs
}

// oneEdge gives the loop headed by h a single back edge (back) or a
// single entry (!back) when it has several: those edges go to a new block
// whose φs merge what h's φs took from them, and that jumps to h (the
// loop simplification of LLVM's LoopSimplify: a continue in a range loop
// jumps to the header, beside the latch). It reports whether it changed
// f.
func oneEdge(f *ir.Func, cfg *ir.CFG, h *ir.Block, back bool) bool {
	var from []int
	for i, p := range h.Preds {
		if cfg.Reachable(p) && cfg.InLoop(h, p) == back {
			from = append(from, i)
		}
	}
	if len(from) < 2 {
		return false
	}
	comment := "loop.pre"
	if back {
		comment = "loop.latch"
	}
	nb := f.NewBlock(comment)
	for _, v := range h.Instrs {
		if v.Op != ir.OpPhi {
			break
		}
		var args []*ir.Value
		same := true
		for _, i := range from {
			args = append(args, v.Args[i])
			same = same && v.Args[i] == v.Args[from[0]]
		}
		merged := args[0]
		if !same {
			merged = f.NewValue(ir.OpPhi, v.Type)
			merged.Name, merged.Args = v.Name, args
			nb.Append(merged)
		}
		v.Args[from[0]] = merged
	}
	for _, i := range from {
		p := h.Preds[i]
		for k, s := range p.Succs {
			if s == h {
				p.Succs[k] = nb
				break
			}
		}
		nb.Preds = append(nb.Preds, p)
	}
	// h keeps its first such edge, now from nb, and loses the others.
	h.Preds[from[0]] = nb
	for k := len(from) - 1; k > 0; k-- {
		h.RemovePred(from[k])
	}
	nb.NewValue(ir.OpJump, nil)
	nb.Succs = []*ir.Block{h}
	f.Renumber()
	return true
}

// dedicatedExit gives the exit edge of h's test its own block when the
// block it leaves for has other predecessors (a loop in one arm of an if,
// exiting to the join): reverse mode records the loop's final index there.
func dedicatedExit(f *ir.Func, cfg *ir.CFG, h *ir.Block) bool {
	term := h.Terminator()
	if term == nil || term.Op != ir.OpIf || h.Succs[0] == h.Succs[1] {
		return false
	}
	for k, s := range h.Succs {
		if cfg.InLoop(h, s) || len(s.Preds) < 2 {
			continue
		}
		nb := f.NewBlock("loop.exit")
		j := s.PredIndex(h)
		s.Preds[j] = nb
		nb.Preds = []*ir.Block{h}
		h.Succs[k] = nb
		nb.NewValue(ir.OpJump, nil)
		nb.Succs = []*ir.Block{s}
		f.Renumber()
		return true
	}
	return false
}

// loopEdges returns the positions of the single entry and single back
// edge of the loop headed by h, or ok false when it has others.
func loopEdges(cfg *ir.CFG, h *ir.Block) (pre, latch int, ok bool) {
	if len(h.Preds) != 2 {
		return 0, 0, false
	}
	pre, latch = 0, 1
	if cfg.InLoop(h, h.Preds[0]) {
		pre, latch = 1, 0
	}
	if cfg.InLoop(h, h.Preds[pre]) || !cfg.InLoop(h, h.Preds[latch]) {
		return 0, 0, false
	}
	return pre, latch, true
}

// definedOutside reports whether v is available before the loop headed by
// h: a constant or parameter, or defined in a block that dominates the
// preheader and is not in the loop.
func definedOutside(cfg *ir.CFG, h, preheader *ir.Block, v *ir.Value) bool {
	if v.Block == nil {
		return true
	}
	return !cfg.InLoop(h, v.Block) && cfg.Dominates(v.Block, preheader)
}

// testOf returns the comparison a block's if makes and whether its true
// edge goes to stay (the loop continues when the comparison holds), or
// nil.
func testOf(b, stay *ir.Block) (*ir.Value, bool) {
	term := b.Terminator()
	if term == nil || term.Op != ir.OpIf || b.Succs[0] == b.Succs[1] {
		return nil, false
	}
	c := term.Args[0]
	if c.Op != ir.OpBinary || !isComparison(c.Tok) {
		return nil, false
	}
	switch stay {
	case b.Succs[0]:
		return c, true
	case b.Succs[1]:
		return c, false
	}
	return nil, false
}

func isComparison(tok token.Token) bool {
	switch tok {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// counterSide returns the position (0 or 1) of the operand of comparison c
// that is x; the other one is the bound. -1 when neither is.
func counterSide(c, x *ir.Value) int {
	switch {
	case c.Args[0] == x && c.Args[1] != x:
		return 0
	case c.Args[1] == x && c.Args[0] != x:
		return 1
	}
	return -1
}

// unrotate rewrites the loop headed by h when it is tested at its latch
// and guarded on entry by the same test of the counter's first value (see
// the file comment). It reports whether it changed f.
func unrotate(f *ir.Func, cfg *ir.CFG, h *ir.Block) bool {
	r := matchRotated(f, cfg, h)
	if r == nil {
		return false
	}
	nh, phis, cond := r.newHeader(f)
	r.carryOut(f, cfg, nh, phis)
	r.reconnect(f, nh, cond)
	return true
}

// rotatedLoop is a loop, headed by h, tested at its latch, entered from
// pre and left to exit, whose counter phi the test compares with bound
// (on side 1−side of the test); the test stays in the loop when it holds
// if stayOnTrue. pi and li are the edges into h from pre and latch.
// guarded: pre tests the counter's first value the same way; otherwise
// the loop dominates the exit, and outside are its values read after it
// without a φ.
type rotatedLoop struct {
	h, pre, latch, exit *ir.Block
	pi, li, side        int
	test, phi, bound    *ir.Value
	stayOnTrue, guarded bool
	outside             []*ir.Value
}

// matchRotated returns the loop headed by h if unrotate can rewrite it,
// else nil.
func matchRotated(f *ir.Func, cfg *ir.CFG, h *ir.Block) *rotatedLoop {
	pi, li, ok := loopEdges(cfg, h)
	if !ok {
		return nil
	}
	pre, latch := h.Preds[pi], h.Preds[li]
	test, stayOnTrue := testOf(latch, h)
	if test == nil {
		return nil
	}
	exit := latch.Succs[0]
	if exit == h {
		exit = latch.Succs[1]
	}
	if cfg.InLoop(h, exit) {
		return nil
	}
	// The counter: a φ of h whose back-edge argument the test compares
	// with a bound defined before the loop.
	var phi *ir.Value
	side := -1
	for _, v := range h.Instrs {
		if v.Op != ir.OpPhi {
			break
		}
		if ir.InductionStep(v, li) == nil {
			continue
		}
		if s := counterSide(test, v.Args[li]); s >= 0 && definedOutside(cfg, h, pre, test.Args[1-s]) {
			phi, side = v, s
			break
		}
	}
	if phi == nil {
		return nil
	}
	bound := test.Args[1-side]
	init := phi.Args[pi]
	// The entry: a guard testing init the same way, whose other edge goes
	// to the same exit; or, the guard folded away, a first test that is
	// known to hold.
	guarded := false
	switch term := pre.Terminator(); term.Op {
	case ir.OpIf:
		g, gStay := testOf(pre, h)
		if g == nil || gStay != stayOnTrue || g.Tok != test.Tok ||
			!sameOperand(g.Args[side], init) || !sameOperand(g.Args[1-side], bound) {
			return nil
		}
		other := pre.Succs[0]
		if other == h {
			other = pre.Succs[1]
		}
		if other != exit {
			return nil
		}
		guarded = true
	case ir.OpJump:
		if !firstTestHolds(test, side, init, bound, stayOnTrue) {
			return nil
		}
	default:
		return nil
	}

	// Values of the loop read after it without a φ: possible only when
	// the guard folded away, so that the loop dominates the exit.
	var outside []*ir.Value
	if !guarded {
		uses := ir.Uses(f)
		for _, b := range f.Blocks {
			if !cfg.InLoop(h, b) {
				continue
			}
			for _, v := range b.Instrs {
				for _, u := range uses[v.ID] {
					if readAfter(cfg, h, exit, u, v) {
						outside = append(outside, v)
						break
					}
				}
			}
		}
	}
	return &rotatedLoop{h: h, pre: pre, latch: latch, exit: exit, pi: pi, li: li, side: side,
		test: test, phi: phi, bound: bound, stayOnTrue: stayOnTrue, guarded: guarded, outside: outside}
}

// newHeader makes the new header: h's φs, and the test of the counter.
func (r *rotatedLoop) newHeader(f *ir.Func) (nh *ir.Block, phis []*ir.Value, cond *ir.Value) {
	h, pi, li, phi, bound, test, side := r.h, r.pi, r.li, r.phi, r.bound, r.test, r.side
	nh = f.NewBlock("loop")
	for _, v := range h.Instrs {
		if v.Op != ir.OpPhi {
			break
		}
		phis = append(phis, v)
	}
	h.Instrs = h.Instrs[len(phis):]
	for _, v := range phis {
		nh.Append(v)
		v.Args = []*ir.Value{v.Args[pi], v.Args[li]}
	}
	cargs := []*ir.Value{phi, bound}
	if side == 1 {
		cargs[0], cargs[1] = bound, phi
	}
	cond = nh.NewValue(ir.OpBinary, test.Type, cargs...)
	cond.Tok, cond.Pos = test.Tok, test.Pos
	return nh, phis, cond
}

// carryOut makes the loop's values read after it, and the exit's φs'
// arguments from the latch, flow out through φs of the new header nh
// (whose φs are phis): their value on leaving is the one the last latch
// passed on.
func (r *rotatedLoop) carryOut(f *ir.Func, cfg *ir.CFG, nh *ir.Block, phis []*ir.Value) {
	h, pre, latch, exit, guarded, outside := r.h, r.pre, r.latch, r.exit, r.guarded, r.outside
	carried := func(x, first *ir.Value) *ir.Value {
		if x.Block == nil || x.Block != nh && !cfg.InLoop(h, x.Block) {
			return x // the same on every iteration
		}
		for _, v := range phis {
			if v.Args[1] == x && (first == nil || sameOperand(v.Args[0], first)) {
				return v
			}
		}
		if first == nil {
			first = f.ConstValue(x.Type, nil) // never read: the first test holds
		}
		v := f.NewValue(ir.OpPhi, x.Type)
		v.Args = []*ir.Value{first, x}
		v.Name = x.Name
		nh.Insert(len(phis), v)
		phis = append(phis, v)
		return v
	}
	ei := exit.PredIndex(latch)
	gi := -1
	if guarded {
		gi = exit.PredIndex(pre)
	}
	for _, v := range exit.Instrs {
		if v.Op != ir.OpPhi {
			break
		}
		var first *ir.Value
		if guarded {
			first = v.Args[gi]
		}
		v.Args[ei] = carried(v.Args[ei], first)
	}
	// A value read after the loop: from the new header, the value it
	// carries; from a break, the value itself (which dominates the exit,
	// so every break too).
	for _, v := range outside {
		w := carried(v, nil)
		if len(exit.Preds) > 1 {
			m := f.NewValue(ir.OpPhi, v.Type)
			m.Name = v.Name
			for _, p := range exit.Preds {
				if p == latch {
					m.Args = append(m.Args, w)
				} else {
					m.Args = append(m.Args, v)
				}
			}
			exit.Insert(0, m)
			w = m
		}
		for _, b := range f.Blocks {
			if b == nh || !cfg.Reachable(b) {
				continue
			}
			for _, u := range b.Instrs {
				if u == w {
					continue
				}
				for i, a := range u.Args {
					if a == v && readAfterAt(cfg, h, exit, u, i) {
						u.Args[i] = w
					}
				}
			}
		}
	}
}

// reconnect makes the edges pre → nh → h or exit, and latch → nh.
func (r *rotatedLoop) reconnect(f *ir.Func, nh *ir.Block, cond *ir.Value) {
	h, pre, latch, exit := r.h, r.pre, r.latch, r.exit
	guarded, stayOnTrue := r.guarded, r.stayOnTrue
	gi := -1
	if guarded {
		gi = exit.PredIndex(pre)
	}
	if guarded {
		term := pre.Terminator()
		term.Op, term.Args = ir.OpJump, nil
		exit.RemovePred(gi)
		pre.Succs = []*ir.Block{nh}
	} else {
		for i, s := range pre.Succs {
			if s == h {
				pre.Succs[i] = nh
			}
		}
	}
	exit.Preds[exit.PredIndex(latch)] = nh
	lt := latch.Terminator()
	lt.Op, lt.Args = ir.OpJump, nil
	latch.Succs = []*ir.Block{nh}
	nh.Preds = []*ir.Block{pre, latch}
	h.Preds = []*ir.Block{nh}
	nh.NewValue(ir.OpIf, nil, cond)
	if stayOnTrue {
		nh.Succs = []*ir.Block{h, exit}
	} else {
		nh.Succs = []*ir.Block{exit, h}
	}
	f.Renumber()
}

// readAfter reports whether u reads v after the loop headed by h, in the
// part of the function its exit dominates (u's φ arguments flowing in
// from the exit's latch excepted: the exit's own φs).
func readAfter(cfg *ir.CFG, h, exit *ir.Block, u, v *ir.Value) bool {
	for i, a := range u.Args {
		if a == v && readAfterAt(cfg, h, exit, u, i) {
			return true
		}
	}
	return false
}

// readAfterAt reports whether argument i of u is read after the loop
// headed by h, where its exit dominates: for a φ, at the end of the
// predecessor it flows in from.
func readAfterAt(cfg *ir.CFG, h, exit *ir.Block, u *ir.Value, i int) bool {
	at := u.Block
	if u.Op == ir.OpPhi {
		at = at.Preds[i]
	}
	if at.Index >= len(cfg.Order) || !cfg.Reachable(at) || cfg.InLoop(h, at) {
		return false
	}
	// An exit that dominates the loop (the header of a loop around it)
	// is reached after the loop only through its φs: a block it
	// dominates may be one a break leads to (a return in the loop).
	return cfg.Dominates(exit, at) && !cfg.Dominates(exit, h)
}

// sameOperand reports whether a and b are the same value, or equal
// constants.
func sameOperand(a, b *ir.Value) bool {
	if a == b {
		return true
	}
	return a.Op == ir.OpConst && b.Op == ir.OpConst && a.Const != nil && b.Const != nil &&
		a.Const.Kind() == b.Const.Kind() && constant.Compare(a.Const, token.EQL, b.Const)
}

// firstTestHolds reports whether the loop test, applied to the counter's
// first value init, is known to keep the loop going: both are constants.
func firstTestHolds(test *ir.Value, side int, init, bound *ir.Value, stayOnTrue bool) bool {
	a, b := constOf(init), constOf(bound)
	if a == nil || b == nil || a.Kind() != constant.Int || b.Kind() != constant.Int {
		return false
	}
	if side == 1 {
		a, b = b, a
	}
	return constant.Compare(a, test.Tok, b) == stayOnTrue
}

// preIncrement rewrites the loop headed by h when its test reads t = φ + k
// (k a constant) and φ's back-edge argument is t itself (see the file
// comment). It reports whether it changed f.
func preIncrement(f *ir.Func, cfg *ir.CFG, h *ir.Block) bool {
	pi, li, ok := loopEdges(cfg, h)
	if !ok {
		return false
	}
	term := h.Terminator()
	if term == nil || term.Op != ir.OpIf || h.Preds[li] == h || cfg.InLoop(h, h.Succs[0]) == cfg.InLoop(h, h.Succs[1]) {
		return false // not tested at the top
	}
	c := term.Args[0]
	if c.Op != ir.OpBinary || !isComparison(c.Tok) {
		return false
	}
	for side := range 2 {
		t := c.Args[side]
		if t.Op != ir.OpBinary || t.Block != h || (t.Tok != token.ADD && t.Tok != token.SUB) {
			continue
		}
		phi, k := t.Args[0], t.Args[1]
		if phi.Op != ir.OpPhi || phi.Block != h || k.Op != ir.OpConst || phi.Args[li] != t {
			continue
		}
		first := constOf(phi.Args[pi])
		if first == nil || first.Kind() != constant.Int {
			continue
		}
		start := intConstOf(f, t.Type, constant.BinaryOp(first, t.Tok, k.Const))
		if start == nil {
			continue
		}
		// j = φ(first ± k, j ± k) replaces t.
		j := f.NewValue(ir.OpPhi, t.Type)
		j.Name, j.Pos = t.Name, t.Pos
		next := f.NewValue(ir.OpBinary, t.Type, j, k)
		next.Tok = t.Tok
		latch := h.Preds[li]
		latch.Insert(len(latch.Instrs)-1, next)
		j.Args = make([]*ir.Value, 2)
		j.Args[pi], j.Args[li] = start, next
		h.Insert(0, j)
		replaceUses(f, t, j)
		next.Args[0] = j
		// φ's other readers see j ∓ k.
		phi.Args[li] = j
		uses := ir.Uses(f)
		if len(uses[phi.ID]) > 1 || len(uses[phi.ID]) == 1 && uses[phi.ID][0] != t {
			back := map[token.Token]token.Token{token.ADD: token.SUB, token.SUB: token.ADD}[t.Tok]
			prev := f.NewValue(ir.OpBinary, t.Type, j, k)
			prev.Tok = back
			at := 0
			for at < len(h.Instrs) && h.Instrs[at].Op == ir.OpPhi {
				at++
			}
			h.Insert(at, prev)
			replaceUses(f, phi, prev)
			prev.Args[0] = j
			if phi.Name != "" {
				prev.Name = phi.Name
			}
		}
		removeValue(t)
		removeValue(phi)
		return true
	}
	return false
}
