// This file defines the expression language of partials: Parse, which
// checks an expression against the language, and Eval, which evaluates one.

package templates

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strconv"
	"sync"
)

// Where is the name of the pseudo-function where(cond, a, b) of the
// expression language: a when cond holds, else b. (select, the name one
// would want, is a Go keyword.) Only the chosen operand is evaluated.
const Where = "where"

// JVPCall and VJPCall name the pseudo-functions of the expressions of a
// rule that a user gives with //gad:rule jvp=… vjp=…: jvp(…) calls the
// user's JVP function (Rule.JVP), vjp(…) the user's VJP (Rule.VJP), with
// any arguments (checked where they are lowered, against the function's
// signature); vjp(…)[k] is result k of a VJP with several results.
const (
	JVPCall = "jvp"
	VJPCall = "vjp"
)

// callFunc is a function that expressions may call: a function of package
// math or a helper that takes float64 and int arguments and returns one
// float64.
type callFunc struct {
	// ints[k] reports whether argument k is an int; len(ints) is the arity.
	ints []bool
	fn   func(a []float64, n []int) float64
}

// callFuncs holds the functions that expressions may call, by key(Pkg,
// Name): the rules' functions of package math and the helpers (Pkg "")
// whose parameters are float64s and ints and whose result is one float64.
var callFuncs = func() map[string]callFunc {
	out := map[string]callFunc{}
	for _, r := range all {
		if r.Pkg != "math" && r.Pkg != "" {
			continue
		}
		if f, ok := callable(r.Func); ok {
			out[key(r.Pkg, r.Name)] = f
		}
	}
	return out
}()

// callable adapts f when its parameters are float64s and ints and its
// result is one float64.
func callable(f any) (callFunc, bool) {
	switch f := f.(type) {
	case func() float64:
		return callFunc{nil, func([]float64, []int) float64 { return f() }}, true
	case func(float64) float64:
		return callFunc{[]bool{false}, func(a []float64, _ []int) float64 { return f(a[0]) }}, true
	case func(float64, float64) float64:
		return callFunc{[]bool{false, false}, func(a []float64, _ []int) float64 { return f(a[0], a[1]) }}, true
	case func(float64, float64, float64) float64:
		return callFunc{[]bool{false, false, false}, func(a []float64, _ []int) float64 { return f(a[0], a[1], a[2]) }}, true
	case func(int) float64:
		return callFunc{[]bool{true}, func(_ []float64, n []int) float64 { return f(n[0]) }}, true
	case func(int, float64) float64:
		return callFunc{[]bool{true, false}, func(a []float64, n []int) float64 { return f(n[0], a[1]) }}, true
	case func(float64, int) float64:
		return callFunc{[]bool{false, true}, func(a []float64, n []int) float64 { return f(a[0], n[1]) }}, true
	}
	return callFunc{}, false
}

// mathConsts holds the float constants of package math that expressions
// may name (math.Pi, math.Ln2, ...).
var mathConsts = map[string]float64{
	"E":       math.E,
	"Pi":      math.Pi,
	"Phi":     math.Phi,
	"Sqrt2":   math.Sqrt2,
	"SqrtE":   math.SqrtE,
	"SqrtPi":  math.SqrtPi,
	"SqrtPhi": math.SqrtPhi,
	"Ln2":     math.Ln2,
	"Log2E":   math.Log2E,
	"Ln10":    math.Ln10,
	"Log10E":  math.Log10E,
}

// Parse parses one partial-derivative expression and checks that it
// belongs to the language:
//
//   - float or integer literals (1, 0.5, 1e-3);
//   - identifiers (the rule's Params and Results; Parse does not know the
//     rule, so it does not check which);
//   - the math constants math.Pi, math.E, math.Ln2, ... ;
//   - binary + - * /, unary -, parentheses;
//   - calls math.F(args) to functions of package math with one float64
//     result and float64 or int parameters, with the right arity;
//   - calls to the helpers of [Helpers] ("gadDigamma(x)");
//   - in the rules of tensor operations, calls tensorops.F(args) of the
//     tensor runtime (any arity; checked where they are lowered) and the
//     identifiers true and false (for bool arguments);
//   - where(cond, a, b) (see [Where]), whose cond is built from the
//     comparisons == != < <= > >= of numeric expressions, && and ||.
//     Conditions appear nowhere else;
//   - in the rules users give with //gad:rule jvp=… vjp=…, the calls
//     jvp(…) and vjp(…) of their functions (see [JVPCall]), any arity, and
//     vjp(…)[k], k an integer literal: result k of the call.
//
// The numeric expressions passed to int parameters of math functions
// (Jn's n, Ldexp's exp) are meant to be int-typed in Go: int parameters,
// integer literals, + - and unary - of them.
//
// Each expression is parsed and checked once: later calls return the same
// tree, which callers must not modify.
func Parse(expr string) (ast.Expr, error) {
	if p, ok := parsed.Load(expr); ok {
		r := p.(parseResult)
		return r.e, r.err
	}
	r := parseResult{}
	r.e, r.err = parse(expr)
	parsed.Store(expr, r)
	return r.e, r.err
}

