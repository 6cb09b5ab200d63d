// Package testaudit holds tests of the repository's tests themselves: the
// patterns that let a test pass without checking anything.
package testaudit

import (
	"fmt"
	"go/ast"
	"go/token"
	"testing"
)

// skipCall is a call of Skip, Skipf or SkipNow on a *testing.T, B or F or
// a testing.TB.
type skipCall struct {
	pos token.Position
	// lines are the lines a comment explaining the skip may end on: the
	// call's, the one before it, and, for a call that is the body of an if
	// or a case, the line before that statement and its first line.
	lines []int
}

// TestSkipsCommented fails for every t.Skip, t.Skipf and t.SkipNow in the
// repository's Go files (test files and test helpers, testdata aside)
// without a comment saying why the skip is legitimate: a comment ending on
// the call's line or the line before it, or, when the call is the body of
// an if or a case, on the line before that or on its first line. A skip
// that hides a failure or an empty input has no good comment; one that a
// CI never reaches (no GPU, no PyTorch, a flag) should say so.
func TestSkipsCommented(t *testing.T) {
	found := 0
	walkGo(t, ".go", func(rel string, fset *token.FileSet, f *ast.File) {
		ends := map[int]bool{} // the lines on which a comment ends
		for _, cg := range f.Comments {
			ends[fset.Position(cg.End()).Line] = true
		}
		for _, c := range skipCalls(fset, f) {
			found++
			ok := false
			for _, l := range c.lines {
				ok = ok || ends[l]
			}
			if !ok {
				t.Errorf("%s:%d: a skip without a comment saying why it is legitimate (and whether CI runs it)", rel, c.pos.Line)
			}
		}
	})
	// The repository skips without a GPU, without PyTorch, in -short mode…:
	// finding few means this test looks in the wrong place.
	if found < 30 {
		t.Errorf("found %d skips, want at least 30", found)
	}
	t.Logf("%d skips checked", found)
}

// skipCalls returns the skips of f.
func skipCalls(fset *token.FileSet, f *ast.File) []skipCall {
	var out []skipCall
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		call, ok := n.(*ast.CallExpr)
		if !ok || !isSkip(call) {
			return true
		}
		line := fset.Position(call.Pos()).Line
		c := skipCall{pos: fset.Position(call.Pos()), lines: []int{line, line - 1}}
		// The statement holding the call, and the if or case whose body
		// it is.
		if len(stack) >= 4 {
			if _, ok := stack[len(stack)-2].(*ast.ExprStmt); ok {
				var outer ast.Node
				switch p := stack[len(stack)-3].(type) {
				case *ast.BlockStmt:
					if s, ok := stack[len(stack)-4].(*ast.IfStmt); ok && s.Body == p {
						outer = s
					}
				case *ast.CaseClause:
					outer = p
				}
				if outer != nil {
					l := fset.Position(outer.Pos()).Line
					c.lines = append(c.lines, l, l-1)
				}
			}
		}
		out = append(out, c)
		return true
	})
	return out
}

// isSkip reports whether call is x.Skip(…), x.Skipf(…) or x.SkipNow() with
// x a parameter of type *testing.T, *testing.B, *testing.F or testing.TB.
func isSkip(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "Skip", "Skipf", "SkipNow":
	default:
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok || id.Obj == nil {
		return false
	}
	field, ok := id.Obj.Decl.(*ast.Field)
	if !ok {
		return false
	}
	switch typeString(field.Type) {
	case "*testing.T", "*testing.B", "*testing.F", "testing.TB":
		return true
	}
	return false
}

// typeString spells a parameter's type expression: *testing.T, testing.TB.
func typeString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + typeString(e.X)
	case *ast.SelectorExpr:
		return typeString(e.X) + "." + e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return fmt.Sprintf("%T", e)
}
