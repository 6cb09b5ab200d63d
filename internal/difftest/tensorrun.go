package difftest

// This file defines the running of a batch of tensor programs: a
// temporary module with, for each program, its plain package and one
// package per mode holding the program with that mode's directive;
// gadgen run once on the mode packages, in process; go vet once; a main
// program (package tharness) that checks every mode written.

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

//go:embed tharness/tharness.go
var tharnessSrc []byte

const tbatchModule = "difftest.local/tbatch"

// tprog is a tensor program in a batch, with what its metadata says.
type tprog struct {
	p       *Program
	dir     string // base of its packages: dir (plain), dir_MODE
	params  []*tparam
	fields  []*tparam
	modes   []string
	written map[string]bool
	decided map[string]bool
	dead    bool
}

// The metadata of a tensor program: "//difftest:param NAME KIND [DIMS]"
// for each parameter of F in order (KIND tensor, fixed, labels: a
// tensor's, float VALUE, model or modelval: a *Model or Model whose
// fields are varied, "recv" for F's receiver), "//difftest:field NAME
// tensor DIMS" or "… slice N DIMS" for each field of Model.
var (
	tparamRE = regexp.MustCompile(`(?m)^//difftest:param (\S+) (\S+)(?: (\S+))?$`)
	tfieldRE = regexp.MustCompile(`(?m)^//difftest:field (\S+) (tensor|slice|layers) (?:(\d+) )?(\S*)$`)
	tdirRE   = regexp.MustCompile(`(?m)^//gad:(\w+)\b(.*)$`)
)

// tensorMode returns the mode of a directive that tdirRE matched: its
// mode's name, or for lanes=L the mode with lanes.
func tensorMode(m []string) string {
	if strings.Contains(m[2], " lanes=stacked") && m[1] == ModeHVP {
		return ModeHVPStacked
	}
	if strings.Contains(m[2], " lanes=") {
		switch m[1] {
		case ModeTaylor:
			return ModeTaylorLanes
		case ModeHVP:
			return ModeHVPLanes
		}
	}
	return m[1]
}

