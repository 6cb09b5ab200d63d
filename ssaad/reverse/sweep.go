package reverse

// This file defines the two sweeps of the generated function.

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

func (t *transformer) run() {
	nm := computeNames(t.req.Target, t.req.Active)
	scalarParams, mixed := t.signature(nm)
	t.setUp(nm, scalarParams, mixed)
	t.prepare(nm)
	t.forwardSweep()
	t.reverseSweep(scalarParams)
}

// signature makes the generated function and its signature: its doc
// comment, the primal's parameters with the shadows, adjoint slots or
// partials of the varied ones, the seeds, and the results. It returns the
// varied parameters whose partials are results (scalars) and those with
// an adjoint slot (mixed structs).
func (t *transformer) signature(nm *names) (scalarParams, mixed []*ir.Value) {
	p, req := t.primal, t.req
	f := ir.NewFunc(req.Name, p.Pkg)
	t.F = f
	f.Pos = p.Pos
	var written []int
	for i, pv := range p.Params {
		if req.Active[i] && ssaad.IsPointerLike(pv.Type) && t.classWritten[t.act.Class(pv)] {
			written = append(written, i)
		}
	}
	f.Doc = docComment(req.Name, req.Target, nm, req.Active, t.seeded, t.callee, t.noValue, written)
	if t.split {
		// Its reverse half is back: what the callee variant's doc says
		// of the call holds of back's.
		rest := f.Doc[strings.Index(f.Doc, "\n\n")+2:]
		rest = strings.NewReplacer(": on entry ", ": when back is called, ", "; on return, ", "; when it returns, ").Replace(rest)
		f.Doc = splitDoc(req.Name, req.Target) + rest
	}
	if t.gonum {
		f.Doc = fmt.Sprintf("%s writes the gradient of %s at %s into grad (overwriting it), in the\nshape of gonum/optimize's Problem.Grad (reverse mode).", req.Name, ssaad.FuncName(req.Target), nm.params[len(nm.params)-1])
	}
	if req.Method {
		f.Recv = p.Params[0].Type
	}
	t.entry = f.NewBlock("entry")
	for i, pv := range p.Params {
		if t.gonum && i == len(p.Params)-1 {
			// gonum/optimize's shape: grad first, then x.
			t.shadow[pv] = f.AddParam(ssaad.Fresh(map[string]bool{nm.params[i]: true}, "grad"), pv.Type)
			t.val[pv] = f.AddParam(nm.params[i], pv.Type)
			continue
		}
		t.val[pv] = f.AddParam(nm.params[i], pv.Type)
		switch {
		case !req.Active[i]:
		case ssaad.IsPointerLike(pv.Type):
			t.shadow[pv] = f.AddParam(nm.adjoints[i], pv.Type)
		case mixedParam(pv.Type):
			// Its partials go into *dm; its slices' shadows are dm's.
			t.slot[pv] = f.AddParam(nm.adjoints[i], types.NewPointer(pv.Type))
			mixed = append(mixed, pv)
		case hasAdjoint(pv.Type):
			scalarParams = append(scalarParams, pv)
		}
	}
	if t.seeded {
		t.seeds = make([]*ir.Value, len(p.ResultTypes))
		for i, rt := range p.ResultTypes {
			// A split function returns the shadows of its slices and
			// pointers instead (see split.go).
			if nm.seeds[i] != "" && !(t.split && shadowResult(rt)) {
				t.seeds[i] = f.AddParam(nm.seeds[i], rt)
			}
		}
	}
	if !t.noValue {
		for i, rt := range p.ResultTypes {
			f.AddResult(nm.results[i], rt)
		}
	}
	for _, pv := range scalarParams {
		f.AddResult(nm.adjoints[pv.Index], pv.Type)
	}
	f.Variadic = p.Variadic && !req.Active[len(req.Active)-1] && !t.seeded

	return scalarParams, mixed
}

