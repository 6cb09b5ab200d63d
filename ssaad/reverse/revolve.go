package reverse

// This file defines binomial checkpointing of loops (//gad:grad
// checkpoint=C). A loop whose steps are calls reversed jointly,
//
//	for t := 0; t < n; t++ {
//		s.step(dt)
//	}
//
// otherwise records, before each call, a copy of the memory the call
// reads and later steps overwrite (snapshot.go): memory grows with n.
// Checkpointed, the forward sweep copies that state only before the steps
// a schedule picks (package revolve: at most C copies kept at once), and
// the reverse of step t restores the nearest copy before it, runs the
// steps from there up to t again, copying the states the schedule asks
// for, and then reverses step t:
//
//	schedule := revolve.New(trips, C)
//	for t := 0; t < n; t++ {
//		if schedule.Take(t) { copy the state }
//		s.step(dt)
//	}
//	…
//	for t := n - 1; t >= 0; t-- {
//		from := schedule.Back(t)
//		restore the state copied before step from
//		if from < t {
//			copy it again
//			for u := from; u < t; u++ {
//				if schedule.Take(u) { copy the state }
//				s.step(dt)
//			}
//		}
//		the calls of step t but the last, recording as the forward sweep does
//		the reverse of step t
//	}
//
// The last call of a step needs no copy of its own: the memory holds what
// it read when its reverse runs. This is Griewank's treeverse on the
// loop's steps (Griewank & Walther, Evaluating Derivatives, ch. 12), as
// Tapenade's binomial checkpointing of loops ($AD BINOMIAL-CKP).
//
// The conditions: a loop reversed by its index (counted.go), counting by
// ±1 to a bound known before it, not nested, entered on every path to the
// return; its body is one block of calls reversed jointly, whose slices
// and pointers come from before the loop, and arithmetic: on the index
// (t·dt, sin(ω·t)), the calls' results, memory the function never writes
// and the values the header's φs carry from step to step (time += dt,
// e += s.step()), computed again for the steps run again and for the
// reverse of each step instead of recorded. The state copied is the
// memory behind the calls' arguments that needsSnapshot says the reverse
// must restore, and the carried values.

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// revolveLoop is a loop checkpointed by a binomial schedule.
type revolveLoop struct {
	c     *countedLoop
	body  *ir.Block
	calls []*ir.Value // the body's calls, in order
	// state lists the arguments whose memory a copy of the state holds,
	// each once, in the order of the calls; carried, the φs of the
	// header besides the index (t += dt, e += s.step()), whose values a
	// copy holds too, and vars the variables of the reverse sweep that
	// hold them for the step being run again or reversed.
	state   []*ir.Value
	carried []*ir.Value
	vars    map[*ir.Value]*ir.Value
	// sched is the *revolve.Schedule, made before the loop in the
	// forward sweep; copies is min(trips, C), the most copies kept.
	sched, copies *ir.Value
	// tapeTypes are the types of the tapes a copy goes on, lens their
	// lengths before the loop.
	tapeTypes []types.Type
	lens      []*ir.Value
}

// revolvePkg stands for package revolve, which generated code imports.
var revolvePkg = types.NewPackage("github.com/gadgen/gadgen/revolve", "revolve")

// scheduleType is *revolve.Schedule.
var scheduleType = types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, revolvePkg, "Schedule", nil), types.NewStruct(nil, nil), nil))

// revolveFunc returns revolve.New, or the method name of *Schedule, with
// int parameters and the result type result.
func revolveFunc(name string, nparams int, result types.Type) *types.Func {
	var vars []*types.Var
	for i := range nparams {
		vars = append(vars, types.NewParam(token.NoPos, revolvePkg, string(rune('a'+i)), intType))
	}
	results := types.NewTuple(types.NewParam(token.NoPos, revolvePkg, "", result))
	var recv *types.Var
	if name != "New" {
		recv = types.NewParam(token.NoPos, revolvePkg, "s", scheduleType)
	}
	return types.NewFunc(token.NoPos, revolvePkg, name, types.NewSignatureType(recv, nil, nil, types.NewTuple(vars...), results, false))
}

