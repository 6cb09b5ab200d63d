package emit

// This file defines the graph the structurer works on: one node per
// reachable block, with short-circuit conditions folded first.
//
// go/ssa compiles "if a && b" to a block that branches on a, and a second
// block, reached only from the first, that computes b and branches to the
// same "false" target. Structuring that CFG directly would leave the shared
// target reachable from inside the "then" arm, a jump Go cannot express.
// So, before structuring, a node B "if a then C else X" whose successor C
// has no statements of its own and ends "if b then Y else X" becomes
// "if a && b then Y else X" (and likewise for ||, and for the negated forms
// that "!(a && b)" produces). The folded graph is handed to ir.NewCFG as a
// skeleton function so that the dominator and loop analyses are the IR's
// own.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// node is a block of the folded graph.
type node struct {
	b     *ir.Block // the block whose statements the node emits
	index int       // index in the skeleton function
	cond  *cond     // the branch condition, for a two-way node
	succs []edge
	dead  bool // folded into its predecessor
}

// edge is a CFG edge: the k-th successor edge of block from (which tells
// which φ arguments flow along it) to node to.
type edge struct {
	from *ir.Block
	k    int
	to   *node
}

// buildGraph returns the nodes of the reachable blocks, in RPO, with
// short-circuit conditions folded, and the CFG of the folded graph.
func (e *emitter) buildGraph() ([]*node, *ir.CFG) {
	nodeOf := map[*ir.Block]*node{}
	var nodes []*node
	for _, b := range e.cfg.RPO {
		n := &node{b: b}
		nodeOf[b] = n
		nodes = append(nodes, n)
	}
	for _, n := range nodes {
		term := n.b.Terminator()
		if term == nil {
			internalf("b%d has no terminator", n.b.Index)
		}
		for k, s := range n.b.Succs {
			n.succs = append(n.succs, edge{from: n.b, k: k, to: nodeOf[s]})
		}
		if term.Op == ir.OpIf {
			n.cond = leaf(term.Args[0])
		}
	}

	preds := func() map[*node]int {
		m := map[*node]int{}
		for _, n := range nodes {
			if !n.dead {
				for _, s := range n.succs {
					m[s.to]++
				}
			}
		}
		return m
	}
	for changed := true; changed; {
		changed = false
		np := preds()
		for _, b := range nodes {
			if b.dead || len(b.succs) != 2 {
				continue
			}
			for side := 0; side < 2; side++ {
				c := b.succs[side].to
				other := b.succs[1-side]
				if c == b || np[c] != 1 || len(c.succs) != 2 || !e.foldable(c) {
					continue
				}
				y, z := c.succs[0], c.succs[1]
				var cnd *cond
				var succs []edge
				switch {
				case side == 0 && z.to == other.to && e.sameCopies(z, other):
					cnd, succs = and(b.cond, c.cond), []edge{y, other}
				case side == 0 && y.to == other.to && e.sameCopies(y, other):
					cnd, succs = and(b.cond, not(c.cond)), []edge{z, other}
				case side == 1 && y.to == other.to && e.sameCopies(y, other):
					cnd, succs = or(b.cond, c.cond), []edge{other, z}
				case side == 1 && z.to == other.to && e.sameCopies(z, other):
					cnd, succs = or(b.cond, not(c.cond)), []edge{other, y}
				default:
					continue
				}
				if succs[0].to == succs[1].to {
					continue
				}
				b.cond, b.succs = cnd, succs
				c.dead = true
				changed = true
				np = preds()
			}
		}
	}

	var live []*node
	for _, n := range nodes {
		if !n.dead {
			n.index = len(live)
			live = append(live, n)
		}
	}
	skel := &ir.Func{Name: e.fn.Name}
	for range live {
		skel.Blocks = append(skel.Blocks, &ir.Block{Index: len(skel.Blocks), Func: skel})
	}
	for _, n := range live {
		for _, s := range n.succs {
			ir.AddEdge(skel.Blocks[n.index], skel.Blocks[s.to.index])
		}
	}
	return live, ir.NewCFG(skel)
}

// foldable reports whether node c only computes its branch condition, so
// that the condition can join its predecessor's.
func (e *emitter) foldable(c *node) bool {
	if c.b == e.fn.Entry() || e.cfg.LoopHeader[c.b.Index] {
		return false
	}
	for _, v := range c.b.Instrs {
		if v.Op == ir.OpPhi && e.live[v.ID] {
			return false
		}
		if !v.Op.IsTerminator() && e.isStmtRoot(v) {
			return false
		}
	}
	return true
}

// sameCopies reports whether edges x and y, to the same block, carry the
// same φ copies.
func (e *emitter) sameCopies(x, y edge) bool {
	jx, jy := succPred(x.from, x.k), succPred(y.from, y.k)
	for _, phi := range e.livePhis(x.to.b) {
		a, b := phi.Args[jx], phi.Args[jy]
		if !e.sameValue(a, b) {
			return false
		}
	}
	return true
}

// sameValue reports whether a and b render the same.
func (e *emitter) sameValue(a, b *ir.Value) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	if e.kind[a.ID] == kVar && e.kind[b.ID] == kVar {
		return e.vars[a.ID] == e.vars[b.ID]
	}
	if a.Op == ir.OpConst && b.Op == ir.OpConst && types.Identical(a.Type, b.Type) {
		if a.Const == nil || b.Const == nil {
			return a.Const == nil && b.Const == nil
		}
		return a.Const.Kind() == b.Const.Kind() && a.Const.Kind() != constant.Unknown &&
			constant.Compare(a.Const, token.EQL, b.Const)
	}
	return false
}
