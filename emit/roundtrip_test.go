package emit_test

// The round-trip test: ordinary Go functions (testdata/roundtrip/rt.go)
// are lowered to IR by package frontend, emitted back with the suffix RT
// into the same package, and both versions run on the same inputs
// (testdata/roundtrip/check_test.go.txt). The emitted file is also a
// golden file, testdata/roundtrip.golden, so that a change in how real
// go/ssa shapes come out shows in review.

import (
	"go/ast"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gadgen/gadgen/emit"
	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
)

func TestRoundTrip(t *testing.T) {
	// -short leaves out loading a module with go/packages; CI runs it.
	if testing.Short() {
		t.Skip("short mode: loads a module with go/packages")
	}
	gobin, err := exec.LookPath("go")
	// go test has the go command; a test binary run without it on PATH
	// cannot build the round-trip module.
	if err != nil {
		t.Skip("no go command")
	}
	src := filepath.Join("testdata", "roundtrip")
	prog, err := frontend.Load(&frontend.Config{Dir: src}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if errs := prog.Errors(); len(errs) > 0 {
		t.Fatalf("testdata/roundtrip does not load cleanly:\n%v", errs)
	}
	var pkgPath string
	var fns []*ir.Func
	for _, lp := range prog.Roots {
		if lp.ForTest != "" || lp.Name != "rt" {
			continue
		}
		pkgPath = lp.PkgPath
		for _, f := range lp.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				obj := lp.TypesInfo.Defs[fd.Name].(*types.Func)
				fn, diags := prog.Lower(obj)
				if len(diags) > 0 {
					t.Errorf("lowering %s:\n%v", obj.Name(), diags)
					continue
				}
				simplify.LoopForm(fn) // required before emitting
				if err := ir.Check(fn); err != nil {
					t.Errorf("lowering %s: %v", obj.Name(), err)
					continue
				}
				fn.Name = obj.Name() + "RT"
				fns = append(fns, fn)
			}
		}
	}
	if len(fns) == 0 {
		t.Fatal("no functions lowered")
	}
	out, err := emit.Render(emit.File{PkgName: "rt", PkgPath: pkgPath, Funcs: fns})
	if err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "roundtrip", out)

	dir := t.TempDir()
	for _, c := range [][2]string{{"go.mod", "go.mod"}, {"rt.go", "rt.go"}, {"check_test.go.txt", "check_test.go"}} {
		b, err := os.ReadFile(filepath.Join(src, c[0]))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c[1]), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "rt_emitted.go"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"vet", "."}, {"test", "-count=1", "."}} {
		cmd := exec.Command(gobin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s: %v\n%s\n%s", strings.Join(args, " "), err, b, out)
		}
	}
}
