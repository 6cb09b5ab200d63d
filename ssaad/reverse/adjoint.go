package reverse

// This file defines the reverse of each block and the adjoint of each
// operation.

import (
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/templates"
)

// controlPhi adds to block nb, after its φs, a φ whose value is the index
// of the predecessor control came from.
func (t *transformer) controlPhi(nb *ir.Block) *ir.Value {
	c := t.F.NewValue(ir.OpPhi, intType)
	c.Name = "from"
	for i := range nb.Preds {
		c.Args = append(c.Args, t.F.Int(int64(i)))
	}
	at := 0
	for at < len(nb.Instrs) && nb.Instrs[at].Op == ir.OpPhi {
		at++
	}
	nb.Insert(at, c)
	return c
}

// reverse emits the reverse of primal block b: pop what b recorded, the
// adjoints of its values in reverse order, then go back to the reverse of
// the predecessor control came from (to ret from the entry).
func (t *transformer) reverse(b *ir.Block, ret *ir.Block) {
	rb := t.rev[b]
	t.Cur = rb
	t.cur = b
	clear(t.rvals)
	clear(t.rshadow)
	t.curPos = len(b.Instrs)
	if c := t.counted[b]; c != nil {
		t.rvals[c.phi] = c.idx
	}
	t.popIteration(b)
	t.rebuildIteration(b)
	t.restoreValues(b)
	clear(t.pend)
	if b == t.exit && t.fused == nil {
		t.seedResults()
	}
	if l := t.revolveBody(b); l != nil {
		t.revolveBack(l)
	}
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if v := b.Instrs[i]; v.Op != ir.OpPhi && !v.Op.IsTerminator() {
			t.curPos = i
			t.adjoint(v)
			if t.restoredStore(v) {
				t.reloadStored(v)
				t.restoreOverwritten(v)
			}
		}
	}
	t.curPos = len(b.Instrs)
	t.branchBack(b, ret)
}

// restoreValues makes the primal values the reverse of b reads available
// (t.rvals, t.rshadow): popped from the tapes, or loaded from their spills
// out of loops, and the counted loops' final and starting indexes.
func (t *transformer) restoreValues(b *ir.Block) {
	groups := groupByType(t.needs[b])
	if t.revolveBody(b) != nil {
		groups = nil // computed again (see revolveBack)
	}
	if t.outOfLoops(b) {
		for _, w := range t.needs[b] {
			x := t.Emit(ir.OpLoad, w.Type, t.spillOf(w))
			x.Name = w.Name
			t.rvals[w] = x
			if t.pairedShadow(w) {
				t.rshadow[w] = t.Emit(ir.OpLoad, w.Type, t.shadowSpillOf(w))
			}
		}
		groups = nil
	}
	for i := len(groups) - 1; i >= 0; i-- {
		t.popGroup(recordKey{b: b, first: groups[i][0]}, groups[i], func(w, x, s *ir.Value) {
			t.rvals[w] = x
			if s != nil {
				if w.Name != "" {
					s.Name = ssaad.AdjointName(w.Name)
				}
				t.rshadow[w] = s
			}
		})
	}
	if c := t.countedExit(b); c != nil && !c.closed {
		c.final = t.rvals[c.phi]
		for _, a := range c.aux {
			a.final = t.rvals[a.phi]
		}
	}
	for _, c := range t.countedLoops() {
		if c.closed && c.out == b {
			// The index of the loop's last iteration, from its bound.
			c.start = t.r(c.bound)
			if c.adj != 0 {
				c.start = stepBack(t.F, c.start, constant.MakeInt64(-c.adj))
				t.Cur.Append(c.start)
			}
		}
	}
}

// branchBack ends the reverse of b, whose primal was entered from its
// predecessors: to the reverse of the predecessor it was entered from (a
// counted loop's header tests its index, other joins read the path tape),
// or to ret from the entry block.
func (t *transformer) branchBack(b *ir.Block, ret *ir.Block) {
	preds := b.Preds
	if fl := t.fused; fl != nil && b == fl.c.header {
		// Its iterations were reversed as they ran (see fuse.go).
		t.phiEdge(b, fl.c.pre)
		t.jump(t.rev[preds[fl.c.pre]])
		return
	}
	switch c := t.counted[b]; {
	case c != nil && c.down:
		// for idx := start; idx >= init; idx -= step { … }
		cond := t.Emit(ir.OpBinary, boolType, c.idx, t.r(c.init))
		cond.Tok = token.GEQ
		if constant.Sign(c.step.Const) < 0 {
			cond.Tok = token.LEQ
		}
		next := t.F.NewBlock(b.Comment + ".rev")
		edge := t.F.NewBlock(b.Comment + ".from")
		t.Cur.If(cond, next, edge)
		t.Cur = next
		// An iteration that left by a break is reversed from there.
		for i, s := range c.breaks {
			at := t.Emit(ir.OpBinary, boolType, c.part, t.F.Int(int64(i+1)))
			at.Tok = token.EQL
			yes := t.F.NewBlock(b.Comment + ".break")
			no := t.F.NewBlock(b.Comment + ".rev")
			t.Cur.If(at, yes, no)
			t.Cur = yes
			t.jump(t.rev[s])
			t.Cur = no
		}
		t.phiEdge(b, c.latch)
		if preds[c.latch] == b {
			t.backEdge[t.Cur] = true
		}
		t.jump(t.rev[preds[c.latch]])
		t.Cur = edge
		t.phiEdge(b, c.pre)
		t.jump(t.rev[preds[c.pre]])
	case c != nil:
		// Back to the preheader once the first iteration is reversed.
		first := t.Emit(ir.OpBinary, boolType, c.idx, t.r(c.init))
		first.Tok = token.EQL
		edge := t.F.NewBlock(b.Comment + ".from")
		next := t.F.NewBlock(b.Comment + ".rev")
		t.Cur.If(first, edge, next)
		t.Cur = edge
		t.phiEdge(b, c.pre)
		t.jump(t.rev[preds[c.pre]])
		t.Cur = next
		t.phiEdge(b, c.latch)
		if preds[c.latch] == b {
			// The header is its own latch (a loop tested at the end of
			// its body, as go/ssa builds range over an int once the
			// entry test folds away): this edge goes back to the
			// previous iteration too.
			t.backEdge[t.Cur] = true
		}
		t.jump(t.rev[preds[c.latch]])
	case b == t.primal.Blocks[0]:
		t.jump(ret)
	case len(preds) == 1:
		t.phiEdge(b, 0)
		t.jump(t.rev[preds[0]])
	default:
		var from *ir.Value
		if t.outOfLoops(b) {
			from = t.Emit(ir.OpLoad, intType, t.fromVar(b))
		} else {
			from = t.pop(t.pathTape(), 1)[0]
		}
		from.Name = "from"
		// One edge block per predecessor; a chain of tests picks it.
		for i := range preds {
			if i == len(preds)-1 {
				t.phiEdge(b, i)
				t.jump(t.rev[preds[i]])
				break
			}
			edge := t.F.NewBlock(b.Comment + ".from")
			next := t.F.NewBlock(b.Comment + ".rev")
			c := t.Emit(ir.OpBinary, boolType, from, t.F.Int(int64(i)))
			c.Tok = token.EQL
			t.Cur.If(c, edge, next)
			t.Cur = edge
			t.phiEdge(b, i)
			t.jump(t.rev[preds[i]])
			t.Cur = next
		}
	}
}

