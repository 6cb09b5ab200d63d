package simplify

// This file defines the removal of loops that only count: after the
// derivative passes drop the stores of a loop (scratch memory, see
// scratch.go), what may remain is
//
//	for ; i < n; i++ {
//	}
//
// kept only for the final value of i (and of len(s), when its test reads
// it). Such a loop whose header is its only exit, with induction variables
// stepping by constants and a test i < n (or i+k < n) on a bound fixed
// before the loop, is replaced by the closed form of its final values:
// i = max(i₀, n−k), and each other induction variable v = v₀ + (i −
// i₀)·step. A countdown, i-- while i+k >= n, ends at i = min(i₀, n−k−1).

import (
	"go/constant"
	"go/token"
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// emptyLoops replaces counting loops by their final values. It reports
// whether it changed f.
func emptyLoops(f *ir.Func) bool {
	cfg := ir.NewCFG(f)
	for hi, body := range cfg.Loop {
		if replaceCountingLoop(f, cfg, f.Blocks[hi], body) {
			removeUnreachable(f)
			return true
		}
	}
	return false
}

// replaceCountingLoop replaces the loop headed by h if it only counts.
func replaceCountingLoop(f *ir.Func, cfg *ir.CFG, h *ir.Block, body []bool) bool {
	c := matchCountingLoop(f, h, body)
	if c == nil {
		return false
	}
	c.replace(f)
	return true
}

// countingLoop is a loop that only counts: its header h tests idx+k < bound
// (or, counting down, idx+k >= bound), its blocks do integer arithmetic on
// the header's induction φs (ivs), and only the φs and lengths of values
// from before it (lens) are used after it.
type countingLoop struct {
	h, preheader, exit *ir.Block
	pre                int // the preheader's edge into h
	in                 func(*ir.Block) bool
	loopVals           map[*ir.Value]bool
	down               bool
	idx, bound         *ir.Value
	k                  constant.Value
	ivs                []inductionVar
	lens               []*ir.Value
}

// inductionVar is a φ of a loop's header and its step per iteration.
type inductionVar struct {
	phi  *ir.Value
	step constant.Value
}

// matchCountingLoop returns the loop headed by h (whose blocks body
// marks) if it only counts, else nil.
func matchCountingLoop(f *ir.Func, h *ir.Block, body []bool) *countingLoop {
	in := func(b *ir.Block) bool { return b != nil && b.Index < len(body) && body[b.Index] }
	term := h.Terminator()
	if len(h.Preds) != 2 || term == nil || term.Op != ir.OpIf {
		return nil
	}
	pre, latch := 0, 1
	if in(h.Preds[0]) {
		pre, latch = 1, 0
	}
	if in(h.Preds[pre]) || !in(h.Preds[latch]) || !in(h.Succs[0]) || in(h.Succs[1]) {
		return nil
	}
	exit := h.Succs[1]
	preheader := h.Preds[pre]
	if len(preheader.Succs) != 1 || exit.HasPhi() && len(exit.Preds) != 1 {
		return nil
	}
	// Only integer arithmetic, the header's φs and jumps.
	loopVals := map[*ir.Value]bool{}
	for _, b := range f.Blocks {
		if !in(b) {
			continue
		}
		for _, v := range b.Instrs {
			switch {
			case v.Op == ir.OpPhi && b == h:
			case v.Op == ir.OpBinary && isIntType(v.Args[0].Type):
			case (v.Op == ir.OpLen || v.Op == ir.OpCap) && !in(v.Args[0].Block):
			case v.Op == ir.OpJump, v == term:
			case b != h && v.Op == ir.OpIf:
				return nil // exits or branches elsewhere
			default:
				return nil
			}
			loopVals[v] = true
		}
		if b != h && b.Terminator().Op != ir.OpJump {
			return nil
		}
	}
	// The test: φ+k < n, with n fixed before the loop.
	cond := term.Args[0]
	// Or, counting down, φ+k >= n.
	if cond.Op != ir.OpBinary || cond.Tok != token.LSS && cond.Tok != token.GEQ {
		return nil
	}
	down := cond.Tok == token.GEQ
	idx, kk, ok := offset(cond.Args[0])
	k := constant.MakeInt64(kk)
	bound := cond.Args[1]
	if !ok || idx.Block != h || loopVals[bound] && bound.Op != ir.OpLen && bound.Op != ir.OpCap {
		return nil
	}
	var ivs []inductionVar
	var idxStep constant.Value
	for _, v := range h.Instrs {
		if v.Op != ir.OpPhi {
			break
		}
		st := ir.InductionStep(v, latch)
		if st == nil {
			return nil
		}
		ivs = append(ivs, inductionVar{v, st})
		if v == idx {
			idxStep = st
		}
	}
	unit := int64(1)
	if down {
		unit = -1
	}
	if idxStep == nil || constant.Compare(idxStep, token.NEQ, constant.MakeInt64(unit)) {
		return nil
	}
	// Only the φs may be used after the loop, and lengths and capacities
	// of values from before it (a loop test i < len(s) that go/ssa
	// evaluates in the loop, whose last value the code after it reads):
	// those are the same computed before the loop.
	uses := ir.Uses(f)
	var lens []*ir.Value
	for v := range loopVals {
		if v.Op == ir.OpPhi {
			continue
		}
		for _, u := range uses[v.ID] {
			if loopVals[u] {
				continue
			}
			if v.Op != ir.OpLen && v.Op != ir.OpCap {
				return nil
			}
			lens = append(lens, v)
			break
		}
	}
	slices.SortFunc(lens, func(a, b *ir.Value) int { return a.ID - b.ID })
	return &countingLoop{h: h, preheader: preheader, exit: exit, pre: pre, in: in, loopVals: loopVals,
		down: down, idx: idx, bound: bound, k: k, ivs: ivs, lens: lens}
}

// replace computes the loop's final values at the end of its preheader,
// makes the code after it use them, and sends the preheader straight to
// the exit.
func (c *countingLoop) replace(f *ir.Func) {
	h, preheader, exit, pre, in := c.h, c.preheader, c.exit, c.pre, c.in
	loopVals, down, idx, bound, k, ivs, lens := c.loopVals, c.down, c.idx, c.bound, c.k, c.ivs, c.lens
	// The final values, computed at the end of the preheader.
	at := len(preheader.Instrs) - 1
	emit := func(v *ir.Value) *ir.Value {
		preheader.Insert(at, v)
		at++
		return v
	}
	typ := idx.Type
	init := idx.Args[pre]
	finals := map[*ir.Value]*ir.Value{}
	if loopVals[bound] {
		// len(s) of a slice from before the loop: the same there.
		b := emit(f.NewValue(bound.Op, bound.Type, bound.Args[0]))
		finals[bound] = b
		bound = b
	}
	for _, v := range lens {
		if finals[v] == nil {
			finals[v] = emit(f.NewValue(v.Op, v.Type, v.Args[0]))
		}
	}
	stop := bound
	if down {
		k = constant.BinaryOp(k, token.ADD, constant.MakeInt64(1))
	}
	if constant.Sign(k) != 0 {
		stop = emit(binary(f, token.SUB, bound, f.ConstValue(typ, k)))
	}
	final := emit(f.NewValue(ir.OpCall, typ, init, stop))
	final.Callee = &ir.Callee{Builtin: "max"}
	if down {
		final.Callee = &ir.Callee{Builtin: "min"}
	}
	final.Name = idx.Name
	finals[idx] = final
	var trips *ir.Value
	for _, x := range ivs {
		if x.phi == idx {
			continue
		}
		if trips == nil {
			trips = emit(binary(f, token.SUB, final, init))
			if down {
				trips = emit(binary(f, token.SUB, init, final))
			}
		}
		n := trips
		if constant.Compare(x.step, token.NEQ, constant.MakeInt64(1)) {
			n = emit(binary(f, token.MUL, trips, f.ConstValue(x.phi.Type, x.step)))
		}
		v := emit(binary(f, token.ADD, x.phi.Args[pre], n))
		v.Name = x.phi.Name
		finals[x.phi] = v
	}
	for _, b := range f.Blocks {
		if in(b) {
			continue
		}
		for _, v := range b.Instrs {
			for i, a := range v.Args {
				if r, ok := finals[a]; ok {
					v.Args[i] = r
				}
			}
		}
	}
	// The preheader goes straight to the exit.
	preheader.Succs[0] = exit
	exit.Preds[exit.PredIndex(h)] = preheader
	h.Preds = append(h.Preds[:pre], h.Preds[pre+1:]...)
	for _, v := range h.Instrs {
		if v.Op == ir.OpPhi {
			v.Args = append(v.Args[:pre], v.Args[pre+1:]...)
		}
	}
}

func binary(f *ir.Func, tok token.Token, x, y *ir.Value) *ir.Value {
	v := f.NewValue(ir.OpBinary, x.Type, x, y)
	v.Tok = tok
	return v
}
