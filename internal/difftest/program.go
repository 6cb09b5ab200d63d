package difftest

// This file defines Program, one source file of functions to check, and
// what the other stages need of it: parsing and type checking (with the
// types all programs share), its entry functions and their modes,
// renaming, and the insertion of directives.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// sharedSrc declares the types that programs may use besides the
// builtin ones. Each package of a batch holds a copy (the twin's is
// converted like the programs).
const sharedSrc = `package p

// Model is a linear model: weights W and a bias B.
type Model struct {
	W []float64
	B float64
}

// Vec2 is a point of the plane.
type Vec2 struct{ X, Y float64 }
`

// Program is one file of functions to check: its exported functions and
// methods are the entries, which get directives; the others are helpers.
// A program holds no package clause of its own: it is written into each
// package of a batch (see batch.go).
type Program struct {
	// Name identifies the program in reports and file names ("s1p17").
	Name string
	// Src is the Go source, package clause included (its name does not
	// matter).
	Src []byte
	// Seed and Index say where the generator made it (Seed 0: written
	// by hand or loaded from a file).
	Seed  uint64
	Index int
	// Features are the constructs the generator used.
	Features []string
}

// Mode names, as the harness prints them.
const (
	ModeJVP    = "jvp"
	ModeGrad   = "grad"
	ModeVJP    = "vjp"
	ModeTaylor = "taylor"
	ModeLine   = "line" // taylor seed=line
	// Jets along several directions per call (lanes=Entry.Lanes), each
	// lane checked against the jet of ModeTaylor or ModeLine along it.
	ModeTaylorLanes = "tlanes" // taylor lanes=L
	ModeLineLanes   = "llanes" // taylor seed=line lanes=L
	// The second-order helpers, of a function with one float64 result
	// with respect to one []float64 parameter (Entry.Wrt).
	ModeHVP       = "hvp"
	ModeHessian   = "hessian"
	ModeHessDiag  = "hessdiag"
	ModeLaplacian = "laplacian"
)

// Modes lists the modes in report order.
var Modes = []string{ModeJVP, ModeGrad, ModeVJP, ModeTaylor, ModeLine, ModeTaylorLanes, ModeLineLanes, ModeHVP, ModeHessDiag, ModeLaplacian, ModeHessian}

// SecondModes are the modes of the second-order helpers.
var SecondModes = []string{ModeHVP, ModeHessDiag, ModeLaplacian, ModeHessian}

// Entry is an exported function or method of a program.
type Entry struct {
	Name  string // "F3"; for a method, the method's name
	Recv  string // the receiver's type name for a method ("Model"), or ""
	Ptr   bool   // the receiver is a pointer
	Modes []string
	Len   int // from //difftest:len, default 4
	// Lanes is the number of lanes of ModeTaylorLanes and ModeLineLanes,
	// from //difftest:lanes, default DefaultLanes.
	Lanes int
	// Checkpoint is the checkpoint=C of the reverse modes, from
	// //difftest:checkpoint; 0 for none.
	Checkpoint int
	// Wrt is the varied parameter of the second-order helpers (wrt=),
	// from //difftest:wrt or the first []float64 parameter, and WrtIndex
	// its index among F's parameters (a method's receiver is the first);
	// "" and -1 if the entry has no second-order mode.
	Wrt      string
	WrtIndex int
}

// Key returns the name of the entry in the harness: "F3" or
// "Model.F3".
func (e Entry) Key() string {
	if e.Recv != "" {
		return e.Recv + "." + e.Name
	}
	return e.Name
}

// Comments of programs. //difftest:modes in the doc comment of an entry
// lists its modes, //difftest:wrt NAME the parameter of its
// second-order modes and //difftest:lanes L the lanes of its jets along
// several directions; //difftest:len N, anywhere, sets the length of
// slices and the value of int parameters.
var (
	modesRE = regexp.MustCompile(`^//difftest:modes((?:\s+\w+)*)\s*$`)
	wrtRE   = regexp.MustCompile(`^//difftest:wrt\s+(\w+)\s*$`)
	lanesRE = regexp.MustCompile(`^//difftest:lanes\s+(\d+)\s*$`)
	checkRE = regexp.MustCompile(`^//difftest:checkpoint\s+(\d+)\s*$`)
	lenRE   = regexp.MustCompile(`^//difftest:len\s+(\d+)\s*$`)
)

