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
	"go/types"
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
	if t == nil {
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
func Varied(f *ir.Func, active []bool) *Activity {
	n := f.NumValues() + 1
	a := &Activity{f: f, varied: make([]bool, n), class: make([]int, n), vclass: map[int]bool{}}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(x, y *ir.Value) {
		if x == nil || y == nil || !IsPointerLike(x.Type) || !IsPointerLike(y.Type) {
			return
		}
		rx, ry := find(x.ID), find(y.ID)
		if rx != ry {
			parent[rx] = ry
		}
	}
	var all []*ir.Value
	all = append(all, f.Params...)
	for _, b := range f.Blocks {
		all = append(all, b.Instrs...)
	}
	// Alias classes.
	for _, v := range all {
		switch v.Op {
		case ir.OpFieldAddr, ir.OpIndexAddr, ir.OpSlice, ir.OpConvert, ir.OpPhi, ir.OpSelect, ir.OpField, ir.OpIndex, ir.OpExtract:
			for _, x := range v.Args {
				union(v, x)
			}
		case ir.OpLoad:
			// A pointer loaded from memory aliases the memory it came from:
			// shadows of nested pointers live in the shadow of the outer.
			union(v, v.Args[0])
		case ir.OpStore:
			union(v.Args[0], v.Args[1])
		case ir.OpCall:
			var ptrs []*ir.Value
			for _, x := range v.Args {
				if x != nil && IsPointerLike(x.Type) {
					ptrs = append(ptrs, x)
				}
			}
			if IsPointerLike(typeOrNil(v.Type)) {
				ptrs = append(ptrs, v)
			}
			for i := 1; i < len(ptrs); i++ {
				union(ptrs[0], ptrs[i])
			}
		}
	}
	// Tuples of calls hold pointers too: extracts were unioned with the call,
	// which is not pointer-like; union extracts of one call among themselves
	// and with the call's pointer arguments.
	for _, v := range all {
		if v.Op == ir.OpExtract && IsPointerLike(v.Type) {
			c := v.Args[0]
			for _, x := range c.Args {
				union(v, x)
			}
			for _, w := range all {
				if w.Op == ir.OpExtract && w.Args[0] == c {
					union(v, w)
				}
			}
		}
	}
	for _, v := range all {
		if IsPointerLike(v.Type) {
			a.class[v.ID] = find(v.ID)
		} else {
			a.class[v.ID] = -1
		}
	}

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
		if x == nil || !IsPointerLike(x.Type) || !HasFloat(x.Type) {
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
			if IsPointerLike(p.Type) {
				markClass(p)
			} else {
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
					for _, x := range v.Args {
						if markClass(x) {
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

func typeOrNil(t types.Type) types.Type {
	if t == nil {
		return types.Typ[types.Invalid]
	}
	return t
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
