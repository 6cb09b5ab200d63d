package ssaad

// This file defines how the modes find the derivative rule of a call.

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// CallRule returns the rule by which every mode differentiates a call of
// c, or nil when the call goes through the callee's derivative: a rule a
// user gave with //gad:rule (c.Rule), the rule of a primitive (a function
// of package templates' table: math's, mathext's, ...; c.Primitive), or
// the rule of a helper of templates (which derivatives call).
func CallRule(c *ir.Callee) *templates.Rule {
	switch {
	case c == nil:
		return nil
	case c.Derived != nil:
		if !c.Derived.Helper {
			return nil
		}
		r, _ := templates.Lookup("", c.Derived.Name)
		return r
	case c.Func == nil || c.Invoke:
		return nil
	case c.Rule != nil:
		return c.Rule
	}
	return c.Primitive()
}

// ByRule reports whether a call of c is differentiated by a rule (see
// CallRule).
func ByRule(c *ir.Callee) bool { return CallRule(c) != nil }

// ForwardRule returns the rule by which forward and Taylor mode
// differentiate a call of c: CallRule's, or for the tensor runtime's
// in-place accumulations (tensorops.Accumulate, …, which gradients call
// and which are not primitives: templates.InPlace) the rule of the value
// they return; nil when the call goes through the callee's derivative.
func ForwardRule(c *ir.Callee) *templates.Rule {
	if r := CallRule(c); r != nil {
		return r
	}
	if c == nil || c.Invoke || c.Derived != nil {
		return nil
	}
	return templates.InPlace(c.Func)
}

// MathOf returns package math as fn sees it, for the constants and
// functions a rule of fn names: fn's own package when it is math, else
// the math that fn's package imports (an empty package when it imports
// none, and for a nil fn, a helper, whose rule names no math: a rule
// naming math then fails to lower).
func MathOf(fn *types.Func) *types.Package {
	if fn == nil {
		return types.NewPackage("math", "math")
	}
	p := fn.Pkg()
	if p == nil || p.Path() == "math" {
		return p
	}
	for _, q := range p.Imports() {
		if q.Path() == "math" {
			return q
		}
	}
	return types.NewPackage("math", "math")
}

// RuleName names the function c calls by a rule in messages: math.Sin,
// mathext.Lbeta, gadDigamma, or the user's function.
func RuleName(c *ir.Callee) string {
	switch {
	case c.Derived != nil:
		return c.Derived.Name
	case c.Primitive() != nil:
		return c.Func.Pkg().Name() + "." + c.Func.Name()
	}
	return FuncName(c.Func)
}

// HelperCallee returns the callee of a call of the helper of rule r (a
// rule of package templates with Pkg "" and a Func), with the signature
// of r.Func and the parameter names of r.
func HelperCallee(r *templates.Rule) *ir.Callee {
	ft := reflect.TypeOf(r.Func)
	basic := func(t reflect.Type) types.Type {
		switch t.Kind() {
		case reflect.Float64:
			return types.Typ[types.Float64]
		case reflect.Int:
			return types.Typ[types.Int]
		}
		panic(fmt.Sprintf("ssaad: helper %s has a %s", r.Name, t))
	}
	var params, results []*types.Var
	for i := range ft.NumIn() {
		params = append(params, types.NewParam(token.NoPos, nil, r.Params[i], basic(ft.In(i))))
	}
	for i := range ft.NumOut() {
		results = append(results, types.NewParam(token.NoPos, nil, "", basic(ft.Out(i))))
	}
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), types.NewTuple(results...), false)
	return &ir.Callee{Derived: &ir.DerivedFunc{Name: r.Name, Sig: sig, Helper: true}}
}
