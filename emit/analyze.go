package emit

// This file defines the first analyses of a function: which values are
// live, which allocations are plain local variables, and which values are
// rendered inline inside their single user rather than held in a variable.
//
// Inlining rules. A value v with exactly one live use, in its own block
// (a use by a φ counts as a use at the end of the φ's predecessor, where
// the φ copy is emitted), is rendered inside the statement that its user
// ends up in (its "root"), provided that this does not change what the
// program does:
//
//   - Values without memory effects (arithmetic, conversions, len, field
//     and index of values, pure calls such as math.Sin) always move.
//   - A memory operation (a load, an impure call) moves to its root only if
//     no conflicting memory operation lies between its position and the
//     root's position, unless that operation ends up in the same statement
//     in an order Go guarantees. Go leaves the order of a load and a call
//     of one statement unspecified unless one is an operand of the other,
//     so such a pair never shares a statement; two calls of one statement
//     run in lexical order, which is checked after the fact (verifyOrder).
//   - Loads and stores of a local variable whose address never escapes
//     conflict only with each other, so struct and array locals read
//     naturally.
//
// One exception to "own block": len and cap of a variable move to a use in
// another block (typically a loop condition, i < len(x)), as a person
// writes them. Addresses (field and element addresses, locals, globals)
// are not values of their own: they are rendered as places at each use.
//
// Everything else (several uses, a use in another block, effects in the
// way) gets a variable.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// vkind says how a value is rendered.
type vkind uint8

const (
	kDead   vkind = iota // not emitted
	kConst               // a literal at each use
	kVar                 // held in a variable (parameters, φs, shared values)
	kInline              // rendered inside its single user
	kStmt                // a statement without a variable: store, void call, tuple call, terminator
	kAddr                // an address, rendered as a place (p, p.f, x[i], *q) at each use
)

// rootKey names the statement a value is evaluated in: the statement of
// value v (pred == stmtRoot), the copy into φ v on its predecessor edge
// pred (pred >= 0), or no statement at all for an address re-rendered at
// each of its uses (pred == rematRoot).
type rootKey struct {
	v    *ir.Value
	pred int
}

const (
	stmtRoot  = -1
	rematRoot = -2
)

// allocInfo describes a non-heap allocation: a local variable.
type allocInfo struct {
	// escapes: the address is used other than by loads, stores and
	// field/element addresses (passed to a call, sliced, stored...); the
	// variable is then addressed with &.
	escapes bool
	// param: the local is a copy of this parameter and lives in it.
	param *ir.Value
	v     *variable
}

// analyze computes liveness, memory facts and inlining decisions.
func (e *emitter) analyze() {
	e.allUses = ir.Uses(e.fn)
	for _, b := range e.cfg.RPO {
		for i, v := range b.Instrs {
			e.pos[v.ID] = i
		}
	}
	e.classifyAllocs()
	e.markLive()
	e.bindParamCopies()
	for _, b := range e.cfg.RPO {
		for _, v := range b.Instrs {
			if !e.live[v.ID] {
				continue
			}
			for _, a := range v.Args {
				if a != nil {
					e.uses[a.ID] = append(e.uses[a.ID], v)
				}
			}
		}
	}
	for _, p := range e.fn.Params {
		if len(e.uses[p.ID]) > 0 {
			e.kind[p.ID] = kVar
			e.live[p.ID] = true
		}
	}
	for _, b := range e.cfg.RPO {
		forced := map[*ir.Value]bool{}
		for {
			e.decideBlock(b, forced)
			bad := e.verifyOrder(b)
			if len(bad) == 0 {
				bad = e.tooLong(b, forced)
				if len(bad) == 0 {
					break
				}
			}
			progress := false
			for _, v := range bad {
				progress = progress || !forced[v]
				forced[v] = true
			}
			if !progress {
				internalf("the calls of block b%d cannot be put in order: %s", b.Index, bad[0].LongString(nil))
			}
		}
	}
}

