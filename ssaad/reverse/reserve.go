package reverse

// This file defines the reservation of tape space before a loop: a
// counted loop that is not nested in another records a fixed number of
// values of each type per iteration (at most, when some blocks of its
// body are conditional), and its trip count is known when it is entered;
// so do the innermost counted loops nested in it whose bounds are known
// then too. Growing each tape once, with slices.Grow, before the loop nest
// saves the repeated reallocation and copying of append, which for large
// tapes grows them by only a quarter at a time (k-means' gradient over
// n points × k centroids spent 60% of its time there).

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// reserve emits, at the end of the forward copy of block b, the growth of
// the tapes that the loop b enters records into, when the loop is not
// nested in another and its trip count is known on entry. The loops
// nested in it that hold no loop themselves, and whose trip counts are
// known before it is entered (a matrix's rows and columns), count too:
// trips · (per iteration + Σ inner trips · inner per iteration).
func (t *transformer) reserve(b *ir.Block) {
	for hi := range t.cfg.Loop {
		h := t.primal.Blocks[hi]
		if len(h.Preds) != 2 || t.nestedAnywhere(h) || t.inFused(h) {
			continue
		}
		pre, latch := t.preLatch(h)
		if h.Preds[pre] != b || t.cfg.InLoop(h, b) {
			continue
		}
		trips := t.tripBound(h, pre, latch, b, h)
		if trips == nil {
			return
		}
		c, ok := t.perIteration(h, b, h)
		if !ok {
			return
		}
		for ii := range t.cfg.Loop {
			inner := t.primal.Blocks[ii]
			if inner == h || !t.cfg.InLoop(h, inner) || len(inner.Preds) != 2 || t.inFused(inner) || t.holdsLoop(inner) {
				continue
			}
			ipre, ilatch := t.preLatch(inner)
			n := t.tripBound(inner, ipre, ilatch, b, h)
			if n == nil {
				continue
			}
			if ic, ok := t.perIteration(inner, b, h); ok {
				c.add(t, ic, n)
			}
		}
		for _, typ := range c.types {
			key := types.TypeString(typ, nil)
			k := c.per[key]
			n := trips
			if k.Op != ir.OpConst || constant.Compare(k.Const, token.NEQ, constant.MakeInt64(1)) {
				n = t.Emit(ir.OpBinary, intType, trips, k)
				n.Tok = token.MUL
			}
			tp := t.tape(typ)
			st := tp.Type.(*types.Pointer).Elem()
			grow := t.Emit(ir.OpCall, st, t.Emit(ir.OpLoad, st, tp), n)
			grow.Callee = &ir.Callee{Func: slicesGrow(st)}
			t.Emit(ir.OpStore, nil, tp, grow)
		}
		return
	}
}

// preLatch returns the indices of the preheader and of the latch among
// the two predecessors of loop header h.
func (t *transformer) preLatch(h *ir.Block) (pre, latch int) {
	if t.cfg.InLoop(h, h.Preds[0]) {
		return 1, 0
	}
	return 0, 1
}

// holdsLoop reports whether a loop is nested in the loop of header h.
func (t *transformer) holdsLoop(h *ir.Block) bool {
	for hi := range t.cfg.Loop {
		if inner := t.primal.Blocks[hi]; inner != h && t.cfg.InLoop(h, inner) {
			return true
		}
	}
	return false
}

// tapeCounts are the numbers of values of each type one iteration of a
// loop records, as values emitted in the forward sweep.
type tapeCounts struct {
	types []types.Type
	per   map[string]*ir.Value
}

// add adds n times the counts of o to c.
func (c *tapeCounts) add(t *transformer, o tapeCounts, n *ir.Value) {
	for _, typ := range o.types {
		key := types.TypeString(typ, nil)
		k := t.Emit(ir.OpBinary, intType, n, o.per[key])
		k.Tok = token.MUL
		if c.per[key] == nil {
			c.types = append(c.types, typ)
			c.per[key] = k
			continue
		}
		sum := t.Emit(ir.OpBinary, intType, c.per[key], k)
		sum.Tok = token.ADD
		c.per[key] = sum
	}
}