func parseDims(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// parseTensorProgram reads the metadata of a tensor program.
func parseTensorProgram(p *Program) (*tprog, error) {
	tp := &tprog{p: p, written: map[string]bool{}, decided: map[string]bool{}}
	for _, m := range tparamRE.FindAllStringSubmatch(string(p.Src), -1) {
		q := &tparam{name: m[1], kind: m[2]}
		switch q.kind {
		case "model", "modelval":
			if m[3] != "" && m[3] != "recv" {
				return nil, fmt.Errorf("%s: %q after a model parameter", p.Name, m[3])
			}
			q.recv = m[3] == "recv"
		case "float":
			v, err := strconv.ParseFloat(m[3], 64)
			if err != nil {
				return nil, err
			}
			q.value = v
		case "tensor", "fixed", "labels":
			s, err := parseDims(m[3])
			if err != nil {
				return nil, err
			}
			q.shape, q.varied = s, q.kind == "tensor"
		default:
			return nil, fmt.Errorf("%s: unknown parameter kind %q", p.Name, q.kind)
		}
		tp.params = append(tp.params, q)
	}
	for _, m := range tfieldRE.FindAllStringSubmatch(string(p.Src), -1) {
		s, err := parseDims(m[4])
		if err != nil {
			return nil, err
		}
		f := &tparam{name: m[1], kind: m[2], shape: s, varied: true}
		if f.kind == "slice" || f.kind == "layers" {
			f.n, _ = strconv.Atoi(m[3])
		}
		if f.kind == "layers" && len(s) != 2 {
			return nil, fmt.Errorf("%s: layers of weights of shape %v", p.Name, s)
		}
		tp.fields = append(tp.fields, f)
	}
	for _, m := range tdirRE.FindAllStringSubmatch(string(p.Src), -1) {
		tp.modes = append(tp.modes, tensorMode(m))
	}
	if len(tp.params) == 0 {
		return nil, fmt.Errorf("%s: no //difftest:param lines", p.Name)
	}
	return tp, nil
}

// model reports whether the program's first parameter is its model.
func (tp *tprog) model() bool { return tp.params[0].kind == "model" || tp.params[0].kind == "modelval" }

// call returns the call of the function fn of package pkg (F or one of
// its derivatives) with the arguments args: a method's on args[0].
func (tp *tprog) call(pkg, fn string, args []string) string {
	if tp.params[0].recv {
		return fmt.Sprintf("(%s).%s(%s)", args[0], fn, strings.Join(args[1:], ", "))
	}
	return fmt.Sprintf("%s.%s(%s)", pkg, fn, strings.Join(args, ", "))
}

// modeSource returns the program's source as package pkg with only the
// directive of mode (none for "").
func modeSource(src []byte, pkg, mode string) []byte {
	var out []string
	for l := range strings.SplitSeq(string(src), "\n") {
		if m := tdirRE.FindStringSubmatch(l); m != nil && tensorMode(m) != mode {
			continue
		}
		if l == "package p" {
			l = "package " + pkg
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}

func (b *tbatch) record(tp *tprog, mode string, st Status, kind, detail string, checks int) {
	if tp.decided[mode] {
		return
	}
	tp.decided[mode] = true
	b.out = append(b.out, Outcome{Program: tp.p, Entry: "F", Mode: mode, Status: st, Kind: kind, Detail: detail, Checks: checks})
}

// recordAll records an outcome for every mode of tp ("" for all).
func (b *tbatch) recordAll(tp *tprog, st Status, kind, detail string) {
	for _, m := range append([]string{TModeValue, TModeFloat32}, tp.modes...) {
		b.record(tp, m, st, kind, detail, 0)
	}
}

type tbatch struct {
	cfg   *Config
	dir   string
	progs []*tprog
	out   []Outcome
}

// RunTensorBatch checks tensor programs and returns an outcome for every
// mode of each.
func RunTensorBatch(cfg *Config, progs []*Program) ([]Outcome, error) {
	if cfg.Points <= 0 {
		cfg.Points = 2
	}
	if cfg.GadgenTimeout <= 0 {
		cfg.GadgenTimeout = 10 * time.Minute
	}
	root := cfg.Root
	if root == "" {
		var err error
		if root, err = RepoRoot(); err != nil {
			return nil, err
		}
	}
	dir, err := os.MkdirTemp(cfg.TempDir, "difftest-tensors-")
	if err != nil {
		return nil, err
	}
	if !cfg.Keep {
		defer os.RemoveAll(dir)
	} else if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, "difftest: batch in %s\n", dir)
	}
	b := &tbatch{cfg: cfg, dir: dir}
	if err := b.write(root, progs); err != nil {
		return nil, err
	}
	if err := b.gadgen(); err != nil {
		return nil, err
	}
	if err := b.vet(); err != nil {
		return nil, err
	}
	if err := b.check(); err != nil {
		return nil, err
	}
	return b.out, nil
}

func (b *tbatch) write(root string, progs []*Program) error {
	gm, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	_, reqs, _ := strings.Cut(string(gm), "\nrequire")
	gomod := fmt.Sprintf("module %s\n\ngo 1.26.0\n\nrequire github.com/gadgen/gadgen v0.0.0\n\nreplace github.com/gadgen/gadgen => %s\n\nrequire%s", tbatchModule, root, reqs)
	if err := writeFile(filepath.Join(b.dir, "go.mod"), []byte(gomod)); err != nil {
		return err
	}
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		if err := writeFile(filepath.Join(b.dir, "go.sum"), sum); err != nil {
			return err
		}
	}
	if err := writeFile(filepath.Join(b.dir, "tharness", "tharness.go"), tharnessSrc); err != nil {
		return err
	}
	for k, p := range progs {
		tp, err := parseTensorProgram(p)
		if err != nil {
			return err
		}
		tp.dir = fmt.Sprintf("p%d", k)
		b.progs = append(b.progs, tp)
		if err := writeFile(filepath.Join(b.dir, tp.dir, "prog.go"), modeSource(p.Src, tp.dir, "")); err != nil {
			return err
		}
		for _, m := range tp.modes {
			d := tp.dir + "_" + m
			if err := writeFile(filepath.Join(b.dir, d, "prog.go"), modeSource(p.Src, d, m)); err != nil {
				return err
			}
		}
	}
	return nil
}

