package reverse

// This file defines the reservation of tape space before a loop: a
// counted loop that is not nested in another records a fixed number of
// values of each type per iteration (at most, when some blocks of its
// body are conditional), and its trip count is known when it is entered.
// Growing each tape once, with slices.Grow, before the loop saves the
// repeated reallocation and copying of append, which for large tapes
// grows them by only a quarter at a time.

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// reserve emits, at the end of the forward copy of block b, the growth of
// the tapes that the loop b enters records into, when the loop is not
// nested in another and its trip count is known on entry. What the loops
// nested in it record counts too, for those whose trip counts are known
// on entry to the outer loop (a loop over the components inside a loop
// over the points) and which, like the loops around them, leave only by
// their header's test; the others are left to append. (With an earlier
// exit, a product of trip bounds could reserve far more than the loops
// record: n² for a search that stops after n steps.)
func (t *transformer) reserve(b *ir.Block) {
	for hi := range t.cfg.Loop {
		h := t.primal.Blocks[hi]
		if len(h.Preds) != 2 || t.nestedAnywhere(h) || t.inFused(h) || t.revolve[h] != nil || t.reservedAhead[h] {
			continue
		}
		pre, latch := t.edges(h)
		if h.Preds[pre] != b || t.cfg.InLoop(h, b) {
			continue
		}
		trips := t.tripBound(h, pre, latch, h)
		if trips == nil {
			return
		}
		counts := t.records(h, b, h, t.singleExit(h))
		c := t.counted[h]
		firstTripOK := c != nil && h.Preds[latch] != h && !t.inFused(h)
		switch {
		case counts == nil:
			// Sizes known only as the loop records: sized after its
			// first trip (see sizeAfterFirst), when its body runs
			// whole on every trip, so that every trip records as the
			// first does (a first trip that records more than the
			// others, in a branch or a loop, would reserve that many
			// times over).
			if firstTripOK && t.straightBody(h, latch) {
				t.firstTrips[h] = &firstTrip{pre: t.Cur, trips: trips, c: c}
			}
			return
		case counts.partial && firstTripOK:
			// A loop nested in it, entered on every trip, records as
			// many values as it runs trips, known only inside (an
			// LSTM's layers, counted from a window's length): sized
			// after the first trip too. A first trip that records
			// more than the others reserves at most that many times
			// the first's; append alone would allocate up to five
			// times what the tape holds, growing it by a quarter at
			// a time.
			t.firstTrips[h] = &firstTrip{pre: t.Cur, trips: trips, c: c}
			return
		}
		total := &tapeCounts{n: map[string]*ir.Value{}}
		total.addTimes(t, trips, counts)
		t.reserveAhead(h, b, total)
		for _, typ := range total.types {
			n := total.n[types.TypeString(typ, nil)]
			tp := t.tape(typ)
			st := tp.Type.(*types.Pointer).Elem()
			grow := t.Emit(ir.OpCall, st, t.Emit(ir.OpLoad, st, tp), n)
			grow.Callee = &ir.Callee{Func: slicesGrow(st)}
			t.Emit(ir.OpStore, nil, tp, grow)
		}
		return
	}
}

