package ssaad

// This file defines the forward activity ("varied") analysis: which values
// of a function may depend on its varied parameters, and which memory may
// hold such values. It follows the usual formulation of activity analysis
// (Hascoët & Pascual, "The Tapenade automatic differentiation tool", 2013,
// §3; Enzyme's ActivityAnalysis), with memory abstracted as classes of
// pointers that may alias: every pointer-like value (pointer, slice) belongs
// to one class, and values that may alias are in the same class (union-find
// over address arithmetic, φs, stores of pointers and calls).

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/gadgen/gadgen/ir"
)

// Activity is the immutable result of Varied.
type Activity struct {
	f      *ir.Func
	varied []bool // by value ID
	class  []int  // by value ID: representative of the alias class, or -1
	vclass map[int]bool
}

// IsPointerLike reports whether values of type t refer to memory that a
// derivative must shadow: pointers and slices.
func IsPointerLike(t types.Type) bool {
	if t == nil || ir.IsTensor(t) {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice:
		return true
	}
	return false
}

// Varied reports whether v may depend on the varied parameters and holds
// floats: it then has a tangent (for pointers and slices: a shadow).
func (a *Activity) Varied(v *ir.Value) bool {
	return v != nil && v.ID < len(a.varied) && a.varied[v.ID]
}

// Class returns the alias class of a pointer-like value, or -1.
func (a *Activity) Class(v *ir.Value) int {
	if v == nil || v.ID >= len(a.class) {
		return -1
	}
	return a.class[v.ID]
}

// Varied computes the activity of f's values given the activity of its
// parameters (active[i] for f.Params[i]).
//
// A value is varied when it holds floats and depends on a varied value; a
// pointer-like value is varied when its alias class is: when the class
// contains a varied parameter, or a varied value is stored through one of
// its addresses, or one of its pointers is passed to a call together with
// a varied argument (the callee may store derived values through it).
func Varied(f *ir.Func, active []bool, writes WritesFunc) *Activity {
	return VariedWith(f, active, writes, CalleeFacts{})
}