// unlessFirstTrip starts, in the reverse of a loop's body, `if idx !=
// init {` around the adjoint of a tensor φ of the loop's header whose
// value on entry is not varied (h in h = x; for … { h = f(h, W) }), and
// returns the function that closes it. What the reverse of the first
// trip adds into such a φ's adjoint would go to that entry value's,
// which is dropped: an MLP's gradient in its weights would compute the
// gradient in its input, the largest product, for nothing. Elsewhere
// it emits nothing and returns a no-op.
func (t *transformer) unlessFirstTrip(a *ir.Value) func() {
	if a.Op != ir.OpPhi || !ir.IsTensor(a.Type) || t.cur == nil || t.cur == a.Block {
		return func() {}
	}
	c := t.counted[a.Block]
	if c == nil || !c.down || a == c.phi || !t.cfg.InLoop(c.header, t.cur) || t.act.Varied(a.Args[c.pre]) {
		return func() {}
	}
	later := t.Emit(ir.OpBinary, boolType, t.r(c.phi), t.r(c.init))
	later.Tok = token.NEQ
	then, done := t.F.NewBlock("then"), t.F.NewBlock("done")
	t.Cur.If(later, then, done)
	t.Cur = then
	return func() {
		t.Cur.Jump(done)
		t.Cur = done
	}
}

func (t *transformer) jump(to *ir.Block) {
	// Into the reverse of a down loop from after it: through the
	// reverse of its header, which knows where the iteration left.
	for _, c := range t.countedLoops() {
		if !c.down || t.cfg.InLoop(c.header, t.cur) {
			continue
		}
		if to == t.rev[c.header] {
			t.enterCountdown(c, -1)
			return
		}
		for i, s := range c.breaks {
			if to == t.rev[s] {
				t.enterCountdown(c, i)
				return
			}
		}
	}
	for h := range t.counted {
		if to == t.rev[h] && t.cur != h && t.cfg.InLoop(h, t.cur) {
			t.backEdge[t.Cur] = true
		}
	}
	t.Cur.Jump(to)
}

// phiEdge moves the adjoints of b's φs to their arguments from
// predecessor i.
//
// The φs of a block are one parallel assignment, so their adjoints are all
// taken before any is passed on: a φ may be the argument of another
// (a, b = b, 2*x*b - a).
func (t *transformer) phiEdge(b *ir.Block, i int) {
	var phis, gs []*ir.Value
	for _, v := range b.Instrs {
		if v.Op != ir.OpPhi {
			break
		}
		if !t.act.Varied(v) || !hasAdjoint(v.Type) || t.share[v.Args[i]] == v {
			continue // an accumulator's adjoint stays in the shared variable
		}
		phis = append(phis, v)
		gs = append(gs, t.take(v))
	}
	for k, v := range phis {
		t.accumulate(v.Args[i], gs[k])
	}
}

// accumulateIncrement adds the adjoint g of an increment inc = s ± y,
// which passes through to s unchanged, to ȳ (negated for −).
func (t *transformer) accumulateIncrement(inc, s, g *ir.Value) {
	y := inc.Args[1]
	if y == s {
		y = inc.Args[0]
	}
	if inc.Tok == token.SUB {
		g = t.Neg(g)
	}
	t.accumulate(y, g)
}

