package emit

// This file defines the small statement tree the structurer builds and the
// later phases rewrite, annotate and render: Go statements whose
// expressions are still IR values.

import (
	"go/token"

	"github.com/gadgen/gadgen/ir"
)

type stmt interface{ isStmt() }

// slist is a Go block: a list of statements, one scope.
type slist struct{ stmts []stmt }

func (l *slist) add(s ...stmt) { l.stmts = append(l.stmts, s...) }

func (l *slist) empty() bool { return len(l.stmts) == 0 }

func (l *slist) last() stmt {
	if len(l.stmts) == 0 {
		return nil
	}
	return l.stmts[len(l.stmts)-1]
}

// sValue is the statement of value v of a block: a definition of v's
// variable, a store, a call, an allocation, a return or a panic.
type sValue struct {
	v *ir.Value
	// define: this statement declares v's variable(s) (:=, or var for a
	// local).
	define bool
	// zero: for a local declared elsewhere, reset it to its zero value
	// here (the allocation is executed again in a loop).
	zero bool
	// merged: for a local declared here, the store of its first value,
	// folded into the declaration (p := v).
	merged *ir.Value
}

// sAssign assigns φ copies on one CFG edge: dsts[i] = srcs[i], all
// sources evaluated before any destination is written.
type sAssign struct {
	dsts   []*variable
	srcs   []*ir.Value
	phis   []*ir.Value
	define bool
}

// sSetBool assigns a boolean condition: v = a && b. It replaces branches
// that assign constants (go/ssa's form of && and || used as values).
type sSetBool struct {
	dst    *variable
	cond   *cond
	define bool
}

// sIf is if cond {then} else {els}.
type sIf struct {
	cond      *cond
	then, els *slist
}

// sSwitch is switch tag { case vals: body ... default: dflt }, recovered
// from an else-if chain that compares tag with constants (simplify.go).
// dflt is nil when there is no default clause. A break inside a clause
// would leave the switch: breaks of enclosing loops are labeled.
type sSwitch struct {
	tag   *ir.Value
	cases []*sCase
	dflt  *slist
	// inlineTag: the tag's own operation is written in the switch,
	// not its variable (boolfold.go).
	inlineTag bool
}

// sCase is one case clause: its constants (IR values of OpConst) and its
// statements, one scope.
type sCase struct {
	vals []*ir.Value
	body *slist
}

// bodies returns the statement lists of the clauses, default last.
func (st *sSwitch) bodies() []*slist {
	var ls []*slist
	for _, c := range st.cases {
		ls = append(ls, c.body)
	}
	if st.dflt != nil {
		ls = append(ls, st.dflt)
	}
	return ls
}

// sFor is a for statement. cond == nil means for {...}; init and post are
// nil or simple statements.
type sFor struct {
	header     *ir.Block
	label      string
	cond       *cond
	init, post stmt
	body       *slist
}

// sBranch is break or continue out of loop; labeled is set when it must
// name the loop.
type sBranch struct {
	tok     token.Token
	loop    *sFor
	labeled bool
}

// sSuspend ends the forward half of a split function (ir.Suspend):
// return v's results and a func literal whose body is body, the code
// after the suspension.
type sSuspend struct {
	v    *ir.Value
	body *slist
}

// sDecl is var v T.
type sDecl struct{ v *variable }

// sLabel and sGoto exist only in the goto form.
type sLabel struct{ name string }
type sGoto struct{ name string }

func (*sValue) isStmt()   {}
func (*sAssign) isStmt()  {}
func (*sSetBool) isStmt() {}
func (*sIf) isStmt()      {}
func (*sSwitch) isStmt()  {}
func (*sFor) isStmt()     {}
func (*sBranch) isStmt()  {}
func (*sSuspend) isStmt() {}
func (*sDecl) isStmt()    {}
func (*sLabel) isStmt()   {}
func (*sGoto) isStmt()    {}

// cond is a boolean condition built from IR values with &&, || and !.
type cond struct {
	op   token.Token // token.LAND, token.LOR, token.NOT, or token.ILLEGAL for a leaf
	v    *ir.Value   // leaf
	x, y *cond
}

func leaf(v *ir.Value) *cond { return &cond{op: token.ILLEGAL, v: v} }

func and(x, y *cond) *cond { return &cond{op: token.LAND, x: x, y: y} }

func or(x, y *cond) *cond { return &cond{op: token.LOR, x: x, y: y} }

// not negates c, removing a double negation. It never rewrites a
// comparison: !(a < b) is not a >= b for NaNs.
func not(c *cond) *cond {
	if c.op == token.NOT {
		return c.x
	}
	return &cond{op: token.NOT, x: c}
}

// leaves calls f for the IR values of c.
func (c *cond) leaves(f func(*ir.Value)) {
	if c == nil {
		return
	}
	if c.op == token.ILLEGAL {
		f(c.v)
		return
	}
	c.x.leaves(f)
	if c.y != nil {
		c.y.leaves(f)
	}
}
