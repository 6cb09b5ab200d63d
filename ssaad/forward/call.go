package forward

// This file defines the forward-mode treatment of calls: functions of
// package math by the rules of package templates, the builtins, and calls
// of other functions through their generated derivatives.

import (
	"go/constant"
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
	case c.Func != nil && !c.Invoke && c.Func.Pkg() != nil && c.Func.Pkg().Path() == "math":
		t.mathCall(v)
		return
	}
	// Which arguments carry tangents?
	active := make([]bool, len(v.Args))
	anyActive := false
	for i, a := range v.Args {
		active[i] = t.hasTangent(a)
		anyActive = anyActive || active[i]
	}
	var sig *types.Signature
	if c.Func != nil {
		sig = c.Func.Type().(*types.Signature)
	}
	if anyActive && sig != nil && sig.Variadic() && !c.Invoke && c.Derived == nil {
		t.variadicCall(v, sig)
		return
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
	var args, tans []*ir.Value
	for i, a := range v.Args {
		args = append(args, t.v(a))
		tans = append(tans, nil)
		if active[i] {
			tans[i] = t.tangent(a)
		}
	}
	t.derivedCall(v, sig, args, tans)
}

// variadicCall differentiates a call of a variadic function whose
// arguments carry tangents. The derivative takes the variadic parameter,
// and its tangent, as plain slices: the elements passed one by one are
// gathered into a slice of values and a slice of tangents.
func (t *transformer) variadicCall(v *ir.Value, sig *types.Signature) {
	nfixed := sig.Params().Len() - 1
	if sig.Recv() != nil {
		nfixed++ // the receiver comes first
	}
	var args, tans []*ir.Value
	for i := 0; i < nfixed; i++ {
		args = append(args, t.v(v.Args[i]))
		var d *ir.Value
		if t.hasTangent(v.Args[i]) {
			d = t.tangent(v.Args[i])
		}
		tans = append(tans, d)
	}
	rest := v.Args[nfixed:]
	st := sig.Params().At(sig.Params().Len() - 1).Type()
	if v.Callee.Spread {
		args = append(args, t.v(rest[0]))
		var d *ir.Value
		if t.hasTangent(rest[0]) {
			d = t.tangent(rest[0])
		}
		tans = append(tans, d)
	} else {
		anyVaried := false
		var vals, ds []*ir.Value
		for _, a := range rest {
			vals = append(vals, t.v(a))
			ds = append(ds, t.tangent(a))
			anyVaried = anyVaried || t.hasTangent(a)
		}
		args = append(args, t.sliceOf(st, vals))
		if anyVaried {
			tans = append(tans, t.sliceOf(st, ds))
		} else {
			tans = append(tans, nil)
		}
	}
	t.derivedCall(v, sig, args, tans)
}

// sliceOf builds a slice of type st holding elems.
func (t *transformer) sliceOf(st types.Type, elems []*ir.Value) *ir.Value {
	intT := types.Typ[types.Int]
	n := t.F.ConstValue(intT, constant.MakeInt64(int64(len(elems))))
	s := t.Emit(ir.OpMakeSlice, st, n, nil)
	elem := st.Underlying().(*types.Slice).Elem()
	for i, e := range elems {
		addr := t.Emit(ir.OpIndexAddr, types.NewPointer(elem), s, t.F.ConstValue(intT, constant.MakeInt64(int64(i))))
		t.Emit(ir.OpStore, nil, addr, e)
	}
	return s
}

// derivedCall calls the derivative of v's callee with the copies args of
// its arguments and the tangents tans (nil where an argument is not
// varied), and maps v's results and their tangents.
func (t *transformer) derivedCall(v *ir.Value, sig *types.Signature, args, tans []*ir.Value) {
	c := v.Callee
	active := make([]bool, len(args))
	var all []*ir.Value
	for i := range args {
		active[i] = tans[i] != nil
		all = append(all, args[i])
		if active[i] {
			all = append(all, tans[i])
		}
	}
	args = all
	df, err := t.env.Derivative("jvp", c.Func, active, v.Pos)
	if err != nil {
		t.errorf(v.Pos, "call of "+c.Func.Name(), "%v", err)
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
	nc := t.Emit(ir.OpCall, typ, args...)
	nc.Pos = v.Pos
	nc.Callee = &ir.Callee{Derived: df}

	// Map the primal results and their tangents.
	prim := sig.Results()
	lay := resultLayout(tupleTypes(prim))
	info := &callInfo{}
	for i := 0; i < prim.Len(); i++ {
		info.vals = append(info.vals, t.Extract(nc, lay.primal[i], res))
		var d *ir.Value
		if k := lay.tangent[i]; k >= 0 {
			d = t.Extract(nc, k, res)
		}
		info.tans = append(info.tans, d)
	}
	t.results(v, info)
}

// results records the values and tangents of the results of primal call v:
// directly for a call with one result, through its extracts otherwise.
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
		if info.tans[0] != nil {
			t.setTangent(v, info.tans[0])
		}
	}
}

