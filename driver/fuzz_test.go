package driver_test

// FuzzGadgen runs gadgen on mutated sources and directives:
//
//	go test ./driver -run '^$' -fuzz FuzzGadgen -fuzztime 10m
//
// Its seed corpus (testdata/fuzz/FuzzGadgen) holds the sources of the
// end-to-end cases, the diagnostics' test data and the examples, but for
// those that import gonum; refresh it with
// go test ./driver -run TestFuzzCorpus -fuzzcorpus.update.

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gadgen/gadgen/driver"
)

var updateCorpus = flag.Bool("fuzzcorpus.update", false, "rewrite the seed corpus of FuzzGadgen from the repository's sources")

// fuzzModule is the module of the package gadgen runs on: it may import
// gonum, as some examples do (a mutation may add the import), and gadgen's
// tensor runtime, from this repository.
const fuzzModule = "module fuzz.example/p\n\ngo 1.26.0\n\nrequire (\n\tgonum.org/v1/gonum v0.17.0\n" +
	"\tgithub.com/gadgen/gadgen v0.0.0\n\tgithub.com/ebitengine/purego v0.11.3 // indirect\n)\n\n" +
	"replace github.com/gadgen/gadgen => %s\n"

// fuzzDir makes the module of the fuzzed packages in dir; go.sum is the
// repository's.
func fuzzDir(dir string) error {
	sum, err := os.ReadFile("../go.sum")
	if err != nil {
		return err
	}
	root, err := filepath.Abs("..")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(fmt.Sprintf(fuzzModule, root)), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
}

// positioned matches a diagnostic with a position: file:line:col: gadgen: …
var positioned = regexp.MustCompile(`^[^\s:]+\.go:\d+:\d+: gadgen: `)

// unpositionedOK are the messages that may come without a position: the
// go command's own failures, which are not about a place in a file.
var unpositionedOK = regexp.MustCompile(`^gadgen: (go: |err: exit status|.*: no Go files|.*: cannot find package|.*could not import|.*is not in std)`)

// FuzzGadgen runs gadgen on a package of one file, src, with the
// directive line dir inserted before its first function. Properties:
// gadgen does not panic or report an internal error; every problem it
// reports is positioned (but for the go command's own failures); and the
// files it writes are gofmt'ed and type-check with the package.
func FuzzGadgen(f *testing.F) {
	f.Add([]byte("package p\n\nfunc F(x float64) float64 { return x * x }\n"), "//gad:jvp")
	mod := f.TempDir()
	if err := fuzzDir(mod); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte, dir string) {
		if len(src) > 1<<16 || strings.ContainsAny(dir, "\n\r") {
			return
		}
		pkgDir, err := os.MkdirTemp(mod, "p")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(pkgDir)
		if dir != "" {
			if i := bytes.Index(src, []byte("\nfunc ")); i >= 0 {
				src = append(append(append([]byte{}, src[:i+1]...), dir+"\n"...), src[i+1:]...)
			}
		}
		if err := os.WriteFile(filepath.Join(pkgDir, "p.go"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := driver.Run(&driver.Config{Dir: pkgDir, Modes: driver.DefaultModes(), Stdout: &stdout, Stderr: &stderr})
		for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
			switch {
			case strings.TrimSpace(line) == "", line[0] == ' ' || line[0] == '\t':
				// the continuation of a message of several lines
			case strings.Contains(line, "internal error"):
				t.Fatalf("internal error: %s\nsource:\n%s", line, src)
			case !positioned.MatchString(line) && !unpositionedOK.MatchString(line):
				t.Fatalf("a diagnostic without a position: %q\nsource:\n%s", line, src)
			}
		}
		written, _ := filepath.Glob(filepath.Join(pkgDir, "*_grad*.go"))
		if code != driver.ExitOK && code != driver.ExitError {
			t.Fatalf("exit status %d", code)
		}
		if len(written) == 0 {
			return
		}
		for _, path := range written {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if fb, err := format.Source(b); err != nil || !bytes.Equal(fb, b) {
				t.Fatalf("%s is not gofmt'ed (%v):\n%s\nsource:\n%s", filepath.Base(path), err, b, src)
			}
		}
		// The package with the generated files must type-check; the
		// source itself may not, if gadgen wrote nothing for it.
		if !typeChecks(t, pkgDir, false) {
			return
		}
		if !typeChecks(t, pkgDir, true) {
			out, _ := os.ReadFile(written[0])
			t.Fatalf("the generated files do not type-check:\n%s\nsource:\n%s", out, src)
		}
	})
}

// importer imports from source, for every check of the process; the
// packages are cached here, since the source importer runs the go
// command to find a package before it looks in its cache.
var (
	importMu sync.Mutex
	imp      types.Importer
	impFset  = token.NewFileSet()
	imported = map[string]*types.Package{}
)

type lockedImporter struct{ dir string }

func (li lockedImporter) Import(path string) (*types.Package, error) {
	return li.ImportFrom(path, li.dir, 0)
}

func (li lockedImporter) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	importMu.Lock()
	defer importMu.Unlock()
	if pkg := imported[path]; pkg != nil {
		return pkg, nil
	}
	if imp == nil {
		imp = importer.ForCompiler(impFset, "source", nil)
	}
	pkg, err := imp.(types.ImporterFrom).ImportFrom(path, li.dir, mode)
	if err == nil {
		imported[path] = pkg
	}
	return pkg, err
}

// typeChecks type-checks the Go files of dir, without the generated ones
// when generated is false, and reports whether they type-check.
func typeChecks(t *testing.T, dir string, generated bool) bool {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	var files []*ast.File
	for _, path := range paths {
		if strings.Contains(filepath.Base(path), "_grad") && !generated || strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			if generated {
				t.Logf("%v", err)
			}
			return false
		}
		files = append(files, f)
	}
	var errs []error
	conf := types.Config{Importer: lockedImporter{dir}, Error: func(err error) { errs = append(errs, err) }}
	conf.Check("p", fset, files, nil)
	if generated && len(errs) > 0 {
		t.Logf("%v", errs)
	}
	return len(errs) == 0
}

// TestFuzzCorpus keeps the seed corpus of FuzzGadgen in step with the
// sources it is made of (with -fuzzcorpus.update, it writes it).
func TestFuzzCorpus(t *testing.T) {
	var files []string
	pats := []string{"../internal/e2e/cases/*/*.go", "../internal/e2e/testdata/diag/*/*.go", "../examples/*/*.go"}
	for _, pat := range pats {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzGadgen")
	want := map[string][]byte{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || strings.Contains(path, "_grad") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(src, []byte(`"gonum.org/`)) {
			continue // loading gonum makes one run take seconds
		}
		if _, err := parser.ParseFile(token.NewFileSet(), path, src, parser.PackageClauseOnly); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel("..", path)
		name := strings.NewReplacer("/", "-", ".go", "").Replace(rel)
		want[name] = []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\nstring(%q)\n", src, ""))
	}
	if len(want) == 0 {
		t.Fatalf("no source matches %v: the seed corpus would be checked against nothing", pats)
	}
	if *updateCorpus {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range want {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("seed %s of FuzzGadgen is missing or stale: run go test ./driver -run TestFuzzCorpus -fuzzcorpus.update", name)
		}
	}
}