// byDir returns the program and mode of a package directory.
func (b *tbatch) byDir(d string) (*tprog, string) {
	pd, mode, _ := strings.Cut(d, "_")
	for _, tp := range b.progs {
		if tp.dir == pd {
			return tp, mode
		}
	}
	return nil, ""
}

var tdirNameRE = regexp.MustCompile(`\b(p\d+(?:_[a-z]+)?)/`)

// The package qualifiers and the numbers of the names of the generator
// in gadgen's diagnostics ("call of p15_grad.cat0"), which are left out
// of the constructs of refusals so that they group.
var (
	tpkgRE     = regexp.MustCompile(`(?:difftest\.local/tbatch/)?\bp\d+(?:_[a-z]+)?\.`)
	tgenNameRE = regexp.MustCompile(`\b(h|head|split|pair|sum|mix|cat|dense|denseP|apply|applyP|step|stepState|next|block|run|runP|runStack|runStackP|t|ps|acc|ls|l|st|sk|cv|W|Ws|Ls)\d+\b`)
)

func (b *tbatch) gadgen() error {
	var patterns []string
	for _, tp := range b.progs {
		for _, m := range tp.modes {
			patterns = append(patterns, "./"+tp.dir+"_"+m)
		}
	}
	start := time.Now()
	stderr, err := runGadgen(b.dir, patterns, b.cfg)
	if err != nil {
		return err
	}
	if b.cfg.Log != nil {
		fmt.Fprintf(b.cfg.Log, "difftest: gadgen on %d tensor programs: %.1fs\n", len(b.progs), time.Since(start).Seconds())
	}
	for _, tp := range b.progs {
		for _, m := range tp.modes {
			if _, err := os.Stat(filepath.Join(b.dir, tp.dir+"_"+m, "prog_grad.go")); err == nil {
				tp.written[m] = true
			}
		}
	}
	sc := bufio.NewScanner(stderr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || isWarning(line) {
			continue
		}
		var tp *tprog
		var mode string
		if m := tdirNameRE.FindStringSubmatch(line); m != nil {
			tp, mode = b.byDir(m[1])
		}
		if dm := diagLineRE.FindStringSubmatch(line); dm != nil && tp != nil && mode != "" {
			construct, msg := splitDiagnostic(dm[4])
			if tp.written[mode] {
				b.record(tp, mode, Fail, "diagnostic with output", line, 0)
			} else {
				kind := oneLine(tgenNameRE.ReplaceAllString(tpkgRE.ReplaceAllString(construct+": "+msg, ""), "$1"))
				if r := []rune(kind); len(r) > 90 {
					kind = string(r[:90]) + "…"
				}
				b.record(tp, mode, Refused, kind, line, 0)
			}
			continue
		}
		kind := "unpositioned"
		if internalLineRE.MatchString(line) {
			kind = "internal"
		}
		if tp != nil && mode != "" {
			if !tp.written[mode] {
				b.record(tp, mode, Fail, kind, line, 0)
			}
			continue
		}
		// Not attributable: every mode not written fails.
		for _, tp := range b.progs {
			for _, m := range tp.modes {
				if !tp.written[m] {
					b.record(tp, m, Fail, kind, line, 0)
				}
			}
		}
	}
	for _, tp := range b.progs {
		for _, m := range tp.modes {
			if !tp.written[m] {
				b.record(tp, m, Fail, "no output", "gadgen wrote no file and said nothing about it", 0)
			}
		}
	}
	return nil
}

