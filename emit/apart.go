package emit

// This file defines how the run-time alias checks of reverse mode are
// written: as calls of one small helper, gadApart, that the file holds
// once, instead of an if statement of three lines per pair of slices.
//
// Reverse mode (ssaad/reverse, aliasChecks) builds each check as
//
//	b:     both := cap(a) > 0 && cap(c) > 0; if both goto check else next
//	check: if &a[:1][0] == &c[:1][0] goto fail else next
//	fail:  panic("F: a and c share memory: gadgen's gradients need them apart")
//
// and the rewrite below, on a private copy of the function (like
// lowerLiterals), replaces the three blocks by the call
// gadApart(a, c, "F: a and c") in b. The helper panics with the same
// message; the IR the other passes and modes see keeps the branches.

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

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
	// apartSuffix ends the message of every alias check (apartSource spells
	// it out).
	apartSuffix = " share memory: gadgen's gradients need them apart"
)

// apartCheck is one alias check found in a function: the block that
// branches on it, the slices it compares, the message's prefix and the
// blocks the call replaces.
type apartCheck struct {
	b, check, fail, next *ir.Block
	a, c                 *ir.Value
	what                 string
}

// findApart returns the alias check that block b starts, if any.
func findApart(b *ir.Block) (apartCheck, bool) {
	t := b.Terminator()
	if t == nil || t.Op != ir.OpIf || len(b.Succs) != 2 {
		return apartCheck{}, false
	}
	check, next := b.Succs[0], b.Succs[1]
	if len(check.Preds) != 1 || check == next || next.HasPhi() {
		return apartCheck{}, false
	}
	a, c, ok := bothNonEmpty(t.Args[0])
	if !ok {
		return apartCheck{}, false
	}
	ct := check.Terminator()
	if ct == nil || ct.Op != ir.OpIf || len(check.Succs) != 2 || check.Succs[1] != next || !sameFirst(ct.Args[0], a, c) {
		return apartCheck{}, false
	}
	for _, v := range check.Instrs[:len(check.Instrs)-1] {
		// Only the comparison: nothing else may be lost with the block.
		switch v.Op {
		case ir.OpSlice, ir.OpIndexAddr, ir.OpBinary:
		default:
			return apartCheck{}, false
		}
	}
	fail := check.Succs[0]
	what, ok := apartMessage(fail)
	if !ok || len(fail.Preds) != 1 {
		return apartCheck{}, false
	}
	return apartCheck{b: b, check: check, fail: fail, next: next, a: a, c: c, what: what}, true
}

// bothNonEmpty matches cap(a) > 0 && cap(c) > 0.
func bothNonEmpty(v *ir.Value) (a, c *ir.Value, ok bool) {
	if v.Op != ir.OpBinary || v.Tok != token.LAND {
		return nil, nil, false
	}
	nonEmpty := func(x *ir.Value) *ir.Value {
		if x.Op != ir.OpBinary || x.Tok != token.GTR || x.Args[0].Op != ir.OpCap || !constant0(x.Args[1]) {
			return nil
		}
		return x.Args[0].Args[0]
	}
	a, c = nonEmpty(v.Args[0]), nonEmpty(v.Args[1])
	return a, c, a != nil && c != nil
}

// sameFirst matches &a[:1][0] == &c[:1][0].
func sameFirst(v, a, c *ir.Value) bool {
	first := func(x, s *ir.Value) bool {
		return x.Op == ir.OpIndexAddr && constant0(x.Args[1]) && x.Args[0].Op == ir.OpSlice && x.Args[0].Args[0] == s
	}
	return v.Op == ir.OpBinary && v.Tok == token.EQL && first(v.Args[0], a) && first(v.Args[1], c)
}

// apartMessage returns the prefix of the message of block fail when it
// panics with an alias check's message.
func apartMessage(fail *ir.Block) (string, bool) {
	if len(fail.Instrs) != 2 || fail.Instrs[1].Op != ir.OpPanic || fail.Instrs[1].Args[0] != fail.Instrs[0] {
		return "", false
	}
	cv := fail.Instrs[0]
	if cv.Op != ir.OpConvert || cv.Args[0].Op != ir.OpConst || cv.Args[0].Const == nil || cv.Args[0].Const.Kind() != constant.String {
		return "", false
	}
	return strings.CutSuffix(constant.StringVal(cv.Args[0].Const), apartSuffix)
}

// usesApart reports whether the source of fn calls the alias-check helper
// (apartHelper), which the file that holds fn, or another file of its
// package, must then declare.
func usesApart(fn *ir.Func) bool {
	for _, b := range fn.Blocks {
		if _, ok := findApart(b); ok {
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
		k, ok := findApart(b)
		if !ok || gone[b] {
			continue
		}
		str := types.Typ[types.String]
		elem := k.a.Type.Underlying().(*types.Slice).Elem()
		sl := types.NewSlice(elem)
		sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(
			types.NewParam(token.NoPos, nil, "a", sl), types.NewParam(token.NoPos, nil, "b", sl),
			types.NewParam(token.NoPos, nil, "what", str)), nil, false)
		b.Instrs = b.Instrs[:len(b.Instrs)-1]
		b.Succs = nil
		call := b.NewValue(ir.OpCall, nil, k.a, k.c, c.ConstValue(str, constant.MakeString(k.what)))
		call.Callee = &ir.Callee{Derived: &ir.DerivedFunc{Name: apartHelper, Sig: sig}}
		k.next.RemovePred(k.next.PredIndex(k.check))
		b.Succs = append(b.Succs, k.next) // b stays a predecessor of next
		b.NewValue(ir.OpJump, nil)
		gone[k.check], gone[k.fail] = true, true
	}
	c.Blocks = slices.DeleteFunc(c.Blocks, func(b *ir.Block) bool { return gone[b] })
	return c
}
