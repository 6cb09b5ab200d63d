package forward

// This file defines the signature and the doc comment of a generated JVP.

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"github.com/gadgen/gadgen/ssaad"
)

// names holds the parameter and result names of a generated JVP.
type names struct {
	params   []string // primal parameter names, receiver first
	tangents []string // tangent names, "" where the parameter is not varied
	results  []string // primal result names, all "" when unnamed
	dresults []string // tangent result names ("" when unnamed or no tangent)
	hasTan   []bool   // whether result i has a tangent
}

// nameFor returns a usable name for parameter v at position i.
func nameFor(v *types.Var, i int, recv bool) string {
	if n := v.Name(); n != "" && n != "_" {
		return n
	}
	if recv {
		// func (Beale) Func → b, as the example names it.
		t := v.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			r := []rune(n.Obj().Name())
			return string(unicode.ToLower(r[0]))
		}
		return "recv"
	}
	return fmt.Sprintf("p%d", i)
}

func computeNames(fn *types.Func, active []bool) *names {
	sig := fn.Type().(*types.Signature)
	ps := ssaad.Params(fn)
	hasRecv := sig.Recv() != nil
	nm := &names{}
	used := map[string]bool{}
	for i, p := range ps {
		n := nameFor(p, i, hasRecv && i == 0)
		for used[n] {
			n += "_"
		}
		used[n] = true
		nm.params = append(nm.params, n)
	}
	named := false
	for r := range sig.Results().Variables() {
		named = named || r.Name() != ""
	}
	for i := 0; i < sig.Results().Len(); i++ {
		r := sig.Results().At(i)
		n := ""
		if named {
			n = r.Name()
			if n == "" || n == "_" {
				n = fmt.Sprintf("r%d", i)
			}
			for used[n] {
				n += "_"
			}
			used[n] = true
		}
		nm.results = append(nm.results, n)
		nm.hasTan = append(nm.hasTan, ssaad.HasFloat(r.Type()))
	}
	fresh := func(base string) string {
		n := "d" + base
		for k := 2; used[n]; k++ {
			n = fmt.Sprintf("d%s%d", base, k)
		}
		used[n] = true
		return n
	}
	for i := range ps {
		t := ""
		if i < len(active) && active[i] {
			t = fresh(nm.params[i])
		}
		nm.tangents = append(nm.tangents, t)
	}
	for i, r := range nm.results {
		t := ""
		if nm.hasTan[i] && named {
			t = fresh(r)
		}
		nm.dresults = append(nm.dresults, t)
	}
	return nm
}

// Signature returns the signature of the JVP that req asks for.
func (Mode) Signature(req *ssaad.Request) (*types.Signature, error) {
	return signature(req.Target, req.Active, req.Method)
}

func signature(fn *types.Func, active []bool, method bool) (*types.Signature, error) {
	sig := fn.Type().(*types.Signature)
	ps := ssaad.Params(fn)
	if len(active) != len(ps) {
		return nil, fmt.Errorf("activity of %d parameters for %d", len(active), len(ps))
	}
	hasRecv := sig.Recv() != nil
	if method && !hasRecv {
		return nil, fmt.Errorf("%s is not a method", fn.Name())
	}
	if sig.Variadic() && active[len(active)-1] {
		return nil, fmt.Errorf("variadic parameter %s cannot be varied", ps[len(ps)-1].Name())
	}
	nm := computeNames(fn, active)
	pkg := fn.Pkg()
	var recv *types.Var
	var params []*types.Var
	for i, p := range ps {
		v := types.NewParam(token.NoPos, pkg, nm.params[i], p.Type())
		if method && i == 0 {
			recv = v
		} else {
			params = append(params, v)
		}
		if active[i] {
			params = append(params, types.NewParam(token.NoPos, pkg, nm.tangents[i], p.Type()))
		}
	}
	var results []*types.Var
	for i := 0; i < sig.Results().Len(); i++ {
		results = append(results, types.NewParam(token.NoPos, pkg, nm.results[i], sig.Results().At(i).Type()))
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if nm.hasTan[i] {
			results = append(results, types.NewParam(token.NoPos, pkg, nm.dresults[i], sig.Results().At(i).Type()))
		}
	}
	variadic := sig.Variadic() && !active[len(active)-1]
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), types.NewTuple(results...), variadic), nil
}

// docComment writes the generated function's doc comment: what it computes,
// the varied inputs, the useful outputs, and the shadow convention.
func docComment(name string, fn *types.Func, nm *names, active []bool) string {
	var sb strings.Builder
	target := fn.Name()
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			target = n.Obj().Name() + "." + target
		}
	}
	fmt.Fprintf(&sb, "%s computes %s and its directional derivative (forward mode: a\n", name, target)
	sb.WriteString("Jacobian-vector product) in one sweep.\n\n")
	var varied, fixed []string
	var shadows []string
	ps := ssaad.Params(fn)
	for i, p := range nm.params {
		if active[i] {
			varied = append(varied, fmt.Sprintf("%s (tangent %s)", p, nm.tangents[i]))
			if ssaad.IsPointerLike(ps[i].Type()) || isAggregate(ps[i].Type()) {
				shadows = append(shadows, p)
			}
		} else {
			fixed = append(fixed, p)
		}
	}
	if len(varied) > 0 {
		fmt.Fprintf(&sb, "Varied inputs: %s.\n", strings.Join(varied, ", "))
	} else {
		sb.WriteString("Varied inputs: none.\n")
	}
	if len(fixed) > 0 {
		fmt.Fprintf(&sb, "Fixed inputs (zero tangent): %s.\n", strings.Join(fixed, ", "))
	}
	sig := fn.Type().(*types.Signature)
	var outs []string
	for i := 0; i < sig.Results().Len(); i++ {
		if !nm.hasTan[i] {
			continue
		}
		r := nm.results[i]
		if r == "" {
			outs = append(outs, ordinal(i)+" result")
		} else {
			outs = append(outs, r)
		}
	}
	if len(outs) > 0 {
		fmt.Fprintf(&sb, "Useful outputs: %s; their tangents follow the primal results, in order.\n", strings.Join(outs, ", "))
	}
	if len(shadows) > 0 {
		fmt.Fprintf(&sb, "Shadows: each tangent of %s has the shape of its primal value; the tangent of\n", strings.Join(shadows, ", "))
		sb.WriteString("every element or field is at the same place in the shadow, and tangents of values\n")
		sb.WriteString("written through it are written (overwritten) into the shadow.\n")
	}
	return strings.TrimRight(sb.String(), "\n")
}

func isAggregate(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}

func ordinal(i int) string {
	switch i {
	case 0:
		return "the first"
	case 1:
		return "the second"
	case 2:
		return "the third"
	}
	return fmt.Sprintf("result %d:", i+1)
}
