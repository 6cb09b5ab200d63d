package driver

// This file defines Config and Run: the two loads, the plan of the files to
// generate, and the reporting of diagnostics.

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/templates"
)

// Config is one run of gadgen.
type Config struct {
	// Dir is the directory to run in; "" means the current directory.
	Dir string
	// Patterns are the packages to process (as for go build); none means
	// ".".
	Patterns []string
	// Check writes nothing: it prints a unified diff of each file that
	// would be created, changed or deleted, and the run fails if there is
	// one.
	Check bool
	// Verbose lists the files written, unchanged and deleted, and prints
	// the stack of internal errors.
	Verbose bool
	// Dump names a function ("F" or "T.M") whose IR and analyses are
	// printed to Stdout at each stage.
	Dump string
	// Explain (-explain) prints to Stdout, after generating, where each
	// tensor rewrite of package simplify fired: position, rule, and the
	// generated function.
	Explain bool
	// NoOptimize (-O0) runs only the required passes of package simplify
	// on primals and derivatives, for ablation; a directive's opt=0 does
	// the same for one derivative and the callee derivatives it needs.
	NoOptimize bool
	// Reversal (-reversal) forces how reverse mode differentiates calls,
	// for testing gadgen: "joint" keeps every call and reverses it with
	// the callee's generated reverse (in two halves where it cannot be
	// recomputed), "split" keeps every call and reverses it in two halves
	// where it can, "inline" inlines every call that
	// can be (simplify.InlineAll); "" or "auto" chooses per call site by
	// the cost model (simplify.ReverseCost), falling back on the other
	// strategies where the first cannot reverse the function.
	Reversal string
	// Modes are the differentiation modes; Main uses DefaultModes.
	Modes []ssaad.Mode
	// BuildFlags and Env are passed to the go command.
	BuildFlags []string
	Env        []string
	// Stdout receives diffs (-check) and dumps (-dump); Stderr
	// diagnostics, warnings and the -v listing.
	Stdout, Stderr io.Writer
	// Summary: a run that writes files and succeeds prints one line to
	// Stderr saying how many packages and derivatives it processed and
	// how many files it wrote (Main sets it).
	Summary bool

	// generated, when not nil, sees the generator once every function is
	// generated, before the files are written (tests).
	generated func(*generator)
}

// Run runs gadgen and returns the exit status: ExitOK, or ExitError when
// there were diagnostics or, with Check, files to change.
func Run(cfg *Config) (status int) {
	r := &runner{cfg: cfg, modes: map[string]ssaad.Mode{}, stage: "setup"}
	if r.cfg.Stdout == nil {
		r.cfg.Stdout = io.Discard
	}
	if r.cfg.Stderr == nil {
		r.cfg.Stderr = io.Discard
	}
	for _, m := range cfg.Modes {
		r.modes[m.Name()] = m
		if im, ok := m.(interface{ Internal() bool }); ok && im.Internal() {
			continue // called by generated code; no directive names it
		}
		// opt= is the driver's, accepted in every mode.
		opts := append(slices.Clone(m.Options()), "opt")
		if testModes[m.Name()] {
			opts = append(opts, testOption)
		}
		r.specs = append(r.specs, frontend.ModeSpec{Name: m.Name(), Options: opts})
	}
	if len(r.specs) > 0 {
		r.specs = append(r.specs, frontend.ModeSpec{Name: frontend.RuleMode}, frontend.ModeSpec{Name: frontend.CheckpointMode})
	}
	defer func() {
		if p := recover(); p != nil {
			r.internalError(r.stage, "", p, debug.Stack())
			status = r.report(ExitError)
		}
	}()
	return r.report(r.run())
}

type runner struct {
	cfg   *Config
	modes map[string]ssaad.Mode
	specs []frontend.ModeSpec
	stage string
	diags diag.List
	// followOn: the derivatives refused before they had a signature.
	followOn  refusedNames
	warnings  diag.List
	summary   string // printed by report when all went well
	internals []string
	explained map[string]bool // -explain's lines
	dumped    bool
}

// internalError records a panic of stage on the function fn.
func (r *runner) internalError(stage, fn string, p any, stack []byte) {
	msg := "gadgen: internal error in " + stage
	if fn != "" {
		msg += " on " + fn
	}
	msg += fmt.Sprintf(": %v", p)
	if r.cfg.Verbose {
		msg += "\n" + string(stack)
	}
	r.internals = append(r.internals, msg)
}