// reserveAhead adds to total, the reservation emitted at the end of b
// for the loop h that b enters, what the loops run after h record: those
// entered from the blocks that follow h's exit one after the other
// (blocks with one successor, entered from one predecessor, outside
// loops, so that b's reservation runs before each such loop on every
// path and each runs when b's does), whose trip counts and records are
// known at the end of b; it marks them in t.reservedAhead, so that they
// reserve nothing themselves. A function that fills a matrix, factors it
// in place and solves with the factor (a GP likelihood's four loops) then
// grows its tape once for all, instead of reallocating it, copied, before
// each loop: allocated bytes fall by the tape's size.
func (t *transformer) reserveAhead(h, b *ir.Block, total *tapeCounts) {
	t.reserveAt = b
	defer func() { t.reserveAt = nil }()
	for range len(t.primal.Blocks) {
		if !t.singleExit(h) {
			return
		}
		var next *ir.Block
		for _, s := range h.Succs {
			if !t.cfg.InLoop(h, s) {
				next = s
			}
		}
		// Walk the blocks after h's exit to the next loop's header.
		for next != nil && !t.cfg.LoopHeader[next.Index] {
			if len(next.Preds) != 1 || len(next.Succs) != 1 || !t.outOfLoops(next) {
				return
			}
			for _, v := range next.Instrs {
				if t.restoredStore(v) {
					total.add(t, v.Args[1].Type, t.F.Int(1))
				}
			}
			next = next.Succs[0]
		}
		h2 := next
		if h2 == nil || len(h2.Preds) != 2 || t.nestedAnywhere(h2) || t.inFused(h2) || t.revolve[h2] != nil {
			return
		}
		pre, latch := t.edges(h2)
		if e := h2.Preds[pre]; e != h && (len(e.Preds) != 1 || !t.cfg.Dominates(h, e)) {
			return
		}
		trips := t.tripBound(h2, pre, latch, h2)
		if trips == nil {
			return
		}
		counts := t.records(h2, b, h2, t.singleExit(h2))
		if counts == nil || counts.partial {
			return // sized as it records, or after its first trip
		}
		total.addTimes(t, trips, counts)
		t.reservedAhead[h2] = true
		h = h2
	}
}

// straightBody reports whether the body of the loop headed by h runs
// whole on every trip: each of its blocks leads to the latch, none heads
// a loop.
func (t *transformer) straightBody(h *ir.Block, latch int) bool {
	l := h.Preds[latch]
	for _, b := range t.primal.Blocks {
		if b == h || !t.cfg.InLoop(h, b) {
			continue
		}
		if t.cfg.LoopHeader[b.Index] || !t.cfg.Dominates(b, l) {
			return false
		}
	}
	return true
}

// firstTrip is a loop whose tapes are sized after its first trip: pre is
// the forward block that enters it, trips its trip bound.
type firstTrip struct {
	pre   *ir.Block
	trips *ir.Value
	c     *countedLoop
	// header heads the loop; then and done are the blocks of the test
	// of its second trip.
	header, then, done *ir.Block
}

// sizeAfterFirst emits, at the start of the forward copy of body, the
// block a loop of t.firstTrips enters from its header, the test of its
// second trip, under which finishSizing puts the growth of the tapes the
// loop records into, for the trips left, by as much as the first trip
// recorded: a loop saving the memory behind a state's slices before each
// call (whose sizes are known only when it runs) then grows each tape
// once, instead of by a quarter at a time, allocating five times what it
// holds, as append does.
func (t *transformer) sizeAfterFirst(body *ir.Block) {
	for h, ft := range t.firstTrips {
		if len(body.Preds) != 1 || body.Preds[0] != h || !t.cfg.InLoop(h, body) {
			continue
		}
		second := t.intOp(token.ADD, t.v(ft.c.init), t.F.ConstValue(intType, ft.c.step.Const))
		cond := t.Emit(ir.OpBinary, boolType, t.v(ft.c.phi), second)
		cond.Tok = token.EQL
		t.detached(func() {
			ft.then, ft.done = t.F.NewBlock("then"), t.F.NewBlock("done")
			t.Cur.If(cond, ft.then, ft.done)
			t.Cur = ft.done
		})
		ft.header = h
		return
	}
}

// finishSizing fills the blocks sizeAfterFirst made, once the forward
// sweep knows the tapes each loop records into.
func (t *transformer) finishSizing() {
	cur := t.Cur
	defer func() { t.Cur = cur }()
	for _, h := range t.primal.Blocks { // in block order: deterministic output
		ft := t.firstTrips[h]
		if ft == nil || ft.then == nil {
			continue
		}
		var keys []string
		for key, blocks := range t.tapeBlocks {
			for blk := range blocks {
				if t.cfg.InLoop(ft.header, blk) {
					keys = append(keys, key)
					break
				}
			}
		}
		slices.Sort(keys)
		t.Cur = ft.then
		more := t.intOp(token.SUB, ft.trips, t.F.Int(2))
		for _, key := range keys {
			tp := t.tapes[key]
			st := tp.Type.(*types.Pointer).Elem()
			// The tape's length before the loop.
			before := t.F.NewValue(ir.OpLen, intType, t.F.NewValue(ir.OpLoad, st, tp))
			before.Name = "before"
			ft.pre.Insert(len(ft.pre.Instrs)-1, before.Args[0])
			ft.pre.Insert(len(ft.pre.Instrs)-1, before)
			t.growLike(tp, more, before)
		}
		t.Cur.Jump(ft.done)
	}
}

