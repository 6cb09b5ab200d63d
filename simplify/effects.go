package simplify

// This file defines Env, through which passes learn about the functions a
// function calls, and the memory-effect (purity) analysis of a function:
// Summarize computes, from its IR, what a call of it may read and write,
// and whether it may panic or fail to return, given the same facts about
// its callees (a bottom-up interprocedural summary, as in Enzyme's
// function attributes or LLVM's FunctionAttrs pass: readnone, readonly,
// argmemonly, nounwind, willreturn).

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/gadgen/gadgen/ir"
)

// Env is what passes may ask of the driver about the functions a function
// calls. A nil Env knows nothing: a call of a function other than the
// primitives (package math's, ...; ir.Callee.Primitive) and the builtins
// is then assumed to do anything.
type Env interface {
	// Effects returns the summary of callee (Summarize of its body), or
	// nil when it is unknown: a function without a body gadgen can lower,
	// or one whose summary is being computed (recursion).
	Effects(callee *types.Func) *Effects
	// Body returns the lowered IR of callee, a fresh copy the pass may
	// change, or nil when it has none.
	Body(callee *types.Func) *ir.Func
}

// Checkpointer is implemented by an Env that knows the functions marked
// //gad:checkpoint: their calls stay calls in every pipeline, and reverse
// mode reverses them jointly (it saves what the call reads and recomputes
// the callee in the reverse sweep instead of recording its values).
type Checkpointer interface {
	Checkpointed(fn *types.Func) bool
}

// checkpointed reports whether env marks fn //gad:checkpoint.
func checkpointed(env Env, fn *types.Func) bool {
	c, ok := env.(Checkpointer)
	return ok && fn != nil && c.Checkpointed(fn)
}

// Effects summarizes what a call of a function may do besides computing
// its results. The zero value (with Reads and Writes of the right length)
// describes a pure function: results that depend on the arguments alone,
// no effect, always returns.
type Effects struct {
	// Reads[i] and Writes[i]: the function may read or write memory
	// reachable from parameter i (receiver first).
	Reads, Writes []bool
	// ReadsGlobal and WritesGlobal: it may read or write package-level
	// variables (or memory reachable from them). Output (print) counts as
	// a write.
	ReadsGlobal, WritesGlobal bool
	// MayPanic: some call may panic (a panic statement, an index gadgen
	// cannot show in bounds, a nil dereference, an integer division).
	MayPanic bool
	// MayNotReturn: some call may run forever: the function has a loop
	// that is not counted (see countedLoop) or calls one that may not
	// return, itself included.
	MayNotReturn bool
}

// WritesNothing reports whether a call writes no memory that outlives it
// and produces no output.
func (e *Effects) WritesNothing() bool {
	if e.WritesGlobal {
		return false
	}
	for _, w := range e.Writes {
		if w {
			return false
		}
	}
	return true
}

// Total reports whether a call always returns and never panics: it may be
// evaluated where the source would not evaluate it.
func (e *Effects) Total() bool { return !e.MayPanic && !e.MayNotReturn }

// String prints the summary for tests and -dump:
// "reads [x] writes [dst] mayPanic".
func (e *Effects) String() string {
	if e == nil {
		return "unknown"
	}
	var parts []string
	list := func(name string, s []bool, global bool) {
		var xs []string
		for i, b := range s {
			if b {
				xs = append(xs, fmt.Sprint(i))
			}
		}
		if global {
			xs = append(xs, "global")
		}
		if len(xs) > 0 {
			parts = append(parts, name+" ["+strings.Join(xs, " ")+"]")
		}
	}
	list("reads", e.Reads, e.ReadsGlobal)
	list("writes", e.Writes, e.WritesGlobal)
	if e.MayPanic {
		parts = append(parts, "mayPanic")
	}
	if e.MayNotReturn {
		parts = append(parts, "mayNotReturn")
	}
	if len(parts) == 0 {
		return "pure"
	}
	return strings.Join(parts, " ")
}

// worst returns the summary of an unknown function of n parameters.
func worst(n int) *Effects {
	e := &Effects{Reads: make([]bool, n), Writes: make([]bool, n), ReadsGlobal: true, WritesGlobal: true, MayPanic: true, MayNotReturn: true}
	for i := range n {
		e.Reads[i], e.Writes[i] = true, true
	}
	return e
}

// callEffects returns the effects of call v: from the rules for builtins
// and primitives, from env for other functions, or the worst case.
func callEffects(v *ir.Value, env Env) *Effects {
	c := v.Callee
	n := len(v.Args)
	e := &Effects{Reads: make([]bool, n), Writes: make([]bool, n)}
	switch {
	case c.Builtin != "":
		switch c.Builtin {
		case "len", "cap", "min", "max":
		case "copy":
			e.Writes[0], e.Reads[1] = true, true
		case "append":
			// append may write into the spare capacity of its first
			// argument's array.
			e.Writes[0] = true
			for i := range e.Reads {
				e.Reads[i] = true
			}
		case "clear":
			e.Writes[0] = true
		case "print", "println":
			e.WritesGlobal = true
		default:
			return worst(n)
		}
		return e
	case c.Derived != nil:
		if c.Derived.Helper {
			return e
		}
		return worst(n)
	case c.Func == nil || c.Invoke:
		return worst(n)
	case c.Primitive() != nil:
		return e
	}
	if env != nil {
		if s := env.Effects(c.Func); s != nil && len(s.Reads) == n && len(s.Writes) == n {
			return s
		}
	}
	return worst(n)
}

// Summarize returns the effects of f, a lowered body, given env for the
// functions it calls. Parameters are summarized separately (Reads[i] is
// about memory reachable from parameter i); a caller that passes two
// arguments sharing memory sees it in its own alias classes.
func Summarize(f *ir.Func, env Env) *Effects {
	n := len(f.Params)
	e := &Effects{Reads: make([]bool, n), Writes: make([]bool, n)}
	mem := newMemory(f, env, false)
	lf := newLoopFacts(f)
	read, written := map[int]bool{}, map[int]bool{}
	for _, b := range f.Blocks {
		if !lf.cfg.Reachable(b) {
			continue
		}
		for _, v := range b.Instrs {
			if lf.mayFail(v, b) {
				e.MayPanic = true
			}
			switch v.Op {
			case ir.OpLoad:
				read[mem.class(v.Args[0])] = true
			case ir.OpStore:
				written[mem.class(v.Args[0])] = true
			case ir.OpCall:
				ce := callEffects(v, env)
				for i, a := range v.Args {
					if c := mem.class(a); c >= 0 {
						read[c] = read[c] || ce.Reads[i]
						written[c] = written[c] || ce.Writes[i]
					}
				}
				e.ReadsGlobal = e.ReadsGlobal || ce.ReadsGlobal
				e.WritesGlobal = e.WritesGlobal || ce.WritesGlobal
				e.MayPanic = e.MayPanic || ce.MayPanic
				e.MayNotReturn = e.MayNotReturn || ce.MayNotReturn
			}
		}
	}
	g := mem.find(globalNode)
	e.ReadsGlobal = e.ReadsGlobal || read[g]
	e.WritesGlobal = e.WritesGlobal || written[g]
	for i, p := range f.Params {
		if c := mem.class(p); c >= 0 {
			e.Reads[i], e.Writes[i] = read[c], written[c]
		}
	}
	for h := range lf.cfg.Loop {
		if !lf.counted(f.Blocks[h]) {
			e.MayNotReturn = true
		}
	}
	return e
}