// VariedWith is Varied knowing more of the callees: the origins of what
// they return and whether they store only fresh memory (see CalleeFacts).
func VariedWith(f *ir.Func, active []bool, writes WritesFunc, facts CalleeFacts) *Activity {
	n := f.NumValues() + 1
	a := &Activity{f: f, varied: make([]bool, n), vclass: map[int]bool{}}
	al := computeAliasesWith(f, writes, facts)
	a.class = al.class
	all := al.all

	isVaried := func(x *ir.Value) bool {
		if x == nil {
			return false
		}
		if IsPointerLike(x.Type) {
			return HasFloat(x.Type) && a.vclass[a.class[x.ID]]
		}
		return a.varied[x.ID]
	}
	markClass := func(x *ir.Value) bool {
		if x == nil || a.class[x.ID] < 0 || !HasFloat(x.Type) {
			return false
		}
		c := a.class[x.ID]
		if a.vclass[c] {
			return false
		}
		a.vclass[c] = true
		return true
	}
	for i, p := range f.Params {
		if i < len(active) && active[i] {
			markClass(p) // memory it refers to, if any
			if !IsPointerLike(p.Type) {
				a.varied[p.ID] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		set := func(v *ir.Value) {
			if IsPointerLike(v.Type) {
				// A slice or pointer taken out of a varied aggregate
				// refers to varied memory.
				if markClass(v) {
					changed = true
				}
				return
			}
			if !a.varied[v.ID] {
				a.varied[v.ID] = true
				changed = true
			}
		}
		for _, v := range all {
			switch v.Op {
			case ir.OpParam, ir.OpConst, ir.OpAlloc, ir.OpGlobal, ir.OpMakeSlice, ir.OpLen, ir.OpCap,
				ir.OpJump, ir.OpIf, ir.OpReturn, ir.OpPanic:
				continue
			case ir.OpStore:
				if a.varied[v.Args[1].ID] || isVaried(v.Args[1]) {
					if markClass(v.Args[0]) {
						changed = true
					}
				}
				continue
			case ir.OpLoad:
				if isVaried(v.Args[0]) && HasFloat(v.Type) {
					set(v)
				}
				continue
			case ir.OpCall:
				anyVaried := false
				for _, x := range v.Args {
					anyVaried = anyVaried || isVaried(x)
				}
				if anyVaried {
					w := al.callWrites[v]
					for i, x := range v.Args {
						if (w == nil || i < len(w) && w[i]) && markClass(x) {
							changed = true
						}
					}
					if v.Type != nil && HasFloat(v.Type) || isTupleWithFloat(v.Type) {
						set(v)
					}
				}
				continue
			case ir.OpBinary:
				if v.Tok.IsOperator() && isComparison(v.Tok.String()) {
					continue
				}
			case ir.OpSelect:
				if HasFloat(v.Type) && (isVaried(v.Args[1]) || isVaried(v.Args[2])) {
					set(v)
				}
				continue
			case ir.OpIndexAddr, ir.OpIndex:
				if isVaried(v.Args[0]) && HasFloat(v.Type) {
					set(v)
				}
				continue
			}
			if v.Type == nil || !(HasFloat(v.Type) || isTupleWithFloat(v.Type)) {
				continue
			}
			for _, x := range v.Args {
				if isVaried(x) {
					set(v)
					break
				}
			}
		}
	}
	for _, v := range all {
		if IsPointerLike(v.Type) && HasFloat(v.Type) && a.vclass[a.class[v.ID]] {
			a.varied[v.ID] = true
		}
	}
	return a
}

func isTupleWithFloat(t types.Type) bool {
	tu, ok := t.(*types.Tuple)
	if !ok {
		return false
	}
	for v := range tu.Variables() {
		if HasFloat(v.Type()) {
			return true
		}
	}
	return false
}

func isComparison(op string) bool {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// String prints the varied values of the function, one per line, in block
// order: the form gadgen's -dump option shows and tests snapshot.
func (a *Activity) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "activity of %s:\n", a.f.Name)
	var vs []string
	for _, p := range a.f.Params {
		if a.Varied(p) {
			vs = append(vs, p.Ref())
		}
	}
	fmt.Fprintf(&sb, "  varied params: %s\n", strings.Join(vs, " "))
	for _, b := range a.f.Blocks {
		var names []string
		for _, v := range b.Instrs {
			if a.Varied(v) {
				names = append(names, v.Ref())
			}
		}
		if len(names) > 0 {
			fmt.Fprintf(&sb, "  b%d: %s\n", b.Index, strings.Join(names, " "))
		}
	}
	var cs []int
	for c := range a.vclass {
		cs = append(cs, c)
	}
	sort.Ints(cs)
	if len(cs) > 0 {
		fmt.Fprintf(&sb, "  varied memory classes: %v\n", cs)
	}
	return sb.String()
}

// WritesFunc returns, for a called function, whether it may store through
// memory reachable from each of its parameters (receiver first), or nil
// when that is unknown (every parameter is then assumed written).
type WritesFunc func(callee *types.Func) []bool

// RefersToMemory reports whether values of type t refer to memory: pointers,
// slices, and structs or arrays that hold them.
func RefersToMemory(t types.Type) bool {
	if t == nil || ir.IsTensor(t) {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice:
		return true
	case *types.Array:
		return RefersToMemory(u.Elem())
	case *types.Struct:
		for f := range u.Fields() {
			if RefersToMemory(f.Type()) {
				return true
			}
		}
	}
	return false
}

// aliases is the alias-class partition of a function's values that refer
// to memory: two values that may refer to the same memory are in one class
// (a union-find over address arithmetic, φs, loads and stores of
// pointers, and calls).
type aliases struct {
	all        []*ir.Value          // params, then the values of every block
	class      []int                // by value ID: class representative, or -1
	callWrites map[*ir.Value][]bool // per call: which arguments it may write through (nil: all)
}

// callWrites returns which arguments call v may store through: nil when
// any.
func callWrites(v *ir.Value, writes WritesFunc) []bool {
	c := v.Callee
	w := make([]bool, len(v.Args))
	switch {
	case c.Builtin != "":
		switch c.Builtin {
		case "copy", "clear", "append":
			w[0] = true
		}
		return w
	case ByRule(c):
		return w
	case c.Func != nil && !c.Invoke && writes != nil:
		if s := writes(c.Func); len(s) == len(v.Args) {
			return s
		}
	}
	return nil
}

func computeAliases(f *ir.Func, writes WritesFunc) *aliases {
	return computeAliasesWith(f, writes, CalleeFacts{})
}

// callOrigins returns the origins of the results of call v that refer to
// memory (see ResultOrigins), or nil when one is unknown: the result then
// may alias any argument.
func callOrigins(v *ir.Value, origins OriginsFunc) []int {
	if origins == nil || v.Callee.Builtin != "" || v.Callee.Func == nil || v.Callee.Invoke {
		return nil
	}
	os := origins(v.Callee)
	if os == nil {
		return nil
	}
	out := []int{}
	for _, o := range os {
		switch {
		case o == OriginUnknown:
			return nil
		case o >= 0:
			out = append(out, o)
		}
	}
	return out
}

// computeAliasesWith is computeAliases knowing where the slices and
// pointers that callees return come from (a fresh one aliases no
// argument, an argument returned aliases that argument) and which callees
// store only fresh memory (writing it through an argument makes no
// alias).
func computeAliasesWith(f *ir.Func, writes WritesFunc, facts CalleeFacts) *aliases {
	n := f.NumValues() + 1
	al := &aliases{class: make([]int, n), callWrites: map[*ir.Value][]bool{}}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	refers := func(v *ir.Value) bool {
		if v == nil {
			return false
		}
		if tu, ok := v.Type.(*types.Tuple); ok {
			for x := range tu.Variables() {
				if RefersToMemory(x.Type()) {
					return true
				}
			}
			return false
		}
		return RefersToMemory(v.Type)
	}
	union := func(x, y *ir.Value) {
		if !refers(x) || !refers(y) {
			return
		}
		rx, ry := find(x.ID), find(y.ID)
		if rx != ry {
			parent[rx] = ry
		}
	}
	al.all = append(al.all, f.Params...)
	for _, b := range f.Blocks {
		al.all = append(al.all, b.Instrs...)
	}
	uses := ir.Uses(f)
	for _, v := range al.all {
		switch v.Op {
		case ir.OpFieldAddr, ir.OpIndexAddr, ir.OpSlice, ir.OpConvert, ir.OpPhi, ir.OpSelect, ir.OpField, ir.OpIndex, ir.OpExtract, ir.OpLoad:
			// A pointer loaded from memory aliases the memory it came
			// from: shadows of nested pointers live in the outer shadow.
			for _, x := range v.Args {
				union(v, x)
			}
		case ir.OpStore:
			union(v.Args[0], v.Args[1])
		case ir.OpCall:
			w := callWrites(v, writes)
			al.callWrites[v] = w
			// The result may alias any argument (a result nobody uses
			// aliases nothing: floats.AddTo(dst, s, t) returns dst); an
			// argument the callee writes pointers through may come to
			// alias any other (writing floats into a []float64 makes no
			// alias).
			if v.Callee.Builtin == "append" {
				// The result is its first argument's memory or a copy of
				// it; the elements appended are copied, and alias it only
				// when they hold slices or pointers.
				union(v, v.Args[0])
				if s, ok := v.Type.Underlying().(*types.Slice); ok && RefersToMemory(s.Elem()) {
					for _, x := range v.Args[1:] {
						union(v, x)
					}
				}
				continue
			}
			origins := callOrigins(v, facts.Origins)
			fresh := facts.FreshStores != nil && facts.FreshStores(v.Callee)
			for i, x := range v.Args {
				if len(uses[v.ID]) > 0 && (origins == nil || slices.Contains(origins, i)) {
					union(v, x)
				}
				if (w == nil || w[i]) && x != nil && holdsPointersBehind(x.Type) && !fresh {
					for _, y := range v.Args {
						union(x, y)
					}
				}
			}
		}
	}
	for _, v := range al.all {
		if refers(v) {
			al.class[v.ID] = find(v.ID)
		} else {
			al.class[v.ID] = -1
		}
	}
	return al
}

// ParamWrites reports, for each parameter of f, whether f may store through
// memory reachable from it, given the same facts about its callees, and
// facts about their results and stores (see CalleeFacts; without them a
// constructor that copies its argument into fresh memory seems to hand it
// back).
func ParamWrites(f *ir.Func, writes WritesFunc, facts CalleeFacts) []bool {
	return paramWrites(f, writes, facts, false)
}

// PersistentWrites is ParamWrites without the stores into f's own local
// variables (allocations that do not escape, their fields and the
// elements of their arrays), which no caller sees: unoptimized code keeps
// a struct parameter in a local copy, which the parameter's memory
// aliases (the copy's slices) without being written by the copy's
// initialization.
func PersistentWrites(f *ir.Func, writes WritesFunc, facts CalleeFacts) []bool {
	return paramWrites(f, writes, facts, true)
}

func paramWrites(f *ir.Func, writes WritesFunc, facts CalleeFacts, skipLocal bool) []bool {
	al := computeAliasesWith(f, writes, facts)
	written := map[int]bool{}
	for _, v := range al.all {
		switch v.Op {
		case ir.OpStore:
			if skipLocal && (intoLocal(v.Args[0]) || paramCopy(v)) {
				continue
			}
			written[al.class[v.Args[0].ID]] = true
		case ir.OpCall:
			w := al.callWrites[v]
			for i, x := range v.Args {
				if (w == nil || w[i]) && x != nil && al.class[x.ID] >= 0 {
					written[al.class[x.ID]] = true
				}
			}
		}
	}
	out := make([]bool, len(f.Params))
	for i, p := range f.Params {
		out[i] = al.class[p.ID] >= 0 && written[al.class[p.ID]]
	}
	return out
}

// ParamReads reports, for each parameter of f, whether f may read memory
// reachable from it (load from it, or pass it to a callee that reads it),
// given writes and reads facts about its callees (nil: unknown, assumed
// read). A load that only serves an increment of the same memory
// (dst[i] += y) does not count: what the memory held before matters
// neither to f's other results nor to its derivatives.
func ParamReads(f *ir.Func, writes, reads WritesFunc) []bool {
	al := computeAliases(f, writes)
	uses := ir.Uses(f)
	read := map[int]bool{}
	mark := func(x *ir.Value) {
		if x != nil && al.class[x.ID] >= 0 {
			read[al.class[x.ID]] = true
		}
	}
	increment := func(l *ir.Value) bool {
		if len(uses[l.ID]) != 1 {
			return false
		}
		u := uses[l.ID][0]
		if u.Op != ir.OpBinary || u.Tok != token.ADD && u.Tok != token.SUB || len(uses[u.ID]) != 1 {
			return false
		}
		s := uses[u.ID][0]
		return s.Op == ir.OpStore && s.Args[1] == u && s.Args[0] != u && al.class[s.Args[0].ID] == al.class[l.Args[0].ID]
	}
	for _, v := range al.all {
		switch v.Op {
		case ir.OpLoad:
			if !increment(v) {
				mark(v.Args[0])
			}
		case ir.OpCall:
			c := v.Callee
			switch {
			case c.Builtin == "copy":
				mark(v.Args[1])
			case c.Builtin == "append":
				for _, x := range v.Args {
					mark(x)
				}
			case c.Builtin != "":
			case ByRule(c):
			default:
				var r []bool
				if c.Func != nil && !c.Invoke && reads != nil {
					r = reads(c.Func)
				}
				for i, x := range v.Args {
					if r == nil || i >= len(r) || r[i] {
						mark(x)
					}
				}
			}
		}
	}
	out := make([]bool, len(f.Params))
	for i, p := range f.Params {
		out[i] = al.class[p.ID] >= 0 && read[al.class[p.ID]]
	}
	return out
}

// holdsPointersBehind reports whether the memory a pointer or slice of
// type t refers to can hold pointers or slices (so that storing into it
// can create aliases).
func holdsPointersBehind(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return RefersToMemory(u.Elem())
	case *types.Slice:
		return RefersToMemory(u.Elem())
	}
	return RefersToMemory(t)
}

// paramCopy reports whether store v copies a parameter into a variable
// of f's own, the copy go/ssa makes of a parameter whose address is taken
// (f(&m) on a struct m by value): fresh memory, which the store
// initializes, not memory the caller can see, even where the copy's
// address goes to callees (it escapes).
func paramCopy(v *ir.Value) bool {
	return v.Args[0].Op == ir.OpAlloc && v.Args[1].Op == ir.OpParam && types.Identical(v.Args[0].Type.(*types.Pointer).Elem(), v.Args[1].Type)
}

// intoLocal reports whether address p is a local variable (an allocation
// that does not escape), one of its fields or an element of its array.
func intoLocal(p *ir.Value) bool {
	for {
		switch p.Op {
		case ir.OpAlloc:
			return !p.Heap
		case ir.OpFieldAddr:
			p = p.Args[0]
		case ir.OpIndexAddr:
			if _, ok := p.Args[0].Type.Underlying().(*types.Pointer); !ok {
				return false // a slice's element
			}
			p = p.Args[0]
		default:
			return false
		}
	}
}
