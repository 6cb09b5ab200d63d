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
//
// Conditions are negated only with !, never by flipping a comparison
// (NaN). The init clause (for i := 0; ...) is formed later, with the
// declarations (scope.go).

import (
	"go/token"
	"strconv"

	"github.com/gadgen/gadgen/ir"
)

func (e *emitter) simplify(l *slist) {
	e.simplifyList(l)
	// The return at the end of a function without results is implicit.
	if st, ok := l.last().(*sValue); ok && st.v.Op == ir.OpReturn && len(st.v.Args) == 0 {
		l.stmts = l.stmts[:len(l.stmts)-1]
	}
}

// simplifyList simplifies the statements of l and, recursively, their
// children.
func (e *emitter) simplifyList(l *slist) {
	var out []stmt
	for _, st := range l.stmts {
		switch st := st.(type) {
		case *sIf:
			e.simplifyList(st.then)
			e.simplifyList(st.els)
			out = append(out, e.simplifyIf(st)...)
		case *sFor:
			e.simplifyFor(st)
			out = append(out, st)
		default:
			out = append(out, st)
		}
	}
	l.stmts = out
}

// simplifyIf returns the statements that replace st.
func (e *emitter) simplifyIf(st *sIf) []stmt {
	switch {
	case st.then.empty() && st.els.empty():
		if e.condHasCall(st.cond) {
			return []stmt{st}
		}
		return nil
	case st.then.empty():
		st.cond = not(st.cond)
		st.then, st.els = st.els, st.then
	}
	if !st.els.empty() && e.terminates(st.then) {
		rest := st.els.stmts
		st.els = &slist{}
		return append([]stmt{st}, rest...)
	}
	return []stmt{st}
}

// simplifyFor recovers the loop's condition and post statement.
func (e *emitter) simplifyFor(f *sFor) {
	body := f.body
	if f.cond == nil && len(body.stmts) > 0 {
		if first, ok := body.stmts[0].(*sIf); ok {
			rest := body.stmts[1:]
			switch {
			case isBreakOf(first.els, f):
				f.cond = first.cond
				body.stmts = append(append([]stmt{}, first.then.stmts...), rest...)
			case isBreakOf(first.then, f):
				f.cond = not(first.cond)
				body.stmts = append(append([]stmt{}, first.els.stmts...), rest...)
			}
		}
	}
	e.simplifyList(body)
	if f.post == nil && f.cond != nil && len(body.stmts) > 0 {
		if vr := e.stepOf(body.last()); vr != nil && e.isCounterOf(vr, f.header) && !hasBranch(body, f, token.CONTINUE) {
			f.post = body.last()
			body.stmts = body.stmts[:len(body.stmts)-1]
		}
	}
	// A trailing "if !(c) {E}" reads better as "if c {continue}; E".
	if last, ok := body.last().(*sIf); ok && last.cond.op == token.NOT && e.needsParens(last.cond.x) && last.els.empty() && !last.then.empty() {
		rest := last.then.stmts
		last.cond = last.cond.x
		last.then = &slist{stmts: []stmt{&sBranch{tok: token.CONTINUE, loop: f}}}
		body.stmts = append(body.stmts, rest...)
	}
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
		if len(st.dsts) == 1 && e.kind[st.srcs[0].ID] == kInline && e.isStep(st.srcs[0], st.dsts[0]) {
			return st.dsts[0]
		}
	case *sValue:
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
		case *sFor:
			if st.init != nil {
				f(st.init)
			}
			if st.post != nil {
				f(st.post)
			}
			walkStmts(st.body, f)
		}
	}
}

// terminates reports whether control never falls off the end of l.
func (e *emitter) terminates(l *slist) bool {
	switch st := l.last().(type) {
	case *sValue:
		return st.v.Op == ir.OpReturn || st.v.Op == ir.OpPanic
	case *sBranch, *sGoto:
		return true
	case *sIf:
		return !st.els.empty() && e.terminates(st.then) && e.terminates(st.els)
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
// loop leaves.
func (e *emitter) assignLabels(l *slist) {
	var stack []*sFor
	var walk func(l *slist)
	walk = func(l *slist) {
		for _, st := range l.stmts {
			switch st := st.(type) {
			case *sIf:
				walk(st.then)
				walk(st.els)
			case *sFor:
				stack = append(stack, st)
				walk(st.body)
				stack = stack[:len(stack)-1]
			case *sBranch:
				if st.loop != stack[len(stack)-1] {
					st.labeled = true
					if st.loop.label == "" {
						st.loop.label = e.freshLabel("outer")
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
	return e.kind[c.v.ID] == kInline && (c.v.Op == ir.OpBinary || c.v.Op == ir.OpUnary)
}
