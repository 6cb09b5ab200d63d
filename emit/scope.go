package emit

// This file defines the placement of variable declarations.
//
// A variable is declared in the innermost statement list that encloses all
// its occurrences. If the first of them in that list is a statement that
// assigns the variable without reading it, that statement declares it
// (:=, or var p T for a local); otherwise "var name T" is inserted just
// before the first occurrence. A value defined inside a loop and used
// after it is the typical case for the latter. Three finishing touches
// happen here because they depend on the declarations:
//
//   - a loop counter declared just before its loop and used only inside
//     moves into the loop's init clause (for i := 0; i < n; i++), and
//     takes back the name it asked for when nothing else of that name
//     occurs in the loop (sibling loops each have their i);
//   - a local declared with var p T and immediately assigned becomes
//     p := v;
//   - a local whose declaration had to be hoisted out of a loop is reset
//     to its zero value where the allocation was (p = T{}), since the IR
//     allocates a fresh, zeroed variable on each execution.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

type pathStep struct {
	l *slist
	i int
}

type occurrence struct {
	path []pathStep
	st   stmt
	def  bool // st assigns the variable
	read bool // st reads the variable
}

// placeDecls sets the define flags, inserts declarations and forms init
// clauses. In the goto form, every variable is declared at the top.
func (e *emitter) placeDecls(body *slist, gotoForm bool) {
	occ := map[*variable][]occurrence{}
	loopBody := map[*slist]bool{}
	e.collectOccurrences(body, nil, loopBody, occ)
	if gotoForm {
		e.declareAtTop(body, occ)
		return
	}
	decls := e.declSites(occ, loopBody)
	initOf := e.initClauses(body, occ)
	e.rebuildLists(body, decls, initOf)
}

// declareAtTop declares every variable at the top of body (the goto
// form), and resets the locals allocated again after that.
func (e *emitter) declareAtTop(body *slist, occ map[*variable][]occurrence) {
	var decls []stmt
	for _, vr := range e.varList {
		if !vr.predeclared && len(occ[vr]) > 0 {
			decls = append(decls, &sDecl{v: vr})
		}
	}
	walkStmts(body, func(st stmt) {
		if sv, ok := st.(*sValue); ok && sv.v.Op == ir.OpAlloc && !sv.v.Heap {
			sv.zero = sv.v.Block != e.fn.Entry() || len(sv.v.Block.Preds) > 0
		}
	})
	body.stmts = append(decls, body.stmts...)
}

// site is a position in a statement list.
type site struct {
	l *slist
	i int
}

// declsAt are the var declarations to insert before positions of lists.
type declsAt map[*slist]map[int][]*variable

// declSites decides where each variable is declared: in the innermost
// list that encloses all its occurrences, by its first statement there
// when that assigns it without reading it (it marks the statement to
// define it, :=), else by a var declaration before that statement, which
// it returns.
func (e *emitter) declSites(occ map[*variable][]occurrence, loopBody map[*slist]bool) declsAt {
	defines := map[stmt][]*variable{} // statements that declare variables
	defSite := map[stmt]site{}
	decls := declsAt{}
	addDecl := func(l *slist, i int, vr *variable) {
		if decls[l] == nil {
			decls[l] = map[int][]*variable{}
		}
		decls[l][i] = append(decls[l][i], vr)
	}
	for _, vr := range e.varList {
		os := occ[vr]
		if vr.predeclared || len(os) == 0 {
			continue
		}
		d := 0
		for {
			next := d + 1
			same := true
			for _, o := range os {
				if len(o.path) <= next || o.path[next].l != os[0].path[next].l {
					same = false
					break
				}
			}
			if !same {
				break
			}
			d = next
		}
		l := os[0].path[d].l
		anchor := os[0].path[d].i
		for _, o := range os {
			anchor = min(anchor, o.path[d].i)
		}
		var defSt stmt
		direct := true
		for _, o := range os {
			if o.path[d].i != anchor {
				continue
			}
			if len(o.path) != d+1 || o.read || !o.def {
				direct = false
				break
			}
			defSt = o.st
		}
		if direct && defSt != nil && e.canDeclare(defSt, vr) {
			defines[defSt] = append(defines[defSt], vr)
			defSite[defSt] = site{l, anchor}
		} else {
			addDecl(l, anchor, vr)
			if vr.alloc != nil {
				// Reset the local where it is allocated, if that may
				// happen more than once after the declaration.
				for _, o := range os {
					if sv, ok := o.st.(*sValue); ok && sv.v == vr.alloc {
						for _, ps := range o.path[d+1:] {
							sv.zero = sv.zero || loopBody[ps.l]
						}
					}
				}
			}
		}
	}
	// A statement assigning several variables declares them only if it
	// declares all of them.
	for st, vrs := range defines {
		all := len(vrs) == len(e.assigned(st))
		switch st := st.(type) {
		case *sValue:
			st.define = all
		case *sAssign:
			st.define = all
		case *sSetBool:
			st.define = all
		}
		if !all {
			s := defSite[st]
			for _, vr := range vrs {
				addDecl(s.l, s.i, vr)
			}
		}
	}
	return decls
}

