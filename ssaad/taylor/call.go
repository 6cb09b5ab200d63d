package taylor

// This file defines the Taylor-mode treatment of calls: functions of
// package math by the recurrences of series.go, the builtins, and calls
// of other functions through their generated Taylor-mode functions, at
// the same order.

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/templates"
)

func (t *transformer) call(v *ir.Value) {
	c := v.Callee
	switch {
	case c.Builtin != "":
		t.builtin(v)
		return
	case ssaad.ForwardRule(c) != nil:
		t.mathCall(v)
		return
	}
	anyActive := false
	for _, a := range v.Args {
		anyActive = anyActive || t.hasCoefs(a)
	}
	var sig *types.Signature
	if c.Func != nil {
		sig = c.Func.Type().(*types.Signature)
	}
	if !anyActive {
		t.shadowResult(v, t.clone(v))
		return
	}
	if c.Invoke {
		t.errorf(v.Pos, "dynamic interface call", "method %s is called through an interface on values that depend on the varied inputs", c.Func.Name())
		t.clone(v)
		return
	}
	if c.Func == nil || c.Derived != nil {
		t.errorf(v.Pos, "call", "cannot differentiate through this call")
		t.clone(v)
		return
	}
	var vals []*ir.Value
	var coefs [][]*ir.Value
	for _, a := range v.Args {
		vals = append(vals, t.v(a))
		var cs []*ir.Value
		if t.hasCoefs(a) {
			cs = t.coefs(a) // zero shadows materialized below unless the callee takes a line
		}
		coefs = append(coefs, cs)
	}
	spread := c.Spread
	if sig.Variadic() && !c.Spread {
		// The elements passed one by one: gather the varied ones into a
		// slice of values and one slice per coefficient, as the
		// derivative takes the variadic parameter as a plain slice.
		nfixed, st := ssaad.VariadicIndex(sig)
		anyVaried := false
		for _, cs := range coefs[nfixed:] {
			anyVaried = anyVaried || cs != nil
		}
		if anyVaried {
			rest := vals[nfixed:]
			restCoefs := make([][]*ir.Value, t.K)
			for _, a := range v.Args[nfixed:] {
				cs := t.coefs(a)
				for k := range restCoefs {
					restCoefs[k] = append(restCoefs[k], cs[k])
				}
			}
			vals = append(vals[:nfixed:nfixed], t.SliceOf(st, rest))
			cs := make([]*ir.Value, t.K)
			for k := range cs {
				cs[k] = t.SliceOf(st, restCoefs[k])
			}
			coefs = append(coefs[:nfixed:nfixed], cs)
			spread = false
		} else {
			spread = false // the derivative stays variadic; arguments one by one
		}
	}
	t.derivedCall(v, sig, vals, coefs, spread)
}

