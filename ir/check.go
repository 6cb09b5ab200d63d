package ir

// This file defines Check, the IR's sanity checker (in the spirit of
// go/ssa's sanity.go and cmd/compile's check.go). Passes do not call it;
// the driver runs it on every primal and derivative after each pass of
// package simplify (simplify.Config.Check) and after each mode's
// transformation, so an invalid IR is an internal error, never output.

import (
	"fmt"
	"go/types"
	"strings"
)

// Check verifies the invariants listed in the package documentation and
// returns an error describing every violation it finds, or nil.
func Check(f *Func) error {
	var errs []string
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Sprintf(format, args...))
	}
	if len(f.Blocks) == 0 {
		return fmt.Errorf("ir.Check %s: no blocks", f.Name)
	}
	for i, p := range f.Params {
		if p.Op != OpParam || p.Index != i || p.Block != nil {
			bad("param %d: %s", i, p.LongString(nil))
		}
	}
	if len(f.ResultNames) != len(f.ResultTypes) {
		bad("%d result names for %d result types", len(f.ResultNames), len(f.ResultTypes))
	}
	for i, b := range f.Blocks {
		if b.Index != i {
			bad("b%d at position %d", b.Index, i)
		}
		if b.Func != f {
			bad("b%d belongs to another function", b.Index)
		}
	}
	if len(errs) > 0 {
		return checkError(f, errs)
	}

	cfg := NewCFG(f)
	defined := map[*Value]bool{}
	for _, p := range f.Params {
		defined[p] = true
	}
	pos := map[*Value]int{}
	for _, b := range f.Blocks {
		for i, v := range b.Instrs {
			if defined[v] {
				bad("%s appears twice", v.Ref())
			}
			defined[v] = true
			pos[v] = i
		}
	}

	for _, b := range f.Blocks {
		// Edges mirror each other.
		for _, s := range b.Succs {
			if s.PredIndex(b) < 0 {
				bad("b%d -> b%d not in b%d.Preds", b.Index, s.Index, s.Index)
			}
		}
		for _, p := range b.Preds {
			found := false
			for _, s := range p.Succs {
				found = found || s == b
			}
			if !found {
				bad("b%d in b%d.Preds but b%d has no edge to it", p.Index, b.Index, p.Index)
			}
		}
		term := b.Terminator()
		if term == nil {
			bad("b%d does not end with a terminator", b.Index)
			continue
		}
		want := map[Op]int{OpJump: 1, OpIf: 2, OpReturn: 0, OpPanic: 0}[term.Op]
		if len(b.Succs) != want {
			bad("b%d ends with %s but has %d successors", b.Index, term.Op, len(b.Succs))
		}
		if term.Op == OpReturn && len(term.Args) != len(f.ResultTypes) {
			bad("b%d returns %d values, function has %d results", b.Index, len(term.Args), len(f.ResultTypes))
		}
		phis := true
		for i, v := range b.Instrs {
			if v.Block != b {
				bad("%s in b%d has Block b%d", v.Ref(), b.Index, blockIndex(v.Block))
			}
			if v.Op.IsTerminator() && i != len(b.Instrs)-1 {
				bad("terminator %s in the middle of b%d", v.Ref(), b.Index)
			}
			if v.Op == OpParam {
				bad("param %s inside b%d", v.Ref(), b.Index)
			}
			if v.Op == OpPhi {
				if !phis {
					bad("phi %s after non-phi in b%d", v.Ref(), b.Index)
				}
				if len(v.Args) != len(b.Preds) {
					bad("phi %s has %d args, b%d has %d preds", v.Ref(), len(v.Args), b.Index, len(b.Preds))
				}
			} else {
				phis = false
			}
			checkOperands(v, bad)
			if !cfg.Reachable(b) {
				continue
			}
			for j, a := range v.Args {
				if a == nil {
					if !(v.Op == OpSlice || v.Op == OpMakeSlice) {
						bad("%s: argument %d is nil", v.Ref(), j)
					}
					continue
				}
				if a.Op == OpConst || a.Op == OpParam {
					if a.Op == OpParam && !defined[a] {
						bad("%s uses a parameter of another function", v.Ref())
					}
					continue
				}
				if !defined[a] {
					bad("%s uses %s, which is in no block of %s", v.Ref(), a.Ref(), f.Name)
					continue
				}
				if !cfg.Reachable(a.Block) {
					bad("%s uses %s from unreachable b%d", v.Ref(), a.Ref(), a.Block.Index)
					continue
				}
				useBlock := b
				if v.Op == OpPhi {
					if j >= len(b.Preds) {
						continue
					}
					useBlock = b.Preds[j]
					if !cfg.Reachable(useBlock) {
						continue
					}
					if !cfg.Dominates(a.Block, useBlock) {
						bad("%s: argument %s from b%d does not dominate b%d", v.Ref(), a.Ref(), a.Block.Index, useBlock.Index)
					}
					continue
				}
				if a.Block == b {
					if pos[a] >= i {
						bad("%s uses %s before its definition", v.Ref(), a.Ref())
					}
				} else if !cfg.Dominates(a.Block, b) {
					bad("%s uses %s from b%d, which does not dominate b%d", v.Ref(), a.Ref(), a.Block.Index, b.Index)
				}
			}
		}
	}
	if len(errs) > 0 {
		return checkError(f, errs)
	}
	return nil
}

