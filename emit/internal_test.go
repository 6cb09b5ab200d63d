package emit

// Tests of the package's internals.

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/ir"
)

// TestCloneFields fails when the IR's types gain fields, which cloneFunc
// must then copy.
func TestCloneFields(t *testing.T) {
	for _, c := range []struct {
		typ  reflect.Type
		want int
	}{
		{reflect.TypeFor[ir.Func](), 13},
		{reflect.TypeFor[ir.Block](), 6},
		{reflect.TypeFor[ir.Value](), 14},
	} {
		if got := c.typ.NumField(); got != c.want {
			t.Errorf("%s has %d fields, want %d: update cloneFunc (literals.go) and this test", c.typ, got, c.want)
		}
	}
}

func TestImportable(t *testing.T) {
	for _, c := range []struct {
		from, to string
		want     bool
	}{
		{"a/b", "time", true},
		{"a/b", "a/internal/c", true},
		{"a/b/d", "a/b/internal", true},
		{"a", "a/b/internal/c", false},
		{"x/y", "a/internal/c", false},
		{"a/b", "internal/abi", false},
		{"ab/c", "a/internal/c", false},
	} {
		if got := importable(c.from, c.to); got != c.want {
			t.Errorf("importable(%q, %q) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

// TestWrapDoc: lines are filled to the width, and no line starts with a
// list marker or a directive (the line before runs over instead).
func TestWrapDoc(t *testing.T) {
	for _, c := range []struct {
		line  string
		width int
		want  []string
	}{
		{"a b c", 10, []string{"a b c"}},
		{"aaa bbb ccc ddd", 8, []string{"aaa bbb", "ccc ddd"}},
		{"aaa bbb - ccc", 8, []string{"aaa bbb -", "ccc"}},
		{"aaa bbb //gad:vjp ccc", 8, []string{"aaa bbb //gad:vjp", "ccc"}},
	} {
		got := WrapDoc(c.line, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("WrapDoc(%q, %d) = %q, want %q", c.line, c.width, got, c.want)
		}
	}
}