// growLike emits the growth of tape tp by more times what it recorded
// since its length was before.
func (t *transformer) growLike(tp, more, before *ir.Value) {
	st := tp.Type.(*types.Pointer).Elem()
	s := t.Emit(ir.OpLoad, st, tp)
	one := t.intOp(token.SUB, t.Emit(ir.OpLen, intType, s), before)
	grow := t.Emit(ir.OpCall, st, s, t.intOp(token.MUL, more, one))
	grow.Callee = &ir.Callee{Func: slicesGrow(st)}
	t.Emit(ir.OpStore, nil, tp, grow)
}

// tapeCounts are numbers of values recorded, by tape type: int
// expressions emitted before the loop that records them.
type tapeCounts struct {
	types []types.Type
	n     map[string]*ir.Value
	// partial: a loop nested in the one counted, entered on each of its
	// iterations, records an unknown number of values (its trip count is
	// known only inside).
	partial bool
}

// add adds k values of type typ.
func (c *tapeCounts) add(t *transformer, typ types.Type, k *ir.Value) {
	key := types.TypeString(typ, nil)
	old, ok := c.n[key]
	if !ok {
		c.types = append(c.types, typ)
		c.n[key] = k
		return
	}
	c.n[key] = t.intOp(token.ADD, old, k)
}

// addTimes adds trips times the counts of o.
func (c *tapeCounts) addTimes(t *transformer, trips *ir.Value, o *tapeCounts) {
	for _, typ := range o.types {
		c.add(t, typ, t.intOp(token.MUL, trips, o.n[types.TypeString(typ, nil)]))
	}
}

