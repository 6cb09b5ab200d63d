package ssaad

// This file defines lazy truncated power series built from the
// expressions of derivative rules (package templates), and the
// recurrence that expands a function of package math from its partial
// derivatives:
//
//	c = f(a₁, …, aₘ),  c′ = Σⱼ gⱼ·aⱼ′,  gⱼ = ∂f/∂aⱼ
//	c_k = (1/k) Σⱼ Σ_{i=1..k} i·aⱼ_i·gⱼ_{k−i}
//
// (Griewank & Walther, Evaluating Derivatives, 2nd ed., §13.2). A series
// computes coefficient k on demand, emitting IR into the current block,
// and remembers it; a partial is needed only to order k−1 for c_k, so
// partials that refer to the result (exp: g = c) close the recurrence.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// Series is a truncated power series of type Type, built from the
// expressions of a rule: coefficient k is computed on demand, into the
// current block of the expander's Builder, and remembered.
type Series struct {
	Type types.Type
	c    []*ir.Value
	get  func(k int) (*ir.Value, error)
	// Tail, for the variadic parameter of a rule, holds the series of the
	// arguments a call passes to it (not a slice: no value of its own).
	Tail []*Series
}

// Expander builds and evaluates the series of one instruction, up to its
// order: order 0 lowers a rule's partials to values (reverse mode), order
// 1 gives tangents (forward mode), order K Taylor coefficients.
type Expander struct {
	b     *Builder
	order int
	math  *types.Package
	// calls memoizes the series of math calls by function and argument
	// series, so that a partial that names a function of the same
	// arguments (cos in sin's rule) reuses it.
	calls map[string]*Series
	// primalCalls, when not nil, shares the primal calls of math
	// functions between the expanders of one instruction (collapsed
	// Taylor mode), by function and arguments.
	primalCalls map[string]*ir.Value
	// jvp and vjp are the user's functions that jvp(…) and vjp(…) call
	// in the rule being lowered (see UseRule).
	jvp, vjp *types.Func
	// derive, when not nil, is the mode's derivative of the user's
	// functions (see SetDerive); expand, when not nil, expands their
	// calls with it (the expander of jointCoef).
	derive, expand DeriveFunc
}

// NewExpander returns an expander emitting through b, computing
// coefficients up to order, with calls going to package math (as the
// expanded call names it).
func NewExpander(b *Builder, order int, math *types.Package) *Expander {
	return &Expander{b: b, order: order, math: math, calls: map[string]*Series{}}
}

// SharePrimalCalls makes e reuse, and record, the primal math calls in m.
func (e *Expander) SharePrimalCalls(m map[string]*ir.Value) { e.primalCalls = m }

func (e *Expander) newSeries(typ types.Type, get func(k int) (*ir.Value, error)) *Series {
	return &Series{Type: typ, c: make([]*ir.Value, e.order+1), get: get}
}

// At returns coefficient k of s.
func (s *Series) At(k int) (*ir.Value, error) {
	if s.c[k] == nil {
		v, err := s.get(k)
		if err != nil {
			return nil, err
		}
		s.c[k] = v
	}
	return s.c[k], nil
}

// Known returns the series with the given coefficients.
func (e *Expander) Known(cs []*ir.Value) *Series {
	s := e.newSeries(cs[0].Type, nil)
	copy(s.c, cs)
	return s
}

// constant returns the series of a value constant in t.
func (e *Expander) constant(v *ir.Value) *Series {
	return e.newSeries(v.Type, func(k int) (*ir.Value, error) {
		if k == 0 {
			return v, nil
		}
		return e.b.Zero(v.Type), nil
	})
}

