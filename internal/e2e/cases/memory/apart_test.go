package memory

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestApartChecks checks which reverses of a callee keep their alias
// checks (simplify.DropApartChecks): addScaledReverse, which Smooth calls
// on slices it made and on its checked parameter, has none and says so, as
// has blurReverse, which calls itself on scratch made in one branch;
// mixIntoReverse, which Halves calls on two halves of one slice, keeps the
// check of dst against src.
func TestApartChecks(t *testing.T) {
	src, err := os.ReadFile("memory_grad.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "memory_grad.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			funcs[fd.Name.Name] = fd
		}
	}
	text := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	for _, c := range []struct {
		prefix, want, doc string
		checks            bool
	}{
		{"addScaledReverse", "", "It does not check that its slices are apart in memory", false},
		{"blurReverse", "", "It does not check that its slices are apart in memory", false},
		{"mixIntoReverse", "gadApart(dst, src, ", "", true},
	} {
		found := false
		for name, fd := range funcs {
			if !strings.HasPrefix(name, c.prefix) {
				continue
			}
			found = true
			body := text(fd.Body)
			if got := strings.Contains(body, "gadApart("); got != c.checks {
				t.Errorf("%s checks its slices: %v, want %v:\n%s", name, got, c.checks, body)
			}
			if c.want != "" && !strings.Contains(body, c.want) {
				t.Errorf("%s has no %s:\n%s", name, c.want, body)
			}
			if c.doc != "" && !strings.Contains(fd.Doc.Text(), c.doc) {
				t.Errorf("%s's doc does not say %q:\n%s", name, c.doc, fd.Doc.Text())
			}
		}
		if !found {
			t.Errorf("no function %s… in memory_grad.go", c.prefix)
		}
	}
}