// report prints the diagnostics and internal errors and returns the exit
// status.
func (r *runner) report(status int) int {
	// One form of each file name (the go command reports some relative to
	// the directory it ran in), so that a problem reported twice, by the
	// go command and by the parser, prints once.
	for _, l := range []diag.List{r.warnings, r.diags} {
		for i := range l {
			l[i].Pos.Filename = r.rel(r.abs(l[i].Pos.Filename))
		}
	}
	for _, d := range append(r.warnings.Sort(), r.diags.Sort()...) {
		fmt.Fprintln(r.cfg.Stderr, d)
	}
	for _, s := range r.internals {
		fmt.Fprintln(r.cfg.Stderr, s)
	}
	if r.cfg.Dump != "" && !r.dumped && len(r.diags) == 0 && len(r.internals) == 0 {
		fmt.Fprintf(r.cfg.Stderr, "gadgen: -dump=%s: no function of that name was differentiated\n", r.cfg.Dump)
	}
	if len(r.diags) > 0 || len(r.internals) > 0 {
		return ExitError
	}
	for _, l := range slices.Sorted(maps.Keys(r.explained)) {
		fmt.Fprintln(r.cfg.Stdout, l)
	}
	if status == ExitOK && r.summary != "" && r.cfg.Summary {
		fmt.Fprintln(r.cfg.Stderr, r.summary)
	}
	return status
}

// rel returns name relative to the working directory, "./x.go", when it
// is inside it.
func (r *runner) rel(name string) string {
	base := r.base()
	if rel, err := filepath.Rel(base, name); err == nil && filepath.IsAbs(name) && !strings.HasPrefix(rel, "..") {
		return "." + string(filepath.Separator) + rel // like the go command: ./x.go
	}
	return name
}

// base returns the absolute directory gadgen runs in.
func (r *runner) base() string {
	base := r.cfg.Dir
	if base == "" {
		base, _ = os.Getwd()
	}
	base, _ = filepath.Abs(base)
	return base
}

// abs returns file name name, relative to the directory gadgen runs in,
// as an absolute path; "" stays "".
func (r *runner) abs(name string) string {
	if name == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(r.base(), name)
}

func (r *runner) errorf(pos token.Position, construct, format string, args ...any) {
	r.diags.Add(pos, "", construct, format, args...)
}

func (r *runner) frontendConfig(overlay map[string][]byte) *frontend.Config {
	return &frontend.Config{Dir: r.cfg.Dir, Env: r.cfg.Env, BuildFlags: r.cfg.BuildFlags, Overlay: overlay}
}

// run runs the stages and returns ExitOK or ExitError; diagnostics are in
// r.diags.
func (r *runner) run() int {
	r.stage = "load"
	dirs, err := frontend.PackageDirs(r.frontendConfig(nil), r.cfg.Patterns...)
	if err != nil {
		r.errorf(token.Position{}, "", "%v", err)
		return ExitError
	}
	existing, err := scanGenerated(dirs)
	if err != nil {
		r.errorf(token.Position{}, "", "%v", err)
		return ExitError
	}

	// Phase 1: generated files reduced to their package clause; type
	// errors tolerated.
	ov1 := map[string][]byte{}
	for _, g := range existing {
		ov1[g.path] = packageClause(g.pkgName)
	}
	prog1, err := frontend.Load(r.frontendConfig(ov1), r.cfg.Patterns...)
	if err != nil {
		r.errorf(token.Position{}, "", "%v", err)
		return ExitError
	}
	r.stage = "directives"
	dirs1, ddiags := prog1.Directives(r.specs)
	r.warnings = prog1.Misspelled(r.specs)
	plan1 := r.plan(prog1, dirs1, ddiags, existing, nil)

	// Phase 2: output files replaced by stubs with the new signatures.
	r.stage = "stubs"
	ov2 := map[string][]byte{}
	for path, src := range ov1 {
		ov2[path] = src
	}
	for _, out := range plan1.outs {
		if out.refused {
			continue
		}
		src, ok := r.stubs(prog1, out, plan1.excluded)
		if ok {
			ov2[out.path] = src
		}
	}
	r.stage = "load"
	cfg2 := r.frontendConfig(ov2)
	cfg2.Extra = prog1.Extra
	prog2, err := frontend.Load(cfg2, r.cfg.Patterns...)
	if err != nil {
		r.errorf(token.Position{}, "", "%v", err)
		return ExitError
	}
	if errs := prog2.Errors(); len(errs) > 0 {
		r.diags = append(r.diags, ddiags...)
		r.diags = append(r.diags, plan1.diags...)
		r.diags = append(r.diags, r.followOn.drop(errs)...)
		return ExitError
	}
	r.stage = "directives"
	dirs2, ddiags2 := prog2.Directives(r.specs)
	r.diags = append(r.diags, ddiags2...)
	r.diags = append(r.diags, plan1.diags...) // collisions are found in phase 1 only
	plan2 := r.plan(prog2, dirs2, ddiags2, existing, plan1.excluded)
	r.diags = append(r.diags, plan2.diags...)

	r.stage = "generate"
	g := newGenerator(r, prog2, plan2)
	g.generate()
	g.checkTests()
	if r.cfg.generated != nil {
		r.cfg.generated(g)
	}

	r.stage = "output"
	return r.output(plan2, existing)
}

