package emit

// This file defines the recovery of composite literals, a rewrite of the
// IR that runs before the analyses, on a private copy of the function.
// Three shapes build a composite value in memory:
//
//	t = alloc T; *(&t.X) = a; *(&t.Y) = b; v = *t      (go/ssa: T{X: a, Y: b}, [2]U{a, b})
//	t = new [2]T; *(&t[0]) = a; *(&t[1]) = b; s = t[:] (go/ssa: []T{a, b})
//	s = make([]T, 2); s[0] = a; s[1] = b               (forward mode: the arguments of a variadic call)
//
// The first two become a literal when the allocation's only uses are
// stores of distinct fields or elements (at constant indices), each
// through its own address, and one load of the whole value (or slice of
// the whole array, whose last element must be stored since it sets the
// slice's length), all in one block, the stores first. The third becomes
// a literal when its constant length n is matched by exactly n stores at
// the indices 0..n-1 in the make's block, with no other use of the slice
// before the last of them. The load (the slice, the last store) becomes a
// literal value whose operands are the stored values in the order they
// were stored, and the allocation and the stores go away.
//
// Building the value later than its parts were stored is invisible: no one
// else can see the memory before it is read. The stored values stay where
// they were computed; the inlining rules (analyze.go) then decide whether
// they move into the literal, which they do unless that would change the
// order of effects.
//
// The literal is a value of opLiteral, an operation only this package
// knows, on its own copy of the function: the caller's function is never
// changed.

import (
	"go/constant"
	"go/types"
	"sort"

	"github.com/gadgen/gadgen/ir"
)

// opLiteral is the emitter's composite literal T{k1: Args[0], k2:
// Args[1], ...}: Type is a struct, array or slice type, and literal.keys
// gives the field number or element index of each argument.
const opLiteral = ir.Op(^uint8(0))

// literal describes an opLiteral value.
type literal struct {
	keys []int
}

// litStore is one store of a literal's field or element.
type litStore struct {
	addr, store *ir.Value
	key         int
}

// litPlan is a literal to form: the value that becomes the literal (the
// load, or the make of a slice), what it is built from, and where it
// goes.
type litPlan struct {
	v      *ir.Value // load or make
	alloc  *ir.Value // nil for a slice
	stores []litStore
	at     *ir.Value // the literal takes this value's place
}

// lowerLiterals returns fn, or a copy of it with the composite literals
// formed, and the literals' descriptions.
func lowerLiterals(fn *ir.Func, pkgPath string) (*ir.Func, map[*ir.Value]*literal) {
	fn.Renumber()
	cfg := ir.NewCFG(fn)
	uses := ir.Uses(fn)
	var plans []*litPlan
	for _, b := range cfg.RPO {
		for _, v := range b.Instrs {
			var p *litPlan
			switch v.Op {
			case ir.OpAlloc:
				p = memLiteral(v, uses, cfg, pkgPath)
			case ir.OpMakeSlice:
				p = sliceLiteral(v, uses, cfg)
			}
			if p != nil {
				plans = append(plans, p)
			}
		}
	}
	if len(plans) == 0 {
		return fn, nil
	}
	c, m := cloneFunc(fn)
	lits := map[*ir.Value]*literal{}
	gone := map[*ir.Value]bool{}
	place := map[*ir.Value]*ir.Value{} // value replaced by a literal → the literal
	for _, p := range plans {
		lv := m[p.v]
		lit := &literal{}
		var args []*ir.Value
		for _, s := range p.stores {
			args = append(args, m[s.store.Args[1]])
			lit.keys = append(lit.keys, s.key)
			gone[m[s.addr]], gone[m[s.store]] = true, true
		}
		if p.alloc != nil {
			gone[m[p.alloc]] = true
			if lv.Name == "" {
				lv.Name = p.alloc.Name
			}
			if p.v.Op == ir.OpLoad {
				lv.Type = p.alloc.Type.Underlying().(*types.Pointer).Elem()
			}
		}
		lv.Op, lv.Args = opLiteral, args
		lits[lv] = lit
		if p.at != p.v {
			gone[lv] = true
			place[m[p.at]] = lv
		}
	}
	for _, b := range c.Blocks {
		var out []*ir.Value
		for _, v := range b.Instrs {
			if lv := place[v]; lv != nil {
				lv.Block = b
				out = append(out, lv)
			} else if !gone[v] {
				out = append(out, v)
			}
		}
		b.Instrs = out
	}
	return c, lits
}

