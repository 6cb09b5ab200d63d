package emit

// This file defines node splitting, which makes an irreducible CFG
// reducible before structuring: a loop with a second entry gets a copy of
// the blocks that entry reaches before the loop's header, and the second
// entry goes to the copy, which ends by entering the loop at its header.
// Reverse mode makes such loops from structured Go: the reverse of a loop
// left from its body by a return or a labeled break of an outer loop
// starts in the middle of that iteration's reverse,
//
//	if part == 1 { reverse of the rest of the iteration that left }
//	for … { reverse of whole iterations }
//
// (Janssen & Corporaal, "Making graphs reducible with controlled node
// splitting", TOPLAS 1997; we split only where the values of the copied
// blocks stay in SSA form without new φs, and the copy is small.)

import (
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// maxSplit bounds the instructions that splitting may copy in a function.
const maxSplit = 400

// splitIrreducible returns fn, or a copy of it made reducible by node
// splitting when fn is irreducible and splitting can make it so within
// maxSplit copied instructions.
func splitIrreducible(fn *ir.Func) *ir.Func {
	fn.Renumber()
	if reducible(ir.NewCFG(fn)) {
		return fn
	}
	c, _ := cloneFunc(fn)
	budget := maxSplit
	for {
		c.Renumber()
		scc, entries := irreducibleRegion(c)
		if scc == nil {
			return c
		}
		if !splitRegion(c, scc, entries, &budget) {
			return fn
		}
	}
}

// irreducibleRegion returns a strongly connected region of f's reachable
// blocks with more than one entry (blocks with a predecessor outside it),
// and its entries in block order; nil if there is none. Regions with one
// entry are searched for nested ones without that entry.
func irreducibleRegion(f *ir.Func) (map[*ir.Block]bool, []*ir.Block) {
	cfg := ir.NewCFG(f)
	all := map[*ir.Block]bool{}
	for _, b := range cfg.RPO {
		all[b] = true
	}
	var search func(set map[*ir.Block]bool) (map[*ir.Block]bool, []*ir.Block)
	search = func(set map[*ir.Block]bool) (map[*ir.Block]bool, []*ir.Block) {
		for _, scc := range sccs(cfg.RPO, set) {
			if len(scc) == 1 {
				continue // a self-loop has one entry
			}
			var entries []*ir.Block
			for _, b := range cfg.RPO {
				if !scc[b] {
					continue
				}
				for _, p := range b.Preds {
					if cfg.Reachable(p) && !scc[p] {
						entries = append(entries, b)
						break
					}
				}
			}
			if len(entries) > 1 {
				return scc, entries
			}
			inner := map[*ir.Block]bool{}
			for b := range scc {
				if b != entries[0] {
					inner[b] = true
				}
			}
			if r, e := search(inner); r != nil {
				return r, e
			}
		}
		return nil, nil
	}
	return search(all)
}

// sccs returns the strongly connected components of the subgraph of the
// blocks in set (Tarjan's algorithm), visiting blocks in the order of rpo.
func sccs(rpo []*ir.Block, set map[*ir.Block]bool) []map[*ir.Block]bool {
	index := map[*ir.Block]int{}
	low := map[*ir.Block]int{}
	onStack := map[*ir.Block]bool{}
	var stack []*ir.Block
	var out []map[*ir.Block]bool
	next := 0
	var visit func(b *ir.Block)
	visit = func(b *ir.Block) {
		index[b], low[b] = next, next
		next++
		stack = append(stack, b)
		onStack[b] = true
		for _, s := range b.Succs {
			if !set[s] {
				continue
			}
			if _, seen := index[s]; !seen {
				visit(s)
				low[b] = min(low[b], low[s])
			} else if onStack[s] {
				low[b] = min(low[b], index[s])
			}
		}
		if low[b] != index[b] {
			return
		}
		comp := map[*ir.Block]bool{}
		for {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[x] = false
			comp[x] = true
			if x == b {
				break
			}
		}
		out = append(out, comp)
	}
	for _, b := range rpo {
		if _, seen := index[b]; !seen && set[b] {
			visit(b)
		}
	}
	return out
}

// splitRegion keeps one entry of scc as its header and copies the blocks
// another entry reaches without passing the header; the outside
// predecessors of the copied blocks go to the copies. Each entry gets a
// copy of its own, so that the copies merge only at the header. It reports false, changing
// nothing, when no choice of header can be split within budget.
func splitRegion(f *ir.Func, scc map[*ir.Block]bool, entries []*ir.Block, budget *int) bool {
	uses := ir.Uses(f)
	var best map[*ir.Block]bool
	bestCost := -1
	for _, h := range entries {
		for _, e := range entries {
			if e == h {
				continue
			}
			r := map[*ir.Block]bool{e: true}
			work := []*ir.Block{e}
			for len(work) > 0 {
				b := work[len(work)-1]
				work = work[:len(work)-1]
				for _, s := range b.Succs {
					if scc[s] && s != h && !r[s] {
						r[s] = true
						work = append(work, s)
					}
				}
			}
			if !splittable(r, scc, uses) {
				continue
			}
			// Prefer the smallest copy, then one that leaves the loop
			// only through the header's side.
			cost := 0
			for b := range r {
				cost += len(b.Instrs)
				for _, s := range b.Succs {
					if !scc[s] {
						cost += 1000
					}
				}
			}
			if bestCost < 0 || cost < bestCost {
				best, bestCost = r, cost
			}
		}
	}
	if best == nil {
		return false
	}
	n := 0
	for b := range best {
		n += len(b.Instrs)
	}
	if n > *budget {
		return false
	}
	*budget -= n
	copyRegion(f, best, scc)
	return true
}

// splittable reports whether the values defined in r are used only in r
// and in φs of blocks out of r on edges from r, so that the copy of r needs
// no new φs, and no block of r has two edges to one block.
func splittable(r, scc map[*ir.Block]bool, uses [][]*ir.Value) bool {
	for b := range r {
		for i, s := range b.Succs {
			if slices.Contains(b.Succs[i+1:], s) {
				return false
			}
		}
		for _, p := range b.Preds {
			if !scc[p] && countOf(p.Succs, b) > 1 {
				return false
			}
		}
		for _, v := range b.Instrs {
			for _, u := range uses[v.ID] {
				if r[u.Block] {
					continue
				}
				if u.Op != ir.OpPhi {
					return false
				}
				for i, a := range u.Args {
					if a == v && !r[u.Block.Preds[i]] {
						return false
					}
				}
			}
		}
	}
	return true
}

func countOf(bs []*ir.Block, b *ir.Block) int {
	n := 0
	for _, x := range bs {
		if x == b {
			n++
		}
	}
	return n
}

// copyRegion copies the blocks of r (a part of scc) and moves the edges
// that enter r from outside scc to the copies.
func copyRegion(f *ir.Func, r, scc map[*ir.Block]bool) {
	var blocks []*ir.Block // r in block order
	for _, b := range f.Blocks {
		if r[b] {
			blocks = append(blocks, b)
		}
	}
	cb := map[*ir.Block]*ir.Block{}
	m := map[*ir.Value]*ir.Value{}
	for _, b := range blocks {
		nb := f.NewBlock(b.Comment)
		cb[b] = nb
		for _, v := range b.Instrs {
			nv := f.NewValue(v.Op, v.Type)
			nv.Name, nv.Pos, nv.Tok, nv.Const, nv.Index = v.Name, v.Pos, v.Tok, v.Const, v.Index
			nv.Callee, nv.Heap, nv.Global, nv.Adjoint = v.Callee, v.Heap, v.Global, v.Adjoint
			nb.Append(nv)
			m[v] = nv
		}
	}
	mapped := func(a *ir.Value) *ir.Value {
		if x, ok := m[a]; ok {
			return x
		}
		return a
	}
	for _, b := range blocks {
		nb := cb[b]
		// Predecessors: the copies of those in r, and those outside scc,
		// which leave b for the copy.
		var keepPreds []*ir.Block
		var keepIdx, copyIdx []int
		for i, p := range b.Preds {
			switch {
			case r[p]:
				nb.Preds = append(nb.Preds, cb[p])
				copyIdx = append(copyIdx, i)
				keepPreds = append(keepPreds, p)
				keepIdx = append(keepIdx, i)
			case !scc[p]:
				nb.Preds = append(nb.Preds, p)
				copyIdx = append(copyIdx, i)
				p.Succs[slices.Index(p.Succs, b)] = nb
			default:
				keepPreds = append(keepPreds, p)
				keepIdx = append(keepIdx, i)
			}
		}
		for k, v := range b.Instrs {
			nv := nb.Instrs[k]
			if v.Op == ir.OpPhi {
				for _, i := range copyIdx {
					nv.Args = append(nv.Args, mapped(v.Args[i]))
				}
				var args []*ir.Value
				for _, i := range keepIdx {
					args = append(args, v.Args[i])
				}
				v.Args = args
				continue
			}
			for _, a := range v.Args {
				nv.Args = append(nv.Args, mapped(a))
			}
		}
		b.Preds = keepPreds
		// Successors: copies in r; blocks out of r get the copy as a
		// predecessor, with the φ arguments of b's edge.
		for _, s := range b.Succs {
			if r[s] {
				nb.Succs = append(nb.Succs, cb[s])
				continue
			}
			nb.Succs = append(nb.Succs, s)
			j := s.PredIndex(b)
			s.Preds = append(s.Preds, nb)
			for _, v := range s.Instrs {
				if v.Op != ir.OpPhi {
					break
				}
				v.Args = append(v.Args, mapped(v.Args[j]))
			}
		}
	}
	f.Renumber()
}