// isFloat reports whether t is a float or a tensor: a value with a
// derivative of its own type.
func isFloat(t types.Type) bool {
	if ir.IsTensor(t) {
		return true
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

func isInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// binary returns the series of x op y for op one of + - * /.
func (e *Expander) binary(op token.Token, x, y *Series) *Series {
	t := e.b
	typ := x.Type
	if ir.IsTensor(y.Type) {
		typ = y.Type // a float and a tensor
	}
	var s *Series
	s = e.newSeries(typ, func(k int) (*ir.Value, error) {
		if k == 0 {
			a, b, err := both(x, y, 0)
			if err != nil {
				return nil, err
			}
			switch op {
			case token.ADD:
				return t.Add(a, b), nil
			case token.SUB:
				return t.Sub(a, b), nil
			case token.MUL:
				return t.Mul(a, b), nil
			case token.QUO:
				return t.Quo(a, b), nil
			}
			v := t.Binary(op, a, b)
			return v, nil
		}
		if isInt(x.Type) {
			return t.Zero(x.Type), nil
		}
		switch op {
		case token.ADD, token.SUB:
			a, b, err := both(x, y, k)
			if err != nil {
				return nil, err
			}
			if op == token.ADD {
				return t.Add(a, b), nil
			}
			return t.Sub(a, b), nil
		case token.MUL:
			// c_k = Σ_{j=0..k} x_j·y_{k−j}
			return e.convolve(t.Zero(x.Type), t.Add, 0, k, x, y)
		case token.QUO:
			// c_k = (x_k − Σ_{j=1..k} y_j·c_{k−j}) / y_0
			xk, err := x.At(k)
			if err != nil {
				return nil, err
			}
			num, err := e.convolve(xk, t.Sub, 1, k, y, s)
			if err != nil {
				return nil, err
			}
			b0, err := y.At(0)
			if err != nil {
				return nil, err
			}
			return t.Quo(num, b0), nil
		}
		return nil, fmt.Errorf("operator %s on a series", op)
	})
	return s
}

// both returns the coefficients of degree k of x and y.
func both(x, y *Series, k int) (a, b *ir.Value, err error) {
	if a, err = x.At(k); err != nil {
		return nil, nil, err
	}
	b, err = y.At(k)
	return a, b, err
}

// convolve returns acc(…acc(init, p_lo·q_{k−lo})…, p_k·q_0), skipping the
// zero terms.
func (e *Expander) convolve(init *ir.Value, acc func(x, y *ir.Value) *ir.Value, lo, k int, p, q *Series) (*ir.Value, error) {
	return convolveTerms(init, acc, lo, k, p, q, func(_ int, a, b *ir.Value) *ir.Value { return e.b.Mul(a, b) })
}

// convolveTerms is convolve with term(j, p_j, q_{k−j}) for the products.
func convolveTerms(init *ir.Value, acc func(x, y *ir.Value) *ir.Value, lo, k int, p, q *Series,
	term func(j int, pj, qkj *ir.Value) *ir.Value) (*ir.Value, error) {
	sum := init
	for j := lo; j <= k; j++ {
		a, err := p.At(j)
		if err != nil {
			return nil, err
		}
		if IsZero(a) {
			continue
		}
		b, err := q.At(k - j)
		if err != nil {
			return nil, err
		}
		if IsZero(b) {
			continue
		}
		sum = acc(sum, term(j, a, b))
	}
	return sum, nil
}

// neg returns −x.
func (e *Expander) neg(x *Series) *Series {
	return e.newSeries(x.Type, func(k int) (*ir.Value, error) {
		a, err := x.At(k)
		if err != nil {
			return nil, err
		}
		if k == 0 && a.Op == ir.OpConst && a.Const != nil {
			return e.b.F.ConstValue(a.Type, constant.UnaryOp(token.SUB, a.Const, 0)), nil
		}
		return e.b.Neg(a), nil
	})
}

// convert returns the series of x converted to typ.
func (e *Expander) convert(x *Series, typ types.Type) *Series {
	return e.newSeries(typ, func(k int) (*ir.Value, error) {
		a, err := x.At(k)
		if err != nil {
			return nil, err
		}
		if IsZero(a) {
			return e.b.Zero(typ), nil
		}
		if a.Op == ir.OpConst && a.Const != nil {
			return e.b.F.ConstValue(typ, constant.ToFloat(a.Const)), nil
		}
		return e.b.Same(&ir.Value{Op: ir.OpConvert, Type: typ}, a), nil
	})
}

// where returns the series of where(cond, x, y): cond is decided by the
// primal values, so each coefficient is chosen.
func (e *Expander) where(cond *ir.Value, x, y *Series) *Series {
	return e.newSeries(x.Type, func(k int) (*ir.Value, error) {
		a, b, err := both(x, y, k)
		if err != nil {
			return nil, err
		}
		if IsZero(a) && IsZero(b) {
			return a, nil
		}
		return e.b.Emit(ir.OpSelect, x.Type, cond, a, b), nil
	})
}

// MathCall is a call of a function differentiated by a rule (a
// primitive, a function with a //gad:rule, a helper) on series: its
// results are series expanded by the rule's partials.
type MathCall struct {
	e *Expander
	// callee is what the primal call calls.
	callee  *ir.Callee
	rule    *templates.Rule
	args    []*Series
	Results []*Series
	// primal is the call's value (a tuple for several results) once
	// emitted.
	primal   *ir.Value
	partials [][]*Series // partials[i][j]: ∂result i/∂arg j, nil when zero
	built    bool
	// jvpSeries is the series of a user's JVP along the call (see
	// jointCoef), once built.
	jvpSeries *Series
	// expanded is the series of the rule's Expand, once built;
	// expanding is set while a coefficient of it is computed.
	expanded  *Series
	expanding bool
}

// RuleCall returns the call of the function c calls, differentiated by
// rule, on args. primal, when not nil, is the already emitted primal call.
func (e *Expander) RuleCall(c *ir.Callee, rule *templates.Rule, args []*Series, primal *ir.Value) *MathCall {
	args = GroupVariadic(c, args)
	e.UseRule(rule)
	n := &MathCall{e: e, callee: &ir.Callee{Func: c.Func, Derived: c.Derived, Rule: c.Rule, Spread: c.Spread}, rule: rule, args: args, primal: primal}
	sig := calleeSig(c)
	for i := 0; i < sig.Results().Len(); i++ {
		rt := sig.Results().At(i).Type()
		n.Results = append(n.Results, e.newSeries(rt, func(k int) (*ir.Value, error) { return n.coef(i, k) }))
	}
	if len(n.Results) == 1 {
		e.calls[callKey(calleeName(c), args)] = n.Results[0]
	}
	return n
}

// GroupVariadic returns the series of the arguments of a call of c, one
// per parameter: the arguments of a variadic parameter (listed one by one
// in the IR, see package frontend) grouped into one series with a Tail.
func GroupVariadic(c *ir.Callee, args []*Series) []*Series {
	sig := calleeSig(c)
	if !sig.Variadic() || c.Spread {
		return args
	}
	n, st := VariadicIndex(sig)
	tail := &Series{Type: st, Tail: slices.Clone(args[n:])}
	return append(slices.Clip(args[:n]), tail)
}

// VariadicIndex returns, for the signature of a variadic function, the
// index in a call's arguments of the first argument of its variadic
// parameter (a method's receiver counts: Tensor.At(idx...)) and the
// parameter's slice type.
func VariadicIndex(sig *types.Signature) (int, types.Type) {
	n := sig.Params().Len() - 1
	st := sig.Params().At(n).Type()
	if sig.Recv() != nil {
		n++
	}
	return n, st
}

// flatArgs returns the coefficients k of args, the variadic tail's spread.
func flatArgs(args []*Series, k int) ([]*ir.Value, error) {
	var vs []*ir.Value
	for _, a := range args {
		for _, s := range append([]*Series{a}, a.Tail...) {
			if s.Tail != nil {
				continue
			}
			v, err := s.At(k)
			if err != nil {
				return nil, err
			}
			vs = append(vs, v)
		}
	}
	return vs, nil
}

// calleeSig returns the signature of the function c calls.
func calleeSig(c *ir.Callee) *types.Signature {
	if c.Derived != nil {
		return c.Derived.Sig
	}
	return c.Func.Type().(*types.Signature)
}

// calleeName returns the full name of the function c calls, for keys.
func calleeName(c *ir.Callee) string {
	if c.Derived != nil {
		return c.Derived.Name
	}
	return c.Func.FullName()
}

// PrimalKey identifies the primal call of c on args, by which expanders
// share primal calls (SharePrimalCalls).
func PrimalKey(c *ir.Callee, args []*ir.Value) string {
	key := calleeName(c)
	for _, a := range args {
		key += fmt.Sprintf(" %d", a.ID)
	}
	return key
}

// primalValue returns result i of the primal call, emitting the call on
// the arguments' values once.
func (n *MathCall) primalValue(i int) (*ir.Value, error) {
	t := n.e.b
	if n.primal == nil {
		args, err := flatArgs(n.args, 0)
		if err != nil {
			return nil, err
		}
		sig := calleeSig(n.callee)
		var typ types.Type = sig.Results()
		if sig.Results().Len() == 1 {
			typ = sig.Results().At(0).Type()
		}
		key := PrimalKey(n.callee, args)
		if c, ok := n.e.primalCalls[key]; ok && c.Block == t.Cur {
			n.primal = c
		} else {
			c := t.Emit(ir.OpCall, typ, args...)
			callee := *n.callee
			c.Callee = &callee
			n.primal = c
			if n.e.primalCalls != nil {
				n.e.primalCalls[key] = c
			}
		}
	}
	if len(n.Results) == 1 {
		return n.primal, nil
	}
	x := t.Emit(ir.OpExtract, n.Results[i].Type, n.primal)
	x.Index = i
	return x, nil
}

// coef computes coefficient k of result i.
func (n *MathCall) coef(i, k int) (*ir.Value, error) {
	t := n.e.b
	if k == 0 {
		return n.primalValue(i)
	}
	rt := n.Results[i].Type
	if !isFloat(rt) {
		return t.Zero(rt), nil
	}
	switch n.rule.Kind {
	case templates.PiecewiseConstant:
		return t.Zero(rt), nil
	case templates.NotDifferentiable:
		return nil, fmt.Errorf("%s is not differentiable: %s", RuleName(n.callee), n.rule.Reason)
	}
	if n.rule.Tangent == nil && n.rule.Partials == nil {
		return nil, fmt.Errorf("%s", n.rule.Reason) // a user's rule with a VJP only
	}
	if k > 1 && n.rule.Expand != "" && n.rule.Series == templates.FirstOrder {
		return n.expandCoef(k)
	}
	if n.rule.Tangent != nil && (k == 1 || n.rule.Partials == nil) {
		return n.linearCoef(k)
	}
	if err := n.build(); err != nil {
		return nil, err
	}
	// c_k = (1/k) Σⱼ Σ_{i=1..k} i·aⱼ_i·gⱼ_{k−i}
	sum := t.Zero(rt)
	for j, a := range n.args {
		g := n.partials[i][j]
		if g == nil || !isFloat(a.Type) {
			continue
		}
		// A constant partial of a tensor function (Add's 1, AddScalar's 1
		// for the float) leaves the argument's coefficient with its own
		// shape, or a float, where the result's is broadcast: it is summed
		// apart and expanded.
		expand := ir.IsTensor(rt) && !ir.IsTensor(g.Type)
		init := sum
		if expand {
			init = t.Zero(rt)
		}
		part, err := convolveTerms(init, t.Add, 1, k, a, g, func(m int, am, gm *ir.Value) *ir.Value {
			term := t.Mul(gm, am)
			if m != k {
				term = t.Scale(float64(m)/float64(k), term)
			}
			return term
		})
		if err != nil {
			return nil, err
		}
		if !expand {
			sum = part
			continue
		}
		if !IsZero(part) {
			r, err := n.primalValue(i)
			if err != nil {
				return nil, err
			}
			if ir.IsTensor(part.Type) {
				part = t.TensorCall("ExpandLike", part, r)
			} else {
				part = t.TensorCall("FullLike", r, part)
			}
		}
		sum = t.Add(sum, part)
	}
	return sum, nil
}

// linearCoef computes coefficient k ≥ 1 of the result of a call whose
// rule gives linear maps (templates.Rule.Tangent): the tangent maps
// applied to the arguments' coefficients k (Linear, and every rule at
// order 1), or convolved (Bilinear).
func (n *MathCall) linearCoef(k int) (*ir.Value, error) {
	t, r := n.e.b, n.rule
	rt := n.Results[0].Type
	if r.Joint {
		return n.jointCoef(k)
	}
	if k > 1 && r.Series == templates.FirstOrder {
		return nil, fmt.Errorf("Taylor mode cannot expand %s beyond order 1 (its rule is first order)", RuleName(n.callee))
	}
	base := map[string]*Series{}
	for j, p := range r.Params {
		if n.args[j].Tail != nil {
			base[p] = n.args[j]
			continue
		}
		v, err := n.args[j].At(0)
		if err != nil {
			return nil, err
		}
		base[p] = n.e.Known([]*ir.Value{v})
	}
	res, err := n.primalValue(0)
	if err != nil {
		return nil, err
	}
	base[r.Results[0]] = n.e.Known([]*ir.Value{res})
	// term evaluates Tangent[j] with tangent dj and the values of base
	// changed by over.
	term := func(j int, dj *ir.Value, over map[string]*ir.Value) (*ir.Value, error) {
		env := maps.Clone(base)
		for name, v := range over {
			env[name] = n.e.Known([]*ir.Value{v})
		}
		env["d"+r.Params[j]] = n.e.Known([]*ir.Value{dj})
		return n.e.Eval(r.Tangent[j], env, rt)
	}
	sum := t.Zero(rt)
	var active []int // the arguments with a tangent map
	for j, src := range r.Tangent {
		if n.sliceArg(j) {
			// A slice of floats or tensors (FromFloat64s's data, or one
			// passed with "..." as in Concat(axis, parts...)): its
			// coefficient k is the slice of its elements' coefficients k
			// (a shadow slice), which the map takes whole.
			d, err := n.args[j].At(k)
			if err != nil {
				return nil, err
			}
			if IsZero(d) || src == "0" {
				continue
			}
			if src == "" {
				return nil, fmt.Errorf("%s is not differentiable in its arguments %s", RuleName(n.callee), r.Params[j])
			}
			if k > 1 && r.Series == templates.Bilinear {
				return nil, fmt.Errorf("bad rule for %s: a bilinear variadic parameter", RuleName(n.callee))
			}
			v, err := term(j, d, nil)
			if err != nil {
				return nil, err
			}
			sum = t.Add(sum, v)
			continue
		}
		if tail := n.args[j].Tail; tail != nil && len(tail) > 0 && isFloat(tail[0].Type) {
			// A variadic parameter of floats or tensors (Concat's ts): its
			// map takes the coefficients k of all of them, zeros included.
			d := &Series{Type: n.args[j].Type}
			nonzero := false
			for _, a := range tail {
				c, err := a.At(k)
				if err != nil {
					return nil, err
				}
				nonzero = nonzero || !IsZero(c)
				d.Tail = append(d.Tail, n.e.Known([]*ir.Value{c}))
			}
			if !nonzero || src == "0" {
				continue
			}
			if src == "" {
				return nil, fmt.Errorf("%s is not differentiable in its arguments %s", RuleName(n.callee), r.Params[j])
			}
			if k > 1 && r.Series == templates.Bilinear {
				return nil, fmt.Errorf("bad rule for %s: a bilinear variadic parameter", RuleName(n.callee))
			}
			env := maps.Clone(base)
			env["d"+r.Params[j]] = d
			v, err := n.e.Eval(src, env, rt)
			if err != nil {
				return nil, err
			}
			sum = t.Add(sum, v)
			continue
		}
		if n.args[j].Tail != nil || !isFloat(n.args[j].Type) || src == "0" {
			continue
		}
		active = append(active, j)
		if src != "" {
			continue
		}
		for m := 1; m <= k; m++ {
			if c, err := n.args[j].At(m); err != nil || !IsZero(c) {
				return nil, fmt.Errorf("%s is not differentiable in its argument %s", RuleName(n.callee), r.Params[j])
			}
		}
	}
	if r.Series == templates.Bilinear && k > 1 {
		if len(active) != 2 {
			return nil, fmt.Errorf("bad rule for %s: bilinear in %d arguments", RuleName(n.callee), len(active))
		}
		// c_k = Σ_{i=0..k} B(a_i, b_{k−i}), B(da, b) = Tangent[p].
		p, q := active[0], active[1]
		for i := 0; i <= k; i++ {
			a, err := n.args[p].At(i)
			if err != nil {
				return nil, err
			}
			b, err := n.args[q].At(k - i)
			if err != nil {
				return nil, err
			}
			if IsZero(a) || IsZero(b) {
				continue
			}
			v, err := term(p, a, map[string]*ir.Value{r.Params[q]: b})
			if err != nil {
				return nil, err
			}
			sum = t.Add(sum, v)
		}
		return sum, nil
	}
	for _, j := range active {
		dj, err := n.args[j].At(k)
		if err != nil {
			return nil, err
		}
		if IsZero(dj) {
			continue
		}
		v, err := term(j, dj, nil)
		if err != nil {
			return nil, err
		}
		sum = t.Add(sum, v)
	}
	return sum, nil
}

// sliceArg reports whether argument j of the call is a slice of floats
// or tensors, memory whose coefficients are shadow slices: a parameter of
// slice type, or a slice passed with "..." to a variadic one (not the
// arguments of a variadic parameter listed one by one, a Tail).
func (n *MathCall) sliceArg(j int) bool {
	return n.args[j].Tail == nil && IsFloatSlice(n.args[j].Type)
}

// IsFloatSlice reports whether t is a slice of floats or of tensors: the
// type of a variadic parameter whose elements are differentiated.
func IsFloatSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && isFloat(s.Elem())
}

// expandCoef computes coefficient k > 1 of the result of a call whose
// rule gives the function as an expression of other primitives
// (templates.Rule.Expand): the expression's series, built once, with the
// rule's parameters bound to the arguments' series and its result to the
// call's value held constant.
func (n *MathCall) expandCoef(k int) (*ir.Value, error) {
	if n.expanding {
		return nil, fmt.Errorf("bad rule for %s: its expansion calls it", RuleName(n.callee))
	}
	n.expanding = true
	defer func() { n.expanding = false }()
	if n.expanded == nil {
		x, err := templates.Parse(n.rule.Expand)
		if err != nil {
			return nil, fmt.Errorf("bad rule for %s: %v", RuleName(n.callee), err)
		}
		env := map[string]*Series{}
		for j, p := range n.rule.Params {
			env[p] = n.args[j]
		}
		r, err := n.primalValue(0)
		if err != nil {
			return nil, err
		}
		env[n.rule.Results[0]] = n.e.constant(r)
		s, err := n.e.expr(x, env, n.Results[0].Type)
		if err != nil {
			return nil, fmt.Errorf("rule for %s: %v", RuleName(n.callee), err)
		}
		if !types.Identical(s.Type, n.Results[0].Type) {
			return nil, fmt.Errorf("bad rule for %s: its expansion has type %s, want %s", RuleName(n.callee), s.Type, n.Results[0].Type)
		}
		n.expanded = s
	}
	return n.expanded.At(k)
}

// build turns the rule's partials into series, once.
func (n *MathCall) build() error {
	if n.built {
		return nil
	}
	n.built = true
	env := map[string]*Series{}
	for j, p := range n.rule.Params {
		env[p] = n.args[j]
	}
	for i, r := range n.rule.Results {
		env[r] = n.Results[i]
	}
	partials := n.rule.Partials
	n.partials = make([][]*Series, len(n.rule.Results))
	for i := range n.rule.Results {
		n.partials[i] = make([]*Series, len(n.rule.Params))
		for j := range n.rule.Params {
			src := partials[i][j]
			if src == "" {
				continue
			}
			x, err := templates.Parse(src)
			if err != nil {
				return fmt.Errorf("bad rule for %s: %v", RuleName(n.callee), err)
			}
			s, err := n.e.expr(x, env, n.Results[i].Type)
			if err != nil {
				return fmt.Errorf("rule for %s: %v", RuleName(n.callee), err)
			}
			n.partials[i][j] = s
		}
	}
	return nil
}

// key identifies a call of fn on args for memoization.
func callKey(fn string, args []*Series) string {
	k := fn
	for _, a := range args {
		k += fmt.Sprintf(" %p", a)
	}
	return k
}

// expr returns the series of a rule expression; want is the type an
// untyped literal takes.
func (e *Expander) expr(x ast.Expr, env map[string]*Series, want types.Type) (*Series, error) {
	t := e.b
	switch x := x.(type) {
	case *ast.ParenExpr:
		return e.expr(x.X, env, want)
	case *ast.BasicLit:
		var c constant.Value
		switch x.Kind {
		case token.INT:
			n, err := strconv.ParseInt(x.Value, 10, 64)
			if err != nil {
				return nil, err
			}
			c = constant.MakeInt64(n)
			if isFloat(want) {
				c = constant.ToFloat(c)
			}
			if ir.IsTensor(want) {
				want = types.Typ[types.Float64] // a scalar operand of a tensor
			}
		case token.FLOAT:
			f, err := strconv.ParseFloat(x.Value, 64)
			if err != nil {
				return nil, err
			}
			c = constant.MakeFloat64(f)
			if ir.IsTensor(want) {
				want = types.Typ[types.Float64]
			}
		default:
			return nil, fmt.Errorf("literal %s", x.Value)
		}
		return e.constant(t.F.ConstValue(want, c)), nil
	case *ast.Ident:
		if s, ok := env[x.Name]; ok {
			return s, nil
		}
		if x.Name == "true" || x.Name == "false" {
			return e.constant(t.F.ConstValue(types.Typ[types.Bool], constant.MakeBool(x.Name == "true"))), nil
		}
		return nil, fmt.Errorf("unknown name %s", x.Name)
	case *ast.SelectorExpr:
		c, ok := e.math.Scope().Lookup(x.Sel.Name).(*types.Const)
		if !ok {
			return nil, fmt.Errorf("math.%s is not a constant", x.Sel.Name)
		}
		return e.constant(t.F.ConstValue(want, constant.ToFloat(c.Val()))), nil
	case *ast.UnaryExpr:
		if x.Op != token.SUB {
			return nil, fmt.Errorf("operator %s in a value", x.Op)
		}
		a, err := e.expr(x.X, env, want)
		if err != nil {
			return nil, err
		}
		return e.neg(a), nil
	case *ast.BinaryExpr:
		a, b, err := e.operands(x, env, want)
		if err != nil {
			return nil, err
		}
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			return e.binary(x.Op, a, b), nil
		}
		return nil, fmt.Errorf("operator %s in a value", x.Op)
	case *ast.CallExpr:
		return e.call(x, env, want)
	case *ast.IndexExpr:
		return e.userResult(x, env)
	}
	return nil, fmt.Errorf("unsupported expression %T", x)
}

