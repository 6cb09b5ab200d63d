package taylor

// This file defines the removal of trivial φ-nodes from the functions
// this package builds: a φ whose arguments are all one value v (or the φ
// itself) is v. Differentiation makes them (the tangent of a loop-carried
// value that only changes by constants, a coefficient that stays zero),
// and emitted as variables they would read as self-assignments.

import (
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
