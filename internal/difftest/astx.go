package difftest

// This file defines small constructors of Go syntax for the generator.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"strconv"
)

func id(name string) *ast.Ident { return ast.NewIdent(name) }

func intLit(n int) ast.Expr {
	if n < 0 {
		return &ast.UnaryExpr{Op: token.SUB, X: intLit(-n)}
	}
	return &ast.BasicLit{Kind: token.INT, Value: strconv.Itoa(n)}
}

// floatLit prints a float constant so that it reads as a float.
func floatLit(x float64) ast.Expr {
	if x < 0 {
		return &ast.UnaryExpr{Op: token.SUB, X: floatLit(-x)}
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if _, err := strconv.Atoi(s); err == nil {
		s += ".0"
	}
	return &ast.BasicLit{Kind: token.FLOAT, Value: s}
}

func bin(x ast.Expr, op token.Token, y ast.Expr) ast.Expr {
	return &ast.BinaryExpr{X: paren(x, op), Op: op, Y: parenRight(y, op)}
}

// paren parenthesizes x as the left operand of op where precedence
// needs it.
func paren(x ast.Expr, op token.Token) ast.Expr {
	if b, ok := x.(*ast.BinaryExpr); ok && b.Op.Precedence() < op.Precedence() {
		return &ast.ParenExpr{X: x}
	}
	return x
}

// parenRight parenthesizes y as the right operand of op.
func parenRight(y ast.Expr, op token.Token) ast.Expr {
	if b, ok := y.(*ast.BinaryExpr); ok && b.Op.Precedence() <= op.Precedence() {
		return &ast.ParenExpr{X: y}
	}
	if u, ok := y.(*ast.UnaryExpr); ok && u.Op == token.SUB && (op == token.SUB || op == token.ADD) {
		return &ast.ParenExpr{X: y}
	}
	return y
}

func neg(x ast.Expr) ast.Expr {
	switch x.(type) {
	case *ast.BinaryExpr, *ast.UnaryExpr:
		x = &ast.ParenExpr{X: x}
	}
	return &ast.UnaryExpr{Op: token.SUB, X: x}
}

func call(fun ast.Expr, args ...ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: fun, Args: args}
}

func sel(x ast.Expr, name string) *ast.SelectorExpr {
	return &ast.SelectorExpr{X: x, Sel: id(name)}
}

func mathCall(name string, args ...ast.Expr) ast.Expr { return call(sel(id("math"), name), args...) }

func index(x ast.Expr, i ast.Expr) ast.Expr { return &ast.IndexExpr{X: x, Index: i} }

func define(name string, x ast.Expr) ast.Stmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{id(name)}, Tok: token.DEFINE, Rhs: []ast.Expr{x}}
}

func assign(lhs ast.Expr, tok token.Token, rhs ast.Expr) ast.Stmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{lhs}, Tok: tok, Rhs: []ast.Expr{rhs}}
}

func exprStmt(x ast.Expr) ast.Stmt { return &ast.ExprStmt{X: x} }

func block(stmts ...ast.Stmt) *ast.BlockStmt { return &ast.BlockStmt{List: stmts} }

func ret(xs ...ast.Expr) ast.Stmt { return &ast.ReturnStmt{Results: xs} }

func sliceOf(elt ast.Expr) ast.Expr { return &ast.ArrayType{Elt: elt} }

func arrayOf(n int, elt ast.Expr) ast.Expr { return &ast.ArrayType{Len: intLit(n), Elt: elt} }

func field(name string, typ ast.Expr) *ast.Field {
	f := &ast.Field{Type: typ}
	if name != "" {
		f.Names = []*ast.Ident{id(name)}
	}
	return f
}

func funcType(params, results []*ast.Field) *ast.FuncType {
	ft := &ast.FuncType{Params: &ast.FieldList{List: params}}
	if len(results) > 0 {
		ft.Results = &ast.FieldList{List: results}
	}
	return ft
}

// float64Func is func(float64) float64.
func float64Func() ast.Expr {
	return funcType([]*ast.Field{field("", id("float64"))}, []*ast.Field{field("", id("float64"))})
}

// exprString prints an expression.
func exprString(e ast.Expr) string {
	var buf bytes.Buffer
	if err := format.Node(&buf, token.NewFileSet(), e); err != nil {
		panic(fmt.Sprintf("difftest: printing an expression: %v", err))
	}
	return buf.String()
}