// call returns the series of a call in a rule expression: of where, of a
// helper, or of a function of package math. want is the type an untyped
// literal takes.
func (e *Expander) call(x *ast.CallExpr, env map[string]*Series, want types.Type) (*Series, error) {
	var c *ir.Callee
	var rule *templates.Rule
	switch fun := x.Fun.(type) {
	case *ast.Ident:
		if fun.Name == templates.Where {
			if len(x.Args) != 3 {
				return nil, fmt.Errorf("where takes 3 arguments")
			}
			cond, err := e.cond(x.Args[0], env)
			if err != nil {
				return nil, err
			}
			a, err := e.expr(x.Args[1], env, want)
			if err != nil {
				return nil, err
			}
			b, err := e.expr(x.Args[2], env, a.Type)
			if err != nil {
				return nil, err
			}
			return e.where(cond, a, b), nil
		}
		if fun.Name == templates.JVPCall || fun.Name == templates.VJPCall {
			return e.userCall(x, env)
		}
		r, ok := templates.Lookup("", fun.Name)
		if !ok || r.Func == nil {
			return nil, fmt.Errorf("unknown function %s", fun.Name)
		}
		c, rule = HelperCallee(r), r
	case *ast.SelectorExpr:
		if id, ok := fun.X.(*ast.Ident); ok && id.Name == "tensorops" {
			fn := tensorFunc(env, fun.Sel.Name)
			if fn == nil {
				return nil, fmt.Errorf("no function tensorops.%s", fun.Sel.Name)
			}
			c = &ir.Callee{Func: fn}
			if rule = c.Primitive(); rule == nil {
				return e.plainCall(c, x, env)
			}
			break
		}
		fn, ok := e.math.Scope().Lookup(fun.Sel.Name).(*types.Func)
		if !ok {
			return nil, fmt.Errorf("math.%s is not a function", fun.Sel.Name)
		}
		r, ok := templates.Lookup("math", fn.Name())
		if !ok {
			return nil, fmt.Errorf("no derivative rule for math.%s", fn.Name())
		}
		c, rule = &ir.Callee{Func: fn}, r
	default:
		return nil, fmt.Errorf("call of %T", x.Fun)
	}
	args, err := e.callArgs(c, x, env)
	if err != nil {
		return nil, err
	}
	if s, ok := e.calls[callKey(calleeName(c), args)]; ok {
		return s, nil
	}
	return e.RuleCall(c, rule, args, nil).Results[0], nil
}

