package driver

// This file defines the output stage: rendering the generated files,
// comparing them with the files on disk, and writing, deleting or (with
// -check) diffing them.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/emit"
	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
)

// genFile is a gadgen-generated file found in a package directory.
type genFile struct {
	path    string
	pkgName string // "" when the package clause does not parse
	src     []byte
}

// scanGenerated returns the gadgen-generated Go files of dirs, by path.
func scanGenerated(dirs []string) (map[string]*genFile, error) {
	files := map[string]*genFile{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			src, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			if !frontend.IsGenerated(src) {
				continue
			}
			g := &genFile{path: path, src: src}
			if f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.PackageClauseOnly); err == nil {
				g.pkgName = f.Name.Name
			}
			files[path] = g
		}
	}
	return files, nil
}

// packageClause returns a Go file that holds only "package name".
func packageClause(name string) []byte {
	var buf bytes.Buffer
	if err := format.Node(&buf, token.NewFileSet(), &ast.File{Name: ast.NewIdent(name)}); err != nil {
		panic(err) // cannot happen for an identifier
	}
	return buf.Bytes()
}

// render returns the source of out holding funcs and the named helpers.
func render(out *outFile, funcs []*ir.Func, helpers []string) ([]byte, error) {
	return recovered(func() ([]byte, error) {
		return emit.Render(emit.File{PkgName: out.pkg.Name, PkgPath: out.pkg.PkgPath, Funcs: funcs, Helpers: helpers})
	})
}

// recovered returns what render returns, or a panic of the emitter as a
// *panicError.
func recovered(render func() ([]byte, error)) (src []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicError{p, debug.Stack()}
		}
	}()
	return render()
}

// panicError is a panic of the emitter, with its stack for -v.
type panicError struct {
	p     any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprint(e.p) }

// change is a file to write or delete.
type change struct {
	path     string
	old, new []byte // old is nil for a new file
	del      bool
}

// callsOf returns the function that tells, for a call in a generated
// function, the job of pl that generates its callee (by the DerivedFunc it
// names, or the Go object standing for it), or nil.
func callsOf(pl *plan) func(call *ir.Value) *job {
	byDerived := map[*ir.DerivedFunc]*job{}
	byObj := map[*types.Func]*job{}
	for _, out := range pl.outs {
		for _, j := range out.jobs {
			byDerived[j.derived] = j
			if j.derived.Obj != nil {
				byObj[j.derived.Obj] = j
			}
		}
	}
	return func(call *ir.Value) *job {
		j := byDerived[call.Callee.Derived]
		if j == nil && call.Callee.Func != nil {
			j = byObj[call.Callee.Func]
		}
		return j
	}
}

// pruneJobs drops the derivatives of callees that no generated function
// calls: a mode may ask for one only to differentiate it in turn (the
// HVP's forward mode over a gradient calls the JVP of the gradient's
// callees, not the callees' reverse variants).
func pruneJobs(pl *plan) {
	calls := callsOf(pl)
	live := map[*job]bool{}
	var work []*job
	for _, out := range pl.outs {
		for _, j := range out.jobs {
			if j.dir != nil {
				live[j] = true
				work = append(work, j)
			}
		}
	}
	for len(work) > 0 {
		j := work[len(work)-1]
		work = work[:len(work)-1]
		if j.fn == nil {
			continue
		}
		for _, b := range j.fn.Blocks {
			for _, v := range b.Instrs {
				if v.Op != ir.OpCall {
					continue
				}
				if d := calls(v); d != nil && !live[d] {
					live[d] = true
					work = append(work, d)
				}
			}
		}
	}
	for _, out := range pl.outs {
		out.jobs = slices.DeleteFunc(out.jobs, func(j *job) bool { return !live[j] })
	}
}

// dropApartChecks removes, from the optimized functions that only
// generated code calls (a callee's reverse, a split function), the alias
// checks that every call of them makes redundant
// (simplify.DropApartChecks), and says so in their doc comments.
func dropApartChecks(pl *plan, noOpt bool) {
	calls := callsOf(pl)
	byFn := map[*ir.Func]*job{}
	var fns []*ir.Func
	for _, out := range pl.outs {
		for _, j := range out.jobs {
			if j.fn != nil && !j.failed {
				byFn[j.fn] = j
				fns = append(fns, j.fn)
			}
		}
	}
	internal := func(f *ir.Func) bool {
		j := byFn[f]
		im, ok := j.mode.(interface{ Internal() bool })
		return ok && im.Internal() && !j.noOpt && !noOpt
	}
	callee := func(v *ir.Value) *ir.Func {
		if j := calls(v); j != nil {
			return j.fn
		}
		return nil
	}
	for f, all := range simplify.DropApartChecks(fns, internal, callee) {
		what := "It does not check that its slices are apart in memory: every call of it passes slices apart."
		if !all {
			what = "It checks only the slices that its calls may pass sharing memory."
		}
		f.Doc = strings.TrimRight(f.Doc, "\n") + "\n\n" + what
	}
}

