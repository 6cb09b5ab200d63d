package simplify

// This file defines the facts about loops and indexes that the effect
// analysis and LICM need: counted loops (which terminate), increasing
// induction variables and their lower bounds, and indexes shown in bounds
// by a dominating comparison with the length (the pattern every
// `for i := range x` and `for i := 0; i < len(x); i++` lowers to). It is
// a small case of induction-variable analysis and bounds-check
// elimination (Muchnick, §14.1 and §14.2).

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// loopFacts answers questions about the loops and indexes of one function.
// It is invalid once the function's blocks or edges change.
type loopFacts struct {
	cfg  *ir.CFG
	f    *ir.Func
	uses [][]*ir.Value // ir.Uses(f), made when first needed
}

func newLoopFacts(f *ir.Func) *loopFacts {
	return &loopFacts{cfg: ir.NewCFG(f), f: f}
}

// dereferenced reports whether pointer p is dereferenced (a field's
// address taken, a load or a store through it) in a block that dominates
// block at, so that p is not nil there: a load through p cannot fault at
// the end of at. (A loop's body reads s.q through a receiver s whose
// fields the function read before the loop.)
func (lf *loopFacts) dereferenced(p *ir.Value, at *ir.Block) bool {
	if _, ok := p.Type.Underlying().(*types.Pointer); !ok {
		return false
	}
	if lf.uses == nil {
		lf.uses = ir.Uses(lf.f)
	}
	if p.ID >= len(lf.uses) {
		return false
	}
	for _, u := range lf.uses[p.ID] {
		if u.Block == nil || len(u.Args) == 0 || u.Args[0] != p || !lf.cfg.Reachable(u.Block) || !lf.cfg.Dominates(u.Block, at) {
			continue
		}
		switch u.Op {
		case ir.OpFieldAddr, ir.OpLoad, ir.OpStore:
			return true
		}
	}
	return false
}

// intConst returns the value of v when it is an integer constant.
func intConst(v *ir.Value) (int64, bool) {
	if v == nil || v.Op != ir.OpConst || v.Const == nil {
		return 0, false
	}
	if v.Const.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v.Const)
}

// isIntConst reports whether v is the integer constant n.
func isIntConst(v *ir.Value, n int64) bool {
	c, ok := intConst(v)
	return ok && c == n
}

func isIntType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// increment reports whether v is phi + 1.
func increment(v, phi *ir.Value) bool {
	if v.Op != ir.OpBinary || v.Tok != token.ADD {
		return false
	}
	x, y := v.Args[0], v.Args[1]
	if y == phi {
		x, y = y, x
	}
	k, ok := intConst(y)
	return x == phi && ok && k == 1
}

// inductionLow reports whether phi is an increasing induction variable —
// a φ of a loop header of integer type whose argument on each back edge
// is phi+1 and on each other edge a constant — and returns its lower
// bound, the least of those constants. The constants are bounded so that
// phi+1 cannot overflow before the loop's test fails (see countedLoop).
func (lf *loopFacts) inductionLow(phi *ir.Value) (int64, bool) {
	if phi.Op != ir.OpPhi || !isIntType(phi.Type) || !lf.cfg.LoopHeader[phi.Block.Index] {
		return 0, false
	}
	h := phi.Block
	lo, seen := int64(0), false
	for i, a := range phi.Args {
		if lf.cfg.IsBackEdge(h.Preds[i], h) {
			if !increment(a, phi) {
				return 0, false
			}
			continue
		}
		c, ok := intConst(a)
		if !ok || c < -1 || c > 1<<30 {
			return 0, false
		}
		if !seen || c < lo {
			lo, seen = c, true
		}
	}
	return lo, seen
}

// offset returns phi and k when v is phi or phi+k, k a constant.
func offset(v *ir.Value) (*ir.Value, int64, bool) {
	if v.Op == ir.OpPhi {
		return v, 0, true
	}
	if v.Op == ir.OpBinary && v.Tok == token.ADD {
		for i := range 2 {
			if k, ok := intConst(v.Args[1-i]); ok && v.Args[i].Op == ir.OpPhi {
				return v.Args[i], k, true
			}
		}
	}
	return nil, 0, false
}

// counted reports whether the loop headed by h terminates: its header
// ends with `if t < n` (or `n > t`) whose true edge stays in the loop and
// false edge leaves it, n is invariant in the loop, and t is phi or phi+1
// for an increasing induction variable phi of h. Each iteration then
// increases t by one without overflow (t < n ≤ the type's maximum before
// each increment), so the loop runs at most n − t₀ times; it may leave
// earlier by another exit.
func (lf *loopFacts) counted(h *ir.Block) bool {
	term := h.Terminator()
	if term == nil || term.Op != ir.OpIf || h.Succs[0] == h.Succs[1] {
		return false
	}
	if !lf.cfg.InLoop(h, h.Succs[0]) || lf.cfg.InLoop(h, h.Succs[1]) {
		return false
	}
	t, n, ok := lessThan(term.Args[0])
	if !ok || !lf.invariant(h, n) {
		return false
	}
	phi, k, ok := offset(t)
	if !ok || phi.Block != h || (k != 0 && k != 1) {
		return false
	}
	_, ok = lf.inductionLow(phi)
	return ok
}

