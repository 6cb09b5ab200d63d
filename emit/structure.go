package emit

// This file defines the recovery of structured control flow from the
// (folded) CFG, after N. Ramsey, "Beyond Relooper: Recursive Translation of
// Unstructured Control Flow to Structured Control Flow" (ICFP 2022).
//
// Ramsey's translation walks the dominator tree. A node X is emitted as its
// own statements followed, in the same statement list, by the code of its
// merge children (dominator-tree children with two or more forward
// predecessors), in reverse postorder; a branch from X's code is
//
//   - nothing, when its target is what follows the branch anyway (the next
//     merge child, or the end of a loop body: an implicit continue);
//   - continue, to the header of an enclosing loop;
//   - break, to the follow of an enclosing loop;
//   - the inlined code of the target, when the target has this single
//     forward predecessor (so X dominates it);
//
// and anything else is a jump Go cannot express without goto: the caller
// falls back to the goto form.
//
// Go differs from WebAssembly, Ramsey's target, in that a for body loops
// back when control falls off its end, and a plain block cannot be left
// with break. So a loop header H is emitted as
//
//	for { H's code and its merge children inside the loop }
//	follow
//
// where follow is H's dominator-tree child outside the loop (the loop exit
// block), reached from inside with break. A merge node inside the loop that
// only updates loop variables and jumps back (the post block of a
// three-clause loop, where continue statements go) becomes the loop's post
// statement, and branches to it become continue.

import (
	"go/token"

	"github.com/gadgen/gadgen/ir"
)

type structurer struct {
	e        *emitter
	nodes    []*node
	cfg      *ir.CFG // of the folded graph
	fwdPreds []int
	// latch[h] is the post block of loop h; isLatch marks them.
	latch   map[*node]*node
	isLatch map[*node]bool
	failed  bool
	// dupBudget is how many more values may be emitted twice.
	dupBudget int
}

// frame is an enclosing loop during the translation.
type frame struct {
	header *node
	follow *node // nil if the loop has no exit
	// virtualFollow: the follow is what comes after the loop anyway (an
	// enclosing loop's continue target); it is not emitted after the loop.
	virtualFollow bool
	latch         *node
	loop          *sFor
}

// structure returns the function body in structured form, or nil if the
// CFG cannot be structured.
func (e *emitter) structure() *slist {
	if !reducible(e.cfg) {
		return nil
	}
	nodes, cfg := e.buildGraph()
	if !reducible(cfg) {
		return nil
	}
	// Try the most natural translation first: post statements only for
	// loop counters the condition tests, no duplicated code. Then allow
	// any post block (continue statements need one), then duplication.
	for _, try := range []struct {
		anyLatch bool
		budget   int
	}{{false, 0}, {true, 0}, {true, 48}, {true, 256}} {
		s := &structurer{
			e:         e,
			nodes:     nodes,
			cfg:       cfg,
			fwdPreds:  make([]int, len(nodes)),
			latch:     map[*node]*node{},
			isLatch:   map[*node]bool{},
			dupBudget: try.budget,
		}
		for _, n := range nodes {
			for _, ed := range n.succs {
				if !s.isBack(n, ed.to) {
					s.fwdPreds[ed.to.index]++
				}
			}
		}
		s.findLatches(try.anyLatch)
		body := &slist{}
		s.doTree(nodes[0], nil, nil, body)
		if !s.failed {
			return body
		}
	}
	return nil
}

// reducible reports whether every retreating edge of the CFG is a back
// edge (its target dominates its source).
func reducible(cfg *ir.CFG) bool {
	for _, b := range cfg.RPO {
		for _, s := range b.Succs {
			if cfg.Order[s.Index] <= cfg.Order[b.Index] && !cfg.Dominates(s, b) {
				return false
			}
		}
	}
	return true
}

func (s *structurer) block(n *node) *ir.Block { return s.cfg.Func.Blocks[n.index] }

func (s *structurer) isBack(from, to *node) bool {
	return s.cfg.IsBackEdge(s.block(from), s.block(to))
}

func (s *structurer) isMerge(n *node) bool { return s.fwdPreds[n.index] >= 2 }

func (s *structurer) isHeader(n *node) bool { return s.cfg.LoopHeader[n.index] }

func (s *structurer) inLoop(h, n *node) bool { return s.cfg.InLoop(s.block(h), s.block(n)) }

// children returns n's dominator-tree children, in reverse postorder.
func (s *structurer) children(n *node) []*node {
	var cs []*node
	for _, c := range s.cfg.Children[n.index] {
		cs = append(cs, s.nodes[c.Index])
	}
	return cs
}

