// Package layers holds deps_test.go, which locks the layering of gadgen's
// packages (as the Go tree's go/build/deps_test.go does for the standard
// library): the compiler's pipeline runs one way, and the runtime that
// generated code imports and the compiler never import each other.
package layers

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/gadgen/gadgen/"

// compiler lists each compiler package and the module's packages it may
// import, in the order of the pipeline: load (frontend) → IR → optimize
// (simplify) → differentiate (ssaad and its modes) → emit → write
// (driver).
var compiler = map[string][]string{
	"templates":     {},
	"diag":          {},
	"ir":            {"templates"},
	"ir/interp":     {"ir", "templates"},
	"frontend":      {"diag", "ir", "templates"},
	"simplify":      {"ir", "templates"},
	"ssaad":         {"diag", "ir", "templates"},
	"ssaad/taylor":  {"diag", "ir", "ssaad", "templates"},
	"ssaad/reverse": {"diag", "ir", "ssaad", "templates"},
	"ssaad/second":  {"diag", "ir", "ssaad", "templates"},
	"emit":          {"ir", "templates"}, // for the sources of the helpers that derivatives call (templates.Helpers)
	"driver":        {"diag", "emit", "frontend", "ir", "simplify", "ssaad", "ssaad/reverse", "ssaad/second", "ssaad/taylor", "templates"},
	"cmd/gadgen":    {"driver"},
}

// exceptions are imports against the layering that are known and due to
// go, each with its reason; a test fails when one is no longer needed.
var exceptions = map[string]string{}

// runtime are the packages generated code imports (and their internals):
// they import no compiler package, and no compiler package imports them.
var runtime = []string{"tensorops", "gpu", "gadtest", "revolve"}

func imports(t *testing.T) map[string][]string {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{range .Imports}} {{.}}{{end}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(l, ":")
		pkg = strings.TrimPrefix(pkg, module)
		m[pkg] = nil
		for _, d := range strings.Fields(deps) {
			if strings.HasPrefix(d, module) {
				m[pkg] = append(m[pkg], strings.TrimPrefix(d, module))
			}
		}
	}
	return m
}

func isRuntime(pkg string) bool {
	for _, r := range runtime {
		if pkg == r || strings.HasPrefix(pkg, r+"/") {
			return true
		}
	}
	return false
}

func TestLayers(t *testing.T) {
	// go list needs the go command, which go test has; a test binary run
	// without it on PATH cannot list the imports.
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	all := imports(t)
	used := map[string]bool{}
	for pkg, allowed := range compiler {
		deps, ok := all[pkg]
		if !ok {
			t.Errorf("no package %s: update the table", pkg)
			continue
		}
		for _, d := range deps {
			edge := pkg + " -> " + d
			switch {
			case isRuntime(d):
				t.Errorf("%s: the compiler imports the runtime", edge)
			case contains(allowed, d):
			case exceptions[edge] != "":
				used[edge] = true
			default:
				t.Errorf("%s is against the layering (allowed: %v)", edge, allowed)
			}
		}
	}
	for edge, why := range exceptions {
		if !used[edge] {
			t.Errorf("exception %q (%s) is no longer needed: remove it", edge, why)
		}
	}
	var pkgs []string
	for p := range all {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		root, _, _ := strings.Cut(pkg, "/")
		if _, ok := compiler[pkg]; !ok && compiler[root] != nil {
			t.Errorf("%s is a compiler package missing from the table", pkg)
		}
		if !isRuntime(pkg) {
			continue
		}
		for _, d := range all[pkg] {
			if _, isCompiler := compiler[d]; isCompiler {
				t.Errorf("%s -> %s: the runtime imports the compiler", pkg, d)
			}
		}
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