func (b *tbatch) goCmd(timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = b.dir
	cmd.Env = env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// vet runs go vet on the packages and fails the modes whose package
// does not compile or vet.
func (b *tbatch) vet() error {
	out, err := b.goCmd(10*time.Minute, "vet", "./...")
	if err == nil {
		return nil
	}
	if _, ok := err.(*exec.ExitError); !ok {
		return fmt.Errorf("difftest: go vet: %v\n%s", err, out)
	}
	cur := ""
	bad := 0
	for l := range strings.SplitSeq(out, "\n") {
		if pkg, ok := strings.CutPrefix(l, "# "); ok {
			cur = strings.TrimPrefix(pkg, tbatchModule+"/")
			continue
		}
		d := cur
		if m := tdirNameRE.FindStringSubmatch(l); m != nil {
			d = m[1]
		}
		tp, mode := b.byDir(d)
		if tp == nil || strings.TrimSpace(l) == "" {
			continue
		}
		bad++
		if mode == "" {
			tp.dead = true
			b.recordAll(tp, Tester, "program", "the program does not compile: "+l)
			continue
		}
		if tp.written[mode] {
			tp.written[mode] = false
			kind := "vet"
			if isCompileError(out, l) {
				kind = "compile"
			}
			b.record(tp, mode, Fail, kind, l, 0)
		}
	}
	if bad == 0 {
		return fmt.Errorf("difftest: go vet failed on no program's package:\n%s", out)
	}
	return nil
}

// args returns the arguments of a call of F or a derivative in package
// pkg (a method's receiver first), the varied tensors from the list xs:
// shadows(i) gives the extra arguments after varied tensor i, -1 for
// the model, as lists of tensors like xs. A nil list of shadows is nil
// tensors, and a Model{} for the model (nil fields and slices: the
// derivative must grow them).
func (tp *tprog) args(pkg string, xs string, shadows func(i int) []string) []string {
	var a []string
	vi, fi := 0, 0
	for _, q := range tp.params {
		switch q.kind {
		case "model", "modelval":
			a = append(a, tp.modelExpr(pkg, xs))
			for _, s := range shadows(-1) {
				typ := pkg + ".Model"
				if tp.params[0].kind == "model" {
					typ = "*" + typ
				}
				a = append(a, fmt.Sprintf("tharness.Or(%s, func() %s { return %s }, %s)", s, typ, tp.modelExpr(pkg, s), tp.modelExpr(pkg, "")))
			}
		case "float":
			a = append(a, strconv.FormatFloat(q.value, 'g', -1, 64))
		case "tensor":
			a = append(a, fmt.Sprintf("%s[%d]", xs, vi))
			for _, s := range shadows(vi) {
				a = append(a, fmt.Sprintf("tharness.At(%s, %d)", s, vi))
			}
			vi++
		default:
			a = append(a, fmt.Sprintf("fx[%d]", fi))
			fi++
		}
	}
	return a
}

// modelExpr builds the model of package pkg from the flat list xs (an
// empty one for ""): a *Model or a Model, as F takes it.
func (tp *tprog) modelExpr(pkg, xs string) string {
	var fields []string
	if xs != "" {
		fields = tp.modelFields(pkg, xs)
	}
	lit := fmt.Sprintf("%s.Model{%s}", pkg, strings.Join(fields, ", "))
	if tp.params[0].kind == "model" {
		return "&" + lit
	}
	return lit
}

// modelFields returns the fields of a Model literal of package pkg from
// the flat list xs.
func (tp *tprog) modelFields(pkg, xs string) []string {
	var f []string
	i := 0
	next := func() string {
		i++
		return fmt.Sprintf("%s[%d]", xs, i-1)
	}
	for _, q := range tp.fields {
		var e []string
		switch q.kind {
		case "slice":
			for range q.n {
				e = append(e, next())
			}
			f = append(f, fmt.Sprintf("%s: []*T{%s}", q.name, strings.Join(e, ", ")))
		case "layers":
			for range q.n {
				e = append(e, fmt.Sprintf("{W: %s, B: %s}", next(), next()))
			}
			f = append(f, fmt.Sprintf("%s: []%s.Layer{%s}", q.name, pkg, strings.Join(e, ", ")))
		default:
			f = append(f, fmt.Sprintf("%s: %s", q.name, next()))
		}
	}
	return f
}

// modelTensors returns the model's tensors, flattened, of the Model m.
func (tp *tprog) modelTensors(m string) []string {
	var out []string
	for _, q := range tp.fields {
		switch q.kind {
		case "slice":
			for j := range q.n {
				out = append(out, fmt.Sprintf("%s.%s[%d]", m, q.name, j))
			}
		case "layers":
			for j := range q.n {
				out = append(out, fmt.Sprintf("%s.%s[%d].W", m, q.name, j), fmt.Sprintf("%s.%s[%d].B", m, q.name, j))
			}
		default:
			out = append(out, m+"."+q.name)
		}
	}
	return out
}

// tensorsOf returns the list of the varied tensors of v, a value of the
// varied parameter's type that a second-order helper returns: the
// model's tensors, or the one tensor.
func (tp *tprog) tensorsOf(v string) string {
	if tp.model() {
		return "[]*T{" + strings.Join(tp.modelTensors(v), ", ") + "}"
	}
	return "[]*T{" + v + "}"
}

// sig is the signature of a generated function: the names of its
// parameters (pointer: of a pointer type) and results.
type sig struct {
	params  []string
	pointer map[string]bool
	results []string
}

// readSig reads the signature of the function or method name in the
// generated file path.
func readSig(path, name string) (*sig, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name {
			continue
		}
		s := &sig{pointer: map[string]bool{}}
		for _, fl := range fd.Type.Params.List {
			for _, n := range fl.Names {
				s.params = append(s.params, n.Name)
				_, s.pointer[n.Name] = fl.Type.(*ast.StarExpr)
			}
		}
		if fd.Type.Results != nil {
			for _, fl := range fd.Type.Results.List {
				for _, n := range fl.Names {
					s.results = append(s.results, n.Name)
				}
				if len(fl.Names) == 0 {
					s.results = append(s.results, "")
				}
			}
		}
		return s, nil
	}
	return nil, fmt.Errorf("no function %s in %s", name, path)
}