// bindParamCopies finds the private locals go/ssa makes of value
// parameters whose fields are used ("t = local Point; *t = p" at the top of
// the entry block) and lets them live in the parameter itself, which Go
// allows to be assigned: p.X instead of p2 := p; p2.X. That is safe when
// the parameter is not used otherwise, or the local is never written
// again.
func (e *emitter) bindParamCopies() {
	entry := e.fn.Entry()
	if len(entry.Preds) > 0 {
		return
	}
	for i, st := range entry.Instrs {
		if st.Op != ir.OpStore || !e.live[st.ID] {
			continue
		}
		a, p := st.Args[0], st.Args[1]
		info := e.allocs[a]
		if info == nil || info.escapes || a.Block != entry || p.Op != ir.OpParam || sanitize(p.Name) == "" ||
			!types.Identical(p.Type, a.Type.Underlying().(*types.Pointer).Elem()) {
			continue
		}
		first := true
		for _, v := range entry.Instrs[e.pos[a.ID]+1 : i] {
			for _, x := range v.Args {
				if x != nil && e.localRoot(x) == a {
					first = false
				}
			}
		}
		otherUses, otherStores := false, false
		for _, u := range e.allUses[p.ID] {
			otherUses = otherUses || u != st && e.live[u.ID]
		}
		for _, b := range e.cfg.RPO {
			for _, v := range b.Instrs {
				if v != st && v.Op == ir.OpStore && e.live[v.ID] && e.localRoot(v.Args[0]) == a {
					otherStores = true
				}
			}
		}
		if !first || otherUses && otherStores {
			continue
		}
		info.param = p
		e.live[st.ID] = false
	}
}

// reachableUser reports whether u is an instruction of a reachable block.
func (e *emitter) reachableUser(u *ir.Value) bool {
	return u.Block != nil && e.cfg.Reachable(u.Block)
}

// classifyAllocs finds the local allocations and whether their address
// escapes.
func (e *emitter) classifyAllocs() {
	for _, b := range e.cfg.RPO {
		for _, v := range b.Instrs {
			if v.Op == ir.OpAlloc && !v.Heap {
				info := &allocInfo{}
				e.allocs[v] = info
				e.scanAddr(v, info)
			}
		}
	}
}

func (e *emitter) scanAddr(a *ir.Value, info *allocInfo) {
	for _, u := range e.allUses[a.ID] {
		if !e.reachableUser(u) {
			continue
		}
		switch {
		case u.Op == ir.OpLoad:
		case u.Op == ir.OpStore && u.Args[0] == a && u.Args[1] != a:
		case (u.Op == ir.OpFieldAddr || u.Op == ir.OpIndexAddr) && u.Args[0] == a:
			e.scanAddr(u, info)
		default:
			info.escapes = true
		}
	}
}

// localRoot returns the local allocation that address a points into (a
// itself, or the base of a chain of field and array-element addresses), or
// nil.
func (e *emitter) localRoot(a *ir.Value) *ir.Value {
	for a != nil {
		switch a.Op {
		case ir.OpAlloc:
			if !a.Heap {
				return a
			}
			return nil
		case ir.OpFieldAddr:
			a = a.Args[0]
		case ir.OpIndexAddr:
			if _, ok := a.Args[0].Type.Underlying().(*types.Pointer); !ok {
				return nil // element of a slice
			}
			a = a.Args[0]
		default:
			return nil
		}
	}
	return nil
}

// privateLocal returns the local allocation a points into when its address
// never escapes: no call and no access through another pointer can touch
// it.
func (e *emitter) privateLocal(a *ir.Value) *ir.Value {
	if r := e.localRoot(a); r != nil && !e.allocs[r].escapes {
		return r
	}
	return nil
}