// findRevolve returns the loops checkpoint=C checkpoints, warning when
// the option is given and no loop can be.
func (t *transformer) findRevolve() map[*ir.Block]*revolveLoop {
	if t.req.Options.Checkpoint == 0 || t.callee {
		return nil
	}
	out := map[*ir.Block]*revolveLoop{}
	why := "it has no loop that counts to a bound"
	outer := false // why is about a loop nested in no other
	for _, c := range t.countedLoops() {
		l, reason := t.revolvable(c)
		switch {
		case l != nil:
			out[c.header] = l
		case c.exit == nil && !outer:
			why, outer = reason, true
		case !outer:
			why = reason
		}
	}
	if t.req.Dump != nil {
		var sb strings.Builder
		for _, c := range t.countedLoops() {
			if l := out[c.header]; l != nil {
				var state []string
				for _, a := range l.state {
					state = append(state, a.Ref())
				}
				fmt.Fprintf(&sb, "loop b%d (%s): at most %d copies of the memory of %s; %d calls a step\n", c.header.Index, c.header.Comment, t.req.Options.Checkpoint, strings.Join(state, ", "), len(l.calls))
			}
		}
		if len(out) == 0 {
			fmt.Fprintf(&sb, "no loop: %s\n", why)
		}
		t.req.Dump("checkpoint", sb.String())
	}
	if len(out) == 0 {
		p := t.env.Position(t.req.Pos)
		t.warnings = append(t.warnings, diag.Diagnostic{Pos: p, Warning: true,
			Msg: fmt.Sprintf("checkpoint=%d: no loop of %s is checkpointed (%s); every step is recorded", t.req.Options.Checkpoint, t.req.Target.Name(), why)})
		return nil
	}
	return out
}

// revolvable returns c as a checkpointed loop, or nil and why not.
func (t *transformer) revolvable(c *countedLoop) (*revolveLoop, string) {
	h := c.header
	body := h.Preds[c.latch]
	switch {
	case c.exit != nil:
		return nil, "a loop nested in another or in a branch"
	case len(c.breaks) > 0:
		return nil, "a loop that leaves early (break, return)"
	case len(c.aux) > 0:
		return nil, "a loop with induction variables besides its index"
	case !c.down || !c.closed || t.inFused(h):
		return nil, "a loop that does not count by 1 to a bound known before it"
	case !t.hoistable(c.bound, h):
		return nil, "a loop whose bound is computed in it"
	case len(body.Preds) != 1 || body.Preds[0] != h:
		return nil, "a loop whose step is not one block of calls (it branches or loops): write the step as a function or method"
	case len(t.needs[h]) > 0 || len(t.iterNeeds[h]) > 0:
		return nil, "a loop whose step records values besides the calls' memory"
	}
	for _, v := range body.Instrs {
		if t.splitCalls[v] {
			return nil, "a loop whose step calls a function that stores slices or pointers into memory its caller reaches, reversed in two halves (split reversal)"
		}
	}
	for _, w := range t.needs[body] {
		if t.pairedShadow(w) || !t.fromIndex(c, body, w) {
			return nil, "a loop whose step records values besides the calls' memory and arithmetic on its index"
		}
	}
	l := &revolveLoop{c: c, body: body, vars: map[*ir.Value]*ir.Value{}}
	for _, v := range h.Instrs {
		switch {
		case v == c.phi:
		case v.Op == ir.OpPhi && carriable(v):
			l.carried = append(l.carried, v)
		case v.Op == ir.OpPhi:
			return nil, "a loop that carries slices, pointers or structs from step to step besides its index: keep them in the state the steps write"
		case v.Op.HasEffect() && !v.Op.IsTerminator() || t.act.Varied(v):
			return nil, "a loop whose test computes more than the index's bound"
		}
	}
	seen := map[*ir.Value]bool{}
	for _, v := range body.Instrs {
		switch {
		case v.Op.IsTerminator():
		case v.Op == ir.OpCall && t.reversedCall(v):
			for i, a := range v.Args {
				if ssaad.IsPointerLike(a.Type) && (a.Block == h || a.Block == body) && (t.callWrites(v, i) || t.needsSnapshot(v, i) || !t.fromIndex(c, body, a)) {
					// A window that moves with the index (seq[t*b:(t+1)*b])
					// is computed again, when the call only reads it and
					// nothing writes it.
					return nil, "a step whose calls write through slices or pointers computed in the loop"
				}
				if t.shadowHeadersSaved(v, i) || ssaad.IsPointerLike(a.Type) && t.restored[t.act.Class(a)] {
					return nil, "a step that replaces slices or pointers its reverse follows"
				}
				if t.needsSnapshot(v, i) && !seen[a] {
					seen[a] = true
					l.state = append(l.state, a)
				}
			}
			l.calls = append(l.calls, v)
		case t.indexArith(v) || v.Op == ir.OpExtract:
			// Arithmetic on the index and the carried values (the
			// increment, t·dt, e + r), and the calls' results, computed
			// again for each step run again.
		default:
			return nil, "a loop whose body computes more than calls and arithmetic on its index: write the step as a function or method"
		}
	}
	if len(l.calls) == 0 {
		return nil, "a loop whose body is not one block of calls"
	}
	for _, v := range body.Instrs {
		if v.Op == ir.OpExtract && !slices.Contains(l.calls, v.Args[0]) {
			return nil, "a loop whose body computes more than calls and arithmetic on its index: write the step as a function or method"
		}
	}
	return l, ""
}

