package emit

// This file defines the clean-ups of the statement tree after
// structuring, which turn the literal translation into the Go a person
// writes:
//
//	for { if c {B} else {break} }   =>  for c {B}
//	for c { B; i++ }                =>  for ; c; i++ {B}   (no continue in B)
//	if c {} else {E}                =>  if !(c) {E}
//	if c {...; return} else {E}     =>  if c {...; return}; E
//	for ... { ...; if !(c) {E} }    =>  for ... { ...; if c {continue}; E }
//	t := a && b; return t           =>  return a && b   (boolfold.go)
//
// Conditions are negated only with !, never by flipping a comparison
// (NaN). The init clause (for i := 0; ...) is formed later, with the
// declarations (scope.go).

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"github.com/gadgen/gadgen/ir"
)

func (e *emitter) simplify(l *slist) {
	e.simplifyList(l)
	// The return at the end of a function without results is implicit.
	if st, ok := l.last().(*sValue); ok && st.v.Op == ir.OpReturn && len(st.v.Args) == 0 {
		l.stmts = l.stmts[:len(l.stmts)-1]
	}
	if st, ok := l.last().(*sSuspend); ok {
		// So is the one at the end of a continuation without results.
		if r, ok := st.body.last().(*sValue); ok && r.v.Op == ir.OpReturn && len(r.v.Args) == 0 {
			st.body.stmts = st.body.stmts[:len(st.body.stmts)-1]
		}
	}
	e.foldBools(l)
	e.dropUnread(l)
}

// dropUnread removes the definitions of variables that no statement reads
// any more, until none is left: simplification removes statements (an if
// whose arms both came out empty, say) and with them the last read of a
// value the IR kept for them, such as the path index of a branch of the
// reverse sweep that decides nothing. Only values without effects go (an
// index that might panic is no effect to the IR either); φ copies into such
// variables go too, and calls assign such results to _.
func (e *emitter) dropUnread(body *slist) {
	for {
		reads := map[*variable]bool{}
		walkStmts(body, func(st stmt) {
			e.stmtVars(st, func(vr *variable, def bool) {
				if !def {
					reads[vr] = true
				}
			})
		})
		dead := func(vr *variable) bool {
			return vr != nil && !vr.predeclared && vr.alloc == nil && !reads[vr] && e.folded[vr] == nil
		}
		if !e.pruneUnread(body, dead) {
			return
		}
	}
}

// pruneUnread removes from l and its nested lists the definitions of the
// variables dead reports, and reports whether it changed anything.
func (e *emitter) pruneUnread(l *slist, dead func(*variable) bool) bool {
	changed := false
	out := l.stmts[:0]
	for _, st := range l.stmts {
		switch st := st.(type) {
		case *sValue:
			v := st.v
			if e.kind[v.ID] == kVar && !v.Op.HasEffect() && e.allocs[v] == nil && dead(e.vars[v.ID]) {
				changed = true
				continue
			}
			if e.kind[v.ID] == kVar && v.Op == ir.OpCall && !isTuple(v.Type) && dead(e.vars[v.ID]) {
				// A call kept for its effects whose result nothing reads
				// any more: a call statement.
				e.kind[v.ID] = kStmt
				changed = true
			}
			for _, x := range e.extract[v] {
				if vr := e.vars[x.ID]; dead(vr) && !e.unread[vr] {
					e.unread[vr] = true
					changed = true
				}
			}
		case *sAssign:
			k := 0
			for i, d := range st.dsts {
				if dead(d) {
					changed = true
					continue
				}
				st.dsts[k], st.srcs[k], st.phis[k] = d, st.srcs[i], st.phis[i]
				k++
			}
			st.dsts, st.srcs, st.phis = st.dsts[:k], st.srcs[:k], st.phis[:k]
			if k == 0 {
				continue
			}
		case *sIf:
			changed = e.pruneUnread(st.then, dead) || changed
			changed = e.pruneUnread(st.els, dead) || changed
		case *sSwitch:
			for _, b := range st.bodies() {
				changed = e.pruneUnread(b, dead) || changed
			}
		case *sFor:
			changed = e.pruneUnread(st.body, dead) || changed
		case *sSuspend:
			changed = e.pruneUnread(st.body, dead) || changed
		}
		out = append(out, st)
	}
	clear(l.stmts[len(out):])
	l.stmts = out
	return changed
}

