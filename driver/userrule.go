package driver

// This file defines the second form of //gad:rule, for functions of
// tensors (and floats): the user pairs the function with a JVP and a VJP
// written in Go, as JAX's custom_jvp and custom_vjp do,
//
//	//gad:rule jvp=geluTangent vjp=geluAdjoint
//	func gelu(x *tensorops.Tensor) *tensorops.Tensor
//
//	func geluTangent(x, dx *tensorops.Tensor) *tensorops.Tensor    // the tangent of the result
//	func geluAdjoint(x, rBar *tensorops.Tensor) *tensorops.Tensor  // the adjoint of x
//
// and every mode calls them (templates.Rule.JVP). The rule's Tangent and
// Adjoint are expressions calling them through the pseudo-functions jvp
// and vjp, which the expander lowers (package ssaad).

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/templates"
)

// The options of //gad:rule that name the user's JVP and VJP functions.
const (
	jvpOption = "jvp"
	vjpOption = "vjp"
)

// userRuleOf checks a //gad:rule jvp=… vjp=… directive and returns the rule
// it gives.
//
// The function takes floats, tensors and values that hold no floats
// (ints, bools, shapes, …: passed through, not differentiated), and
// returns one float or tensor. Its JVP takes the function's parameters,
// optionally its result r, then the tangent of each float or tensor
// parameter in order, and returns the tangent of the result; its VJP takes
// the function's parameters, optionally r, then the adjoint of the result
// (rBar), and returns the adjoint of each float or tensor parameter in
// order. Neither ever gets nil: a zero tangent or adjoint is a zero tensor
// of its primal's shape.
func userRuleOf(d *frontend.Directive) (*templates.Rule, error) {
	fn := d.Target
	sig := fn.Type().(*types.Signature)
	name := frontend.FuncName(fn)
	for _, o := range d.Options {
		if o.Key != jvpOption && o.Key != vjpOption {
			return nil, fmt.Errorf("%s=: a rule gives either partials (x=\"…\") or the functions jvp= and vjp=, not both", o.Key)
		}
	}
	res := sig.Results()
	switch {
	case sig.Recv() != nil:
		return nil, fmt.Errorf("//gad:rule on a method: rules are for functions only (wrap the method in a function)")
	case sig.TypeParams().Len() > 0:
		return nil, fmt.Errorf("%s is generic: generic functions are not supported yet", name)
	case sig.Variadic():
		return nil, fmt.Errorf("%s is variadic: a rule needs a fixed list of parameters", name)
	case res.Len() != 1 || !ruleValue(res.At(0).Type()):
		return nil, fmt.Errorf("a rule with jvp= or vjp= needs a function with one float or tensor result; %s returns %s", name, typeString(res, fn.Pkg()))
	}
	rt := res.At(0).Type()
	var (
		params []string     // the rule's names of the parameters
		shown  []string     // their names in messages
		ptypes []types.Type // their types
		diff   []int        // the float and tensor parameters
	)
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		switch {
		case ruleValue(p.Type()):
			diff = append(diff, i)
		case ssaad.HasFloat(p.Type()):
			return nil, fmt.Errorf("parameter %s of %s has type %s: a rule's function takes floats, tensors and values that hold no floats (ints, bools, …)",
				paramName(p, i), name, typeString(p.Type(), fn.Pkg()))
		}
		params = append(params, paramName(p, i))
		shown = append(shown, paramName(p, i))
		ptypes = append(ptypes, p.Type())
	}
	if len(diff) == 0 {
		return nil, fmt.Errorf("%s has no float or tensor parameter to differentiate", name)
	}
	params = ruleNamesFor(params, diff)
	rule := &templates.Rule{Pkg: fn.Pkg().Path(), Name: fn.Name(), Params: params, Results: []string{ruleResult},
		Kind: templates.Smooth, Series: templates.FirstOrder, Math: d.Text}
	// want describes the signature wanted of the function of opt=.
	want := func(opt string, ps []*types.Var, results []types.Type) string {
		var in, out []string
		for _, p := range ps {
			in = append(in, p.Name()+" "+typeString(p.Type(), fn.Pkg()))
		}
		for _, r := range results {
			out = append(out, typeString(r, fn.Pkg()))
		}
		res := strings.Join(out, ", ")
		if len(out) > 1 {
			res = "(" + res + ")"
		}
		return fmt.Sprintf("%s=: want func(%s) %s", opt, strings.Join(in, ", "), res)
	}
	// primals returns the parameters of f (named for messages), then r.
	primals := func(withResult bool) []*types.Var {
		var ps []*types.Var
		for i, p := range shown {
			ps = append(ps, types.NewParam(token.NoPos, nil, p, ptypes[i]))
		}
		if withResult {
			ps = append(ps, types.NewParam(token.NoPos, nil, ruleResult, rt))
		}
		return ps
	}
	args := func(withResult bool) []string {
		as := slices.Clone(params)
		if withResult {
			as = append(as, ruleResult)
		}
		return as
	}
	var missing []string
	if v, ok := d.Option(jvpOption); ok {
		jvp, err := ruleFunc(fn, jvpOption, v)
		if err != nil {
			return nil, err
		}
		var tangents []*types.Var
		for _, i := range diff {
			tangents = append(tangents, types.NewParam(token.NoPos, nil, "d"+shown[i], ptypes[i]))
		}
		withResult, ok := matchRuleFunc(jvp, primals(false), primals(true), tangents, []types.Type{rt})
		if !ok {
			return nil, fmt.Errorf("%s (%s's parameters, optionally its result %s, then the tangent of each float or tensor parameter; "+
				"it returns the tangent of the result); %s has %s",
				want(jvpOption, slices.Concat(primals(false), tangents), []types.Type{rt}), name, ruleResult, jvp.Name(), typeString(jvp.Type(), fn.Pkg()))
		}
		call := args(withResult)
		for _, i := range diff {
			call = append(call, orZeros("d"+params[i], params[i], ptypes[i]))
		}
		src := templates.JVPCall + "(" + strings.Join(call, ", ") + ")"
		rule.JVP, rule.Joint = jvp, true
		rule.Tangent = make([]string, len(params))
		for _, i := range diff {
			rule.Tangent[i] = src
		}
	} else {
		missing = append(missing, "no JVP (jvp=): forward mode, Taylor mode and the Hessian-vector products need one")
	}
	if v, ok := d.Option(vjpOption); ok {
		vjp, err := ruleFunc(fn, vjpOption, v)
		if err != nil {
			return nil, err
		}
		seed := []*types.Var{types.NewParam(token.NoPos, nil, ruleResult+"Bar", rt)}
		var adjoints []types.Type
		for _, i := range diff {
			adjoints = append(adjoints, ptypes[i])
		}
		withResult, ok := matchRuleFunc(vjp, primals(false), primals(true), seed, adjoints)
		if !ok {
			return nil, fmt.Errorf("%s (%s's parameters, optionally its result %s, then the adjoint of the result; "+
				"it returns the adjoint of each float or tensor parameter); %s has %s",
				want(vjpOption, slices.Concat(primals(false), seed), adjoints), name, ruleResult, vjp.Name(), typeString(vjp.Type(), fn.Pkg()))
		}
		src := templates.VJPCall + "(" + strings.Join(append(args(withResult), orZeros(ruleResult+"Bar", ruleResult, rt)), ", ") + ")"
		rule.VJP = vjp
		rule.Adjoint = make([]string, len(params))
		for k, i := range diff {
			rule.Adjoint[i] = src
			if len(diff) > 1 {
				rule.Adjoint[i] = fmt.Sprintf("%s[%d]", src, k)
			}
		}
	} else {
		missing = append(missing, "no VJP (vjp=): reverse mode and the second-order helpers built on it need one")
	}
	if len(missing) > 0 {
		rule.Reason = fmt.Sprintf("its //gad:rule gives %s", missing[0])
	}
	return rule, nil
}