// perIteration returns the number of values of each type that one
// iteration of the loop headed by h records, not counting the loops
// nested in it, emitted at the end of b, before the loop outer that holds
// h (or is h); false when a slice saved before a call (see needsSnapshot)
// has a length known only in outer.
func (t *transformer) perIteration(h, b, outer *ir.Block) (tapeCounts, bool) {
	c := tapeCounts{per: map[string]*ir.Value{}}
	counts := map[string]int{}
	seen := map[string]bool{}
	note := func(typ types.Type) string {
		key := types.TypeString(typ, nil)
		if !seen[key] {
			seen[key] = true
			c.types = append(c.types, typ)
		}
		return key
	}
	for _, blk := range t.primal.Blocks {
		if !t.cfg.InLoop(h, blk) || t.nestedIn(h, blk) || t.outOfLoops(blk) {
			continue
		}
		for _, g := range groupByType(t.needs[blk]) {
			key := note(g[0].Type)
			for _, w := range g {
				counts[key]++
				if t.pairedShadow(w) {
					counts[key]++
				}
			}
		}
		for _, v := range blk.Instrs {
			if t.restoredStore(v) {
				counts[note(v.Args[1].Type)]++ // the value it overwrites
			}
		}
	}
	// The contents of slices saved before calls (see needsSnapshot),
	// when the slices are known before the loop.
	lens := map[string][]*ir.Value{}
	for _, blk := range t.primal.Blocks {
		if !t.cfg.InLoop(h, blk) || t.nestedIn(h, blk) || t.outOfLoops(blk) {
			continue
		}
		for _, v := range blk.Instrs {
			if v.Op != ir.OpCall || !t.reversedCall(v) {
				continue
			}
			for i, a := range v.Args {
				if !t.needsSnapshot(v, i) {
					continue
				}
				if a.Op != ir.OpParam && (a.Block == nil || !t.cfg.Dominates(a.Block, b) || t.cfg.InLoop(outer, a.Block)) {
					return c, false // a size known only in the loop
				}
				elem := snapshotElem(a.Type)
				key := note(elem)
				if isSlice(a.Type) {
					lens[key] = append(lens[key], t.Emit(ir.OpLen, intType, t.v(a)))
				} else {
					lens[key] = append(lens[key], t.F.Int(1))
				}
			}
		}
	}
	for _, typ := range c.types {
		key := types.TypeString(typ, nil)
		var k *ir.Value
		if counts[key] > 0 {
			k = t.F.Int(int64(counts[key]))
		}
		for _, l := range lens[key] {
			if k == nil {
				k = l
				continue
			}
			k = t.Emit(ir.OpBinary, intType, k, l)
			k.Tok = token.ADD
		}
		c.per[key] = k
	}
	return c, true
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

// tripBound emits, in the forward sweep at the end of block b, before
// the loop headed by outer, which holds the loop headed by h or is it, a
// bound on the number of iterations of h's loop that is never negative
// (per entry into it), or returns nil unless a block of the loop leaves
// it on a test i+k < n (k constant, n and the start of i known before
// outer's loop) of an induction variable i stepping by +1, or i+k > n of
// one stepping by −1 (any form for loops reversed by index).
func (t *transformer) tripBound(h *ir.Block, pre, latch int, b, outer *ir.Block) *ir.Value {
	known := func(x *ir.Value) bool {
		return x.Op == ir.OpConst || x.Op == ir.OpParam || x.Block != nil && t.cfg.Dominates(x.Block, b) && !t.cfg.InLoop(outer, x.Block)
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
			if phi.Op != ir.OpPhi || phi.Block != h || !known(bound) || !known(phi.Args[pre]) || !types.Identical(bound.Type, intType) {
				continue
			}
			st := ir.InductionStep(phi, latch)
			if st == nil {
				continue
			}
			if n := t.emitTrips(bound, phi.Args[pre], st); n != nil {
				return n
			}
		}
	}
	return nil
}

// emitTrips emits max(0, |bound − init|/|step| + 2).
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
		// hi − lo + 2 with the constants folded.
		k := constant.BinaryOp(constant.MakeInt64(2), token.SUB, lo.Const)
		n = t.Emit(ir.OpBinary, intType, t.v(hi), t.F.ConstValue(intType, k))
		n.Tok = token.ADD
	} else {
		diff := t.Emit(ir.OpBinary, intType, t.v(hi), t.v(lo))
		diff.Tok = token.SUB
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
