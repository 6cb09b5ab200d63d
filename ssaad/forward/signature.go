package forward

// This file defines the signature and the doc comment of a generated JVP.

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

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

// layout places the results of a JVP: the primal results, then one
// tangent per result whose type holds floats, in order; except that a
// trailing error result stays last, as Go convention wants
// (y, dy, err rather than y, err, dy).
type layout struct {
	primal  []int // primal[i]: position of primal result i
	tangent []int // tangent[i]: position of the tangent of result i, or -1
	n       int   // number of results
}

var errorType = types.Universe.Lookup("error").Type()

func resultLayout(rs []types.Type) layout {
	l := layout{primal: make([]int, len(rs)), tangent: make([]int, len(rs))}
	errLast := len(rs) > 0 && types.Identical(rs[len(rs)-1], errorType)
	k := 0
	for i := range rs {
		if errLast && i == len(rs)-1 {
			continue
		}
		l.primal[i] = k
		k++
	}
	for i, r := range rs {
		l.tangent[i] = -1
		if ssaad.HasFloat(r) {
			l.tangent[i] = k
			k++
		}
	}
	if errLast {
		l.primal[len(rs)-1] = k
		k++
	}
	l.n = k
	return l
}

func tupleTypes(t *types.Tuple) []types.Type {
	var out []types.Type
	for v := range t.Variables() {
		out = append(out, v.Type())
	}
	return out
}

func computeNames(fn *types.Func, active []bool) *names {
	sig := fn.Type().(*types.Signature)
	ps := ssaad.Params(fn)
	nm := &names{params: ssaad.ParamNames(fn)}
	used := map[string]bool{}
	for _, n := range nm.params {
		used[n] = true
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
	fresh := func(base string) string { return ssaad.Fresh(used, "d"+base) }
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
	lay := resultLayout(tupleTypes(sig.Results()))
	results := make([]*types.Var, lay.n)
	for i := 0; i < sig.Results().Len(); i++ {
		rt := sig.Results().At(i).Type()
		results[lay.primal[i]] = types.NewParam(token.NoPos, pkg, nm.results[i], rt)
		if t := lay.tangent[i]; t >= 0 {
			results[t] = types.NewParam(token.NoPos, pkg, nm.dresults[i], rt)
		}
	}
	variadic := sig.Variadic() && !active[len(active)-1]
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), types.NewTuple(results...), variadic), nil
}

// docComment writes the generated function's doc comment: what it computes,
// the varied inputs, the useful outputs, and the shadow convention. writes
// tells which parameters the function stores through (nil: unknown).
func docComment(name string, fn *types.Func, nm *names, active, writes []bool) string {
	var sb strings.Builder
	target := ssaad.FuncName(fn)
	fmt.Fprintf(&sb, "%s computes %s and its directional derivative along the tangents\n", name, target)
	sb.WriteString("of its varied inputs (forward mode: a Jacobian-vector product).\n\n")
	var varied, fixed, shadows, written []string
	ps := ssaad.Params(fn)
	for i, p := range nm.params {
		if !active[i] {
			fixed = append(fixed, p)
			continue
		}
		varied = append(varied, fmt.Sprintf("%s (tangent %s)", p, nm.tangents[i]))
		t := ps[i].Type()
		if ssaad.IsPointerLike(t) || isAggregate(t) {
			shadows = append(shadows, nm.tangents[i])
			if ssaad.IsPointerLike(t) && (writes == nil || i < len(writes) && writes[i]) {
				written = append(written, fmt.Sprintf("%s into %s", p, nm.tangents[i]))
			}
		}
	}
	if len(varied) > 0 {
		fmt.Fprintf(&sb, "Varied inputs: %s.\n", strings.Join(varied, ", "))
	}
	if len(fixed) > 0 {
		fmt.Fprintf(&sb, "Fixed inputs (zero tangent): %s.\n", strings.Join(fixed, ", "))
	}
	sig := fn.Type().(*types.Signature)
	lay := resultLayout(tupleTypes(sig.Results()))
	if lay.n > 0 {
		out := make([]string, lay.n)
		for i := 0; i < sig.Results().Len(); i++ {
			r := nm.results[i]
			if r == "" {
				out[lay.primal[i]], r = "the value of "+target, "its tangent"
				if sig.Results().Len() > 1 {
					out[lay.primal[i]], r = fmt.Sprintf("result %d of %s", i+1, target), fmt.Sprintf("the tangent of result %d", i+1)
				}
				if k := lay.tangent[i]; k >= 0 {
					out[k] = r
				}
				continue
			}
			out[lay.primal[i]] = r
			if k := lay.tangent[i]; k >= 0 {
				out[k] = nm.dresults[i] + ", the tangent of " + r
			}
		}
		fmt.Fprintf(&sb, "Results, in order: %s.\n", strings.Join(out, "; "))
	}
	if len(shadows) > 0 {
		fmt.Fprintf(&sb, "Shadows: %s %s the shape of %s primal; each element or field holds the\n",
			strings.Join(shadows, ", "), plural(len(shadows), "has", "have"), plural(len(shadows), "its", "their"))
		sb.WriteString("tangent of the primal's element or field at the same place.")
		if len(written) > 0 {
			fmt.Fprintf(&sb, " The tangents of the values\n%s writes are written (overwritten) into the shadows: %s.", target, strings.Join(written, ", "))
		}
		sb.WriteString("\n")
	}
	return strings.TrimRight(sb.String(), "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func isAggregate(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}
