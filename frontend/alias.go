package frontend

// This file defines the specializations of a function for arguments that
// share memory: a destination-first function called in place,
// mulTo(tmp, tmp, x) or gonum's f64.AxpyUnitaryTo(dst, a, x, dst). Its
// body read with the two parameters as one slice is what the call
// computes; gadgen differentiates that body, as mulToInPlace(tmp, x),
// rather than the body of mulTo, which assumes nothing of the kind but
// whose reverse mode recomputes its inputs and would find them
// overwritten.

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
)

// aliased is a specialization of fn for arguments that are the same
// value: parameter i is parameter same[i] (same[i] ≤ i).
type aliased struct {
	fn   *types.Func
	same []int
}

// Aliased returns the specialization of fn (a method's receiver first)
// for calls whose argument i is the same slice or pointer as argument
// same[i] (same[i] < i; same[i] == i for the others): a function of the
// parameters i with same[i] == i, making it on first use.
func (p *Program) Aliased(fn *types.Func, same []int) *types.Func {
	key := fmt.Sprintf("%s@%s%v", fn.FullName(), p.Fset.Position(fn.Pos()), same)
	if a := p.aliasKey[key]; a != nil {
		return a
	}
	ps := ir.Params(fn)
	var vars []*types.Var
	for i, v := range ps {
		if same[i] == i {
			vars = append(vars, types.NewParam(v.Pos(), fn.Pkg(), v.Name(), v.Type()))
		}
	}
	sig := fn.Type().(*types.Signature)
	base := fn.Name() + "InPlace"
	name := base
	taken := p.specialNames[fn.Pkg()]
	if taken == nil {
		taken = map[string]bool{}
		p.specialNames[fn.Pkg()] = taken
	}
	for k := 2; taken[name] || fn.Pkg().Scope().Lookup(name) != nil; k++ {
		name = fmt.Sprintf("%s%d", base, k)
	}
	taken[name] = true
	obj := types.NewFunc(fn.Pos(), fn.Pkg(), name, types.NewSignatureType(nil, nil, nil, types.NewTuple(vars...), sig.Results(), sig.Variadic()))
	p.aliasKey[key] = obj
	p.aliasOf[obj] = &aliased{fn: fn, same: same}
	return obj
}

// lowerAliased lowers the body of a's function and makes each parameter i
// with a.same[i] ≠ i the parameter it is the same as.
func (p *Program) lowerAliased(obj *types.Func, a *aliased) (*ir.Func, diag.List) {
	f, diags := p.Lower(a.fn)
	if len(diags) > 0 {
		return nil, diags
	}
	return MergeAliased(f, obj, a.same), nil
}

// AliasOf returns the function and the sharing of its arguments of obj,
// a specialization that Aliased made; ok is false for any other function.
func (p *Program) AliasOf(obj *types.Func) (fn *types.Func, same []int, ok bool) {
	a := p.aliasOf[obj]
	if a == nil {
		return nil, nil, false
	}
	return a.fn, a.same, true
}

// MergeAliased makes f, a body of the function that obj specializes for
// arguments that share memory (see Aliased), the body of obj: each
// parameter i with same[i] ≠ i is replaced by the parameter it is the
// same as. It changes f and returns it. (The driver calls it on the body
// of a function generated in the same run, whose source is a stub.)
func MergeAliased(f *ir.Func, obj *types.Func, same []int) *ir.Func {
	params := f.Params
	f.Params = nil
	for i, pv := range params {
		if same[i] != i {
			ir.ReplaceUses(f, pv, params[same[i]])
			continue
		}
		pv.Index = len(f.Params)
		f.Params = append(f.Params, pv)
	}
	f.Name, f.Recv = obj.Name(), nil
	return f
}

// describeAliased says what the specialization a is, called name.
func describeAliased(a *aliased, name string) string {
	ps := ir.Params(a.fn)
	var pairs []string
	for i, j := range a.same {
		if j != i {
			pairs = append(pairs, fmt.Sprintf("%s is %s", ps[i].Name(), ps[j].Name()))
		}
	}
	return wrap(fmt.Sprintf("%s is %s called with arguments that share memory (%s): its body with those parameters made one.", name, FuncName(a.fn), strings.Join(pairs, ", ")), 76)
}
