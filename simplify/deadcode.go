package simplify

// This file defines dead-code elimination: values without effects whose
// results nobody uses are removed, including cycles of φ-nodes that only
// feed each other (a mark-and-sweep from the effectful values, as in
// cmd/compile/internal/ssa's deadcode.go).

import (
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// DeadCode removes the values of f that have no effect and do not
// contribute to a value that has one. Calls of pure functions (see
// isPure) have no effect.
func DeadCode(f *ir.Func) {
	mergeExtracts(f)
	for {
		sweep(f)
		if !deadStores(f) && !deadAppends(f) && !deadLocalStores(f) && !selfStores(f) && !deadScratchStores(f) && !emptyBranches(f) && !emptyLoops(f) {
			return
		}
	}
}

// mergeExtracts makes each result of a tuple-valued call one value: the
// extracts of one index (the transformers ask for a result as often as
// they need it, and without optimization no CSE merges them) are replaced
// by one, moved just after the call, which dominates every use. Go
// assigns each result of a call once: the emitter writes a call's
// results as one assignment.
func mergeExtracts(f *ir.Func) {
	first := map[[2]any]*ir.Value{} // (call, index) → the extract kept
	var kept, dups []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpExtract {
				continue
			}
			k := [2]any{v.Args[0], v.Index}
			if w := first[k]; w != nil {
				replaceUses(f, v, w)
				dups = append(dups, v)
				continue
			}
			first[k] = v
			kept = append(kept, v)
		}
	}
	if len(dups) == 0 {
		return
	}
	for _, v := range dups {
		removeValue(v)
	}
	// Each inserted just after its call, the last index first: the
	// extracts follow their call in the order of its results, whatever
	// the order they came in (deterministic output).
	slices.SortStableFunc(kept, func(x, y *ir.Value) int { return y.Index - x.Index })
	for _, x := range kept {
		c := x.Args[0]
		if c.Block == nil {
			continue // a parameter: no call
		}
		removeValue(x)
		c.Block.Insert(indexOf(c.Block, c)+1, x)
	}
}

func sweep(f *ir.Func) {
	live := make([]bool, f.NumValues()+1)
	var work []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op.HasEffect() && !(v.Op == ir.OpCall && (isPure(v) || freshAppend(v))) && !live[v.ID] {
				live[v.ID] = true
				work = append(work, v)
			}
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range v.Args {
			if a != nil && a.Block != nil && !live[a.ID] {
				live[a.ID] = true
				work = append(work, a)
			}
		}
	}
	for _, b := range f.Blocks {
		b.Instrs = slices.DeleteFunc(b.Instrs, func(v *ir.Value) bool { return !live[v.ID] })
	}
}

// deadStores removes the stores into local memory that is never read: an
// OpAlloc or OpMakeSlice whose addresses (through FieldAddr, IndexAddr and
// Slice) are only ever stored into. It reports whether it removed any.
func deadStores(f *ir.Func) bool {
	uses := ir.Uses(f)
	dead := map[*ir.Value]bool{}
	for _, b := range f.Blocks {
		for _, root := range b.Instrs {
			if root.Op != ir.OpAlloc && root.Op != ir.OpMakeSlice {
				continue
			}
			var stores []*ir.Value
			ok := true
			work := []*ir.Value{root}
			for len(work) > 0 && ok {
				a := work[len(work)-1]
				work = work[:len(work)-1]
				for _, u := range uses[a.ID] {
					switch {
					case u.Op == ir.OpStore && u.Args[0] == a && u.Args[1] != a:
						stores = append(stores, u)
					case (u.Op == ir.OpFieldAddr || u.Op == ir.OpIndexAddr || u.Op == ir.OpSlice) && u.Args[0] == a:
						work = append(work, u)
					default:
						ok = false
					}
				}
			}
			if ok {
				for _, s := range stores {
					dead[s] = true
				}
			}
		}
	}
	if len(dead) == 0 {
		return false
	}
	for _, b := range f.Blocks {
		out := b.Instrs[:0]
		for _, v := range b.Instrs {
			if !dead[v] {
				out = append(out, v)
			}
		}
		b.Instrs = out
	}
	return true
}

