package driver

// This file defines the generator: it runs the jobs (lower, differentiate,
// simplify, check) of the directives and of the callees their derivatives
// need, and implements ssaad.Env for the transformers.

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/frontend"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/reverse"
)

// job is one function to generate.
type job struct {
	req  *ssaad.Request
	mode ssaad.Mode
	out  *outFile
	// dir is the directive that asked for the function; nil for a
	// callee's derivative, which caller asked for.
	dir    *frontend.Directive
	caller *job
	// derived is how calls name the generated function.
	derived *ir.DerivedFunc
	// deps are the jobs whose functions this one calls.
	deps   []*job
	fn     *ir.Func // the result
	failed bool
	// trial: the job was made by Build, which reports its failure to
	// the mode that asked rather than to the user.
	trial bool
	// copy: generate a copy of the target's primal body rather than a
	// derivative (see localize).
	copy bool
	seq  int // order of generation: the order of functions in the file
	// noOpt: the directive asked for the derivative without optimization
	// (opt=0); the callees' derivatives it needs are unoptimized too,
	// and named with an O0 suffix.
	noOpt bool
}

// jobKey identifies a derivative: generated once per package, mode,
// function and activity.
type jobKey struct {
	pkg, mode, fn, active string
	noOpt                 bool
}

type generator struct {
	r *runner
	// warned holds the warnings of the derivatives transformed and not
	// yet returned by differentiate (see transform).
	warned map[*ir.Func]diag.List
	prog   *frontend.Program
	plan   *plan
	jobs   map[jobKey]*job
	queue  []*job
	// taken holds, per generated package, the names of the functions
	// generated into it.
	taken map[string]map[string]bool
	cur   *job
	seq   int
	// writes and reads cache Writes and Reads, effects Effects.
	writes  map[*types.Func][]bool
	reads   map[*types.Func][]bool
	effects map[*types.Func]*simplify.Effects
	// assume holds the assumed summaries of the functions whose summary
	// is being computed, computing their stack (see summary).
	assume      map[summaryKey][]bool
	computing   []summaryKey
	origins     map[*types.Func][]int // see Origins
	stores      map[*types.Func]bool  // see StoresMemory
	freshStores map[*types.Func]bool  // see FreshStores
	// objects maps the Go object of each generated function
	// (ir.DerivedFunc.Obj) to its job, whose body primalOf builds again
	// when a mode differentiates the function.
	objects map[*types.Func]*job
	// quiet, when not nil, collects the failures of the jobs run by Build
	// instead of reporting them.
	quiet *[]error
}

func newGenerator(r *runner, prog *frontend.Program, pl *plan) *generator {
	g := &generator{r: r, prog: prog, plan: pl, jobs: map[jobKey]*job{}, taken: map[string]map[string]bool{}, writes: map[*types.Func][]bool{}, reads: map[*types.Func][]bool{}, effects: map[*types.Func]*simplify.Effects{}, assume: map[summaryKey][]bool{}, origins: map[*types.Func][]int{}, stores: map[*types.Func]bool{}, freshStores: map[*types.Func]bool{}, objects: map[*types.Func]*job{}}
	for _, j := range pl.jobs {
		pkg := j.out.pkg.PkgPath
		if g.taken[pkg] == nil {
			g.taken[pkg] = map[string]bool{}
		}
		g.taken[pkg][j.req.Name] = true
		k := g.key(pkg, j.req.Mode, j.req.Target, j.req.Active, j.noOpt)
		k.mode += j.req.Options.String()
		if _, ok := g.jobs[k]; !ok {
			g.jobs[k] = j
		}
	}
	return g
}

func (g *generator) key(pkg, mode string, fn *types.Func, active []bool, noOpt bool) jobKey {
	// A function of a package and of its test variant are two objects:
	// identify them by name and position, specializations by what they
	// specialize.
	id := fn.FullName() + "@" + g.prog.Position(fn.Pos()).String()
	if k := g.prog.SpecializationKey(fn); k != "" {
		id = k
	}
	act := make([]byte, len(active))
	for i, a := range active {
		act[i] = '0'
		if a {
			act[i] = '1'
		}
	}
	return jobKey{pkg, mode, id, string(act), noOpt}
}

// generate runs every directive's job, each followed by the jobs of the
// callees it needs, which go in the same file.
func (g *generator) generate() {
	for _, j := range g.plan.jobs {
		g.run(j)
		for len(g.queue) > 0 {
			q := g.queue[0]
			g.queue = g.queue[1:]
			g.run(q)
		}
	}
	g.cur = nil
}

