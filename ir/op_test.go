package ir

import (
	"go/token"
	"testing"
)

// TestOpInfo: each op has an entry of the table, with a name of its own,
// and the entries agree with themselves: only terminators have
// successors, terminators and stores have no result, optional arguments
// exist, and an op that checks a result has a type rule.
func TestOpInfo(t *testing.T) {
	names := map[string]Op{}
	for op := Op(0); op < numOps; op++ {
		info := op.Info()
		if info.Name == "" {
			t.Errorf("op %d has no entry", op)
			continue
		}
		if prev, ok := names[info.Name]; ok {
			t.Errorf("ops %d and %d are both named %s", prev, op, info.Name)
		}
		names[info.Name] = op
		if op.String() != info.Name {
			t.Errorf("%d.String() = %q, want %q", op, op.String(), info.Name)
		}
		if !info.Terminator && info.Succs != 0 {
			t.Errorf("%s: %d successors but no terminator", op, info.Succs)
		}
		if info.Terminator && info.Result != ResultNever {
			t.Errorf("%s: a terminator with a result", op)
		}
		if info.Optional != 0 && (info.Args < 0 || info.Optional>>info.Args != 0) {
			t.Errorf("%s: optional arguments %b of %d", op, info.Optional, info.Args)
		}
		if info.typ == nil && op != OpParam && op != OpJump && op != OpPanic {
			t.Errorf("%s has no type rule", op)
		}
		if info.WritesMemory && !op.HasEffect() || info.Terminator && !op.HasEffect() {
			t.Errorf("%s writes memory or ends a block but has no effect", op)
		}
		if info.Pure && (info.ReadsMemory || info.WritesMemory || info.Terminator) {
			t.Errorf("%s: pure but touches memory or ends a block", op)
		}
	}
	if numOps.String() != "op?" || numOps.Info() != OpInvalid.Info() {
		t.Errorf("an op out of range is not invalid")
	}
	for _, op := range []Op{OpJump, OpIf, OpReturn, OpPanic} {
		if !op.IsTerminator() {
			t.Errorf("%s is no terminator", op)
		}
	}
	for op, want := range map[Op]bool{OpStore: true, OpCall: true, OpIf: true, OpLoad: false, OpBinary: false, OpPhi: false} {
		if op.HasEffect() != want {
			t.Errorf("%s.HasEffect() = %v, want %v", op, !want, want)
		}
	}
	if !OpSlice.Info().IsOptional(3) || OpSlice.Info().IsOptional(0) || !OpMakeSlice.Info().IsOptional(1) {
		t.Errorf("optional arguments of slice or makeslice wrong")
	}
	if !isComparison(token.LEQ) || isComparison(token.ADD) {
		t.Errorf("isComparison wrong")
	}
}