// A plan lists the output files and the directives' jobs.
type plan struct {
	outs   []*outFile // in order of their first directive
	byPath map[string]*outFile
	jobs   []*job // directive jobs in directive order
	// excluded holds the positions ("file:line:col") of directives left
	// out of the run (name collisions, refused files, signature errors).
	excluded map[string]bool
	// failedSources holds the source files with directive diagnostics:
	// their outputs are neither written nor deleted.
	failedSources map[string]bool
	diags         diag.List
	// rules holds the rules that //gad:rule gives functions.
	rules map[*types.Func]*templates.Rule
	// checkpoints holds the functions marked //gad:checkpoint.
	checkpoints map[*types.Func]bool
}

// outFile is one generated file.
type outFile struct {
	path   string            // absolute
	source string            // the file whose directives it serves
	pkg    *packages.Package // the package (variant) the file belongs to
	jobs   []*job            // in order
	tests  []testJob         // for a test file written for test= (see testgen.go)
	failed bool              // not written
	// refused: the file exists without gadgen's header.
	refused bool
}

// outputName returns the generated file for source file name:
// foo.go → foo_grad.go, foo_test.go → foo_grad_test.go.
func outputName(name string) string {
	if base, ok := strings.CutSuffix(name, "_test.go"); ok {
		return base + "_grad_test.go"
	}
	return strings.TrimSuffix(name, ".go") + "_grad.go"
}

// sourceName inverts outputName; ok is false for names that outputName
// cannot return.
func sourceName(out string) (string, bool) {
	if base, ok := strings.CutSuffix(out, "_grad_test.go"); ok {
		return base + "_test.go", true
	}
	if base, ok := strings.CutSuffix(out, "_grad.go"); ok {
		return base + ".go", true
	}
	return "", false
}