// selfStores removes the stores *p = *p: of a value loaded from the same
// address earlier in the block, with no call between and no store that may
// write there (a store into another local variable may not): the tangent
// of x.f += c is the tangent of x.f.
// writesTensorsOnly reports whether call v, of the tensor runtime on
// tensors and basic values only, can write nothing but the elements of
// its tensors (tensorops.Accumulate adds into its first argument's
// buffer): no Go variable, field or slice element.
func writesTensorsOnly(v *ir.Value) bool {
	if ir.TensorCall(v) == "" {
		return false
	}
	for _, a := range v.Args {
		if _, basic := a.Type.Underlying().(*types.Basic); !basic && !ir.IsTensor(a.Type) {
			return false
		}
	}
	return true
}

func selfStores(f *ir.Func) bool {
	root := func(a *ir.Value) *ir.Value {
		for a.Op == ir.OpFieldAddr || a.Op == ir.OpIndexAddr {
			a = a.Args[0]
		}
		return a
	}
	apart := func(a, b *ir.Value) bool {
		ra, rb := root(a), root(b)
		return ra != rb && ra.Op == ir.OpAlloc && rb.Op == ir.OpAlloc
	}
	same := func(a, b *ir.Value) bool {
		if a == b {
			return true
		}
		if a.Op != b.Op || len(a.Args) == 0 || len(a.Args) != len(b.Args) || a.Args[0] != b.Args[0] {
			return false
		}
		switch a.Op {
		case ir.OpFieldAddr:
			return a.Index == b.Index
		case ir.OpIndexAddr:
			return a.Args[1] == b.Args[1] || sameConst(a.Args[1], b.Args[1])
		}
		return false
	}
	changed := false
	for _, b := range f.Blocks {
		out := b.Instrs[:0]
		for i, v := range b.Instrs {
			if v.Op == ir.OpStore {
				x := v.Args[1]
				self := x.Op == ir.OpLoad && x.Block == b && same(x.Args[0], v.Args[0])
				for _, w := range b.Instrs[indexOf(b, x)+1 : i] {
					if !self || w.Op == ir.OpStore && !apart(w.Args[0], v.Args[0]) ||
						w.Op.HasEffect() && w.Op != ir.OpStore && !(w.Op == ir.OpCall && (isPure(w) || writesTensorsOnly(w))) {
						self = false
						break
					}
				}
				if self {
					changed = true
					continue
				}
			}
			out = append(out, v)
		}
		for i := len(out); i < len(b.Instrs); i++ {
			b.Instrs[i] = nil
		}
		b.Instrs = out
	}
	return changed
}

// deadLocalStores removes the stores into local variables that no load
// can read afterwards (the reverse sweep resets adjoint variables it will
// not read again). A variable is local when its address is only loaded
// from or stored to.
func deadLocalStores(f *ir.Func) bool {
	uses := ir.Uses(f)
	local := func(a *ir.Value) bool {
		if a.Op != ir.OpAlloc || a.Heap {
			return false
		}
		for _, u := range uses[a.ID] {
			switch {
			case u.Op == ir.OpLoad:
			case u.Op == ir.OpStore && u.Args[0] == a && u.Args[1] != a:
			default:
				return false
			}
		}
		return true
	}
	loads := func(b *ir.Block, from int, a *ir.Value) bool {
		for _, v := range b.Instrs[from:] {
			if v.Op == ir.OpLoad && v.Args[0] == a {
				return true
			}
		}
		return false
	}
	// readLater reports whether a load of a may run after position i of b.
	readLater := func(b *ir.Block, i int, a *ir.Value) bool {
		if loads(b, i+1, a) {
			return true
		}
		seen := map[*ir.Block]bool{}
		work := append([]*ir.Block(nil), b.Succs...)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if seen[x] {
				continue
			}
			seen[x] = true
			if loads(x, 0, a) {
				return true
			}
			work = append(work, x.Succs...)
		}
		return false
	}
	dead := map[*ir.Value]bool{}
	for _, b := range f.Blocks {
		for i, v := range b.Instrs {
			if v.Op == ir.OpStore && local(v.Args[0]) && !readLater(b, i, v.Args[0]) {
				dead[v] = true
			}
		}
	}
	if len(dead) == 0 {
		return false
	}
	for _, b := range f.Blocks {
		out := b.Instrs[:0]
		for _, v := range b.Instrs {
			if !dead[v] {
				out = append(out, v)
			}
		}
		b.Instrs = out
	}
	return true
}

