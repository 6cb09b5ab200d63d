package difftest

// This file defines the running of a batch of programs: a temporary
// module with one package per mode holding every program with that
// mode's directives, and the twins; gadgen run once on the mode
// packages, in process; go vet and go build once; the harness run until
// every case and mode has an outcome.

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gadgen/gadgen/driver"
)

// harnessFiles are the files of package harness, without its tests.
//
//go:embed harness/harness.go harness/second.go
var harnessFiles embed.FS

//go:embed cmath/cmath.go
var cmathSrc []byte

// batchModule is the module path of a batch.
const batchModule = "difftest.local/batch"

// modeDirs maps each mode to the package of the batch that holds its
// directives: grad and vjp share one, the second-order helpers another;
// the jets with lanes have packages of their own, since they have the
// names of the jets without.
var modeDirs = map[string]string{ModeJVP: "jvp", ModeGrad: "rev", ModeVJP: "rev", ModeTaylor: "taylor", ModeLine: "line",
	ModeTaylorLanes: "tlanes", ModeLineLanes: "llanes",
	ModeHVP: "second", ModeHessian: "second", ModeHessDiag: "second", ModeLaplacian: "second"}

// dirOrder lists the mode packages.
var dirOrder = []string{"jvp", "rev", "taylor", "line", "tlanes", "llanes", "second"}

// Config says how to run batches.
type Config struct {
	// Root is the repository root, for the module's replace directive;
	// "" finds it from the working directory.
	Root string
	// TempDir holds the batch modules ("" means os.TempDir).
	TempDir string
	// Keep leaves the batch modules on disk.
	Keep bool
	// Points is the number of random points per case (default 2) and
	// Seed seeds them.
	Points int
	Seed   uint64
	// Timeout bounds one derivative call (default 2s); GadgenTimeout
	// one run of gadgen (default 10m).
	Timeout, GadgenTimeout time.Duration
	// Log receives progress lines; nil means none.
	Log io.Writer
	// Reversal forces how reverse mode differentiates calls (gadgen's
	// -reversal: "joint", "split" or "inline"; "" chooses per call site), so
	// that each strategy is checked against the other modes.
	Reversal string
}

// Status is the outcome of one mode of one entry.
type Status int

const (
	Pass    Status = iota // checked, every check held
	Refused               // gadgen reported a positioned diagnostic
	Skipped               // not checked: outputs not finite, …
	Fail                  // a wrong number, a crash, a hang, bad output
	Tester                // a problem of the tester: the twin, the program
)

func (s Status) String() string {
	return [...]string{"pass", "refused", "skipped", "FAIL", "tester"}[s]
}

// Outcome is the result of one mode of one entry of a program.
type Outcome struct {
	Program *Program
	Entry   string // Entry.Key, as in the program's source
	Mode    string // a Mode*, or "twin"
	Status  Status
	// Kind is the construct of a refusal, the kind of a failure ("jvp",
	// "dot", "hang", "internal", "compile", …) or the reason of a skip.
	Kind   string
	Detail string
	Checks int
	// Route says how gadgen computed an HVP or a Hessian: "forward over
	// reverse", or "jets" with the reason the HVP's doc comment gives.
	Route string
}

func (o Outcome) String() string {
	s := fmt.Sprintf("%s %s %s: %s", o.Program.Name, o.Entry, o.Mode, o.Status)
	if o.Kind != "" {
		s += " " + o.Kind
	}
	if o.Detail != "" {
		s += ": " + o.Detail
	}
	return s
}

// batch is one batch being run.
type batch struct {
	cfg   *Config
	dir   string
	progs []*bprog
	out   []Outcome
	// byFunc maps the names of declared functions (after renaming) to
	// their program.
	byFunc map[string]*bprog
}

// bprog is a program in a batch.
type bprog struct {
	p       *Program
	file    string // base name of its files, without .go
	suffix  string // appended to its function names
	entries []Entry
	// written holds, by mode package, whether gadgen wrote its file.
	written map[string]bool
	// directives holds, by mode package, the directive of each line of
	// the program's file there (nil if unknown).
	directives map[string]map[int]directive
	// dead: left out of the harness (its twin or source is broken).
	dead bool
	// decided holds the (entry key, mode) pairs already decided.
	decided map[string]bool
	// routes holds the Outcome.Route of the (entry key, mode) pairs.
	routes map[string]string
	// refs holds, by mode package, the source of the reference
	// derivatives left out of the program's file there, which gadgen
	// must write (see dropReferences).
	refs map[string][]byte
}

func (bp *bprog) key(e Entry) string { return e.Key() + bp.suffix }

func (b *batch) logf(format string, args ...any) {
	if b.cfg.Log != nil {
		fmt.Fprintf(b.cfg.Log, format+"\n", args...)
	}
}