// findLatches finds the loops whose single back edge comes from a merge
// node that can be the loop's post statement: with all, any such node;
// otherwise only one that steps a counter the loop's condition tests.
func (s *structurer) findLatches(all bool) {
	for _, l := range s.nodes {
		if len(l.succs) != 1 {
			continue
		}
		h := l.succs[0].to
		if h == l || !s.isHeader(h) || !s.isBack(l, h) || !s.isMerge(l) {
			continue
		}
		backs := 0
		for _, n := range s.nodes {
			for _, ed := range n.succs {
				if ed.to == h && s.isBack(n, h) {
					backs++
				}
			}
		}
		post := s.latchPost(l)
		if backs != 1 || post == nil && !s.e.latchEmpty(l.succs[0]) {
			continue
		}
		if !all && (post == nil || h.cond == nil || !s.e.condMentions(h.cond, s.e.stepOf(post))) {
			continue
		}
		s.latch[h] = l
		s.isLatch[l] = true
	}
}

// latchPost returns the post statement for latch l, or nil if l's code
// is empty or is not one simple statement.
func (s *structurer) latchPost(l *node) stmt {
	var out slist
	s.e.blockStmts(l.b, &out)
	out.add(s.e.edgeCopies(l.succs[0].from, l.succs[0].k)...)
	var as *sAssign
	for _, st := range out.stmts {
		switch st := st.(type) {
		case *sAssign:
			if as == nil {
				as = &sAssign{}
			}
			as.dsts = append(as.dsts, st.dsts...)
			as.srcs = append(as.srcs, st.srcs...)
			as.phis = append(as.phis, st.phis...)
		case *sValue:
			if len(out.stmts) != 1 || !s.e.simpleStmt(st.v) {
				return nil
			}
			return st
		}
	}
	if as == nil {
		return nil
	}
	if len(as.dsts) > 1 {
		// The copies of one edge are parallel; one assignment states
		// that, and is a valid post statement.
		return as
	}
	return out.stmts[0]
}

// doTree appends the code of the dominator subtree rooted at x to out;
// fall is the node control reaches when the code falls off its end.
func (s *structurer) doTree(x *node, ctx []*frame, fall *node, out *slist) {
	if !s.isHeader(x) {
		s.nodeWithin(x, s.mergeChildren(x), ctx, fall, out)
		return
	}
	var inside, outMerge, outOther []*node
	for _, c := range s.children(x) {
		switch {
		case s.isLatch[c]:
		case s.inLoop(x, c):
			if s.isMerge(c) {
				inside = append(inside, c)
			}
		case s.isMerge(c):
			outMerge = append(outMerge, c)
		default:
			outOther = append(outOther, c)
		}
	}
	loop := &sFor{header: x.b, body: &slist{}}
	fr := &frame{header: x, latch: s.latch[x], loop: loop}
	switch {
	case len(outMerge) == 1:
		fr.follow = outMerge[0]
	case len(outMerge) == 0 && len(outOther) == 1:
		fr.follow = outOther[0]
	case len(outMerge) == 0 && len(outOther) == 0:
		// The loop exits only to what an enclosing construct handles
		// (return, an outer continue or break). If all exits go to what
		// follows the loop anyway, break out and fall through.
		if t := s.soleExit(x); t != nil && t == fall {
			fr.follow, fr.virtualFollow = t, true
		}
	default:
		s.failed = true
		return
	}
	bodyFall := x
	if fr.latch != nil {
		bodyFall = fr.latch
		loop.post = s.latchPost(fr.latch)
	}
	s.nodeWithin(x, inside, append(ctx, fr), bodyFall, loop.body)
	out.add(loop)
	if fr.follow != nil && !fr.virtualFollow {
		s.doTree(fr.follow, ctx, fall, out)
	}
}

// soleExit returns the single target of the edges leaving loop h, or nil.
func (s *structurer) soleExit(h *node) *node {
	var t *node
	for _, n := range s.nodes {
		if !s.inLoop(h, n) {
			continue
		}
		for _, ed := range n.succs {
			if s.inLoop(h, ed.to) {
				continue
			}
			if t != nil && t != ed.to {
				return nil
			}
			t = ed.to
		}
	}
	return t
}

// mergeChildren returns x's merge children, without loop latches.
func (s *structurer) mergeChildren(x *node) []*node {
	var ys []*node
	for _, c := range s.children(x) {
		if s.isMerge(c) && !s.isLatch[c] {
			ys = append(ys, c)
		}
	}
	return ys
}