// freshAppend reports whether call v is an append onto nil, which writes
// only the new array it returns.
func freshAppend(v *ir.Value) bool {
	if v.Callee.Builtin != "append" || len(v.Args) == 0 {
		return false
	}
	return ir.IsNil(v.Args[0])
}

// deadAppends removes the slices that are only ever appended to: the
// values of a web of φ-nodes, reslices (s[i:j]), appends and slices.Grow
// calls onto one another, started from fresh memory (an array allocated
// here and sliced, make, or nil), none of which has a use outside the web
// — no element is read, no length taken, nothing passed on or stored. The
// memory they write is reachable from them alone, so nobody can see it:
// the tape of tangents that forward mode over a gradient records and its
// reverse sweep never reads (comparisons of taped values have no
// tangent). It reports whether it removed any.
func deadAppends(f *ir.Func) bool {
	web := map[*ir.Value]bool{}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if _, ok := v.Type.(*types.Slice); ok && (v.Op == ir.OpPhi || v.Op == ir.OpSlice || v.Op == ir.OpMakeSlice || appendLike(v)) {
				web[v] = true
			} else if v.Op == ir.OpAlloc {
				web[v] = true
			}
		}
	}
	// base reports whether a is where a member of the web takes its
	// slice from: a member, or nil.
	base := func(a *ir.Value) bool { return web[a] || ir.IsNil(a) }
	for changed := true; changed; {
		changed = false
		uses := ir.Uses(f)
		for v := range web {
			ok := true
			switch {
			case v.Op == ir.OpPhi:
				for _, a := range v.Args {
					ok = ok && base(a)
				}
			case v.Op == ir.OpSlice, appendLike(v):
				ok = base(v.Args[0])
			}
			for _, u := range uses[v.ID] {
				if !ok {
					break
				}
				switch {
				case !web[u]:
					ok = false
				case u.Op == ir.OpPhi:
				case v.Op == ir.OpAlloc:
					// An array is in the web through its slices alone.
					ok = u.Op == ir.OpSlice && u.Args[0] == v && !slices.Contains(u.Args[1:], v)
				default:
					// A member's value may only be the slice another
					// extends or reslices.
					ok = u.Op != ir.OpMakeSlice && u.Args[0] == v && !slices.Contains(u.Args[1:], v)
				}
			}
			if !ok {
				delete(web, v)
				changed = true
			}
		}
	}
	removed := false
	for v := range web {
		// An array alone in the web has no use: sweep removes it.
		removed = removed || v.Op != ir.OpAlloc
	}
	if !removed {
		return false
	}
	for _, b := range f.Blocks {
		b.Instrs = slices.DeleteFunc(b.Instrs, func(v *ir.Value) bool { return web[v] })
	}
	return true
}

// appendLike reports whether v is a call of append or slices.Grow, which
// return their first argument extended.
func appendLike(v *ir.Value) bool {
	if v.Op != ir.OpCall || len(v.Args) == 0 || v.Callee == nil {
		return false
	}
	if v.Callee.Builtin == "append" {
		return true
	}
	fn := v.Callee.Func
	return fn != nil && !v.Callee.Invoke && fn.Pkg() != nil && fn.Pkg().Path() == "slices" && fn.Name() == "Grow"
}
