package ssaad

// This file defines the part of the expander that lowers the rules users
// give their functions with //gad:rule jvp=… vjp=… (package driver builds
// them, see templates.Rule.JVP): the calls jvp(…) and vjp(…) of their
// Go functions in Tangent and Adjoint, and the joint tangent map of a
// user's JVP, which takes the tangents of all the parameters at once.

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// UseRule makes e lower the pseudo-functions jvp(…) and vjp(…) of the
// expressions of r, a rule a user gave with //gad:rule jvp=… vjp=…, as
// calls of the user's functions. Rules without them leave e as it is.
func (e *Expander) UseRule(r *templates.Rule) {
	if r.JVP != nil {
		e.jvp = r.JVP
	}
	if r.VJP != nil {
		e.vjp = r.VJP
	}
}

// userCall returns the series of a call jvp(…) or vjp(…) in a rule
// expression: a call of the user's function, whose value (a tuple for
// several results) is its coefficient 0. The user's function is a
// derivative already; its own derivatives are not expanded here (a mode
// that needs one differentiates the call where it emits it: the JVP of a
// VJP in a Hessian-vector product).
func (e *Expander) userCall(x *ast.CallExpr, env map[string]*Series) (*Series, error) {
	name := x.Fun.(*ast.Ident).Name
	fn := e.jvp
	if name == templates.VJPCall {
		fn = e.vjp
	}
	if fn == nil {
		return nil, fmt.Errorf("%s(…) in a rule that gives no %s function", name, name)
	}
	sig := fn.Type().(*types.Signature)
	if len(x.Args) != sig.Params().Len() {
		return nil, fmt.Errorf("%s takes %d arguments, got %d", FuncName(fn), sig.Params().Len(), len(x.Args))
	}
	var args []*Series
	for i, a := range x.Args {
		pt := sig.Params().At(i).Type()
		s, err := e.expr(a, env, pt)
		if err != nil {
			return nil, err
		}
		if !types.Identical(s.Type, pt) {
			return nil, fmt.Errorf("argument %d of %s has type %s, want %s", i+1, FuncName(fn), s.Type, pt)
		}
		args = append(args, s)
	}
	key := callKey("user "+fn.FullName(), args)
	if s, ok := e.calls[key]; ok {
		return s, nil
	}
	var typ types.Type = sig.Results()
	if sig.Results().Len() == 1 {
		typ = sig.Results().At(0).Type()
	}
	s := e.newSeries(typ, func(k int) (*ir.Value, error) {
		if k > 0 {
			return nil, fmt.Errorf("the derivative of %s is not expanded in a rule", FuncName(fn))
		}
		vs, err := flatArgs(args, 0)
		if err != nil {
			return nil, err
		}
		v := e.b.Emit(ir.OpCall, typ, vs...)
		v.Callee = &ir.Callee{Func: fn}
		return v, nil
	})
	e.calls[key] = s
	return s, nil
}

// userResult returns the series of vjp(…)[k]: result k of the call.
func (e *Expander) userResult(x *ast.IndexExpr, env map[string]*Series) (*Series, error) {
	c, ok := x.X.(*ast.CallExpr)
	if !ok {
		return nil, fmt.Errorf("indexing %T", x.X)
	}
	call, err := e.expr(c, env, nil)
	if err != nil {
		return nil, err
	}
	tu, ok := call.Type.(*types.Tuple)
	lit, isLit := x.Index.(*ast.BasicLit)
	if !ok || !isLit {
		return nil, fmt.Errorf("indexing a call with one result")
	}
	k, err := strconv.Atoi(lit.Value)
	if err != nil || k < 0 || k >= tu.Len() {
		return nil, fmt.Errorf("result %s of a call with %d results", lit.Value, tu.Len())
	}
	return e.newSeries(tu.At(k).Type(), func(order int) (*ir.Value, error) {
		v, err := call.At(order)
		if err != nil {
			return nil, err
		}
		return e.b.Extract(v, k, tu), nil
	}), nil
}

// jointCoef computes coefficient k of the result of a call whose rule's
// tangent map takes every tangent at once (templates.Rule.Joint: a user's
// JVP): the map evaluated once on the arguments' coefficients k, each
// zero one bound to the zero of its type (the rule's expression makes a
// zero tensor of it, tensorops.OrZerosLike, so that the user's function
// never receives nil). Only order 1 is known: the JVP is a first-order
// rule.
func (n *MathCall) jointCoef(k int) (*ir.Value, error) {
	r := n.rule
	if k > 1 {
		return nil, fmt.Errorf("Taylor mode of order %d cannot expand %s: its //gad:rule gives a JVP, which is first order "+
			"(forward mode, reverse mode and Hessian-vector products use the rule; Taylor mode of order 2 and more, "+
			"//gad:hessdiag and //gad:laplacian do not)", k, RuleName(n.callee))
	}
	var src string
	env := map[string]*Series{}
	for j, p := range r.Params {
		v, err := n.args[j].At(0)
		if err != nil {
			return nil, err
		}
		env[p] = n.e.Known([]*ir.Value{v})
		if r.Tangent[j] == "" {
			continue
		}
		src = r.Tangent[j]
		d, err := n.args[j].At(k)
		if err != nil {
			return nil, err
		}
		env["d"+p] = n.e.Known([]*ir.Value{d})
	}
	res, err := n.primalValue(0)
	if err != nil {
		return nil, err
	}
	env[r.Results[0]] = n.e.Known([]*ir.Value{res})
	return n.e.Eval(src, env, n.Results[0].Type)
}