// derivedCall calls the Taylor-mode function of v's callee, at the same
// order, and maps v's results and their coefficients. When every varied
// argument has zero coefficients of degree 2 and more (a line), the
// callee is asked for with seed=line and gets only the first ones.
func (t *transformer) derivedCall(v *ir.Value, sig *types.Signature, vals []*ir.Value, coefs [][]*ir.Value, spread bool) {
	c := v.Callee
	K := t.K
	active := make([]bool, len(vals))
	li := t.cfg.lineInputs()
	line := K > li
	for i := range vals {
		active[i] = coefs[i] != nil
		if active[i] {
			for _, x := range coefs[i][li:] {
				// Zero constants, and zero shadows not materialized.
				line = line && ssaad.IsZero(x)
			}
		}
	}
	opts := ssaad.Options{Order: t.cfg.order, Lanes: t.cfg.lanes, Collapsed: t.cfg.collapse, Line: line, Stacked: t.cfg.stacked,
		ScalarLanes: t.cfg.scalarLanes}
	var all []*ir.Value
	for i := range vals {
		all = append(all, vals[i])
		if !active[i] {
			continue
		}
		cs := coefs[i]
		if line {
			cs = cs[:li]
		}
		for k, x := range cs {
			if ssaad.IsPointerLike(x.Type) && ssaad.IsZero(x) {
				cs[k] = t.materialize(vals[i])
			}
		}
		all = append(all, cs...)
	}
	df, err := t.callee(c.Func, opts, active, v.Pos)
	if err != nil {
		t.errorf(v.Pos, ssaad.CallConstruct(c), "%v", err)
		t.clone(v)
		return
	}
	res := df.Sig.Results()
	var typ types.Type
	switch res.Len() {
	case 0:
	case 1:
		typ = res.At(0).Type()
	default:
		typ = res
	}
	nc := t.Emit(ir.OpCall, typ, all...)
	nc.Pos = v.Pos
	nc.Callee = &ir.Callee{Derived: df, Spread: spread && df.Sig.Variadic()}

	lay := resultLayout(tupleTypes(sig.Results()), K)
	info := &callInfo{}
	for i := 0; i < sig.Results().Len(); i++ {
		info.vals = append(info.vals, t.Extract(nc, lay.primal[i], res))
		var cs []*ir.Value
		if p := lay.coef[i]; p >= 0 {
			for k := 0; k < K; k++ {
				x := t.Extract(nc, p+k, res)
				if rt := sig.Results().At(i).Type(); ir.IsTensor(x.Type) && !ir.IsTensor(rt) {
					// A float's coefficient of directions, returned as
					// a tensor (ssaad.Options.ScalarLanes): the float
					// it stands for until ssaad.RetypeStacked.
					lf := t.Emit(ir.OpCall, rt, x)
					lf.Callee = &ir.Callee{Builtin: ir.LaneFloatBuiltin}
					x = lf
				}
				cs = append(cs, x)
			}
		}
		info.coefs = append(info.coefs, cs)
	}
	t.results(v, info)
}

// callee returns the derivative that a call of fn with active arguments
// calls: its JVP in forward mode, else its Taylor-mode function with
// opts.
func (t *transformer) callee(fn *types.Func, opts ssaad.Options, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	if t.cfg.tangent && t.cfg.lanes == 0 && !t.cfg.stacked {
		return t.env.Derivative("jvp", fn, active, pos)
	}
	oe, ok := t.env.(ssaad.OptionsEnv)
	if !ok {
		return nil, fmt.Errorf("this environment cannot generate Taylor-mode callees")
	}
	if t.cfg.tangent {
		// Vector forward mode: the callee's JVP along the same lanes
		// (stacked ones too).
		return oe.DerivativeWithOptions("jvp", ssaad.Options{Lanes: t.cfg.lanes, Stacked: t.cfg.stacked}, fn, active, pos)
	}
	return oe.DerivativeWithOptions("taylor", opts, fn, active, pos)
}

// results records the values and coefficients of the results of call v.
func (t *transformer) results(v *ir.Value, info *callInfo) {
	if _, ok := v.Type.(*types.Tuple); ok {
		t.calls[v] = info
		return
	}
	if len(info.vals) == 1 {
		t.val[v] = info.vals[0]
		if info.vals[0].Name == "" {
			info.vals[0].Name = v.Name
		}
		if info.coefs[0] != nil {
			t.setCoefs(v, info.coefs[0])
		}
	}
}

