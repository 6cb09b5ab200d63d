package taylor

// This file defines the removal of trivial φ-nodes from the functions
// this package builds: a φ whose arguments are all one value v (or the φ
// itself) is v. Differentiation makes them (the tangent of a loop-carried
// value that only changes by constants, a coefficient that stays zero),
// and emitted as variables they would read as self-assignments.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// removeTrivialPhis replaces every trivial φ of f by its value, until
// none is left.
func removeTrivialPhis(f *ir.Func) {
	for changed := true; changed; {
		changed = false
		repl := map[*ir.Value]*ir.Value{}
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				if v.Op != ir.OpPhi {
					continue
				}
				var same *ir.Value
				trivial := true
				for _, a := range v.Args {
					if a == v || a == same {
						continue
					}
					if same != nil {
						trivial = false
						break
					}
					same = a
				}
				if trivial && same != nil {
					repl[v] = same
				}
			}
		}
		if len(repl) == 0 {
			return
		}
		changed = true
		find := func(v *ir.Value) *ir.Value {
			for i := 0; i < len(repl)+1; i++ {
				r, ok := repl[v]
				if !ok {
					return v
				}
				v = r
			}
			return v
		}
		for _, b := range f.Blocks {
			kept := b.Instrs[:0]
			for _, v := range b.Instrs {
				if _, ok := repl[v]; ok {
					continue
				}
				for i, a := range v.Args {
					if a != nil {
						v.Args[i] = find(a)
					}
				}
				kept = append(kept, v)
			}
			b.Instrs = kept
		}
	}
}

// removeNoopStores removes the stores *p = x where x was loaded from the
// same address p earlier in the block with no store or call between:
// forward mode makes them when a tangent passes through memory unchanged
// (the tangent of *p = *p + 1), and they would read as self-assignments.
func removeNoopStores(f *ir.Func) {
	for _, b := range f.Blocks {
		kept := b.Instrs[:0]
		for i, v := range b.Instrs {
			if v.Op == ir.OpStore && v.Args[1].Op == ir.OpLoad && v.Args[1].Args[0] == v.Args[0] && v.Args[1].Block == b {
				clean, seen := true, false
				for _, w := range b.Instrs[:i] {
					switch {
					case w == v.Args[1]:
						seen, clean = true, true
					case seen && clobbers(w, v.Args[0]):
						clean = false
					}
				}
				clean = clean && seen
				if clean {
					continue
				}
			}
			kept = append(kept, v)
		}
		b.Instrs = kept
	}
}

// clobbers reports whether w may write *p: a local scalar variable (a
// non-heap alloc of a basic type, which has no parts to address) is
// written only by stores to it and calls that are passed it.
func clobbers(w, p *ir.Value) bool {
	if w.Op != ir.OpStore && w.Op != ir.OpCall {
		return false
	}
	if p.Op != ir.OpAlloc || p.Heap {
		return true
	}
	if _, basic := p.Type.(*types.Pointer).Elem().Underlying().(*types.Basic); !basic {
		return true
	}
	if w.Op == ir.OpStore {
		return w.Args[0] == p
	}
	for _, a := range w.Args {
		if a == p {
			return true
		}
	}
	return false
}