func (t *transformer) builtin(v *ir.Value) {
	nv := t.clone(v)
	switch v.Callee.Builtin {
	case "min", "max":
		if !t.act.Varied(v) {
			return
		}
		// Ties go to the earliest argument: for min, the tangent switches to
		// argument k only where a_k < min(a_0..a_k-1).
		ds := make([][]*ir.Value, len(v.Args))
		for i, a := range v.Args {
			ds[i] = []*ir.Value{t.tangent(a)}
		}
		dm := t.MinMax(v.Callee.Builtin, v.Type, nv.Args, ds)[0]
		t.setTangent(v, dm)
	case "append":
		if !t.hasTangent(v.Args[0]) && !t.act.Varied(v) {
			return
		}
		args := []*ir.Value{t.tangent(v.Args[0])}
		for _, a := range v.Args[1:] {
			args = append(args, t.tangent(a))
		}
		d := t.Emit(ir.OpCall, v.Type, args...)
		d.Callee = &ir.Callee{Builtin: "append", Spread: v.Callee.Spread}
		t.tan[v] = d
	case "copy":
		dst, src := v.Args[0], v.Args[1]
		if !t.hasTangent(dst) {
			return
		}
		if t.hasTangent(src) {
			d := t.Emit(ir.OpCall, v.Type, t.tangent(dst), t.tangent(src))
			d.Callee = &ir.Callee{Builtin: "copy"}
			return
		}
		// The copied elements have zero tangents.
		part := t.Emit(ir.OpSlice, dst.Type, t.tangent(dst), nil, nv, nil)
		d := t.Emit(ir.OpCall, nil, part)
		d.Callee = &ir.Callee{Builtin: "clear"}
	case "clear":
		if t.hasTangent(v.Args[0]) {
			d := t.Emit(ir.OpCall, nil, t.tangent(v.Args[0]))
			d.Callee = &ir.Callee{Builtin: "clear"}
		}
	case "print", "println", "len", "cap":
	default:
		for _, a := range v.Args {
			if t.hasTangent(a) {
				t.errorf(v.Pos, "builtin "+v.Callee.Builtin, "no derivative rule")
				return
			}
		}
	}
}

// mathCall differentiates a call of a function of package math by its rule.
func (t *transformer) mathCall(v *ir.Value) {
	fn := v.Callee.Func
	nv := t.clone(v)
	anyActive := false
	for _, a := range v.Args {
		anyActive = anyActive || t.hasTangent(a)
	}
	if !anyActive {
		return
	}
	rule, ok := templates.Lookup("math", fn.Name())
	if !ok {
		t.errorf(v.Pos, "math."+fn.Name(), "no derivative rule")
		return
	}
	switch rule.Kind {
	case templates.PiecewiseConstant:
		return
	case templates.NotDifferentiable:
		t.errorf(v.Pos, "math."+fn.Name(), "not differentiable: %s", rule.Reason)
		return
	}
	// Results as values.
	var results []*ir.Value
	tuple, isTuple := v.Type.(*types.Tuple)
	if isTuple {
		for i := 0; i < tuple.Len(); i++ {
			results = append(results, t.Extract(nv, i, tuple))
		}
	} else {
		results = []*ir.Value{nv}
	}
	env := map[string]*ir.Value{}
	for j, p := range rule.Params {
		env[p] = nv.Args[j]
	}
	for i, r := range rule.Results {
		env[r] = results[i]
	}
	info := &callInfo{vals: results}
	for i := range rule.Results {
		var d *ir.Value
		if ssaad.HasFloat(results[i].Type) {
			d = t.Zero(results[i].Type)
			for j := range rule.Params {
				if rule.Partials[i][j] == "" || !t.hasTangent(v.Args[j]) {
					continue
				}
				partial, err := t.LowerPartial(rule.Partials[i][j], env, fn.Pkg(), results[i].Type)
				if err != nil {
					t.errorf(v.Pos, "math."+fn.Name(), "bad rule: %v", err)
					return
				}
				d = t.Add(d, t.Mul(partial, t.tangent(v.Args[j])))
			}
			if ssaad.IsZero(d) {
				d = nil
			}
		}
		info.tans = append(info.tans, d)
	}
	if isTuple {
		t.calls[v] = info
	} else if info.tans[0] != nil {
		t.setTangent(v, info.tans[0])
	}
}
