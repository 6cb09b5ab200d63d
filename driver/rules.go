package driver

// This file defines //gad:rule: a derivative rule that a user gives one of
// their functions, used by every mode wherever the function is called
// (and when it is itself differentiated) instead of its body.

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/templates"
)

// ruleResult names the result of a ruled function in its partials.
const ruleResult = "r"

// ruleOf checks a //gad:rule directive and returns the rule it gives:
// partials (x="…"), or the user's JVP and VJP functions (jvp=, vjp=; see
// userRuleOf).
func ruleOf(d *frontend.Directive) (*templates.Rule, error) {
	if _, ok := d.Option(jvpOption); ok {
		return userRuleOf(d)
	}
	if _, ok := d.Option(vjpOption); ok {
		return userRuleOf(d)
	}
	fn := d.Target
	sig := fn.Type().(*types.Signature)
	name := frontend.FuncName(fn)
	switch {
	case sig.Recv() != nil:
		return nil, fmt.Errorf("//gad:rule on a method: rules are for functions only (wrap the method in a function)")
	case sig.TypeParams().Len() > 0:
		return nil, fmt.Errorf("%s is generic: generic functions are not supported yet", name)
	case sig.Variadic():
		return nil, fmt.Errorf("%s is variadic: a rule needs a fixed list of parameters", name)
	case sig.Results().Len() != 1 || !isBasic(sig.Results().At(0).Type(), types.IsFloat):
		return nil, fmt.Errorf("a rule of partials needs a function with one float result; %s returns %s%s", name, typeString(sig.Results(), fn.Pkg()), tensorHint(sig))
	}
	rule := &templates.Rule{Pkg: fn.Pkg().Path(), Name: fn.Name(), Results: []string{ruleResult}, Kind: templates.Smooth}
	row := make([]string, sig.Params().Len())
	known := map[string]bool{ruleResult: true}
	var floats []string
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		pn := p.Name()
		switch {
		case pn == ruleResult:
			return nil, fmt.Errorf("parameter %s of %s: the rule names the result %s; rename the parameter", pn, name, ruleResult)
		case pn == "" || pn == "_":
			pn = fmt.Sprintf("_p%d", i)
		}
		rule.Params = append(rule.Params, pn)
		known[pn] = true
		switch {
		case isBasic(p.Type(), types.IsFloat):
			floats = append(floats, pn)
		case isBasic(p.Type(), types.IsInteger):
		default:
			return nil, fmt.Errorf("parameter %s of %s has type %s: a rule's function takes floats and integers only%s", pn, name, p.Type(), tensorHint(sig))
		}
	}
	math := ssaad.MathOf(fn)
	for _, o := range d.Options {
		if !slices.Contains(floats, o.Key) {
			return nil, fmt.Errorf("%s=: not a float parameter of %s (give one partial per float parameter: %s)", o.Key, name, strings.Join(floats, ", "))
		}
		x, err := templates.Parse(o.Value)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %v", o.Key, o.Value, err)
		}
		if err := ruleNames(x, known, math); err != nil {
			return nil, fmt.Errorf("%s=%q: %v", o.Key, o.Value, err)
		}
		row[slices.Index(rule.Params, o.Key)] = o.Value
	}
	for _, f := range floats {
		if row[slices.Index(rule.Params, f)] == "" {
			return nil, fmt.Errorf("no partial for %s: give ∂%s/∂%s as %s=\"…\" (%s=\"0\" when it has none)", f, fn.Name(), f, f, f)
		}
	}
	rule.Partials = [][]string{row}
	rule.Math = d.Text
	return rule, nil
}

// tensorHint points a rule of partials of a function of tensors to the
// form for them.
func tensorHint(sig *types.Signature) string {
	for _, t := range []*types.Tuple{sig.Params(), sig.Results()} {
		for v := range t.Variables() {
			if ir.IsTensor(v.Type()) {
				return " (for a function of tensors, give its JVP and VJP in Go: //gad:rule jvp=… vjp=…)"
			}
		}
	}
	return ""
}

// ruleNames checks that the names in partial x are parameters, the
// result, or members of package math that math (the package's import)
// holds. (Parse has checked that calls name where, helpers or math.)
func ruleNames(x ast.Expr, known map[string]bool, math *types.Package) error {
	called := map[*ast.Ident]bool{} // where and the helpers
	var err error
	ast.Inspect(x, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if math.Scope().Lookup(n.Sel.Name) == nil {
				err = fmt.Errorf("math.%s: the package does not import math, or math has no %[1]s", n.Sel.Name)
			}
			return false
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok {
				called[id] = true
			}
		case *ast.Ident:
			if !called[n] && !known[n.Name] {
				err = fmt.Errorf("unknown name %s: a partial may name the parameters and the result %s", n.Name, ruleResult)
			}
		}
		return true
	})
	return err
}

func isBasic(t types.Type, info types.BasicInfo) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&info != 0
}

// attachRules marks the calls of f of functions with rules.
func (g *generator) attachRules(f *ir.Func) {
	if len(g.plan.rules) == 0 {
		return
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpCall && v.Callee.Func != nil && !v.Callee.Invoke {
				v.Callee.Rule = g.plan.rules[v.Callee.Func]
			}
		}
	}
}

// ruleWrapper returns the primal of a function fn that has a rule: a call
// of fn, which every mode differentiates by the rule.
func ruleWrapper(fn *types.Func, rule *templates.Rule) *ir.Func {
	sig := fn.Type().(*types.Signature)
	f := ir.NewFunc(fn.Name(), fn.Pkg())
	f.Pos = fn.Pos()
	var args []*ir.Value
	for p := range sig.Params().Variables() {
		args = append(args, f.AddParam(p.Name(), p.Type()))
	}
	r := sig.Results().At(0)
	f.ResultNames, f.ResultTypes = []string{r.Name()}, []types.Type{r.Type()}
	b := &ssaad.Builder{F: f}
	b.Cur = f.NewBlock("entry")
	call := b.Emit(ir.OpCall, r.Type(), args...)
	call.Callee = &ir.Callee{Func: fn, Rule: rule}
	call.Pos = fn.Pos()
	b.Emit(ir.OpReturn, nil, call)
	return f
}