// record adds an outcome unless one is already recorded for the entry
// and mode.
func (b *batch) record(bp *bprog, entry, mode string, st Status, kind, detail string, checks int) {
	k := entry + " " + mode
	if bp.decided[k] {
		return
	}
	bp.decided[k] = true
	b.out = append(b.out, Outcome{Program: bp.p, Entry: entry, Mode: mode, Status: st, Kind: kind, Detail: detail, Checks: checks})
}

// recordAll records an outcome for every entry of bp in a mode package
// (all modes when dir is "").
func (b *batch) recordAll(bp *bprog, dir string, st Status, kind, detail string) {
	for _, e := range bp.entries {
		for _, m := range e.Modes {
			if dir == "" || modeDirs[m] == dir {
				b.record(bp, e.Key(), m, st, kind, detail, 0)
			}
		}
	}
}

// RunBatch checks the programs and returns an outcome for every mode of
// every entry. The error reports a problem of the tester or of the
// machine (a go command that cannot run), not of gadgen.
func RunBatch(cfg *Config, progs []*Program) ([]Outcome, error) {
	b := &batch{cfg: cfg, byFunc: map[string]*bprog{}}
	if cfg.Points <= 0 {
		cfg.Points = 2
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Second
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
	dir, err := os.MkdirTemp(cfg.TempDir, "difftest-")
	if err != nil {
		return nil, err
	}
	b.dir = dir
	if !cfg.Keep {
		defer os.RemoveAll(dir)
	} else {
		b.logf("difftest: batch in %s", dir)
	}
	if err := b.write(root, progs); err != nil {
		return nil, err
	}
	if err := b.gadgen(); err != nil {
		return nil, err
	}
	if err := b.build(); err != nil {
		return nil, err
	}
	if err := b.check(); err != nil {
		return nil, err
	}
	for _, bp := range b.progs {
		if !bp.dead {
			b.recordAll(bp, "", Fail, "no outcome", "the harness reported nothing")
		}
	}
	for i, o := range b.out {
		if bp := b.byProgram(o.Program); bp != nil {
			b.out[i].Route = bp.routes[o.Entry+" "+o.Mode]
		}
	}
	return b.out, nil
}

func (b *batch) byProgram(p *Program) *bprog {
	for _, bp := range b.progs {
		if bp.p == p {
			return bp
		}
	}
	return nil
}

// Phrases of the doc comments of the HVP and the Hessian that say how
// they are computed.
var (
	fwdRevRE = regexp.MustCompile(`by forward mode over reverse mode`)
	jetsRE   = regexp.MustCompile(`f2\(`)
	whyRE    = regexp.MustCompile(`\(Not by forward over reverse: ([^\n]*)\.\)`)
)

// findRoutes records how gadgen computed the HVPs and Hessians of bp,
// from the doc comments of src, its file in package second.
func (b *batch) findRoutes(bp *bprog, src []byte) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Doc == nil {
			continue
		}
		for _, e := range bp.entries {
			for _, m := range []struct{ mode, suffix string }{{ModeHVP, "HVP"}, {ModeHessian, "Hessian"}} {
				if fd.Name.Name != e.Name+bp.suffix+m.suffix {
					continue
				}
				doc := fd.Doc.Text()
				route := "unknown"
				switch {
				case fwdRevRE.MatchString(doc):
					route = "forward over reverse"
				case jetsRE.MatchString(doc):
					route = "jets"
					if w := whyRE.FindStringSubmatch(doc); w != nil {
						route += ": " + strings.Join(strings.Fields(w[1]), " ")
					}
				}
				bp.routes[e.Key()+" "+m.mode] = route
			}
		}
	}
}

// RepoRoot returns the root of the gadgen repository that holds the
// working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/gadgen/gadgen\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("difftest: not inside the gadgen repository")
		}
		dir = parent
	}
}

func writeFile(path string, src []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	return os.WriteFile(path, src, 0o666)
}

var fileNameRE = regexp.MustCompile(`[^a-zA-Z0-9]+`)

