package testaudit

import (
	"go/ast"
	"go/token"
	"testing"
)

// TestToleranceFailsOnNaN fails for every assertion in the repository's
// test files of the form
//
//	if math.Abs(got-want) > tol { t.Errorf(…) }
//	if d := tensorops.MaxAbsDiff(got, want); d > tol { t.Errorf(…) }
//
// whose condition does not also test math.IsNaN: a NaN makes every
// comparison false, so a NaN result passes. Write !(math.Abs(got-want) <=
// tol) instead, which a NaN fails.
func TestToleranceFailsOnNaN(t *testing.T) {
	files := walkGo(t, "_test.go", func(rel string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			s, ok := n.(*ast.IfStmt)
			if !ok || !reports(s.Body) || mentions(s.Cond, "IsNaN") {
				return true
			}
			diffs := diffVars(s.Init)
			ast.Inspect(s.Cond, func(n ast.Node) bool {
				if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.NOT {
					return false // !(d > tol) and !(d <= tol) both fail on NaN
				}
				b, ok := n.(*ast.BinaryExpr)
				if ok && b.Op == token.GTR && isDiff(b.X, diffs) {
					t.Errorf("%s:%d: a tolerance that a NaN passes: write !(… <= tol)", rel, fset.Position(b.Pos()).Line)
				}
				return true
			})
			return true
		})
	})
	if files < 100 {
		t.Errorf("found %d test files, want at least 100", files)
	}
}

// reports reports whether body calls a method that reports a failure:
// Error, Errorf, Fatal, Fatalf (of a testing.TB or a checker's errorf).
func reports(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "Error", "Errorf", "Fatal", "Fatalf", "errorf":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// mentions reports whether e calls a function or method named name.
func mentions(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			switch fn := c.Fun.(type) {
			case *ast.SelectorExpr:
				found = found || fn.Sel.Name == name
			case *ast.Ident:
				found = found || fn.Name == name
			}
		}
		return !found
	})
	return found
}

// diffVars returns the names that init assigns a MaxAbsDiff to.
func diffVars(init ast.Stmt) map[string]bool {
	out := map[string]bool{}
	a, ok := init.(*ast.AssignStmt)
	if !ok {
		return out
	}
	for i, r := range a.Rhs {
		if i < len(a.Lhs) && isCallOf(r, "MaxAbsDiff") {
			if id, ok := a.Lhs[i].(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
	}
	return out
}

// isDiff reports whether e is a difference's magnitude: math.Abs(…), a
// MaxAbsDiff(…) call, or a name diffs holds.
func isDiff(e ast.Expr, diffs map[string]bool) bool {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		return diffs[id.Name]
	}
	return isCallOf(e, "Abs") || isCallOf(e, "MaxAbsDiff")
}

// isCallOf reports whether e calls a function or method named name.
func isCallOf(e ast.Expr, name string) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	switch fn := c.Fun.(type) {
	case *ast.SelectorExpr:
		return fn.Sel.Name == name
	case *ast.Ident:
		return fn.Name == name
	}
	return false
}