// setUp emits, in the entry block, the adjoint variables (of the varied
// scalar parameters, named after their results, and of every varied float
// value: a loop's reverse may read one before the reverse of its
// definition is built), and the shadows the parameters need.
func (t *transformer) setUp(nm *names, scalarParams, mixed []*ir.Value) {
	p, req := t.primal, t.req
	t.Cur = t.entry
	for _, pv := range scalarParams {
		t.slotOf(pv).Name = nm.adjoints[pv.Index]
	}
	if !t.callee {
		// The caller's shadows need no sizing: their slices are grown to
		// the primal's lengths.
		for i, pv := range p.Params {
			switch {
			case !req.Active[i]:
			case mixedParam(pv.Type):
				t.GrowShadow(t.val[pv], t.slot[pv])
			case ssaad.IsStructPointer(pv.Type):
				t.GrowShadow(t.val[pv], t.shadow[pv])
			}
		}
	}
	for _, pv := range mixed {
		t.shadow[pv] = t.Emit(ir.OpLoad, pv.Type, t.slot[pv])
	}
	// Inactive slices through which varied values flow (the callee of a
	// call may mix them with varied ones) get a zero shadow of their own,
	// whose adjoints are dropped.
	for i, pv := range p.Params {
		if !req.Active[i] && t.act.Varied(pv) && isFloatSlice(pv.Type) {
			n := t.Emit(ir.OpLen, intType, t.val[pv])
			c := t.Emit(ir.OpCap, intType, t.val[pv])
			d := t.Emit(ir.OpMakeSlice, pv.Type, n, c)
			d.Name = ssaad.AdjointName(nm.params[i])
			t.shadow[pv] = d
		}
	}
	t.local = localValues(p)
	t.share = accumulators(p, t.cfg)
	t.increments = increments(p)
	for _, b := range p.Blocks {
		for _, v := range b.Instrs {
			if t.act.Varied(v) && hasAdjoint(v.Type) && !t.local[v] && !t.readOnlyCopy(v) {
				t.slotOf(v)
			}
		}
	}
}

// prepare makes the forward sweep's blocks and the entry's checks, and
// decides what the sweeps record, restore and compute again.
func (t *transformer) prepare(nm *names) {
	p, f := t.primal, t.F
	for _, b := range p.Blocks {
		if t.cfg.Reachable(b) {
			t.fwd[b] = f.NewBlock(b.Comment)
		}
	}
	t.Cur = t.entry
	t.aliasChecks(nm.params)
	if t.gonum {
		// gonum/optimize's Grad overwrites grad.
		g := t.shadow[p.Params[len(p.Params)-1]]
		clr := t.Emit(ir.OpCall, nil, g)
		clr.Callee = &ir.Callee{Builtin: "clear"}
	}
	t.Cur.Jump(t.fwd[p.Blocks[0]])
	t.returns = t.reachesExit()
	t.counted = t.findCountedLoops()
	t.fused = t.findFused()
	if t.split || len(t.splitCalls) > 0 {
		// A fused loop's reverse runs in the forward sweep, before the
		// seeds of a split function are known or a continuation could
		// be called.
		t.fused = nil
	}
	if t.fused != nil {
		delete(t.counted, t.fused.c.header)
	}
	t.computeNeeds()
	if !t.split {
		t.chooseRestored()
	}
	if len(t.restored) > 0 {
		t.computeNeeds()
	}
	t.countdowns()
	t.findIterRebuilds()
	t.revolve = t.findRevolve()
	if t.req.Dump != nil {
		t.req.Dump("plan", t.planText())
	}
}

// forwardSweep copies the primal's blocks, recording what the reverse
// sweep needs, then fills the copied φs' arguments.
func (t *transformer) forwardSweep() {
	var phis []*ir.Value
	for _, b := range t.cfg.RPO {
		t.forwardBlock(b, &phis)
	}
	t.fwdBlock = nil
	t.finishSizing()
	for _, v := range phis {
		nv := t.val[v]
		for i, a := range v.Args {
			if t.cfg.Reachable(v.Block.Preds[i]) {
				nv.Args = append(nv.Args, t.v(a))
			}
		}
		t.fillShadowPhi(v)
	}
}