// simplifyList simplifies the statements of l and, recursively, their
// children.
func (e *emitter) simplifyList(l *slist) {
	var out []stmt
	for _, st := range l.stmts {
		switch st := st.(type) {
		case *sIf:
			if sw := e.recoverSwitch(st); sw != nil {
				for _, body := range sw.bodies() {
					e.simplifyList(body)
				}
				out = append(out, sw)
				// As with if: no default clause after cases that all
				// leave (return, break, continue).
				if sw.dflt != nil && e.allTerminate(sw.cases) {
					out = append(out, sw.dflt.stmts...)
					sw.dflt = nil
				}
				continue
			}
			e.simplifyList(st.then)
			e.simplifyList(st.els)
			out = append(out, e.simplifyIf(st)...)
		case *sFor:
			after := e.simplifyFor(st)
			out = append(out, st)
			out = append(out, after...)
		case *sSuspend:
			e.simplifyList(st.body)
			out = append(out, st)
		default:
			out = append(out, st)
		}
	}
	l.stmts = e.guardsFirst(out)
}

// guardsFirst turns a check whose failure panics at the end of a list,
//
//	if ok { body }; panic(…)   =>   if !ok { panic(…) }; body; [panic(…)]
//
// so that a source's guard (if bad { panic(…) }, its conditions joined by
// || and lowered to nested tests) reads as written instead of nesting the
// whole body; repeated for the ifs that end the body. The panic is
// repeated after the body when the body can fall through to it.
func (e *emitter) guardsFirst(out []stmt) []stmt {
	for {
		n := len(out)
		if n < 2 {
			return out
		}
		tail, ok := out[n-1].(*sValue)
		if !ok || tail.v.Op != ir.OpPanic {
			return out
		}
		st, ok := out[n-2].(*sIf)
		if !ok || !st.els.empty() || st.then.empty() {
			return out
		}
		guard := &sIf{cond: not(st.cond), then: &slist{stmts: []stmt{tail}}, els: &slist{}}
		next := append(out[:n-2:n-2], guard)
		next = append(next, st.then.stmts...)
		if !e.terminates(st.then) {
			again := *tail
			next = append(next, &again)
		}
		out = next
	}
}

// sameAssigns reports whether a and b are the same φ copies: assignments
// of the same variables from operands that render alike.
func (e *emitter) sameAssigns(a, b *slist) bool {
	if len(a.stmts) != len(b.stmts) {
		return false
	}
	for i, x := range a.stmts {
		as, ok1 := x.(*sAssign)
		bs, ok2 := b.stmts[i].(*sAssign)
		if !ok1 || !ok2 || len(as.dsts) != len(bs.dsts) || as.define || bs.define {
			return false
		}
		for k := range as.dsts {
			if as.dsts[k] != bs.dsts[k] || !e.sameValue(as.srcs[k], bs.srcs[k]) {
				return false
			}
		}
	}
	return true
}

// simplifyIf returns the statements that replace st.
func (e *emitter) simplifyIf(st *sIf) []stmt {
	if set := e.boolValue(st); set != nil {
		return []stmt{set}
	}
	switch {
	case st.then.empty() && st.els.empty():
		if e.condHasCall(st.cond) {
			return []stmt{st}
		}
		return nil
	case st.then.empty():
		st.cond = not(st.cond)
		st.then, st.els = st.els, st.then
	case e.sameAssigns(st.then, st.els) && !e.condHasCall(st.cond):
		// if c {x = y} else {x = y}: the φ copies of both edges read
		// the same variables.
		return st.then.stmts
	}
	if !st.els.empty() && e.terminates(st.then) {
		rest := st.els.stmts
		st.els = &slist{}
		return append([]stmt{st}, rest...)
	}
	// else { if c {...; return}; rest }  =>  else if c {...; return} else {rest}
	if len(st.els.stmts) > 1 {
		if inner, ok := st.els.stmts[0].(*sIf); ok && inner.els.empty() && e.terminates(inner.then) {
			inner.els = &slist{stmts: st.els.stmts[1:]}
			st.els = &slist{stmts: []stmt{inner}}
		}
	}
	return []stmt{st}
}

// boolValue recognizes a boolean computed with branches,
//
//	if c { v = true } else { v = x }   =>  v = c || x
//	if c { v = false } else { v = x }  =>  v = !c && x
//	if c { v = x } else { v = false }  =>  v = c && x
//	if c { v = x } else { v = true }   =>  v = !c || x
//
// where x is a value or, recursively, such a condition. x is evaluated
// only when c does not decide, as before.
func (e *emitter) boolValue(st *sIf) stmt {
	arm := func(l *slist) (*variable, *cond, bool) {
		if len(l.stmts) != 1 {
			return nil, nil, false
		}
		switch a := l.stmts[0].(type) {
		case *sAssign:
			if len(a.dsts) == 1 {
				return a.dsts[0], leaf(a.srcs[0]), true
			}
		case *sSetBool:
			return a.dst, a.cond, true
		}
		return nil, nil, false
	}
	v1, x1, ok1 := arm(st.then)
	v2, x2, ok2 := arm(st.els)
	if !ok1 || !ok2 || v1 != v2 {
		return nil
	}
	if b, ok := v1.typ.Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil
	}
	isConst := func(x *cond, val bool) bool {
		return x.op == token.ILLEGAL && x.v.Op == ir.OpConst && x.v.Const != nil && x.v.Const.Kind() == constant.Bool &&
			constant.BoolVal(x.v.Const) == val
	}
	c := st.cond
	var r *cond
	switch {
	case isConst(x1, true):
		r = or(c, x2)
	case isConst(x1, false):
		r = and(not(c), x2)
	case isConst(x2, false):
		r = and(c, x1)
	case isConst(x2, true):
		r = or(not(c), x1)
	default:
		return nil
	}
	return &sSetBool{dst: v1, cond: r}
}

