package emit

// This file emits functions split in two (ir.Suspend): the code before the
// call of ir.SuspendBuiltin, then `return results, func(params) results
// { the code after it }` — the continuation is a closure over the
// variables of the first half, which Go keeps alive for it.

import (
	"github.com/dave/jennifer/jen"

	"github.com/gadgen/gadgen/ir"
)

// isolateSuspend returns fn, or a copy of it, in which each call of
// ir.SuspendBuiltin (there are several when splitIrreducible copied the
// block of one) ends its block and jumps to a block of its own, the
// continuation's entry, which no other block jumps to.
func isolateSuspend(fn *ir.Func) *ir.Func {
	if fn.Suspend == nil {
		return fn
	}
	cloned := false
	for {
		b, i := findSuspend(fn)
		if b == nil {
			if !cloned && !hasSuspend(fn) {
				internalf("split function %s without its suspension", fn.Name)
			}
			return fn
		}
		if !cloned {
			var m map[*ir.Value]*ir.Value
			fn, m = cloneFunc(fn)
			b = m[b.Instrs[i]].Block
			cloned = true
		}
		nb := fn.NewBlock("back")
		nb.Instrs = append(nb.Instrs, b.Instrs[i+1:]...)
		for _, v := range nb.Instrs {
			v.Block = nb
		}
		b.Instrs = b.Instrs[:i+1]
		nb.Succs = b.Succs
		for _, s := range nb.Succs {
			for k, p := range s.Preds {
				if p == b {
					s.Preds[k] = nb
				}
			}
		}
		b.Succs = nil
		b.Jump(nb)
	}
}

// findSuspend returns a block of fn holding a call of ir.SuspendBuiltin
// that is not isolated yet (see isolateSuspend), and its index there, or
// nil.
func findSuspend(fn *ir.Func) (*ir.Block, int) {
	for _, b := range fn.Blocks {
		for i, v := range b.Instrs {
			if ir.IsSuspend(v) && !(i == len(b.Instrs)-2 && b.Terminator().Op == ir.OpJump && len(b.Succs[0].Preds) == 1) {
				return b, i
			}
		}
	}
	return nil, -1
}

// hasSuspend reports whether fn calls ir.SuspendBuiltin.
func hasSuspend(fn *ir.Func) bool {
	for _, b := range fn.Blocks {
		for _, v := range b.Instrs {
			if ir.IsSuspend(v) {
				return true
			}
		}
	}
	return false
}

// suspendAt returns the call of ir.SuspendBuiltin ending block b, or nil.
func suspendAt(b *ir.Block) *ir.Value {
	if n := len(b.Instrs); n >= 2 && ir.IsSuspend(b.Instrs[n-2]) {
		return b.Instrs[n-2]
	}
	return nil
}

// dropSuspendStmt removes the statement of call s, the last out holds.
func dropSuspendStmt(out *slist, s *ir.Value) {
	if sv, ok := out.last().(*sValue); ok && sv.v == s {
		out.stmts = out.stmts[:len(out.stmts)-1]
		return
	}
	internalf("the suspension is not its block's last statement")
}

// renderSuspend renders `return results, func(params) results {body}`.
func (e *emitter) renderSuspend(st *sSuspend) jen.Code {
	sp := e.fn.Suspend
	var rs []jen.Code
	for i, t := range sp.Types {
		rs = append(rs, e.ref(st.v.Args[i], t).c)
	}
	var ps, results []jen.Code
	for _, p := range e.fn.Params[len(e.fn.Params)-sp.BackParams:] {
		name := e.paramName(p)
		if name == "" {
			name = "_"
		}
		ps = append(ps, jen.Id(name).Add(e.typ(p.Type)))
	}
	named := len(e.fn.ResultNames) > 0 && e.fn.ResultNames[0] != ""
	for i, t := range e.fn.ResultTypes {
		if named {
			// The body assigns them: they are its variables.
			results = append(results, jen.Id(e.fn.ResultNames[i]).Add(e.typ(t)))
		} else {
			results = append(results, e.typ(t))
		}
	}
	lit := jen.Func().Params(ps...)
	switch {
	case len(results) == 0:
	case len(results) == 1 && !named:
		lit.Add(results[0])
	default:
		lit.Params(results...)
	}
	lit.Block(e.renderList(st.body)...)
	return jen.Return(append(rs, lit)...)
}