// ruleValue reports whether t is a float or a tensor: a value that a
// rule's JVP and VJP differentiate.
func ruleValue(t types.Type) bool {
	return ir.IsTensor(t) || isBasic(t, types.IsFloat)
}

// paramName returns the name of parameter i, p, or "_pI" for a blank one.
func paramName(p *types.Var, i int) string {
	if p.Name() == "" || p.Name() == "_" {
		return fmt.Sprintf("_p%d", i)
	}
	return p.Name()
}

// ruleNamesFor returns the names of the parameters in the rule's
// expressions: their own, unless one of them clashes with the names the
// expressions use (the result r, its adjoint rBar, the tangents d+name,
// the words of the language), and otherwise _p0, _p1, ….
func ruleNamesFor(params []string, diff []int) []string {
	reserved := map[string]bool{ruleResult: true, ruleResult + "Bar": true, "math": true, "tensorops": true,
		templates.Where: true, templates.JVPCall: true, templates.VJPCall: true, "true": true, "false": true, "nil": true}
	for _, i := range diff {
		reserved["d"+params[i]] = true
	}
	clash := false
	for _, p := range params {
		clash = clash || reserved[p] || !token.IsIdentifier(p)
	}
	if !clash {
		return params
	}
	out := make([]string, len(params))
	for i := range params {
		out[i] = fmt.Sprintf("_p%d", i)
	}
	return out
}