// initClauses finds the loop counters declared right before their loop
// and used only in it, which move into the loop's init clause (and take
// back the name they asked for, counterName): the statement that declares
// each, and its loop.
func (e *emitter) initClauses(body *slist, occ map[*variable][]occurrence) map[stmt]*sFor {
	// Init clauses: a counter declared right before its loop and used
	// only in it.
	initOf := map[stmt]*sFor{}
	var findInits func(l *slist, depth int)
	findInits = func(l *slist, depth int) {
		for i, st := range l.stmts {
			switch st := st.(type) {
			case *sIf:
				findInits(st.then, depth+1)
				findInits(st.els, depth+1)
			case *sSwitch:
				for _, body := range st.bodies() {
					findInits(body, depth+1)
				}
			case *sSuspend:
				findInits(st.body, depth+1)
			case *sFor:
				findInits(st.body, depth+1)
				if i == 0 || st.post == nil || st.init != nil {
					continue
				}
				as, ok := l.stmts[i-1].(*sAssign)
				if !ok || !as.define || len(as.dsts) != 1 {
					continue
				}
				vr := as.dsts[0]
				if !e.isCounterOf(vr, st.header) || e.stepOf(st.post) != vr {
					continue
				}
				inside := true
				for _, o := range occ[vr] {
					if o.st == as {
						continue
					}
					if len(o.path) <= depth || o.path[depth].l != l || o.path[depth].i != i {
						inside = false
						break
					}
				}
				if inside {
					initOf[as] = st
					e.counterName(vr, l, i, depth, occ)
				}
			}
		}
	}
	findInits(body, 0)
	return initOf
}

// rebuildLists rebuilds body's lists with the declarations, the init
// clauses and the merged stores.
func (e *emitter) rebuildLists(body *slist, decls declsAt, initOf map[stmt]*sFor) {
	mergedAway := map[stmt]bool{}
	var rebuild func(l *slist)
	rebuild = func(l *slist) {
		var out []stmt
		for i := 0; i < len(l.stmts); i++ {
			for _, vr := range decls[l][i] {
				out = append(out, &sDecl{v: vr})
			}
			st := l.stmts[i]
			if mergedAway[st] {
				continue
			}
			switch st := st.(type) {
			case *sIf:
				rebuild(st.then)
				rebuild(st.els)
			case *sSwitch:
				for _, body := range st.bodies() {
					rebuild(body)
				}
			case *sFor:
				rebuild(st.body)
			case *sSuspend:
				rebuild(st.body)
			case *sAssign:
				if f := initOf[st]; f != nil {
					f.init = st
					continue
				}
			case *sValue:
				if st.define && st.merged == nil && e.allocs[st.v] != nil {
					if k := e.firstStore(l, i, decls[l], mergedAway); k > 0 {
						st.merged = l.stmts[k].(*sValue).v
						mergedAway[l.stmts[k]] = true
					}
				}
			}
			out = append(out, st)
		}
		l.stmts = out
	}
	rebuild(body)
}