func checkError(f *Func, errs []string) error {
	return fmt.Errorf("ir.Check %s:\n\t%s\n%s", f.Name, strings.Join(errs, "\n\t"), f)
}

func blockIndex(b *Block) int {
	if b == nil {
		return -1
	}
	return b.Index
}

// checkOperands checks the arity and the simplest typing rules of v.
func checkOperands(v *Value, bad func(string, ...any)) {
	arity := map[Op]int{
		OpConst: 0, OpBinary: 2, OpUnary: 1, OpConvert: 1, OpSelect: 3,
		OpExtract: 1, OpAlloc: 0, OpGlobal: 0, OpLoad: 1, OpStore: 2, OpFieldAddr: 1,
		OpIndexAddr: 2, OpField: 1, OpIndex: 2, OpMakeSlice: 2, OpSlice: 4,
		OpLen: 1, OpCap: 1, OpJump: 0, OpIf: 1, OpPanic: 1,
	}
	if n, ok := arity[v.Op]; ok && len(v.Args) != n {
		bad("%s: %s takes %d arguments, has %d", v.Ref(), v.Op, n, len(v.Args))
		return
	}
	switch v.Op {
	case OpInvalid:
		bad("%s: invalid op", v.Ref())
	case OpCall:
		c := v.Callee
		if c == nil {
			bad("%s: call without callee", v.Ref())
			return
		}
		// The arguments match the callee's parameters in number (the
		// receiver first for a method; a variadic callee takes more or
		// fewer).
		var sig *types.Signature
		recv := false
		switch {
		case c.Derived != nil:
			sig, recv = c.Derived.Sig, c.Derived.Method
		case c.Func != nil:
			sig = c.Func.Type().(*types.Signature)
			recv = sig.Recv() != nil
		}
		if sig != nil && !sig.Variadic() {
			n := sig.Params().Len()
			if recv {
				n++
			}
			if len(v.Args) != n {
				bad("%s: call of %s with %d arguments for %d parameters", v.Ref(), c, len(v.Args), n)
			}
		}
	case OpBinary:
		x, y := v.Args[0], v.Args[1]
		if x == nil || y == nil {
			return
		}
		if !isShift(v) && !types.Identical(x.Type, y.Type) {
			bad("%s: %s operands of types %s and %s", v.Ref(), v.Tok, x.Type, y.Type)
		}
	case OpLoad:
		if a := v.Args[0]; a != nil {
			if p, ok := a.Type.Underlying().(*types.Pointer); !ok {
				bad("%s: load from non-pointer %s", v.Ref(), a.Type)
			} else if !types.Identical(p.Elem(), v.Type) {
				bad("%s: load of %s has type %s", v.Ref(), p.Elem(), v.Type)
			}
		}
	case OpStore:
		a, x := v.Args[0], v.Args[1]
		if a == nil || x == nil {
			return
		}
		if p, ok := a.Type.Underlying().(*types.Pointer); !ok {
			bad("%s: store to non-pointer %s", v.Ref(), a.Type)
		} else if !types.AssignableTo(x.Type, p.Elem()) {
			bad("%s: store of %s to *%s", v.Ref(), x.Type, p.Elem())
		}
	case OpAlloc:
		if _, ok := v.Type.Underlying().(*types.Pointer); !ok {
			bad("%s: alloc of non-pointer type %s", v.Ref(), v.Type)
		}
	case OpPhi:
		for j, a := range v.Args {
			if a != nil && a != v && !types.Identical(a.Type, v.Type) {
				bad("%s: φ of type %s has argument %d of type %s", v.Ref(), v.Type, j, a.Type)
			}
		}
	case OpSelect:
		c, x, y := v.Args[0], v.Args[1], v.Args[2]
		if c != nil {
			if b, ok := c.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsBoolean == 0 {
				bad("%s: select on a condition of type %s", v.Ref(), c.Type)
			}
		}
		for _, a := range []*Value{x, y} {
			if a != nil && !types.Identical(a.Type, v.Type) {
				bad("%s: select of type %s has an operand of type %s", v.Ref(), v.Type, a.Type)
			}
		}
	case OpFieldAddr, OpField:
		x := v.Args[0]
		if x == nil {
			return
		}
		t := x.Type
		if v.Op == OpFieldAddr {
			p, ok := t.Underlying().(*types.Pointer)
			if !ok {
				bad("%s: field address of non-pointer %s", v.Ref(), t)
				return
			}
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		switch {
		case !ok:
			bad("%s: field of non-struct %s", v.Ref(), t)
		case v.Index < 0 || v.Index >= st.NumFields():
			bad("%s: field %d of a struct of %d fields", v.Ref(), v.Index, st.NumFields())
		default:
			want := st.Field(v.Index).Type()
			if v.Op == OpFieldAddr {
				want = types.NewPointer(want)
			}
			if !types.Identical(want, v.Type) {
				bad("%s: field %d has type %s, the value %s", v.Ref(), v.Index, want, v.Type)
			}
		}
	case OpIf:
		if c := v.Args[0]; c != nil {
			if b, ok := c.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsBoolean == 0 {
				bad("%s: condition of type %s", v.Ref(), c.Type)
			}
		}
	}
}

func isShift(v *Value) bool {
	return v.Tok.String() == "<<" || v.Tok.String() == ">>"
}