func (t *transformer) builtin(v *ir.Value) {
	nv := t.clone(v)
	K := t.K
	switch v.Callee.Builtin {
	case "min", "max":
		if !t.act.Varied(v) {
			return
		}
		// Ties go to the earliest argument (templates' rule, pairwise):
		// the whole jet of the chosen argument is the result's.
		ds := make([][]*ir.Value, len(v.Args))
		for i, a := range v.Args {
			ds[i] = t.coefs(a)
		}
		dm := t.MinMax(v.Callee.Builtin, v.Type, nv.Args, ds)
		t.setCoefs(v, dm)
	case "append":
		if !t.hasCoefs(v.Args[0]) && !t.act.Varied(v) {
			return
		}
		cs := make([]*ir.Value, K)
		dst := t.usable(v.Args[0])
		var rest [][]*ir.Value
		for _, a := range v.Args[1:] {
			r := t.usable(a)
			if ssaad.IsPointerLike(a.Type) && !t.hasCoefs(a) {
				// A constant slice appended (spread) to a varied one, or a
				// constant element slice: zero coefficients of its length.
				for k := range r {
					r[k] = t.zeroLike(a)
				}
			}
			rest = append(rest, r)
		}
		for k := range cs {
			args := []*ir.Value{dst[k]}
			for _, r := range rest {
				args = append(args, r[k])
			}
			d := t.Emit(ir.OpCall, v.Type, args...)
			d.Callee = &ir.Callee{Builtin: "append", Spread: v.Callee.Spread}
			cs[k] = d
		}
		t.nameCoefs(v, cs)
		t.tan[v] = cs
	case "copy":
		dst, src := v.Args[0], v.Args[1]
		if !t.hasCoefs(dst) {
			return
		}
		ds := t.usable(dst)
		if t.hasCoefs(src) {
			ss := t.usable(src)
			for k := range ds {
				d := t.Emit(ir.OpCall, v.Type, ds[k], ss[k])
				d.Callee = &ir.Callee{Builtin: "copy"}
			}
			return
		}
		for k := range ds {
			part := t.Emit(ir.OpSlice, dst.Type, ds[k], nil, nv, nil)
			d := t.Emit(ir.OpCall, nil, part)
			d.Callee = &ir.Callee{Builtin: "clear"}
		}
	case "clear":
		if t.hasCoefs(v.Args[0]) {
			for _, d := range t.usable(v.Args[0]) {
				c := t.Emit(ir.OpCall, nil, d)
				c.Callee = &ir.Callee{Builtin: "clear"}
			}
		}
	case "print", "println", "len", "cap":
	default:
		for _, a := range v.Args {
			if t.hasCoefs(a) {
				t.errorf(v.Pos, "builtin "+v.Callee.Builtin, "no derivative rule")
				return
			}
		}
	}
}

// mathCall expands a call differentiated by a rule (ssaad.ForwardRule: a
// primitive, a function with a //gad:rule, a helper, an in-place
// accumulation) by the recurrence of its rule.
func (t *transformer) mathCall(v *ir.Value) {
	c := v.Callee
	nv := t.clone(v)
	anyActive := false
	for _, a := range v.Args {
		anyActive = anyActive || t.hasCoefs(a)
	}
	if !anyActive {
		return
	}
	rule := ssaad.ForwardRule(v.Callee)
	if rule == nil {
		t.errorf(v.Pos, ssaad.RuleName(c), "no derivative rule")
		return
	}
	if t.cfg.lanes > 0 {
		t.laneMathCall(v, nv, rule)
		return
	}
	e := ssaad.NewExpander(&t.Builder, t.K, ssaad.MathOf(c.Func))
	e.SetDerive(t.deriveUser(v.Pos))
	var args []*ssaad.Series
	for i, a := range v.Args {
		args = append(args, e.Known(append([]*ir.Value{nv.Args[i]}, t.coefs(a)...)))
	}
	n := e.RuleCall(c, rule, args, nv)
	info := &callInfo{}
	for _, r := range n.Results {
		x, err := r.At(0)
		if err != nil {
			t.errorf(v.Pos, ssaad.RuleName(c), "%v", err)
			return
		}
		info.vals = append(info.vals, x)
	}
	for _, r := range n.Results {
		if !isFloat(r.Type) {
			info.coefs = append(info.coefs, nil)
			continue
		}
		cs := make([]*ir.Value, t.K)
		for k := 1; k <= t.K; k++ {
			ck, err := r.At(k)
			if err != nil {
				t.errorf(v.Pos, ssaad.RuleName(c), "%v", err)
				return
			}
			cs[k-1] = ck
		}
		info.coefs = append(info.coefs, cs)
	}
	if _, ok := v.Type.(*types.Tuple); ok {
		t.calls[v] = info
		return
	}
	if info.coefs[0] != nil {
		t.setCoefs(v, info.coefs[0])
	}
}