// ruleFunc returns the function named by the option opt=name of fn's
// rule: a function (not a method, not generic) of fn's package.
func ruleFunc(fn *types.Func, opt, name string) (*types.Func, error) {
	if !token.IsIdentifier(name) {
		return nil, fmt.Errorf("%s=%s: not the name of a function of package %s", opt, name, fn.Pkg().Name())
	}
	obj := fn.Pkg().Scope().Lookup(name)
	f, ok := obj.(*types.Func)
	switch {
	case obj == nil:
		return nil, fmt.Errorf("%s=%s: no function %s in package %s", opt, name, name, fn.Pkg().Name())
	case !ok:
		return nil, fmt.Errorf("%s=%s: %s is not a function", opt, name, name)
	case f.Type().(*types.Signature).TypeParams().Len() > 0:
		return nil, fmt.Errorf("%s=%s: %s is generic", opt, name, name)
	case f == fn:
		return nil, fmt.Errorf("%s=%s: the rule of %s cannot be the function itself", opt, name, name)
	}
	return f, nil
}

// matchRuleFunc reports whether fn has the parameters primals then
// derivs, or withResult then derivs, and the results results, and which.
func matchRuleFunc(fn *types.Func, primals, withResult, derivs []*types.Var, results []types.Type) (bool, bool) {
	sig := fn.Type().(*types.Signature)
	if sig.Variadic() || sig.Results().Len() != len(results) {
		return false, false
	}
	for i, r := range results {
		if !types.Identical(sig.Results().At(i).Type(), r) {
			return false, false
		}
	}
	same := func(ps []*types.Var) bool {
		if sig.Params().Len() != len(ps) {
			return false
		}
		for i, p := range ps {
			if !types.Identical(sig.Params().At(i).Type(), p.Type()) {
				return false
			}
		}
		return true
	}
	switch {
	case same(slices.Concat(primals, derivs)):
		return false, true
	case same(slices.Concat(withResult, derivs)):
		return true, true
	}
	return false, false
}

// orZeros returns the expression passing the tangent or adjoint d of a
// value v of type t to a user's function: for a tensor, d or, where d is
// nil (a zero derivative), a zero tensor of v's shape.
func orZeros(d, v string, t types.Type) string {
	if ir.IsTensor(t) {
		return "tensorops.OrZerosLike(" + d + ", " + v + ")"
	}
	return d
}

// typeString writes t as seen from package pkg, other packages by name.
func typeString(t types.Type, pkg *types.Package) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	})
}