// run generates the function of j.
func (g *generator) run(j *job) {
	if j.seq > 0 {
		return // run early, by Build
	}
	g.cur = j
	g.seq++
	j.seq = g.seq
	name := frontend.FuncName(j.req.Target)
	stage := "lower"
	defer func() {
		if p := recover(); p != nil {
			j.failed = true
			if j.trial && g.quiet != nil {
				*g.quiet = append(*g.quiet, fmt.Errorf("internal error in %s of %s: %v", stage, name, p))
				return
			}
			g.r.internalError(stage, name, p, debug.Stack())
		}
	}()
	if j.copy {
		g.runCopy(j)
		return
	}
	dump := g.r.dumpFunc(j.req.Target)
	req := *j.req
	req.Dump = dump

	if j.derived.Sig == nil {
		sig, err := j.mode.Signature(&req)
		if err != nil {
			g.fail(j, diag.List{{Pos: g.prog.Position(req.Pos), Func: name, Msg: err.Error()}})
			return
		}
		g.setSig(j, sig)
	}
	primal, diags := g.primalOf(j.req.Target, 0)
	if len(diags) > 0 {
		g.fail(j, diags)
		return
	}
	if dump != nil {
		dump("lower", primal.String())
		dump("effects", g.calleeEffects(primal))
	}
	optimize := !j.noOpt && !g.r.cfg.NoOptimize
	stage = j.req.Mode
	f, diags := g.differentiate(primal, j.mode, &req, optimize, dump)
	if len(diags) > 0 {
		g.fail(j, diags)
		return
	}
	if err := ir.Check(f); err != nil {
		panic(err)
	}
	// The signature is the mode's (Mode.Signature) in every respect.
	f.Variadic = j.derived.Sig.Variadic()
	if d := g.prog.Describe(j.req.Target, j.req.Target.Name(), j.out.pkg.Types); d != "" {
		f.Doc = strings.TrimRight(f.Doc, "\n") + "\n\n" + d
	}
	if j.noOpt {
		f.Doc = strings.TrimRight(f.Doc, "\n") + "\n\nGenerated without optimization (opt=0), for comparison."
	}
	if dump != nil {
		dump(j.req.Mode, f.String())
	}

	stage = "simplify"
	simplify.Run(f, simplify.Derivative, simplify.Config{Optimize: optimize, Check: true, Dump: dump, Env: g})
	simplify.Run(f, simplify.Final, simplify.Config{Optimize: optimize, Check: true, Dump: dump, Env: g})

	if j.req.Options.Stacked {
		cl := ssaad.CalleeLanes{
			Params:  func(d *ir.DerivedFunc) []bool { return g.calleeLanes(d, false) },
			Results: func(d *ir.DerivedFunc) []bool { return g.calleeLanes(d, true) },
		}
		err := ssaad.RetypeStacked(f, cl)
		if err == nil {
			err = ssaad.CheckStacked(f, cl)
		}
		if err != nil {
			g.fail(j, diag.List{{Pos: g.prog.Position(req.Pos), Func: name, Msg: err.Error()}})
			return
		}
	}

	stage = "access"
	g.localize(j, f)
	if diags := frontend.CheckAccess(f, j.out.pkg.Types, name, g.prog.Position); len(diags) > 0 {
		g.fail(j, diags)
		return
	}
	j.fn = f
}

// primalOf returns the lowered body of fn: from its source, or, when fn
// is a function that this run generates (its file is a stub while gadgen
// runs, or fn is the Go object of a generated function, see setSig), the
// derivative that its job builds, built again. The latter is nesting:
// differentiating a generated derivative (the HVP differentiates a
// gradient).
func (g *generator) primalOf(fn *types.Func, depth int) (*ir.Func, diag.List) {
	if rule := g.plan.rules[fn]; rule != nil {
		return ruleWrapper(fn, rule), nil
	}
	if orig, same := g.aliasOfGenerated(fn); orig != nil {
		// A generated function called with arguments that share
		// memory: the specialization of its derivative's body (its
		// source is a stub).
		f, diags := g.primalOf(orig, depth)
		if len(diags) > 0 {
			return nil, diags
		}
		return frontend.MergeAliased(f, fn, same), nil
	}
	src := g.objects[fn]
	if src == nil {
		src = g.generatedBy(fn)
	}
	if src == nil {
		f, diags := g.prog.Lower(fn)
		if f != nil {
			g.attachRules(f)
		}
		return f, diags
	}
	pos := g.prog.Position(fn.Pos())
	if depth > 8 || src.copy || src.mode == nil {
		return nil, diag.List{{Pos: pos, Func: frontend.FuncName(fn), Msg: "cannot differentiate this generated function"}}
	}
	primal, diags := g.primalOf(src.req.Target, depth+1)
	if len(diags) > 0 {
		return nil, diags
	}
	optimize := !src.noOpt && !g.r.cfg.NoOptimize
	req := *src.req
	req.Dump = nil
	req.NoSplit = true
	f, diags := g.differentiate(primal, src.mode, &req, optimize, nil)
	if len(diags) > 0 {
		return nil, diags
	}
	simplify.Run(f, simplify.Derivative, simplify.Config{Optimize: optimize, Check: true, Env: g})
	f.Pos = fn.Pos()
	if err := ssaad.AsPrimal(f); err != nil {
		return nil, diag.List{{Pos: pos, Func: frontend.FuncName(fn), Msg: err.Error()}}
	}
	return f, nil
}