// laneMathCall expands a math call with lanes. In collapsed mode, each
// lane's second-order jet with a zero second coefficient gives the lane's
// first coefficient and the quadratic part of its second one; one more
// jet, with zero first coefficients and the summed second ones, gives
// the linear part: C2 = Σⱼ gⱼ·A2ⱼ + Σ_l ½·a1_lᵀ∇²f·a1_l. Otherwise each
// lane's jet of order K gives its coefficients (laneJet's slots).
func (t *transformer) laneMathCall(v, nv *ir.Value, rule *templates.Rule) {
	c := v.Callee
	L, collapsed := t.cfg.lanes, t.cfg.collapsed()
	order, jets := t.cfg.order, L
	if collapsed {
		order, jets = 2, L+1 // the lanes, then the summed second coefficients
	}
	if t.primalCalls == nil {
		t.primalCalls = map[string]*ir.Value{}
	}
	t.primalCalls[ssaad.PrimalKey(c, nv.Args)] = nv
	defer func() { t.primalCalls = nil }()
	argCoefs := make([][]*ir.Value, len(v.Args))
	for i, a := range v.Args {
		argCoefs[i] = t.coefs(a)
	}
	// jetOf returns the jet of argument i that lane (from 0) expands.
	jetOf := func(i, lane int) []*ir.Value {
		a := nv.Args[i]
		if !collapsed {
			return t.laneJet(append([]*ir.Value{a}, argCoefs[i]...), lane)
		}
		z := t.Zero(a.Type)
		if lane < L {
			return []*ir.Value{a, argCoefs[i][lane], z}
		}
		return []*ir.Value{a, z, argCoefs[i][L]}
	}
	expand := func(lane int) ([][]*ir.Value, error) {
		e := ssaad.NewExpander(&t.Builder, order, ssaad.MathOf(c.Func))
		e.SharePrimalCalls(t.primalCalls)
		e.SetDerive(t.deriveUser(v.Pos))
		var args []*ssaad.Series
		for i := range nv.Args {
			args = append(args, e.Known(jetOf(i, lane)))
		}
		n := e.RuleCall(c, rule, args, nv)
		var out [][]*ir.Value
		for _, r := range n.Results {
			var cs []*ir.Value
			for k := 0; k <= order; k++ {
				c, err := r.At(k)
				if err != nil {
					return nil, err
				}
				cs = append(cs, c)
			}
			out = append(out, cs)
		}
		return out, nil
	}
	var results [][]*ir.Value // per result: its slots
	for lane := 0; lane < jets; lane++ {
		out, err := expand(lane)
		if err != nil {
			t.errorf(v.Pos, ssaad.RuleName(c), "%v", err)
			return
		}
		if results == nil {
			results = make([][]*ir.Value, len(out))
			for i, r := range out {
				results[i] = make([]*ir.Value, t.K)
				for k := range results[i] {
					results[i][k] = t.Zero(r[0].Type)
				}
			}
		}
		for i, r := range out {
			switch {
			case !collapsed:
				for k := 1; k <= order; k++ {
					results[i][(k-1)*L+lane] = r[k]
				}
			case lane < L:
				results[i][lane] = r[1]
				results[i][L] = t.Add(results[i][L], t.sumLanes(r[2]))
			default:
				results[i][L] = t.Add(results[i][L], r[2])
			}
		}
	}
	info := &callInfo{}
	tuple, isTuple := v.Type.(*types.Tuple)
	for i, r := range results {
		if isTuple {
			x := t.Emit(ir.OpExtract, tuple.At(i).Type(), nv)
			x.Index = i
			info.vals = append(info.vals, x)
		} else {
			info.vals = append(info.vals, nv)
		}
		if !isFloat(r[0].Type) {
			info.coefs = append(info.coefs, nil)
			continue
		}
		info.coefs = append(info.coefs, r)
	}
	if isTuple {
		t.calls[v] = info
		return
	}
	if info.coefs[0] != nil {
		t.setCoefs(v, info.coefs[0])
	}
}

// zeroLike returns zero coefficients for the constant slice a: a make of
// the same length and capacity, the same make again when a is one.
func (t *transformer) zeroLike(a *ir.Value) *ir.Value {
	if a.Op == ir.OpMakeSlice {
		args := make([]*ir.Value, len(a.Args))
		for i, x := range a.Args {
			args[i] = t.v(x)
		}
		return t.Same(a, args...)
	}
	return t.materialize(t.v(a))
}
