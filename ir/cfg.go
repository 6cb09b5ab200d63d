package ir

// This file defines control-flow analyses of a Func: reverse postorder,
// dominators (Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
// Algorithm", 2001), back edges and natural loops.

// CFG is an immutable snapshot of control-flow facts about a Func. It is
// invalid once the Func's blocks or edges change.
type CFG struct {
	Func *Func
	// RPO lists the blocks reachable from the entry in reverse postorder.
	RPO []*Block
	// Order[b.Index] is b's position in RPO, or -1 if b is unreachable.
	Order []int
	// Idom[b.Index] is b's immediate dominator (nil for the entry and for
	// unreachable blocks).
	Idom []*Block
	// Children[b.Index] are the blocks b immediately dominates, in RPO.
	Children [][]*Block
	// LoopHeader[b.Index] reports whether b is the target of a back edge
	// (an edge whose target dominates its source).
	LoopHeader []bool
	// Loop[h.Index], for a loop header h, is the set of blocks of h's
	// natural loop (h included), indexed by block index.
	Loop map[int][]bool
}

// NewCFG computes control-flow facts for f. Block indices must match
// positions in f.Blocks (see Func.Renumber).
func NewCFG(f *Func) *CFG {
	n := len(f.Blocks)
	c := &CFG{
		Func:       f,
		Order:      make([]int, n),
		Idom:       make([]*Block, n),
		Children:   make([][]*Block, n),
		LoopHeader: make([]bool, n),
		Loop:       map[int][]bool{},
	}
	for i := range c.Order {
		c.Order[i] = -1
	}
	// Postorder by iterative DFS, successors visited in order.
	visited := make([]bool, n)
	var post []*Block
	type frame struct {
		b *Block
		i int
	}
	stack := []frame{{f.Blocks[0], 0}}
	visited[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(top.b.Succs) {
			s := top.b.Succs[top.i]
			top.i++
			if !visited[s.Index] {
				visited[s.Index] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i := len(post) - 1; i >= 0; i-- {
		c.Order[post[i].Index] = len(c.RPO)
		c.RPO = append(c.RPO, post[i])
	}

	// Dominators.
	entry := f.Blocks[0]
	idom := make([]*Block, n)
	idom[entry.Index] = entry
	intersect := func(a, b *Block) *Block {
		for a != b {
			for c.Order[a.Index] > c.Order[b.Index] {
				a = idom[a.Index]
			}
			for c.Order[b.Index] > c.Order[a.Index] {
				b = idom[b.Index]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, b := range c.RPO[1:] {
			var nd *Block
			for _, p := range b.Preds {
				if c.Order[p.Index] < 0 || idom[p.Index] == nil {
					continue
				}
				if nd == nil {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if idom[b.Index] != nd {
				idom[b.Index] = nd
				changed = true
			}
		}
	}
	for _, b := range c.RPO[1:] {
		c.Idom[b.Index] = idom[b.Index]
		d := idom[b.Index]
		c.Children[d.Index] = append(c.Children[d.Index], b)
	}

	// Back edges and natural loops.
	for _, b := range c.RPO {
		for _, s := range b.Succs {
			if c.Dominates(s, b) {
				c.LoopHeader[s.Index] = true
				body := c.Loop[s.Index]
				if body == nil {
					body = make([]bool, n)
					body[s.Index] = true
					c.Loop[s.Index] = body
				}
				// Everything that reaches b without passing s.
				work := []*Block{b}
				for len(work) > 0 {
					x := work[len(work)-1]
					work = work[:len(work)-1]
					if body[x.Index] {
						continue
					}
					body[x.Index] = true
					for _, p := range x.Preds {
						if c.Order[p.Index] >= 0 {
							work = append(work, p)
						}
					}
				}
			}
		}
	}
	return c
}

// Reachable reports whether b is reachable from the entry.
func (c *CFG) Reachable(b *Block) bool { return c.Order[b.Index] >= 0 }

// Dominates reports whether a dominates b (every block dominates itself).
// Both must be reachable.
func (c *CFG) Dominates(a, b *Block) bool {
	for b != nil {
		if a == b {
			return true
		}
		b = c.Idom[b.Index]
	}
	return false
}

// IsBackEdge reports whether from → to is a back edge.
func (c *CFG) IsBackEdge(from, to *Block) bool {
	return c.Reachable(from) && c.Dominates(to, from)
}

// InAnyLoop reports whether b belongs to a natural loop.
func (c *CFG) InAnyLoop(b *Block) bool {
	for _, body := range c.Loop {
		if body[b.Index] {
			return true
		}
	}
	return false
}

// InLoop reports whether b belongs to the natural loop headed by h.
func (c *CFG) InLoop(h, b *Block) bool {
	body := c.Loop[h.Index]
	return body != nil && body[b.Index]
}
