package simplify

// This file defines the removal of stores into scratch memory: memory a
// parameter points to that the caller does not read after the call
// (ir.Func.Scratch). Stores into it are dead unless the function reads
// the memory back for some other purpose than storing into it again: a
// chain load, add, store (x[i] += y) into scratch memory is dead as a
// whole.

import "github.com/gadgen/gadgen/ir"

// deadScratchStores removes the stores into scratch memory whose values
// nothing else reads. It reports whether it removed any.
func deadScratchStores(f *ir.Func) bool {
	if f.Scratch == nil {
		return false
	}
	uses := ir.Uses(f)
	changed := false
	for i, p := range f.Params {
		if i >= len(f.Scratch) || !f.Scratch[i] {
			continue
		}
		// The addresses derived from p, its stores and loads; any other
		// use (a call, a φ, a store of the address itself) lets the
		// memory escape: keep everything.
		derived := map[*ir.Value]bool{p: true}
		var stores, loads []*ir.Value
		escapes := false
		work := []*ir.Value{p}
		for len(work) > 0 && !escapes {
			a := work[len(work)-1]
			work = work[:len(work)-1]
			for _, u := range uses[a.ID] {
				switch {
				case u.Op == ir.OpStore && u.Args[0] == a && u.Args[1] != a:
					stores = append(stores, u)
				case u.Op == ir.OpLoad:
					loads = append(loads, u)
				case u.Op == ir.OpLen || u.Op == ir.OpCap || u.Op == ir.OpBinary:
					// Lengths, and comparisons of addresses (the aliasing
					// checks): no access to the memory.
				case (u.Op == ir.OpFieldAddr || u.Op == ir.OpIndexAddr || u.Op == ir.OpSlice) && u.Args[0] == a:
					if !derived[u] {
						derived[u] = true
						work = append(work, u)
					}
				default:
					escapes = true
				}
			}
		}
		if escapes || len(stores) == 0 {
			continue
		}
		// Mark what the function's effects need, counting a store into
		// the scratch memory as needing its address only.
		isStore := map[*ir.Value]bool{}
		for _, s := range stores {
			isStore[s] = true
		}
		live := map[*ir.Value]bool{}
		var mark []*ir.Value
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				if !v.Op.HasEffect() || v.Op == ir.OpCall && isPure(v) {
					continue
				}
				if isStore[v] {
					mark = append(mark, v.Args[0])
					continue
				}
				mark = append(mark, v.Args...)
			}
		}
		for len(mark) > 0 {
			v := mark[len(mark)-1]
			mark = mark[:len(mark)-1]
			if v == nil || v.Block == nil || live[v] {
				continue
			}
			live[v] = true
			mark = append(mark, v.Args...)
		}
		read := false
		for _, l := range loads {
			read = read || live[l]
		}
		if read {
			continue
		}
		for _, s := range stores {
			b := s.Block
			out := b.Instrs[:0]
			for _, v := range b.Instrs {
				if v != s {
					out = append(out, v)
				}
			}
			b.Instrs = out
		}
		changed = true
	}
	return changed
}
