package emit

// This file defines the recovery of switch statements. go/ssa lowers
//
//	switch t {
//	case 0:
//		A
//	case 1, 2:
//		B
//	default:
//		C
//	}
//
// to a chain of comparisons, which the structurer turns into
//
//	if t == 0 {A} else if t == 1 || t == 2 {B} else {C}
//
// A chain of at least three such arms, or two and a final else, whose
// conditions all compare one tag with constants for equality becomes a
// switch again. The tag is a variable or an expression without effects
// (no calls but pure ones), so evaluating it once instead of once per arm
// is invisible: nothing runs between the conditions of an else-if chain.
// The constants have the tag's type and all differ (Go rejects duplicate
// constant cases); the chain ends before an arm that repeats one. Chains
// that compare other things (if a < b {} else if c {}) stay if/else-if
// chains, and so do shorter ones, which read as well. As with if/else,
// when every case leaves (return, break, continue), what the default
// clause would hold follows the switch instead (simplify.go).

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// recoverSwitch returns the switch statement that the else-if chain st
// reads as, or nil. It runs before the arms are simplified, while the
// chain is still nested in else arms.
func (e *emitter) recoverSwitch(st *sIf) *sSwitch {
	sw := &sSwitch{}
	var seen []constant.Value
	for cur := st; ; {
		tag, vals, ok := e.caseOf(cur.cond, sw.tag)
		for _, v := range vals {
			for _, s := range seen {
				ok = ok && !sameConst(s, v.Const)
			}
			seen = append(seen, v.Const)
		}
		if !ok {
			// The rest of the chain is the default clause.
			sw.dflt = &slist{stmts: []stmt{cur}}
			break
		}
		sw.tag = tag
		sw.cases = append(sw.cases, &sCase{vals: vals, body: cur.then})
		if len(cur.els.stmts) == 1 {
			if next, ok := cur.els.stmts[0].(*sIf); ok {
				cur = next
				continue
			}
		}
		if !cur.els.empty() {
			sw.dflt = cur.els
		}
		break
	}
	if n := len(sw.cases); n >= 3 || n == 2 && sw.dflt != nil {
		return sw
	}
	return nil
}

// caseOf returns the tag and the constants of condition c, when c is
// tag == k1 || tag == k2 || ...; tag, if not nil, is the tag c must
// compare.
func (e *emitter) caseOf(c *cond, tag *ir.Value) (*ir.Value, []*ir.Value, bool) {
	switch c.op {
	case token.LOR:
		tag, xs, ok := e.caseOf(c.x, tag)
		if !ok {
			return nil, nil, false
		}
		tag, ys, ok := e.caseOf(c.y, tag)
		return tag, append(xs, ys...), ok
	case token.NOT:
		// !(t != k), as folding && with a negated operand produces.
		if x := c.x; x.op == token.ILLEGAL && e.kind[x.v.ID] == kInline && x.v.Op == ir.OpBinary && x.v.Tok == token.NEQ {
			return e.caseCompare(x.v, tag)
		}
	case token.ILLEGAL:
		if v := c.v; e.kind[v.ID] == kInline && v.Op == ir.OpBinary && v.Tok == token.EQL {
			return e.caseCompare(v, tag)
		}
	}
	return nil, nil, false
}

// caseCompare returns the tag and the constant that comparison v
// compares (in either order), if they can be a switch's.
func (e *emitter) caseCompare(v *ir.Value, tag *ir.Value) (*ir.Value, []*ir.Value, bool) {
	x, k := v.Args[0], v.Args[1]
	if x.Op == ir.OpConst {
		x, k = k, x
	}
	if k.Op != ir.OpConst || k.Const == nil || k.Const.Kind() == constant.Unknown || x.Op == ir.OpConst ||
		!types.Identical(x.Type, k.Type) {
		return nil, nil, false
	}
	if isFloat(k.Type) {
		if _, finite := floatLit(k.Type, k.Const); !finite {
			return nil, nil, false
		}
	}
	if tag == nil {
		b, ok := x.Type.Underlying().(*types.Basic)
		if !ok || b.Info()&(types.IsBoolean|types.IsUntyped) != 0 || !e.pureExpr(x) {
			return nil, nil, false
		}
		tag = x
	} else if !e.sameExpr(tag, x) {
		return nil, nil, false
	}
	return tag, []*ir.Value{k}, true
}

// pureExpr reports whether rendering v evaluates nothing with effects:
// it reads variables and memory, and calls only pure functions.
func (e *emitter) pureExpr(v *ir.Value) bool {
	if v == nil || v.Op == ir.OpConst {
		return true
	}
	switch e.kind[v.ID] {
	case kVar:
		return true
	case kInline, kAddr:
		if v.Op == ir.OpCall && !e.pureCall(v) || v.Op == ir.OpAlloc && v.Heap {
			return false
		}
		for _, a := range v.Args {
			if !e.pureExpr(a) {
				return false
			}
		}
		return true
	}
	return false
}

// sameExpr reports whether a and b, both pure, render the same
// expression, reading the same variables.
func (e *emitter) sameExpr(a, b *ir.Value) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Op != b.Op || !types.Identical(a.Type, b.Type) {
		return false
	}
	if a.Op == ir.OpConst {
		return e.sameValue(a, b)
	}
	ka, kb := e.kind[a.ID], e.kind[b.ID]
	switch {
	case ka != kb:
		return false
	case ka == kVar:
		return e.vars[a.ID] != nil && e.vars[a.ID] == e.vars[b.ID]
	case ka != kInline && ka != kAddr:
		return false
	}
	if a.Tok != b.Tok || a.Index != b.Index || a.Global != b.Global || len(a.Args) != len(b.Args) || a.Op == ir.OpAlloc {
		return false
	}
	if a.Callee != nil || b.Callee != nil {
		if a.Callee == nil || b.Callee == nil || a.Callee.Func != b.Callee.Func || a.Callee.Builtin != b.Callee.Builtin ||
			a.Callee.Func == nil && a.Callee.Builtin == "" {
			return false
		}
	}
	for i := range a.Args {
		if !e.sameExpr(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

// allTerminate reports whether control leaves every case clause other
// than by reaching its end.
func (e *emitter) allTerminate(cases []*sCase) bool {
	for _, c := range cases {
		if !e.terminates(c.body) {
			return false
		}
	}
	return true
}