// forwardBlock copies primal block b into the forward sweep: its edges,
// its values (the φs collected in phis), the records of the control path
// and of the values the reverse needs, and its terminator.
func (t *transformer) forwardBlock(b *ir.Block, phis *[]*ir.Value) {
	t.Cur = t.fwd[b]
	t.fwdBlock = b
	nb := t.fwd[b]
	for _, s := range b.Succs {
		nb.Succs = append(nb.Succs, t.fwd[s])
	}
	for _, q := range b.Preds {
		if t.cfg.Reachable(q) {
			nb.Preds = append(nb.Preds, t.fwdEnd(q))
		}
	}
	if l := t.revolveBody(b); l != nil {
		t.revolveForward(l)
	}
	t.sizeAfterFirst(b)
	for _, v := range b.Instrs {
		if v.Op.IsTerminator() {
			continue
		}
		if v.Op == ir.OpPhi {
			*phis = append(*phis, v)
		}
		t.forward(v)
	}
	for _, l := range t.revolve {
		if b == l.c.header.Preds[l.c.pre] {
			t.detached(func() { t.startRevolve(l) })
		}
	}
	if fl := t.fused; fl != nil {
		switch b {
		case fl.c.header.Preds[fl.c.pre]:
			t.seedResults()
		case fl.body:
			t.emitFusedReverse(fl)
			t.Cur = nb
		}
	}
	// Record the control path and the values the reverse needs.
	if len(nb.Preds) >= 2 && t.counted[b] == nil && !t.inFused(b) {
		if t.outOfLoops(b) {
			t.Emit(ir.OpStore, nil, t.fromVar(b), t.controlPhi(nb))
		} else {
			t.push(t.pathTape(), t.controlPhi(nb))
		}
	}
	if t.outOfLoops(b) {
		for _, w := range t.needs[b] {
			t.Emit(ir.OpStore, nil, t.spillOf(w), t.v(w))
			if t.pairedShadow(w) {
				t.Emit(ir.OpStore, nil, t.shadowSpillOf(w), t.shadow[w])
			}
		}
	}
	for _, g := range groupByType(t.needs[b]) {
		if t.outOfLoops(b) || t.revolveBody(b) != nil {
			break // spilled, or computed again (see revolve.go)
		}
		t.pushGroup(recordKey{b: b, first: g[0]}, g)
	}
	t.pushIteration(b)
	t.reserve(b)
	term := b.Terminator()
	switch term.Op {
	case ir.OpReturn:
		// Continues with the reverse sweep, below.
	case ir.OpJump:
		t.Emit(ir.OpJump, nil)
	case ir.OpIf:
		t.Emit(ir.OpIf, nil, t.v(term.Args[0]))
	case ir.OpPanic:
		t.Emit(ir.OpPanic, nil, t.v(term.Args[0]))
	}
	t.fwdLast[b] = t.Cur
}

// reverseSweep builds the reverse of the blocks that reach the return,
// backwards, then returns the primal's results and the partials of
// scalarParams.
func (t *transformer) reverseSweep(scalarParams []*ir.Value) {
	f, order := t.F, t.cfg.RPO
	reaches := t.returns
	for i := len(order) - 1; i >= 0; i-- {
		if b := order[i]; reaches[b] && !(t.fused != nil && b == t.fused.body) {
			t.rev[b] = f.NewBlock(b.Comment + ".rev")
		}
	}
	for _, c := range t.counted {
		t.startCounted(c)
	}
	ret := f.NewBlock("return")
	fx := t.fwdEnd(t.exit)
	rewritten := t.rewrittenParams()
	t.Cur = fx
	final := t.saveFinal(rewritten)
	if t.split {
		t.suspend()
	}
	fx = t.Cur // after the loops of deep copies, if any
	ir.AddEdge(fx, t.rev[t.exit])
	fx.NewValue(ir.OpJump, nil)

	for i := len(order) - 1; i >= 0; i-- {
		b := order[i]
		if !reaches[b] || t.fused != nil && b == t.fused.body {
			continue
		}
		t.reverse(b, ret)
	}

	for _, c := range t.counted {
		t.finishCounted(c)
	}
	t.Cur = ret
	t.restoreFinal(rewritten, final)
	var results []*ir.Value
	for _, a := range t.exit.Terminator().Args {
		if !t.noValue {
			results = append(results, t.v(a))
		}
	}
	for _, pv := range scalarParams {
		results = append(results, t.Emit(ir.OpLoad, pv.Type, t.slotOf(pv)))
	}
	t.Emit(ir.OpReturn, nil, results...)
}

// fwdEnd returns the block of the forward sweep that ends primal block b:
// its forward copy, or the last of the blocks that copy split into (see
// forwardIf).
func (t *transformer) fwdEnd(b *ir.Block) *ir.Block {
	if e, ok := t.fwdLast[b]; ok {
		return e
	}
	return t.fwd[b]
}

