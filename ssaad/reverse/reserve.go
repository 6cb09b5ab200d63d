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

	"github.com/gadgen/gadgen/ir"
)

// reserve emits, at the end of the forward copy of block b, the growth of
// the tapes that the loop b enters records into, when the loop is not
// nested in another and its trip count is known on entry.
func (t *transformer) reserve(b *ir.Block) {
	for hi := range t.cfg.Loop {
		h := t.primal.Blocks[hi]
		if len(h.Preds) != 2 || t.nestedAnywhere(h) || t.inFused(h) {
			continue
		}
		pre, latch := 0, 1
		if t.cfg.InLoop(h, h.Preds[0]) {
			pre, latch = 1, 0
		}
		if h.Preds[pre] != b || t.cfg.InLoop(h, b) {
			continue
		}
		trips := t.tripBound(h, pre, latch)
		if trips == nil {
			return
		}
		per := map[string]int{}
		var types_ []types.Type
		for _, blk := range t.primal.Blocks {
			if !t.cfg.InLoop(h, blk) || t.nestedIn(h, blk) || t.outOfLoops(blk) {
				continue
			}
			for _, g := range groupByType(t.needs[blk]) {
				key := types.TypeString(g[0].Type, nil)
				if per[key] == 0 {
					types_ = append(types_, g[0].Type)
				}
				for _, w := range g {
					per[key]++
					if t.pairedShadow(w) {
						per[key]++
					}
				}
			}
			for _, v := range blk.Instrs {
				if t.restoredStore(v) {
					key := types.TypeString(v.Args[1].Type, nil)
					if per[key] == 0 {
						types_ = append(types_, v.Args[1].Type)
					}
					per[key]++ // the value it overwrites
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
					if a.Op != ir.OpParam && (a.Block == nil || !t.cfg.Dominates(a.Block, b) || t.cfg.InLoop(h, a.Block)) {
						return // a size known only in the loop
					}
					elem := snapshotElem(a.Type)
					key := types.TypeString(elem, nil)
					if per[key] == 0 && len(lens[key]) == 0 {
						types_ = append(types_, elem)
					}
					if isSlice(a.Type) {
						lens[key] = append(lens[key], t.Emit(ir.OpLen, intType, t.v(a)))
					} else {
						lens[key] = append(lens[key], t.F.Int(1))
					}
				}
			}
		}
		for _, typ := range types_ {
			key := types.TypeString(typ, nil)
			var k *ir.Value
			if per[key] > 0 {
				k = t.F.Int(int64(per[key]))
			}
			for _, l := range lens[key] {
				if k == nil {
					k = l
					continue
				}
				k = t.Emit(ir.OpBinary, intType, k, l)
				k.Tok = token.ADD
			}
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

// tripBound emits, in the forward sweep before the loop headed by h, a
// bound on its number of iterations that is never negative, or returns
// nil unless a block of the loop leaves it on a test i+k < n (k constant,
// n known before the loop) of an induction variable i stepping by +1, or
// i+k > n of one stepping by −1 (any form for loops reversed by index).
func (t *transformer) tripBound(h *ir.Block, pre, latch int) *ir.Value {
	preheader := h.Preds[pre]
	known := func(x *ir.Value) bool {
		return x.Op == ir.OpConst || x.Op == ir.OpParam || x.Block != nil && t.cfg.Dominates(x.Block, preheader) && !t.cfg.InLoop(h, x.Block)
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
