package taylor

// This file defines how Taylor mode expands the JVP that a user gives a
// function with //gad:rule jvp=…: beyond order 1, the expander needs the
// Taylor coefficients of the user's JVP function along the call
// (ssaad.MathCall's jointCoef), which are those of the JVP's own
// derivative, generated from its Go body like any callee's.

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// deriveUser returns the derivative of the user's functions that the
// expanders of a call at pos use (ssaad.Expander.SetDerive): a call of
// the function's JVP (order 1) or Taylor-mode function (order 2 and
// more, seeded by jets), on the arguments' coefficients.
func (t *transformer) deriveUser(pos token.Pos) ssaad.DeriveFunc {
	return func(fn *types.Func, args []*ssaad.Series, order int) ([]*ir.Value, error) {
		sig := fn.Type().(*types.Signature)
		vals := make([]*ir.Value, len(args))
		coefs := make([][]*ir.Value, len(args))
		active := make([]bool, len(args))
		anyActive := false
		for i, a := range args {
			v, err := a.At(0)
			if err != nil {
				return nil, err
			}
			vals[i] = v
			for k := 1; k <= order; k++ {
				c, err := a.At(k)
				if err != nil {
					return nil, err
				}
				coefs[i] = append(coefs[i], c)
				active[i] = active[i] || isFloat(a.Type) && !ssaad.IsZero(c)
			}
			anyActive = anyActive || active[i]
		}
		rt := sig.Results().At(0).Type()
		if !anyActive {
			c := t.Emit(ir.OpCall, rt, vals...)
			c.Pos, c.Callee = pos, &ir.Callee{Func: fn}
			out := []*ir.Value{c}
			for range order {
				out = append(out, t.Zero(rt))
			}
			return out, nil
		}
		var df *ir.DerivedFunc
		var err error
		if order == 1 {
			df, err = t.env.Derivative("jvp", fn, active, pos)
		} else if oe, ok := t.env.(ssaad.OptionsEnv); ok {
			df, err = oe.DerivativeWithOptions("taylor", ssaad.Options{Order: order}, fn, active, pos)
		} else {
			err = fmt.Errorf("this environment cannot generate Taylor-mode callees")
		}
		if err != nil {
			return nil, fmt.Errorf("the rule's JVP %s: %v", ssaad.FuncName(fn), err)
		}
		var all []*ir.Value
		for i, v := range vals {
			all = append(all, v)
			if !active[i] {
				continue
			}
			for _, c := range coefs[i] {
				if ssaad.IsZero(c) && ir.IsTensor(c.Type) {
					c = t.TensorCall("ZerosLike", v) // the user's code gets no nil
				}
				all = append(all, c)
			}
		}
		res := df.Sig.Results()
		var typ types.Type = res
		if res.Len() == 1 {
			typ = res.At(0).Type()
		}
		nc := t.Emit(ir.OpCall, typ, all...)
		nc.Pos, nc.Callee = pos, &ir.Callee{Derived: df}
		lay := resultLayout(tupleTypes(sig.Results()), order)
		out := []*ir.Value{t.Extract(nc, lay.primal[0], res)}
		for k := range order {
			out = append(out, t.Extract(nc, lay.coef[0]+k, res))
		}
		return out, nil
	}
}