// parsed caches Parse's results by expression.
var parsed sync.Map

type parseResult struct {
	e   ast.Expr
	err error
}

func parse(expr string) (ast.Expr, error) {
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return nil, fmt.Errorf("templates: parse %q: %v", expr, err)
	}
	if err := check(e, false); err != nil {
		return nil, fmt.Errorf("templates: parse %q: %v", expr, err)
	}
	return e, nil
}

// check reports whether e belongs to the language, as a condition when
// cond, else as a numeric expression.
func check(e ast.Expr, cond bool) error {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return check(e.X, cond)
	case *ast.BinaryExpr:
		var operand bool // whether the operands are conditions
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			if cond {
				return fmt.Errorf("arithmetic %s where a condition is expected", e.Op)
			}
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			if !cond {
				return fmt.Errorf("comparison %s outside the condition of %s", e.Op, Where)
			}
		case token.LAND, token.LOR:
			if !cond {
				return fmt.Errorf("%s outside the condition of %s", e.Op, Where)
			}
			operand = true
		default:
			return fmt.Errorf("operator %s not allowed", e.Op)
		}
		if err := check(e.X, operand); err != nil {
			return err
		}
		return check(e.Y, operand)
	}
	if cond {
		return fmt.Errorf("%s is not a condition", nodeString(e))
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.INT && e.Kind != token.FLOAT {
			return fmt.Errorf("literal %s not allowed", e.Value)
		}
		if _, err := strconv.ParseFloat(e.Value, 64); err != nil {
			return fmt.Errorf("literal %s: %v", e.Value, err)
		}
		return nil
	case *ast.Ident:
		switch e.Name {
		case "_", "nil", "math", "tensorops", Where, JVPCall, VJPCall:
			return fmt.Errorf("identifier %s not allowed as a value", e.Name)
		}
		return nil
	case *ast.IndexExpr:
		if c, ok := e.X.(*ast.CallExpr); !ok || !isUserCall(c) {
			return fmt.Errorf("indexing %s: only a result of %s(…) or %s(…) may be indexed", nodeString(e.X), JVPCall, VJPCall)
		}
		if lit, ok := e.Index.(*ast.BasicLit); !ok || lit.Kind != token.INT {
			return fmt.Errorf("indexing %s(…): the index of a result must be an integer literal", nodeString(e.X.(*ast.CallExpr).Fun))
		}
		return check(e.X, false)
	case *ast.SelectorExpr:
		if !isMath(e) {
			return fmt.Errorf("%s: only math.Const and math.F(...) may be selected", nodeString(e))
		}
		if _, ok := mathConsts[e.Sel.Name]; !ok {
			return fmt.Errorf("math.%s is not a float constant of package math", e.Sel.Name)
		}
		return nil
	case *ast.UnaryExpr:
		if e.Op != token.SUB {
			return fmt.Errorf("unary %s not allowed", e.Op)
		}
		return check(e.X, false)
	case *ast.CallExpr:
		if e.Ellipsis.IsValid() {
			return fmt.Errorf("... not allowed in calls")
		}
		var n int // the arity
		switch fun := e.Fun.(type) {
		case *ast.Ident:
			if fun.Name == Where {
				if len(e.Args) != 3 {
					return fmt.Errorf("%s takes 3 arguments, got %d", Where, len(e.Args))
				}
				if err := check(e.Args[0], true); err != nil {
					return err
				}
				if err := check(e.Args[1], false); err != nil {
					return err
				}
				return check(e.Args[2], false)
			}
			if isUserCall(e) {
				// The user's functions: checked where they are lowered.
				for _, a := range e.Args {
					if err := check(a, false); err != nil {
						return err
					}
				}
				return nil
			}
			f, ok := callFuncs[key("", fun.Name)]
			if !ok {
				return fmt.Errorf("call of %s: not %s, math.F or a helper", fun.Name, Where)
			}
			n = len(f.ints)
		case *ast.SelectorExpr:
			if isTensorops(fun) {
				// The runtime's signatures are checked where the
				// expression is lowered (gadgen does not import it).
				for _, a := range e.Args {
					if err := check(a, false); err != nil {
						return err
					}
				}
				return nil
			}
			f, ok := callFuncs[key("math", fun.Sel.Name)]
			if !isMath(fun) || !ok {
				return fmt.Errorf("call of %s: not a float64 function of package math", nodeString(fun))
			}
			n = len(f.ints)
		default:
			return fmt.Errorf("call of %s not allowed", nodeString(e.Fun))
		}
		if len(e.Args) != n {
			return fmt.Errorf("%s takes %d arguments, got %d", nodeString(e.Fun), n, len(e.Args))
		}
		for _, a := range e.Args {
			if err := check(a, false); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s not allowed", nodeString(e))
}

// isUserCall reports whether e calls the pseudo-function jvp or vjp.
func isUserCall(e *ast.CallExpr) bool {
	id, ok := e.Fun.(*ast.Ident)
	return ok && (id.Name == JVPCall || id.Name == VJPCall)
}

// isTensorops reports whether e selects from package tensorops.
func isTensorops(e *ast.SelectorExpr) bool {
	id, ok := e.X.(*ast.Ident)
	return ok && id.Name == "tensorops"
}

// isMath reports whether e selects from package math.
func isMath(e *ast.SelectorExpr) bool {
	id, ok := e.X.(*ast.Ident)
	return ok && id.Name == "math"
}

// nodeString describes a node for error messages.
func nodeString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return nodeString(e.X) + "." + e.Sel.Name
	case *ast.BasicLit:
		return e.Value
	}
	return fmt.Sprintf("%T", e)
}