// write writes the module of the batch.
func (b *batch) write(root string, progs []*Program) error {
	goVersion := "1.26.0"
	if gm, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
		if m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gm); m != nil {
			goVersion = string(m[1])
		}
	}
	gomod := fmt.Sprintf("module %s\n\ngo %s\n\nreplace github.com/gadgen/gadgen => %s\n", batchModule, goVersion, root)
	if err := writeFile(filepath.Join(b.dir, "go.mod"), []byte(gomod)); err != nil {
		return err
	}
	for _, name := range []string{"harness.go", "second.go"} {
		src, err := harnessFiles.ReadFile("harness/" + name)
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(b.dir, "harness", name), src); err != nil {
			return err
		}
	}
	if err := writeFile(filepath.Join(b.dir, "cmath", "cmath.go"), cmathSrc); err != nil {
		return err
	}
	// The shared types, in each package; the twin's converted.
	for _, d := range dirOrder {
		if err := writeFile(filepath.Join(b.dir, d, "shared.go"), []byte(strings.Replace(sharedSrc, "package p", "package "+d, 1))); err != nil {
			return err
		}
	}
	sp, err := parse([]byte("package p\n"))
	if err != nil {
		return err
	}
	if err := sp.twinFile(sp.shared, batchModule+"/cmath"); err != nil {
		return err
	}
	sp.shared.Name.Name = "twin"
	if err := writeFile(filepath.Join(b.dir, "twin", "shared.go"), formatFile(sp.fset, sp.shared)); err != nil {
		return err
	}

	names := map[string]bool{}
	files := map[string]bool{}
	for k, p := range progs {
		bp := &bprog{p: p, written: map[string]bool{}, directives: map[string]map[int]directive{}, decided: map[string]bool{}, routes: map[string]string{}, refs: map[string][]byte{}}
		b.progs = append(b.progs, bp)
		bp.file = strings.ToLower(fileNameRE.ReplaceAllString(p.Name, "_"))
		if files[bp.file] || strings.HasSuffix(bp.file, "_test") || strings.HasSuffix(bp.file, "_grad") || bp.file == "shared" {
			bp.file = fmt.Sprintf("%s_%d", bp.file, k)
		}
		files[bp.file] = true
		pp, err := parse(p.Src)
		if err != nil {
			b.record(bp, "", "twin", Tester, "program", err.Error(), 0)
			bp.dead = true
			continue
		}
		if bp.entries, err = pp.entries(); err != nil {
			b.record(bp, "", "twin", Tester, "program", err.Error(), 0)
			bp.dead = true
			continue
		}
		// Rename the functions of a program whose names another has.
		declared := pp.declaredFuncs()
		if slices.ContainsFunc(declared, func(n string) bool { return names[n] }) {
			bp.suffix = fmt.Sprintf("_%d", k)
		}
		for _, n := range declared {
			names[n+bp.suffix] = true
			b.byFunc[n+bp.suffix] = bp
		}
		for _, d := range dirOrder {
			// The modes of each entry in d, by the entry's key after
			// renaming.
			want, entries := map[string][]string{}, map[string]Entry{}
			for _, e := range bp.entries {
				key := e.Key() + bp.suffix
				for _, m := range e.Modes {
					if modeDirs[m] == d {
						want[key] = append(want[key], m)
						entries[key] = e
					}
				}
			}
			if len(want) == 0 && d != "jvp" {
				continue // but jvp holds every program: the harness calls F there
			}
			pp, _ := parse(p.Src)
			pp.rename(bp.suffix)
			if refs := pp.dropReferences(); refs != nil {
				bp.refs[d] = refs
			}
			src, lines := pp.withDirectives(d, want, entries)
			if err := writeFile(filepath.Join(b.dir, d, bp.file+".go"), src); err != nil {
				return err
			}
			if len(want) > 0 {
				bp.written[d] = false
				bp.directives[d] = lines
			}
		}
		tp, _ := parse(p.Src)
		tp.rename(bp.suffix)
		if err := tp.check(); err != nil {
			return fmt.Errorf("difftest: %s after renaming: %v", p.Name, err)
		}
		if err := tp.twinFile(tp.file, batchModule+"/cmath"); err != nil {
			b.record(bp, "", "twin", Tester, "twin", err.Error(), 0)
			bp.dead = true
			b.removeProgram(bp)
			continue
		}
		tp.file.Name.Name = "twin"
		if err := writeFile(filepath.Join(b.dir, "twin", bp.file+".go"), formatFile(tp.fset, tp.file)); err != nil {
			return err
		}
	}
	return nil
}

// declaredFuncs returns the names of the functions, methods and types
// of the program.
func (p *parsed) declaredFuncs() []string {
	var names []string
	for _, d := range p.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			names = append(names, d.Name.Name)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					names = append(names, ts.Name.Name)
				}
			}
		}
	}
	return names
}

// env returns the environment of the go commands.
func env() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")
}

// Lines of gadgen's output.
var (
	diagLineRE     = regexp.MustCompile(`^(.+?\.go):(\d+):(\d+): gadgen: (.*)$`)
	internalLineRE = regexp.MustCompile(`^gadgen: internal error in (\S+)(?: on (\S+))?: (.*)$`)
	cannotRE       = regexp.MustCompile(`^cannot differentiate (\S+): (?:([^:]+): )?(.*)$`)
)

