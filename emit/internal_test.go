package emit

// Tests of the package's internals.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/internal/irtest"
	"github.com/gadgen/gadgen/ir"
)

// TestCloneFields fails when the IR's types gain fields, which cloneFunc
// must then copy.
func TestCloneFields(t *testing.T) {
	for _, c := range []struct {
		typ  reflect.Type
		want int
	}{
		{reflect.TypeFor[ir.Func](), 15},
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
		got := wrapDoc(c.line, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapDoc(%q, %d) = %q, want %q", c.line, c.width, got, c.want)
		}
	}
}

// TestSuspendGotoForm emits a split function whose halves branch, in the
// goto form: the continuation is a func literal with labels of its own,
// and the file type-checks (no goto leaves or enters the literal).
func TestSuspendGotoForm(t *testing.T) {
	forceGotoForm = true
	defer func() { forceGotoForm = false }()
	pkg := types.NewPackage("example.com/p", "p")
	intT, boolT := types.Typ[types.Int], types.Typ[types.Bool]
	b := irtest.NewBuilder("Half", pkg)
	n, odd := b.Param("n", intT), b.Param("odd", boolT)
	seed := b.Param("seed", intT)
	b.F.AddResult("", intT)
	b.F.Suspend = &ir.Suspend{Names: []string{""}, Types: []types.Type{intT}, BackParams: 1, Back: "back"}
	then, join, back, more, done := b.Block("then"), b.Block("join"), b.Block("back"), b.Block("more"), b.Block("done")
	b.If(odd, then, join)
	b.At(then)
	m := b.Add(n, b.Int(3))
	b.Jump(join)
	b.At(join)
	r := b.Phi("r", intT)
	irtest.SetArgs(r, n, m)
	b.CallBuiltin(ir.SuspendBuiltin, nil, r)
	b.Jump(back)
	b.At(back)
	b.If(b.Bin(token.GTR, seed, b.Int(0)), more, done)
	b.At(more)
	b.Return(b.Add(seed, r))
	b.At(done)
	b.Return(r)
	src, err := Render(File{PkgName: "p", PkgPath: "example.com/p", Funcs: []*ir.Func{b.F}})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if _, err := (&types.Config{}).Check("example.com/p", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if !strings.Contains(string(src), "goto") || !strings.Contains(string(src), "func(seed int) int {") {
		t.Errorf("want the goto form and a continuation literal:\n%s", src)
	}
}

// TestApartSource checks that the alias-check helper's source declares
// apartHelper and panics with the message the rewrite strips (ir.AliasSuffix).
func TestApartSource(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+apartSource, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if len(f.Decls) != 1 || !ok || fd.Name.Name != apartHelper || fd.Doc == nil {
		t.Fatalf("apartSource must declare %s alone, with a doc comment", apartHelper)
	}
	if !strings.Contains(apartSource, `"`+ir.AliasSuffix+`"`) {
		t.Errorf("apartSource does not panic with %q", ir.AliasSuffix)
	}
}