// simplifyFor recovers the loop's condition and post statement. It
// returns statements to put after the loop.
func (e *emitter) simplifyFor(f *sFor) (after []stmt) {
	body := f.body
	if f.cond == nil && len(body.stmts) > 0 {
		if first, ok := body.stmts[0].(*sIf); ok {
			if c, inside, exit, ok := e.loopTest(f, first, body.stmts[1:]); ok {
				f.cond, body.stmts, after = c, inside, exit
			}
		}
	}
	e.simplifyList(body)
	if f.post == nil && f.cond != nil && len(body.stmts) > 0 {
		if vr := e.stepOf(body.last()); vr != nil && e.isCounterOf(vr, f.header) && e.condMentions(f.cond, vr) &&
			!hasBranch(body, f, token.CONTINUE) {
			f.post = body.last()
			body.stmts = body.stmts[:len(body.stmts)-1]
		}
	}
	// A trailing "if !(c) {E}" reads better as "if c {continue}; E".
	if last, ok := body.last().(*sIf); ok && last.cond.op == token.NOT && e.needsParens(last.cond.x) &&
		last.els.empty() && !last.then.empty() && !e.terminates(last.then) {
		rest := last.then.stmts
		last.cond = last.cond.x
		last.then = &slist{stmts: []stmt{&sBranch{tok: token.CONTINUE, loop: f}}}
		body.stmts = append(body.stmts, rest...)
	}
	// A continue at the end of the body is implicit.
	if b, ok := body.last().(*sBranch); ok && b.tok == token.CONTINUE && b.loop == f {
		body.stmts = body.stmts[:len(body.stmts)-1]
	}
	return after
}

// loopTest reports whether "if test {...} else {...}; rest", at the top
// of loop f's body, is the loop's condition: one arm leaves the loop. It
// returns the condition, the new body, and the statements to put after
// the loop (none when the leaving arm is a plain break).
func (e *emitter) loopTest(f *sFor, test *sIf, rest []stmt) (c *cond, inside, after []stmt, ok bool) {
	leaves := func(arm *slist, other []stmt) ([]stmt, bool) {
		if isBreakOf(arm, f) {
			return nil, true
		}
		// Any other arm that leaves (continue outer, return...) moves
		// after the loop, if nothing else breaks out of the loop.
		if arm.empty() || !e.terminates(arm) || hasBranch(arm, f, token.BREAK) || hasBranch(arm, f, token.CONTINUE) {
			return nil, false
		}
		l := &slist{stmts: other}
		if hasBranch(l, f, token.BREAK) {
			return nil, false
		}
		return arm.stmts, true
	}
	thenRest := append(append([]stmt{}, test.then.stmts...), rest...)
	if after, ok := leaves(test.els, thenRest); ok {
		return test.cond, thenRest, after, true
	}
	elsRest := append(append([]stmt{}, test.els.stmts...), rest...)
	if after, ok := leaves(test.then, elsRest); ok {
		return not(test.cond), elsRest, after, true
	}
	return nil, nil, nil, false
}

func isBreakOf(l *slist, f *sFor) bool {
	if len(l.stmts) != 1 {
		return false
	}
	b, ok := l.stmts[0].(*sBranch)
	return ok && b.tok == token.BREAK && b.loop == f
}

// stepOf returns the variable st updates by ± an integer constant, or nil.
func (e *emitter) stepOf(st stmt) *variable {
	switch st := st.(type) {
	case *sAssign:
		if st != nil && len(st.dsts) == 1 && e.kind[st.srcs[0].ID] == kInline && e.isStep(st.srcs[0], st.dsts[0]) {
			return st.dsts[0]
		}
	case *sValue:
		if st == nil {
			return nil
		}
		if vr := e.vars[st.v.ID]; vr != nil && e.kind[st.v.ID] == kVar && e.isStep(st.v, vr) {
			return vr
		}
	}
	return nil
}