// DefaultLen is the length of slices when a program does not say.
const DefaultLen = 4

// DefaultLanes is the number of lanes when an entry does not say.
const DefaultLanes = 2

// parsed is a program parsed and type-checked with the shared types.
type parsed struct {
	fset   *token.FileSet
	file   *ast.File
	shared *ast.File
	pkg    *types.Package
	info   *types.Info
}

// imports are shared by every type check: importing package math from
// source takes a while (the source importer finds each package with the
// go command before it looks in its cache).
var (
	importMu  sync.Mutex
	importFn  types.Importer
	importSet = token.NewFileSet()
	imported  = map[string]*types.Package{}
)

type lockedImporter struct{}

func (lockedImporter) Import(path string) (*types.Package, error) {
	importMu.Lock()
	defer importMu.Unlock()
	if pkg := imported[path]; pkg != nil {
		return pkg, nil
	}
	if importFn == nil {
		importFn = importer.ForCompiler(importSet, "source", nil)
	}
	pkg, err := importFn.Import(path)
	if err == nil {
		imported[path] = pkg
	}
	return pkg, err
}

// parse parses and type-checks src with the shared types. After a type
// error (a typeErrors), it returns the parsed program too.
func parse(src []byte) (*parsed, error) {
	p := &parsed{fset: token.NewFileSet()}
	var err error
	p.file, err = parser.ParseFile(p.fset, "prog.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	p.shared, err = parser.ParseFile(p.fset, "shared.go", sharedSrc, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		panic(err)
	}
	p.shared.Name.Name = p.file.Name.Name
	if err := p.check(); err != nil {
		return p, err
	}
	return p, nil
}

// typeErrors are the errors of a type check.
type typeErrors []types.Error

func (e typeErrors) Error() string {
	var ss []string
	for _, te := range e {
		ss = append(ss, te.Error())
	}
	return strings.Join(ss, "\n")
}

// check type-checks p's files again (after a change of the syntax).
func (p *parsed) check() error { return p.checkFiles(p.shared, p.file) }

// checkFiles type-checks the files as p's package.
func (p *parsed) checkFiles(files ...*ast.File) error {
	p.info = &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	var errs typeErrors
	conf := types.Config{Importer: lockedImporter{}, Error: func(err error) { errs = append(errs, err.(types.Error)) }}
	p.pkg, _ = conf.Check(p.file.Name.Name, p.fset, files, p.info)
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// format prints a file.
func formatFile(fset *token.FileSet, f *ast.File) []byte {
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		panic(fmt.Sprintf("difftest: printing %s: %v", f.Name.Name, err))
	}
	return buf.Bytes()
}

// entries returns the entries of a parsed program.
func (p *parsed) entries() ([]Entry, error) {
	n := DefaultLen
	for _, cg := range p.file.Comments {
		for _, c := range cg.List {
			if m := lenRE.FindStringSubmatch(c.Text); m != nil {
				n, _ = strconv.Atoi(m[1])
			}
		}
	}
	var es []Entry
	for _, d := range p.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !fd.Name.IsExported() {
			continue
		}
		e := Entry{Name: fd.Name.Name, Len: n, Lanes: DefaultLanes, WrtIndex: -1}
		if fd.Recv != nil {
			t := fd.Recv.List[0].Type
			if st, ok := t.(*ast.StarExpr); ok {
				t, e.Ptr = st.X, true
			}
			id, ok := t.(*ast.Ident)
			if !ok {
				return nil, fmt.Errorf("%s: receiver type %T", fd.Name.Name, t)
			}
			e.Recv = id.Name
		}
		if fd.Doc != nil {
			for _, c := range fd.Doc.List {
				if m := modesRE.FindStringSubmatch(c.Text); m != nil {
					e.Modes = strings.Fields(m[1])
				}
				if m := wrtRE.FindStringSubmatch(c.Text); m != nil {
					e.Wrt = m[1]
				}
				if m := lanesRE.FindStringSubmatch(c.Text); m != nil {
					e.Lanes, _ = strconv.Atoi(m[1])
				}
				if m := checkRE.FindStringSubmatch(c.Text); m != nil {
					e.Checkpoint, _ = strconv.Atoi(m[1])
				}
			}
		}
		if e.Modes == nil {
			e.Modes = p.defaultModes(fd)
		}
		if e.Lanes < 1 {
			return nil, fmt.Errorf("%s: //difftest:lanes %d: want 1 or more", fd.Name.Name, e.Lanes)
		}
		for _, m := range e.Modes {
			if !slices.Contains(Modes, m) {
				return nil, fmt.Errorf("%s: unknown mode %q", fd.Name.Name, m)
			}
		}
		if slices.ContainsFunc(e.Modes, isSecond) {
			// A program that shrinking left without the parameter, or
			// with a function of another shape, loses these modes.
			e.Wrt, e.WrtIndex = p.secondParam(fd, e.Wrt)
			if e.WrtIndex < 0 {
				e.Modes = slices.DeleteFunc(e.Modes, isSecond)
			}
		}
		es = append(es, e)
	}
	if len(es) == 0 {
		return nil, fmt.Errorf("no exported function")
	}
	return es, nil
}