// forwardIf emits, in the forward copy of a block, `if cond { then } else
// { els }` and continues after it in a new block, which takes over the
// copy's successors; it returns the φ there of the values then and els
// return (nil when they return nil).
func (t *transformer) forwardIf(cond *ir.Value, then, els func() *ir.Value) *ir.Value {
	var x, y *ir.Value
	t.detached(func() {
		thenB, elseB, done := t.F.NewBlock("then"), t.F.NewBlock("else"), t.F.NewBlock("done")
		t.Cur.If(cond, thenB, elseB)
		t.Cur = thenB
		x = then()
		t.Cur.Jump(done)
		t.Cur = elseB
		y = els()
		t.Cur.Jump(done)
		t.Cur = done
	})
	if x == nil {
		return nil
	}
	return t.Emit(ir.OpPhi, x.Type, x, y)
}

// computeNeeds computes what each block records (see blockNeeds).
func (t *transformer) computeNeeds() {
	t.round++
	t.needs = map[*ir.Block][]*ir.Value{}
	t.iterNeeds = map[*ir.Block][]*ir.Value{}
	t.iterLoop = map[*ir.Value]*ir.Block{}
	for _, b := range t.cfg.RPO {
		if !t.inFused(b) {
			t.needs[b] = t.blockNeeds(b)
		}
	}
	// A block that recorded a value before a block nested deeper made it
	// a value of the iteration reads the iteration's.
	for _, b := range t.cfg.RPO {
		t.cur = b
		t.needs[b] = slices.DeleteFunc(t.needs[b], t.ofIteration)
	}
	t.cur = nil
}

// reachesExit returns the blocks from which the return block is reachable.
func (t *transformer) reachesExit() map[*ir.Block]bool {
	r := map[*ir.Block]bool{t.exit: true}
	work := []*ir.Block{t.exit}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range b.Preds {
			if !r[p] && t.cfg.Reachable(p) {
				r[p] = true
				work = append(work, p)
			}
		}
	}
	return r
}

// v returns the forward copy of primal value x.
func (t *transformer) v(x *ir.Value) *ir.Value {
	return t.CopyOf(t.val, x, "reverse")
}

// r returns primal value x as the reverse sweep sees it in the block being
// reversed: its popped copy, or the forward copy when it is available.
func (t *transformer) r(x *ir.Value) *ir.Value {
	if x == nil {
		return nil
	}
	if w, ok := t.rvals[x]; ok {
		return w
	}
	if w := t.fromIteration(x, false); w != nil {
		return w
	}
	for h, c := range t.counted {
		if c.phi == x && t.cur != h && t.cfg.InLoop(h, t.cur) {
			return c.prev // the index of the iteration being reversed
		}
		if a := c.auxOf(x); a != nil && t.cfg.InLoop(h, t.cur) {
			if t.cur == h {
				return a.idx
			}
			return a.prev
		}
	}
	if t.recompute[x] {
		return t.recomputeAt(x)
	}
	if t.spilled(x) {
		return t.Emit(ir.OpLoad, x.Type, t.spillOf(x))
	}
	if !t.available(x) {
		panic("reverse: " + x.Ref() + " is needed in reverse but neither recorded nor available")
	}
	return t.v(x)
}

// forward copies primal value v into the forward sweep with its shadow,
// if it has one (see shadows.go).
func (t *transformer) forward(v *ir.Value) {
	if v.Op == ir.OpPhi {
		nv := t.Emit(ir.OpPhi, v.Type)
		nv.Name, nv.Pos = v.Name, v.Pos
		t.val[v] = nv
		t.makeShadow(v)
		return
	}
	if t.splitCalls[v] {
		t.forwardSplit(v)
		return
	}
	args := make([]*ir.Value, len(v.Args))
	for i, a := range v.Args {
		args[i] = t.v(a)
	}
	if v.Op == ir.OpCall && t.reversedCall(v) && t.revolveOf(v) == nil {
		// Save what the callee reads and the function may change later:
		// the callee's reverse recomputes it from the same memory (in a
		// checkpointed loop, the schedule's copies of the state do).
		t.saveArgs(v, args)
	}
	if v.Op == ir.OpStore {
		t.storeShadow(v)
		if t.restoredStore(v) {
			t.saveOverwritten(v)
		}
	}
	nv := t.Same(v, args...)
	nv.Name, nv.Const, nv.Global = v.Name, v.Const, v.Global
	if v.Callee != nil {
		c := *v.Callee
		// A callee's reverse (not a split's forward half) runs its
		// forward sweep after the caller ran the function on the same
		// arguments and memory: its calls return again.
		c.Recomputed = t.callee && !t.split && v.Op == ir.OpCall && c.Func != nil
		nv.Callee = &c
	}
	t.val[v] = nv
	t.makeShadow(v)
}

