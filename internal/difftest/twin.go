package difftest

// This file defines the complex128 twin of a program: the same source with
// complex128 for float64, the functions of package math replaced by those
// of package cmath, comparisons of floats made on real parts (and
// recorded in cmath's trace), and the results of arithmetic on floats
// passed through cmath.Seen (for cmath.Largest). It is a rewrite of the type-checked syntax,
// so it applies to any program in the subset, generated or written by
// hand.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/astutil"
)

// cmathFuncs are the functions of package math that package cmath has a
// counterpart of, under the same name.
var cmathFuncs = []string{
	"Abs", "Atan", "Atan2", "Ceil", "Cos", "Cosh", "Erf", "Exp", "Expm1", "Floor", "Hypot",
	"Log", "Log1p", "Max", "Min", "Pow", "Round", "Sin", "Sinh", "Sqrt", "Tanh", "Trunc",
}

// comparisons maps a comparison of floats to its cmath function.
var comparisons = map[token.Token]string{
	token.LSS: "Less", token.LEQ: "Leq", token.GTR: "Greater",
	token.GEQ: "Geq", token.EQL: "Eq", token.NEQ: "Neq",
}

// twinFile rewrites p.file (or p.shared, with shared) into its complex
// twin, in place, importing package cmath from cmathPath. p's type
// information must describe the file as it is; it does not after.
func (p *parsed) twinFile(f *ast.File, cmathPath string) error {
	info := p.info
	var err error
	usesCmath := false
	cm := func(name string) ast.Expr {
		usesCmath = true
		return &ast.SelectorExpr{X: ast.NewIdent("cmath"), Sel: ast.NewIdent(name)}
	}
	typeOf := func(e ast.Expr) types.Type {
		if tv, ok := info.Types[e]; ok {
			return tv.Type
		}
		return nil
	}
	// The decisions are taken before the children of a node are
	// rewritten, when the type information still applies to them.
	type plan func(c *astutil.Cursor)
	plans := map[ast.Node]plan{}
	pre := func(c *astutil.Cursor) bool {
		switch n := c.Node().(type) {
		case ast.Expr:
			tv, ok := info.Types[n]
			if ok && tv.Value != nil && !tv.IsType() {
				// A constant expression: a float one becomes a
				// complex128 (s := 0.0 declares a complex s).
				// (Apply calls no post for it, and walks no replacement.)
				if isFloat(tv.Type) && tv.Type.Underlying().(*types.Basic).Info()&types.IsUntyped == 0 {
					c.Replace(&ast.CallExpr{Fun: ast.NewIdent("complex128"), Args: []ast.Expr{n}})
				}
				return false
			}
		}
		switch n := c.Node().(type) {
		case *ast.Ident:
			if tn, ok := info.Uses[n].(*types.TypeName); ok && tn.Pkg() == nil && isFloat(tn.Type()) {
				n.Name = "complex128"
			}
		case *ast.BinaryExpr:
			if name, ok := comparisons[n.Op]; ok {
				if t := typeOf(n.X); t != nil && isFloat(t) {
					plans[n] = func(c *astutil.Cursor) {
						c.Replace(&ast.CallExpr{Fun: cm(name), Args: []ast.Expr{n.X, n.Y}})
					}
				}
			} else if t := typeOf(n); t != nil && isFloat(t) {
				// Arithmetic: its result is seen (cmath.Largest), for
				// the cancellations of large values (s + (x - s)).
				plans[n] = func(c *astutil.Cursor) {
					c.Replace(&ast.CallExpr{Fun: cm("Seen"), Args: []ast.Expr{n}})
				}
			}
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE && len(n.Rhs) == 1 {
				if t := typeOf(n.Rhs[0]); t != nil && isFloat(t) {
					// s += x: x is seen; s is, where it is an operand.
					plans[n] = func(c *astutil.Cursor) {
						if call, ok := n.Rhs[0].(*ast.CallExpr); ok {
							if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Seen" {
								return // an operation, seen already
							}
						}
						n.Rhs[0] = &ast.CallExpr{Fun: cm("Seen"), Args: []ast.Expr{n.Rhs[0]}}
					}
				}
			}
		case *ast.CallExpr:
			if tv, ok := info.Types[n.Fun]; ok && tv.IsType() {
				plans[n] = conversion(n, tv.Type, typeOf(n.Args[0]))
				break
			}
			switch fun := ast.Unparen(n.Fun).(type) {
			case *ast.SelectorExpr:
				obj, _ := info.Uses[fun.Sel].(*types.Func)
				if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "math" {
					break
				}
				if !slices.Contains(cmathFuncs, obj.Name()) {
					err = fmt.Errorf("%s: the twin has no counterpart of math.%s", p.fset.Position(n.Pos()), obj.Name())
					return false
				}
				plans[n] = func(c *astutil.Cursor) { n.Fun = cm(obj.Name()) }
			case *ast.Ident:
				if b, ok := info.Uses[fun].(*types.Builtin); ok && (b.Name() == "min" || b.Name() == "max") && typeOf(n) != nil && isFloat(typeOf(n)) {
					name := map[string]string{"min": "Min", "max": "Max"}[b.Name()]
					plans[n] = func(c *astutil.Cursor) { n.Fun = cm(name) }
				}
			}
		}
		return true
	}
	post := func(c *astutil.Cursor) bool {
		if pl := plans[c.Node()]; pl != nil {
			pl(c)
		}
		return true
	}
	astutil.Apply(f, pre, post)
	if err != nil {
		return err
	}
	if usesCmath {
		astutil.AddImport(p.fset, f, cmathPath)
	}
	if !usesPackage(f, "math") {
		astutil.DeleteImport(p.fset, f, "math")
	}
	return nil
}

// usesPackage reports whether f has a selector name.X (programs do not
// shadow package names).
func usesPackage(f *ast.File, name string) bool {
	used := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
				used = true
			}
		}
		return !used
	})
	return used
}

// conversion returns the plan of a conversion T(x) in the twin: from an
// integer to a float, complex(float64(x), 0); from a float to a float,
// x; from a float to an integer, T(real(x)).
func conversion(n *ast.CallExpr, to, from types.Type) func(c *astutil.Cursor) {
	if from == nil {
		return nil
	}
	// The plans read n.Args[0] when they run: it may have been rewritten.
	switch {
	case isFloat(to) && isInteger(from):
		return func(c *astutil.Cursor) {
			f64 := &ast.CallExpr{Fun: ast.NewIdent("float64"), Args: []ast.Expr{n.Args[0]}}
			c.Replace(&ast.CallExpr{Fun: ast.NewIdent("complex"), Args: []ast.Expr{f64, &ast.BasicLit{Kind: token.INT, Value: "0"}}})
		}
	case isFloat(to) && isFloat(from):
		return func(c *astutil.Cursor) { c.Replace(&ast.ParenExpr{X: n.Args[0]}) }
	case isInteger(to) && isFloat(from):
		return func(c *astutil.Cursor) {
			n.Args[0] = &ast.CallExpr{Fun: ast.NewIdent("real"), Args: []ast.Expr{n.Args[0]}}
		}
	}
	return nil
}
