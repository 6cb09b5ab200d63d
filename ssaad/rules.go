package ssaad

// This file defines how the modes find the derivative rule of a call.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// CallRule returns the rule by which every mode differentiates a call of
// c, or nil when the call goes through the callee's derivative: a rule a
// user gave with //gad:rule (c.Rule), or the rule of a function of
// package math (nil too when math has none: the caller reports it).
func CallRule(c *ir.Callee) *templates.Rule {
	if c == nil || c.Func == nil || c.Invoke {
		return nil
	}
	if c.Rule != nil {
		return c.Rule
	}
	if IsMathFunc(c.Func) {
		r, _ := templates.Lookup("math", c.Func.Name())
		return r
	}
	return nil
}

// ByRule reports whether a call of c is differentiated by a rule: a
// function of package math, or one with a //gad:rule.
func ByRule(c *ir.Callee) bool {
	return c != nil && c.Func != nil && !c.Invoke && (c.Rule != nil || IsMathFunc(c.Func))
}

// IsMathFunc reports whether fn is a function of package math.
func IsMathFunc(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "math"
}

// MathOf returns package math as the package of fn sees it, for the
// constants and functions a rule of fn names: fn's own package when it is
// math, else the math that fn's package imports (an empty package when it
// imports none: a rule naming math then fails to lower).
func MathOf(fn *types.Func) *types.Package {
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

// RuleName names the function of a rule in messages: math.Sin, or the
// user's function.
func RuleName(fn *types.Func) string {
	if IsMathFunc(fn) {
		return "math." + fn.Name()
	}
	return FuncName(fn)
}