// markLive computes the live values: those with effects, and what they
// use. A store into a private local is live only if the local is loaded by
// a live load.
func (e *emitter) markLive() {
	var work []*ir.Value
	mark := func(v *ir.Value) {
		if v != nil && !e.live[v.ID] {
			e.live[v.ID] = true
			work = append(work, v)
		}
	}
	var localStores []*ir.Value
	for _, b := range e.cfg.RPO {
		for _, v := range b.Instrs {
			switch {
			case v.Op.IsTerminator():
				mark(v)
			case v.Op == ir.OpStore:
				if e.privateLocal(v.Args[0]) != nil {
					localStores = append(localStores, v)
				} else {
					mark(v)
				}
			case v.Op == ir.OpCall && !e.pureCall(v):
				mark(v)
			}
		}
	}
	for {
		for len(work) > 0 {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			for _, a := range v.Args {
				if a != nil && (a.Block == nil || e.cfg.Reachable(a.Block)) {
					mark(a)
				}
			}
		}
		loaded := map[*ir.Value]bool{}
		for _, b := range e.cfg.RPO {
			for _, v := range b.Instrs {
				if v.Op == ir.OpLoad && e.live[v.ID] {
					if r := e.privateLocal(v.Args[0]); r != nil {
						loaded[r] = true
					}
				}
			}
		}
		changed := false
		for _, s := range localStores {
			if !e.live[s.ID] && loaded[e.privateLocal(s.Args[0])] {
				mark(s)
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

// pureCall reports whether v calls a function without effects and has a
// result (ir.Callee.Pure), which may be moved, duplicated or dropped like
// arithmetic.
func (e *emitter) pureCall(v *ir.Value) bool {
	return v.Type != nil && v.Callee.Pure()
}

// isMemOp reports whether v reads or writes memory in a way that orders it
// against other memory operations.
func (e *emitter) isMemOp(v *ir.Value) bool {
	switch v.Op {
	case ir.OpLoad, ir.OpStore:
		return true
	case ir.OpCall:
		return !e.pureCall(v)
	case ir.OpAlloc:
		return !v.Heap // (re)zeroing of a local
	}
	return false
}

// memLoc returns the private local a memory operation touches, or nil when
// it may touch any memory.
func (e *emitter) memLoc(v *ir.Value) *ir.Value {
	switch v.Op {
	case ir.OpLoad, ir.OpStore:
		return e.privateLocal(v.Args[0])
	case ir.OpAlloc:
		return e.privateLocal(v)
	}
	return nil
}

// conflict reports whether memory operations a and b must keep their
// order.
func (e *emitter) conflict(a, b *ir.Value) bool {
	if a.Op == ir.OpLoad && b.Op == ir.OpLoad {
		return false
	}
	la, lb := e.memLoc(a), e.memLoc(b)
	if la != nil || lb != nil {
		return la == lb
	}
	return true
}

// decideBlock sets kind, root and eff for the values of b, last to first
// so that each value's user is decided before the value. Values in forced
// are not inlined.
func (e *emitter) decideBlock(b *ir.Block, forced map[*ir.Value]bool) {
	n := len(b.Instrs)
	for i := n - 1; i >= 0; i-- {
		v := b.Instrs[i]
		if !e.live[v.ID] {
			e.kind[v.ID] = kDead
			continue
		}
		e.eff[v.ID] = i
		e.root[v.ID] = rootKey{v, stmtRoot}
		switch {
		case v.Op.Info().Result == ir.ResultNever: // a store or a terminator
			e.kind[v.ID] = kStmt
		case v.Op == ir.OpConst:
			e.kind[v.ID] = kConst
		case v.Op == ir.OpPhi, v.Op == ir.OpExtract, v.Op == ir.OpSelect:
			e.kind[v.ID] = kVar
		case v.Op == ir.OpAlloc:
			if v.Heap {
				e.kind[v.ID] = kVar
			} else {
				e.kind[v.ID] = kAddr
			}
		case v.Op == ir.OpGlobal:
			e.kind[v.ID] = kAddr
			e.root[v.ID] = rootKey{v, rematRoot}
		case v.Op == ir.OpFieldAddr || v.Op == ir.OpIndexAddr:
			e.kind[v.ID] = kAddr
			if r, R, ok := e.useSite(v, i, n); ok {
				e.root[v.ID], e.eff[v.ID] = r, R
			} else {
				e.root[v.ID] = rootKey{v, rematRoot}
			}
		case v.Op == ir.OpCall && (v.Type == nil || isTuple(v.Type) || len(e.uses[v.ID]) == 0):
			e.kind[v.ID] = kStmt
		case !forced[v] && e.rematerialized(v):
			e.kind[v.ID] = kInline
		default:
			if !forced[v] && e.tryInline(v, i, n) {
				e.kind[v.ID] = kInline
			} else {
				e.kind[v.ID] = kVar
			}
		}
	}
}

// rematerialized reports whether v, an expression cheap to repeat (see
// repeatable), is rendered at each of its uses instead of being held in a variable: when
// it has a single use in another block (typically a loop condition,
// i < len(x), as a person writes it), or when the source did not name it
// (a person writes len(x) again where gadgen's optimizer shares one
// len(x), so that a guard if d <= 0 || len(x)%d != 0 stays one statement,
// and a tape reads tape[len(tape)-1] and pops tape[:len(tape)-1]).
// Liveness sees the read of the operands where v is rendered, so a
// variable is never reassigned while such a read is pending.
func (e *emitter) rematerialized(v *ir.Value) bool {
	us := e.uses[v.ID]
	if len(us) == 0 {
		return false
	}
	for _, u := range us {
		if u.Op == ir.OpPhi || u.Op == ir.OpSelect {
			return false
		}
	}
	named := v.Name != "" && (len(us) > 1 || v.Op == ir.OpBinary)
	if named || len(us) == 1 && us[0].Block == v.Block || !e.repeatable(v, us) {
		return false
	}
	e.root[v.ID] = rootKey{us[0], rematRoot}
	return true
}

// repeatable reports whether v is a small integer expression of
// variables that hold their values where us read v: len or cap of such a
// variable, or the sum, difference or product of two operands each a
// constant, such a variable, such a length, or (once) such an expression
// read by v alone: c*d, len(tape)-1, (c+1)*d; a slice of a local array
// at constant bounds read once; or a negated constant.
func (e *emitter) repeatable(v *ir.Value, us []*ir.Value) bool {
	var ok func(x *ir.Value, depth int) bool
	ok = func(x *ir.Value, depth int) bool {
		switch {
		case x.Op == ir.OpConst:
			return true
		case x.Op == ir.OpLen || x.Op == ir.OpCap:
			return e.heldAt(v, x.Args[0], us)
		case x != v && isInteger(x.Type) && e.heldAt(v, x, us):
			return true
		case x.Op == ir.OpBinary && depth < 2 && (x == v || len(e.uses[x.ID]) == 1 && x.Name == ""):
			switch x.Tok {
			case token.ADD, token.SUB, token.MUL:
				return isInteger(x.Type) && ok(x.Args[0], depth+1) && ok(x.Args[1], depth+1)
			}
		}
		return false
	}
	switch v.Op {
	case ir.OpLen, ir.OpCap:
		return e.heldAt(v, v.Args[0], us)
	case ir.OpUnary:
		// -0.5, a negated constant, is a literal wherever it is read.
		return v.Tok == token.SUB && v.Args[0].Op == ir.OpConst
	case ir.OpSlice:
		// tapeBuf[:0], a slice of a local array at constant bounds, is
		// the same wherever it is written.
		a := v.Args[0]
		if a.Op != ir.OpAlloc || a.Heap || len(us) != 1 {
			return false
		}
		for _, x := range v.Args[1:] {
			if x != nil && x.Op != ir.OpConst {
				return false
			}
		}
		return true
	}
	return ok(v, 0)
}

// heldAt reports whether x, an operand of a repeatable v, is held in a
// variable that keeps x's value where us read v.
func (e *emitter) heldAt(v, x *ir.Value, us []*ir.Value) bool {
	switch {
	case x.Op == ir.OpParam, x.Op == ir.OpPhi:
	case x.Block != nil && x.Block != v.Block && e.kind[x.ID] == kVar:
	case x.Block == v.Block && len(e.uses[x.ID]) > 1 && heldWhenShared(x):
		// x, decided after v, will be held in a variable.
	default:
		return false
	}
	for _, u := range e.uses[x.ID] {
		for _, w := range us {
			if u.Op == ir.OpPhi && e.cfg.LoopHeader[u.Block.Index] && e.cfg.InLoop(u.Block, w.Block) && !e.cfg.InLoop(u.Block, v.Block) {
				// x's variable takes new values in the loop where v is
				// read: len(x) there would need a copy of x.
				return false
			}
		}
	}
	return true
}

// heldWhenShared reports whether decideBlock holds x in a variable when
// it has more than one use.
func heldWhenShared(x *ir.Value) bool {
	switch x.Op {
	case ir.OpSlice, ir.OpMakeSlice, ir.OpLoad, ir.OpConvert:
		return true
	case ir.OpCall:
		return x.Type != nil && !isTuple(x.Type)
	}
	return false
}

// useSite returns the statement the single use of v (at position i of a
// block of n values) is evaluated in, and its position.
func (e *emitter) useSite(v *ir.Value, i, n int) (rootKey, int, bool) {
	us := e.uses[v.ID]
	if len(us) != 1 {
		return rootKey{}, 0, false
	}
	u := us[0]
	if u.Op == ir.OpPhi {
		// The copies of an edge out of a branch run on that edge alone:
		// a call with effects (or a load that may fault) that the block
		// runs on every path stays a statement of its own (a gradient
		// call writing its shadow, whose result one branch overwrites).
		if len(v.Block.Succs) > 1 && e.isMemOp(v) {
			return rootKey{}, 0, false
		}
		for j, a := range u.Args {
			if a == v {
				if u.Block.Preds[j] != v.Block {
					return rootKey{}, 0, false
				}
				return rootKey{u, j}, n, true
			}
		}
		return rootKey{}, 0, false
	}
	if u.Block != v.Block || e.pos[u.ID] <= i {
		return rootKey{}, 0, false
	}
	if u.Op == ir.OpSelect {
		// The select renders as two statements; only values without
		// memory effects move into it.
		return rootKey{u, rematRoot}, e.eff[u.ID], true
	}
	return e.root[u.ID], e.eff[u.ID], true
}

// tryInline decides whether v, at position i of a block of n values, is
// rendered inside its single user, and records its root if so.
func (e *emitter) tryInline(v *ir.Value, i, n int) bool {
	r, R, ok := e.useSite(v, i, n)
	if !ok {
		return false
	}
	if v.Op == ir.OpCall {
		// A call, pure or not, may read a tensor's elements: it stays
		// before a release of buffers (tensorops.Release) that precedes
		// its use.
		for k := i + 1; k < R && k < n; k++ {
			if w := v.Block.Instrs[k]; e.live[w.ID] && ir.IsRelease(w) {
				return false
			}
		}
	}
	if e.isMemOp(v) {
		if r.pred == rematRoot {
			return false
		}
		b := v.Block
		for k := i + 1; k < R && k < n; k++ {
			w := b.Instrs[k]
			if !e.live[w.ID] || !e.isMemOp(w) || !e.conflict(v, w) {
				continue
			}
			if e.eff[w.ID] > R {
				continue
			}
			if e.eff[w.ID] == R && e.root[w.ID] == r {
				if (v.Op == ir.OpLoad) != (w.Op == ir.OpLoad) && !e.isOperandOf(v, w) {
					return false
				}
				continue
			}
			return false
		}
	}
	e.root[v.ID], e.eff[v.ID] = r, R
	return true
}

// isOperandOf reports whether inlined v ends up inside w's operands.
func (e *emitter) isOperandOf(v, w *ir.Value) bool {
	x := v
	for {
		us := e.uses[x.ID]
		if len(us) != 1 {
			return false
		}
		x = us[0]
		if x == w {
			return true
		}
		if x.Op == ir.OpPhi || e.kind[x.ID] != kInline && e.kind[x.ID] != kAddr {
			return false
		}
	}
}

// verifyOrder checks that the impure calls inside each statement of b run,
// in Go's left-to-right order, in the order of the block. It returns, for
// each statement where they do not, a call to hold in a variable.
func (e *emitter) verifyOrder(b *ir.Block) []*ir.Value {
	var out []*ir.Value
	// inside reports whether v is rendered inside the statement that
	// uses it.
	inside := func(v *ir.Value) bool {
		k := e.kind[v.ID]
		return k == kInline || k == kAddr && e.root[v.ID].pred != rematRoot
	}
	// hasCall[v] reports whether the expression of v holds an impure
	// call: most do not, and are not walked.
	hasCall := map[*ir.Value]bool{}
	var calls func(v *ir.Value) bool
	calls = func(v *ir.Value) bool {
		if v == nil || v.Block == nil || !inside(v) {
			return false
		}
		if h, ok := hasCall[v]; ok {
			return h
		}
		hasCall[v] = false
		h := v.Op == ir.OpCall && !e.pureCall(v)
		for _, a := range v.Args {
			h = calls(a) || h
		}
		hasCall[v] = h
		return h
	}
	check := func(root *ir.Value, args []*ir.Value) *ir.Value {
		var calls_ []*ir.Value
		var walk func(v *ir.Value)
		walk = func(v *ir.Value) {
			if v == nil || v.Block == nil || !calls(v) {
				return
			}
			for _, a := range v.Args {
				walk(a)
			}
			if v.Op == ir.OpCall && !e.pureCall(v) {
				calls_ = append(calls_, v)
			}
		}
		for _, a := range args {
			walk(a)
		}
		if root != nil && root.Op == ir.OpCall && !e.pureCall(root) {
			calls_ = append(calls_, root)
		}
		for k := 1; k < len(calls_); k++ {
			if e.pos[calls_[k].ID] < e.pos[calls_[k-1].ID] {
				if calls_[k-1] != root {
					return calls_[k-1]
				}
				return calls_[k]
			}
		}
		return nil
	}
	for _, v := range b.Instrs {
		k := e.kind[v.ID]
		if (k == kVar || k == kStmt) && v.Op != ir.OpPhi { // a φ's arguments are its predecessors' (below)
			if bad := check(v, v.Args); bad != nil {
				out = append(out, bad)
			}
		}
	}
	for _, s := range b.Succs {
		j := s.PredIndex(b)
		for _, phi := range s.Instrs {
			if phi.Op != ir.OpPhi {
				break
			}
			if e.live[phi.ID] {
				if bad := check(nil, phi.Args[j:j+1]); bad != nil {
					out = append(out, bad)
				}
			}
		}
	}
	return out
}

func isTuple(t types.Type) bool {
	_, ok := t.(*types.Tuple)
	return ok
}

// maxExprWidth is the estimated width, in characters, above which the
// expression of a statement is split: its largest inlined operand gets a
// variable of its own (a line of generated code stays within about 120
// columns with its indentation and left-hand side).
const maxExprWidth = 85

// maxCallWidth is the estimated width of a call above which its arguments
// are written one to a line.
const maxCallWidth = 100

// tooLong returns, for each statement of b whose expression is estimated
// wider than maxExprWidth, the inlined operand to hold in a variable
// instead: the widest one that is not forced already. (If that one is
// itself too wide, the next round splits it.)
func (e *emitter) tooLong(b *ir.Block, forced map[*ir.Value]bool) []*ir.Value {
	var out []*ir.Value
	// The copies into the φs of a successor are one statement, a, b = x, y.
	for _, s := range b.Succs {
		j := s.PredIndex(b)
		if j < 0 {
			continue
		}
		width := 0
		var srcs []*ir.Value
		for _, phi := range s.Instrs {
			if phi.Op != ir.OpPhi {
				break
			}
			if e.live[phi.ID] {
				width += 2 + max(len(phi.Name)+1, 4) + 2 + e.width(phi.Args[j])
				srcs = append(srcs, phi.Args[j])
			}
		}
		if width > maxExprWidth+20 {
			if w := e.widest(b, forced, srcs); w != nil {
				out = append(out, w)
			}
		}
	}
	for _, v := range b.Instrs {
		if k := e.kind[v.ID]; k != kVar && k != kStmt || v.Op == ir.OpPhi || e.opWidth(v) <= maxExprWidth {
			continue
		}
		if w := e.widest(b, forced, v.Args); w != nil {
			out = append(out, w)
		}
	}
	return out
}

// widest returns the widest splittable value of block b among xs and the
// inlined operands inside them, not forced already; nil if none.
func (e *emitter) widest(b *ir.Block, forced map[*ir.Value]bool, xs []*ir.Value) *ir.Value {
	var best *ir.Value
	bestWidth := 0
	var visit func(xs []*ir.Value)
	visit = func(xs []*ir.Value) {
		for _, x := range xs {
			if x != nil && x.Block == b && x.Op == ir.OpConvert && types.IsInterface(x.Type) && e.kind[x.ID] == kInline {
				// Written as its operand (as a call's argument of
				// interface type): a variable would be as wide.
				visit(x.Args)
				continue
			}
			if x == nil || x.Block != b || !e.splittable(x) {
				continue
			}
			if w := e.width(x); w > bestWidth && !forced[x] {
				best, bestWidth = x, w
			}
			visit(x.Args)
		}
	}
	visit(xs)
	return best
}

// splittable reports whether v is an inlined operand that can get a
// variable of its own: one decideBlock made inline by tryInline.
func (e *emitter) splittable(v *ir.Value) bool {
	if e.kind[v.ID] != kInline || v.Op == ir.OpLen || v.Op == ir.OpCap || e.root[v.ID].pred == rematRoot {
		return false // lengths and the like are written where they are read
	}
	switch v.Op {
	case ir.OpBinary, ir.OpUnary, ir.OpCall, ir.OpConvert:
		return true
	}
	return false
}

// width estimates the width of v rendered as an expression.
func (e *emitter) width(v *ir.Value) int {
	if v == nil {
		return 0
	}
	if v.Op == ir.OpConst {
		if v.Const == nil {
			return 3
		}
		if v.Const.Kind() == constant.String {
			return len(v.Const.ExactString()) // written in full
		}
		return min(len(v.Const.ExactString()), 20)
	}
	k := e.kind[v.ID]
	if k != kInline && !(k == kAddr && v.Op != ir.OpAlloc && v.Op != ir.OpGlobal) {
		// A variable: named after the source (with a digit), or t12.
		return max(len(v.Name)+1, 4)
	}
	return e.opWidth(v)
}

// opWidth estimates the width of v's own operation with its operands.
func (e *emitter) opWidth(v *ir.Value) int {
	w := 2
	switch v.Op {
	case ir.OpBinary:
		// gofmt spaces only the operators of the outermost precedence
		// level: a*b + c; operands of lower precedence get parentheses.
		w = 1
		for _, a := range v.Args {
			if a.Op == ir.OpBinary && e.kind[a.ID] == kInline && a.Tok.Precedence() < v.Tok.Precedence() {
				w += 2
			}
		}
	case ir.OpUnary:
		w = 1
		if a := v.Args[0]; a.Op == ir.OpBinary && e.kind[a.ID] == kInline {
			w += 2 + 2 // -(a * b): gofmt spaces the operand
		}
	case ir.OpLoad:
		w = 0 // the place
	case ir.OpFieldAddr, ir.OpField:
		w = 4 // .f
	case ir.OpSlice:
		w = 3
	case ir.OpCall:
		name := v.Callee.Builtin
		if v.Callee.Func != nil {
			name = v.Callee.Func.Name()
			if v.Callee.Func.Pkg() != nil {
				name = v.Callee.Func.Pkg().Name() + "." + name
			}
		} else if v.Callee.Derived != nil {
			name = v.Callee.Derived.Name
		}
		w = len(name) + 2*len(v.Args)
	case ir.OpConvert:
		w = len(typeName(v.Type)) + 2
		if types.IsInterface(v.Type) {
			w = 0 // written as its operand where an interface is expected
		}
	case opLiteral:
		// T{A: a, B: b}
		w = len(typeName(v.Type)) + 2 + 5*len(v.Args)
	}
	for _, a := range v.Args {
		w += e.width(a)
	}
	return w
}

// typeName returns t as generated code spells it, near enough for widths:
// qualified by package names.
func typeName(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}
