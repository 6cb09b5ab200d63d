package reverse

// This file defines the signature and the doc comment of a generated
// gradient.

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"github.com/gadgen/gadgen/ssaad"
)

// names holds the parameter and result names of a generated gradient.
type names struct {
	params   []string // primal parameter names, receiver first
	adjoints []string // shadow or partial names, "" where not varied
	results  []string // the primal results' names ("" when unnamed)
	seeds    []string // the seed of each result, "" for results without
}

func computeNames(fn *types.Func, active []bool) *names {
	ps := ssaad.Params(fn)
	hasRecv := fn.Type().(*types.Signature).Recv() != nil
	nm := &names{params: ssaad.ParamNames(fn)}
	used := map[string]bool{}
	for _, n := range nm.params {
		used[n] = true
	}
	scalars := false
	for i := range ps {
		n := ""
		if active[i] {
			n = ssaad.Fresh(used, ssaad.AdjointName(nm.params[i]))
			scalars = scalars || hasAdjoint(ps[i].Type()) && !mixedParam(ps[i].Type())
		}
		nm.adjoints = append(nm.adjoints, n)
	}
	_ = hasRecv
	r := fn.Type().(*types.Signature).Results()
	named := scalars
	for v := range r.Variables() {
		named = named || v.Name() != ""
	}
	for i := 0; i < r.Len(); i++ {
		n := ""
		if named {
			n = r.At(i).Name()
			if n == "" || n == "_" {
				n = "f"
				if r.Len() > 1 {
					n = fmt.Sprintf("r%d", i)
				}
			}
			n = ssaad.Fresh(used, n)
		}
		nm.results = append(nm.results, n)
	}
	for i := 0; i < r.Len(); i++ {
		seed := ""
		if hasAdjoint(r.At(i).Type()) || shadowResult(r.At(i).Type()) {
			base := "seed"
			if n := r.At(i).Name(); n != "" && n != "_" {
				base = ssaad.AdjointName(n)
			}
			seed = ssaad.Fresh(used, base)
		}
		nm.seeds = append(nm.seeds, seed)
	}
	return nm
}

// Signature implements ssaad.Mode.
func (m Mode) Signature(req *ssaad.Request) (*types.Signature, error) {
	gonum, err := gonumShape(req)
	if err != nil {
		return nil, err
	}
	if gonum {
		var recv *types.Var
		ps := ssaad.Params(req.Target)
		names := ssaad.ParamNames(req.Target)
		x := ps[len(ps)-1]
		if req.Method {
			recv = types.NewParam(token.NoPos, req.Target.Pkg(), names[0], ps[0].Type())
		}
		grad := types.NewParam(token.NoPos, req.Target.Pkg(), ssaad.Fresh(map[string]bool{names[len(names)-1]: true}, "grad"), x.Type())
		xp := types.NewParam(token.NoPos, req.Target.Pkg(), names[len(names)-1], x.Type())
		params := []*types.Var{grad, xp}
		if !req.Method && len(ps) == 2 {
			// A method generated as a function: its receiver first, as
			// Transform's function has it.
			params = append([]*types.Var{types.NewParam(token.NoPos, req.Target.Pkg(), names[0], ps[0].Type())}, params...)
		}
		return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), nil, false), nil
	}
	if m.Split {
		return splitSignature(req.Target, req.Active, req.Method)
	}
	return signature(req.Target, req.Active, req.Method, m.Seeded || m.Callee, m.noValue(req))
}

// noValue reports whether the generated function leaves out the primal
// results: the callee variant (its callers have them) and value=false.
func (m Mode) noValue(req *ssaad.Request) bool {
	return m.Callee || m.Split || req.Options.NoValue
}

func signature(fn *types.Func, active []bool, method, seeded, noValue bool) (*types.Signature, error) {
	sig := fn.Type().(*types.Signature)
	sb, err := ssaad.NewSigBuilder(fn, active, method)
	if err != nil {
		return nil, err
	}
	if err := resultsOK(sig.Results(), seeded); err != nil {
		return nil, err
	}
	nm := computeNames(fn, active)
	for i := 0; i < sig.Results().Len() && !noValue; i++ {
		sb.Results = append(sb.Results, sb.Var(nm.results[i], sig.Results().At(i).Type()))
	}
	for i, p := range ssaad.Params(fn) {
		sb.Primal(i, nm.params[i], p.Type())
		if !active[i] {
			continue
		}
		switch {
		case ssaad.IsPointerLike(p.Type()):
			sb.Add(nm.adjoints[i], p.Type())
		case mixedParam(p.Type()):
			sb.Add(nm.adjoints[i], types.NewPointer(p.Type()))
		default:
			sb.Results = append(sb.Results, sb.Var(nm.adjoints[i], p.Type()))
		}
	}
	if seeded {
		for i, seed := range nm.seeds {
			if seed != "" {
				sb.Add(seed, sig.Results().At(i).Type())
			}
		}
	}
	return sb.Build(sig.Variadic() && !active[len(active)-1] && !seeded), nil
}

// resultsOK checks the results of a function to differentiate: one float
// for //gad:grad; for //gad:vjp any results, those that are floats or
// structs or arrays of floats getting a seed, but no slices or pointers.
func resultsOK(rs *types.Tuple, seeded bool) error {
	if !seeded {
		if rs.Len() != 1 || !isFloat(rs.At(0).Type()) {
			return fmt.Errorf("//gad:grad needs a function with exactly one float result (//gad:vjp takes any)")
		}
		return nil
	}
	for v := range rs.Variables() {
		if ssaad.HasFloat(v.Type()) && !hasAdjoint(v.Type()) && !shadowResult(v.Type()) {
			return fmt.Errorf("results of type %s are not supported yet (floats, structs, arrays and slices of floats, and slices and pointers of memory made of them, are)", types.TypeString(v.Type(), pkgName))
		}
	}
	return nil
}