// adjoint emits the reverse of primal value v: it moves the adjoint of v
// to the adjoints of its operands (and of memory).
func (t *transformer) adjoint(v *ir.Value) {
	switch v.Op {
	case ir.OpStore:
		addr, x := v.Args[0], v.Args[1]
		defer t.restoreReplacedShadow(v)
		if !t.act.Varied(addr) || !ssaad.HasFloat(x.Type) {
			return
		}
		if load, ok := t.increments[v]; ok {
			// *p = *p ± y: *dp is unchanged; ȳ ±= *dp.
			t.accumulateIncrement(x, load, t.Emit(ir.OpLoad, x.Type, t.shadowAt(addr)))
			return
		}
		t.storeAdjoint(t.shadowAt(addr), x)
		return
	case ir.OpCall:
		if t.anyVariedArg(v) {
			t.callAdjoint(v)
		}
		return
	}
	if v.Op == ir.OpExtract || !t.act.Varied(v) || !hasAdjoint(v.Type) || t.replacedLoads[v] {
		return // a math call's results: the call's reverse reads them
	}
	if phi, ok := t.share[v]; ok {
		// An accumulator v = φ ± x sharing φ's adjoint variable: the
		// adjoint passes through unchanged; only x's needs updating.
		t.accumulateIncrement(v, phi, t.Emit(ir.OpLoad, v.Type, t.slotOf(phi)))
		return
	}
	g := t.take(v)
	if ssaad.IsZero(g) {
		return
	}
	switch v.Op {
	case ir.OpBinary:
		x, y := v.Args[0], v.Args[1]
		switch v.Tok {
		case token.ADD:
			if x == y {
				// z = x+x: x̄ += 2·z̄, one update rather than two.
				t.accumulate(x, t.Scale(2, g))
				break
			}
			t.accumulate(x, g)
			t.accumulate(y, g)
		case token.SUB:
			if x == y {
				// z = x−x: its derivative is 0. Adding z̄ and then −z̄ to
				// x̄ would leave rounding errors of z̄'s size in x̄.
				break
			}
			t.accumulate(x, g)
			t.accumulate(y, t.Neg(g))
		case token.MUL:
			// z = x*y: x̄ += z̄·y; ȳ += x·z̄
			if x == y {
				// z = x*x: x̄ += 2·(z̄·x), which is z̄·x + x·z̄ exactly.
				two := t.F.ConstValue(v.Type, constant.MakeFloat64(2))
				t.accumulate(x, t.Mul(two, t.Mul(g, t.r(x))))
				break
			}
			if t.act.Varied(x) {
				t.accumulate(x, t.Mul(g, t.r(y)))
			}
			if t.act.Varied(y) {
				t.accumulate(y, t.Mul(t.r(x), g))
			}
		case token.QUO:
			// z = x/y: x̄ += z̄/y; ȳ -= z̄·z/y
			ry := t.r(y)
			if t.act.Varied(x) {
				t.accumulate(x, t.Quo(g, ry))
			}
			if t.act.Varied(y) {
				t.accumulate(y, t.Neg(t.Quo(t.Mul(g, t.r(v)), ry)))
			}
		}
	case ir.OpUnary:
		t.accumulate(v.Args[0], t.Neg(g))
	case ir.OpConvert:
		x := v.Args[0]
		if isFloat(x.Type) {
			c := t.Emit(ir.OpConvert, x.Type, g)
			t.accumulate(x, c)
		}
	case ir.OpSelect:
		c, a, b := t.r(v.Args[0]), v.Args[1], v.Args[2]
		zero := t.Zero(v.Type)
		if t.act.Varied(a) {
			t.accumulate(a, t.Emit(ir.OpSelect, v.Type, c, g, zero))
		}
		if t.act.Varied(b) {
			t.accumulate(b, t.Emit(ir.OpSelect, v.Type, c, zero, g))
		}
	case ir.OpLoad:
		// x = *p: *dp += x̄
		t.addInto(t.shadowAt(v.Args[0]), g)
	case ir.OpField:
		// x = s.f: s̄.f += x̄
		s := v.Args[0]
		if t.act.Varied(s) && hasAdjoint(s.Type) {
			a := t.Emit(ir.OpFieldAddr, types.NewPointer(v.Type), t.aggregateSlot(s))
			a.Index = v.Index
			t.addInto(a, g)
		}
	case ir.OpIndex:
		// x = a[i]: ā[i] += x̄
		a := v.Args[0]
		if t.act.Varied(a) && hasAdjoint(a.Type) {
			t.addInto(t.Emit(ir.OpIndexAddr, types.NewPointer(v.Type), t.aggregateSlot(a), t.r(v.Args[1])), g)
		}
	}
}

// aggregateSlot returns where the adjoints of the parts of struct or
// array s add up: its variable, or, when s is a copy of memory that only
// its parts are read from (see readOnlyCopy), the shadow of that memory
// itself: for l := m.Layers[i] read as l.W and l.B, the gradient goes
// straight into mBar.Layers[i] rather than into a variable of its own
// added there when the load is reversed.
func (t *transformer) aggregateSlot(s *ir.Value) *ir.Value {
	if t.readOnlyCopy(s) {
		return t.shadowAt(s.Args[0])
	}
	return t.slotOf(s)
}

// readOnlyCopy reports whether s is a load of a struct or array from
// memory the function never writes, read only by its parts (fields and
// elements) in its own block: the reverse of that block can add their
// adjoints into the shadow of the memory directly (aggregateSlot), and
// the load's reverse has nothing left to add.
func (t *transformer) readOnlyCopy(s *ir.Value) bool {
	if r, ok := t.readOnly[s]; ok {
		return r
	}
	r := s.Op == ir.OpLoad && t.hasShadow(s.Args[0]) && !t.classWritten[t.act.Class(s.Args[0])] && !t.local[s]
	if r {
		if t.uses == nil {
			t.uses = ir.Uses(t.primal)
		}
		for _, u := range t.uses[s.ID] {
			r = r && u.Block == s.Block && (u.Op == ir.OpField || u.Op == ir.OpIndex) && u.Args[0] == s
		}
	}
	t.readOnly[s] = r
	return r
}

// storeAdjoint emits the reverse of a store of x at the place whose
// shadow is d: the adjoint of x is *d; the old value's adjoint is gone
// with it.
func (t *transformer) storeAdjoint(d, x *ir.Value) {
	if ssaad.RefersToMemory(x.Type) {
		// Only the float leaves of *d are adjoints; its slices and
		// pointers are shadows, which stay.
		if !hasAdjoint(x.Type) {
			return
		}
		leaves, _ := floatLeaves(x.Type)
		for _, l := range leaves {
			a := t.leafAddr(d, l)
			g := t.Emit(ir.OpLoad, l.typ, a)
			t.Emit(ir.OpStore, nil, a, t.Zero(l.typ))
			if t.act.Varied(x) {
				t.addInto(t.leafAddr(t.slotOf(x), l), g)
			}
		}
		return
	}
	g := t.Emit(ir.OpLoad, x.Type, d)
	t.Emit(ir.OpStore, nil, d, t.Zero(x.Type))
	if hasAdjoint(x.Type) {
		t.accumulate(x, g)
	}
}