// output renders the files of pl that did not fail and writes them, or
// with -check diffs them; it deletes the generated files that no source
// asks for any more.
func (r *runner) output(pl *plan, existing map[string]*genFile) int {
	pruneJobs(pl)
	dropApartChecks(pl, r.cfg.NoOptimize)
	// A file fails with any of its functions, and with any file it calls
	// into.
	for _, out := range pl.outs {
		for _, j := range out.jobs {
			if j.failed || j.fn == nil {
				out.failed = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, out := range pl.outs {
			if out.failed {
				continue
			}
			for _, j := range out.jobs {
				for _, d := range j.deps {
					if (d.failed || d.out.failed) && !out.failed {
						out.failed, changed = true, true
					}
				}
			}
			// A test file fails with the files of the functions it tests.
			for _, tj := range out.tests {
				if (tj.j.failed || tj.j.out.failed) && !out.failed {
					out.failed, changed = true, true
				}
			}
		}
	}

	outs := slices.Clone(pl.outs)
	slices.SortFunc(outs, func(a, b *outFile) int { return strings.Compare(a.path, b.path) })
	helpers := assignHelpers(outs)
	var changes []change
	for _, out := range outs {
		if out.failed {
			continue
		}
		jobs := slices.Clone(out.jobs)
		slices.SortStableFunc(jobs, func(a, b *job) int { return a.seq - b.seq })
		var funcs []*ir.Func
		for _, j := range jobs {
			funcs = append(funcs, j.fn)
		}
		var src []byte
		var err error
		if len(out.tests) > 0 {
			src, err = renderTests(out.pkg.Name, out.pkg.PkgPath, out.tests, helpers[out])
		} else {
			src, err = render(out, funcs, helpers[out])
		}
		if err != nil {
			var stack []byte
			if pe, ok := err.(*panicError); ok {
				stack = pe.stack
			}
			r.internalError("emit", filepath.Base(out.path), err, stack)
			continue
		}
		var old []byte
		if g := existing[out.path]; g != nil {
			old = g.src
		}
		if old != nil && bytes.Equal(old, src) {
			if r.cfg.Verbose && !r.cfg.Check {
				fmt.Fprintf(r.cfg.Stderr, "gadgen: unchanged %s\n", r.rel(out.path))
			}
			continue
		}
		changes = append(changes, change{path: out.path, old: old, new: src})
	}
	var orphans []string
	for path := range existing {
		orphans = append(orphans, path)
	}
	slices.Sort(orphans)
	for _, path := range orphans {
		src, ok := sourceName(path)
		if !ok || pl.byPath[path] != nil || pl.failedSources[src] {
			continue
		}
		changes = append(changes, change{path: path, old: existing[path].src, del: true})
	}

	if r.cfg.Check {
		for _, c := range changes {
			name := strings.TrimPrefix(filepath.ToSlash(r.rel(c.path)), "./")
			oldName, newName := "a/"+name, "b/"+name
			if c.old == nil {
				oldName = "/dev/null"
			}
			if c.del {
				newName = "/dev/null"
			}
			fmt.Fprint(r.cfg.Stdout, unifiedDiff(oldName, newName, c.old, c.new))
		}
		if len(changes) > 0 {
			return ExitError
		}
		return ExitOK
	}
	status := ExitOK
	for _, c := range changes {
		verb := "wrote"
		var err error
		if c.del {
			verb = "deleted"
			err = os.Remove(c.path)
		} else {
			err = writeFile(c.path, c.new)
		}
		if err != nil {
			r.errorf(token.Position{Filename: c.path}, "", "%v", err)
			status = ExitError
			continue
		}
		if r.cfg.Verbose {
			fmt.Fprintf(r.cfg.Stderr, "gadgen: %s %s\n", verb, r.rel(c.path))
		}
	}
	r.summary = summary(pl, changes)
	return status
}

// summary returns the line a successful run prints: the packages with
// directives, the derivatives the directives asked for (not counting those
// of the functions they call), and what became of the files.
func summary(pl *plan, changes []change) string {
	pkgs := map[string]bool{}
	derivs, files := 0, 0
	for _, out := range pl.outs {
		pkgs[out.pkg.PkgPath] = true
		for _, j := range out.jobs {
			if j.dir != nil {
				derivs++
			}
		}
		files++
	}
	if files == 0 {
		return "gadgen: no //gad: directives"
	}
	written, deleted := 0, 0
	for _, c := range changes {
		if c.del {
			deleted++
		} else {
			written++
		}
	}
	line := fmt.Sprintf("gadgen: %s, %s: %s written, %d unchanged", plural(len(pkgs), "package"),
		plural(derivs, "derivative"), plural(written, "file"), files-written)
	if deleted > 0 {
		line += fmt.Sprintf(", %d deleted", deleted)
	}
	return line
}

// plural returns "1 file" or "n files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// assignHelpers decides which file of each package holds the source of
// each helper function that the generated code calls (emit.HelpersOf):
// the first file written that calls it, non-test files first, as test
// files see the declarations of the others.
func assignHelpers(outs []*outFile) map[*outFile][]string {
	order := slices.Clone(outs)
	slices.SortStableFunc(order, func(a, b *outFile) int {
		return boolCmp(strings.HasSuffix(a.path, "_test.go"), strings.HasSuffix(b.path, "_test.go"))
	})
	placed := map[string]bool{} // package path and helper name
	assigned := map[*outFile][]string{}
	for _, out := range order {
		if out.failed {
			continue
		}
		var names []string
		for _, j := range out.jobs {
			for _, n := range emit.HelpersOf(j.fn) {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
		}
		slices.Sort(names)
		for _, n := range names {
			if k := out.pkg.PkgPath + " " + n; !placed[k] {
				placed[k] = true
				assigned[out] = append(assigned[out], n)
			}
		}
	}
	return assigned
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// writeFile writes data to path atomically: to a temporary file in the
// same directory, renamed over path.
func writeFile(path string, data []byte) error {
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, a no-op
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
