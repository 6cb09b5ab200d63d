package taylor

// This file defines the removal of trivial φ-nodes from the functions
// this package builds: a φ whose arguments are all one value v (or the φ
// itself) is v. Differentiation makes them (the tangent of a loop-carried
// value that only changes by constants, a coefficient that stays zero),
// and emitted as variables they would read as self-assignments.

import (
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
