package ir

// This file defines the shape of reverse mode's run-time alias checks, so
// that the passes that see them (package simplify drops the ones a
// function's callers make redundant; package emit writes the others as
// calls of one helper) agree on what one is.
//
// Reverse mode (ssaad/reverse, aliasChecks) builds each check as
//
//	b:     both := cap(a) > 0 && cap(c) > 0; if both goto check else next
//	check: if &a[:1][0] == &c[:1][0] goto fail else next
//	fail:  panic(AliasMessage("F", "a", "c"))

import (
	"go/constant"
	"go/token"
	"strings"
)

// AliasSuffix ends the message of every alias check: what follows
// "F: a and c".
const AliasSuffix = " share memory: gadgen's gradients need them apart"

// AliasMessage returns the message of the alias check of function fn on
// its slices a and b.
func AliasMessage(fn, a, b string) string {
	return fn + ": " + a + " and " + b + AliasSuffix
}

// AliasCheck is one alias check found in a function: the block that
// branches on it, the slices it compares, the message's prefix ("F: a and
// c") and the blocks that only the check uses.
type AliasCheck struct {
	B, Check, Fail, Next *Block
	A, C                 *Value
	What                 string
}

// FindAliasCheck returns the alias check that block b starts, if any.
func FindAliasCheck(b *Block) (AliasCheck, bool) {
	t := b.Terminator()
	if t == nil || t.Op != OpIf || len(b.Succs) != 2 {
		return AliasCheck{}, false
	}
	check, next := b.Succs[0], b.Succs[1]
	if len(check.Preds) != 1 || check == next || next.HasPhi() {
		return AliasCheck{}, false
	}
	a, c, ok := bothNonEmpty(t.Args[0])
	if !ok {
		return AliasCheck{}, false
	}
	ct := check.Terminator()
	if ct == nil || ct.Op != OpIf || len(check.Succs) != 2 || check.Succs[1] != next || !sameFirst(ct.Args[0], a, c) {
		return AliasCheck{}, false
	}
	for _, v := range check.Instrs[:len(check.Instrs)-1] {
		// Only the comparison: nothing else may be lost with the block.
		switch v.Op {
		case OpSlice, OpIndexAddr, OpBinary:
		default:
			return AliasCheck{}, false
		}
	}
	fail := check.Succs[0]
	what, ok := aliasMessage(fail)
	if !ok || len(fail.Preds) != 1 {
		return AliasCheck{}, false
	}
	return AliasCheck{B: b, Check: check, Fail: fail, Next: next, A: a, C: c, What: what}, true
}

// Bypass makes k.B jump to k.Next without the check; k.Check and k.Fail
// are then unreachable, for the caller to remove from the function's
// blocks.
func (k AliasCheck) Bypass() {
	b := k.B
	b.Instrs = b.Instrs[:len(b.Instrs)-1]
	k.Next.RemovePred(k.Next.PredIndex(k.Check))
	b.Succs = []*Block{k.Next} // b stays a predecessor of next
	b.NewValue(OpJump, nil)
}

// isConst0 reports whether v is the constant 0.
func isConst0(v *Value) bool {
	return v.Op == OpConst && v.Const != nil && v.Const.ExactString() == "0"
}

// bothNonEmpty matches cap(a) > 0 && cap(c) > 0.
func bothNonEmpty(v *Value) (a, c *Value, ok bool) {
	if v.Op != OpBinary || v.Tok != token.LAND {
		return nil, nil, false
	}
	nonEmpty := func(x *Value) *Value {
		if x.Op != OpBinary || x.Tok != token.GTR || x.Args[0].Op != OpCap || !isConst0(x.Args[1]) {
			return nil
		}
		return x.Args[0].Args[0]
	}
	a, c = nonEmpty(v.Args[0]), nonEmpty(v.Args[1])
	return a, c, a != nil && c != nil
}

// sameFirst matches &a[:1][0] == &c[:1][0].
func sameFirst(v, a, c *Value) bool {
	first := func(x, s *Value) bool {
		return x.Op == OpIndexAddr && isConst0(x.Args[1]) && x.Args[0].Op == OpSlice && x.Args[0].Args[0] == s
	}
	return v.Op == OpBinary && v.Tok == token.EQL && first(v.Args[0], a) && first(v.Args[1], c)
}

// aliasMessage returns the prefix of the message of block fail when it
// panics with an alias check's message.
func aliasMessage(fail *Block) (string, bool) {
	if len(fail.Instrs) != 2 || fail.Instrs[1].Op != OpPanic || fail.Instrs[1].Args[0] != fail.Instrs[0] {
		return "", false
	}
	cv := fail.Instrs[0]
	if cv.Op != OpConvert || cv.Args[0].Op != OpConst || cv.Args[0].Const == nil || cv.Args[0].Const.Kind() != constant.String {
		return "", false
	}
	return strings.CutSuffix(constant.StringVal(cv.Args[0].Const), AliasSuffix)
}