// reversedCall reports whether call v is reversed through its callee's
// VJP.
func (t *transformer) reversedCall(v *ir.Value) bool {
	c := v.Callee
	return c != nil && c.Func != nil && !c.Invoke && c.Builtin == "" && !isMath(v) && t.anyVariedArg(v)
}

// instrNeeds returns the primal values the reverse of v reads.
func (t *transformer) instrNeeds(v *ir.Value) []*ir.Value {
	switch v.Op {
	case ir.OpStore:
		if old, ok := t.replaced[v]; ok {
			return t.addrNeeds(old, t.addrNeeds(v.Args[0], nil))
		}
		if t.act.Varied(v.Args[0]) && ssaad.HasFloat(v.Args[1].Type) {
			return t.addrNeeds(v.Args[0], nil)
		}
		return nil
	case ir.OpCall:
		if !t.anyVariedArg(v) {
			return nil
		}
		if v.Callee.Builtin == "append" {
			if !hasAdjoint(v.Type.Underlying().(*types.Slice).Elem()) {
				return nil // slices of slices: their shadows are all there is
			}
			// The slices and their shadows; not the elements' values.
			out := t.addrNeeds(v.Args[0], nil)
			if v.Callee.Spread {
				out = t.addrNeeds(v.Args[1], out)
			}
			return t.addrNeeds(v, out)
		}
		if t.splitCalls[v] {
			return nil // its continuation keeps what its reverse needs
		}
		var out []*ir.Value
		for j, a := range v.Args {
			switch {
			case a.Op == ir.OpConst:
			case ssaad.IsPointerLike(a.Type):
				out = t.addrNeeds(a, out)
			case !argUsed(v, j):
				// d/dx tanh x = 1 − r²: the partials do not read x.
			default:
				out = append(out, a)
			}
		}
		if _, ok := v.Type.(*types.Tuple); !ok && v.Type != nil && !t.reversedCall(v) && resultUsed(v, 0) {
			out = append(out, v) // the partials of math and min/max read it
		}
		if t.reversedCall(v) && t.freshResult(v, 0, v) {
			out = t.addrNeeds(v, out) // its shadow is the callee's seed
		}
		return out
	case ir.OpExtract:
		if t.anyVariedArg(v.Args[0]) && !t.reversedCall(v.Args[0]) && resultUsed(v.Args[0], v.Index) {
			return []*ir.Value{v}
		}
		if t.reversedCall(v.Args[0]) && !t.splitCalls[v.Args[0]] && t.freshResult(v.Args[0], v.Index, v) {
			return t.addrNeeds(v, nil)
		}
		return nil
	}
	if !t.act.Varied(v) {
		return nil
	}
	switch v.Op {
	case ir.OpBinary:
		switch v.Tok {
		case token.MUL:
			// Each operand's partial is the other operand.
			var out []*ir.Value
			if t.act.Varied(v.Args[1]) {
				out = append(out, v.Args[0])
			}
			if t.act.Varied(v.Args[0]) {
				out = append(out, v.Args[1])
			}
			return out
		case token.QUO:
			// ∂(a/b)/∂a = 1/b; ∂(a/b)/∂b = −(a/b)/b.
			if t.act.Varied(v.Args[1]) {
				return []*ir.Value{v.Args[1], v}
			}
			return []*ir.Value{v.Args[1]}
		}
	case ir.OpSelect:
		return []*ir.Value{v.Args[0]}
	case ir.OpLoad:
		return t.addrNeeds(v.Args[0], nil)
	case ir.OpIndex:
		return []*ir.Value{v.Args[1]}
	}
	return nil
}

// freshResult reports whether result k of call v, r (v or its extract), is
// a slice the callee allocates, whose shadow the reverse of the call
// passes to the callee's reverse.
func (t *transformer) freshResult(v *ir.Value, k int, r *ir.Value) bool {
	return shadowResult(r.Type) && t.hasShadow(r) && t.resultOrigin(v, k) == ssaad.OriginFresh
}