// gradSource returns the Grad adapter of the gradient whose generated
// signature is s, and which varied tensors its shadow argument
// accumulates. The gradients of the model's fields go into its shadow
// mBar when FGrad takes one (a *Model, as for a struct by pointer), or
// are returned in mBar; those of tensor parameters are returned. A nil
// init gives the gradient a shadow &Model{}: nil fields and slices,
// which it must grow.
func (tp *tprog) gradSource(pkg string, s *sig) (string, []bool, error) {
	none := func(int) []string { return nil }
	primal := tp.args(pkg, "xs", none)
	byName := map[string]string{}
	m := ""
	var tensors []string // the varied tensor parameters
	for i, q := range tp.params {
		if q.kind == "model" || q.kind == "modelval" {
			m = q.name
		}
		if q.kind == "tensor" {
			tensors = append(tensors, q.name)
		}
		byName[q.name] = primal[i]
	}
	var bars []string
	var accum []bool
	nf := len(tp.modelTensors("bar"))
	var pre []string
	var args []string
	shadowArg := false
	for _, name := range s.params {
		switch {
		case m != "" && name == m+"Bar":
			// A shadow of nil fields and slices, which the gradient
			// grows (no pre-sizing), or of the tensors of init.
			shadowArg = true
			pre = append(pre, fmt.Sprintf("bar := &%s.Model{}", pkg),
				fmt.Sprintf("if init != nil {\n\t\t\tbar = &%s.Model{%s}\n\t\t}", pkg, strings.Join(tp.modelFields(pkg, "init"), ", ")))
			if s.pointer[name] {
				args = append(args, "bar")
			} else {
				args = append(args, "*bar")
			}
		case byName[name] != "":
			args = append(args, byName[name])
		default:
			return "", nil, fmt.Errorf("FGrad's parameter %s is none of F's or the model's shadow", name)
		}
	}
	if tp.params[0].recv {
		args = append([]string{byName[m]}, args...)
	}
	rs := make([]string, len(s.results))
	res := map[string]string{}
	for i, r := range s.results {
		rs[i] = fmt.Sprintf("r%d", i)
		res[r] = rs[i]
	}
	if len(rs) == 0 {
		return "", nil, fmt.Errorf("FGrad returns nothing")
	}
	if m != "" {
		switch {
		case shadowArg:
			bars = tp.modelTensors("bar")
			for range nf {
				accum = append(accum, s.pointer[m+"Bar"])
			}
		case res[m+"Bar"] != "":
			bars = tp.modelTensors(res[m+"Bar"])
			accum = make([]bool, nf)
		default:
			return "", nil, fmt.Errorf("FGrad has no shadow of %s", m)
		}
	}
	for _, x := range tensors {
		r := res[x+"Bar"]
		if r == "" {
			return "", nil, fmt.Errorf("FGrad returns no %sBar", x)
		}
		bars = append(bars, r)
		accum = append(accum, false)
	}
	var b strings.Builder
	b.WriteString("func(xs, init, fx []*T) (float64, []*T) {\n")
	for _, l := range pre {
		b.WriteString("\t\t" + l + "\n")
	}
	fmt.Fprintf(&b, "\t\t%s := %s\n\t\treturn r0, []*T{%s}\n\t}", strings.Join(rs, ", "), tp.call(pkg, "FGrad", args), strings.Join(bars, ", "))
	return b.String(), accum, nil
}