// isCounterOf reports whether vr holds a loop counter of loop header h.
func (e *emitter) isCounterOf(vr *variable, h *ir.Block) bool {
	for _, m := range vr.members {
		if m.Block == h && e.induction[m] {
			return true
		}
	}
	return false
}

// hasBranch reports whether l contains a break or continue (tok) of loop f.
func hasBranch(l *slist, f *sFor, tok token.Token) bool {
	found := false
	walkStmts(l, func(st stmt) {
		if b, ok := st.(*sBranch); ok && b.loop == f && b.tok == tok {
			found = true
		}
	})
	return found
}

// walkStmts calls f for every statement in l, nested ones included.
func walkStmts(l *slist, f func(stmt)) {
	for _, st := range l.stmts {
		f(st)
		switch st := st.(type) {
		case *sIf:
			walkStmts(st.then, f)
			walkStmts(st.els, f)
		case *sSwitch:
			for _, body := range st.bodies() {
				walkStmts(body, f)
			}
		case *sFor:
			if st.init != nil {
				f(st.init)
			}
			if st.post != nil {
				f(st.post)
			}
			walkStmts(st.body, f)
		case *sSuspend:
			walkStmts(st.body, f)
		}
	}
}

// terminates reports whether control never falls off the end of l.
func (e *emitter) terminates(l *slist) bool {
	switch st := l.last().(type) {
	case *sValue:
		return st.v.Op == ir.OpReturn || st.v.Op == ir.OpPanic
	case *sBranch, *sGoto, *sSuspend:
		return true
	case *sIf:
		return !st.els.empty() && e.terminates(st.then) && e.terminates(st.els)
	case *sSwitch:
		// No break leaves a switch: breaks of loops are labeled.
		if st.dflt == nil {
			return false
		}
		for _, body := range st.bodies() {
			if !e.terminates(body) {
				return false
			}
		}
		return true
	case *sFor:
		return st.cond == nil && !hasBranch(st.body, st, token.BREAK)
	}
	return false
}

// condHasCall reports whether evaluating c calls a function with effects.
func (e *emitter) condHasCall(c *cond) bool {
	found := false
	var walk func(v *ir.Value)
	walk = func(v *ir.Value) {
		if v == nil || e.kind[v.ID] != kInline {
			return
		}
		if v.Op == ir.OpCall && !e.pureCall(v) {
			found = true
		}
		for _, a := range v.Args {
			walk(a)
		}
	}
	c.leaves(walk)
	return found
}

// assignLabels labels the loops that a break or continue inside an inner
// loop leaves, and those that a break inside a switch leaves (an
// unlabeled one would leave the switch).
func (e *emitter) assignLabels(l *slist) {
	var loops []*sFor
	inSwitch := false // the innermost breakable statement is a switch
	var walk func(l *slist)
	walk = func(l *slist) {
		for _, st := range l.stmts {
			switch st := st.(type) {
			case *sIf:
				walk(st.then)
				walk(st.els)
			case *sSwitch:
				was := inSwitch
				inSwitch = true
				for _, body := range st.bodies() {
					walk(body)
				}
				inSwitch = was
			case *sFor:
				was := inSwitch
				inSwitch = false
				loops = append(loops, st)
				walk(st.body)
				loops = loops[:len(loops)-1]
				inSwitch = was
			case *sSuspend:
				was := loops
				loops = nil // a func literal: no loop outside it
				walk(st.body)
				loops = was
			case *sBranch:
				inner := st.loop == loops[len(loops)-1]
				if !inner || st.tok == token.BREAK && inSwitch {
					st.labeled = true
					if st.loop.label == "" {
						base := "outer"
						if inner {
							base = "loop"
						}
						st.loop.label = e.freshLabel(base)
					}
				}
			}
		}
	}
	walk(l)
}

func (e *emitter) freshLabel(base string) string {
	name := base
	for k := 2; e.labels[name]; k++ {
		name = base + strconv.Itoa(k)
	}
	e.labels[name] = true
	return name
}

// needsParens reports whether !c must be written !(c).
func (e *emitter) needsParens(c *cond) bool {
	if c.op != token.ILLEGAL {
		return c.op != token.NOT
	}
	v := c.v
	if e.kind[v.ID] != kInline {
		return false
	}
	return v.Op == ir.OpUnary || v.Op == ir.OpBinary && v.Tok != token.EQL && v.Tok != token.NEQ
}

// condMentions reports whether c reads variable vr.
func (e *emitter) condMentions(c *cond, vr *variable) bool {
	found := false
	c.leaves(func(v *ir.Value) {
		e.touches(v, func(x *variable) { found = found || x == vr })
	})
	return found
}