// callArgs returns the series of the arguments of call x of c, converted
// to the parameters' types.
func (e *Expander) callArgs(c *ir.Callee, x *ast.CallExpr, env map[string]*Series) ([]*Series, error) {
	sig := calleeSig(c)
	if sig.Results().Len() != 1 {
		return nil, fmt.Errorf("%s has %d results", RuleName(c), sig.Results().Len())
	}
	np := sig.Params().Len()
	if len(x.Args) != np && !(sig.Variadic() && len(x.Args) >= np-1) {
		return nil, fmt.Errorf("%s takes %d arguments, got %d", RuleName(c), np, len(x.Args))
	}
	var args []*Series
	var pieces []*Series // the variadic arguments when one is a slice
	for i, a := range x.Args {
		if sig.Variadic() && i >= np-1 {
			// The variadic arguments: a rule passes a variadic parameter
			// of its own on as it came (its arguments one by one, or the
			// slice with "..."), and single values as they are. Where one
			// of several is a slice (ConcatJVP(axis, ts, dts) for Concat
			// called with "..."), they are joined into one slice.
			slice := sig.Params().At(np - 1).Type()
			elem := slice.Underlying().(*types.Slice).Elem()
			s, err := e.expr(a, env, elem)
			if err != nil {
				return nil, err
			}
			switch {
			case s.Tail != nil:
				args = append(args, s.Tail...)
			case types.Identical(s.Type, slice):
				args = append(args, s)
				pieces = args[np-1:]
			case !types.Identical(s.Type, elem):
				args = append(args, e.convert(s, elem))
			default:
				args = append(args, s)
			}
			continue
		}
		pt := sig.Params().At(i).Type()
		s, err := e.expr(a, env, pt)
		if err != nil {
			return nil, err
		}
		if !types.Identical(s.Type, pt) {
			s = e.convert(s, pt)
		}
		args = append(args, s)
	}
	if pieces != nil {
		pieces = args[np-1:]
		c.Spread = true
		if len(pieces) > 1 {
			args = append(args[:np-1:np-1], e.joined(sig.Params().At(np-1).Type(), pieces))
		}
	}
	return args, nil
}

