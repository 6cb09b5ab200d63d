package emit

// This file defines how the run-time alias checks of reverse mode are
// written: as calls of one small helper, gadApart, that the file holds
// once, instead of an if statement of three lines per pair of slices.
//
// Reverse mode (ssaad/reverse, aliasChecks) builds each check as three
// blocks (ir.AliasCheck), and the rewrite below, on a private copy of the
// function (like lowerLiterals), replaces them by the call
// gadApart(a, c, "F: a and c") in the first. The helper panics with the same
// message; the IR the other passes and modes see keeps the branches.

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// apartHelper is the name of the alias-check helper, and apartSource its
// source, which a generated file calling it holds once (see File.Helpers).
const (
	apartHelper = "gadApart"
	apartSource = `// gadApart panics when the slices a and b start at the same element. what
// names the generated function and the two parameters: gadgen's gradients
// need a varied slice apart from its shadow, and a slice the function writes
// apart from the others it reads.
func gadApart[T any](a, b []T, what string) {
	if cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0] {
		panic(what + " share memory: gadgen's gradients need them apart")
	}
}
`
)

// usesApart reports whether the source of fn calls the alias-check helper
// (apartHelper), which the file that holds fn, or another file of its
// package, must then declare.
func usesApart(fn *ir.Func) bool {
	for _, b := range fn.Blocks {
		if _, ok := ir.FindAliasCheck(b); ok {
			return true
		}
	}
	return false
}

// callApart returns fn, or a copy of it in which each alias check is a
// call of the alias-check helper.
func callApart(fn *ir.Func) *ir.Func {
	if !usesApart(fn) {
		return fn
	}
	c, _ := cloneFunc(fn)
	gone := map[*ir.Block]bool{}
	for _, b := range c.Blocks {
		k, ok := ir.FindAliasCheck(b)
		if !ok || gone[b] {
			continue
		}
		str := types.Typ[types.String]
		elem := k.A.Type.Underlying().(*types.Slice).Elem()
		sl := types.NewSlice(elem)
		sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(
			types.NewParam(token.NoPos, nil, "a", sl), types.NewParam(token.NoPos, nil, "b", sl),
			types.NewParam(token.NoPos, nil, "what", str)), nil, false)
		k.Bypass()
		call := c.NewValue(ir.OpCall, nil, k.A, k.C, c.ConstValue(str, constant.MakeString(k.What)))
		call.Callee = &ir.Callee{Derived: &ir.DerivedFunc{Name: apartHelper, Sig: sig}}
		b.Insert(len(b.Instrs)-1, call)
		gone[k.Check], gone[k.Fail] = true, true
	}
	c.Blocks = slices.DeleteFunc(c.Blocks, func(b *ir.Block) bool { return gone[b] })
	return c
}