// plan names the function each directive generates and assigns it to its
// output file. With phase1 (excluded == nil) it also checks the names
// against the declarations of the package, and sets plan.excluded for the
// second phase.
func (r *runner) plan(prog *frontend.Program, dirs []*frontend.Directive, ddiags diag.List,
	existing map[string]*genFile, excluded map[string]bool) *plan {
	phase1 := excluded == nil
	pl := &plan{byPath: map[string]*outFile{}, excluded: map[string]bool{}, failedSources: map[string]bool{},
		rules: map[*types.Func]*templates.Rule{}, checkpoints: map[*types.Func]bool{}}
	if !phase1 {
		pl.excluded = excluded
	}
	for _, d := range ddiags {
		pl.failedSources[d.Pos.Filename] = true
	}
	type nameKey struct{ pkg, recv, name string }
	names := map[nameKey]*frontend.Directive{}
	outFor := func(path, src string, d *frontend.Directive) *outFile {
		out := pl.byPath[path]
		if out == nil {
			out = &outFile{path: path, source: src, pkg: d.Pkg()}
			pl.byPath[path] = out
			pl.outs = append(pl.outs, out)
			if _, gen := existing[path]; !gen {
				if _, err := os.Stat(path); err == nil {
					out.refused, out.failed = true, true
					pl.diags.Add(prog.Position(d.Pos), "", "",
						"refusing to overwrite %s: the file exists and was not generated by gadgen "+
							"(it lacks the \"// Code generated by gadgen. DO NOT EDIT.\" line); "+
							"gadgen writes the derivatives of %s there: rename %[1]s, or move the directives to another file",
						filepath.Base(path), filepath.Base(src))
				}
			}
		}
		return out
	}
	for _, d := range dirs {
		if d.Mode == frontend.CheckpointMode {
			if pl.checkpoints[d.Target] {
				pl.diags.Add(prog.Position(d.Pos), frontend.FuncName(d.Target), "directive", "a second //gad:checkpoint for the function")
			}
			pl.checkpoints[d.Target] = true
			continue
		}
		if d.Mode == frontend.RuleMode {
			rule, err := ruleOf(d)
			switch {
			case err != nil:
				pl.diags.Add(prog.Position(d.Pos), frontend.FuncName(d.Target), "directive", "%v", err)
				pl.failedSources[d.File.Name] = true
			case pl.rules[d.Target] != nil:
				pl.diags.Add(prog.Position(d.Pos), frontend.FuncName(d.Target), "directive", "a second //gad:rule for the function")
			default:
				pl.rules[d.Target] = rule
			}
			continue
		}
		posKey := prog.Position(d.Pos).String()
		src := d.File.Name
		out := outFor(outputName(src), src, d)
		if len(out.tests) > 0 {
			pl.diags.Add(prog.Position(d.Pos), "", "directive", "%s holds the tests that test= asks for in %s: move the directives of %s to another file, or drop test=",
				filepath.Base(out.path), filepath.Base(strings.TrimSuffix(src, "_test.go")+".go"), filepath.Base(src))
			pl.excluded[posKey] = true
			out.failed = true
			continue
		}
		if out.refused {
			pl.excluded[posKey] = true
		}
		if pl.failedSources[src] {
			out.failed = true
		}
		if pl.excluded[posKey] {
			out.failed = true
			continue
		}
		mode := r.modes[d.Mode]
		name, method := d.LocalName, false
		recv := ""
		if name == "" {
			name = d.Target.Name() + mode.Suffix()
			if r := d.Target.Type().(*types.Signature).Recv(); r != nil {
				method = true
				recv = types.TypeString(recvNamed(r.Type()), nil)
			}
		}
		key := nameKey{d.Pkg().PkgPath, recv, name}
		if prev, dup := names[key]; dup {
			pl.diags.Add(prog.Position(d.Pos), "", "directive", "duplicate generated name %s: the directive at %s generates it too",
				name, r.rel(prog.Position(prev.Pos).String()))
			pl.excluded[posKey] = true
			out.failed = true
			continue
		}
		names[key] = d
		if phase1 {
			if where := declared(prog, d, name, method); where != "" {
				pl.diags.Add(prog.Position(d.Pos), "", "directive", "cannot generate %s: the name is already declared at %s", name, r.rel(where))
				pl.excluded[posKey] = true
				out.failed = true
				continue
			}
		}
		var keys, values []string
		noOpt := false
		for _, o := range d.Options {
			switch o.Key {
			case "wrt", testOption:
			case "opt":
				switch o.Value {
				case "0":
					noOpt = true
				case "1":
				default:
					pl.diags.Add(prog.Position(d.Pos), "", "directive", "opt=%s: want opt=0 (no optimization) or opt=1", o.Value)
					pl.excluded[posKey] = true
					out.failed = true
				}
			default:
				keys, values = append(keys, o.Key), append(values, o.Value)
			}
		}
		opts, err := ssaad.ParseOptions(keys, values)
		if err != nil {
			pl.diags.Add(prog.Position(d.Pos), frontend.FuncName(d.Target), "", "%v", err)
			pl.excluded[posKey] = true
			out.failed = true
		}
		if pl.excluded[posKey] {
			continue
		}
		req := &ssaad.Request{Mode: d.Mode, Target: d.Target, Name: name, Method: method,
			Active: d.Active, Options: opts, Pos: d.Pos}
		j := &job{req: req, mode: mode, out: out, dir: d, derived: &ir.DerivedFunc{Name: name, Method: method}, noOpt: noOpt}
		if v, ok := d.Option(testOption); ok {
			tout, spec, err := r.planTest(prog, d, j, v, outFor)
			if err != nil {
				pl.diags.Add(prog.Position(d.Pos), frontend.FuncName(d.Target), "directive", "%v", err)
				pl.excluded[posKey] = true
				out.failed = true
				continue
			}
			tout.tests = append(tout.tests, testJob{j: j, spec: spec})
		}
		out.jobs = append(out.jobs, j)
		pl.jobs = append(pl.jobs, j)
	}
	return pl
}