// gadgen runs gadgen on the mode packages and records what it refused
// and how it failed.
func (b *batch) gadgen() error {
	var patterns []string
	for _, d := range dirOrder {
		if _, err := os.Stat(filepath.Join(b.dir, d)); err == nil {
			patterns = append(patterns, "./"+d)
		}
	}
	start := time.Now()
	stderr, err := runGadgen(b.dir, patterns, b.cfg)
	if err != nil {
		return err
	}
	b.logf("difftest: gadgen on %d programs: %.1fs", len(b.progs), time.Since(start).Seconds())
	b.checkWritten()
	if err := b.standInForMissing(); err != nil {
		return err
	}
	refusals, err := b.readDiagnostics(stderr)
	if err != nil {
		return err
	}
	b.recordRefusals(refusals)
	b.failUnwritten(func(*bprog, string) bool { return true }, "no output", "gadgen wrote no file and said nothing about it")
	return nil
}

// checkWritten marks the files gadgen wrote, and records as failures those
// that are not well formed.
func (b *batch) checkWritten() {
	for _, bp := range b.progs {
		for d := range bp.written {
			path := filepath.Join(b.dir, d, bp.file+"_grad.go")
			src, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			bp.written[d] = true
			if problem := checkGenerated(src); problem != "" {
				b.recordAll(bp, d, Fail, "output", problem)
			}
			if d == "second" {
				b.findRoutes(bp, src)
			}
		}
	}
}

// standInForMissing appends to each program whose generated file gadgen
// did not write the references that stand for the derivatives it calls,
// so that the package builds (the entries there are refused or failed
// already).
func (b *batch) standInForMissing() error {
	for _, bp := range b.progs {
		for d, refs := range bp.refs {
			if _, err := os.Stat(filepath.Join(b.dir, d, bp.file+"_grad.go")); err == nil {
				continue
			}
			path := filepath.Join(b.dir, d, bp.file+".go")
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if err := writeFile(path, append(src, refs...)); err != nil {
				return err
			}
		}
	}
	return nil
}

// refusal is a positioned diagnostic of gadgen's: where (the program, its
// mode directory and line), the construct refused and the message.
type refusal struct {
	bp                       *bprog
	dir                      string
	line                     int
	construct, msg, position string
}

// readDiagnostics reads gadgen's standard error: it returns the refusals,
// and records the diagnostics of written files, the internal errors and
// the unpositioned lines as failures.
func (b *batch) readDiagnostics(stderr io.Reader) ([]refusal, error) {
	var refusals []refusal
	sc := bufio.NewScanner(stderr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch m, mi := diagLineRE.FindStringSubmatch(line), internalLineRE.FindStringSubmatch(line); {
		case isWarning(line) || strings.TrimSpace(line) == "":
		case m != nil:
			r, err := b.diagnostic(m, line)
			if err != nil {
				return nil, err
			}
			if r != nil {
				refusals = append(refusals, *r)
			}
		case mi != nil:
			b.internalError(mi, line)
		default:
			b.unpositioned(line)
		}
	}
	return refusals, nil
}

// splitDiagnostic splits the text of a diagnostic (after "gadgen: ")
// into the construct it names ("(none)" if none) and the message.
func splitDiagnostic(text string) (construct, msg string) {
	construct, msg = "", text
	if c := cannotRE.FindStringSubmatch(text); c != nil {
		construct, msg = c[2], c[3]
	} else if c, rest, ok := strings.Cut(text, ": "); ok {
		construct, msg = c, rest
	}
	if construct == "" {
		construct = "(none)"
	}
	return construct, msg
}

// diagnostic returns the refusal that the positioned diagnostic line (m,
// diagLineRE's match) reports, or records it as a failure when gadgen
// wrote the file anyway and returns nil.
func (b *batch) diagnostic(m []string, line string) (*refusal, error) {
	d, file := filepath.Split(filepath.Clean(m[1]))
	bp := b.byFile(file)
	if bp == nil {
		return nil, fmt.Errorf("difftest: a diagnostic in a file of no program: %s", line)
	}
	construct, msg := splitDiagnostic(m[4])
	if strings.HasPrefix(construct, "parameter ") {
		construct = "parameter" // "parameter m": the name varies
	}
	if bp.written[filepath.Base(d)] {
		b.recordAll(bp, filepath.Base(d), Fail, "diagnostic with output", line)
		return nil, nil
	}
	n, _ := strconv.Atoi(m[2])
	return &refusal{bp, filepath.Base(d), n, construct, msg, line}, nil
}

// internalError records the internal error line (m, internalLineRE's
// match) as a failure of the modes of its program that gadgen did not
// write, or of every program's when it names none.
func (b *batch) internalError(m []string, line string) {
	var bp *bprog
	if strings.HasSuffix(m[2], ".go") {
		bp = b.byFile(m[2]) // a stage on a file: emit
	} else {
		fnName := m[2]
		if i := strings.LastIndex(fnName, "."); i >= 0 {
			fnName = fnName[i+1:]
		}
		bp = b.byFunc[fnName]
	}
	if bp == nil {
		bp = b.byDerived(m[2])
	}
	if bp == nil {
		b.failUnwritten(func(*bprog, string) bool { return true }, "internal", line)
		return
	}
	b.failUnwritten(func(p *bprog, d string) bool { return p == bp && stageIn(m[1], d) }, "internal", line)
}