// differentiate optimizes primal, a fresh lowering of req.Target, and
// returns its derivative in mode m. Reverse mode first chooses, at each
// call site, between joint reversal and inlining
// (simplify.ChooseReversal, printed to dump as "calls"); the other modes
// differentiate a call in one sweep and inline only what the primal
// pipeline's own inliner picks. Inlining is an optimization: when the
// transformer cannot reverse the inlined primal (a diagnostic or an
// internal error), differentiate starts again from a fresh lowering with
// every call reversed jointly, so that inlining never refuses a function
// that joint reversal differentiates. Where joint reversal refuses it (a
// call it cannot reverse), differentiate tries last with every call that
// can be inlined inlined (simplify.InlineAll), and reports joint
// reversal's diagnostics when that fails too; that last resort serves
// -O0 (opt=0) too, which inlines nothing by the cost model.
func (g *generator) differentiate(primal *ir.Func, m ssaad.Mode, req *ssaad.Request, optimize bool, dump func(stage, text string)) (*ir.Func, diag.List) {
	f, diags := g.differentiateCalls(primal, m, req, optimize, dump)
	if f != nil {
		g.r.warnings = append(g.r.warnings, g.warned[f]...)
		delete(g.warned, f)
	}
	return f, diags
}

// transform is m.Transform, keeping the warnings of a derivative in
// g.warned until differentiate returns it: those of attempts it drops
// are not reported.
func (g *generator) transform(f *ir.Func, m ssaad.Mode, req *ssaad.Request) (*ir.Func, diag.List) {
	out, diags := m.Transform(f, req, g)
	var errs, warns diag.List
	for _, d := range diags {
		if d.Warning {
			warns = append(warns, d)
		} else {
			errs = append(errs, d)
		}
	}
	if out != nil && len(warns) > 0 {
		if g.warned == nil {
			g.warned = map[*ir.Func]diag.List{}
		}
		g.warned[out] = warns
	}
	return out, errs
}

// differentiateCalls is differentiate but for the warnings.
func (g *generator) differentiateCalls(primal *ir.Func, m ssaad.Mode, req *ssaad.Request, optimize bool, dump func(stage, text string)) (*ir.Func, diag.List) {
	plain := func(f *ir.Func) (*ir.Func, diag.List) {
		simplify.Run(f, simplify.Primal, simplify.Config{Optimize: optimize, Check: true, Dump: dump, Env: g})
		return g.transform(f, m, req)
	}
	reversal := g.r.cfg.Reversal
	if _, ok := m.(reverse.Mode); !ok || reversal == "joint" {
		return plain(primal)
	}
	if reversal == "split" {
		r := *req
		r.Split = true
		req = &r
		return plain(primal)
	}
	if reversal == "inline" {
		_, f, diags, tried := g.tryInlined(primal, m, req, simplify.InlineAll, optimize, dump)
		if !tried {
			return plain(primal)
		}
		if f == nil && len(diags) == 0 {
			diags = diag.List{{Pos: g.prog.Position(req.Target.Pos()), Func: frontend.FuncName(req.Target),
				Msg: "-reversal=inline: reverse mode cannot differentiate the function with its calls inlined"}}
		}
		return f, diags
	}
	fresh := primal
	if optimize {
		// Inlining by the cost model is an optimization: not with -O0.
		cost := simplify.ReverseCost
		cost.KeepInLoops = req.Options.Checkpoint > 0
		_, f, diags, tried := g.tryInlined(primal, m, req, cost, optimize, dump)
		if tried && f != nil {
			return f, nil
		}
		if tried {
			if fresh, diags = g.primalOf(req.Target, 0); len(diags) > 0 {
				return nil, diags
			}
		}
	}
	f, joint := plain(fresh)
	if len(joint) == 0 {
		return f, nil
	}
	// The last resort, with -O0 too: every call inlined.
	fresh, diags := g.primalOf(req.Target, 0)
	if len(diags) > 0 {
		return nil, joint
	}
	plan, f, _, tried := g.tryInlined(fresh, m, req, simplify.InlineAll, optimize, dump)
	if !tried || f == nil {
		return nil, joint
	}
	seen := map[string]bool{}
	for _, s := range plan.Sites {
		if s.Checkpoint && s.Reversal == simplify.Inlined && !seen[s.Callee] {
			seen[s.Callee] = true
			d := joint[0]
			g.r.warnings = append(g.r.warnings, diag.Diagnostic{Pos: d.Pos, Warning: true,
				Msg: fmt.Sprintf("%s: //gad:checkpoint of %s not followed: its calls are inlined, since reverse mode cannot keep them (%s)", d.Func, s.Callee, d.Msg)})
		}
	}
	return f, nil
}