// carriable reports whether a value of the type of φ v can be carried
// from step to step outside the state: it refers to no memory.
func carriable(v *ir.Value) bool {
	return !ssaad.RefersToMemory(v.Type)
}

// indexArith reports whether v is what a step may compute from its index
// and values from before the loop, the same each time it is computed
// again: arithmetic, windows of slices (seq[t*b:(t+1)*b]), calls of
// package math, and reads of memory the function never writes
// (s.step(p.dt), s.step(x[5])).
func (t *transformer) indexArith(v *ir.Value) bool {
	switch v.Op {
	case ir.OpBinary, ir.OpUnary, ir.OpConvert, ir.OpField, ir.OpIndex, ir.OpFieldAddr, ir.OpIndexAddr, ir.OpLen, ir.OpCap, ir.OpSlice:
		return true
	case ir.OpLoad:
		return !t.classWritten[t.act.Class(v.Args[0])]
	case ir.OpCall:
		return isMath(v)
	}
	return false
}

// fromIndex reports whether the step at body computes w from its index
// and values available in the reverse sweep by arithmetic (indexArith).
func (t *transformer) fromIndex(c *countedLoop, body *ir.Block, w *ir.Value) bool {
	switch {
	case w == nil:
		return true // an absent operand (x[i:])
	case w == c.phi || w.Op == ir.OpPhi && w.Block == c.header && carriable(w):
		return true
	case w.Block != body:
		return w.Block != c.header && t.available(w)
	case !t.indexArith(w):
		return false
	}
	for _, a := range w.Args {
		if !t.fromIndex(c, body, a) {
			return false
		}
	}
	return true
}

// atIndex emits, in the reverse sweep, primal value x as the step at
// index idx of loop l computes it: the body's arithmetic again, on idx
// for the index; values from before the loop as they are.
func (t *transformer) atIndex(l *revolveLoop, x, idx *ir.Value, memo map[*ir.Value]*ir.Value) *ir.Value {
	if y, ok := memo[x]; ok {
		return y
	}
	switch {
	case x == l.c.phi:
		return idx
	case l.vars[x] != nil:
		// A carried value: as the variable holds it for this step.
		y := t.Emit(ir.OpLoad, x.Type, l.vars[x])
		memo[x] = y
		return y
	case x.Block != l.body && x.Block != l.c.header:
		return t.addrAt(x)
	}
	args := make([]*ir.Value, len(x.Args))
	for i, a := range x.Args {
		if a != nil {
			args[i] = t.atIndex(l, a, idx, memo)
		}
	}
	y := t.Same(x, args...)
	y.Name = x.Name
	if x.Callee != nil {
		c := *x.Callee
		y.Callee = &c
	}
	memo[x] = y
	return y
}

// revolveOf returns the checkpointed loop whose body holds call v, or nil.
func (t *transformer) revolveOf(v *ir.Value) *revolveLoop {
	return t.revolveBody(v.Block)
}

// revolveBody returns the checkpointed loop whose body is b, or nil.
func (t *transformer) revolveBody(b *ir.Block) *revolveLoop {
	if b == nil {
		return nil
	}
	for _, l := range t.revolve {
		if b == l.body {
			return l
		}
	}
	return nil
}

// lastRevolveCall reports whether v is the last call of a checkpointed
// loop's step, whose reverse finds its memory as the call read it.
func (t *transformer) lastRevolveCall(v *ir.Value) bool {
	l := t.revolveOf(v)
	return l != nil && v == l.calls[len(l.calls)-1]
}

