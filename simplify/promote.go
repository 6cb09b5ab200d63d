package simplify

// This file defines the promotion of read-only aggregates: a local
// variable stored once with a whole value and afterwards only read (go/ssa
// gives one to every struct or array parameter whose fields or elements
// the function reads) is replaced by that value; its loads become
// OpField/OpIndex of the value. A small case of scalar replacement of
// aggregates (Muchnick, Advanced Compiler Design and Implementation,
// §12.2), enough that `p.A` of a parameter p stays `p.A`.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// PromoteReadOnly replaces the loads from local variables that are stored
// exactly once, with their whole value, before any load.
func PromoteReadOnly(f *ir.Func) {
	uses := ir.Uses(f)
	cfg := ir.NewCFG(f)
	pos := map[*ir.Value]int{}
	for _, b := range f.Blocks {
		for i, v := range b.Instrs {
			pos[v] = i
		}
	}
	dominates := func(a, b *ir.Value) bool {
		if a.Block == b.Block {
			return pos[a] < pos[b]
		}
		return cfg.Reachable(b.Block) && cfg.Dominates(a.Block, b.Block)
	}
	for _, b := range f.Blocks {
		for _, a := range b.Instrs {
			if a.Op != ir.OpAlloc || a.Heap {
				continue
			}
			var store *ir.Value
			var loads []*ir.Value
			ok := true
			var walk func(addr *ir.Value)
			walk = func(addr *ir.Value) {
				for _, u := range uses[addr.ID] {
					switch {
					case u.Op == ir.OpLoad:
						loads = append(loads, u)
					case u.Op == ir.OpStore && u.Args[0] == addr && addr == a && u.Args[1] != addr && store == nil:
						store = u
					case u.Op == ir.OpFieldAddr && u.Args[0] == addr:
						walk(u)
					case u.Op == ir.OpIndexAddr && u.Args[0] == addr && ir.IsArrayPointer(addr.Type):
						walk(u)
					default:
						ok = false
					}
				}
			}
			walk(a)
			if !ok || store == nil {
				continue
			}
			for _, l := range loads {
				if !dominates(store, l) {
					ok = false
				}
			}
			if !ok {
				continue
			}
			val := store.Args[1]
			for _, l := range loads {
				promoteLoad(l, a, val)
			}
			removeValue(store)
		}
	}
	DeadCode(f)
}

// promoteLoad turns load l, whose address is a or derived from a through
// FieldAddr and IndexAddr, into Field and Index values of val, the
// variable's value, inserted before l; l becomes a copy of the result.
func promoteLoad(l, a, val *ir.Value) {
	var chain []*ir.Value // addresses from a (exclusive) to l's address
	for addr := l.Args[0]; addr != a; addr = addr.Args[0] {
		chain = append(chain, addr)
	}
	b := l.Block
	at := indexOf(b, l)
	cur := val
	for i := len(chain) - 1; i >= 0; i-- {
		addr := chain[i]
		var nv *ir.Value
		elem := addr.Type.Underlying().(*types.Pointer).Elem()
		if addr.Op == ir.OpFieldAddr {
			nv = b.Func.NewValue(ir.OpField, elem, cur)
			nv.Index = addr.Index
		} else {
			nv = b.Func.NewValue(ir.OpIndex, elem, cur, addr.Args[1])
		}
		nv.Pos = addr.Pos
		if i == 0 {
			// The last step is the load itself.
			l.Op, l.Args, l.Index = nv.Op, nv.Args, nv.Index
			return
		}
		b.Insert(at, nv)
		at++
		cur = nv
	}
	// The whole variable: the load is the value itself.
	replaceUses(b.Func, l, val)
}

func indexOf(b *ir.Block, v *ir.Value) int {
	for i, x := range b.Instrs {
		if x == v {
			return i
		}
	}
	return -1
}

// replaceUses makes every use of old use new instead.
func replaceUses(f *ir.Func, old, new *ir.Value) {
	ir.ReplaceUses(f, old, new)
	if new.Name == "" {
		new.Name = old.Name
	}
}

// removeValue removes v from its block.
func removeValue(v *ir.Value) {
	b := v.Block
	if i := indexOf(b, v); i >= 0 {
		b.Instrs = append(b.Instrs[:i], b.Instrs[i+1:]...)
	}
	v.Block = nil
}