// tryInlined inlines, in primal, the calls the cost model picks, and
// transforms it, returning the decisions too. tried is false when it
// inlined nothing (primal is then unchanged but for dead code, and not
// transformed); f is nil, with the transformer's diagnostics, when it
// could not reverse the result.
func (g *generator) tryInlined(primal *ir.Func, m ssaad.Mode, req *ssaad.Request, cost simplify.CallCost, optimize bool, dump func(stage, text string)) (plan simplify.CallPlan, f *ir.Func, diags diag.List, tried bool) {
	plan = simplify.ChooseReversal(primal, g, cost)
	if err := ir.Check(primal); err != nil {
		panic(fmt.Sprintf("after choosing the reversal of calls: %v", err))
	}
	if dump != nil {
		dump("calls", plan.String())
	}
	if !plan.Inlines() {
		return plan, nil, nil, false
	}
	f, diags, ok := g.tryTransform(primal, m, req, optimize, dump)
	if !ok {
		if dump != nil {
			dump("calls", "the inlined primal cannot be reversed")
		}
		return plan, nil, diags, true
	}
	return plan, f, nil, true
}

// tryTransform runs the primal pipeline on primal and transforms it,
// reporting ok false, instead of its diagnostics or panic, when that
// fails.
func (g *generator) tryTransform(primal *ir.Func, m ssaad.Mode, req *ssaad.Request, optimize bool, dump func(stage, text string)) (f *ir.Func, diags diag.List, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			f, diags, ok = nil, nil, false
		}
	}()
	simplify.Run(primal, simplify.Primal, simplify.Config{Optimize: optimize, Check: true, Dump: dump, Env: g})
	f, diags = g.transform(primal, m, req)
	return f, diags, len(diags) == 0
}

// setSig records the signature of j's generated function, and its Go
// object (ir.DerivedFunc.Obj), through which a mode may ask for the
// derivative of the generated function.
func (g *generator) setSig(j *job, sig *types.Signature) {
	j.derived.Sig = sig
	if j.mode == nil || j.derived.Obj != nil {
		return
	}
	obj := types.NewFunc(j.req.Target.Pos(), j.out.pkg.Types, j.req.Name, sig)
	j.derived.Obj = obj
	g.objects[obj] = j
}

// aliasOfGenerated returns the function of this run that fn, a
// specialization for arguments that share memory (frontend's Aliased),
// specializes, and the sharing; nil if fn is none or its function is
// not generated in this run.
func (g *generator) aliasOfGenerated(fn *types.Func) (*types.Func, []int) {
	orig, same, ok := g.prog.AliasOf(fn)
	if !ok || g.objects[orig] == nil && g.generatedBy(orig) == nil {
		return nil, nil
	}
	return orig, same
}

// generatedBy returns the job of this run that generates fn, or nil.
func (g *generator) generatedBy(fn *types.Func) *job {
	out := g.plan.byPath[g.prog.Position(fn.Pos()).Filename]
	if out == nil {
		return nil
	}
	isMethod := fn.Type().(*types.Signature).Recv() != nil
	for _, j := range out.jobs {
		if j.req.Name == fn.Name() && j.req.Method == isMethod {
			return j
		}
	}
	return nil
}

// runCopy generates the copy of a function of another package that the
// generated code calls but cannot name (see localize).
func (g *generator) runCopy(j *job) {
	fn := j.req.Target
	f, diags := g.prog.Lower(fn)
	if len(diags) > 0 {
		g.fail(j, diags)
		return
	}
	f.Name, f.Recv = j.req.Name, nil // a method's receiver is the first parameter
	if d := g.prog.Describe(fn, j.req.Name, j.out.pkg.Types); d != "" {
		f.Doc = d
	} else {
		f.Doc = fmt.Sprintf("%s is a copy of %s, which package %s does not export.", j.req.Name, qualifiedName(fn), fn.Pkg().Name())
	}
	g.localize(j, f)
	// The required passes only (loop form, dead code): the copy is the
	// source's body, written back as the source wrote it.
	simplify.Run(f, simplify.Primal, simplify.Config{Check: true, Env: g})
	if diags := frontend.CheckAccess(f, j.out.pkg.Types, frontend.FuncName(fn), g.prog.Position); len(diags) > 0 {
		g.fail(j, diags)
		return
	}
	j.fn = f
}