// joined returns the series of the slice of type st that holds the
// values of pieces in order: a slice's elements, or a single value.
// Only its value is defined: a rule passes it on to a function of the
// runtime, it does not differentiate it.
func (e *Expander) joined(st types.Type, pieces []*Series) *Series {
	return e.newSeries(st, func(k int) (*ir.Value, error) {
		if k > 0 {
			return nil, fmt.Errorf("a slice joined from a variadic parameter has no derivative")
		}
		b := e.b
		s := b.Emit(ir.OpMakeSlice, st, b.F.Int(0), nil)
		for _, p := range pieces {
			v, err := p.At(0)
			if err != nil {
				return nil, err
			}
			app := b.Emit(ir.OpCall, st, s, v)
			app.Callee = &ir.Callee{Builtin: "append", Spread: types.Identical(v.Type, st)}
			s = app
		}
		return s, nil
	})
}

// plainCall returns the series of a call, in a rule expression, of a
// function of package tensorops without a rule (Dim, Size): its value
// only, which may not be differentiated.
func (e *Expander) plainCall(c *ir.Callee, x *ast.CallExpr, env map[string]*Series) (*Series, error) {
	args, err := e.callArgs(c, x, env)
	if err != nil {
		return nil, err
	}
	typ := calleeSig(c).Results().At(0).Type()
	return e.newSeries(typ, func(k int) (*ir.Value, error) {
		if k > 0 {
			if isFloat(typ) {
				return nil, fmt.Errorf("%s has no derivative rule", RuleName(c))
			}
			return e.b.Zero(typ), nil
		}
		vs, err := flatArgs(args, 0)
		if err != nil {
			return nil, err
		}
		v := e.b.Emit(ir.OpCall, typ, vs...)
		v.Callee = c
		return v, nil
	}), nil
}

