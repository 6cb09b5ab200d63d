package testaudit

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// maxFuncLines is the most lines, signature to closing brace, that a
// hand-written function outside the tests may take: a longer one is split
// into named steps.
const maxFuncLines = 150

// TestFuncLength: no hand-written non-test function is longer than
// maxFuncLines. Generated files (gadgen's, or any with the standard
// "Code generated" header) are not hand-written.
func TestFuncLength(t *testing.T) {
	n := walkGo(t, ".go", func(rel string, fset *token.FileSet, f *ast.File) {
		if strings.HasSuffix(rel, "_test.go") || ast.IsGenerated(f) {
			return
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; lines > maxFuncLines {
				t.Errorf("%s: %s is %d lines, more than %d: split it into named steps", rel, fd.Name.Name, lines, maxFuncLines)
			}
		}
	})
	if n == 0 {
		t.Fatal("no Go file found")
	}
}