// canDeclare reports whether statement st, which assigns vr, can declare
// it.
func (e *emitter) canDeclare(st stmt, vr *variable) bool {
	switch st := st.(type) {
	case *sValue:
		return vr.alloc == st.v || e.kind[st.v.ID] == kVar || st.v.Op == ir.OpCall
	case *sAssign, *sSetBool:
		return true
	}
	return false
}

// assigned returns the variables statement st assigns.
func (e *emitter) assigned(st stmt) []*variable {
	var vrs []*variable
	switch st := st.(type) {
	case *sValue:
		if a := e.allocs[st.v]; a != nil && a.v != nil {
			return []*variable{a.v}
		}
		e.stmtDefs(st.v, func(d *ir.Value) { vrs = append(vrs, e.vars[d.ID]) })
	case *sAssign:
		vrs = st.dsts
	case *sSetBool:
		vrs = []*variable{st.dst}
	}
	return vrs
}

// firstStore returns the index of the statement after l.stmts[i], the
// declaration of a local, that stores the local's initial value, if only
// other declarations of locals come between and the store can move up to
// the declaration; else 0.
func (e *emitter) firstStore(l *slist, i int, decls map[int][]*variable, gone map[stmt]bool) int {
	alloc := l.stmts[i].(*sValue).v
	var skipped []*variable
	for k := i + 1; k < len(l.stmts) && len(decls[k]) == 0; k++ {
		if gone[l.stmts[k]] {
			continue
		}
		next, ok := l.stmts[k].(*sValue)
		if !ok {
			return 0
		}
		if a := e.allocs[next.v]; a != nil && next.define {
			skipped = append(skipped, a.v)
			continue
		}
		if !e.mergeable(alloc, next.v) {
			return 0
		}
		ok = true
		e.touches(next.v.Args[1], func(vr *variable) {
			for _, s := range skipped {
				ok = ok && vr != s
			}
		})
		if !ok {
			return 0
		}
		return k
	}
	return 0
}

// mergeable reports whether store s, right after the declaration of local
// alloc, can become the declaration's initial value.
func (e *emitter) mergeable(alloc, s *ir.Value) bool {
	if s.Op != ir.OpStore || s.Args[0] != alloc || e.kind[s.ID] != kStmt {
		return false
	}
	elem := alloc.Type.Underlying().(*types.Pointer).Elem()
	if !types.Identical(s.Args[1].Type, elem) || e.needsVarForm(s.Args[1]) {
		return false
	}
	mentions := false
	e.touches(s.Args[1], func(vr *variable) { mentions = mentions || vr.alloc == alloc })
	return !mentions
}

// collectOccurrences records, for each variable, the statements that
// mention it and their paths from the body.
func (e *emitter) collectOccurrences(l *slist, path []pathStep, loopBody map[*slist]bool, occ map[*variable][]occurrence) {
	for i, st := range l.stmts {
		p := append(path[:len(path):len(path)], pathStep{l, i})
		e.stmtVars(st, func(vr *variable, def bool) {
			if vr == nil {
				return
			}
			os := occ[vr]
			if n := len(os); n > 0 && os[n-1].st == st {
				os[n-1].def = os[n-1].def || def
				os[n-1].read = os[n-1].read || !def
				return
			}
			occ[vr] = append(os, occurrence{path: p, st: st, def: def, read: !def})
		})
		switch st := st.(type) {
		case *sIf:
			e.collectOccurrences(st.then, p, loopBody, occ)
			e.collectOccurrences(st.els, p, loopBody, occ)
		case *sSwitch:
			for _, body := range st.bodies() {
				e.collectOccurrences(body, p, loopBody, occ)
			}
		case *sFor:
			loopBody[st.body] = true
			e.collectOccurrences(st.body, p, loopBody, occ)
		case *sSuspend:
			e.collectOccurrences(st.body, p, loopBody, occ)
		}
	}
}

