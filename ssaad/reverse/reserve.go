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
// the tapes that the counted loop b enters records into.
func (t *transformer) reserve(b *ir.Block) {
	for _, c := range t.counted {
		if c.exit != nil || c.header.Preds[c.pre] != b {
			continue
		}
		trips := t.tripBound(c)
		if trips == nil {
			return
		}
		per := map[string]int{}
		var types_ []types.Type
		for _, blk := range t.primal.Blocks {
			if !t.cfg.InLoop(c.header, blk) || t.nestedIn(c.header, blk) || t.outOfLoops(blk) {
				continue
			}
			for _, g := range groupByType(t.needs[blk]) {
				key := types.TypeString(g[0].Type, nil)
				if per[key] == 0 {
					types_ = append(types_, g[0].Type)
				}
				per[key] += len(g)
			}
		}
		for _, typ := range types_ {
			k := per[types.TypeString(typ, nil)]
			n := trips
			if k > 1 {
				n = t.Emit(ir.OpBinary, intType, trips, t.F.ConstValue(intType, constant.MakeInt64(int64(k))))
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

// tripBound emits, in the forward sweep before loop c, a bound on its
// number of iterations that is never negative, or returns nil when the
// header's test is not a comparison of the index (or the index plus a
// constant) with a value known before the loop.
func (t *transformer) tripBound(c *countedLoop) *ir.Value {
	term := c.header.Terminator()
	if term.Op != ir.OpIf {
		return nil
	}
	cond := term.Args[0]
	if cond.Op != ir.OpBinary {
		return nil
	}
	switch cond.Tok {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.NEQ:
	default:
		return nil
	}
	indexed := func(x *ir.Value) bool {
		return x == c.phi || x.Op == ir.OpBinary && (x.Tok == token.ADD || x.Tok == token.SUB) &&
			x.Args[0] == c.phi && x.Args[1].Op == ir.OpConst
	}
	var bound *ir.Value
	switch {
	case indexed(cond.Args[0]):
		bound = cond.Args[1]
	case indexed(cond.Args[1]):
		bound = cond.Args[0]
	default:
		return nil
	}
	pre := c.header.Preds[c.pre]
	known := func(x *ir.Value) bool {
		return x.Op == ir.OpConst || x.Op == ir.OpParam || x.Block != nil && t.cfg.Dominates(x.Block, pre) && !t.cfg.InLoop(c.header, x.Block)
	}
	if !known(bound) || !known(c.init) || !types.Identical(bound.Type, intType) {
		return nil
	}
	// |bound − init| / |step| + 2 iterations at most (the +2 covers the
	// offset of a tested index+constant and the rounding of the division).
	step := c.step.Const
	hi, lo := bound, c.init
	if constant.Sign(step) < 0 {
		hi, lo = lo, hi
		step = constant.UnaryOp(token.SUB, step, 0)
	}
	unit := constant.Compare(step, token.EQL, constant.MakeInt64(1))
	var n *ir.Value
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
		n = t.Emit(ir.OpBinary, intType, diff, t.F.ConstValue(intType, constant.MakeInt64(2)))
		n.Tok = token.ADD
	}
	m := t.Emit(ir.OpCall, intType, n, t.F.ConstValue(intType, constant.MakeInt64(0)))
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
