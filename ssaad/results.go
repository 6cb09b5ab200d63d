package ssaad

// This file defines the origins of the slices and pointers a function
// returns: freshly allocated memory, one of its parameters, or memory of
// unknown origin. Reverse mode gives the result of a call a shadow from
// it: new zeroed memory for a fresh result, the argument's shadow for a
// parameter returned as it is.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// Origins of a returned slice or pointer (see ResultOrigins); a
// non-negative origin is the index of the parameter returned.
const (
	OriginFresh   = -1 // memory the call allocates (or nil)
	OriginUnknown = -2 // anything else: a reslice of a parameter, a pointer loaded from memory
)

// originAny is the origin of a φ found again while tracing it: whatever
// its other arguments have.
const originAny = -3

// OriginsFunc returns the origins of a callee's results (see
// ResultOrigins), or nil when unknown.
type OriginsFunc func(callee *ir.Callee) []int

// CalleeFacts is what the alias analysis knows of the functions f calls:
// the origins of their results (see ResultOrigins) and whether the slices
// and pointers they store into memory are all memory they allocate (see
// StoresOnlyFresh), so that a callee writing pointers through an argument
// does not make it alias the others. A nil field is unknown.
type CalleeFacts struct {
	Origins     OriginsFunc
	FreshStores func(callee *ir.Callee) bool
}

// EnvFacts returns the facts about callees that env knows (an
// OriginsEnv), or none.
func EnvFacts(env Env) CalleeFacts {
	oe, ok := env.(OriginsEnv)
	if !ok {
		return CalleeFacts{}
	}
	return CalleeFacts{Origins: EnvOrigins(env), FreshStores: func(c *ir.Callee) bool {
		return c.Func != nil && !c.Invoke && c.Builtin == "" && oe.FreshStores(c.Func)
	}}
}

// EnvOrigins returns the origins of callees' results that env knows (an
// OriginsEnv), or nil. Activity analysis needs them to keep the memory of
// a call's arguments apart from a result the callee allocates (without
// them the result may alias every argument, so a varied slice built by a
// callee makes varied the model the callee read it from).
func EnvOrigins(env Env) OriginsFunc {
	oe, ok := env.(OriginsEnv)
	if !ok {
		return nil
	}
	return func(c *ir.Callee) []int {
		if c.Func == nil || c.Invoke || c.Builtin != "" {
			return nil
		}
		return oe.Origins(c.Func)
	}
}

// ResultOrigins returns, for each result of f that refers to memory, its
// origin: OriginFresh when every return returns memory f (or a callee)
// allocates, the index of a parameter when every return returns that
// parameter itself, OriginUnknown otherwise. Other results get
// OriginFresh. callees gives the same facts for the functions f calls.
func ResultOrigins(f *ir.Func, callees OriginsFunc) []int {
	out := make([]int, len(f.ResultTypes))
	for i, rt := range f.ResultTypes {
		if !RefersToMemory(rt) {
			out[i] = OriginFresh
			continue
		}
		o := OriginFresh
		first := true
		for _, b := range f.Blocks {
			term := b.Terminator()
			if term == nil || term.Op != ir.OpReturn {
				continue
			}
			ro := origin(term.Args[i], callees, map[*ir.Value]bool{})
			if ro == originAny {
				ro = OriginFresh
			}
			if first {
				o, first = ro, false
			} else if ro != o {
				o = OriginUnknown
			}
		}
		if o == OriginFresh && holdsPointersBehind(rt) && !StoresOnlyFresh(f, callees) {
			o = OriginUnknown // fresh memory that may hold an argument's
		}
		out[i] = o
	}
	return out
}