// startRevolve emits, at the end of the forward copy of the loop's
// preheader, the schedule for its trips.
func (t *transformer) startRevolve(l *revolveLoop) {
	// The last index is bound+adj: trips = last − init + 1 counting up,
	// init − last + 1 counting down.
	c := l.c
	k := c.adj + 1
	if constant.Sign(c.step.Const) < 0 {
		k = 1 - c.adj
	}
	bound := t.hoist(c.bound, c.header.Preds[c.pre], c.header)
	trips := t.intOp(token.ADD, t.trip(c, bound, t.v(c.init)), t.F.Int(k))
	trips = t.Emit(ir.OpCall, intType, trips, t.F.Int(0))
	trips.Callee = &ir.Callee{Builtin: "max"}
	trips.Name = "trips"
	budget := t.F.Int(int64(t.req.Options.Checkpoint))
	l.copies = t.Emit(ir.OpCall, intType, trips, budget)
	l.copies.Callee = &ir.Callee{Builtin: "min"}
	l.copies.Name = "copies"
	l.sched = t.Emit(ir.OpCall, scheduleType, trips, budget)
	l.sched.Callee = &ir.Callee{Func: revolveFunc("New", 2, scheduleType)}
	l.sched.Name = "schedule"
	// The tapes' lengths before the loop, for the size of one copy.
	for _, a := range l.state {
		l.tapeTypes = stateTypes(a.Type, l.tapeTypes)
	}
	for _, p := range l.carried {
		l.tapeTypes = addType(l.tapeTypes, p.Type)
	}
	for _, typ := range l.tapeTypes {
		tp := t.tape(typ)
		n := t.Emit(ir.OpLen, intType, t.Emit(ir.OpLoad, tp.Type.(*types.Pointer).Elem(), tp))
		n.Name = "before"
		l.lens = append(l.lens, n)
	}
}

// trip emits the number of the trip at index i of loop c, from its first
// index init: i − init, or init − i counting down.
func (t *transformer) trip(c *countedLoop, i, init *ir.Value) *ir.Value {
	if constant.Sign(c.step.Const) < 0 {
		return t.intOp(token.SUB, init, i)
	}
	return t.intOp(token.SUB, i, init)
}

// takeState emits `if schedule.Take(trip) { copy the state; after() }`
// in the forward sweep (at is t.v) or in the reverse sweep (t.addrAt).
func (t *transformer) takeState(l *revolveLoop, trip *ir.Value, at func(*ir.Value) *ir.Value, carried func() []*ir.Value, after func()) {
	take := t.Emit(ir.OpCall, boolType, l.sched, trip)
	take.Callee = &ir.Callee{Func: revolveFunc("Take", 1, boolType)}
	then, done := t.F.NewBlock("then"), t.F.NewBlock("done")
	t.Cur.If(take, then, done)
	t.Cur = then
	t.saveState(l, at, carried())
	if after != nil {
		after()
	}
	t.Cur.Jump(done)
	t.Cur = done
}

// saveState emits the copy of the loop's state.
func (t *transformer) saveState(l *revolveLoop, at func(*ir.Value) *ir.Value, carried []*ir.Value) {
	for _, a := range l.state {
		t.saveMemory(at(a), t.tape)
	}
	for _, x := range carried {
		t.push(t.tape(x.Type), x)
	}
}

// restoreState emits the restore of the last copy of the loop's state:
// the memory, and the carried values into their variables.
func (t *transformer) restoreState(l *revolveLoop) {
	for i := len(l.carried) - 1; i >= 0; i-- {
		p := l.carried[i]
		t.popStore(l.vars[p], t.tape(p.Type))
	}
	for i := len(l.state) - 1; i >= 0; i-- {
		t.restoreMemory(t.addrAt(l.state[i]), t.tape)
	}
}

// carriedNow loads the carried values from their variables.
func (t *transformer) carriedNow(l *revolveLoop) []*ir.Value {
	var out []*ir.Value
	for _, p := range l.carried {
		out = append(out, t.Emit(ir.OpLoad, p.Type, l.vars[p]))
	}
	return out
}

// revolveForward emits, at the start of the forward copy of the loop's
// body, the copy of the state before the steps the schedule picks. The
// first copy, before trip 0, sizes the tapes for all the copies kept at
// once: appended to one by one, a tape would grow by a quarter at a time
// and allocate about five times what it holds.
func (t *transformer) revolveForward(l *revolveLoop) {
	t.detached(func() {
		trip := t.trip(l.c, t.v(l.c.phi), t.v(l.c.init))
		carried := func() []*ir.Value {
			var out []*ir.Value
			for _, p := range l.carried {
				out = append(out, t.v(p))
			}
			return out
		}
		t.takeState(l, trip, t.v, carried, func() {
			first := t.Emit(ir.OpBinary, boolType, trip, t.F.Int(0))
			first.Tok = token.EQL
			then, done := t.F.NewBlock("then"), t.F.NewBlock("done")
			t.Cur.If(first, then, done)
			t.Cur = then
			more := t.intOp(token.SUB, l.copies, t.F.Int(1))
			for i, typ := range l.tapeTypes {
				t.growLike(t.tape(typ), more, l.lens[i])
			}
			t.Cur.Jump(done)
			t.Cur = done
		})
	})
}