// appendAdjoint emits the reverse of ys := append(xs, a, b, …) (or
// append(xs, zs...)): the adjoints of the elements appended move from dys
// to their sources (the stores' reverse), and when the append grew the
// slice into new memory, the adjoints of the elements it copied from xs
// move to dxs; otherwise dys is dxs, extended, and they are there
// already.
func (t *transformer) appendAdjoint(v *ir.Value) {
	xs := v.Args[0]
	elem := v.Type.Underlying().(*types.Slice).Elem()
	if !hasAdjoint(elem) {
		return
	}
	ptr := types.NewPointer(elem)
	dys := t.shadowAt(v)
	px := t.addrAt(xs)
	n := t.Emit(ir.OpLen, intType, px)
	at := func(k *ir.Value) *ir.Value {
		i := t.Add(n, k)
		return t.Emit(ir.OpIndexAddr, ptr, dys, i)
	}
	if v.Callee.Spread {
		zs := v.Args[1]
		if t.act.Varied(zs) && hasAdjoint(elem) {
			dzs := t.shadowAt(zs)
			m := t.Emit(ir.OpLen, intType, t.addrAt(zs))
			t.forRange(m, func(k *ir.Value) {
				a := at(k)
				g := t.Emit(ir.OpLoad, elem, a)
				t.Emit(ir.OpStore, nil, a, t.Zero(elem))
				t.addInto(t.Emit(ir.OpIndexAddr, ptr, dzs, k), g)
			})
		}
	} else {
		for j, a := range v.Args[1:] {
			t.storeAdjoint(at(t.F.Int(int64(j))), a)
		}
	}
	if !t.hasShadow(xs) {
		return
	}
	grew := t.Emit(ir.OpBinary, boolType, t.Emit(ir.OpCap, intType, t.addrAt(v)), t.Emit(ir.OpCap, intType, px))
	grew.Tok = token.NEQ
	then, done := t.F.NewBlock("grew"), t.F.NewBlock("grew.done")
	t.Cur.If(grew, then, done)
	t.Cur = then
	dxs := t.shadowAt(xs)
	t.forRange(n, func(k *ir.Value) {
		g := t.Emit(ir.OpLoad, elem, t.Emit(ir.OpIndexAddr, ptr, dys, k))
		t.addInto(t.Emit(ir.OpIndexAddr, ptr, dxs, k), g)
	})
	t.Cur.Jump(done)
	t.Cur = done
}

// callAdjoint emits the reverse of a call of package math or of the
// builtins min and max, by the rules of package templates.
func (t *transformer) callAdjoint(v *ir.Value) {
	c := v.Callee
	var rule *templates.Rule
	var mathPkg *types.Package
	switch {
	case c.Builtin == "copy":
		t.copyAdjoint(v)
		return
	case c.Builtin == "append":
		t.appendAdjoint(v)
		return
	case c.Builtin == "clear":
		t.clearAdjoint(v)
		return
	case (c.Builtin == "min" || c.Builtin == "max") && len(v.Args) > 2:
		t.minMaxAdjoint(v)
		return
	case c.Builtin == "min" || c.Builtin == "max":
		rule, _ = templates.Lookup("", c.Builtin)
		mathPkg = types.NewPackage("math", "math")
	case isMath(v):
		rule = ssaad.CallRule(c)
		mathPkg = ssaad.MathOf(c.Func)
	default:
		t.calleeAdjoint(v)
		return
	}
	if rule == nil || rule.Kind != templates.Smooth {
		return
	}
	results, _ := callResults(v)
	e := ssaad.NewExpander(&t.Builder, 0, mathPkg)
	e.UseRule(rule)
	env := map[string]*ssaad.Series{}
	var args []*ssaad.Series
	for j, a := range v.Args {
		if ruleUsesParam(rule, j) {
			args = append(args, e.Known([]*ir.Value{t.r(a)}))
		} else {
			args = append(args, nil)
		}
	}
	if c.Func != nil {
		args = ssaad.GroupVariadic(c, args)
	}
	for j, p := range rule.Params {
		if args[j] != nil {
			env[p] = args[j]
		}
	}
	for i, r := range rule.Results {
		if results[i] != nil && ruleUsesResult(rule, i) {
			env[r] = e.Known([]*ir.Value{t.r(results[i])})
		}
	}
	for i := range rule.Results {
		res := results[i]
		if res == nil || !isFloat(res.Type) || !t.act.Varied(res) {
			continue
		}
		g := t.take(res)
		if ssaad.IsZero(g) {
			continue
		}
		if rule.Adjoint != nil {
			// Linear maps: ā += Adjoint[j] with r̄ = g.
			genv := maps.Clone(env)
			genv[rule.Results[i]+"Bar"] = e.Known([]*ir.Value{g})
			for j, src := range rule.Adjoint {
				// The arguments of parameter j and the names their map
				// reads: one, or for a variadic parameter of floats or
				// tensors (Concat's ts) each with its index i.
				type target struct {
					a   *ir.Value
					env map[string]*ssaad.Series
				}
				var targets []target
				switch {
				case j < len(v.Args) && !(j < len(args) && args[j] != nil && args[j].Tail != nil) && ssaad.IsFloatSlice(v.Args[j].Type):
					// A slice of floats or tensors: a parameter of slice
					// type (FromFloat64s's data), or one passed with "..."
					// (Concat(axis, parts...)). Its adjoint goes into the
					// slice's shadow.
					if src == "0" || !t.act.Varied(v.Args[j]) || !t.hasShadow(v.Args[j]) {
						continue
					}
					if src == "" {
						t.errorf(v.Pos, c.String(), "%s is not differentiable in its argument %s", ssaad.RuleName(c), rule.Params[j])
						return
					}
					if !t.sliceAdjoint(v, rule, j, src, genv, e, mathPkg) {
						return
					}
					continue
				case j < len(args) && args[j] != nil && args[j].Tail != nil:
					for el := range args[j].Tail {
						ienv := maps.Clone(genv)
						ienv["i"] = e.Known([]*ir.Value{t.F.Int(int64(el))})
						targets = append(targets, target{v.Args[j+el], ienv})
					}
				case j < len(v.Args):
					targets = append(targets, target{v.Args[j], genv})
				}
				for _, tg := range targets {
					if src == "0" || !t.act.Varied(tg.a) {
						continue
					}
					if !isFloat(tg.a.Type) {
						if src != "" {
							t.errorf(v.Pos, c.String(), "reverse mode cannot take the adjoint of %s's argument %s, of type %s", ssaad.RuleName(c), rule.Params[j], types.TypeString(tg.a.Type, pkgName))
							return
						}
						continue
					}
					if src == "" {
						t.errorf(v.Pos, c.String(), "%s is not differentiable in its argument %s", ssaad.RuleName(c), rule.Params[j])
						return
					}
					done := t.unlessFirstTrip(tg.a)
					contrib, err := e.Eval(src, tg.env, tg.a.Type)
					if err != nil {
						t.errorf(v.Pos, c.String(), "bad rule: %v", err)
						return
					}
					t.accumulate(tg.a, contrib)
					done()
				}
			}
			continue
		}
		for j := range rule.Params {
			a := v.Args[j]
			if rule.Partials[i][j] == "" || !t.act.Varied(a) {
				continue
			}
			partial, err := e.Partial(rule, i, j, env, res.Type)
			if err != nil {
				t.errorf(v.Pos, c.String(), "bad rule: %v", err)
				return
			}
			t.accumulate(a, t.reduceTo(a, partial, g))
		}
	}
}