// defaultModes: jvp, grad for one float result and vjp otherwise, taylor
// and line.
func (p *parsed) defaultModes(fd *ast.FuncDecl) []string {
	sig := p.info.Defs[fd.Name].Type().(*types.Signature)
	rev := ModeVJP
	if sig.Results().Len() == 1 && isFloat(sig.Results().At(0).Type()) {
		rev = ModeGrad
	}
	return []string{ModeJVP, rev, ModeTaylor, ModeLine}
}

func isSecond(mode string) bool { return slices.Contains(SecondModes, mode) }

// secondParam returns the name and index of the parameter of fd that its
// second-order modes vary: the parameter named want, or the first of
// type []float64; -1 if there is none or fd does not return exactly
// one float64.
func (p *parsed) secondParam(fd *ast.FuncDecl, want string) (string, int) {
	sig := p.info.Defs[fd.Name].Type().(*types.Signature)
	if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Float64]) {
		return "", -1
	}
	k := 0
	if sig.Recv() != nil {
		k = 1
	}
	for i := range sig.Params().Len() {
		v := sig.Params().At(i)
		if types.Identical(v.Type(), types.NewSlice(types.Typ[types.Float64])) && (want == "" || v.Name() == want) {
			return v.Name(), k + i
		}
	}
	return "", -1
}

func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// rename appends suffix to the names of the functions, methods and
// types the program declares, so that programs with the same names can
// share a package. A reference derivative (see referenceOf) is renamed
// as gadgen will name the derivative of its renamed function.
func (p *parsed) rename(suffix string) {
	if suffix == "" {
		return
	}
	names := map[types.Object]string{}
	for _, d := range p.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			n := d.Name.Name + suffix
			if of := referenceOf(d); of != "" {
				n = of + suffix + strings.TrimPrefix(d.Name.Name, of)
			}
			names[p.info.Defs[d.Name]] = n
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					names[p.info.Defs[ts.Name]] = ts.Name.Name + suffix
				}
			}
		}
	}
	ast.Inspect(p.file, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj := p.info.Defs[id]
		if obj == nil {
			obj = p.info.Uses[id]
		}
		if n, ok := names[obj]; ok {
			id.Name = n
		}
		return true
	})
}

// referenceRE marks a reference derivative: "//difftest:reference f" in
// the doc comment of a function that stands, in the twin, for the
// derivative gadgen generates for the program's function f (named f
// with gadgen's suffix: fGrad, fJVP).
var referenceRE = regexp.MustCompile(`^//difftest:reference\s+(\w+)\s*$`)

// referenceOf returns the function whose generated derivative fd stands
// for, or "" if fd is no reference.
func referenceOf(fd *ast.FuncDecl) string {
	if fd.Doc != nil {
		for _, c := range fd.Doc.List {
			if m := referenceRE.FindStringSubmatch(c.Text); m != nil {
				return m[1]
			}
		}
	}
	return ""
}

// pinned reports whether the shrinker must leave fd as it is: a
// reference derivative, or a function with a directive of gadgen (a
// reference stands for its derivative).
func pinned(fd *ast.FuncDecl) bool {
	if referenceOf(fd) != "" {
		return true
	}
	if fd.Doc != nil && !fd.Name.IsExported() {
		for _, c := range fd.Doc.List {
			if strings.HasPrefix(c.Text, "//gad:") {
				return true
			}
		}
	}
	return false
}