// tensorFunc returns the function name of package tensorops, found through
// the type of a tensor that env binds, or nil.
func tensorFunc(env map[string]*Series, name string) *types.Func {
	var names []string
	for n := range env {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if fn := ir.TensorFunc(env[n].Type, name); fn != nil {
			return fn
		}
	}
	return nil
}

// operands returns the series of the operands of x, of one type: an
// untyped literal takes the other operand's type (want when both are
// literals), and an int operand is converted to the other's float type.
func (e *Expander) operands(x *ast.BinaryExpr, env map[string]*Series, want types.Type) (a, b *Series, err error) {
	if isLit(x.X) && !isLit(x.Y) {
		if b, err = e.expr(x.Y, env, want); err != nil {
			return nil, nil, err
		}
		if a, err = e.expr(x.X, env, b.Type); err != nil {
			return nil, nil, err
		}
	} else {
		if a, err = e.expr(x.X, env, want); err != nil {
			return nil, nil, err
		}
		if b, err = e.expr(x.Y, env, a.Type); err != nil {
			return nil, nil, err
		}
	}
	if !types.Identical(a.Type, b.Type) {
		// An int with a tensor is a float64 operand of the tensor's.
		f64 := types.Typ[types.Float64]
		switch {
		case isInt(a.Type) && ir.IsTensor(b.Type):
			a = e.convert(a, f64)
		case isInt(b.Type) && ir.IsTensor(a.Type):
			b = e.convert(b, f64)
		case isInt(a.Type):
			a = e.convert(a, b.Type)
		case isInt(b.Type):
			b = e.convert(b, a.Type)
		case ir.IsTensor(a.Type) || ir.IsTensor(b.Type):
			// a tensor and a float: Builder's arithmetic
		default:
			return nil, nil, fmt.Errorf("operands of %s have types %s and %s", x.Op, a.Type, b.Type)
		}
	}
	return a, b, nil
}