// addType appends typ to out unless out holds an identical type.
func addType(out []types.Type, typ types.Type) []types.Type {
	if slices.ContainsFunc(out, func(o types.Type) bool { return types.Identical(o, typ) }) {
		return out
	}
	return append(out, typ)
}

// stateTypes appends to out the types of the tapes on which saveMemory
// records memory of type typ, each once.
func stateTypes(typ types.Type, out []types.Type) []types.Type {
	add := func(et types.Type) { out = addType(out, et) }
	var inside func(types.Type)
	inside = func(typ types.Type) {
		switch u := typ.Underlying().(type) {
		case *types.Pointer, *types.Slice:
			out = stateTypes(typ, out)
		case *types.Struct:
			for i := range u.NumFields() {
				inside(u.Field(i).Type())
			}
		case *types.Array:
			inside(u.Elem())
		}
	}
	if mixedParam(typ) {
		inside(typ)
		return out
	}
	switch u := typ.Underlying().(type) {
	case *types.Pointer:
		add(u.Elem())
		if ssaad.RefersToMemory(u.Elem()) {
			inside(u.Elem())
		}
	case *types.Slice:
		add(u.Elem())
		if ssaad.RefersToMemory(u.Elem()) {
			inside(u.Elem())
		}
	}
	return out
}

// revolveBack emits, at the start of the reverse of the loop's body, the
// state before the step being reversed: restored from the schedule's
// copy, then the steps from it run again; and the calls of the step but
// the last, recording what their reverses restore.
func (t *transformer) revolveBack(l *revolveLoop) {
	c := l.c
	for _, p := range l.carried {
		if l.vars[p] == nil {
			v := t.F.NewValue(ir.OpAlloc, types.NewPointer(p.Type))
			v.Name = p.Name
			t.entry.Insert(0, v)
			l.vars[p] = v
		}
	}
	trip := t.trip(c, t.r(c.phi), t.r(c.init))
	from := t.Emit(ir.OpCall, intType, l.sched, trip)
	from.Callee = &ir.Callee{Func: revolveFunc("Back", 1, intType)}
	from.Name = "from"
	t.restoreState(l)
	again := t.Emit(ir.OpBinary, boolType, from, trip)
	again.Tok = token.LSS
	then, done := t.F.NewBlock("then"), t.F.NewBlock("done")
	t.Cur.If(again, then, done)
	t.Cur = then
	t.saveState(l, t.addrAt, t.carriedNow(l))
	t.forRange(t.intOp(token.SUB, trip, from), func(k *ir.Value) {
		u := t.intOp(token.ADD, from, k)
		t.takeState(l, u, t.addrAt, func() []*ir.Value { return t.carriedNow(l) }, nil)
		idx := t.intOp(token.ADD, t.r(c.init), u)
		if constant.Sign(c.step.Const) < 0 {
			idx = t.intOp(token.SUB, t.r(c.init), u)
		}
		memo := map[*ir.Value]*ir.Value{}
		for _, v := range l.calls {
			t.atIndex(l, v, idx, memo)
		}
		// The carried values of the next step, all computed before any
		// is stored.
		next := make([]*ir.Value, len(l.carried))
		for i, p := range l.carried {
			next[i] = t.atIndex(l, p.Args[c.latch], idx, memo)
		}
		for i, p := range l.carried {
			t.Emit(ir.OpStore, nil, l.vars[p], next[i])
		}
	})
	t.Cur.Jump(done)
	t.Cur = done
	// What the reverse of the step reads, computed from its index and
	// carried values instead of recorded by the forward sweep.
	memo := map[*ir.Value]*ir.Value{}
	for _, p := range l.carried {
		t.rvals[p] = t.atIndex(l, p, t.r(c.phi), memo)
	}
	for _, w := range t.needs[l.body] {
		t.rvals[w] = t.atIndex(l, w, t.r(c.phi), memo)
	}
	for _, v := range l.calls[:len(l.calls)-1] {
		args := make([]*ir.Value, len(v.Args))
		for i, a := range v.Args {
			args[i] = t.atIndex(l, a, t.r(c.phi), memo)
		}
		t.saveArgs(v, args)
		t.atIndex(l, v, t.r(c.phi), memo)
	}
}