// Eval evaluates the partial expression e (as returned by Parse) with the
// values of the names in env: the rule's Params and Results by name. Int
// parameters and results are given as float64 holding an integer; a value
// passed to an int argument of a math function must be one.
func Eval(e ast.Expr, env map[string]float64) (float64, error) {
	v, err := eval(e, env)
	if err != nil {
		return 0, fmt.Errorf("templates: Eval: %v", err)
	}
	return v, nil
}

func eval(e ast.Expr, env map[string]float64) (float64, error) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return eval(e.X, env)
	case *ast.BasicLit:
		if e.Kind != token.INT && e.Kind != token.FLOAT {
			return 0, fmt.Errorf("literal %s not allowed", e.Value)
		}
		return strconv.ParseFloat(e.Value, 64)
	case *ast.Ident:
		v, ok := env[e.Name]
		if !ok {
			return 0, fmt.Errorf("no value for %s", e.Name)
		}
		return v, nil
	case *ast.SelectorExpr:
		if c, ok := mathConsts[e.Sel.Name]; ok && isMath(e) {
			return c, nil
		}
	case *ast.UnaryExpr:
		if e.Op == token.SUB {
			x, err := eval(e.X, env)
			return -x, err
		}
	case *ast.BinaryExpr:
		x, err := eval(e.X, env)
		if err != nil {
			return 0, err
		}
		y, err := eval(e.Y, env)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case token.ADD:
			return x + y, nil
		case token.SUB:
			return x - y, nil
		case token.MUL:
			return x * y, nil
		case token.QUO:
			return x / y, nil
		}
	case *ast.CallExpr:
		return evalCall(e, env)
	}
	return 0, fmt.Errorf("%s not allowed in a numeric expression", nodeString(e))
}

func evalCall(e *ast.CallExpr, env map[string]float64) (float64, error) {
	args := func(n int) ([]float64, error) {
		if len(e.Args) != n {
			return nil, fmt.Errorf("%s takes %d arguments, got %d", nodeString(e.Fun), n, len(e.Args))
		}
		a := make([]float64, n)
		for k, arg := range e.Args {
			v, err := eval(arg, env)
			if err != nil {
				return nil, err
			}
			a[k] = v
		}
		return a, nil
	}
	switch fun := e.Fun.(type) {
	case *ast.Ident:
		if fun.Name == Where {
			if len(e.Args) != 3 {
				return 0, fmt.Errorf("%s takes 3 arguments, got %d", Where, len(e.Args))
			}
			c, err := evalCond(e.Args[0], env)
			if err != nil {
				return 0, err
			}
			if c {
				return eval(e.Args[1], env)
			}
			return eval(e.Args[2], env)
		}
		if f, ok := callFuncs[key("", fun.Name)]; ok {
			return callWith(f, nodeString(fun), args)
		}
	case *ast.SelectorExpr:
		if f, ok := callFuncs[key("math", fun.Sel.Name)]; ok && isMath(fun) {
			return callWith(f, nodeString(fun), args)
		}
	}
	return 0, fmt.Errorf("call of %s not allowed", nodeString(e.Fun))
}

// callWith calls f, named name, on the arguments args returns.
func callWith(f callFunc, name string, args func(n int) ([]float64, error)) (float64, error) {
	a, err := args(len(f.ints))
	if err != nil {
		return 0, err
	}
	n := make([]int, len(a))
	for k, isInt := range f.ints {
		if isInt {
			if a[k] != math.Trunc(a[k]) || math.Abs(a[k]) > 1<<53 {
				return 0, fmt.Errorf("argument %d of %s: %v is not an int", k+1, name, a[k])
			}
			n[k] = int(a[k])
		}
	}
	return f.fn(a, n), nil
}

// evalCond evaluates the condition of a where.
func evalCond(e ast.Expr, env map[string]float64) (bool, error) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return evalCond(e.X, env)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, err := evalCond(e.X, env)
			if err != nil || x == (e.Op == token.LOR) {
				return x, err
			}
			return evalCond(e.Y, env)
		}
		x, err := eval(e.X, env)
		if err != nil {
			return false, err
		}
		y, err := eval(e.Y, env)
		if err != nil {
			return false, err
		}
		switch e.Op {
		case token.EQL:
			return x == y, nil
		case token.NEQ:
			return x != y, nil
		case token.LSS:
			return x < y, nil
		case token.LEQ:
			return x <= y, nil
		case token.GTR:
			return x > y, nil
		case token.GEQ:
			return x >= y, nil
		}
	}
	return false, fmt.Errorf("%s is not a condition", nodeString(e))
}