// blockNeeds returns the values b's reverse reads that are not available,
// each once, in a fixed order: the values b records.
func (t *transformer) blockNeeds(b *ir.Block) []*ir.Value {
	t.cur = b
	defer func() { t.cur = nil }()
	var out []*ir.Value
	seen := map[*ir.Value]bool{}
	if c := t.countedExit(b); c != nil {
		out = append(out, c.phi) // the final index of the loop exited
		seen[c.phi] = true
		for _, a := range c.aux { // and its other induction variables
			out = append(out, a.phi)
			seen[a.phi] = true
		}
	}
	for i, v := range b.Instrs {
		t.curPos = i
		for _, w := range t.instrNeeds(v) {
			if w == nil {
				continue
			}
			for _, x := range t.plan(w) {
				if h := t.iterScope(x, b); h != nil {
					if t.iterLoop[x] == nil {
						t.iterLoop[x] = h
						t.iterNeeds[h] = append(t.iterNeeds[h], x)
					}
					continue
				}
				if !seen[x] {
					seen[x] = true
					out = append(out, x)
				}
			}
		}
	}
	return out
}

// tape returns the tape variable for values of type typ.
func (t *transformer) tape(typ types.Type) *ir.Value {
	key := types.TypeString(typ, nil)
	if t.fwdBlock != nil {
		if t.tapeBlocks[key] == nil {
			t.tapeBlocks[key] = map[*ir.Block]bool{}
		}
		t.tapeBlocks[key][t.fwdBlock] = true
	}
	if tp, ok := t.tapes[key]; ok {
		return tp
	}
	name := "tape"
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		if !isFloat(typ) {
			name = "tape" + key
		}
	case *types.Slice:
		name = "tapeSlices"
	case *types.Pointer:
		name = "tapePointers"
	default:
		_ = u
		name = "tapeValues"
	}
	tp := t.newTape(typ, name)
	t.tapes[key] = tp
	return tp
}

// spillOf returns the variable that keeps primal value w for the reverse
// of a block out of loops.
func (t *transformer) spillOf(w *ir.Value) *ir.Value {
	if s, ok := t.spill[w]; ok {
		return s
	}
	s := t.F.NewValue(ir.OpAlloc, types.NewPointer(w.Type))
	s.Name = w.Name
	t.entry.Insert(0, s)
	t.spill[w] = s
	return s
}

// fromVar returns the variable that keeps, for block b out of loops with
// several predecessors, the one control came from.
func (t *transformer) fromVar(b *ir.Block) *ir.Value {
	if t.froms == nil {
		t.froms = map[*ir.Block]*ir.Value{}
	}
	if s, ok := t.froms[b]; ok {
		return s
	}
	s := t.F.NewValue(ir.OpAlloc, types.NewPointer(intType))
	s.Name = "from"
	t.entry.Insert(0, s)
	t.froms[b] = s
	return s
}

// pathTape returns the tape of the control path: for each block reached
// from several predecessors, the index of the one it came from.
func (t *transformer) pathTape() *ir.Value {
	if t.path == nil {
		t.path = t.newTape(intType, "path")
	}
	return t.path
}

// The tape starts on a small array of the function's own (see
// tapeBufferLen), which Go keeps on the stack: a function called many times
// with short tapes (a helper's reverse in a loop) allocates nothing. A
// split function's tapes start empty: its continuation, a closure, keeps
// them, and an array of its own would be allocated on the heap, and
// zeroed, at every call.
func (t *transformer) newTape(typ types.Type, name string) *ir.Value {
	st := types.NewSlice(typ)
	tp := t.F.NewValue(ir.OpAlloc, types.NewPointer(st))
	tp.Name = name
	if t.split {
		init := t.F.NewValue(ir.OpStore, nil, tp, t.F.ConstValue(st, nil))
		t.entry.Insert(0, init)
		t.entry.Insert(0, tp)
		return tp
	}
	buf := t.F.NewValue(ir.OpAlloc, types.NewPointer(types.NewArray(typ, tapeBufferLen(typ))))
	buf.Name = name + "Buf"
	s := t.F.NewValue(ir.OpSlice, st, buf, nil, t.F.Int(0), nil)
	init := t.F.NewValue(ir.OpStore, nil, tp, s)
	t.entry.Insert(0, init)
	t.entry.Insert(0, s)
	t.entry.Insert(0, buf)
	t.entry.Insert(0, tp)
	return tp
}

// tapeBufferBytes is the size of the array a tape starts on: 2 KB, at
// least 16 and at most 256 elements (256 float64s: the values a helper's
// reverse records for a few hundred operations).
const tapeBufferBytes = 2048

// tapeBufferLen returns the length of the array a tape of values of type
// typ starts on.
func tapeBufferLen(typ types.Type) int64 {
	size := types.SizesFor("gc", "amd64").Sizeof(typ)
	return min(max(tapeBufferBytes/max(size, 1), 16), 256)
}