// records emits, in the forward copy of block b before the loop outer,
// the number of values of each type that one iteration of the loop headed
// by h (outer, or a loop nested in it) records, at most: those of the
// blocks of its own body, the contents of the slices saved before calls
// there, and those of the loops nested directly in it whose trip counts
// are known before outer, which leave only by their header's test and
// which every iteration of h enters, times these, when nested is true. It returns nil when the size of a
// saved slice is known only in the loop.
func (t *transformer) records(h, b, outer *ir.Block, nested bool) *tapeCounts {
	counts := &tapeCounts{n: map[string]*ir.Value{}}
	per := map[string]int{}
	var perTypes []types.Type
	count := func(typ types.Type, k int) {
		key := types.TypeString(typ, nil)
		if per[key] == 0 {
			perTypes = append(perTypes, typ)
		}
		per[key] += k
	}
	var body []*ir.Block
	for _, blk := range t.primal.Blocks {
		if t.cfg.InLoop(h, blk) && !t.nestedIn(h, blk) && !t.outOfLoops(blk) {
			body = append(body, blk)
		}
	}
	recorded := map[string][]recordKey{}
	for _, blk := range body {
		for _, g := range groupByType(t.needs[blk]) {
			for _, w := range g {
				count(g[0].Type, 1)
				if t.pairedShadow(w) {
					count(g[0].Type, 1)
				}
			}
			key := types.TypeString(g[0].Type, nil)
			recorded[key] = append(recorded[key], recordKey{b: blk, first: g[0]})
		}
		for _, v := range blk.Instrs {
			if t.restoredStore(v) {
				count(v.Args[1].Type, 1) // the value it overwrites
			}
		}
	}
	for _, typ := range perTypes {
		key := types.TypeString(typ, nil)
		k := t.F.Int(int64(per[key]))
		t.reserved = append(t.reserved, reservedCount{k, recorded[key]})
		counts.add(t, typ, k)
	}
	// The contents of slices saved before calls (see needsSnapshot),
	// when the slices are known before the loop.
	for _, blk := range body {
		for _, v := range blk.Instrs {
			if v.Op != ir.OpCall || !t.reversedCall(v) {
				continue
			}
			for i, a := range v.Args {
				if !t.needsSnapshot(v, i) {
					continue
				}
				if a.Op != ir.OpParam && (a.Block == nil || !t.cfg.Dominates(a.Block, b) || t.cfg.InLoop(outer, a.Block)) {
					return nil // a size known only in the loop
				}
				if snapshotElem(a.Type) == nil {
					return nil // memory behind memory: sizes known only when saved
				}
				if isSlice(a.Type) {
					counts.add(t, snapshotElem(a.Type), t.Emit(ir.OpLen, intType, t.v(a)))
				} else {
					counts.add(t, snapshotElem(a.Type), t.F.Int(1))
				}
			}
		}
	}
	for _, l := range t.primal.Blocks { // in block order: deterministic output
		if !nested || !t.cfg.LoopHeader[l.Index] || l == h || !t.cfg.InLoop(h, l) || len(l.Preds) != 2 || !t.directlyIn(h, l) || !t.singleExit(l) {
			continue
		}
		pre, latch := t.edges(l)
		if !t.cfg.Dominates(l.Preds[pre], t.latchOf(h)) {
			continue // not entered in every iteration of h: its records may be far fewer
		}
		inner := t.records(l, b, outer, true)
		trips := t.tripBound(l, pre, latch, outer)
		if trips == nil && h == outer {
			trips = t.meanTrips(l, pre, latch, outer)
		}
		if trips == nil || inner == nil {
			// Unknown, unless it records nothing.
			counts.partial = counts.partial || inner == nil || inner.partial || len(inner.types) > 0
			continue
		}
		counts.partial = counts.partial || inner.partial
		counts.addTimes(t, trips, inner)
	}
	return counts
}

// meanTrips returns, for the loop headed by l directly in the counted
// loop outer, whose trip count depends on outer's index (j < i, j from
// i+1 to n: a triangle), the mean of its trip counts at outer's first and
// last index, rounded up: its trips per iteration of outer on average when
// they are affine in the index, as in triangular loops. nil when outer's
// last index is not known before it or l's count is of another form.
func (t *transformer) meanTrips(l *ir.Block, pre, latch int, outer *ir.Block) *ir.Value {
	c := t.counted[outer]
	if c == nil || !c.closed || c.bound == nil {
		return nil
	}
	preheader := outer.Preds[c.pre]
	bound := t.hoist(c.bound, preheader, outer)
	init := t.hoist(c.init, preheader, outer)
	if bound == nil || init == nil {
		return nil
	}
	last := t.intOp(token.ADD, bound, t.F.Int(c.adj))
	first := t.tripBoundWith(l, pre, latch, outer, map[*ir.Value]*ir.Value{c.phi: init})
	end := t.tripBoundWith(l, pre, latch, outer, map[*ir.Value]*ir.Value{c.phi: last})
	if first == nil || end == nil {
		return nil
	}
	return t.intOp(token.QUO, t.intOp(token.ADD, t.intOp(token.ADD, first, end), t.F.Int(1)), t.F.Int(2))
}

// directlyIn reports whether the loop headed by l is nested in the loop
// headed by h with no loop between them.
func (t *transformer) directlyIn(h, l *ir.Block) bool {
	for mi := range t.cfg.Loop {
		m := t.primal.Blocks[mi]
		if m != h && m != l && t.cfg.InLoop(h, m) && t.cfg.InLoop(m, l) {
			return false
		}
	}
	return true
}

// edges returns the positions, in the predecessors of h, a loop's header
// with two, of its preheader and of its latch.
func (t *transformer) edges(h *ir.Block) (pre, latch int) {
	if t.cfg.InLoop(h, h.Preds[0]) {
		return 1, 0
	}
	return 0, 1
}