// caseSource returns the tharness.Case literal of a program, after
// gadgen: an error says that a generated signature is not what the
// harness expects.
func (tp *tprog) caseSource(dir string) (string, error) {
	var b strings.Builder
	none := func(int) []string { return nil }
	fmt.Fprintf(&b, "{\n\tName: %q,\n", tp.p.Name)
	var shapes, fixed, labels []string
	addShape := func(s []int) { shapes = append(shapes, fmt.Sprintf("{%s}", dimsString(s))) }
	if tp.model() {
		for _, q := range tp.fields {
			for range max(q.n, 1) {
				addShape(q.shape)
				if q.kind == "layers" {
					addShape(q.shape[1:])
				}
			}
		}
	}
	for _, q := range tp.params {
		switch q.kind {
		case "tensor":
			addShape(q.shape)
		case "fixed", "labels":
			fixed = append(fixed, fmt.Sprintf("{%s}", dimsString(q.shape)))
			labels = append(labels, strconv.FormatBool(q.kind == "labels"))
		}
	}
	fmt.Fprintf(&b, "\tShapes: [][]int{%s},\n\tFixed: [][]int{%s},\n\tLabels: []bool{%s},\n",
		strings.Join(shapes, ", "), strings.Join(fixed, ", "), strings.Join(labels, ", "))
	fmt.Fprintf(&b, "\tF: func(xs, fx []*T) float64 { return %s },\n", tp.call(tp.dir, "F", tp.args(tp.dir, "xs", none)))
	for _, m := range tp.modes {
		if !tp.written[m] {
			continue
		}
		pkg := tp.dir + "_" + m
		switch m {
		case ModeJVP:
			fmt.Fprintf(&b, "\tJVP: func(xs, dxs, fx []*T) (float64, float64) { return %s },\n",
				tp.call(pkg, "FJVP", tp.args(pkg, "xs", func(int) []string { return []string{"dxs"} })))
		case ModeTaylor:
			fmt.Fprintf(&b, "\tTaylor: func(xs, x1, x2, x3, fx []*T) [4]float64 {\n\t\ta, b, c, d := %s\n\t\treturn [4]float64{a, b, c, d}\n\t},\n",
				tp.call(pkg, "FTaylor", tp.args(pkg, "xs", func(int) []string { return []string{"x1", "x2", "x3"} })))
		case ModeHVP, ModeHVPStacked:
			field := map[string]string{ModeHVP: "HVP", ModeHVPStacked: "HVPStacked"}[m]
			fmt.Fprintf(&b, "\t%s: func(xs, vs, fx []*T) (float64, []*T) {\n\t\tf, hv := %s\n\t\treturn f, %s\n\t},\n",
				field, tp.call(pkg, "FHVP", tp.args(pkg, "xs", func(int) []string { return []string{"vs"} })), tp.tensorsOf("hv"))
		case ModeTaylorLanes:
			// The coefficients in their slots, degree by degree,
			// lane-minor: cs[(k-1)·L + l].
			var cs, rs []string
			for i := range 3 * TensorLanes {
				cs = append(cs, fmt.Sprintf("cs[%d]", i))
			}
			for i := range 1 + 3*TensorLanes {
				rs = append(rs, fmt.Sprintf("r[%d]", i))
			}
			fmt.Fprintf(&b, "\tTaylorLanes: func(xs []*T, cs [][]*T, fx []*T) []float64 {\n\t\tr := make([]float64, %d)\n\t\t%s = %s\n\t\treturn r\n\t},\n",
				len(rs), strings.Join(rs, ", "), tp.call(pkg, "FTaylor", tp.args(pkg, "xs", func(int) []string { return cs })))
		case ModeHVPLanes:
			var vs, hs []string
			for l := range TensorLanes {
				vs, hs = append(vs, fmt.Sprintf("vs[%d]", l)), append(hs, fmt.Sprintf("h%d", l))
			}
			var lists []string
			for _, h := range hs {
				lists = append(lists, tp.tensorsOf(h))
			}
			fmt.Fprintf(&b, "\tHVPLanes: func(xs []*T, vs [][]*T, fx []*T) (float64, [][]*T) {\n\t\tf, %s := %s\n\t\treturn f, [][]*T{%s}\n\t},\n",
				strings.Join(hs, ", "), tp.call(pkg, "FHVP", tp.args(pkg, "xs", func(int) []string { return vs })), strings.Join(lists, ", "))
		case ModeHessian:
			fmt.Fprintf(&b, "\tHessian: func(xs, fx []*T) (float64, *T) { return %s },\n", tp.call(pkg, "FHessian", tp.args(pkg, "xs", none)))
		case ModeHessDiag:
			fmt.Fprintf(&b, "\tHessDiag: func(xs, fx []*T) (float64, []*T) {\n\t\tf, d := %s\n\t\treturn f, %s\n\t},\n",
				tp.call(pkg, "FHessDiag", tp.args(pkg, "xs", none)), tp.tensorsOf("d"))
		case ModeLaplacian:
			fmt.Fprintf(&b, "\tLaplacian: func(xs, fx []*T) (float64, float64) { return %s },\n", tp.call(pkg, "FLaplacian", tp.args(pkg, "xs", none)))
		case ModeGrad:
			s, err := readSig(filepath.Join(dir, pkg, "prog_grad.go"), "FGrad")
			if err != nil {
				return "", err
			}
			src, accum, err := tp.gradSource(pkg, s)
			if err != nil {
				return "", err
			}
			var acc []string
			for _, a := range accum {
				acc = append(acc, strconv.FormatBool(a))
			}
			fmt.Fprintf(&b, "\tGrad: %s,\n\tAccum: []bool{%s},\n", src, strings.Join(acc, ", "))
		}
	}
	b.WriteString("}")
	return b.String(), nil
}