// sliceAdjoint emits the reverse, by the adjoint map src of the rule, of
// the call v's argument j, a slice of floats or tensors whose shadow
// receives its adjoint. A slice passed with "..." to the variadic
// parameter: a loop over its elements adds the map, with the element's
// index bound to i, into the shadow's elements (a fresh expander
// evaluates the map in the loop, so that nothing computed there is used
// after it). A parameter of slice type: the map itself adds into the
// shadow, bound to the parameter's name with the suffix Bar
// (AccumulateFloat64s(dataBar, rBar)). It reports false after an error.
func (t *transformer) sliceAdjoint(v *ir.Value, rule *templates.Rule, j int, src string, env map[string]*ssaad.Series, e *ssaad.Expander, mathPkg *types.Package) bool {
	a := v.Args[j]
	if !v.Callee.Spread || j != len(rule.Params)-1 {
		senv := maps.Clone(env)
		senv[rule.Params[j]+"Bar"] = e.Known([]*ir.Value{t.shadowAt(a)})
		if _, err := e.Eval(src, senv, a.Type); err != nil {
			t.errorf(v.Pos, v.Callee.String(), "bad rule: %v", err)
			return false
		}
		return true
	}
	elem := a.Type.Underlying().(*types.Slice).Elem()
	ptr := types.NewPointer(elem)
	xs, dxs := t.addrAt(a), t.shadowAt(a)
	ok := true
	t.forRange(t.Emit(ir.OpLen, intType, xs), func(k *ir.Value) {
		le := ssaad.NewExpander(&t.Builder, 0, mathPkg)
		ienv := map[string]*ssaad.Series{"i": le.Known([]*ir.Value{k})}
		for name, s := range env {
			if name != "i" {
				x, err := s.At(0)
				if err != nil {
					t.errorf(v.Pos, v.Callee.String(), "bad rule: %v", err)
					ok = false
					return
				}
				ienv[name] = le.Known([]*ir.Value{x})
			}
		}
		contrib, err := le.Eval(src, ienv, elem)
		if err != nil {
			t.errorf(v.Pos, v.Callee.String(), "bad rule: %v", err)
			ok = false
			return
		}
		t.addInto(t.Emit(ir.OpIndexAddr, ptr, dxs, k), contrib)
	})
	return ok
}

// reduceTo returns the adjoint contribution partial·g to argument a of an
// elementwise call: for a tensor a, summed back over the axes a was
// broadcast along (tensorops.SumLike); for a float a of a call with a
// tensor result, summed over all elements (tensorops.Dot).
func (t *transformer) reduceTo(a, partial, g *ir.Value) *ir.Value {
	prod := t.Mul(partial, g)
	switch {
	case !ir.IsTensor(prod.Type):
		return prod
	case ir.IsTensor(a.Type):
		return t.TensorCall("SumLike", prod, t.r(a))
	case ir.IsTensor(partial.Type) && !ssaad.IsOne(g):
		return t.TensorCall("Dot", partial, g)
	}
	return t.TensorCall("SumAll", prod)
}