// latchOf returns the block of the loop headed by h that jumps back to h
// (h has two predecessors).
func (t *transformer) latchOf(h *ir.Block) *ir.Block {
	_, latch := t.edges(h)
	return h.Preds[latch]
}

// singleExit reports whether the loop headed by h leaves only from h.
func (t *transformer) singleExit(h *ir.Block) bool {
	for _, blk := range t.primal.Blocks {
		if blk == h || !t.cfg.InLoop(h, blk) {
			continue
		}
		for _, s := range blk.Succs {
			if !t.cfg.InLoop(h, s) {
				return false
			}
		}
	}
	return true
}

// intOp emits the int operation a tok b (+ or ×), folding constants and
// multiplications by one.
func (t *transformer) intOp(tok token.Token, a, b *ir.Value) *ir.Value {
	one := constant.MakeInt64(1)
	switch {
	case a.Op == ir.OpConst && b.Op == ir.OpConst:
		op := tok
		if op == token.QUO {
			op = token.QUO_ASSIGN // integer division, as Go's for ints
		}
		return t.F.ConstValue(intType, constant.BinaryOp(a.Const, op, b.Const))
	case tok == token.MUL && a.Op == ir.OpConst && constant.Compare(a.Const, token.EQL, one):
		return b
	case tok == token.MUL && b.Op == ir.OpConst && constant.Compare(b.Const, token.EQL, one):
		return a
	case (tok == token.ADD || tok == token.SUB) && b.Op == ir.OpConst && constant.Sign(b.Const) == 0:
		return a
	case tok == token.ADD && a.Op == ir.OpConst && constant.Sign(a.Const) == 0:
		return b
	case tok == token.SUB && a == b:
		return t.F.Int(0)
	case (tok == token.ADD || tok == token.SUB) && b.Op == ir.OpConst && a.Op == ir.OpBinary &&
		(a.Tok == token.ADD || a.Tok == token.SUB) && a.Args[1].Op == ir.OpConst:
		// (x ± c1) ± c2: one constant.
		c1 := a.Args[1].Const
		if a.Tok == token.SUB {
			c1 = constant.UnaryOp(token.SUB, c1, 0)
		}
		c2 := b.Const
		if tok == token.SUB {
			c2 = constant.UnaryOp(token.SUB, c2, 0)
		}
		return t.intOp(token.ADD, a.Args[0], t.F.ConstValue(intType, constant.BinaryOp(c1, token.ADD, c2)))
	}
	v := t.Emit(ir.OpBinary, intType, a, b)
	v.Tok = tok
	return v
}

// nestedAnywhere reports whether the loop headed by h is nested in
// another.
func (t *transformer) nestedAnywhere(h *ir.Block) bool {
	for oi := range t.cfg.Loop {
		if o := t.primal.Blocks[oi]; o != h && t.cfg.InLoop(o, h) {
			return true
		}
	}
	return false
}

// nestedIn reports whether blk is in a loop nested in the loop of header h.
func (t *transformer) nestedIn(h, blk *ir.Block) bool {
	for hi := range t.cfg.Loop {
		inner := t.primal.Blocks[hi]
		if inner != h && t.cfg.InLoop(h, inner) && t.cfg.InLoop(inner, blk) {
			return true
		}
	}
	return false
}

// tripBound emits, in the forward sweep before the loop outer, a bound on
// the number of iterations of the loop headed by h (outer itself, or a
// loop nested in it) that is never negative, or returns nil unless a block
// of the loop leaves it on a test i+k < n (k constant, n and i's start
// known before outer: see hoist) of an induction variable i stepping by
// +1, or i+k > n of one stepping by −1 (any form for loops reversed by
// index).
func (t *transformer) tripBound(h *ir.Block, pre, latch int, outer *ir.Block) *ir.Value {
	return t.tripBoundWith(h, pre, latch, outer, nil)
}