// localize redirects the calls of f to functions and methods of other
// packages that the generated package cannot name (unexported, or in an
// internal package), and to specializations of function values, which
// no package declares (see frontend's closure.go) — calls with no varied
// argument keep the primal callee — to copies of their bodies generated
// into the package: functionsGaussianY for the method y of
// functions.Gaussian, its receiver first; simpsonSpring for simpson
// specialized for a literal spring.
func (g *generator) localize(j *job, f *ir.Func) {
	pkg := j.out.pkg.Types
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			c := v.Callee
			if v.Op != ir.OpCall || c.Func == nil || c.Invoke || c.Derived != nil || c.Func.Pkg() == nil {
				continue
			}
			if !g.prog.IsSpecialization(c.Func) && (c.Func.Pkg().Path() == pkg.Path() ||
				c.Func.Exported() && frontend.Importable(pkg.Path(), c.Func.Pkg().Path())) {
				continue
			}
			sig := c.Func.Type().(*types.Signature)
			if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
				continue // reported by CheckAccess
			}
			k := g.key(pkg.Path(), "copy", c.Func, nil, false)
			cj := g.jobs[k]
			if cj == nil {
				name := g.uniqueName(pkg, frontend.LowerCamel(calleeParts(pkg, c.Func)))
				var params []*types.Var
				params = append(params, ssaad.Params(c.Func)...)
				cj = &job{
					req:     &ssaad.Request{Mode: j.req.Mode, Target: c.Func, Name: name, Pos: v.Pos},
					out:     j.out,
					caller:  j,
					copy:    true,
					derived: &ir.DerivedFunc{Name: name, Sig: types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), sig.Results(), sig.Variadic())},
				}
				g.jobs[k] = cj
				g.queue = append(g.queue, cj)
				j.out.jobs = append(j.out.jobs, cj)
			}
			j.deps = append(j.deps, cj)
			v.Callee = &ir.Callee{Derived: cj.derived, Spread: c.Spread}
		}
	}
}

// qualifiedName is pkg.F or pkg.T.M.
func qualifiedName(fn *types.Func) string {
	if fn.Pkg() == nil {
		return frontend.FuncName(fn)
	}
	return fn.Pkg().Name() + "." + frontend.FuncName(fn)
}

// fail records the diagnostics of a failed job. A callee without a body
// is also reported at the call that needs its derivative.
func (g *generator) fail(j *job, diags diag.List) {
	j.failed = true
	if j.trial && g.quiet != nil {
		for _, d := range diags {
			*g.quiet = append(*g.quiet, fmt.Errorf("%s", d.Msg))
		}
		return
	}
	var out diag.List
	for _, d := range diags {
		if d.Construct == "body" && j.caller != nil {
			call := diag.Diagnostic{
				Pos:       g.prog.Position(j.req.Pos),
				Func:      frontend.FuncName(j.caller.req.Target),
				Construct: "call of " + qualifiedName(j.req.Target),
				Msg:       "no derivative rule, and no Go body to differentiate",
			}
			if pkg := j.req.Target.Pkg(); pkg != nil && isStd(pkg.Path()) {
				// The standard library's body is not the user's to
				// change: the call says it all.
				call.Msg += " (a function of the standard library, whose body gadgen does not read: " +
					"write the computation in Go, or call a function of yours that has a //gad:rule)"
				out = append(out, call)
				continue
			}
			out = append(out, d, call)
			continue
		}
		out = append(out, d)
	}
	g.reportAtDirective(j, out)
	g.r.diags = append(g.r.diags, out...)
}

// isStd reports whether path is a standard-library package's: its first
// element has no dot (as the go command tells them apart).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// reportAtDirective also reports the failure of j at the directive that
// led to it when none of diags is in the directive's package directory (a
// function of another package, in the module cache say), so that the user
// sees which of their directives failed.
func (g *generator) reportAtDirective(j *job, diags diag.List) {
	root := j
	for root.dir == nil && root.caller != nil {
		root = root.caller
	}
	if root.dir == nil || len(diags) == 0 {
		return
	}
	at := g.prog.Position(root.dir.Pos)
	dir := filepath.Dir(at.Filename)
	for _, d := range diags {
		if filepath.Dir(d.Pos.Filename) == dir {
			return
		}
	}
	g.r.diags = append(g.r.diags, diag.Diagnostic{
		Pos:  at,
		Func: frontend.FuncName(root.req.Target),
		Msg:  fmt.Sprintf("%s cannot be differentiated: see the errors reported in %s", qualifiedName(j.req.Target), g.r.rel(diags[0].Pos.Filename)),
	})
}

// Derivative implements ssaad.Env: it names the derivative of callee with
// the given activity in the package of the job being run, and queues its
// generation unless it exists.
func (g *generator) Derivative(mode string, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	return g.DerivativeWithOptions(mode, ssaad.Options{}, callee, active, pos)
}

// Fired implements simplify.Explainer: with -explain, it records that
// rule fired at pos in the function being generated.
func (g *generator) Fired(rule string, pos token.Pos) {
	if !g.r.cfg.Explain {
		return
	}
	fn := "?"
	if g.cur != nil {
		fn = g.cur.req.Name
		if !pos.IsValid() {
			// A value the differentiation made: the directive's place.
			pos = g.cur.req.Pos
		}
	}
	where := "?"
	if p := g.prog.Position(pos); p.IsValid() {
		p.Filename = g.r.rel(g.r.abs(p.Filename))
		where = p.String()
	}
	if g.r.explained == nil {
		g.r.explained = map[string]bool{}
	}
	g.r.explained[fmt.Sprintf("%s: %s (in %s)", where, rule, fn)] = true
}