// unpositioned records a line of gadgen's that is neither a positioned
// diagnostic nor an internal error (a diagnostic without a position, or
// noise) as a failure of the programs whose entries it names, or of
// every program when it names none.
func (b *batch) unpositioned(line string) {
	named := map[*bprog]bool{}
	for _, bp := range b.progs {
		for _, e := range bp.entries {
			if strings.Contains(line, bp.key(e)) {
				named[bp] = true
			}
		}
	}
	b.failUnwritten(func(bp *bprog, _ string) bool { return len(named) == 0 || named[bp] }, "unpositioned", line)
}

// failUnwritten records a failure (construct, msg) of each mode directory
// d of each program bp for which gadgen wrote no file and which(bp, d)
// holds.
func (b *batch) failUnwritten(which func(bp *bprog, d string) bool, construct, msg string) {
	for _, bp := range b.progs {
		for d, w := range bp.written {
			if !w && which(bp, d) {
				b.recordAll(bp, d, Fail, construct, msg)
			}
		}
	}
}

// recordRefusals records the refusals: a diagnostic at a directive refuses
// that directive's mode, one elsewhere (at the construct) every mode of
// the file; the modes of the file it does not name are lost with the file:
// gadgen writes nothing for a file whose directives fail.
func (b *batch) recordRefusals(refusals []refusal) {
	for _, r := range refusals {
		if dv, ok := r.bp.directives[r.dir][r.line]; ok {
			b.record(r.bp, strings.TrimSuffix(dv.entry, r.bp.suffix), dv.mode, Refused, r.construct, r.msg, 0)
		}
	}
	for _, r := range refusals {
		if _, ok := r.bp.directives[r.dir][r.line]; ok {
			b.recordAll(r.bp, r.dir, Refused, lostFile, r.position)
		} else {
			b.recordAll(r.bp, r.dir, Refused, r.construct, r.msg)
		}
	}
}

// lostFile is the construct of a refusal that only follows from another
// directive's refusal: gadgen wrote no file for the program's mode
// package.
const lostFile = "(another directive of the file)"

// derivedSuffixes are the suffixes of generated functions' names.
var derivedSuffixes = []string{"JVP", "Grad", "VJP", "Taylor", "HVP", "Hessian", "HessDiag", "Laplacian", "InPlace"}

// byDerived returns the program of a generated function (FGradJVP,
// which a second-order helper calls): its name is a declared function's
// with suffixes.
func (b *batch) byDerived(name string) *bprog {
	for {
		trimmed := false
		for _, suf := range derivedSuffixes {
			if n, ok := strings.CutSuffix(name, suf); ok && n != "" {
				if bp := b.byFunc[n]; bp != nil {
					return bp
				}
				name, trimmed = n, true
				break
			}
		}
		if !trimmed {
			return nil
		}
	}
}

// stageIn reports whether an internal error in a stage of gadgen may
// come from the mode package d: the stage of a transformation is its
// mode's name (taylor for both Taylor packages); the others are common.
func stageIn(stage, d string) bool {
	switch stage {
	case "jvp":
		return d == "jvp" || d == "second"
	case "grad", "vjp":
		return d == "rev" || d == "second"
	case "taylor":
		// The second-order helpers use Taylor mode, forward mode and
		// reverse mode.
		return d == "taylor" || d == "line" || d == "tlanes" || d == "llanes" || d == "second"
	case "hvp", "hessian", "hessdiag", "laplacian":
		return d == "second"
	}
	return true
}

// checkGenerated returns what is wrong with the form of a generated file.
func checkGenerated(src []byte) string {
	if !bytes.HasPrefix(src, []byte("// Code generated by gadgen. DO NOT EDIT.\n")) {
		return "the file does not start with gadgen's header"
	}
	if f, err := formatSource(src); err != nil {
		return "unparsable: " + err.Error()
	} else if !bytes.Equal(f, src) {
		return "not gofmt'ed"
	}
	return ""
}

// byFile returns the program whose source or generated file (in any
// package of the batch) is named file.
func (b *batch) byFile(file string) *bprog {
	for _, bp := range b.progs {
		if bp.file+".go" == file || bp.file+"_grad.go" == file {
			return bp
		}
	}
	return nil
}

// goCmd runs the go command in the batch's directory.
func (b *batch) goCmd(timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = b.dir
	cmd.Env = env()
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return string(out), fmt.Errorf("go %s: %v", strings.Join(args, " "), ctx.Err())
	}
	return string(out), err
}