// tripBoundWith is tripBound with the values of subst given for its keys.
func (t *transformer) tripBoundWith(h *ir.Block, pre, latch int, outer *ir.Block, subst map[*ir.Value]*ir.Value) *ir.Value {
	preheader := outer.Preds[0]
	if t.cfg.InLoop(outer, preheader) {
		preheader = outer.Preds[1]
	}
	for _, blk := range t.primal.Blocks {
		if !t.cfg.InLoop(h, blk) || t.nestedIn(h, blk) {
			continue
		}
		term := blk.Terminator()
		if term == nil || term.Op != ir.OpIf || term.Args[0].Op != ir.OpBinary {
			continue
		}
		leaves := false
		for _, s := range blk.Succs {
			leaves = leaves || !t.cfg.InLoop(h, s)
		}
		if !leaves {
			continue
		}
		cond := term.Args[0]
		for side := 0; side < 2; side++ {
			x, bound := cond.Args[side], cond.Args[1-side]
			phi := x
			if x.Op == ir.OpBinary && (x.Tok == token.ADD || x.Tok == token.SUB) && x.Args[1].Op == ir.OpConst {
				phi = x.Args[0]
			}
			if phi.Op != ir.OpPhi || phi.Block != h || !types.Identical(bound.Type, intType) {
				continue
			}
			st := ir.InductionStep(phi, latch)
			if st == nil {
				continue
			}
			hi := t.hoistWith(bound, preheader, outer, subst)
			lo := t.hoistWith(phi.Args[pre], preheader, outer, subst)
			if hi == nil || lo == nil {
				continue
			}
			if n := t.emitTrips(hi, lo, st); n != nil {
				return n
			}
		}
	}
	return nil
}

// hoist returns a value of the forward sweep, available at the end of
// the forward copy of preheader (which enters the loop outer), equal to
// the int value x of the loop nest: x's forward copy when x is a
// constant, a parameter or computed before outer; x computed again there
// when it is the length or capacity of a slice, array or string, or an
// integer sum, difference or product, of such values (a bound go/ssa
// computes in the loop: len(x) of a range, c−1 of i < c−1); nil
// otherwise.
func (t *transformer) hoist(x *ir.Value, preheader, outer *ir.Block) *ir.Value {
	return t.hoistWith(x, preheader, outer, nil)
}

// hoistWith is hoist with the values of subst given for its keys (the
// index of a loop at one of its iterations).
func (t *transformer) hoistWith(x *ir.Value, preheader, outer *ir.Block, subst map[*ir.Value]*ir.Value) *ir.Value {
	if y, ok := subst[x]; ok {
		return y
	}
	switch {
	case x.Op == ir.OpConst || x.Op == ir.OpParam:
		return t.v(x)
	case x.Block != nil && t.cfg.Dominates(x.Block, preheader) && !t.cfg.InLoop(outer, x.Block) &&
		(t.reserveAt == nil || t.cfg.Dominates(x.Block, t.reserveAt)):
		return t.v(x)
	case x.Op == ir.OpLen || x.Op == ir.OpCap:
		switch x.Args[0].Type.Underlying().(type) {
		case *types.Slice, *types.Array, *types.Basic:
		default:
			return nil // a map's length changes; a pointer may be nil
		}
		if a := t.hoistWith(x.Args[0], preheader, outer, subst); a != nil {
			return t.Emit(x.Op, x.Type, a)
		}
	case x.Op == ir.OpBinary && (x.Tok == token.ADD || x.Tok == token.SUB || x.Tok == token.MUL) && types.Identical(x.Type, intType):
		a := t.hoistWith(x.Args[0], preheader, outer, subst)
		b := t.hoistWith(x.Args[1], preheader, outer, subst)
		if a != nil && b != nil {
			return t.intOp(x.Tok, a, b)
		}
	}
	return nil
}

// hoistable reports whether hoist computes x before the loop headed by
// h (it follows hoist's cases, without emitting).
func (t *transformer) hoistable(x *ir.Value, h *ir.Block) bool {
	switch {
	case x.Op == ir.OpConst || x.Op == ir.OpParam:
		return true
	case x.Block != nil && !t.cfg.InLoop(h, x.Block):
		return t.cfg.Dominates(x.Block, h)
	case x.Op == ir.OpLen || x.Op == ir.OpCap:
		switch x.Args[0].Type.Underlying().(type) {
		case *types.Slice, *types.Array, *types.Basic:
			return t.hoistable(x.Args[0], h)
		}
	case x.Op == ir.OpBinary && (x.Tok == token.ADD || x.Tok == token.SUB || x.Tok == token.MUL) && types.Identical(x.Type, intType):
		return t.hoistable(x.Args[0], h) && t.hoistable(x.Args[1], h)
	}
	return false
}