// nodeWithin appends x's code followed by the code of the merge nodes ys.
func (s *structurer) nodeWithin(x *node, ys []*node, ctx []*frame, fall *node, out *slist) {
	next := fall
	if len(ys) > 0 {
		next = ys[0]
	}
	s.code(x, ctx, next, out)
	for i, y := range ys {
		nf := fall
		if i+1 < len(ys) {
			nf = ys[i+1]
		}
		s.doTree(y, ctx, nf, out)
	}
}

// code appends x's statements and the translation of its terminator.
func (s *structurer) code(x *node, ctx []*frame, fall *node, out *slist) {
	s.e.blockStmts(x.b, out)
	if sv := suspendAt(x.b); sv != nil {
		// The rest is the continuation's body.
		dropSuspendStmt(out, sv)
		out.add(s.e.edgeCopies(x.succs[0].from, x.succs[0].k)...)
		body := &slist{}
		s.doTree(x.succs[0].to, nil, nil, body)
		out.add(&sSuspend{v: sv, body: body})
		return
	}
	switch len(x.succs) {
	case 0:
		out.add(&sValue{v: x.b.Terminator()})
	case 1:
		s.branch(x, x.succs[0], ctx, fall, out)
	case 2:
		then, els := &slist{}, &slist{}
		s.branch(x, x.succs[0], ctx, fall, then)
		s.branch(x, x.succs[1], ctx, fall, els)
		out.add(&sIf{cond: x.cond, then: then, els: els})
	}
}

// branch appends the translation of edge ed out of node src.
func (s *structurer) branch(src *node, ed edge, ctx []*frame, fall *node, out *slist) {
	if s.failed {
		return
	}
	t := ed.to
	out.add(s.e.edgeCopies(ed.from, ed.k)...)
	if t == fall {
		return
	}
	for i := len(ctx) - 1; i >= 0; i-- {
		fr := ctx[i]
		if t == fr.latch || fr.latch == nil && t == fr.header {
			out.add(&sBranch{tok: token.CONTINUE, loop: fr.loop})
			return
		}
		if t == fr.follow {
			out.add(&sBranch{tok: token.BREAK, loop: fr.loop})
			return
		}
	}
	if !s.isBack(src, t) && s.fwdPreds[t.index] == 1 && s.cfg.Idom[t.index] == s.block(src) {
		s.doTree(t, ctx, fall, out)
		return
	}
	// A jump into the middle of a chain of merge nodes (switch with
	// fallthrough): emit a copy of the target's code here if it is small
	// and has no loops, rather than give up.
	if !s.isBack(src, t) && !s.isHeader(t) {
		if size, ok := s.duplicable(t); ok && size <= s.dupBudget {
			s.dupBudget -= size
			s.doTree(t, ctx, fall, out)
			return
		}
	}
	s.failed = true
}

// duplicable returns the number of values in the dominator subtree of n,
// and whether that subtree is free of loops.
func (s *structurer) duplicable(n *node) (int, bool) {
	size := len(n.b.Instrs)
	if s.isHeader(n) {
		return 0, false
	}
	for _, c := range s.children(n) {
		k, ok := s.duplicable(c)
		if !ok {
			return 0, false
		}
		size += k
	}
	return size, true
}

// blockStmts appends the statements of b's values, without the
// terminator.
func (e *emitter) blockStmts(b *ir.Block, out *slist) {
	for _, v := range b.Instrs {
		if !v.Op.IsTerminator() && e.isStmtRoot(v) {
			out.add(&sValue{v: v})
		}
	}
}

// simpleStmt reports whether the statement of v is an assignment or an
// expression statement that needs no declaration: it may be a for loop's
// post statement.
func (e *emitter) simpleStmt(v *ir.Value) bool {
	switch e.kind[v.ID] {
	case kStmt:
		return v.Op == ir.OpStore || v.Op == ir.OpCall && (v.Type == nil || !isTuple(v.Type))
	case kVar:
		vr := e.vars[v.ID]
		return vr != nil && (len(vr.members) > 1 || vr.predeclared) && v.Op != ir.OpSelect
	}
	return false
}

// latchEmpty reports whether edge ed, out of a latch, carries no copies
// and its block has no statements.
func (e *emitter) latchEmpty(ed edge) bool {
	var out slist
	e.blockStmts(ed.from, &out)
	return out.empty() && len(e.edgeCopies(ed.from, ed.k)) == 0
}