// memLiteral returns the plan for alloc a, or nil if a is not a composite
// literal's memory.
func memLiteral(a *ir.Value, uses [][]*ir.Value, cfg *ir.CFG, pkgPath string) *litPlan {
	elem := a.Type.Underlying().(*types.Pointer).Elem()
	p := &litPlan{alloc: a}
	switch t := elem.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if f := t.Field(i); !f.Exported() && (f.Pkg() == nil || f.Pkg().Path() != pkgPath) {
				return nil // the literal cannot name the field here
			}
		}
	case *types.Array:
	default:
		return nil
	}
	seen := map[int]bool{}
	for _, u := range uses[a.ID] {
		switch {
		case u.Op == ir.OpLoad && p.v == nil:
			p.v = u
		case u.Op == ir.OpSlice && p.v == nil && wholeSlice(u):
			p.v = u // a[:], go/ssa's slice literal
		case u.Op == ir.OpFieldAddr && u.Args[0] == a, u.Op == ir.OpIndexAddr && u.Args[0] == a:
			key := u.Index
			if st, ok := elem.Underlying().(*types.Struct); ok && u.Op == ir.OpFieldAddr && st.Field(key).Name() == "_" {
				return nil // a literal cannot name a blank field
			}
			if u.Op == ir.OpIndexAddr {
				k, ok := constIndex(u.Args[1])
				if !ok {
					return nil
				}
				key = k
			}
			s := soleStore(u, uses)
			if s == nil || seen[key] {
				return nil
			}
			seen[key] = true
			p.stores = append(p.stores, litStore{addr: u, store: s, key: key})
		default:
			return nil
		}
	}
	if p.v == nil || !cfg.Reachable(p.v.Block) {
		return nil
	}
	if arr, ok := elem.Underlying().(*types.Array); ok && p.v.Op == ir.OpSlice && !seen[int(arr.Len())-1] {
		return nil // a slice literal's length is its last index + 1
	}
	p.at = p.v
	if !storesFirst(p, p.v.Block, p.v) {
		return nil
	}
	return p
}

// sliceLiteral returns the plan for make m, or nil if m is not filled
// as a slice literal.
func sliceLiteral(m *ir.Value, uses [][]*ir.Value, cfg *ir.CFG) *litPlan {
	n, ok := constIndex(m.Args[0])
	if !ok || n < 1 {
		return nil
	}
	if len(m.Args) > 1 && m.Args[1] != nil {
		if k, ok := constIndex(m.Args[1]); !ok || k != n {
			return nil
		}
	}
	p := &litPlan{v: m}
	seen := map[int]bool{}
	var others []*ir.Value
	for _, u := range uses[m.ID] {
		if u.Op == ir.OpIndexAddr && u.Args[0] == m && len(p.stores) < n && u.Block == m.Block {
			if k, ok := constIndex(u.Args[1]); ok && k < n && !seen[k] {
				if s := soleStore(u, uses); s != nil && s.Block == m.Block && s.Args[1] != m {
					seen[k] = true
					p.stores = append(p.stores, litStore{addr: u, store: s, key: k})
					continue
				}
			}
		}
		others = append(others, u)
	}
	if len(p.stores) != n {
		return nil
	}
	sort.Slice(p.stores, func(i, j int) bool { return index(p.stores[i].store) < index(p.stores[j].store) })
	last := p.stores[n-1].store
	p.at = last
	// Nothing else may use the slice before it is complete.
	for _, u := range others {
		if !cfg.Reachable(u.Block) {
			return nil
		}
		if u.Block == m.Block && u.Op != ir.OpPhi && index(u) < index(last) {
			return nil
		}
	}
	return p
}

// wholeSlice reports whether slice operation v is x[:].
func wholeSlice(v *ir.Value) bool {
	for _, a := range v.Args[1:] {
		if a != nil {
			return false
		}
	}
	return true
}

