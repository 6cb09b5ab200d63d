package simplify

// This file defines guarded hoisting, the part of LICM for calls that may
// panic or may not return (a helper that checks its arguments' lengths and
// panics, like gonum's floats.Dot): such a call cannot be evaluated where
// the source would not evaluate it, but when the loop's first iteration is
// certain to evaluate it before doing anything observable, it can be
// evaluated once, before the loop, under the loop's own test:
//
//	var t float64
//	if i0 < n {        // the loop's test on its first iteration
//		t = dot(x, x)  // panics, or loops, exactly when the first iteration would
//	}
//	for i := i0; i < n; i++ { ... t ... }
//
// The call must otherwise be one LICM would move: invariant, writing
// nothing, returning no memory, reading nothing the loop writes.

import (
	"go/constant"
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// hoistGuarded moves one call of f as described above and returns it, or
// nil (the blocks of f change: the caller's facts about f are stale).
func hoistGuarded(f *ir.Func, env Env) *ir.Value {
	lf := newLoopFacts(f)
	cfg := lf.cfg
	mem := newMemory(f, env, true)
	for hi := range f.Blocks {
		h := f.Blocks[hi]
		body := cfg.Loop[h.Index]
		pre := cfg.Idom[h.Index]
		if body == nil || pre == nil || len(pre.Succs) != 1 {
			continue
		}
		outside := 0
		for _, p := range h.Preds {
			if !cfg.IsBackEdge(p, h) {
				outside++
			}
		}
		term := h.Terminator()
		if outside != 1 || term == nil || term.Op != ir.OpIf || !body[h.Succs[0].Index] || body[h.Succs[1].Index] ||
			len(h.Succs[0].Preds) != 1 {
			continue
		}
		// The header is re-evaluated on the loop's entry values: it must
		// have no effect and not fail.
		ok := true
		for _, v := range h.Instrs[:len(h.Instrs)-1] {
			ok = ok && v.Op != ir.OpCall && !v.Op.HasEffect() && !lf.mayFail(v, h)
		}
		if !ok {
			continue
		}
		if v := guardCandidate(f, h, body, lf, mem, env); v != nil {
			guard(f, h, pre, v)
			return v
		}
	}
	return nil
}

// guardCandidate returns a call of the loop headed by h that hoistGuarded
// may move, or nil.
func guardCandidate(f *ir.Func, h *ir.Block, body []bool, lf *loopFacts, mem *memory, env Env) *ir.Value {
	cfg := lf.cfg
	written := loopWrites(f, body, mem, env)
	for _, b := range cfg.RPO {
		if !body[b.Index] || b == h || !executedEachIteration(f, h, b, body, cfg) {
			continue
		}
		// The blocks that run before b in an iteration.
		before := map[*ir.Block]bool{}
		work := append([]*ir.Block(nil), b.Preds...)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if x == h || before[x] || !body[x.Index] {
				continue
			}
			before[x] = true
			work = append(work, x.Preds...)
		}
		quiet := true
		for x := range before {
			for _, v := range x.Instrs {
				quiet = quiet && harmless(v, x, lf, env)
			}
		}
		if !quiet {
			continue
		}
		for _, v := range b.Instrs {
			if v.Op == ir.OpCall && guardable(v, body, mem, written, env) {
				return v
			}
			if !harmless(v, b, lf, env) {
				break
			}
		}
	}
	return nil
}

// harmless reports whether evaluating v at block at has no observable
// effect and cannot fail.
func harmless(v *ir.Value, at *ir.Block, lf *loopFacts, env Env) bool {
	switch {
	case v.Op == ir.OpJump || v.Op == ir.OpIf || v.Op == ir.OpPhi:
		return true
	case v.Op == ir.OpCall:
		e := callEffects(v, env)
		return e.WritesNothing() && e.Total()
	case v.Op.HasEffect():
		return false
	}
	return !lf.mayFail(v, at)
}

// guardable reports whether call v is invariant in the loop, writes
// nothing, returns one value that is no memory, and reads nothing the loop
// writes.
func guardable(v *ir.Value, body []bool, mem *memory, written map[int]bool, env Env) bool {
	if v.Type == nil || refersToMemory(v) || v.Callee.Builtin != "" {
		return false
	}
	if _, tuple := v.Type.(*types.Tuple); tuple {
		return false
	}
	for _, a := range v.Args {
		if a != nil && a.Block != nil && body[a.Block.Index] {
			return false
		}
	}
	e := callEffects(v, env)
	if !e.WritesNothing() {
		return false
	}
	for i, a := range v.Args {
		if c := mem.class(a); c >= 0 && e.Reads[i] && written[c] {
			return false
		}
	}
	return !e.ReadsGlobal || !written[mem.find(globalNode)]
}