// problemRE finds a file and line in the go command's output.
var problemRE = regexp.MustCompile(`(?:^|\s|\./)([a-z]+)/([A-Za-z0-9_]+\.go):(\d+):(\d+):`)

// typecheck type-checks each mode package in process: a generated file
// with type errors is a failure of its mode ("compile"), and is left out.
func (b *batch) typecheck() error {
	for _, d := range dirOrder {
		for round := 0; ; round++ {
			paths, err := filepath.Glob(filepath.Join(b.dir, d, "*.go"))
			if err != nil || len(paths) == 0 {
				break
			}
			fset := token.NewFileSet()
			var files []*ast.File
			for _, path := range paths {
				f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
				if err != nil {
					bp := b.byFile(filepath.Base(path))
					if bp == nil || !strings.HasSuffix(path, "_grad.go") {
						return fmt.Errorf("difftest: %v", err)
					}
					b.recordAll(bp, d, Fail, "compile", err.Error())
					bp.written[d] = false
					os.Remove(path)
					continue
				}
				files = append(files, f)
			}
			var errs []types.Error
			conf := types.Config{Importer: lockedImporter{}, Error: func(err error) { errs = append(errs, err.(types.Error)) }}
			conf.Check(d, fset, files, nil)
			if len(errs) == 0 {
				break
			}
			if round > 20 {
				return fmt.Errorf("difftest: type errors in %s keep coming: %v", d, errs[0])
			}
			for _, te := range errs {
				pos := te.Fset.Position(te.Pos)
				file := filepath.Base(pos.Filename)
				bp := b.byFile(file)
				if bp == nil || !strings.HasSuffix(file, "_grad.go") {
					return fmt.Errorf("difftest: %s/%s: %v", d, file, te)
				}
				if bp.written[d] {
					b.recordAll(bp, d, Fail, "compile", fmt.Sprintf("%s/%s:%d:%d: %s", d, file, pos.Line, pos.Column, te.Msg))
					bp.written[d] = false
					os.Remove(pos.Filename)
				}
			}
		}
	}
	return nil
}

// build writes the harness's main, vets and builds; a generated file
// that does not compile or vet is a failure of its mode, and is left out.
func (b *batch) build() error {
	if err := b.typecheck(); err != nil {
		return err
	}
	for round := 0; ; round++ {
		if err := b.writeMain(); err != nil {
			return err
		}
		start := time.Now()
		out, err := b.goCmd(10*time.Minute, "vet", "./...")
		b.logf("difftest: go vet: %.1fs", time.Since(start).Seconds())
		if err == nil {
			break
		}
		if round > 20 {
			return fmt.Errorf("difftest: go vet keeps failing:\n%s", out)
		}
		progress := false
		for _, m := range problemRE.FindAllStringSubmatch(out, -1) {
			d, file := m[1], m[2]
			bp := b.byFile(file)
			if bp == nil {
				return fmt.Errorf("difftest: go vet:\n%s", out)
			}
			line := lineOf(out, m[0])
			switch {
			case strings.HasSuffix(file, "_grad.go") && bp.written[d]:
				kind := "vet"
				if isCompileError(out, m[0]) {
					kind = "compile"
				}
				b.recordAll(bp, d, Fail, kind, line)
				bp.written[d] = false
				os.Remove(filepath.Join(b.dir, d, file))
				progress = true
			case d == "twin" || !strings.HasSuffix(file, "_grad.go"):
				if !bp.dead {
					b.record(bp, "", "twin", Tester, "vet", line, 0)
					bp.dead = true
					b.removeProgram(bp)
					progress = true
				}
			}
		}
		if !progress {
			return fmt.Errorf("difftest: go vet:\n%s", out)
		}
	}
	start := time.Now()
	if out, err := b.goCmd(10*time.Minute, "build", "-o", "harness.bin", "."); err != nil {
		return fmt.Errorf("difftest: building the harness: %v\n%s", err, out)
	}
	b.logf("difftest: go build: %.1fs", time.Since(start).Seconds())
	return nil
}

// lineOf returns the line of out that holds s.
func lineOf(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, strings.TrimSpace(s)) {
			return strings.TrimSpace(l)
		}
	}
	return s
}

// isCompileError tells type errors (reported by vet as "vet: …" or under
// a package's "#" line by the compiler) from vet's findings.
func isCompileError(out, s string) bool {
	l := lineOf(out, s)
	return strings.HasPrefix(l, "vet: ") || strings.Contains(l, "undefined:") || strings.Contains(l, "declared and not used") ||
		strings.Contains(l, "cannot use") || strings.Contains(l, "mismatched types")
}