// emitTrips emits max(0, |bound − init|/|step| + 2), of values of the
// forward sweep.
func (t *transformer) emitTrips(bound, init *ir.Value, step constant.Value) *ir.Value {
	hi, lo := bound, init
	if constant.Sign(step) < 0 {
		hi, lo = lo, hi
		step = constant.UnaryOp(token.SUB, step, 0)
	}
	unit := constant.Compare(step, token.EQL, constant.MakeInt64(1))
	var n *ir.Value
	if unit && lo.Op == ir.OpConst && hi.Op == ir.OpConst {
		k := constant.BinaryOp(constant.BinaryOp(hi.Const, token.SUB, lo.Const), token.ADD, constant.MakeInt64(2))
		if constant.Sign(k) < 0 {
			k = constant.MakeInt64(0)
		}
		return t.F.ConstValue(intType, k)
	}
	if unit && lo.Op == ir.OpConst {
		// hi − lo + 2 with the constants folded, into hi's own when hi
		// is m ± c (a bound n−1 hoisted: n+1, not n−1+2).
		k := constant.BinaryOp(constant.MakeInt64(2), token.SUB, lo.Const)
		if hi.Op == ir.OpBinary && (hi.Tok == token.ADD || hi.Tok == token.SUB) && hi.Args[1].Op == ir.OpConst {
			k = constant.BinaryOp(k, hi.Tok, hi.Args[1].Const)
			hi = hi.Args[0]
		}
		n = hi
		if constant.Sign(k) != 0 {
			n = t.Emit(ir.OpBinary, intType, hi, t.F.ConstValue(intType, k))
			n.Tok = token.ADD
		}
	} else {
		diff := t.intOp(token.SUB, hi, lo)
		if diff.Op == ir.OpConst {
			k := constant.BinaryOp(diff.Const, token.ADD, constant.MakeInt64(2))
			if !unit {
				k = constant.BinaryOp(constant.BinaryOp(diff.Const, token.QUO_ASSIGN, step), token.ADD, constant.MakeInt64(2)) // integer division
			}
			if constant.Sign(k) < 0 {
				k = constant.MakeInt64(0)
			}
			return t.F.ConstValue(intType, k)
		}
		if !unit {
			q := t.Emit(ir.OpBinary, intType, diff, t.F.ConstValue(intType, step))
			q.Tok = token.QUO
			diff = q
		}
		n = t.Emit(ir.OpBinary, intType, diff, t.F.Int(2))
		n.Tok = token.ADD
	}
	m := t.Emit(ir.OpCall, intType, n, t.F.Int(0))
	m.Callee = &ir.Callee{Builtin: "max"}
	m.Name = "trips"
	return m
}

// slicesPkg stands for package slices in calls of slices.Grow.
var slicesPkg = types.NewPackage("slices", "slices")

// slicesGrow returns slices.Grow instantiated for slice type st.
func slicesGrow(st types.Type) *types.Func {
	return slicesFunc("Grow", []types.Type{st, intType}, st)
}

// slicesFunc returns function name of package slices, instantiated with
// parameters of types params and a result of type result.
func slicesFunc(name string, params []types.Type, result types.Type) *types.Func {
	var vars []*types.Var
	for i, p := range params {
		vars = append(vars, types.NewParam(token.NoPos, slicesPkg, string(rune('a'+i)), p))
	}
	results := types.NewTuple(types.NewParam(token.NoPos, slicesPkg, "", result))
	return types.NewFunc(token.NoPos, slicesPkg, name, types.NewSignatureType(nil, nil, nil, types.NewTuple(vars...), results, false))
}