// DerivativeWithOptions implements ssaad.OptionsEnv: Derivative for a
// request with options (Taylor mode's order=), which are part of what
// identifies the generated function.
func (g *generator) DerivativeWithOptions(mode string, opts ssaad.Options, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	if err := ssaad.Refusal(callee); err != nil {
		return nil, err
	}
	from := g.cur
	m := g.r.modes[mode]
	if m == nil {
		return nil, fmt.Errorf("unknown mode %q", mode)
	}
	if n := len(ssaad.Params(callee)); len(active) != n {
		return nil, fmt.Errorf("activity of %d parameters for %s, which has %d", len(active), callee.FullName(), n)
	}
	pkg := from.out.pkg
	k := g.key(pkg.PkgPath, mode, callee, active, from.noOpt)
	k.mode += opts.String()
	if j, ok := g.jobs[k]; ok {
		if j.derived.Sig == nil && j.mode != nil {
			// A directive's job that has not run yet.
			sig, err := j.mode.Signature(j.req)
			if err != nil {
				return nil, err
			}
			g.setSig(j, sig)
		}
		from.deps = append(from.deps, j)
		return j.derived, nil
	}
	name := g.calleeName(pkg.Types, m, callee, active, from.noOpt, opts)
	j := &job{
		trial:   g.quiet != nil,
		noOpt:   from.noOpt,
		req:     &ssaad.Request{Mode: mode, Target: callee, Name: name, Active: active, Pos: pos, Options: opts},
		mode:    m,
		out:     from.out,
		caller:  from,
		derived: &ir.DerivedFunc{Name: name},
	}
	sig, err := m.Signature(j.req)
	if err != nil {
		return nil, err
	}
	g.setSig(j, sig)
	g.jobs[k] = j
	g.queue = append(g.queue, j)
	from.deps = append(from.deps, j)
	from.out.jobs = append(from.out.jobs, j)
	return j.derived, nil
}

// Build implements ssaad.BuildEnv: DerivativeWithOptions, with the
// derivative and the derivatives it needs generated now. When one of them
// fails, the error is returned rather than reported, and the derivatives
// this call made are dropped: a later request makes them again (and then
// reports their errors).
func (g *generator) Build(mode string, opts ssaad.Options, callee *types.Func, active []bool, pos token.Pos) (*ir.DerivedFunc, error) {
	from, outer, mark := g.cur, g.quiet, len(g.queue)
	var errs []error
	g.quiet = &errs
	before := maps.Clone(g.jobs)
	d, err := g.DerivativeWithOptions(mode, opts, callee, active, pos)
	if err == nil {
		j := g.objects[d.Obj]
		if j != nil && j.seq == 0 {
			g.run(j)
		}
		for len(g.queue) > mark {
			q := g.queue[mark]
			g.queue = slices.Delete(g.queue, mark, mark+1)
			g.run(q)
		}
		if j != nil && j.failed && len(errs) == 0 {
			err = fmt.Errorf("%s cannot be generated", d.Name)
		}
	}
	g.quiet, g.cur = outer, from
	if err == nil && len(errs) > 0 {
		err = errs[0]
	}
	if err == nil {
		return d, nil
	}
	// Drop the jobs made here.
	made := map[*job]bool{}
	for k, j := range g.jobs {
		if _, ok := before[k]; !ok {
			made[j] = true
			delete(g.jobs, k)
		}
	}
	for _, out := range g.plan.outs {
		out.jobs = slices.DeleteFunc(out.jobs, func(j *job) bool { return made[j] })
	}
	for _, j := range g.jobs {
		j.deps = slices.DeleteFunc(j.deps, func(d *job) bool { return made[d] })
	}
	return nil, err
}

// Generated implements ssaad.BuildEnv: the body of d's job, or nil.
func (g *generator) Generated(d *ir.DerivedFunc) *ir.Func {
	if j := g.objects[d.Obj]; j != nil {
		return j.fn
	}
	return nil
}

// Origins implements ssaad.OriginsEnv: ssaad.ResultOrigins of callee's
// lowered body; nil for a function without a body, one that does not
// lower, or one whose origins are being computed (recursion).
func (g *generator) Origins(callee *types.Func) []int {
	if o, ok := g.origins[callee]; ok {
		return o
	}
	g.origins[callee] = nil
	f, diags := g.body(callee)
	if len(diags) > 0 || f == nil {
		return nil
	}
	o := ssaad.ResultOrigins(f, ssaad.EnvOrigins(g))
	g.origins[callee] = o
	return o
}

// Checkpointed implements simplify.Checkpointer: fn is marked
// //gad:checkpoint.
func (g *generator) Checkpointed(fn *types.Func) bool { return g.plan.checkpoints[fn] }

// FreshStores implements ssaad.OriginsEnv: ssaad.StoresOnlyFresh of
// callee's lowered body; false for a function without a body, one that
// does not lower, or a recursive call while its body is being looked at.
func (g *generator) FreshStores(callee *types.Func) bool {
	if s, ok := g.freshStores[callee]; ok {
		return s
	}
	g.freshStores[callee] = false
	f, diags := g.body(callee)
	s := len(diags) == 0 && f != nil && ssaad.StoresOnlyFresh(f, ssaad.EnvOrigins(g))
	g.freshStores[callee] = s
	return s
}