// groupByType splits vs into runs of one type, in order of first
// appearance: each run goes to one tape.
func groupByType(vs []*ir.Value) [][]*ir.Value {
	var groups [][]*ir.Value
	index := map[string]int{}
	for _, v := range vs {
		k := types.TypeString(v.Type, nil)
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], v)
	}
	return groups
}

// push appends xs to tape tp in one append, which it returns.
func (t *transformer) push(tp *ir.Value, xs ...*ir.Value) *ir.Value {
	st := tp.Type.(*types.Pointer).Elem()
	args := append([]*ir.Value{t.Emit(ir.OpLoad, st, tp)}, xs...)
	s2 := t.Emit(ir.OpCall, st, args...)
	s2.Callee = &ir.Callee{Builtin: "append"}
	t.Emit(ir.OpStore, nil, tp, s2)
	return s2
}

// poppedName is the name of the value the reverse sweep pops for primal
// value w: w's, or for an unnamed element load, the element's (ui for
// u[i]), so that the sweep reads as the primal does.
func poppedName(w *ir.Value) string {
	if w.Name != "" {
		return w.Name
	}
	return ir.ElementName(w)
}

// pop removes the last k values from tape tp and returns them in the
// order they were pushed.
func (t *transformer) pop(tp *ir.Value, k int) []*ir.Value {
	out, shrink := t.popThen(tp, k)
	shrink()
	return out
}

// popStore stores the last value of tape tp through dst, then removes it
// from the tape: the restore reads *s = tape[len(tape)-1] before
// tape = tape[:len(tape)-1], and the shorter tape needs no variable of
// its own while the restore reads the longer.
func (t *transformer) popStore(dst, tp *ir.Value) {
	out, shrink := t.popThen(tp, 1)
	t.Emit(ir.OpStore, nil, dst, out[0])
	shrink()
}

// popThen emits the loads of the last k values of tape tp, which it
// returns in the order they were pushed, and a function that emits their
// removal from the tape.
func (t *transformer) popThen(tp *ir.Value, k int) ([]*ir.Value, func()) {
	st := tp.Type.(*types.Pointer).Elem()
	elem := st.(*types.Slice).Elem()
	s := t.Emit(ir.OpLoad, st, tp)
	n := t.Emit(ir.OpLen, intType, s)
	base := t.Emit(ir.OpBinary, intType, n, t.F.Int(int64(k)))
	base.Tok = token.SUB
	out := make([]*ir.Value, k)
	for i := range out {
		idx := base
		if i > 0 {
			idx = t.Emit(ir.OpBinary, intType, base, t.F.Int(int64(i)))
			idx.Tok = token.ADD
		}
		out[i] = t.Emit(ir.OpLoad, elem, t.Emit(ir.OpIndexAddr, types.NewPointer(elem), s, idx))
	}
	return out, func() { t.Emit(ir.OpStore, nil, tp, t.Emit(ir.OpSlice, st, s, nil, base, nil)) }
}

// tapeValue names v, a new value of tape tp (pushed to or popped from),
// after the tape, and returns it: the emitter then assigns it to the
// tape's variable where the old value is dead (tape = tape[:len(tape)-1])
// instead of a temporary of its own.
func (t *transformer) tapeValue(tp, v *ir.Value) *ir.Value {
	v.Name = tp.Name
	return v
}

// slotOf returns the variable holding the adjoint of primal value v.
func (t *transformer) slotOf(v *ir.Value) *ir.Value {
	if s, ok := t.slot[v]; ok {
		return s
	}
	if phi, ok := t.share[v]; ok {
		s := t.slotOf(phi)
		t.slot[v] = s
		return s
	}
	s := t.F.NewValue(ir.OpAlloc, types.NewPointer(v.Type))
	s.Adjoint = true
	if v.Name != "" {
		s.Name = ssaad.AdjointName(v.Name)
	}
	t.entry.Insert(0, s)
	t.slot[v] = s
	return s
}

func typeOr(t types.Type) types.Type {
	if t == nil {
		return types.Typ[types.Invalid]
	}
	return t
}

