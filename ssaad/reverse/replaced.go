package reverse

// This file keeps the shadows of the caller's memory right when the
// function replaces a slice or pointer in it. A store *p = x of a value
// that holds slices or pointers (l.W = w, with w fresh) stores, in the
// forward sweep, x's shadow at *dp (storeShadow): from then on, the
// adjoints of the new slice accumulate in the new shadow. The gradient of
// the values the memory held before the store goes into the old shadow,
// which the caller holds: its own lBar.W. So the reverse of the store puts
// the old shadow back at *dp, and the caller finds its shadow as it gave
// it, holding the gradient with respect to what its memory held on entry.
// The old shadow comes from a load of *p that replacedShadows adds to the
// primal before the store; the sweeps record or reload it like any other
// value.

import (
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// addReplacedLoads inserts, before every store of a value that holds
// slices or pointers, a load of what the store overwrites, and returns
// the store → load map. Call it before the activity analysis, so that the
// loads get classes; dropReplacedLoads removes those not needed.
func addReplacedLoads(f *ir.Func) map[*ir.Value]*ir.Value {
	out := map[*ir.Value]*ir.Value{}
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			v := b.Instrs[i]
			if v.Op != ir.OpStore || !ssaad.RefersToMemory(v.Args[1].Type) {
				continue
			}
			old := f.NewValue(ir.OpLoad, v.Args[1].Type, v.Args[0])
			old.Pos = v.Pos
			b.Insert(i, old)
			i++
			out[v] = old
		}
	}
	return out
}

// dropReplacedLoads keeps, of the loads addReplacedLoads added, those of
// stores into varied memory the function did not allocate (see
// entryMemory), and removes the others from the primal.
func (t *transformer) dropReplacedLoads(loads map[*ir.Value]*ir.Value) map[*ir.Value]*ir.Value {
	memo := map[*ir.Value]bool{}
	t.replacedLoads = map[*ir.Value]bool{}
	for _, old := range loads {
		t.replacedLoads[old] = true
	}
	for st, old := range loads {
		if t.hasShadow(st.Args[0]) && t.hasShadow(old) && entryMemory(st.Args[0], memo) {
			continue
		}
		delete(loads, st)
		delete(t.replacedLoads, old)
		b := old.Block
		i := indexIn(b, old)
		b.Instrs = append(b.Instrs[:i], b.Instrs[i+1:]...)
	}
	return loads
}

// entryMemory reports whether address, slice or pointer a may refer to
// memory that existed when the function was called (the caller's, or a
// global): it is not derived, by indexing, fields, slicing and
// conversions, from memory the function allocates. Loaded pointers,
// parameters, call results and globals may refer to such memory.
func entryMemory(a *ir.Value, memo map[*ir.Value]bool) bool {
	if r, ok := memo[a]; ok {
		return r
	}
	memo[a] = false // a φ cycle adds nothing
	var r bool
	switch a.Op {
	case ir.OpAlloc, ir.OpMakeSlice, ir.OpConst:
		r = false
	case ir.OpIndexAddr, ir.OpFieldAddr, ir.OpSlice, ir.OpConvert:
		r = entryMemory(a.Args[0], memo)
	case ir.OpPhi:
		for _, x := range a.Args {
			r = r || x != nil && entryMemory(x, memo)
		}
	case ir.OpSelect:
		r = entryMemory(a.Args[1], memo) || entryMemory(a.Args[2], memo)
	default:
		r = true
	}
	memo[a] = r
	return r
}

// restoreReplacedShadow emits, in the reverse of store v, the putting back
// of the shadow v replaced (see the file comment).
func (t *transformer) restoreReplacedShadow(v *ir.Value) {
	old, ok := t.replaced[v]
	if !ok {
		return
	}
	t.storeShadows(t.shadowAt(v.Args[0]), t.shadowAt(old))
}
