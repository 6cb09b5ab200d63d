package taylor

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
	"strconv"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/templates"
)

// series is a truncated power series of type typ. c[k] is coefficient k
// once computed; get computes it.
type series struct {
	typ types.Type
	c   []*ir.Value
	get func(k int) (*ir.Value, error)
}

// expander builds and evaluates series for one instruction.
type expander struct {
	t *transformer
	// calls memoizes the series of math calls by function and argument
	// series, so that a partial that names a function of the same
	// arguments (cos in sin's rule) reuses it.
	calls map[string]*series
	math  *types.Package
	// order is the highest coefficient computed; 0 means t.K.
	order int
}

func (e *expander) newSeries(typ types.Type, get func(k int) (*ir.Value, error)) *series {
	n := e.order
	if n == 0 {
		n = e.t.K
	}
	return &series{typ: typ, c: make([]*ir.Value, n+1), get: get}
}

// at returns coefficient k of s.
func (s *series) at(k int) (*ir.Value, error) {
	if s.c[k] == nil {
		v, err := s.get(k)
		if err != nil {
			return nil, err
		}
		s.c[k] = v
	}
	return s.c[k], nil
}

// known returns the series with the given coefficients.
func (e *expander) known(cs []*ir.Value) *series {
	s := e.newSeries(cs[0].Type, nil)
	copy(s.c, cs)
	return s
}

// constant returns the series of a value constant in t.
func (e *expander) constant(v *ir.Value) *series {
	return e.newSeries(v.Type, func(k int) (*ir.Value, error) {
		if k == 0 {
			return v, nil
		}
		return e.t.Zero(v.Type), nil
	})
}

func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

func isInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// binary returns the series of x op y for op one of + - * /.
func (e *expander) binary(op token.Token, x, y *series) *series {
	t := e.t
	var s *series
	s = e.newSeries(x.typ, func(k int) (*ir.Value, error) {
		if k == 0 {
			a, err := x.at(0)
			if err != nil {
				return nil, err
			}
			b, err := y.at(0)
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
		if isInt(x.typ) {
			return t.Zero(x.typ), nil
		}
		switch op {
		case token.ADD, token.SUB:
			a, err := x.at(k)
			if err != nil {
				return nil, err
			}
			b, err := y.at(k)
			if err != nil {
				return nil, err
			}
			if op == token.ADD {
				return t.Add(a, b), nil
			}
			return t.Sub(a, b), nil
		case token.MUL:
			sum := t.Zero(x.typ)
			for j := 0; j <= k; j++ {
				a, err := x.at(j)
				if err != nil {
					return nil, err
				}
				if ssaad.IsZero(a) {
					continue
				}
				b, err := y.at(k - j)
				if err != nil {
					return nil, err
				}
				sum = t.Add(sum, t.Mul(a, b))
			}
			return sum, nil
		case token.QUO:
			num, err := x.at(k)
			if err != nil {
				return nil, err
			}
			for j := 1; j <= k; j++ {
				b, err := y.at(j)
				if err != nil {
					return nil, err
				}
				if ssaad.IsZero(b) {
					continue
				}
				c, err := s.at(k - j)
				if err != nil {
					return nil, err
				}
				num = t.Sub(num, t.Mul(b, c))
			}
			b0, err := y.at(0)
			if err != nil {
				return nil, err
			}
			return t.Quo(num, b0), nil
		}
		return nil, fmt.Errorf("operator %s on a series", op)
	})
	return s
}

// neg returns −x.
func (e *expander) neg(x *series) *series {
	return e.newSeries(x.typ, func(k int) (*ir.Value, error) {
		a, err := x.at(k)
		if err != nil {
			return nil, err
		}
		if k == 0 && a.Op == ir.OpConst && a.Const != nil {
			return e.t.F.ConstValue(a.Type, constant.UnaryOp(token.SUB, a.Const, 0)), nil
		}
		return e.t.Neg(a), nil
	})
}

// convert returns the series of x converted to typ.
func (e *expander) convert(x *series, typ types.Type) *series {
	return e.newSeries(typ, func(k int) (*ir.Value, error) {
		a, err := x.at(k)
		if err != nil {
			return nil, err
		}
		if ssaad.IsZero(a) {
			return e.t.Zero(typ), nil
		}
		if a.Op == ir.OpConst && a.Const != nil {
			return e.t.F.ConstValue(typ, constant.ToFloat(a.Const)), nil
		}
		return e.t.Same(&ir.Value{Op: ir.OpConvert, Type: typ}, a), nil
	})
}

// where returns the series of where(cond, x, y): cond is decided by the
// primal values, so each coefficient is chosen.
func (e *expander) where(cond *ir.Value, x, y *series) *series {
	return e.newSeries(x.typ, func(k int) (*ir.Value, error) {
		a, err := x.at(k)
		if err != nil {
			return nil, err
		}
		b, err := y.at(k)
		if err != nil {
			return nil, err
		}
		if ssaad.IsZero(a) && ssaad.IsZero(b) {
			return a, nil
		}
		return e.t.Emit(ir.OpSelect, x.typ, cond, a, b), nil
	})
}

// callNode is a call of a math function on series: its results are
// series expanded by the rule's partials.
type callNode struct {
	e       *expander
	fn      *types.Func
	rule    *templates.Rule
	args    []*series
	results []*series
	// primal is the call's value (a tuple for several results) once
	// emitted.
	primal   *ir.Value
	partials [][]*series // partials[i][j]: ∂result i/∂arg j, nil when zero
	built    bool
}

// mathCall returns the call node of math function fn on args. primal,
// when not nil, is the already emitted primal call.
func (e *expander) mathCall(fn *types.Func, args []*series, primal *ir.Value) (*callNode, error) {
	rule, ok := templates.Lookup("math", fn.Name())
	if !ok {
		return nil, fmt.Errorf("no derivative rule for math.%s", fn.Name())
	}
	n := &callNode{e: e, fn: fn, rule: rule, args: args, primal: primal}
	sig := fn.Type().(*types.Signature)
	for i := 0; i < sig.Results().Len(); i++ {
		i := i
		rt := sig.Results().At(i).Type()
		n.results = append(n.results, e.newSeries(rt, func(k int) (*ir.Value, error) { return n.coef(i, k) }))
	}
	return n, nil
}

// primalCall emits the primal call on the arguments' values.
func (n *callNode) primalValue(i int) (*ir.Value, error) {
	t := n.e.t
	if n.primal == nil {
		var args []*ir.Value
		for _, a := range n.args {
			v, err := a.at(0)
			if err != nil {
				return nil, err
			}
			args = append(args, v)
		}
		sig := n.fn.Type().(*types.Signature)
		var typ types.Type = sig.Results()
		if sig.Results().Len() == 1 {
			typ = sig.Results().At(0).Type()
		}
		key := n.fn.Name()
		for _, a := range args {
			key += fmt.Sprintf(" %d", a.ID)
		}
		if c, ok := t.primalCalls[key]; ok && c.Block == t.Cur {
			n.primal = c
		} else {
			c := t.Emit(ir.OpCall, typ, args...)
			c.Callee = &ir.Callee{Func: n.fn}
			n.primal = c
			if t.primalCalls != nil {
				t.primalCalls[key] = c
			}
		}
	}
	if len(n.results) == 1 {
		return n.primal, nil
	}
	x := t.Emit(ir.OpExtract, n.results[i].typ, n.primal)
	x.Index = i
	return x, nil
}

// coef computes coefficient k of result i.
func (n *callNode) coef(i, k int) (*ir.Value, error) {
	t := n.e.t
	if k == 0 {
		return n.primalValue(i)
	}
	rt := n.results[i].typ
	if !isFloat(rt) {
		return t.Zero(rt), nil
	}
	switch n.rule.Kind {
	case templates.PiecewiseConstant:
		return t.Zero(rt), nil
	case templates.NotDifferentiable:
		return nil, fmt.Errorf("math.%s is not differentiable: %s", n.fn.Name(), n.rule.Reason)
	}
	if err := n.build(); err != nil {
		return nil, err
	}
	// c_k = (1/k) Σⱼ Σ_{i=1..k} i·aⱼ_i·gⱼ_{k−i}
	sum := t.Zero(rt)
	for j, a := range n.args {
		g := n.partials[i][j]
		if g == nil || !isFloat(a.typ) {
			continue
		}
		for m := 1; m <= k; m++ {
			am, err := a.at(m)
			if err != nil {
				return nil, err
			}
			if ssaad.IsZero(am) {
				continue
			}
			gm, err := g.at(k - m)
			if err != nil {
				return nil, err
			}
			if ssaad.IsZero(gm) {
				continue
			}
			term := t.Mul(gm, am)
			if m != k {
				term = t.scale(float64(m)/float64(k), term)
			}
			sum = t.Add(sum, term)
		}
	}
	return sum, nil
}

// build turns the rule's partials into series, once.
func (n *callNode) build() error {
	if n.built {
		return nil
	}
	n.built = true
	env := map[string]*series{}
	for j, p := range n.rule.Params {
		env[p] = n.args[j]
	}
	for i, r := range n.rule.Results {
		env[r] = n.results[i]
	}
	partials := n.rule.Partials
	n.partials = make([][]*series, len(n.rule.Results))
	for i := range n.rule.Results {
		n.partials[i] = make([]*series, len(n.rule.Params))
		for j := range n.rule.Params {
			src := partials[i][j]
			if src == "" {
				continue
			}
			x, err := templates.Parse(src)
			if err != nil {
				return fmt.Errorf("bad rule for math.%s: %v", n.fn.Name(), err)
			}
			s, err := n.e.expr(x, env, n.results[i].typ)
			if err != nil {
				return fmt.Errorf("rule for math.%s: %v", n.fn.Name(), err)
			}
			n.partials[i][j] = s
		}
	}
	return nil
}

// key identifies a call of fn on args for memoization.
func callKey(fn string, args []*series) string {
	k := fn
	for _, a := range args {
		k += fmt.Sprintf(" %p", a)
	}
	return k
}

// expr returns the series of a rule expression; want is the type an
// untyped literal takes.
func (e *expander) expr(x ast.Expr, env map[string]*series, want types.Type) (*series, error) {
	t := e.t
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
		case token.FLOAT:
			f, err := strconv.ParseFloat(x.Value, 64)
			if err != nil {
				return nil, err
			}
			c = constant.MakeFloat64(f)
		default:
			return nil, fmt.Errorf("literal %s", x.Value)
		}
		return e.constant(t.F.ConstValue(want, c)), nil
	case *ast.Ident:
		if s, ok := env[x.Name]; ok {
			return s, nil
		}
		return nil, fmt.Errorf("unknown name %s", x.Name)
	case *ast.SelectorExpr:
		c, ok := mathPkg(e).Scope().Lookup(x.Sel.Name).(*types.Const)
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
		var a, b *series
		var err error
		if isLit(x.X) && !isLit(x.Y) {
			if b, err = e.expr(x.Y, env, want); err != nil {
				return nil, err
			}
			if a, err = e.expr(x.X, env, b.typ); err != nil {
				return nil, err
			}
		} else {
			if a, err = e.expr(x.X, env, want); err != nil {
				return nil, err
			}
			if b, err = e.expr(x.Y, env, a.typ); err != nil {
				return nil, err
			}
		}
		if !types.Identical(a.typ, b.typ) {
			switch {
			case isInt(a.typ):
				a = e.convert(a, b.typ)
			case isInt(b.typ):
				b = e.convert(b, a.typ)
			default:
				return nil, fmt.Errorf("operands of %s have types %s and %s", x.Op, a.typ, b.typ)
			}
		}
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			return e.binary(x.Op, a, b), nil
		}
		return nil, fmt.Errorf("operator %s in a value", x.Op)
	case *ast.CallExpr:
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
				b, err := e.expr(x.Args[2], env, a.typ)
				if err != nil {
					return nil, err
				}
				return e.where(cond, a, b), nil
			}
			if _, ok := templates.Helpers[fun.Name]; ok {
				var args []*series
				for _, a := range x.Args {
					s, err := e.expr(a, env, want)
					if err != nil {
						return nil, err
					}
					args = append(args, s)
				}
				return e.helper(fun.Name, args), nil
			}
			return nil, fmt.Errorf("unknown function %s", fun.Name)
		case *ast.SelectorExpr:
			fn, ok := mathPkg(e).Scope().Lookup(fun.Sel.Name).(*types.Func)
			if !ok {
				return nil, fmt.Errorf("math.%s is not a function", fun.Sel.Name)
			}
			sig := fn.Type().(*types.Signature)
			if sig.Results().Len() != 1 {
				return nil, fmt.Errorf("math.%s has %d results", fun.Sel.Name, sig.Results().Len())
			}
			var args []*series
			for i, a := range x.Args {
				pt := sig.Params().At(i).Type()
				s, err := e.expr(a, env, pt)
				if err != nil {
					return nil, err
				}
				if !types.Identical(s.typ, pt) {
					s = e.convert(s, pt)
				}
				args = append(args, s)
			}
			k := callKey(fn.Name(), args)
			if s, ok := e.calls[k]; ok {
				return s, nil
			}
			n, err := e.mathCall(fn, args, nil)
			if err != nil {
				return nil, err
			}
			e.calls[k] = n.results[0]
			return n.results[0], nil
		}
	}
	return nil, fmt.Errorf("unsupported expression %T", x)
}

