package simplify

// This file defines the alias classes of a function: a partition of the
// values that refer to memory into classes of values that may refer to the
// same memory (a flow-insensitive, unification-based points-to analysis in
// the manner of Steensgaard, "Points-to Analysis in Almost Linear Time",
// POPL 1996, coarsened: a pointer loaded from memory joins the class of
// that memory). Memory allocated by the function (OpAlloc, OpMakeSlice)
// starts in a class of its own, which is what lets LICM see that a loop
// writing a fresh slice does not write the slice a call reads.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// globalNode is the node of package-level memory. Value IDs start at 1.
const globalNode = 0

// memory is the alias-class partition of a function's values.
type memory struct {
	parent []int // union-find over value IDs and globalNode
}

// newMemory computes the alias classes of f. With mergeParams, every
// parameter is assumed to share memory with every other and with
// package-level variables (what a function knows of its arguments);
// otherwise each parameter starts in its own class (what a summary
// reports on).
func newMemory(f *ir.Func, env Env, mergeParams bool) *memory {
	m := newPartition(f.NumValues() + 1)
	union := func(x, y *ir.Value) {
		if refersToMemory(x) && refersToMemory(y) {
			m.union(x.ID, y.ID)
		}
	}
	toGlobal := func(x *ir.Value) {
		if refersToMemory(x) {
			m.union(x.ID, globalNode)
		}
	}
	if mergeParams {
		for _, p := range f.Params {
			toGlobal(p)
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			switch v.Op {
			case ir.OpGlobal:
				toGlobal(v)
			case ir.OpFieldAddr, ir.OpIndexAddr, ir.OpSlice, ir.OpConvert, ir.OpPhi, ir.OpSelect,
				ir.OpField, ir.OpIndex, ir.OpExtract, ir.OpLoad:
				for _, a := range v.Args {
					union(v, a)
				}
			case ir.OpStore:
				union(v.Args[0], v.Args[1])
			case ir.OpCall:
				e := callEffects(v, env)
				if e.WritesGlobal || e.ReadsGlobal { // unknown callees included
					// The result may be, and pointer arguments may be
					// stored into, package-level memory.
					toGlobal(v)
					for _, a := range v.Args {
						if a != nil && holdsPointers(a.Type) {
							toGlobal(a)
						}
					}
				}
				for i, a := range v.Args {
					union(v, a)
					if e.Writes[i] && a != nil && holdsPointers(a.Type) {
						for _, x := range v.Args {
							union(a, x)
						}
					}
				}
			}
		}
	}
	return m
}

// newPartition returns the partition of n nodes (value IDs) into
// singletons.
func newPartition(n int) *memory {
	m := &memory{parent: make([]int, n)}
	for i := range m.parent {
		m.parent[i] = i
	}
	return m
}

func (m *memory) find(x int) int {
	for m.parent[x] != x {
		m.parent[x] = m.parent[m.parent[x]]
		x = m.parent[x]
	}
	return x
}

func (m *memory) union(x, y int) {
	if rx, ry := m.find(x), m.find(y); rx != ry {
		m.parent[rx] = ry
	}
}

// class returns the class of v, or -1 when v refers to no memory.
func (m *memory) class(v *ir.Value) int {
	if !refersToMemory(v) {
		return -1
	}
	return m.find(v.ID)
}

// refersToMemory reports whether v is a value whose type refers to memory.
func refersToMemory(v *ir.Value) bool {
	if v == nil || v.Type == nil {
		return false
	}
	if tu, ok := v.Type.(*types.Tuple); ok {
		for x := range tu.Variables() {
			if typeRefersToMemory(x.Type()) {
				return true
			}
		}
		return false
	}
	return typeRefersToMemory(v.Type)
}

// typeRefersToMemory reports whether values of type t refer to memory:
// pointers, slices, interfaces (which may hold either), and structs or
// arrays holding them.
func typeRefersToMemory(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Interface:
		return true
	case *types.Array:
		return typeRefersToMemory(u.Elem())
	case *types.Struct:
		for f := range u.Fields() {
			if typeRefersToMemory(f.Type()) {
				return true
			}
		}
	}
	return false
}

// holdsPointers reports whether the memory that a value of type t refers
// to can itself hold pointers (so that storing into it can create an
// alias).
func holdsPointers(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return typeRefersToMemory(u.Elem())
	case *types.Slice:
		return typeRefersToMemory(u.Elem())
	}
	return typeRefersToMemory(t)
}

// typesOverlap reports whether memory holding a value of type a and
// memory holding one of type b may overlap. Without package unsafe, which
// gadgen refuses, Go memory is typed: a store of a float64 cannot change
// a slice header or a struct of ints, only memory of its type or of a
// struct or array that holds one in place (type-based alias analysis, as
// in C compilers' strict aliasing, exact for Go). Types with one
// underlying type may share memory (a pointer converts between them).
func typesOverlap(a, b types.Type) bool {
	return types.Identical(a.Underlying(), b.Underlying()) || holdsInPlace(a, b) || holdsInPlace(b, a)
}

// holdsInPlace reports whether values of type a hold a value of type b in
// their own memory: as a field or array element, at any depth (not
// through pointers or slices, which refer to other memory).
func holdsInPlace(a, b types.Type) bool {
	switch u := a.Underlying().(type) {
	case *types.Struct:
		for f := range u.Fields() {
			if types.Identical(f.Type().Underlying(), b.Underlying()) || holdsInPlace(f.Type(), b) {
				return true
			}
		}
	case *types.Array:
		return types.Identical(u.Elem().Underlying(), b.Underlying()) || holdsInPlace(u.Elem(), b)
	}
	return false
}

// writeSet is what a piece of code may write, per alias class: values of
// some types, or anything (a call).
type writeSet map[int][]types.Type

// addAll records that class c may be written with anything.
func (w writeSet) addAll(c int) { w[c] = nil; w[-1-c] = nil }

// add records a store of a value of type t into class c.
func (w writeSet) add(c int, t types.Type) {
	if _, all := w[-1-c]; all {
		return
	}
	w[c] = append(w[c], t)
}

// mayWrite reports whether w may write a value of type t in class c.
func (w writeSet) mayWrite(c int, t types.Type) bool {
	if _, all := w[-1-c]; all {
		return true
	}
	for _, s := range w[c] {
		if typesOverlap(s, t) {
			return true
		}
	}
	return false
}