// removeProgram deletes every file of a program from the batch.
func (b *batch) removeProgram(bp *bprog) {
	for _, d := range append(slices.Clone(dirOrder), "twin") {
		os.Remove(filepath.Join(b.dir, d, bp.file+".go"))
		os.Remove(filepath.Join(b.dir, d, bp.file+"_grad.go"))
		delete(bp.written, d)
	}
}

// writeMain writes the harness's main package: the table of cases.
func (b *batch) writeMain() error {
	used := map[string]bool{"harness": true, "cmath": true}
	var elts []ast.Expr
	for _, bp := range b.progs {
		if bp.dead {
			continue
		}
		home := "jvp"
		for _, e := range bp.entries {
			// fn names the entry, or with a suffix its derivative, in pkg.
			fn := func(pkg, suffix string) ast.Expr {
				used[pkg] = true
				name := e.Name + bp.suffix + suffix
				if e.Recv == "" {
					return sel(id(pkg), name)
				}
				var recv ast.Expr = sel(id(pkg), e.Recv)
				if e.Ptr {
					recv = &ast.StarExpr{X: recv}
				}
				return sel(&ast.ParenExpr{X: recv}, name)
			}
			kv := func(k string, v ast.Expr) ast.Expr { return &ast.KeyValueExpr{Key: id(k), Value: v} }
			c := &ast.CompositeLit{Elts: []ast.Expr{
				kv("Name", &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(bp.key(e))}),
				kv("Len", intLit(e.Len)),
				kv("F", fn(home, "")),
				kv("C", fn("twin", "")),
				kv("Order", intLit(3)),
			}}
			if e.Recv != "" {
				c.Elts = append(c.Elts, kv("Recv", id("true")))
			}
			if e.WrtIndex >= 0 {
				c.Elts = append(c.Elts, kv("Wrt", intLit(e.WrtIndex)))
			}
			if slices.Contains(e.Modes, ModeTaylorLanes) || slices.Contains(e.Modes, ModeLineLanes) {
				c.Elts = append(c.Elts, kv("Lanes", intLit(e.Lanes)))
			}
			for _, m := range e.Modes {
				d := modeDirs[m]
				if !bp.written[d] || bp.decided[e.Key()+" "+m] {
					continue
				}
				switch m {
				case ModeJVP:
					c.Elts = append(c.Elts, kv("JVP", fn(d, "JVP")))
				case ModeGrad:
					c.Elts = append(c.Elts, kv("Rev", fn(d, "Grad")))
				case ModeVJP:
					c.Elts = append(c.Elts, kv("Rev", fn(d, "VJP")), kv("Seeded", id("true")))
				case ModeTaylor:
					c.Elts = append(c.Elts, kv("Taylor", fn(d, "Taylor")))
				case ModeLine:
					c.Elts = append(c.Elts, kv("Line", fn(d, "Taylor")))
				case ModeTaylorLanes:
					c.Elts = append(c.Elts, kv("TaylorLanes", fn(d, "Taylor")))
				case ModeLineLanes:
					c.Elts = append(c.Elts, kv("LineLanes", fn(d, "Taylor")))
				case ModeHVP:
					c.Elts = append(c.Elts, kv("HVP", fn(d, "HVP")))
				case ModeHessian:
					c.Elts = append(c.Elts, kv("Hessian", fn(d, "Hessian")))
				case ModeHessDiag:
					c.Elts = append(c.Elts, kv("HessDiag", fn(d, "HessDiag")))
				case ModeLaplacian:
					c.Elts = append(c.Elts, kv("Laplacian", fn(d, "Laplacian")))
				}
			}
			elts = append(elts, c)
		}
	}
	var imports []ast.Spec
	for _, p := range append([]string{"cmath", "harness"}, append(slices.Clone(dirOrder), "twin")...) {
		if used[p] {
			imports = append(imports, &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(batchModule + "/" + p)}})
		}
	}
	slices.SortFunc(imports, func(a, b ast.Spec) int {
		return strings.Compare(a.(*ast.ImportSpec).Path.Value, b.(*ast.ImportSpec).Path.Value)
	})
	cases := &ast.CompositeLit{Type: sliceOf(sel(id("harness"), "Case")), Elts: elts}
	mainFn := &ast.FuncDecl{Name: id("main"), Type: funcType(nil, nil), Body: block(
		exprStmt(call(sel(id("harness"), "Main"), cases, sel(id("cmath"), "Reset"), sel(id("cmath"), "Trace"), sel(id("cmath"), "Margin"), sel(id("cmath"), "Largest"))),
	)}
	f := &ast.File{Name: id("main"), Decls: []ast.Decl{
		&ast.GenDecl{Tok: token.IMPORT, Lparen: 1, Specs: imports},
		mainFn,
	}}
	src, err := formatSource(formatFile(token.NewFileSet(), f))
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(b.dir, "main.go"), src)
}