// calleeAdjoint emits the reverse of a call of a function with one float
// result: a call of its seeded VJP, with the call's arguments and the
// adjoint of its result as seed, whose partials go to the adjoints of the
// scalar arguments (the VJP accumulates into the shadows itself).
func (t *transformer) calleeAdjoint(v *ir.Value) {
	if t.splitCalls[v] {
		t.splitAdjoint(v)
		return
	}
	callee := v.Callee.Func
	// The adjoints of the call's results are the seeds of the VJP.
	var seeds []*ir.Value
	nonzero := false
	results, typs := callResults(v)
	for i, typ := range typs {
		if typ == nil || !hasAdjoint(typ) && !shadowResult(typ) {
			continue
		}
		g := t.resultSeed(v, results[i], i, typ)
		nonzero = nonzero || !ssaad.IsZero(g)
		seeds = append(seeds, g)
	}
	void := len(seeds) == 0
	// Restore the memory the callee read, as it was at the call, in the
	// reverse order of the saves (the last call of a checkpointed step
	// finds it so: see revolve.go).
	if !t.lastRevolveCall(v) {
		t.restoreArgs(v)
	}
	if !void && !nonzero && !t.writesVaried(v) {
		return // nothing flows back through it
	}
	// The arguments of a variadic parameter listed one by one (package
	// frontend) go to the callee's VJP as one slice, as it takes them.
	fixed, elems := variadicElems(v)
	// Arguments that are one slice or pointer (mulTo(tmp, tmp, x)) call
	// the callee's specialization for them, whose body computes what the
	// call does (see frontend's alias.go).
	same, callArgs := sameArgs(fixed), fixed
	if same != nil {
		ae, ok := t.env.(ssaad.AliasEnv)
		if !ok {
			t.errorf(v.Pos, "call of "+callee.Name(), "arguments that share memory")
			return
		}
		callee = ae.Aliased(callee, same)
		callArgs = nil
		for i, a := range v.Args {
			if same[i] == i {
				callArgs = append(callArgs, a)
			}
		}
	}
	active := make([]bool, len(callArgs))
	for i, a := range callArgs {
		active[i] = t.act.Varied(a) && (hasAdjoint(a.Type) || handsMemory(a.Type))
	}
	elemsActive := false
	if elems != nil {
		for _, a := range elems.args {
			elemsActive = elemsActive || t.act.Varied(a) && hasAdjoint(a.Type)
		}
		active = append(active, elemsActive)
	}
	df, err := t.env.Derivative(CalleeMode, callee, active, v.Pos)
	if err != nil {
		t.errorf(v.Pos, "call of "+callee.Name(), "%v", err)
		return
	}
	var args []*ir.Value
	var scalars []*ir.Value
	type mixedArg struct{ a, tmp *ir.Value }
	var mixed []mixedArg
	for i, a := range callArgs {
		if ssaad.IsPointerLike(a.Type) {
			args = append(args, t.addrAt(a))
			if active[i] {
				args = append(args, t.shadowAt(a))
			}
			continue
		}
		args = append(args, t.r(a))
		switch {
		case !active[i]:
		case mixedParam(a.Type):
			// A struct holding slices by value: the callee takes a
			// pointer to its shadow, whose float fields start at zero
			// and receive their partials.
			tmp := t.Emit(ir.OpAlloc, types.NewPointer(a.Type))
			if a.Name != "" {
				tmp.Name = ssaad.AdjointName(a.Name)
			}
			t.copyMemoryLeaves(tmp, t.shadowAt(a))
			args = append(args, tmp)
			mixed = append(mixed, mixedArg{a, tmp})
		default:
			scalars = append(scalars, a)
		}
	}
	var elemShadow *ir.Value
	if elems != nil {
		vals := make([]*ir.Value, len(elems.args))
		for i, a := range elems.args {
			vals[i] = t.r(a)
		}
		args = append(args, t.SliceOf(elems.typ, vals))
		if elemsActive {
			elemShadow = t.Emit(ir.OpMakeSlice, elems.typ, t.F.Int(int64(len(vals))), nil)
			args = append(args, elemShadow)
		}
	}
	args = append(args, seeds...)
	t.callPartials(v, &ir.Callee{Derived: df}, df.Sig.Results(), args, scalars)
	for _, m := range mixed {
		t.accumulate(m.a, t.Emit(ir.OpLoad, m.a.Type, m.tmp))
	}
	if elemShadow != nil {
		// The adjoints of the listed arguments, from the slice's shadow.
		elem := elems.typ.Underlying().(*types.Slice).Elem()
		for i, a := range elems.args {
			if t.act.Varied(a) && hasAdjoint(a.Type) {
				at := t.Emit(ir.OpIndexAddr, types.NewPointer(elem), elemShadow, t.F.Int(int64(i)))
				t.accumulate(a, t.Emit(ir.OpLoad, elem, at))
			}
		}
	}
}

// varargs are the arguments of a call that its callee's variadic
// parameter, of slice type typ, receives one by one.
type varargs struct {
	typ  types.Type
	args []*ir.Value
}

// callResults returns, per result of call v, the value that stands for
// it (v itself, or its extract; nil for an unused one) and its type.
func callResults(v *ir.Value) ([]*ir.Value, []types.Type) {
	tu, ok := v.Type.(*types.Tuple)
	if !ok {
		return []*ir.Value{v}, []types.Type{v.Type}
	}
	results := make([]*ir.Value, tu.Len())
	for _, w := range v.Block.Instrs {
		if w.Op == ir.OpExtract && w.Args[0] == v {
			results[w.Index] = w
		}
	}
	var typs []types.Type
	for x := range tu.Variables() {
		typs = append(typs, x.Type())
	}
	return results, typs
}

// callPartials emits the reverse of call v by a call of callee with args,
// whose results res are the partials of the scalar arguments scalars (the
// callee variant, or a split call's continuation), and accumulates them.
func (t *transformer) callPartials(v *ir.Value, callee *ir.Callee, res *types.Tuple, args, scalars []*ir.Value) {
	var typ types.Type = res
	switch res.Len() {
	case 0:
		typ = nil
	case 1:
		typ = res.At(0).Type()
	}
	call := t.Emit(ir.OpCall, typ, args...)
	call.Pos = v.Pos
	call.Callee = callee
	for k, a := range scalars {
		e := call
		if res.Len() > 1 {
			e = t.Emit(ir.OpExtract, res.At(k).Type(), call)
			e.Index = k
		}
		t.accumulate(a, e)
	}
}

