package frontend_test

import (
	"flag"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const modPath = "example.com/fe"

var (
	loadOnce sync.Once
	loaded   *frontend.Program
	loadErr  error
)

// program loads all the packages of testdata/mod once, in one call.
func program(t *testing.T) *frontend.Program {
	t.Helper()
	loadOnce.Do(func() {
		loaded, loadErr = frontend.Load(&frontend.Config{Dir: "testdata/mod"},
			"./lower", "./unsupported", "./directives", "./geom") // not ./extra
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	if errs := loaded.Errors(); len(errs) > 0 {
		t.Fatalf("testdata does not load cleanly:\n%v", errs)
	}
	return loaded
}

// funcs returns the functions and methods declared in package path (the
// non-test variant), in source order.
func funcs(t *testing.T, prog *frontend.Program, path string) []*types.Func {
	t.Helper()
	for _, lp := range prog.Roots {
		if lp.PkgPath != path || lp.ForTest != "" {
			continue
		}
		var fns []*types.Func
		for _, f := range lp.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					fns = append(fns, lp.TypesInfo.Defs[fd.Name].(*types.Func))
				}
			}
		}
		if len(fns) == 0 {
			t.Fatalf("package %s declares no function: the tests over its functions would check nothing", path)
		}
		return fns
	}
	t.Fatalf("package %s not loaded", path)
	return nil
}

func TestLowerChecks(t *testing.T) {
	prog := program(t)
	for _, fn := range funcs(t, prog, modPath+"/lower") {
		if hasFuncParam(fn) {
			continue // lowered in its specializations (TestSpecializations)
		}
		t.Run(frontend.FuncName(fn), func(t *testing.T) {
			f, diags := prog.Lower(fn)
			if len(diags) > 0 {
				t.Fatalf("got diagnostics:\n%v", diags)
			}
			if err := ir.Check(f); err != nil {
				t.Fatal(err)
			}
			sig := fn.Type().(*types.Signature)
			if len(f.Params) != sig.Params().Len()+recvCount(fn) {
				t.Errorf("got %d params", len(f.Params))
			}
			if f.Variadic != sig.Variadic() {
				t.Errorf("Variadic = %v", f.Variadic)
			}
		})
	}
}