// harnessLineRE matches the harness's lines.
var harnessLineRE = regexp.MustCompile(`^(RUN|PASS|FAIL|SKIP|HANG|DONE) ?(\S*) ?(\S*) ?(.*)$`)

// check runs the harness until every case and mode has an outcome: a
// hang or a crash ends it, and it runs again without the culprit.
func (b *batch) check() error {
	keyed := map[string]*bprog{}
	entryOf := map[string]string{}
	for _, bp := range b.progs {
		for _, e := range bp.entries {
			keyed[bp.key(e)] = bp
			entryOf[bp.key(e)] = e.Key()
		}
	}
	var skip []string
	for round := 0; ; round++ {
		args := []string{"-seed", strconv.FormatUint(b.cfg.Seed, 10), "-points", strconv.Itoa(b.cfg.Points),
			"-timeout", b.cfg.Timeout.String()}
		if len(skip) > 0 {
			args = append(args, "-skip", strings.Join(skip, ","))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
		cmd := exec.CommandContext(ctx, filepath.Join(b.dir, "harness.bin"), args...)
		cmd.Dir = b.dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		out, err := cmd.Output()
		cancel()
		b.logf("difftest: harness run %d: %.1fs", round, time.Since(start).Seconds())
		last := ""
		done := false
		for _, line := range strings.Split(string(out), "\n") {
			m := harnessLineRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			name, mode, rest := m[2], m[3], m[4]
			bp := keyed[name]
			if m[1] == "DONE" {
				done = true
				continue
			}
			if bp == nil {
				return fmt.Errorf("difftest: the harness printed %q", line)
			}
			entry := entryOf[name]
			switch m[1] {
			case "RUN":
				last = name + ":" + mode
			case "PASS":
				n, _ := strconv.Atoi(rest)
				b.record(bp, entry, mode, Pass, "", "", n)
				last = ""
			case "SKIP":
				b.record(bp, entry, mode, Skipped, rest, "", 0)
				last = ""
			case "FAIL":
				kind, detail, _ := strings.Cut(rest, ": ")
				st := Fail
				if mode == "twin" {
					st = Tester
				}
				b.record(bp, entry, mode, st, kind, detail, 0)
				last = ""
			case "HANG":
				b.record(bp, entry, mode, Fail, "hang", rest, 0)
			}
		}
		if done {
			return nil
		}
		if last == "" {
			if len(out) == 0 && err != nil {
				return fmt.Errorf("difftest: the harness failed: %v\n%s", err, stderr.String())
			}
			// The watchdog's HANG line ended it: the last RUN is the
			// culprit, already recorded.
			for _, line := range strings.Split(string(out), "\n") {
				if m := harnessLineRE.FindStringSubmatch(line); m != nil && m[1] == "HANG" {
					last = m[2] + ":" + m[3]
				}
			}
			if last == "" {
				return fmt.Errorf("difftest: the harness stopped without a culprit: %v\n%s", err, stderr.String())
			}
		} else {
			name, mode, _ := strings.Cut(last, ":")
			b.record(keyed[name], entryOf[name], mode, Fail, "crash", crashLine(stderr.String()), 0)
		}
		if slices.Contains(skip, last) {
			return fmt.Errorf("difftest: the harness fails again on %s:\n%s", last, stderr.String())
		}
		skip = append(skip, last)
		// Whatever else this case's modes would have said: the next
		// round goes on after it.
	}
}

// crashLine returns the line of a crash's output that says what happened.
func crashLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") || strings.HasPrefix(l, "runtime:") {
			return strings.TrimSpace(l)
		}
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return strings.TrimSpace(s)
}

// isWarning reports whether line of gadgen's output is a warning
// (file:line:col: gadgen: warning: …), which does not stop gadgen: a
// //gad:checkpoint it could not follow, say.
func isWarning(line string) bool { return strings.Contains(line, ": gadgen: warning: ") }

// runGadgen runs gadgen's driver in dir on patterns, with cfg's
// -reversal, for at most cfg.GadgenTimeout, and returns what it printed
// to its standard error (a panic of the driver as an internal error).
func runGadgen(dir string, patterns []string, cfg *Config) (*bytes.Buffer, error) {
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(&stderr, "gadgen: internal error in driver: %v\n", p)
				done <- driver.ExitError
			}
		}()
		done <- driver.Run(&driver.Config{Dir: dir, Patterns: patterns, Modes: driver.DefaultModes(),
			Reversal: cfg.Reversal, Stdout: &stdout, Stderr: &stderr, Env: env()})
	}()
	select {
	case <-done:
		return &stderr, nil
	case <-time.After(cfg.GadgenTimeout):
		return nil, fmt.Errorf("difftest: gadgen ran longer than %v on %s", cfg.GadgenTimeout, dir)
	}
}