// variadicElems splits the arguments of call v of a variadic function
// into those of the fixed parameters (the receiver first) and those of
// the variadic one, when they are listed one by one (nil when the call
// passes a slice with "...", or the callee is not variadic).
func variadicElems(v *ir.Value) ([]*ir.Value, *varargs) {
	sig := v.Callee.Func.Type().(*types.Signature)
	if !sig.Variadic() || v.Callee.Spread {
		return v.Args, nil
	}
	n, st := ssaad.VariadicIndex(sig)
	return v.Args[:n:n], &varargs{typ: st, args: v.Args[n:]}
}

// copyMemoryLeaves stores into the struct or array at addr the slices and
// pointers of value x, of the same type, leaving its floats as they are.
func (t *transformer) copyMemoryLeaves(addr, x *ir.Value) {
	switch u := x.Type.Underlying().(type) {
	case *types.Struct:
		for k := range u.NumFields() {
			ft := u.Field(k).Type()
			if !ssaad.RefersToMemory(ft) {
				continue
			}
			fa := t.Emit(ir.OpFieldAddr, types.NewPointer(ft), addr)
			fa.Index = k
			fx := t.Emit(ir.OpField, ft, x)
			fx.Index = k
			if ssaad.IsPointerLike(ft) {
				t.Emit(ir.OpStore, nil, fa, fx)
			} else {
				t.copyMemoryLeaves(fa, fx)
			}
		}
	case *types.Array:
		et := u.Elem()
		for k := range u.Len() {
			idx := t.F.Int(k)
			ea := t.Emit(ir.OpIndexAddr, types.NewPointer(et), addr, idx)
			ex := t.Emit(ir.OpIndex, et, x, idx)
			if ssaad.IsPointerLike(et) {
				t.Emit(ir.OpStore, nil, ea, ex)
			} else {
				t.copyMemoryLeaves(ea, ex)
			}
		}
	}
}

// writesVaried reports whether call v may write varied memory through one
// of its arguments: its reverse then moves the adjoints of what it wrote.
func (t *transformer) writesVaried(v *ir.Value) bool {
	for i, a := range v.Args {
		if handsMemory(a.Type) && t.act.Varied(a) && t.callWrites(v, i) {
			return true
		}
	}
	return false
}

// sameArgs returns, when two of args are the same slice or pointer, for
// each argument the position of the first argument it is the same as (its
// own position for the others); nil when none are.
func sameArgs(args []*ir.Value) []int {
	var same []int
	for i, a := range args {
		if !ssaad.IsPointerLike(a.Type) {
			continue
		}
		for j := range i {
			if args[j] == a {
				if same == nil {
					same = make([]int, len(args))
					for k := range same {
						same[k] = k
					}
				}
				same[i] = same[j]
				break
			}
		}
	}
	return same
}

// copyAdjoint emits the reverse of n := copy(dst, src): the adjoints of the
// n elements copied move from dst's shadow to src's (dsrc[k] += ddst[k];
// ddst[k] = 0). Overlapping dst and src are not supported.
func (t *transformer) copyAdjoint(v *ir.Value) {
	dst, src := v.Args[0], v.Args[1]
	if !t.act.Varied(dst) {
		return
	}
	n := t.r(v)
	dd := t.shadowAt(dst)
	var ds *ir.Value
	if t.act.Varied(src) {
		ds = t.shadowAt(src)
	}
	elem := dd.Type.Underlying().(*types.Slice).Elem()
	ptr := types.NewPointer(elem)
	t.forRange(n, func(k *ir.Value) {
		a := t.Emit(ir.OpIndexAddr, ptr, dd, k)
		g := t.Emit(ir.OpLoad, elem, a)
		t.Emit(ir.OpStore, nil, a, t.Zero(elem))
		if ds != nil {
			b := t.Emit(ir.OpIndexAddr, ptr, ds, k)
			t.Emit(ir.OpStore, nil, b, t.Add(t.Emit(ir.OpLoad, elem, b), g))
		}
	})
}

// clearAdjoint emits the reverse of clear(dst): what it overwrites with
// zeros affects nothing after it, so the adjoints of dst's elements at the
// call are zero: clear(d̄st). (The elements hold no memory; see check.)
func (t *transformer) clearAdjoint(v *ir.Value) {
	dst := v.Args[0]
	if !t.act.Varied(dst) {
		return
	}
	c := t.Emit(ir.OpCall, nil, t.shadowAt(dst))
	c.Callee = &ir.Callee{Builtin: "clear"}
}

// forRange emits `for k := 0; k < n; k++ { body(k) }` from the current
// block; code after it goes in the block it leaves t.Cur at.
func (t *transformer) forRange(n *ir.Value, body func(k *ir.Value)) {
	head := t.F.NewBlock("loop")
	loopBody := t.F.NewBlock("loop.body")
	done := t.F.NewBlock("loop.done")
	t.Cur.Jump(head)
	t.Cur = head
	k := t.Emit(ir.OpPhi, intType)
	k.Name = "k"
	cond := t.Emit(ir.OpBinary, boolType, k, n)
	cond.Tok = token.LSS
	head.If(cond, loopBody, done)
	t.Cur = loopBody
	body(k)
	next := t.Emit(ir.OpBinary, intType, k, t.F.Int(1))
	next.Tok = token.ADD
	t.Cur.Jump(head)
	k.Args = []*ir.Value{t.F.Int(0), next}
	t.Cur = done
}