// cond lowers a condition of where on the primal values.
func (e *Expander) cond(x ast.Expr, env map[string]*Series) (*ir.Value, error) {
	t := e.b
	boolT := types.Typ[types.Bool]
	switch x := x.(type) {
	case *ast.ParenExpr:
		return e.cond(x.X, env)
	case *ast.UnaryExpr:
		if x.Op != token.NOT {
			break
		}
		a, err := e.cond(x.X, env)
		if err != nil {
			return nil, err
		}
		v := t.Emit(ir.OpUnary, boolT, a)
		v.Tok = token.NOT
		return v, nil
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR:
			a, err := e.cond(x.X, env)
			if err != nil {
				return nil, err
			}
			b, err := e.cond(x.Y, env)
			if err != nil {
				return nil, err
			}
			v := t.Emit(ir.OpBinary, boolT, a, b)
			v.Tok = x.Op
			return v, nil
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			a, b, err := e.operands(x, env, types.Typ[types.Float64])
			if err != nil {
				return nil, err
			}
			a0, b0, err := both(a, b, 0)
			if err != nil {
				return nil, err
			}
			v := t.Emit(ir.OpBinary, boolT, a0, b0)
			v.Tok = x.Op
			return v, nil
		}
	}
	return nil, fmt.Errorf("unsupported condition %T", x)
}

func isLit(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.UnaryExpr:
			e = x.X
			continue
		case *ast.BasicLit:
			return true
		}
		return false
	}
}

// Eval returns the value of the rule expression src with the names bound
// by env (series made with Known), at order 0. want is the type an
// untyped literal takes.
func (e *Expander) Eval(src string, env map[string]*Series, want types.Type) (*ir.Value, error) {
	x, err := templates.Parse(src)
	if err != nil {
		return nil, err
	}
	s, err := e.expr(x, env, want)
	if err != nil {
		return nil, err
	}
	return s.At(0)
}

// Partial returns the value of the partial ∂Results[i]/∂Params[j] of
// rule, with the rule's names bound by env (series made with Known; bind
// them once per call, so that the partials share the math calls they
// name): the rule lowered at order 0. A nil value means the partial is
// identically zero.
func (e *Expander) Partial(rule *templates.Rule, i, j int, env map[string]*Series, typ types.Type) (*ir.Value, error) {
	src := rule.Partials[i][j]
	if src == "" {
		return nil, nil
	}
	x, err := templates.Parse(src)
	if err != nil {
		return nil, err
	}
	s, err := e.expr(x, env, typ)
	if err != nil {
		return nil, err
	}
	return s.At(0)
}