// StoresMemory implements ssaad.OriginsEnv: ssaad.StoresMemory of callee's
// lowered body; true for a function without a body or one that does not
// lower; false for a recursive call while its body is being looked at
// (its other stores decide).
func (g *generator) StoresMemory(callee *types.Func) bool {
	if s, ok := g.stores[callee]; ok {
		return s
	}
	g.stores[callee] = false
	f, diags := g.body(callee)
	s := len(diags) > 0 || f == nil || ssaad.StoresMemory(f, func(c *ir.Callee) bool {
		return c.Func == nil || c.Invoke || g.StoresMemory(c.Func)
	})
	g.stores[callee] = s
	return s
}

// Aliased implements ssaad.AliasEnv.
func (g *generator) Aliased(callee *types.Func, same []int) *types.Func {
	return g.prog.Aliased(callee, same)
}

// Writes implements ssaad.Env: the parameters through which callee may
// store where its caller sees it (ssaad.PersistentWrites of its lowered
// body: not the local copy a struct parameter by value lives in), nil
// when unknown: for a function without a body, one that does not lower,
// or a recursive one whose summary is being computed.
func (g *generator) Writes(callee *types.Func) []bool {
	return g.summary("writes", g.writes, callee, func(f *ir.Func) []bool { return ssaad.PersistentWrites(f, g.Writes, ssaad.EnvFacts(g)) })
}

// Reads implements ssaad.Env like Writes, with ssaad.ParamReads.
func (g *generator) Reads(callee *types.Func) []bool {
	return g.summary("reads", g.reads, callee, func(f *ir.Func) []bool { return ssaad.ParamReads(f, g.Writes, g.Reads) })
}

// summary returns compute's summary of callee, cached in cache. A
// directly recursive function's summary is a fixed point: its recursive
// calls first see the assumption that it touches nothing, then the summary
// computed under the assumption, until that holds. Other calls of a
// function whose summary is being computed (mutual recursion) get nil:
// unknown, which callers treat as touching everything.
func (g *generator) summary(kind string, cache map[*types.Func][]bool, callee *types.Func, compute func(*ir.Func) []bool) []bool {
	key := summaryKey{kind: kind, fn: callee}
	if a, ok := g.assume[key]; ok {
		if len(g.computing) > 0 && g.computing[len(g.computing)-1] == key {
			return a
		}
		return nil
	}
	if s, ok := cache[callee]; ok {
		return s
	}
	f, diags := g.body(callee)
	if len(diags) > 0 || f == nil {
		cache[callee] = nil
		return nil
	}
	g.computing = append(g.computing, key)
	defer func() {
		g.computing = g.computing[:len(g.computing)-1]
		delete(g.assume, key)
	}()
	s := make([]bool, len(f.Params))
	for {
		g.assume[key] = s
		next := compute(f)
		if next == nil || slices.Equal(next, s) {
			s = next
			break
		}
		s = next
	}
	cache[callee] = s
	return s
}

// summaryKey identifies a summary being computed: its kind (writes or
// reads) and its function.
type summaryKey struct {
	kind string
	fn   *types.Func
}

// Effects implements simplify.Env: the summary of callee's lowered body
// (simplify.Summarize), nil when unknown: for a function without a body,
// one that does not lower, or a recursive one whose summary is being
// computed.
func (g *generator) Effects(callee *types.Func) *simplify.Effects {
	if e, ok := g.effects[callee]; ok {
		return e
	}
	g.effects[callee] = nil // in progress: unknown
	f, diags := g.body(callee)
	if len(diags) > 0 || f == nil {
		return nil
	}
	e := simplify.Summarize(f, g)
	g.effects[callee] = e
	return e
}

// calleeEffects prints the effects of the functions f calls (primitives,
// such as package math's, are pure), for -dump.
func (g *generator) calleeEffects(f *ir.Func) string {
	var sb strings.Builder
	seen := map[*types.Func]bool{}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			c := v.Callee
			if v.Op != ir.OpCall || c.Func == nil || c.Invoke || seen[c.Func] || c.Primitive() != nil {
				continue
			}
			seen[c.Func] = true
			fmt.Fprintf(&sb, "%s: %s\n", c.Func.FullName(), g.Effects(c.Func))
		}
	}
	return sb.String()
}

// Body implements simplify.Env: a fresh lowering of callee, or nil. (A
// function that this run generates is not inlined: its body here is a
// stub's.)
func (g *generator) Body(callee *types.Func) *ir.Func {
	if orig, _ := g.aliasOfGenerated(callee); orig != nil {
		return nil // a stub's, as for the generated function
	}
	f, diags := g.prog.Lower(callee)
	if len(diags) > 0 {
		return nil
	}
	g.attachRules(f)
	return f
}