// minMaxAdjoint emits the reverse of min or max of more than two values:
// the adjoint goes to the first argument equal to the result, the
// convention of the two-argument rule (ties to the first).
func (t *transformer) minMaxAdjoint(v *ir.Value) {
	g := t.take(v)
	if ssaad.IsZero(g) {
		return
	}
	res := t.r(v)
	zero := t.Zero(v.Type)
	var taken *ir.Value
	for _, a := range v.Args {
		eq := t.Emit(ir.OpBinary, boolType, t.r(a), res)
		eq.Tok = token.EQL
		pick := eq
		if taken != nil {
			notTaken := t.Emit(ir.OpUnary, boolType, taken)
			notTaken.Tok = token.NOT
			pick = t.Emit(ir.OpBinary, boolType, eq, notTaken)
			pick.Tok = token.LAND
			or := t.Emit(ir.OpBinary, boolType, taken, eq)
			or.Tok = token.LOR
			taken = or
		} else {
			taken = eq
		}
		if t.act.Varied(a) {
			t.accumulate(a, t.Emit(ir.OpSelect, v.Type, pick, g, zero))
		}
	}
}

// rule returns the rule of a call of package math or of the builtins min
// and max (with two arguments), or nil.
func ruleOf(v *ir.Value) *templates.Rule {
	c := v.Callee
	switch {
	case c == nil:
		return nil
	case (c.Builtin == "min" || c.Builtin == "max") && len(v.Args) == 2:
		r, _ := templates.Lookup("", c.Builtin)
		return r
	case isMath(v):
		return ssaad.CallRule(c)
	}
	return nil
}

// resultUsed reports whether the reverse of call v reads its result i:
// when a partial of its rule mentions it (d/dx exp x = r does, d/dx sin x
// = cos x does not), and for calls without a rule.
func resultUsed(v *ir.Value, i int) bool {
	r := ruleOf(v)
	if r == nil || r.Kind != templates.Smooth {
		return true
	}
	return ruleUsesResult(r, i)
}

// argUsed reports whether the reverse of call v reads its argument j:
// when a partial of its rule mentions the parameter, and for calls
// without a rule.
func argUsed(v *ir.Value, j int) bool {
	r := ruleOf(v)
	if r == nil || r.Kind != templates.Smooth {
		return true
	}
	return ruleUsesParam(r, j)
}

// ruleUsesParam reports whether the reverse of a call by rule r reads its
// parameter j: when a partial or an adjoint map mentions it, and for
// tensors of elementwise rules (their adjoints are summed back to their
// shapes).
func ruleUsesParam(r *templates.Rule, j int) bool {
	if j >= len(r.Params) || r.Pkg == templates.TensorPkg && r.Adjoint == nil {
		return true
	}
	return slices.ContainsFunc(reverseExprs(r), func(e string) bool { return mentions(e, r.Params[j]) })
}

// ruleUsesResult reports whether the reverse of a call by rule r reads
// its result i: when a partial or an adjoint map mentions it.
func ruleUsesResult(r *templates.Rule, i int) bool {
	if i >= len(r.Results) {
		return true
	}
	return slices.ContainsFunc(reverseExprs(r), func(e string) bool { return mentions(e, r.Results[i]) })
}

// reverseExprs returns the expressions of r that reverse mode lowers: its
// partials, or its adjoint maps.
func reverseExprs(r *templates.Rule) []string {
	if r.Adjoint != nil {
		return r.Adjoint
	}
	return slices.Concat(r.Partials...)
}

// mentions reports whether expression e has the identifier name.
func mentions(e, name string) bool {
	isID := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
	}
	for i := 0; i < len(e); {
		if !isID(e[i]) {
			i++
			continue
		}
		j := i
		for j < len(e) && isID(e[j]) {
			j++
		}
		if e[i:j] == name {
			return true
		}
		i = j
	}
	return false
}

// seedResults gives the results their adjoints: the seeds (1 for
// //gad:grad).
func (t *transformer) seedResults() {
	for i, res := range t.exit.Terminator().Args {
		switch {
		case !t.seeded:
			t.accumulate(res, t.F.ConstValue(res.Type, constant.MakeFloat64(1)))
		case t.seeds[i] != nil && sliceResult(res.Type):
			// dres[k] += seed[k] for the seed's elements.
			seed := t.seeds[i]
			elem := res.Type.Underlying().(*types.Slice).Elem()
			ptr := types.NewPointer(elem)
			if !t.hasShadow(res) {
				break
			}
			d := t.shadowAt(res)
			t.forRange(t.Emit(ir.OpLen, intType, seed), func(k *ir.Value) {
				t.addInto(t.Emit(ir.OpIndexAddr, ptr, d, k), t.Emit(ir.OpLoad, elem, t.Emit(ir.OpIndexAddr, ptr, seed, k)))
			})
		case t.seeds[i] != nil && memResult(res.Type):
			if t.hasShadow(res) {
				t.addShadow(t.shadowAt(res), t.seeds[i])
			}
		case t.seeds[i] != nil:
			t.accumulate(res, t.seeds[i])
		}
	}
}

// resultSeed returns, in the reverse of call v, the seed of its result k
// (r, its extract, or nil when unused) for the callee's reverse: the
// adjoint of a float or aggregate, taken; for a slice, its shadow when the
// callee allocates it, nil when it is an argument, whose shadow the callee
// accumulates into already.
func (t *transformer) resultSeed(v, r *ir.Value, k int, typ types.Type) *ir.Value {
	if !shadowResult(typ) {
		if r == nil {
			return t.Zero(typ)
		}
		return t.take(r)
	}
	if r == nil || !t.hasShadow(r) || t.resultOrigin(v, k) != ssaad.OriginFresh {
		return t.F.ConstValue(typ, nil)
	}
	return t.shadowAt(r)
}

// resultOrigin returns the origin of result k of call v (see
// ssaad.ResultOrigins).
func (t *transformer) resultOrigin(v *ir.Value, k int) int {
	oe, ok := t.env.(ssaad.OriginsEnv)
	if !ok || v.Callee.Func == nil {
		return ssaad.OriginUnknown
	}
	os := oe.Origins(v.Callee.Func)
	if k >= len(os) {
		return ssaad.OriginUnknown
	}
	return os[k]
}