// helper returns the series of a call of a helper of package templates
// (gadDigamma): its value only, since the helpers have no rules.
func (e *expander) helper(name string, args []*series) *series {
	t := e.t
	return e.newSeries(types.Typ[types.Float64], func(k int) (*ir.Value, error) {
		if k > 0 {
			return nil, fmt.Errorf("Taylor mode has no rule for the derivative of %s beyond the first order", name)
		}
		var vals []*ir.Value
		for _, a := range args {
			v, err := a.at(0)
			if err != nil {
				return nil, err
			}
			vals = append(vals, v)
		}
		f64 := types.Typ[types.Float64]
		sig := types.NewSignatureType(nil, nil, nil,
			types.NewTuple(types.NewParam(token.NoPos, nil, "x", f64)),
			types.NewTuple(types.NewParam(token.NoPos, nil, "", f64)), false)
		v := t.Emit(ir.OpCall, f64, vals...)
		v.Callee = &ir.Callee{Derived: &ir.DerivedFunc{Name: name, Sig: sig, Helper: true}}
		return v, nil
	})
}

// cond lowers a condition of where on the primal values.
func (e *expander) cond(x ast.Expr, env map[string]*series) (*ir.Value, error) {
	t := e.t
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
			f64 := types.Typ[types.Float64]
			var a, b *series
			var err error
			if isLit(x.X) && !isLit(x.Y) {
				if b, err = e.expr(x.Y, env, f64); err != nil {
					return nil, err
				}
				if a, err = e.expr(x.X, env, b.typ); err != nil {
					return nil, err
				}
			} else {
				if a, err = e.expr(x.X, env, f64); err != nil {
					return nil, err
				}
				if b, err = e.expr(x.Y, env, a.typ); err != nil {
					return nil, err
				}
			}
			if !types.Identical(a.typ, b.typ) {
				if isInt(a.typ) {
					a = e.convert(a, b.typ)
				} else {
					b = e.convert(b, a.typ)
				}
			}
			a0, err := a.at(0)
			if err != nil {
				return nil, err
			}
			b0, err := b.at(0)
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

// mathPkg returns package math, as the call being expanded names it.
func mathPkg(e *expander) *types.Package { return e.math }