// StoresOnlyFresh reports whether the slices and pointers f stores into
// memory are all fresh (see origin), so that memory f allocates holds only
// memory f allocates, and memory f writes pointers into comes to alias no
// argument: no store, copy or append puts anything else there, and no
// callee gets memory that can hold slices or pointers (it could store an
// argument's there). callees gives the origins of its callees' results.
func StoresOnlyFresh(f *ir.Func, callees OriginsFunc) bool {
	fresh := func(v *ir.Value) bool {
		o := origin(v, callees, map[*ir.Value]bool{})
		return o == OriginFresh || o == originAny
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			switch {
			case v.Op == ir.OpStore && RefersToMemory(v.Args[1].Type):
				// A struct value stored whole comes from memory (go/ssa
				// stores composite literals field by field): not known
				// fresh.
				if !IsPointerLike(v.Args[1].Type) || !fresh(v.Args[1]) {
					return false
				}
			case v.Op != ir.OpCall:
			case v.Callee.Builtin == "append" || v.Callee.Builtin == "copy":
				if holdsPointersBehind(v.Args[0].Type) {
					for _, a := range v.Args[1:] {
						if !fresh(a) {
							return false
						}
					}
				}
			case v.Callee.Builtin != "" || ByRule(v.Callee):
			default:
				for _, a := range v.Args {
					if a != nil && IsPointerLike(a.Type) && holdsPointersBehind(a.Type) {
						return false
					}
				}
			}
		}
	}
	return true
}

// origin returns the origin of value v (see ResultOrigins); seen holds
// the φs being traced, which agree with whatever they merge.
func origin(v *ir.Value, callees OriginsFunc, seen map[*ir.Value]bool) int {
	switch v.Op {
	case ir.OpConst, ir.OpAlloc, ir.OpMakeSlice:
		return OriginFresh
	case ir.OpParam:
		return v.Index
	case ir.OpConvert:
		return origin(v.Args[0], callees, seen)
	case ir.OpSlice:
		if origin(v.Args[0], callees, seen) == OriginFresh {
			return OriginFresh // part of memory only this call allocated
		}
	case ir.OpPhi, ir.OpSelect:
		if seen[v] {
			return originAny // a cycle: agrees with the other arguments
		}
		seen[v] = true
		args := v.Args
		if v.Op == ir.OpSelect {
			args = args[1:]
		}
		o := originAny
		for _, a := range args {
			switch ao := origin(a, callees, seen); {
			case ao == originAny:
			case o == originAny:
				o = ao
			case ao != o:
				return OriginUnknown
			}
		}
		return o
	case ir.OpCall, ir.OpExtract:
		call, k := v, 0
		if v.Op == ir.OpExtract {
			call, k = v.Args[0], v.Index
		}
		if call.Op != ir.OpCall {
			break
		}
		if call.Callee.Builtin == "append" {
			// Its first argument's memory, or fresh memory: fresh when the
			// first argument is, and like it in a cycle (a slice grown in
			// a loop from nil).
			if o := origin(call.Args[0], callees, seen); o == OriginFresh || o == originAny {
				return o
			}
			break
		}
		if callees == nil {
			break
		}
		os := callees(call.Callee)
		if k >= len(os) {
			break
		}
		switch o := os[k]; {
		case o == OriginFresh:
			return OriginFresh
		case o >= 0 && o < len(call.Args):
			return origin(call.Args[o], callees, seen)
		}
	}
	return OriginUnknown
}

// StoresMemory reports whether f may store a slice or pointer into memory
// its caller can reach (through a parameter, or a pointer loaded from
// memory): the caller's shadows of that memory would not follow.
// callees says the same of the functions f calls.
func StoresMemory(f *ir.Func, callees func(*ir.Callee) bool) bool {
	local := func(a *ir.Value) bool {
		for a.Op == ir.OpFieldAddr || a.Op == ir.OpIndexAddr || a.Op == ir.OpSlice {
			a = a.Args[0]
		}
		return a.Op == ir.OpAlloc || a.Op == ir.OpMakeSlice
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			switch v.Op {
			case ir.OpStore:
				if RefersToMemory(v.Args[1].Type) && !local(v.Args[0]) {
					return true
				}
			case ir.OpCall:
				c := v.Callee
				switch {
				case c.Builtin == "copy" || c.Builtin == "append" || c.Builtin == "clear":
					if RefersToMemory(v.Args[0].Type) && IsPointerLike(v.Args[0].Type) && !local(v.Args[0]) {
						if e := v.Args[0].Type.Underlying(); e != nil {
							if s, ok := e.(interface{ Elem() types.Type }); ok && RefersToMemory(s.Elem()) {
								return true
							}
						}
					}
				case c.Builtin != "":
				case ByRule(c):
				default:
					if callees == nil || callees(c) {
						return true
					}
				}
			}
		}
	}
	return false
}