func hasFuncParam(fn *types.Func) bool {
	for p := range fn.Type().(*types.Signature).Params().Variables() {
		if _, ok := p.Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

func recvCount(fn *types.Func) int {
	if fn.Type().(*types.Signature).Recv() != nil {
		return 1
	}
	return 0
}

// TestLowerGolden compares the IR of a few functions with golden dumps.
func TestLowerGolden(t *testing.T) {
	prog := program(t)
	all := funcs(t, prog, modPath+"/lower")
	for _, name := range []string{"SumSquares", "Dot", "Vec.Norm", "Vec.Scale", "Variadic", "Append", "Closures",
		"Named", "Struct", "Global", "MakeConst", "CallMulti", "Sprint", "Unnamed", "Blank", "Swap"} {
		t.Run(name, func(t *testing.T) {
			i := slices.IndexFunc(all, func(fn *types.Func) bool { return frontend.FuncName(fn) == name })
			if i < 0 {
				t.Fatalf("no function %s", name)
			}
			f, diags := prog.Lower(all[i])
			if len(diags) > 0 {
				t.Fatalf("got diagnostics:\n%v", diags)
			}
			got := f.String()
			file := filepath.Join("testdata", "golden", strings.ReplaceAll(name, ".", "_")+".ir")
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// want is an expected diagnostic, from a "want" comment of the testdata:
// "// want[+N] [col=C] "text"" expects a diagnostic containing text N
// lines below (at column C).
type want struct {
	pos   token.Position // line, and column if not 0
	text  string
	found bool
}

var wantRE = regexp.MustCompile(`// want(?:\+(\d))?(?: col=(\d+))? ("(?:[^"\\]|\\.)*")`)

// wants returns the "want" comments of the files of package path.
func wants(t *testing.T, prog *frontend.Program, path string) []*want {
	t.Helper()
	var ws []*want
	for _, f := range prog.Files() {
		if f.Pkg.PkgPath != path {
			continue
		}
		for _, cg := range f.Syntax.Comments {
			for _, c := range cg.List {
				m := wantRE.FindStringSubmatch(c.Text)
				if m == nil {
					continue
				}
				text, err := strconv.Unquote(m[3])
				if err != nil {
					t.Fatal(err)
				}
				pos := prog.Position(c.Slash)
				if m[1] != "" {
					pos.Line += int(m[1][0] - '0')
				}
				pos.Column = 0
				if m[2] != "" {
					pos.Column, _ = strconv.Atoi(m[2])
				}
				ws = append(ws, &want{pos: pos, text: text})
			}
		}
	}
	return ws
}

// matchWants checks that each diagnostic matches a want on its line and
// that each want is matched.
func matchWants(t *testing.T, diags diag.List, ws []*want) {
	t.Helper()
	for _, d := range diags {
		if d.Pos.Column <= 0 {
			t.Errorf("diagnostic without a column: %s", d)
		}
		matched := false
		for _, w := range ws {
			if w.pos.Filename == d.Pos.Filename && w.pos.Line == d.Pos.Line && strings.Contains(d.String(), w.text) &&
				(w.pos.Column == 0 || w.pos.Column == d.Pos.Column) {
				w.found, matched = true, true
			}
		}
		if !matched {
			t.Errorf("unexpected diagnostic: %s", d)
		}
	}
	for _, w := range ws {
		if !w.found {
			t.Errorf("%s:%d:%d: no diagnostic containing %q", filepath.Base(w.pos.Filename), w.pos.Line, w.pos.Column, w.text)
		}
	}
}

// TestLowerDiagnostics lowers each function of testdata/mod/unsupported
// and checks its diagnostics against the want comments.
func TestLowerDiagnostics(t *testing.T) {
	prog := program(t)
	ws := wants(t, prog, modPath+"/unsupported")
	if len(ws) == 0 {
		t.Fatal("testdata/mod/unsupported has no want comment")
	}
	// A want outside every function's lines is matched by no subtest: it
	// would check nothing.
	for _, w := range ws {
		if !slices.ContainsFunc(funcs(t, prog, modPath+"/unsupported"), func(fn *types.Func) bool {
			start, end := funcLines(prog, fn)
			return w.pos.Line >= start && w.pos.Line <= end
		}) {
			t.Errorf("%s:%d: want %q is in no function", filepath.Base(w.pos.Filename), w.pos.Line, w.text)
		}
	}
	for _, fn := range funcs(t, prog, modPath+"/unsupported") {
		if fn.Name() == "Norm" {
			continue
		}
		t.Run(frontend.FuncName(fn), func(t *testing.T) {
			f, diags := prog.Lower(fn)
			if len(diags) == 0 {
				t.Fatalf("no diagnostics; got\n%s", f)
			}
			if f != nil {
				t.Errorf("got a function despite diagnostics")
			}
			var mine []*want
			for _, w := range ws {
				if strings.Contains(w.text, "cannot differentiate") && !strings.Contains(w.text, " "+fn.Name()+":") {
					continue
				}
				if start, end := funcLines(prog, fn); w.pos.Line >= start && w.pos.Line <= end {
					mine = append(mine, w)
				}
			}
			for _, d := range diags {
				if want := "cannot differentiate " + frontend.FuncName(fn) + ": "; !strings.Contains(d.String(), want) {
					t.Errorf("%s does not contain %q", d, want)
				}
			}
			matchWants(t, diags, mine)
		})
	}
}

// funcLines returns the first and last lines of fn's declaration.
func funcLines(prog *frontend.Program, fn *types.Func) (start, end int) {
	start = prog.Position(fn.Pos()).Line
	if lp := prog.Package(fn.Pkg()); lp != nil {
		for _, file := range lp.Syntax {
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && lp.TypesInfo.Defs[fd.Name] == fn {
					end = prog.Position(fd.End()).Line
				}
			}
		}
	}
	return start, end
}

func TestLowerNoBody(t *testing.T) {
	prog := program(t)
	// math.Hypot is called by geom, so package math is loaded; its
	// bodies are dropped.
	var hypot *types.Func
	for _, lp := range prog.Roots {
		for _, imp := range lp.Imports {
			if imp.PkgPath == "math" {
				hypot, _ = imp.Types.Scope().Lookup("Hypot").(*types.Func)
			}
		}
	}
	if hypot == nil {
		t.Fatal("math.Hypot not found")
	}
	_, diags := prog.Lower(hypot)
	if len(diags) != 1 || !strings.Contains(diags[0].String(), "cannot differentiate Hypot: body: math.Hypot has no Go body") {
		t.Errorf("got %v", diags)
	}
}

var modes = []frontend.ModeSpec{{Name: "jvp"}}

func TestDirectives(t *testing.T) {
	prog := program(t)
	dirs, diags := prog.Directives(modes)
	t.Run("diagnostics", func(t *testing.T) {
		var mine diag.List
		for _, d := range diags {
			if strings.Contains(d.Pos.Filename, "directives") {
				mine = append(mine, d)
			}
		}
		if len(mine) != len(diags) {
			t.Errorf("diagnostics outside package directives: %v", diags)
		}
		ws := wants(t, prog, modPath+"/directives")
		if len(ws) == 0 {
			t.Fatal("testdata/mod/directives has no want comment")
		}
		matchWants(t, mine, ws)
	})
	type result struct {
		target, local string
		active        []bool
		wrt           []string
		test          bool
	}
	tests := map[string]result{
		"Good":         {target: modPath + "/directives.Good", active: []bool{true, true}},
		"Wrt":          {target: modPath + "/directives.Wrt", active: []bool{true, false, false}, wrt: []string{"x"}},
		"T.M":          {target: "(" + modPath + "/directives.T).M", active: []bool{true, true}, wrt: []string{"t", "x"}},
		"T.P":          {target: "(*" + modPath + "/directives.T).P", active: []bool{false, true}},
		"distJVP":      {target: modPath + "/geom.Dist", local: "distJVP", active: []bool{true, true}},
		"normJVP":      {target: "(" + modPath + "/geom.Vec).Norm", local: "normJVP", active: []bool{true}, wrt: []string{"v"}},
		"scaleJVP":     {target: "(*" + modPath + "/geom.Vec).Scale", local: "scaleJVP", active: []bool{true, true}, wrt: []string{"v", "a"}},
		"cubeJVP":      {target: modPath + "/extra.Cube", local: "cubeJVP", active: []bool{true}},
		"testOnly":     {target: modPath + "/lower.testOnly", active: []bool{true}, test: true},
		"lower.Unused": {},
	}
	delete(tests, "lower.Unused")
	for _, d := range dirs {
		name := d.LocalName
		if name == "" {
			name = frontend.FuncName(d.Target)
		}
		t.Run(name, func(t *testing.T) {
			want, ok := tests[name]
			if !ok {
				t.Fatalf("unexpected directive %s at %s", d.Text, prog.Position(d.Pos))
			}
			delete(tests, name)
			if got := d.Target.FullName(); got != want.target {
				t.Errorf("target: got %s, want %s", got, want.target)
			}
			if d.LocalName != want.local {
				t.Errorf("local name: got %q, want %q", d.LocalName, want.local)
			}
			if !slices.Equal(d.Active, want.active) {
				t.Errorf("active: got %v, want %v", d.Active, want.active)
			}
			if !slices.Equal(d.Wrt, want.wrt) {
				t.Errorf("wrt: got %v, want %v", d.Wrt, want.wrt)
			}
			if d.File.Test != want.test || d.Pkg() != d.File.Pkg {
				t.Errorf("test: got %v, want %v", d.File.Test, want.test)
			}
			if d.Mode != "jvp" {
				t.Errorf("mode: got %s", d.Mode)
			}
			if (d.Decl == nil) != (d.LocalName != "") {
				t.Errorf("decl: got %v with local name %q", d.Decl, d.LocalName)
			}
		})
	}
	for name := range tests {
		t.Errorf("directive %s not found", name)
	}
	if !slices.Contains(prog.Extra, modPath+"/extra") {
		t.Errorf("Extra = %v, want it to hold %s/extra", prog.Extra, modPath)
	}
}

// TestFiles checks that each file is read once, in the right variant.
func TestFiles(t *testing.T) {
	prog := program(t)
	seen := map[string]bool{}
	var order []string
	for _, f := range prog.Files() {
		if seen[f.Name] {
			t.Errorf("%s listed twice", f.Name)
		}
		seen[f.Name] = true
		test := strings.HasSuffix(f.Name, "_test.go")
		if f.Test != test || test != (f.Pkg.ForTest != "") {
			t.Errorf("%s: Test=%v in package %s", f.Name, f.Test, f.Pkg.ID)
		}
		order = append(order, filepath.Base(filepath.Dir(f.Name))+"/"+filepath.Base(f.Name))
	}
	want := []string{"directives/directives.go", "geom/geom.go", "lower/lower.go", "unsupported/unsupported.go", "lower/lower_test.go"}
	if !slices.Equal(order, want) {
		t.Errorf("got %v, want %v", order, want)
	}
}

func TestCheckAccess(t *testing.T) {
	prog := program(t)
	geom := funcs(t, prog, modPath+"/geom")
	var from *types.Package
	for _, lp := range prog.Roots {
		if lp.PkgPath == modPath+"/directives" {
			from = lp.Types
		}
	}
	tests := []struct {
		fn   string
		want []string
	}{
		{"Dist", nil},
		{"Vec.Norm", nil},
		{"Hidden", []string{"variable geom.scale is not exported", "function geom.helper is not exported"}},
		{"Private", []string{"type geom.point is not exported", "field geom.x is not exported", "field geom.y is not exported"}},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			i := slices.IndexFunc(geom, func(fn *types.Func) bool { return frontend.FuncName(fn) == tt.fn })
			f, diags := prog.Lower(geom[i])
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			got := frontend.CheckAccess(f, from, tt.fn, prog.Position)
			if len(got) < len(tt.want) || len(tt.want) == 0 && len(got) > 0 {
				t.Fatalf("got %v, want %d diagnostics", got, len(tt.want))
			}
			for _, w := range tt.want {
				if !slices.ContainsFunc(got, func(d diag.Diagnostic) bool { return strings.Contains(d.String(), w) }) {
					t.Errorf("got %v, want one containing %q", got, w)
				}
			}
			if got := frontend.CheckAccess(f, geom[i].Pkg(), tt.fn, prog.Position); len(got) > 0 {
				t.Errorf("in its own package: got %v", got)
			}
		})
	}
}

func TestIsGenerated(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"// Code generated by gadgen. DO NOT EDIT.\n\npackage p\n", true},
		{"//go:build x\n\n// Code generated by gadgen v1. DO NOT EDIT.\npackage p\n", true},
		{"// Code generated by stringer. DO NOT EDIT.\npackage p\n", false},
		{"// Code generated by gadgen. DO NOT EDIT\npackage p\n", false},
		{"package p\n// Code generated by gadgen. DO NOT EDIT.\n", false},
		{"// Code generated by gadgen. DO NOT EDIT.\r\npackage p\r\n", true},
		{"", false},
	}
	for i, tt := range tests {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			if got := frontend.IsGenerated([]byte(tt.src)); got != tt.want {
				t.Errorf("IsGenerated(%q) = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}

func TestImportable(t *testing.T) {
	tests := []struct {
		from, to string
		want     bool
	}{
		{"example.com/a", "example.com/b", true},
		{"example.com/a", "example.com/internal/x", true},
		{"example.com/a/b", "example.com/a/internal/x", true},
		{"example.com/a", "example.com/a/internal", true},
		{"example.com/c", "example.com/a/internal/x", false},
		{"example.com/ab", "example.com/a/internal/x", false},
		{"example.com/c", "gonum.org/v1/gonum/internal/asm/f64", false},
		{"example.com/c", "internal/cpu", false},
		{"math", "internal/cpu", true},
	}
	for _, tt := range tests {
		if got := frontend.Importable(tt.from, tt.to); got != tt.want {
			t.Errorf("Importable(%q, %q) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestLoadExtra: given the extra packages of an earlier load, Load loads
// them with the patterns, once.
func TestLoadExtra(t *testing.T) {
	first := program(t)
	prog, err := frontend.Load(&frontend.Config{Dir: "testdata/mod", Extra: first.Extra},
		"./lower", "./unsupported", "./directives", "./geom")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(prog.Extra, first.Extra) {
		t.Errorf("Extra = %v, want %v", prog.Extra, first.Extra)
	}
	if len(prog.Roots) != len(first.Roots) {
		t.Errorf("got %d roots, want %d", len(prog.Roots), len(first.Roots))
	}
	dirs, _ := prog.Directives(modes)
	if !slices.ContainsFunc(dirs, func(d *frontend.Directive) bool { return d.LocalName == "cubeJVP" }) {
		t.Errorf("cubeJVP not resolved")
	}
}

// TestSpecializations lowers the specializations that Closures calls and
// checks their signatures, descriptions and IR.
func TestSpecializations(t *testing.T) {
	prog := program(t)
	all := funcs(t, prog, modPath+"/lower")
	i := slices.IndexFunc(all, func(fn *types.Func) bool { return fn.Name() == "Closures" })
	f, diags := prog.Lower(all[i])
	if len(diags) > 0 {
		t.Fatalf("got diagnostics:\n%v", diags)
	}
	want := map[string]struct{ sig, doc string }{
		"closuresSpring": {"func(k float64, t float64) float64",
			"closuresSpring is the function literal spring of Closures, with the captured\nvariable k as its first parameter."},
		"closuresAdd": {"func(acc *float64, v float64)",
			"closuresAdd is the function literal add of Closures, with the captured\nvariable acc as its first parameter."},
		"twiceSpring": {"func(k float64, n int) float64",
			"twiceSpring is twice specialized for f = the literal spring of Closures,\nwith the captured variable k as its first parameter."},
		"integrateSin": {"func(n int) float64", "integrateSin is integrate specialized for f = math.Sin."},
		"closuresFunc3": {"func(k float64, y float64) float64",
			"closuresFunc3 is the function literal func3 of Closures, with the captured\nvariable k as its first parameter."},
	}
	seen := map[string]bool{}
	var visit func(f *ir.Func)
	visit = func(f *ir.Func) {
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				if v.Op != ir.OpCall || v.Callee.Func == nil || !prog.IsSpecialization(v.Callee.Func) || seen[v.Callee.Func.Name()] {
					continue
				}
				fn := v.Callee.Func
				seen[fn.Name()] = true
				if w, ok := want[fn.Name()]; !ok && fn.Name() != "integrateSpring" {
					t.Errorf("unexpected specialization %s", fn.Name())
				} else if ok {
					if got := types.TypeString(fn.Type(), nil); got != w.sig {
						t.Errorf("%s: signature %s, want %s", fn.Name(), got, w.sig)
					}
					if got := prog.Describe(fn, fn.Name(), fn.Pkg()); got != w.doc {
						t.Errorf("%s: Describe = %q, want %q", fn.Name(), got, w.doc)
					}
				}
				g, diags := prog.Lower(fn)
				if len(diags) > 0 {
					t.Fatalf("%s: got diagnostics:\n%v", fn.Name(), diags)
				}
				if err := ir.Check(g); err != nil {
					t.Fatalf("%s: %v", fn.Name(), err)
				}
				if g2, _ := prog.Lower(fn); g2.String() != g.String() {
					t.Errorf("%s: lowering twice differs", fn.Name())
				}
				visit(g)
			}
		}
	}
	visit(f)
	for name := range want {
		if !seen[name] {
			t.Errorf("no call of %s", name)
		}
	}
	if !seen["integrateSpring"] {
		t.Errorf("twiceSpring does not call integrateSpring")
	}
}