// dropScratch removes what a function computes only into the scratch
// slice buf, a fresh allocation of length n that nothing reads back
// except to update it: the gradient that forward over reverse computes
// beside the Hessian-vector product. Stores into buf are dead, so are the
// values only they use; a fresh allocation aliases nothing, so the
// comparisons of its addresses (reverse mode's aliasing check) are
// false; its length and capacity are n. Then buf itself goes.
func dropScratch(f *ir.Func, buf, n *ir.Value) {
	derived := map[*ir.Value]bool{buf: true}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				if !derived[v] && (v.Op == ir.OpIndexAddr || v.Op == ir.OpSlice) && derived[v.Args[0]] {
					derived[v] = true
					changed = true
				}
			}
		}
	}
	// buf must not escape: its parts are only addressed, loaded, stored
	// into, measured and compared.
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			for i, a := range v.Args {
				if !derived[a] {
					continue
				}
				switch {
				case (v.Op == ir.OpIndexAddr || v.Op == ir.OpSlice) && i == 0,
					v.Op == ir.OpLoad, v.Op == ir.OpStore && i == 0,
					v.Op == ir.OpLen, v.Op == ir.OpCap,
					v.Op == ir.OpBinary && (v.Tok == token.EQL || v.Tok == token.NEQ):
				default:
					return
				}
			}
		}
	}
	boolT := types.Typ[types.Bool]
	replace := map[*ir.Value]*ir.Value{}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			switch {
			case (v.Op == ir.OpLen || v.Op == ir.OpCap) && v.Args[0] == buf:
				replace[v] = n
			case v.Op == ir.OpBinary && (v.Tok == token.EQL || v.Tok == token.NEQ) && (derived[v.Args[0]] || derived[v.Args[1]]):
				replace[v] = f.ConstValue(boolT, constant.MakeBool(v.Tok == token.NEQ))
			}
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			for i, a := range v.Args {
				if r, ok := replace[a]; ok {
					v.Args[i] = r
				}
			}
		}
	}
	// Liveness from the effects other than stores into buf.
	live := map[*ir.Value]bool{}
	var mark func(v *ir.Value)
	mark = func(v *ir.Value) {
		if v == nil || live[v] {
			return
		}
		live[v] = true
		for _, a := range v.Args {
			mark(a)
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if _, ok := replace[v]; ok {
				continue
			}
			dead := v.Op == ir.OpStore && derived[v.Args[0]]

			if !dead && (v.Op.HasEffect() || v.Op == ir.OpPhi && live[v]) {
				mark(v)
			}
		}
	}
	// φs are live when a live value uses them: iterate.
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				if live[v] {
					for _, a := range v.Args {
						if a != nil && !live[a] {
							mark(a)
							changed = true
						}
					}
				}
			}
		}
	}
	// If what is read back from buf matters, its stores do too: keep
	// them all.
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpLoad && derived[v.Args[0]] && live[v] {
				foldConstantBranches(f)
				return
			}
		}
	}
	for _, b := range f.Blocks {
		kept := b.Instrs[:0]
		for _, v := range b.Instrs {
			if _, ok := replace[v]; ok {
				continue
			}
			if live[v] || v.Op.HasEffect() && !(v.Op == ir.OpStore && derived[v.Args[0]]) {
				kept = append(kept, v)
			}
		}
		b.Instrs = kept
	}
	foldConstantBranches(f)
}

// foldConstantBranches turns the branches on constant conditions into
// jumps, and drops the blocks no longer reachable.
func foldConstantBranches(f *ir.Func) {
	for _, b := range f.Blocks {
		t := b.Terminator()
		if t == nil || t.Op != ir.OpIf || t.Args[0].Op != ir.OpConst || t.Args[0].Const == nil {
			continue
		}
		taken, other := b.Succs[0], b.Succs[1]
		if !constant.BoolVal(t.Args[0].Const) {
			taken, other = other, taken
		}
		if taken == other {
			continue
		}
		removeEdge(b, other)
		t.Op, t.Args = ir.OpJump, nil
		b.Succs = []*ir.Block{taken}
	}
	// Drop unreachable blocks (the entry is Blocks[0]).
	reach := map[*ir.Block]bool{}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		if reach[b] {
			return
		}
		reach[b] = true
		for _, s := range b.Succs {
			walk(s)
		}
	}
	walk(f.Blocks[0])
	var kept []*ir.Block
	for _, b := range f.Blocks {
		if reach[b] {
			kept = append(kept, b)
			continue
		}
		for _, s := range b.Succs {
			if reach[s] {
				removeEdge(b, s)
			}
		}
	}
	f.Blocks = kept
	f.Renumber()
}

// removeEdge removes the CFG edge from → to, and to's φ arguments for it.
func removeEdge(from, to *ir.Block) {
	k := to.PredIndex(from)
	if k < 0 {
		return
	}
	to.Preds = append(to.Preds[:k:k], to.Preds[k+1:]...)
	for _, v := range to.Instrs {
		if v.Op == ir.OpPhi && k < len(v.Args) {
			v.Args = append(v.Args[:k:k], v.Args[k+1:]...)
		}
	}
}