// check writes the main program, builds and runs it, and records its
// results.
func (b *tbatch) check() error {
	var imports, cases []string
	imports = append(imports, fmt.Sprintf("%q", tbatchModule+"/tharness"))
	for _, tp := range b.progs {
		if tp.dead {
			continue
		}
		src, err := tp.caseSource(b.dir)
		if err != nil {
			// The harness cannot call the gradient: a failure of grad.
			tp.written[ModeGrad] = false
			b.record(tp, ModeGrad, Fail, "signature", err.Error(), 0)
			if src, err = tp.caseSource(b.dir); err != nil {
				return err
			}
		}
		imports = append(imports, fmt.Sprintf("%q", tbatchModule+"/"+tp.dir))
		for _, m := range tp.modes {
			if tp.written[m] {
				imports = append(imports, fmt.Sprintf("%q", tbatchModule+"/"+tp.dir+"_"+m))
			}
		}
		cases = append(cases, src)
	}
	src := fmt.Sprintf("package main\n\nimport (\n%s\n)\n\ntype T = tharness.T\n\nvar cases = []*tharness.Case{\n%s,\n}\n\nfunc main() { tharness.Run(cases, %d, %d) }\n",
		strings.Join(imports, "\n"), strings.Join(cases, ",\n"), b.cfg.Points, b.cfg.Seed)
	if f, err := formatSource([]byte(src)); err == nil {
		src = string(f)
	}
	if err := writeFile(filepath.Join(b.dir, "main", "main.go"), []byte(src)); err != nil {
		return err
	}
	if out, err := b.goCmd(10*time.Minute, "build", "-o", "check", "./main"); err != nil {
		return fmt.Errorf("difftest: the tensor harness does not build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(b.dir, "check"))
	cmd.Dir = b.dir
	// Released temporaries filled with NaN (tensorops.Release): a read
	// after a release shows as a mismatch.
	cmd.Env = append(os.Environ(), "GADGEN_RELEASE_POISON=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	byName := map[string]*tprog{}
	for _, tp := range b.progs {
		byName[tp.p.Name] = tp
	}
	for l := range strings.SplitSeq(string(out), "\n") {
		if l == "" {
			continue
		}
		var r struct {
			Case, Mode, Status, Kind, Detail string
			Checks                           int
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			return fmt.Errorf("difftest: tensor harness output %q: %v", l, err)
		}
		tp := byName[r.Case]
		if tp == nil {
			continue
		}
		st, ok := map[string]Status{"pass": Pass, "fail": Fail, "skip": Skipped}[r.Status]
		if !ok {
			// Status's zero value is Pass: an unknown status must not
			// read as one.
			return fmt.Errorf("difftest: tensor harness output %q: unknown status %q", l, r.Status)
		}
		b.record(tp, r.Mode, st, r.Kind, r.Detail, r.Checks)
	}
	for _, tp := range b.progs {
		if !tp.dead {
			b.recordAll(tp, Fail, "crash", fmt.Sprintf("the harness stopped (%v) before this program: %s", runErr, lastLines(stderr.String(), 5)))
		}
	}
	return nil
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], "\n")
}

// RunTensors generates and checks rc.N tensor programs of seed rc.Seed,
// with the weights rc.Weights (nil: DefaultTensorWeights), and returns
// the summary and the files of the minimized failures and refusals of
// supported constructs (Summary.Unexpected) it wrote (with rc.Shrink:
// up to rc.ShrinkMax per mode and kind).
func RunTensors(rc *RunConfig) (*Summary, []string, error) {
	if rc.BatchSize <= 0 {
		rc.BatchSize = 100
	}
	if rc.ShrinkMax <= 0 {
		rc.ShrinkMax = 2
	}
	var written []string
	shrunk := map[string]int{}
	w := rc.Weights
	if w == nil {
		w = DefaultTensorWeights()
	}
	s := &Summary{ModeList: TensorModes, Base: TModeValue}
	end := rc.First + rc.N
	for start := rc.First; start < end; start += rc.BatchSize {
		var progs []*Program
		for i := start; i < min(start+rc.BatchSize, end); i++ {
			progs = append(progs, GenerateTensorWith(rc.Seed, i, w))
		}
		t0 := time.Now()
		outs, err := RunTensorBatch(&rc.Config, progs)
		if err != nil {
			return s, written, err
		}
		s.Add(outs)
		for _, o := range outs {
			if o.Status == Refused && len(Unsupported(o.Program.Features, o.Mode)) == 0 {
				s.Unexpected = append(s.Unexpected, o)
			}
		}
		if rc.Log != nil {
			fmt.Fprintf(rc.Log, "difftest: tensor programs %d–%d of seed %d: %.0fs, %d failures so far\n",
				start, start+len(progs)-1, rc.Seed, time.Since(t0).Seconds(), len(s.Failures))
		}
		if !rc.Shrink {
			continue
		}
		for _, o := range outs {
			if o.Status != Fail && (o.Status != Refused || len(Unsupported(o.Program.Features, o.Mode)) > 0) {
				continue
			}
			key := o.Mode + " " + o.Status.String() + " " + TensorCategory(o)
			if shrunk[key] >= rc.ShrinkMax {
				continue
			}
			shrunk[key]++
			path, err := rc.minimize(ShrinkTensor, o)
			if err != nil {
				return s, written, err
			}
			written = append(written, path)
		}
	}
	return s, written, nil
}

// tensorCase reports whether a file of testdata holds a tensor program.
func tensorCase(src []byte) bool { return bytes.Contains(src, []byte("\n//difftest:param ")) }
