package emit

// This file defines the emitter of one function and the order of its
// phases.

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/gadgen/gadgen/ir"
)

// emitter holds what is known about one function while it is emitted.
// Tables indexed by value ID have NumValues()+1 entries.
type emitter struct {
	// multiCall: the call being rendered writes its arguments one to a
	// line (callMulti).
	multiCall bool
	fs        *fileState
	fn        *ir.Func
	cfg       *ir.CFG

	allUses [][]*ir.Value // all users (ir.Uses)
	uses    [][]*ir.Value // live users, one entry per argument position
	pos     []int         // index of a value in its block
	live    []bool
	kind    []vkind
	root    []rootKey // statement a value is evaluated in
	eff     []int     // position of that statement in the block
	allocs  map[*ir.Value]*allocInfo

	vars    []*variable // variable of each kVar value, by ID
	varList []*variable // all variables, in order of first definition
	names   *namer
	params  map[*ir.Value]string // names of the parameters ("" if unnamed)
	extract map[*ir.Value][]*ir.Value

	// Loop facts used when sequencing φ copies and forming for clauses:
	// induction[φ] for φs of a loop header updated by i = i ± c on the
	// back edge.
	induction map[*ir.Value]bool

	labels map[string]bool

	// lits describes the composite literals (opLiteral values) of fn.
	lits map[*ir.Value]*literal
	// header: the expression being rendered is in the header of an if,
	// for or switch statement, where a composite literal T{} needs
	// parentheses (see composite).
	header bool
	// folded holds the booleans written where they are used: the
	// variable's value is the condition (boolfold.go).
	folded map[*variable]*cond
	// unread holds the variables of results of calls that no statement
	// reads after simplification: the call assigns them to _
	// (dropUnread).
	unread map[*variable]bool
}

// inHeader renders an expression of a statement header.
func (e *emitter) inHeader(render func() expr) expr {
	e.header = true
	defer func() { e.header = false }()
	return render()
}

// newEmitter returns the emitter of fn. Its function, e.fn, is fn or a
// private copy of it (see callApart, splitIrreducible, isolateSuspend and
// lowerLiterals).
func newEmitter(fs *fileState, fn *ir.Func) *emitter {
	fn = callApart(fn)
	fn = splitIrreducible(fn)
	fn = isolateSuspend(fn)
	fn, lits := lowerLiterals(fn, fs.pkgPath)
	fn.Renumber()
	n := fn.NumValues() + 1
	e := &emitter{
		fs:        fs,
		fn:        fn,
		cfg:       ir.NewCFG(fn),
		uses:      make([][]*ir.Value, n),
		pos:       make([]int, n),
		live:      make([]bool, n),
		kind:      make([]vkind, n),
		root:      make([]rootKey, n),
		eff:       make([]int, n),
		allocs:    map[*ir.Value]*allocInfo{},
		vars:      make([]*variable, n),
		params:    map[*ir.Value]string{},
		extract:   map[*ir.Value][]*ir.Value{},
		induction: map[*ir.Value]bool{},
		labels:    map[string]bool{},
		lits:      lits,
		folded:    map[*variable]*cond{},
		unread:    map[*variable]bool{},
	}
	return e
}

// forceGotoForm makes every function take the goto form (tests).
var forceGotoForm bool

// body returns the statements of the function body.
func (e *emitter) body() []jen.Code {
	e.analyze()
	e.makeVariables()
	var body *slist
	if s := e.structure(); s != nil && !forceGotoForm {
		body = s
		e.simplify(body)
		e.placeDecls(body, false)
		e.assignLabels(body)
	} else {
		body = e.gotoForm()
		e.placeDecls(body, true)
	}
	return e.renderList(body)
}

func (e *emitter) typ(t types.Type) jen.Code { return e.fs.typ(t) }

// paramName returns the name of parameter p in the signature: its own
// name, a generated one if it has none but is used, or "".
func (e *emitter) paramName(p *ir.Value) string {
	return e.params[p]
}
