package emit

// This file defines the last clean-up of the statement tree: a value
// held in a variable only because it is computed with branches or read
// by several comparisons is written where it is read, when that is right
// after it and nowhere else. A boolean computed with branches (an
// sSetBool, see boolValue in simplify.go) goes into the statement after
// it, and the tag of a switch statement into the switch,
//
//	t := a && !b || b && !a        =>  return a && !b || b && !a
//	return t
//
//	t := n.Act                     =>  switch n.Act {
//	switch t {
//
// as the source had them. Nothing comes between the definition and the
// switch, which evaluates its tag first: the tag always moves. The condition's operands are then evaluated in
// the next statement instead of just before it, which is invisible
// unless they read memory that the rest of the statement writes (or call
// functions whose order against the rest Go leaves open): the fold is
// done only when the condition or the rest of the statement is free of
// such effects.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// foldBools folds the booleans and switch tags of the function body l
// into their single use.
func (e *emitter) foldBools(l *slist) {
	mentions := map[*variable]int{}
	walkStmts(l, func(st stmt) {
		e.stmtVars(st, func(vr *variable, _ bool) { mentions[vr]++ })
	})
	var fold func(l *slist)
	fold = func(l *slist) {
		var out []stmt
		for i, st := range l.stmts {
			if set, ok := st.(*sSetBool); ok && i+1 < len(l.stmts) && e.canFoldBool(set, l.stmts[i+1], mentions) {
				e.folded[set.dst] = set.cond
				continue
			}
			if sv, ok := st.(*sValue); ok && i+1 < len(l.stmts) {
				if sw, ok := l.stmts[i+1].(*sSwitch); ok && sw.tag == sv.v && e.canFoldTag(sv, mentions) {
					sw.inlineTag = true
					continue
				}
			}
			out = append(out, st)
		}
		l.stmts = out
		for _, st := range l.stmts {
			switch st := st.(type) {
			case *sIf:
				fold(st.then)
				fold(st.els)
			case *sSwitch:
				for _, body := range st.bodies() {
					fold(body)
				}
			case *sFor:
				fold(st.body)
			case *sSuspend:
				fold(st.body)
			}
		}
	}
	fold(l)
}

// canFoldTag reports whether the value that statement sv defines can be
// rendered in the switch statement after it, its only reader.
func (e *emitter) canFoldTag(sv *sValue, mentions map[*variable]int) bool {
	v := sv.v
	vr := e.vars[v.ID]
	if e.kind[v.ID] != kVar || vr == nil || vr.predeclared || len(vr.members) != 1 || mentions[vr] != 2 {
		return false
	}
	switch v.Op {
	case ir.OpPhi, ir.OpExtract, ir.OpParam, ir.OpSelect:
		return false
	}
	return true
}

// canFoldBool reports whether set's variable can be replaced by set's
// condition in next, the statement after set.
func (e *emitter) canFoldBool(set *sSetBool, next stmt, mentions map[*variable]int) bool {
	vr := set.dst
	if !types.Identical(vr.typ, types.Typ[types.Bool]) || vr.predeclared || mentions[vr] != 2 {
		return false // a named bool type, a result, or other uses
	}
	// The operands next evaluates, and whether it reads vr once and
	// does not assign it.
	var operands []*ir.Value
	switch st := next.(type) {
	case *sValue:
		if st.v.Op == ir.OpSelect || st.v.Op == ir.OpAlloc || st.v.Op == ir.OpPhi {
			return false // several statements, or nothing evaluated
		}
		operands = st.v.Args
	case *sAssign:
		operands = st.srcs
	case *sIf:
		st.cond.leaves(func(v *ir.Value) { operands = append(operands, v) })
	case *sSetBool:
		st.cond.leaves(func(v *ir.Value) { operands = append(operands, v) })
	default:
		return false // a for condition is evaluated again and again
	}
	reads, assigns := 0, false
	e.stmtVars(next, func(x *variable, def bool) {
		if x == vr {
			if def {
				assigns = true
			} else {
				reads++
			}
		}
	})
	if reads != 1 || assigns {
		return false
	}
	var cl, cc bool // the condition loads, calls
	set.cond.leaves(func(v *ir.Value) {
		l, c, _ := e.effects(v, nil)
		cl, cc = cl || l, cc || c
	})
	var rl, rc bool // the rest of next loads, calls
	for _, a := range operands {
		l, c, _ := e.effects(a, vr)
		rl, rc = rl || l, rc || c
	}
	return !(cl && rc) && !(cc && (rl || rc))
}

// effects reports whether evaluating operand v loads memory and whether
// it calls a function with effects, leaving out the subexpressions that
// read variable skip and, since they run after it, their ancestors; and
// whether v reads skip.
func (e *emitter) effects(v *ir.Value, skip *variable) (loads, calls, reads bool) {
	if v == nil || v.Op == ir.OpConst {
		return false, false, false
	}
	switch e.kind[v.ID] {
	case kVar:
		vr := e.vars[v.ID]
		if vr != nil && vr == skip {
			return false, false, true
		}
		if c := e.folded[vr]; c != nil {
			c.leaves(func(x *ir.Value) {
				l, cl, r := e.effects(x, skip)
				loads, calls, reads = loads || l, calls || cl, reads || r
			})
		}
		return loads, calls, reads
	case kInline, kAddr:
		for _, a := range v.Args {
			l, c, r := e.effects(a, skip)
			loads, calls, reads = loads || l, calls || c, reads || r
		}
		if !reads {
			loads = loads || v.Op == ir.OpLoad
			calls = calls || v.Op == ir.OpCall && !e.pureCall(v)
		}
	}
	return loads, calls, reads
}