// recvNamed returns the named type of a receiver type T or *T.
func recvNamed(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// declared returns where name is already declared (as a package-level
// object, or as a method or field of the receiver's type for a method),
// or "".
func declared(prog *frontend.Program, d *frontend.Directive, name string, method bool) string {
	pkg := d.Pkg().Types
	var obj types.Object
	if method {
		recv := d.Target.Type().(*types.Signature).Recv().Type()
		obj, _, _ = types.LookupFieldOrMethod(recvNamed(recv), true, pkg, name)
	} else {
		obj = pkg.Scope().Lookup(name)
	}
	if obj == nil {
		return ""
	}
	return prog.Position(obj.Pos()).String()
}

// stubs returns the source of out in which each function is a stub with
// its new signature, and false if there is nothing to stub.
func (r *runner) stubs(prog *frontend.Program, out *outFile, excluded map[string]bool) ([]byte, bool) {
	var funcs []*ir.Func
	for _, j := range out.jobs {
		if excluded[prog.Position(j.dir.Pos).String()] {
			continue
		}
		sig, err := j.mode.Signature(j.req)
		if err != nil {
			r.diags.Add(prog.Position(j.dir.Pos), frontend.FuncName(j.req.Target), "", "%v", err)
			r.followOn.add(j.req.Name)
			excluded[prog.Position(j.dir.Pos).String()] = true
			out.failed = true
			continue
		}
		if strings.Contains(types.TypeString(sig, nil), "invalid type") {
			// A type that did not resolve (an import that failed, reported
			// already): there is no signature to stub, and "undefined" of
			// the derivative's name says nothing more.
			r.followOn.add(j.req.Name)
			excluded[prog.Position(j.dir.Pos).String()] = true
			out.failed = true
			continue
		}
		funcs = append(funcs, stubFunc(j.req.Name, out.pkg.Types, sig))
	}
	src, err := render(out, funcs, nil)
	if err != nil {
		r.internalError("emit", "stubs of "+filepath.Base(out.path), err, nil)
		return nil, false
	}
	return src, true
}

// refusedNames holds the names of the derivatives refused before they
// had a signature: the type errors of code that uses them follow from
// the refusal, which is reported instead.
type refusedNames map[string]bool

func (rn *refusedNames) add(name string) {
	if *rn == nil {
		*rn = refusedNames{}
	}
	(*rn)[name] = true
}

// drop returns the type errors of errs that do not follow from the
// refusal of a derivative in rn: "undefined: LossHVP" for a function,
// "m.LossHVP undefined (type *Net has no field or method LossHVP)" for a
// method.
func (rn refusedNames) drop(errs diag.List) diag.List {
	var out diag.List
	for _, e := range errs {
		name, ok := strings.CutPrefix(e.Msg, "undefined: ")
		if !ok {
			if _, after, found := strings.Cut(e.Msg, "has no field or method "); found {
				name, ok = strings.TrimSuffix(after, ")"), true
			}
		}
		if ok && rn[name] {
			continue
		}
		out = append(out, e)
	}
	return out
}

// stubFunc returns a function named name of signature sig whose body
// panics.
func stubFunc(name string, pkg *types.Package, sig *types.Signature) *ir.Func {
	f := ir.NewFunc(name, pkg)
	if recv := sig.Recv(); recv != nil {
		f.Recv = recv.Type()
		f.AddParam(recv.Name(), recv.Type())
	}
	for p := range sig.Params().Variables() {
		f.AddParam(p.Name(), p.Type())
	}
	for res := range sig.Results().Variables() {
		f.AddResult(res.Name(), res.Type())
	}
	f.Variadic = sig.Variadic()
	b := f.NewBlock("entry")
	msg := f.ConstValue(types.Typ[types.String], stubMessage)
	b.NewValue(ir.OpPanic, nil, b.NewValue(ir.OpConvert, types.Universe.Lookup("any").Type(), msg))
	f.Doc = name + " is a placeholder that gadgen writes while it regenerates this file."
	return f
}

// stubMessage is what a stub panics with.
var stubMessage = constant.MakeString("gadgen stub")