// accumulators finds the loop accumulators s = φ ± x (s += x): the φ of a
// loop header whose only use in the loop is s, and s, whose only use is
// that φ on the back edge. Their adjoints are equal at every iteration, so
// s shares φ's adjoint variable (the map goes from s to φ) and the reverse
// skips moving it around.
func accumulators(f *ir.Func, cfg *ir.CFG) map[*ir.Value]*ir.Value {
	uses := ir.Uses(f)
	share := map[*ir.Value]*ir.Value{}
	for hi, body := range cfg.Loop {
		h := f.Blocks[hi]
		for _, phi := range h.Instrs {
			if phi.Op != ir.OpPhi {
				break
			}
			if !isFloat(phi.Type) {
				continue
			}
			for i, s := range phi.Args {
				if !body[h.Preds[i].Index] || s.Op != ir.OpBinary || s.Block == nil || !body[s.Block.Index] ||
					!(s.Tok == token.ADD && (s.Args[0] == phi || s.Args[1] == phi) || s.Tok == token.SUB && s.Args[0] == phi && s.Args[1] != phi) {
					continue
				}
				ok := len(uses[s.ID]) == 1 && uses[s.ID][0] == phi
				for _, u := range uses[phi.ID] {
					ok = ok && (u == s || !body[u.Block.Index])
				}
				// φ must take s on every back edge.
				for j, a := range phi.Args {
					ok = ok && (!body[h.Preds[j].Index] || a == s)
				}
				if ok {
					share[s] = phi
				}
			}
		}
	}
	return share
}

// localValues returns the values of f all of whose uses are ordinary
// (not φ) values of their own block: their adjoints flow within the reverse
// of that block and need no variable.
func localValues(f *ir.Func) map[*ir.Value]bool {
	uses := ir.Uses(f)
	local := map[*ir.Value]bool{}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpPhi || v.Op == ir.OpExtract {
				continue
			}
			ok := isFloat(typeOr(v.Type)) // aggregates live in variables
			for _, u := range uses[v.ID] {
				ok = ok && u.Block == b && u.Op != ir.OpPhi
			}
			local[v] = ok
		}
	}
	return local
}

// accumulate adds x to the adjoint of primal value v, if v is varied.
func (t *transformer) accumulate(v, x *ir.Value) {
	if v == nil || v.Op == ir.OpConst || !t.act.Varied(v) || ssaad.IsZero(x) || !hasAdjoint(v.Type) {
		return
	}
	if !isFloat(v.Type) {
		t.addInto(t.slotOf(v), x)
		return
	}
	if t.local[v] {
		if old, ok := t.pend[v]; ok {
			x = t.Add(old, x)
		}
		t.pend[v] = x
		return
	}
	s := t.slotOf(v)
	old := t.Emit(ir.OpLoad, v.Type, s)
	t.Emit(ir.OpStore, nil, s, t.Add(old, x))
}

// take returns the adjoint of v and resets it to zero; the zero constant
// when v has no adjoint.
func (t *transformer) take(v *ir.Value) *ir.Value {
	if t.local[v] {
		g, ok := t.pend[v]
		if !ok {
			return t.Zero(v.Type)
		}
		delete(t.pend, v)
		return g
	}
	if _, ok := t.slot[v]; !ok || !hasAdjoint(v.Type) {
		return t.Zero(v.Type)
	}
	s := t.slot[v]
	g := t.Emit(ir.OpLoad, v.Type, s)
	t.Emit(ir.OpStore, nil, s, t.Zero(v.Type))
	return g
}

// increments finds the stores *p = *p ± x (*p += x) whose load and sum
// are used only there, with nothing stored or called between the load and
// the store. The adjoint of *p passes through them unchanged, so their
// reverse only adds ±*dp to x̄, instead of moving *dp into the sum's
// adjoint, clearing it and adding it back.
func increments(f *ir.Func) map[*ir.Value]*ir.Value {
	uses := ir.Uses(f)
	out := map[*ir.Value]*ir.Value{}
	for _, b := range f.Blocks {
		var load *ir.Value // the last load since a store or call
		for _, v := range b.Instrs {
			switch v.Op {
			case ir.OpLoad:
				load = v
				continue
			case ir.OpStore:
				x := v.Args[1]
				if load != nil && x.Op == ir.OpBinary && (x.Tok == token.ADD || x.Tok == token.SUB) &&
					load.Args[0] == v.Args[0] && len(uses[load.ID]) == 1 && len(uses[x.ID]) == 1 &&
					x.Block == b && (x.Args[0] == load) != (x.Args[1] == load) && (x.Tok == token.ADD || x.Args[0] == load) {
					out[v] = load
				}
			}
			if v.Op.HasEffect() {
				load = nil
			}
		}
	}
	return out
}
