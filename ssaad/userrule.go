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

// DeriveFunc returns the Taylor coefficients 0 … order of the result of a
// call of fn, an ordinary Go function with one result, on arguments given
// by their series: a call of the mode's derivative of fn (its JVP for
// order 1, its Taylor-mode function beyond).
type DeriveFunc func(fn *types.Func, args []*Series, order int) ([]*ir.Value, error)

// SetDerive gives e the mode's derivative of the user's functions, with
// which it expands a call of a function whose rule gives its JVP beyond
// order 1 (see jointCoef): Taylor mode does. Without it, such a call has
// a first-order expansion only.
func (e *Expander) SetDerive(d DeriveFunc) { e.derive = d }

// userCall returns the series of a call jvp(…) or vjp(…) in a rule
// expression: a call of the user's function, whose value (a tuple for
// several results) is its coefficient 0. Its other coefficients come from
// the mode's derivative of the function (SetDerive), for a function with
// one result: the user's function is ordinary Go code, which gadgen
// differentiates through its body.
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
	var derived []*ir.Value // the coefficients from the derivative
	s := e.newSeries(typ, func(k int) (*ir.Value, error) {
		if e.expand != nil && sig.Results().Len() == 1 {
			if derived == nil {
				cs, err := e.expand(fn, args, e.order)
				if err != nil {
					return nil, err
				}
				derived = cs
			}
			return derived[k], nil
		}
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
// JVP). At order 1 it is the map evaluated once on the arguments'
// coefficients 1, each zero one bound to the zero of its type (the rule's
// expression makes a zero tensor of it, tensorops.OrZerosLike, so that
// the user's function never receives nil). Beyond, it is the recurrence
// of the differential equation c′(t) = JVP(a(t), a′(t)):
//
//	c_k = w_{k−1}/k,  w(t) = JVP(a(t), u(t)),  u_j = (j+1)·a_{j+1}
//
// where the coefficients of w, to order K−1, come from the mode's
// derivative of the user's JVP function (SetDerive: Taylor mode's, which
// differentiates the function's Go body).
func (n *MathCall) jointCoef(k int) (*ir.Value, error) {
	r := n.rule
	if n.e.order == 1 {
		env, src, err := n.jointEnv(n.e, func(s *Series) (*Series, *Series, error) {
			v, err := s.At(0)
			if err != nil {
				return nil, nil, err
			}
			d, err := s.At(1)
			if err != nil {
				return nil, nil, err
			}
			return n.e.Known([]*ir.Value{v}), n.e.Known([]*ir.Value{d}), nil
		})
		if err != nil {
			return nil, err
		}
		return n.e.Eval(src, env, n.Results[0].Type)
	}
	if n.e.derive == nil {
		return nil, fmt.Errorf("Taylor mode of order %d cannot expand %s: its //gad:rule gives a JVP, which is first order here", n.e.order, RuleName(n.callee))
	}
	if n.jvpSeries == nil {
		// The series of w, to order K−1, by a second expander.
		e := &Expander{b: n.e.b, order: n.e.order - 1, math: n.e.math, calls: map[string]*Series{},
			jvp: n.e.jvp, vjp: n.e.vjp, derive: n.e.derive, expand: n.e.derive}
		t := e.b
		env, src, err := n.jointEnv(e, func(s *Series) (*Series, *Series, error) {
			a := make([]*ir.Value, e.order+1)
			u := make([]*ir.Value, e.order+1)
			for j := range a {
				aj, err := s.At(j)
				if err != nil {
					return nil, nil, err
				}
				next, err := s.At(j + 1)
				if err != nil {
					return nil, nil, err
				}
				a[j], u[j] = aj, t.Scale(float64(j+1), next)
			}
			return e.Known(a), e.Known(u), nil
		})
		if err != nil {
			return nil, err
		}
		res := env[r.Results[0]]
		env[r.Results[0]] = e.newSeries(res.Type, func(k int) (*ir.Value, error) {
			if k > 0 {
				return nil, fmt.Errorf("Taylor mode of order %d cannot expand %s: the JVP of its //gad:rule takes the result %s; give a JVP of the parameters alone",
					n.e.order, RuleName(n.callee), r.Results[0])
			}
			return res.At(0)
		})
		x, err := templates.Parse(src)
		if err != nil {
			return nil, err
		}
		if n.jvpSeries, err = e.expr(x, env, n.Results[0].Type); err != nil {
			return nil, err
		}
	}
	w, err := n.jvpSeries.At(k - 1)
	if err != nil {
		return nil, err
	}
	return n.e.b.Scale(1/float64(k), w), nil
}

// jointEnv binds the names of the joint tangent map of n's rule, for
// expander e: each differentiable parameter and its tangent "d"+name to
// the series that series returns for the argument's, the others and the
// result to their values. It returns the map's expression.
func (n *MathCall) jointEnv(e *Expander, series func(*Series) (value, tangent *Series, err error)) (map[string]*Series, string, error) {
	r := n.rule
	var src string
	env := map[string]*Series{}
	for j, p := range r.Params {
		if r.Tangent[j] == "" {
			v, err := n.args[j].At(0)
			if err != nil {
				return nil, "", err
			}
			env[p] = e.constant(v)
			continue
		}
		src = r.Tangent[j]
		v, d, err := series(n.args[j])
		if err != nil {
			return nil, "", err
		}
		env[p], env["d"+p] = v, d
	}
	res, err := n.primalValue(0)
	if err != nil {
		return nil, "", err
	}
	env[r.Results[0]] = e.constant(res)
	return env, src, nil
}