// stmtVars calls f for each variable statement st (not counting nested
// lists) mentions, with def set when st assigns it.
func (e *emitter) stmtVars(st stmt, f func(vr *variable, def bool)) {
	switch st := st.(type) {
	case *sValue:
		v := st.v
		if a := e.allocs[v]; a != nil {
			f(a.v, true)
			return
		}
		args := v.Args
		if v.Op == ir.OpSelect && e.kind[v.ID] == kVar && e.selectHeld(v) {
			args = nil // rendered as nothing (render.go): the condition is not read
		}
		for _, a := range args {
			e.touches(a, func(vr *variable) { f(vr, false) })
		}
		e.stmtDefs(v, func(d *ir.Value) { f(e.vars[d.ID], true) })
	case *sAssign:
		for _, s := range st.srcs {
			e.touches(s, func(vr *variable) { f(vr, false) })
		}
		for _, d := range st.dsts {
			f(d, true)
		}
	case *sSetBool:
		st.cond.leaves(func(v *ir.Value) { e.touches(v, func(vr *variable) { f(vr, false) }) })
		f(st.dst, true)
	case *sIf:
		st.cond.leaves(func(v *ir.Value) { e.touches(v, func(vr *variable) { f(vr, false) }) })
	case *sSwitch:
		if st.inlineTag {
			for _, a := range st.tag.Args {
				e.touches(a, func(vr *variable) { f(vr, false) })
			}
		} else {
			e.touches(st.tag, func(vr *variable) { f(vr, false) })
		}
	case *sSuspend:
		for _, a := range st.v.Args[:len(e.fn.Suspend.Types)] {
			e.touches(a, func(vr *variable) { f(vr, false) })
		}
	case *sFor:
		st.cond.leaves(func(v *ir.Value) { e.touches(v, func(vr *variable) { f(vr, false) }) })
		if st.init != nil {
			e.stmtVars(st.init, f)
		}
		if st.post != nil {
			e.stmtVars(st.post, f)
		}
	}
}

// touches calls f for each variable that rendering v as an operand
// mentions, locals included.
func (e *emitter) touches(v *ir.Value, f func(*variable)) {
	if v == nil {
		return
	}
	switch e.kind[v.ID] {
	case kVar:
		if c := e.folded[e.vars[v.ID]]; c != nil {
			c.leaves(func(x *ir.Value) { e.touches(x, f) })
			return
		}
		f(e.vars[v.ID])
	case kInline:
		for _, a := range v.Args {
			e.touches(a, f)
		}
	case kAddr:
		switch v.Op {
		case ir.OpAlloc:
			f(e.allocs[v].v)
		case ir.OpGlobal:
		default:
			for _, a := range v.Args {
				e.touches(a, f)
			}
		}
	}
}

// counterName gives vr, a loop counter declared in the init clause of the
// loop at l.stmts[i] (at depth in the statement lists), the name it asked
// for when the namer had to change it (i4 for the fourth i of the
// function): a name a parameter or named result has is left alone, and so
// is one that another variable of the function occurs with inside the
// loop (which vr would shadow there, or which would shadow vr). Others of
// that name outside the loop are other variables in other scopes.
func (e *emitter) counterName(vr *variable, l *slist, i, depth int, occ map[*variable][]occurrence) {
	if vr.hint == "" || vr.name == vr.hint {
		return
	}
	for _, name := range e.params {
		if name == vr.hint {
			return
		}
	}
	for _, r := range e.fn.ResultNames {
		if r == vr.hint {
			return
		}
	}
	for _, other := range e.varList {
		if other == vr || other.name != vr.hint {
			continue
		}
		if other.predeclared {
			return
		}
		for _, o := range occ[other] {
			if len(o.path) > depth && o.path[depth].l == l && o.path[depth].i == i {
				return
			}
		}
	}
	vr.name = vr.hint
}
