package ssaad

// This file defines the lowering of a partial-derivative expression of
// package templates into IR values in the current block.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// LowerPartial lowers the partial-derivative expression src of a rule of
// package templates, whose identifiers are bound by env, into values
// appended to the current block; calls go to functions of package mathPkg;
// float is the type of untyped literals.
func (b *Builder) LowerPartial(src string, env map[string]*ir.Value, mathPkg *types.Package, float types.Type) (*ir.Value, error) {
	e, err := templates.Parse(src)
	if err != nil {
		return nil, err
	}
	l := &lowerer{b: b, env: env, math: mathPkg, float: float}
	return l.expr(e, float)
}

type lowerer struct {
	b     *Builder
	env   map[string]*ir.Value
	math  *types.Package
	float types.Type
}

var boolType = types.Typ[types.Bool]

func isIntType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// expr lowers e; want is the type an untyped literal takes.
func (l *lowerer) expr(e ast.Expr, want types.Type) (*ir.Value, error) {
	b := l.b
	switch e := e.(type) {
	case *ast.ParenExpr:
		return l.expr(e.X, want)
	case *ast.BasicLit:
		var c constant.Value
		switch e.Kind {
		case token.INT:
			n, err := strconv.ParseInt(e.Value, 10, 64)
			if err != nil {
				return nil, err
			}
			c = constant.MakeInt64(n)
		case token.FLOAT:
			f, err := strconv.ParseFloat(e.Value, 64)
			if err != nil {
				return nil, err
			}
			c = constant.MakeFloat64(f)
		default:
			return nil, fmt.Errorf("literal %s", e.Value)
		}
		return b.F.ConstValue(want, c), nil
	case *ast.Ident:
		if v, ok := l.env[e.Name]; ok {
			return v, nil
		}
		return nil, fmt.Errorf("unknown name %s", e.Name)
	case *ast.SelectorExpr:
		obj := l.math.Scope().Lookup(e.Sel.Name)
		c, ok := obj.(*types.Const)
		if !ok {
			return nil, fmt.Errorf("math.%s is not a constant", e.Sel.Name)
		}
		return b.F.ConstValue(l.float, constant.ToFloat(c.Val())), nil
	case *ast.UnaryExpr:
		x, err := l.expr(e.X, want)
		if err != nil {
			return nil, err
		}
		if e.Op == token.SUB {
			if x.Op == ir.OpConst && x.Const != nil {
				return b.F.ConstValue(x.Type, constant.UnaryOp(token.SUB, x.Const, 0)), nil
			}
			return b.Neg(x), nil
		}
		if e.Op == token.NOT {
			v := b.Emit(ir.OpUnary, boolType, x)
			v.Tok = token.NOT
			return v, nil
		}
		return nil, fmt.Errorf("operator %s", e.Op)
	case *ast.BinaryExpr:
		return l.binary(e, want)
	case *ast.CallExpr:
		return l.call(e)
	}
	return nil, fmt.Errorf("unsupported expression %T", e)
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

func (l *lowerer) binary(e *ast.BinaryExpr, want types.Type) (*ir.Value, error) {
	b := l.b
	switch e.Op {
	case token.LAND, token.LOR:
		x, err := l.expr(e.X, boolType)
		if err != nil {
			return nil, err
		}
		y, err := l.expr(e.Y, boolType)
		if err != nil {
			return nil, err
		}
		v := b.Emit(ir.OpBinary, boolType, x, y)
		v.Tok = e.Op
		return v, nil
	}
	cmp := e.Op == token.EQL || e.Op == token.NEQ || e.Op == token.LSS || e.Op == token.LEQ || e.Op == token.GTR || e.Op == token.GEQ
	operand := want
	if cmp {
		operand = l.float
	}
	// Lower the non-literal side first so that a literal takes its type.
	var x, y *ir.Value
	var err error
	if isLit(e.X) && !isLit(e.Y) {
		if y, err = l.expr(e.Y, operand); err != nil {
			return nil, err
		}
		if x, err = l.expr(e.X, y.Type); err != nil {
			return nil, err
		}
	} else {
		if x, err = l.expr(e.X, operand); err != nil {
			return nil, err
		}
		if y, err = l.expr(e.Y, x.Type); err != nil {
			return nil, err
		}
	}
	// Mixed int and float operands: convert the int.
	if !types.Identical(x.Type, y.Type) {
		if isIntType(x.Type) {
			x = l.convert(x, y.Type)
		} else if isIntType(y.Type) {
			y = l.convert(y, x.Type)
		} else {
			return nil, fmt.Errorf("operands of %s have types %s and %s", e.Op, x.Type, y.Type)
		}
	}
	typ := x.Type
	if cmp {
		typ = boolType
	}
	if !cmp {
		switch e.Op {
		case token.ADD:
			return b.Add(x, y), nil
		case token.SUB:
			return b.Sub(x, y), nil
		case token.MUL:
			return b.Mul(x, y), nil
		case token.QUO:
			return b.Quo(x, y), nil
		}
	}
	v := b.Emit(ir.OpBinary, typ, x, y)
	v.Tok = e.Op
	return v, nil
}

func (l *lowerer) convert(x *ir.Value, to types.Type) *ir.Value {
	if x.Op == ir.OpConst && x.Const != nil {
		return l.b.F.ConstValue(to, constant.ToFloat(x.Const))
	}
	return l.b.Same(&ir.Value{Op: ir.OpConvert, Type: to}, x)
}

func (l *lowerer) call(e *ast.CallExpr) (*ir.Value, error) {
	b := l.b
	switch fun := e.Fun.(type) {
	case *ast.Ident:
		if fun.Name == templates.Where {
			if len(e.Args) != 3 {
				return nil, fmt.Errorf("where takes 3 arguments")
			}
			c, err := l.expr(e.Args[0], boolType)
			if err != nil {
				return nil, err
			}
			a, err := l.expr(e.Args[1], l.float)
			if err != nil {
				return nil, err
			}
			d, err := l.expr(e.Args[2], a.Type)
			if err != nil {
				return nil, err
			}
			return b.Emit(ir.OpSelect, a.Type, c, a, d), nil
		}
		if _, ok := templates.Helpers[fun.Name]; ok {
			var args []*ir.Value
			for _, a := range e.Args {
				x, err := l.expr(a, l.float)
				if err != nil {
					return nil, err
				}
				args = append(args, x)
			}
			f64 := types.Typ[types.Float64]
			sig := types.NewSignatureType(nil, nil, nil,
				types.NewTuple(types.NewParam(token.NoPos, nil, "x", f64)),
				types.NewTuple(types.NewParam(token.NoPos, nil, "", f64)), false)
			v := b.Emit(ir.OpCall, f64, args...)
			v.Callee = &ir.Callee{Derived: &ir.DerivedFunc{Name: fun.Name, Sig: sig, Helper: true}}
			return v, nil
		}
		return nil, fmt.Errorf("unknown function %s", fun.Name)
	case *ast.SelectorExpr:
		fn, ok := l.math.Scope().Lookup(fun.Sel.Name).(*types.Func)
		if !ok {
			return nil, fmt.Errorf("math.%s is not a function", fun.Sel.Name)
		}
		sig := fn.Type().(*types.Signature)
		var args []*ir.Value
		for i, a := range e.Args {
			pt := sig.Params().At(i).Type()
			x, err := l.expr(a, pt)
			if err != nil {
				return nil, err
			}
			if !types.Identical(x.Type, pt) {
				x = l.convert(x, pt)
			}
			args = append(args, x)
		}
		v := b.Emit(ir.OpCall, sig.Results().At(0).Type(), args...)
		v.Callee = &ir.Callee{Func: fn}
		return v, nil
	}
	return nil, fmt.Errorf("unsupported call")
}
