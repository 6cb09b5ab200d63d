package reverse

// This file defines the run-time check of the aliasing rule of generated
// gradients.
//
// The rule: a varied slice and its shadow must not share memory, and a
// slice parameter the function writes must not share memory with another
// slice parameter (the reverse sweep re-reads inputs it assumes unchanged).
// The cheap case, slices that start at the same element, is checked when
// the gradient is called, with a panic naming the parameters; overlaps at
// other offsets cannot be seen without package unsafe and are the
// caller's responsibility.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// aliasChecks emits, from the current block, a panic for each pair of
// slice parameters that must not start at the same element and do; t.Cur
// is left at the block where the function goes on.
func (t *transformer) aliasChecks(names []string) {
	type slice struct {
		v    *ir.Value
		name string
	}
	var pairs [][2]slice
	var params []slice
	for i, pv := range t.primal.Params {
		if _, ok := pv.Type.Underlying().(*types.Slice); ok {
			params = append(params, slice{pv, names[i]})
		}
	}
	for _, p := range params {
		if d, ok := t.shadow[p.v]; ok && d.Op == ir.OpParam {
			pairs = append(pairs, [2]slice{{t.val[p.v], p.name}, {d, d.Name}})
		}
	}
	for i, p := range params {
		if !t.classWritten[t.act.Class(p.v)] {
			continue
		}
		for j, q := range params {
			if i == j || !types.Identical(p.v.Type.Underlying(), q.v.Type.Underlying()) || j < i && t.classWritten[t.act.Class(q.v)] {
				continue
			}
			pairs = append(pairs, [2]slice{{t.val[p.v], p.name}, {t.val[q.v], q.name}})
		}
	}
	for _, pr := range pairs {
		a, b := pr[0].v, pr[1].v
		elem := a.Type.Underlying().(*types.Slice).Elem()
		zero := t.F.Int(0)
		nonEmpty := func(s *ir.Value) *ir.Value {
			c := t.Emit(ir.OpBinary, boolType, t.Emit(ir.OpCap, intType, s), zero)
			c.Tok = token.GTR
			return c
		}
		first := func(s *ir.Value) *ir.Value {
			one := t.F.Int(1)
			return t.Emit(ir.OpIndexAddr, types.NewPointer(elem), t.Emit(ir.OpSlice, a.Type, s, nil, one, nil), zero)
		}
		check := t.F.NewBlock("alias")
		fail := t.F.NewBlock("alias.fail")
		next := t.F.NewBlock("alias.ok")
		both := t.Emit(ir.OpBinary, boolType, nonEmpty(a), nonEmpty(b))
		both.Tok = token.LAND
		t.Cur.If(both, check, next)
		t.Cur = check
		same := t.Emit(ir.OpBinary, boolType, first(a), first(b))
		same.Tok = token.EQL
		t.Cur.If(same, fail, next)
		t.Cur = fail
		msg := ir.AliasMessage(t.req.Name, pr[0].name, pr[1].name)
		s := t.Emit(ir.OpConvert, types.NewInterfaceType(nil, nil), t.F.ConstValue(types.Typ[types.String], constant.MakeString(msg)))
		t.Emit(ir.OpPanic, nil, s)
		t.Cur = next
	}
}