// dropReferences removes the reference derivatives from p's file (gadgen
// writes the derivatives they stand for) and returns their source, to
// be appended to the program's file where gadgen wrote nothing; nil if
// there are none.
func (p *parsed) dropReferences() []byte {
	var buf bytes.Buffer
	p.file.Decls = slices.DeleteFunc(p.file.Decls, func(d ast.Decl) bool {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || referenceOf(fd) == "" {
			return false
		}
		p.file.Comments = slices.DeleteFunc(p.file.Comments, func(cg *ast.CommentGroup) bool { return cg == fd.Doc })
		buf.WriteString("\n")
		if err := format.Node(&buf, p.fset, &ast.FuncDecl{Name: fd.Name, Recv: fd.Recv, Type: fd.Type, Body: fd.Body}); err != nil {
			panic(fmt.Sprintf("difftest: printing %s: %v", fd.Name.Name, err))
		}
		buf.WriteString("\n")
		return true
	})
	if buf.Len() == 0 {
		return nil
	}
	return buf.Bytes()
}

// directiveText returns the directive asking for mode on entry e: with
// the parameter of the second-order modes, the number of lanes of the
// jets along several directions, the copies of the reverse modes'
// checkpointing.
func directiveText(mode string, e Entry) string {
	wrt, lanes := e.Wrt, e.Lanes
	ck := ""
	if e.Checkpoint > 0 {
		ck = fmt.Sprintf(" checkpoint=%d", e.Checkpoint)
	}
	switch mode {
	case ModeJVP:
		return "//gad:jvp"
	case ModeGrad:
		return "//gad:grad" + ck
	case ModeVJP:
		return "//gad:vjp" + ck
	case ModeTaylor:
		return "//gad:taylor order=3"
	case ModeLine:
		return "//gad:taylor order=3 seed=line"
	case ModeTaylorLanes:
		return fmt.Sprintf("//gad:taylor order=3 lanes=%d", lanes)
	case ModeLineLanes:
		return fmt.Sprintf("//gad:taylor order=3 seed=line lanes=%d", lanes)
	case ModeHVP, ModeHessian, ModeHessDiag, ModeLaplacian:
		return "//gad:" + mode + " wrt=" + wrt
	}
	panic("difftest: unknown mode " + mode)
}

// directive is a mode asked of an entry.
type directive struct {
	entry, mode string // Entry.Key and a Mode*
}

// withDirectives returns the source of p, in package pkg, with the
// directives of the modes in want (by Key, with the options of the
// entries by Key: see directiveText) in the doc comment of each entry, and the line of each directive in that source.
func (p *parsed) withDirectives(pkg string, want map[string][]string, entries map[string]Entry) ([]byte, map[int]directive) {
	p.file.Name.Name = pkg
	src := formatFile(p.fset, p.file)
	// Insert the directive lines above each func line; go/format keeps
	// them in the doc comment.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		panic(fmt.Sprintf("difftest: reparsing: %v", err))
	}
	keys := map[int]string{} // lines of the func keywords, 1-based
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !fd.Name.IsExported() {
			continue
		}
		key := fd.Name.Name
		if fd.Recv != nil {
			t := fd.Recv.List[0].Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			key = t.(*ast.Ident).Name + "." + key
		}
		if len(want[key]) > 0 {
			keys[fset.Position(fd.Type.Func).Line] = key
		}
	}
	text := strings.SplitAfter(string(src), "\n")
	var out strings.Builder
	lines := map[int]directive{}
	n := 0 // lines written
	for i, l := range text {
		if key, ok := keys[i+1]; ok {
			if prev := text[max(i-1, 0)]; strings.HasPrefix(prev, "//") && !directiveRE.MatchString(prev) {
				out.WriteString("//\n") // the directive ends the doc comment after an empty line
				n++
			}
			for _, m := range want[key] {
				out.WriteString(directiveText(m, entries[key]) + "\n")
				n++
				lines[n] = directive{key, m}
			}
		}
		out.WriteString(l)
		n++
	}
	res, err := format.Source([]byte(out.String()))
	if err != nil {
		panic(fmt.Sprintf("difftest: inserting directives: %v", err))
	}
	if !bytes.Equal(res, []byte(out.String())) {
		lines = nil // gofmt moved lines: no attribution by line
	}
	return res, lines
}

// directiveRE matches a directive comment line (gofmt's definition).
var directiveRE = regexp.MustCompile(`^//[a-z0-9]+:[a-z0-9]`)

// formatSource is go/format.Source.
func formatSource(src []byte) ([]byte, error) { return format.Source(src) }