// storesFirst reports whether all stores of p are in block b before value
// at, and sorts them in block order.
func storesFirst(p *litPlan, b *ir.Block, at *ir.Value) bool {
	for _, s := range p.stores {
		if s.store.Block != b || index(s.store) > index(at) {
			return false
		}
	}
	sort.Slice(p.stores, func(i, j int) bool { return index(p.stores[i].store) < index(p.stores[j].store) })
	return true
}

// soleStore returns the store through address u if that is u's only use.
func soleStore(u *ir.Value, uses [][]*ir.Value) *ir.Value {
	us := uses[u.ID]
	if len(us) != 1 || us[0].Op != ir.OpStore || us[0].Args[0] != u || us[0].Args[1] == u {
		return nil
	}
	return us[0]
}

// constIndex returns the value of an integer constant.
func constIndex(v *ir.Value) (int, bool) {
	if v == nil || v.Op != ir.OpConst || v.Const == nil || v.Const.Kind() != constant.Int {
		return 0, false
	}
	k, ok := constant.Int64Val(v.Const)
	if !ok || k < 0 || k > 1<<20 {
		return 0, false
	}
	return int(k), true
}

// index returns the position of v in its block.
func index(v *ir.Value) int {
	for i, w := range v.Block.Instrs {
		if w == v {
			return i
		}
	}
	internalf("%s is not in its block", v.LongString(nil))
	return -1
}

// cloneFunc returns a copy of fn whose values are created in the order of
// fn's value IDs (so that anything ordered by ID keeps its order), and
// the map from fn's values to the copy's. It copies every field of
// ir.Func, ir.Block and ir.Value (TestCloneFields notices new ones).
func cloneFunc(fn *ir.Func) (*ir.Func, map[*ir.Value]*ir.Value) {
	c := ir.NewFunc(fn.Name, fn.Pkg)
	c.Recv, c.Variadic, c.Doc, c.Pos, c.Scratch, c.Suspend = fn.Recv, fn.Variadic, fn.Doc, fn.Pos, fn.Scratch, fn.Suspend
	c.Lanes, c.ResultLanes = fn.Lanes, fn.ResultLanes
	c.ResultNames = append([]string(nil), fn.ResultNames...)
	c.ResultTypes = append([]types.Type(nil), fn.ResultTypes...)
	blocks := map[*ir.Block]*ir.Block{}
	for _, b := range fn.Blocks {
		blocks[b] = c.NewBlock(b.Comment)
	}
	for _, b := range fn.Blocks {
		nb := blocks[b]
		for _, p := range b.Preds {
			nb.Preds = append(nb.Preds, blocks[p])
		}
		for _, s := range b.Succs {
			nb.Succs = append(nb.Succs, blocks[s])
		}
	}
	var all []*ir.Value
	seen := map[*ir.Value]bool{}
	add := func(v *ir.Value) {
		if v != nil && !seen[v] {
			seen[v] = true
			all = append(all, v)
		}
	}
	for _, p := range fn.Params {
		add(p)
	}
	for _, b := range fn.Blocks {
		for _, v := range b.Instrs {
			add(v)
			for _, a := range v.Args {
				add(a)
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	m := map[*ir.Value]*ir.Value{}
	for _, v := range all {
		nv := c.NewValue(v.Op, v.Type)
		nv.Name, nv.Pos, nv.Tok, nv.Const, nv.Index = v.Name, v.Pos, v.Tok, v.Const, v.Index
		nv.Callee, nv.Heap, nv.Global, nv.Adjoint = v.Callee, v.Heap, v.Global, v.Adjoint
		m[v] = nv
	}
	for _, v := range all {
		nv := m[v]
		for _, a := range v.Args {
			nv.Args = append(nv.Args, m[a]) // m[nil] is nil
		}
	}
	for _, p := range fn.Params {
		c.Params = append(c.Params, m[p])
	}
	for _, b := range fn.Blocks {
		nb := blocks[b]
		for _, v := range b.Instrs {
			nb.Append(m[v])
		}
	}
	return c, m
}