// lessThan returns t and n when cond is t < n or n > t.
func lessThan(cond *ir.Value) (t, n *ir.Value, ok bool) {
	if cond.Op != ir.OpBinary || !isIntType(cond.Args[0].Type) {
		return nil, nil, false
	}
	switch cond.Tok {
	case token.LSS:
		return cond.Args[0], cond.Args[1], true
	case token.GTR:
		return cond.Args[1], cond.Args[0], true
	}
	return nil, nil, false
}

// invariant reports whether v has the same value throughout the loop
// headed by h: it is defined outside the loop, or it is the length of,
// or integer arithmetic on, such values (len(x) in a loop's test).
func (lf *loopFacts) invariant(h *ir.Block, v *ir.Value) bool {
	if v.Block == nil || !lf.cfg.InLoop(h, v.Block) {
		return true
	}
	switch v.Op {
	case ir.OpLen, ir.OpCap:
		_, isSlice := v.Args[0].Type.Underlying().(*types.Slice)
		return isSlice && lf.invariant(h, v.Args[0])
	case ir.OpBinary:
		return isIntType(v.Type) && lf.invariant(h, v.Args[0]) && lf.invariant(h, v.Args[1])
	}
	return false
}

// nonNegative reports whether the integer v is ≥ 0 wherever it is
// defined.
func (lf *loopFacts) nonNegative(v *ir.Value) bool {
	if c, ok := intConst(v); ok {
		return c >= 0
	}
	if b, ok := v.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsUnsigned != 0 {
		return true
	}
	if v.Op == ir.OpLen || v.Op == ir.OpCap {
		return true
	}
	phi, k, ok := offset(v)
	if !ok {
		return false
	}
	lo, ok := lf.inductionLow(phi)
	return ok && lo+k >= 0
}

// inBounds reports whether index i of s (a slice, or an array value) is
// in bounds at block at: i ≥ 0 (nonNegative) and at is reached only
// through the true edge of a test i < len(s), or, for an array, i is a
// constant below its length.
func (lf *loopFacts) inBounds(s, i *ir.Value, at *ir.Block) bool {
	if !lf.nonNegative(i) {
		return false
	}
	if arr, ok := s.Type.Underlying().(*types.Array); ok {
		if c, ok := intConst(i); ok && c < arr.Len() {
			return true
		}
	}
	for a := at; a != nil; a = lf.cfg.Idom[a.Index] {
		if len(a.Preds) != 1 {
			continue
		}
		p := a.Preds[0]
		term := p.Terminator()
		if term == nil || term.Op != ir.OpIf || p.Succs[0] != a || p.Succs[1] == a {
			continue
		}
		t, n, ok := lessThan(term.Args[0])
		if ok && t == i && n.Op == ir.OpLen && n.Args[0] == s {
			return true
		}
	}
	return false
}

// safeAddress reports whether a load or store through addr cannot panic at
// block at: the address of a local or package-level variable, of a field
// of one or of a pointer dereferenced before (dereferenced), or of a slice
// element shown in bounds.
func (lf *loopFacts) safeAddress(addr *ir.Value, at *ir.Block) bool {
	switch addr.Op {
	case ir.OpAlloc, ir.OpGlobal:
		return true
	case ir.OpFieldAddr:
		return lf.safeAddress(addr.Args[0], at) || lf.dereferenced(addr.Args[0], at)
	case ir.OpIndexAddr:
		s := addr.Args[0]
		if _, ok := s.Type.Underlying().(*types.Slice); ok {
			return lf.inBounds(s, addr.Args[1], at)
		}
		// A pointer to an array: safe when the pointer is, and the index
		// a constant below the length.
		p := s.Type.Underlying().(*types.Pointer)
		arr := p.Elem().Underlying().(*types.Array)
		c, ok := intConst(addr.Args[1])
		return ok && c >= 0 && c < arr.Len() && lf.safeAddress(s, at)
	}
	return false
}

// mayFail reports whether evaluating v at block at may panic. Calls are
// judged by their effects (callEffects), not here.
func (lf *loopFacts) mayFail(v *ir.Value, at *ir.Block) bool {
	switch v.Op {
	case ir.OpPanic:
		return true
	case ir.OpBinary:
		if !isIntType(v.Type) {
			return false
		}
		switch v.Tok {
		case token.QUO, token.REM:
			c, ok := intConst(v.Args[1])
			return !ok || c == 0
		case token.SHL, token.SHR:
			return !lf.nonNegative(v.Args[1])
		}
		return false
	case ir.OpIndex:
		return !lf.inBounds(v.Args[0], v.Args[1], at)
	case ir.OpIndexAddr, ir.OpFieldAddr:
		return !lf.safeAddress(v, at)
	case ir.OpLoad, ir.OpStore:
		return !lf.safeAddress(v.Args[0], at)
	case ir.OpSlice, ir.OpMakeSlice:
		return true
	case ir.OpConvert:
		// A slice converted to an array or array pointer panics when too
		// short.
		_, fromSlice := v.Args[0].Type.Underlying().(*types.Slice)
		_, toSlice := v.Type.Underlying().(*types.Slice)
		return fromSlice && !toSlice
	}
	return false
}
