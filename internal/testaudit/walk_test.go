package testaudit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/difftest"
)

// walkGo parses, with comments, every Go file of the repository whose name
// ends in suffix (testdata and hidden directories aside) and calls visit
// with its path relative to the repository's root. It returns the number
// of files visited.
func walkGo(t *testing.T, suffix string, visit func(rel string, fset *token.FileSet, f *ast.File)) int {
	t.Helper()
	root, err := difftest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, suffix) {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files++
		visit(rel, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