// executedEachIteration reports whether block b of the loop headed by h
// runs in every iteration that does not leave by the header's test: it
// dominates every block of the loop that jumps back to h or out of the
// loop.
func executedEachIteration(f *ir.Func, h, b *ir.Block, body []bool, cfg *ir.CFG) bool {
	for _, x := range f.Blocks {
		if !body[x.Index] || x == h {
			continue
		}
		for _, s := range x.Succs {
			if (s == h || !body[s.Index]) && !cfg.Dominates(b, x) {
				return false
			}
		}
	}
	return true
}

// loopWrites returns the alias classes the loop (body) may write.
func loopWrites(f *ir.Func, body []bool, mem *memory, env Env) map[int]bool {
	written := map[int]bool{}
	for _, b := range f.Blocks {
		if !body[b.Index] {
			continue
		}
		for _, v := range b.Instrs {
			switch v.Op {
			case ir.OpStore:
				written[mem.class(v.Args[0])] = true
			case ir.OpCall:
				for c := range writeClasses(v, mem, env) {
					written[c] = true
				}
			}
		}
	}
	return written
}

// guard moves call v, of the loop headed by h, to a new block that runs
// when the loop's test holds on entry, between pre and h:
//
//	pre:  …; c0 = the header's test on the entry values; if c0 → call, join
//	call: v; jump join
//	join: t = φ(zero, v); jump h
//
// and makes v's uses use t.
func guard(f *ir.Func, h, pre *ir.Block, v *ir.Value) {
	// The header's values, on the entry values of its φs.
	k := h.PredIndex(pre)
	vals := map[*ir.Value]*ir.Value{}
	pre.Instrs = pre.Instrs[:len(pre.Instrs)-1] // the jump to h
	pre.Succs = nil
	for _, u := range h.Instrs {
		if u.Op == ir.OpPhi {
			vals[u] = u.Args[k]
			continue
		}
		if u.Op.IsTerminator() {
			break
		}
		nu := f.NewValue(u.Op, u.Type)
		nu.Tok, nu.Const, nu.Index, nu.Callee, nu.Global, nu.Pos = u.Tok, u.Const, u.Index, u.Callee, u.Global, u.Pos
		for _, a := range u.Args {
			if m, ok := vals[a]; ok {
				a = m
			}
			nu.Args = append(nu.Args, a)
		}
		pre.Append(nu)
		vals[u] = nu
	}
	cond := h.Terminator().Args[0]
	if m, ok := vals[cond]; ok {
		cond = m
	}
	if k := foldValue(f, cond); k != nil && constOf(k) != nil && constant.BoolVal(constOf(k)) {
		// The loop always runs (a range over a positive constant): no
		// guard. The copies of the header's values are dead.
		removeValue(v)
		pre.Append(v)
		pre.Jump(h)
		h.Preds = h.Preds[:len(h.Preds)-1] // keep the entry already there
		return
	}
	callB := f.NewBlock("loop.guard")
	join := f.NewBlock("loop.guarded")
	pre.If(cond, callB, join)
	removeValue(v)
	callB.Append(v)
	callB.Jump(join)
	phi := f.NewValue(ir.OpPhi, v.Type, f.ConstValue(v.Type, nil), v)
	phi.Name = v.Name
	join.Append(phi)
	join.Jump(h)
	h.Preds[k] = join
	// join.Jump appended h to join.Succs and join to h.Preds: keep the
	// replaced entry only.
	h.Preds = h.Preds[:len(h.Preds)-1]
	for _, b := range f.Blocks {
		for _, u := range b.Instrs {
			if u == phi {
				continue
			}
			for i, a := range u.Args {
				if a == v {
					u.Args[i] = phi
				}
			}
		}
	}
	// Place the new blocks after pre.
	blocks := f.Blocks[:len(f.Blocks)-2]
	at := slices.Index(blocks, pre) + 1
	order := append([]*ir.Block(nil), blocks[:at]...)
	order = append(order, callB, join)
	order = append(order, blocks[at:]...)
	f.Blocks = order
	f.Renumber()
}