// body returns a fresh lowering of callee, from which its summaries
// (Writes, Reads, Effects, Origins, StoresMemory) are computed: for a function that this run generates, whose file holds a
// stub while gadgen runs, the derivative that primalOf builds, which is
// what a caller of the generated function runs (the stub's body, a panic,
// writes and reads nothing: a gradient called for the gradient it
// accumulates into a slice, differentiated in reverse mode, had no
// derivative); for any other, its source's.
func (g *generator) body(callee *types.Func) (*ir.Func, diag.List) {
	if orig, _ := g.aliasOfGenerated(callee); orig != nil || g.objects[callee] != nil || g.generatedBy(callee) != nil {
		return g.primalOf(callee, 0)
	}
	return g.prog.Lower(callee)
}

// Position implements ssaad.Env.
func (g *generator) Position(pos token.Pos) token.Position { return g.prog.Position(pos) }

// calleeName names the derivative of callee generated into pkg: the
// callee's package (when another), receiver type and name in lower camel
// case, the mode's suffix, and, unless every parameter holding floats is
// varied, "Wrt" and the varied parameters; a vector JVP's number of
// directions follows the suffix (fGradJVPLanes8). A number makes it unique.
func (g *generator) calleeName(pkg *types.Package, m ssaad.Mode, callee *types.Func, active []bool, noOpt bool, opts ssaad.Options) string {
	parts := append(calleeParts(pkg, callee), m.Suffix())
	if opts.Lanes > 0 && !opts.Collapsed {
		parts = append(parts, "Lanes"+strconv.Itoa(opts.Lanes)) // fGradJVPLanes8: along 8 directions
	}
	if opts.Stacked {
		parts = append(parts, "Stacked") // fGradJVPStacked: along the directions of a tensor [L, …]
	}
	full := ssaad.FullActivity(callee)
	same := len(full) == len(active)
	for i := range full {
		same = same && full[i] == active[i]
	}
	// A generated function's name says what it is (fGradWrtX): its
	// derivative takes only the suffix.
	same = same || g.objects[callee] != nil
	if !same {
		parts = append(parts, "Wrt")
		for i, p := range ssaad.Params(callee) {
			if active[i] {
				n := p.Name()
				if n == "" || n == "_" {
					n = "p" + strconv.Itoa(i)
				}
				parts = append(parts, n)
			}
		}
	}
	if noOpt {
		parts = append(parts, "O0")
	}
	return g.uniqueName(pkg, frontend.LowerCamel(parts))
}

// calleeParts returns the parts of a name for fn in pkg: fn's package
// when another, its receiver's type, its name.
func calleeParts(pkg *types.Package, fn *types.Func) []string {
	var parts []string
	if fn.Pkg() != nil && fn.Pkg().Path() != pkg.Path() {
		parts = append(parts, fn.Pkg().Name())
	}
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		if n, ok := recvNamed(r.Type()).(interface{ Obj() *types.TypeName }); ok {
			parts = append(parts, n.Obj().Name())
		}
	}
	return append(parts, fn.Name())
}

// uniqueName returns base, or base followed by a number, unused in pkg and
// among the functions generated into it, and reserves it.
func (g *generator) uniqueName(pkg *types.Package, base string) string {
	taken := g.taken[pkg.Path()]
	if taken == nil {
		taken = map[string]bool{}
		g.taken[pkg.Path()] = taken
	}
	name := base
	for k := 2; taken[name] || pkg.Scope().Lookup(name) != nil; k++ {
		name = base + strconv.Itoa(k)
	}
	taken[name] = true
	return name
}

// dumpFunc returns the -dump callback for fn, or nil.
func (r *runner) dumpFunc(fn *types.Func) func(stage, text string) {
	if r.cfg.Dump == "" || r.cfg.Dump != frontend.FuncName(fn) {
		return nil
	}
	r.dumped = true
	name := frontend.FuncName(fn)
	return func(stage, text string) {
		fmt.Fprintf(r.cfg.Stdout, "--- %s: %s ---\n%s\n", name, stage, strings.TrimRight(text, "\n"))
	}
}

// stackedLayout is what a mode that generates functions with stacked
// directions tells of their layout before it builds them.
type stackedLayout interface {
	ParamLanes(*ssaad.Request) []bool
	ResultLanes(*ssaad.Request) []bool
}

// calleeLanes returns which results (or parameters) of derivative d hold
// stacked directions: from d once it is generated, else from its mode;
// nil when unknown.
func (g *generator) calleeLanes(d *ir.DerivedFunc, results bool) []bool {
	if fn := g.Generated(d); fn != nil {
		if results {
			return fn.ResultLanes
		}
		return fn.Lanes
	}
	if j := g.objects[d.Obj]; j != nil {
		if m, ok := j.mode.(stackedLayout); ok {
			if results {
				return m.ResultLanes(j.req)
			}
			return m.ParamLanes(j.req)
		}
	}
	return nil
}