// sliceResult reports whether a result of type typ is a slice whose
// elements have adjoints and hold no memory: its seed is a slice of its
// type, the adjoints of its elements.
func sliceResult(typ types.Type) bool {
	if typ == nil {
		return false
	}
	s, ok := typ.Underlying().(*types.Slice)
	return ok && hasAdjoint(s.Elem()) && !ssaad.RefersToMemory(s.Elem())
}

// docComment states what the gradient computes, the varied inputs, and the
// accumulation convention.
func docComment(name string, fn *types.Func, nm *names, active []bool, seeded, callee, noValue bool, written []int) string {
	var sb strings.Builder
	target := ssaad.FuncName(fn)
	var seeds []string
	for _, sd := range nm.seeds {
		if sd != "" {
			seeds = append(seeds, sd)
		}
	}
	switch {
	case callee:
		fmt.Fprintf(&sb, "%s is the reverse of %s for the gradients that call it: the ", name, target)
		sb.WriteString("vector-Jacobian product of the adjoints of its results")
		if len(seeds) > 0 {
			fmt.Fprintf(&sb, " (%s)", strings.Join(seeds, ", "))
		}
		sb.WriteString(" and of what it ")
		fmt.Fprintf(&sb, "writes, with respect to the varied inputs. Unlike a //gad:vjp, it does not ")
		fmt.Fprintf(&sb, "redo the writes of %s that its own reverse does not read back: the memory ", target)
		sb.WriteString("of its slice and pointer parameters is left in no particular state.\n\n")
	case seeded && len(seeds) > 0:
		fmt.Fprintf(&sb, "%s computes %s and the vector-Jacobian product of the seeds %s (the ", name, target, strings.Join(seeds, ", "))
		sb.WriteString("adjoints of its results) with respect to the varied inputs (reverse mode).\n\n")
	case seeded:
		fmt.Fprintf(&sb, "%s computes %s and the vector-Jacobian product of the adjoints of what it ", name, target)
		sb.WriteString("writes with respect to the varied inputs (reverse mode).\n\n")
	case noValue:
		fmt.Fprintf(&sb, "%s computes the gradient of %s with respect to the varied inputs ", name, target)
		fmt.Fprintf(&sb, "(reverse mode), without the value of %s (value=false).\n\n", target)
	default:
		fmt.Fprintf(&sb, "%s computes %s and its gradient with respect to the varied inputs ", name, target)
		sb.WriteString("(reverse mode).\n\n")
	}
	ps := ssaad.Params(fn)
	var shadows, partials, fixed []string
	tensorShadows := false // a shadow holds tensors
	for i, p := range nm.params {
		switch {
		case !active[i]:
			fixed = append(fixed, p)
		case ssaad.IsPointerLike(ps[i].Type()):
			shadows = append(shadows, fmt.Sprintf("%s (into %s)", p, nm.adjoints[i]))
			tensorShadows = tensorShadows || ssaad.HoldsTensors(ps[i].Type())
		case mixedParam(ps[i].Type()):
			shadows = append(shadows, fmt.Sprintf("%s (into *%s)", p, nm.adjoints[i]))
			tensorShadows = tensorShadows || ssaad.HoldsTensors(ps[i].Type())
		default:
			partials = append(partials, fmt.Sprintf("%s (returned as %s)", p, nm.adjoints[i]))
		}
	}
	var varied []string
	varied = append(varied, shadows...)
	varied = append(varied, partials...)
	if len(varied) > 0 {
		fmt.Fprintf(&sb, "Varied inputs: %s.\n", strings.Join(varied, ", "))
	}
	if len(fixed) > 0 {
		fmt.Fprintf(&sb, "Fixed inputs: %s.\n", strings.Join(fixed, ", "))
	}
	if noValue && len(partials) > 0 {
		sb.WriteString("Results: the partials of the varied scalar inputs in order.\n")
	} else if noValue {
	} else if fn.Type().(*types.Signature).Results().Len() == 0 {
		fmt.Fprintf(&sb, "Results: the partials of the varied scalar inputs in order; the adjoints of what %s writes are read (and cleared) from the shadows.\n", target)
	} else {
		fmt.Fprintf(&sb, "Results: the value of %s, then the partials of the varied scalar inputs in order.\n", target)
	}
	switch {
	case tensorShadows:
		sb.WriteString("Shadows receive the gradient by accumulation (+=): the caller zeroes them first, ")
		sb.WriteString("or leaves their tensors nil (zero), which then receive fresh tensors.")
	case len(shadows) > 0:
		sb.WriteString("Shadows receive the gradient by accumulation (+=): the caller zeroes them first.")
	}
	for _, i := range written {
		fmt.Fprintf(&sb, "\n%s writes %s: on entry %s holds the adjoint of the values %s leaves in ", target, nm.params[i], nm.adjoints[i], target)
		fmt.Fprintf(&sb, "%s (zero for the gradient of its results alone); on return, the gradient with ", nm.params[i])
		fmt.Fprintf(&sb, "respect to the values %s held on entry.", nm.params[i])
	}
	return strings.TrimSuffix(sb.String(), "\n")
}
