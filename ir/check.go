package ir

// This file defines Check, the IR's sanity checker (in the spirit of
// go/ssa's sanity.go and cmd/compile's check.go). Passes do not call it;
// the driver runs it on every primal and derivative after each pass of
// package simplify (simplify.Config.Check) and after each mode's
// transformation, so an invalid IR is an internal error, never output.

import (
	"fmt"
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
		if p.Op != OpParam || p.Index != i || p.Block != nil || p.Type == nil {
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
	consts := map[*Value]bool{} // checked already
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
		if len(b.Succs) != term.Op.Info().Succs {
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
					if !v.Op.Info().IsOptional(j) {
						bad("%s: argument %d is nil", v.Ref(), j)
					}
					continue
				}
				if a.Op == OpConst || a.Op == OpParam {
					if a.Op == OpConst && !consts[a] {
						consts[a] = true
						checkOperands(a, bad)
					}
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

// checkOperands checks v against its op's entry in the table (op.go): its
// number of arguments, which of them may be nil, whether it has a result,
// and its type rule.
func checkOperands(v *Value, bad func(string, ...any)) {
	info := v.Op.Info()
	if info.Args >= 0 && len(v.Args) != info.Args {
		bad("%s: %s takes %d arguments, has %d", v.Ref(), v.Op, info.Args, len(v.Args))
		return
	}
	switch {
	case info.Result == ResultAlways && v.Type == nil:
		bad("%s: %s without a type", v.Ref(), v.Op)
		return
	case info.Result == ResultNever && v.Type != nil:
		bad("%s: %s of type %s", v.Ref(), v.Op, v.Type)
		return
	}
	for j, a := range v.Args {
		switch {
		case a == nil && !info.IsOptional(j):
			return // reported with the uses, where the block is reachable
		case a != nil && a.Type == nil:
			bad("%s: argument %d, %s, has no result", v.Ref(), j, a.Ref())
			return
		}
	}
	if info.typ != nil {
		if msg := info.typ(v); msg != "" {
			bad("%s: %s", v.Ref(), msg)
		}
	}
}
