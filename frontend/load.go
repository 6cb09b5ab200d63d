package frontend

// This file defines Load, which loads packages with go/packages, and
// Program, the loaded packages with their files and their SSA form, built
// lazily.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/gadgen/gadgen/diag"
)

// Config says how to load packages.
type Config struct {
	// Dir is the directory in which patterns are interpreted and the go
	// command runs; "" means the current directory.
	Dir string
	// Env is the environment of the go command; nil means the current
	// process's environment.
	Env []string
	// BuildFlags are extra flags for the go command ("-tags=x"). The
	// tags of PureGoTags are always added (see there).
	BuildFlags []string
	// Overlay maps absolute file names to contents that replace the files
	// on disk, or add files that do not exist (see packages.Config).
	Overlay map[string][]byte
	// Extra are import paths to load besides the patterns, as roots that
	// Program.Roots leaves out: pass Program.Extra of an earlier load of
	// the same patterns to save Load a second call of the go command.
	Extra []string
	// StdBodies keeps the bodies of the standard library's functions.
	// Without it, only generic functions and init functions of the
	// standard library keep theirs.
	StdBodies bool
}

// PureGoTags are the build tags with which gadgen reads every package, in
// addition to the user's: "noasm", with which gonum (its internal/asm
// kernels under floats, blas, lapack, …) and others build their pure-Go
// kernels instead of assembly, and "purego", the common Go convention for
// the same choice. gadgen can differentiate Go bodies but not assembly, so
// it reads the variant it can differentiate. Generated code never names
// what the tags select: it calls only exported functions, whose
// declarations are the same in both variants, and copies of unexported
// ones (or their derivatives) made from the pure-Go bodies, so it compiles
// and computes the same function in the user's ordinary build, with or
// without the tags, and the generated files are the same on every
// architecture. A pure-Go kernel may sum in another order than its
// assembly twin: values may differ in the last bits.
var PureGoTags = []string{"noasm", "purego"}

// buildFlags returns flags with PureGoTags added to its -tags flag, or a
// -tags flag of them appended.
func buildFlags(flags []string) []string {
	out := slices.Clone(flags)
	for i := 0; i < len(out); i++ {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(out[i], "-"), "=")
		if name != "-tags" && name != "tags" {
			continue
		}
		if !hasValue {
			if i+1 == len(out) {
				break
			}
			out = slices.Delete(out, i, i+1) // "-tags" "a,b" → "-tags=a,b"
			value = out[i]
		}
		tags := strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' })
		for _, t := range PureGoTags {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
		out[i] = "-tags=" + strings.Join(tags, ",")
		return out
	}
	return append(out, "-tags="+strings.Join(PureGoTags, ","))
}

// loadMode asks go/packages for syntax and types of every package of the
// import graph, like packages.LoadAllSyntax.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedTypes | packages.NeedSyntax |
	packages.NeedTypesInfo | packages.NeedModule | packages.NeedForTest

// Program is a set of loaded packages.
type Program struct {
	Fset *token.FileSet
	// Roots are the packages the patterns matched, with their test
	// variants (internal "p [p.test]" and external "p_test [p.test]"),
	// but not the synthesized test mains.
	Roots []*packages.Package
	// Extra lists the import paths loaded besides the patterns, to find
	// the targets of cross-package directives.
	Extra []string

	all      []*packages.Package // every package of the graph, dependencies first
	byTypes  map[*types.Package]*packages.Package
	stripped map[*packages.Package]bool // standard-library packages without bodies
	bad      map[*packages.Package]bool // memo of hasErrors

	ssaOnce sync.Once
	ssa     *ssa.Program

	// The specializations of function values (closure.go): by
	// shape.key(false), by object, the names taken per package, and the
	// memo of byValue.
	specials     map[string]*special
	specialOf    map[*types.Func]*special
	specialNames map[*types.Package]map[string]bool
	byValueMemo  map[*ssa.FreeVar]bool
	// The specializations for arguments that share memory (alias.go).
	aliasKey map[string]*types.Func
	aliasOf  map[*types.Func]*aliased
}

// Load loads the packages matching patterns ("." when there are none),
// their test variants and their whole import graph, with syntax. It fails
// only when the go command does; problems in the packages (syntax and type
// errors) are in Program.Errors.
//
// When a cross-package directive names a package that the matched
// packages do not import, Load loads that package too (a second call of
// the go command).
func Load(cfg *Config, patterns ...string) (*Program, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	goroot := ""
	if !cfg.StdBodies {
		goroot = goRoot(cfg)
	}
	extra := slices.Clone(cfg.Extra)
	prog, err := load(cfg, goroot, patterns, extra)
	if err != nil {
		return nil, err
	}
	more := false
	for _, path := range prog.missingTargets() {
		if !slices.Contains(extra, path) {
			extra, more = append(extra, path), true
		}
	}
	if more {
		slices.Sort(extra)
		prog, err = load(cfg, goroot, patterns, extra)
		if err != nil {
			return nil, err
		}
	}
	return prog, nil
}

func load(cfg *Config, goroot string, patterns, extra []string) (*Program, error) {
	p := &Program{
		Fset:     token.NewFileSet(),
		Extra:    extra,
		byTypes:  map[*types.Package]*packages.Package{},
		stripped: map[*packages.Package]bool{},
		bad:      map[*packages.Package]bool{},

		specials:     map[string]*special{},
		specialOf:    map[*types.Func]*special{},
		specialNames: map[*types.Package]map[string]bool{},
		byValueMemo:  map[*ssa.FreeVar]bool{},
		aliasKey:     map[string]*types.Func{},
		aliasOf:      map[*types.Func]*aliased{},
	}
	var strippedFiles sync.Map
	pcfg := &packages.Config{
		Mode:       loadMode,
		Dir:        cfg.Dir,
		Env:        cfg.Env,
		BuildFlags: buildFlags(cfg.BuildFlags),
		Overlay:    cfg.Overlay,
		Tests:      true,
		Fset:       p.Fset,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			if goroot != "" && strings.HasPrefix(filename, goroot) {
				strippedFiles.Store(filename, true)
				return parseStripped(fset, filename, src)
			}
			return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		},
	}
	all, err := packages.Load(pcfg, append(slices.Clone(patterns), extra...)...)
	if err != nil {
		return nil, err
	}
	roots := all
	if len(extra) > 0 {
		// The roots are the packages that the patterns alone match.
		first, err := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: cfg.Dir, Env: cfg.Env,
			BuildFlags: buildFlags(cfg.BuildFlags), Overlay: cfg.Overlay, Tests: true}, patterns...)
		if err != nil {
			return nil, err
		}
		ids := map[string]bool{}
		for _, r := range first {
			ids[r.ID] = true
		}
		roots = nil
		for _, r := range all {
			if ids[r.ID] {
				roots = append(roots, r)
			}
		}
	}
	for _, r := range roots {
		if !isTestMain(r) {
			p.Roots = append(p.Roots, r)
		}
	}
	packages.Visit(all, nil, func(lp *packages.Package) {
		if lp.Types == nil {
			return
		}
		p.byTypes[lp.Types] = lp
		p.all = append(p.all, lp)
		if len(lp.CompiledGoFiles) > 0 {
			if _, ok := strippedFiles.Load(lp.CompiledGoFiles[0]); ok {
				p.stripped[lp] = true
			}
		}
	})
	return p, nil
}

// isTestMain reports whether lp is the main package that go test
// synthesizes ("p.test").
func isTestMain(lp *packages.Package) bool {
	return lp.Name == "main" && strings.HasSuffix(lp.ID, ".test") && !strings.Contains(lp.ID, " ")
}

// parseStripped parses a file of the standard library without its
// function bodies, except those of generic functions (go/types requires
// them) and of init functions.
func parseStripped(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if f != nil {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && !keepsBody(fd) {
				fd.Body = nil
			}
		}
	}
	return f, err
}

func keepsBody(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil {
		return true
	}
	if fd.Recv == nil {
		return fd.Name.Name == "init"
	}
	if len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		if s, ok := t.(*ast.StarExpr); ok {
			t = s.X
		}
		switch t.(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			return true
		}
	}
	return false
}

var goroots sync.Map // key: dir and environment; value: GOROOT with a trailing separator

// goRoot returns the GOROOT/src/ of the go command that cfg runs.
func goRoot(cfg *Config) string {
	key := cfg.Dir + "\x00" + strings.Join(cfg.Env, "\x00")
	if r, ok := goroots.Load(key); ok {
		return r.(string)
	}
	root := runtime.GOROOT()
	cmd := exec.Command("go", "env", "GOROOT")
	cmd.Dir = cfg.Dir
	if cfg.Env != nil {
		cmd.Env = cfg.Env
	}
	if out, err := cmd.Output(); err == nil {
		if s := strings.TrimSpace(string(out)); s != "" {
			root = s
		}
	}
	if root == "" {
		return ""
	}
	r := filepath.Join(root, "src") + string(filepath.Separator)
	goroots.Store(key, r)
	return r
}

// PackageDirs returns the directories of the packages matching patterns,
// sorted, without loading types (one quick call of the go command).
func PackageDirs(cfg *Config, patterns ...string) ([]string, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles,
		Dir:        cfg.Dir,
		Env:        cfg.Env,
		BuildFlags: buildFlags(cfg.BuildFlags),
		Tests:      true,
	}, patterns...)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, lp := range pkgs {
		if isTestMain(lp) || lp.Dir == "" {
			continue
		}
		if !slices.Contains(dirs, lp.Dir) {
			dirs = append(dirs, lp.Dir)
		}
	}
	slices.Sort(dirs)
	return dirs, nil
}

// File is a source file in which gadgen looks for directives.
type File struct {
	// Name is the file's absolute name.
	Name string
	// Pkg is the package the file is read in: for a _test.go file, the
	// test variant.
	Pkg    *packages.Package
	Syntax *ast.File
	// Test: Name ends in _test.go.
	Test bool
}

// Files returns the files of the root packages: non-test files first, then
// test files, each group sorted by package path and name. A file appears
// once, although it belongs both to a package and to its test variant: a
// non-test file is read in the package, a _test.go file in the test
// variant.
func (p *Program) Files() []*File {
	var files []*File
	seen := map[string]bool{}
	for _, lp := range p.Roots {
		internalTest := lp.ForTest != "" && !strings.HasSuffix(lp.Name, "_test")
		for _, f := range lp.Syntax {
			tf := p.Fset.File(f.FileStart)
			if tf == nil {
				continue // no syntax: the package's errors say why
			}
			name := tf.Name()
			test := strings.HasSuffix(name, "_test.go")
			if internalTest && !test || lp.ForTest == "" && test || seen[name] {
				continue
			}
			seen[name] = true
			files = append(files, &File{Name: name, Pkg: lp, Syntax: f, Test: test})
		}
	}
	slices.SortFunc(files, func(a, b *File) int {
		if a.Test != b.Test {
			if a.Test {
				return 1
			}
			return -1
		}
		if c := strings.Compare(a.Pkg.PkgPath, b.Pkg.PkgPath); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return files
}

// Errors returns the problems found while loading: errors of the go
// command, syntax errors and type errors of every package of the graph
// (but not those that dropping bodies causes in the standard library), as
// sorted diagnostics.
func (p *Program) Errors() diag.List {
	var l diag.List
	add := func(lp *packages.Package) {
		if p.stripped[lp] {
			return
		}
		parseErrs := slices.ContainsFunc(lp.Errors, func(e packages.Error) bool { return e.Kind == packages.ParseError })
		for _, e := range lp.Errors {
			if parseErrs && e.Kind == packages.TypeError {
				// Type errors after syntax errors are about what the
				// parser made of them (a file without its package
				// name, "package ; expected package p", unpositioned).
				continue
			}
			pos := e.Pos
			if m := readErrorRE.FindStringSubmatch(e.Msg); pos == "" && m != nil {
				// A file the go command could not read (a NUL byte):
				// its first line.
				pos, e.Msg = m[1]+":1:1", m[2]
			}
			l = append(l, diag.Diagnostic{Pos: parsePos(pos), Msg: e.Msg})
		}
	}
	// Packages loaded for Extra may not exist: only the roots' graphs count.
	packages.Visit(p.Roots, nil, add)
	return l.Sort()
}

// hasErrors reports whether lp or a package it imports (outside the
// standard library) has errors.
func (p *Program) hasErrors(lp *packages.Package) bool {
	if bad, ok := p.bad[lp]; ok {
		return bad
	}
	p.bad[lp] = false // cycles are impossible, but be safe
	bad := len(lp.Errors) > 0 && !p.stripped[lp]
	for _, q := range lp.Imports {
		bad = p.hasErrors(q) || bad
	}
	p.bad[lp] = bad
	return bad
}

// parsePos parses go/packages' "file:line:col" positions.
func parsePos(s string) token.Position {
	var pos token.Position
	parts := strings.Split(s, ":")
	nums := []int{}
	for len(parts) > 1 && len(nums) < 2 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil || n < 0 {
			break // not a line or column: part of the name
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	pos.Filename = strings.Join(parts, ":")
	if len(nums) > 0 {
		pos.Line = nums[0]
	}
	if len(nums) > 1 {
		pos.Column = nums[1]
	}
	return pos
}

// Position resolves pos.
func (p *Program) Position(pos token.Pos) token.Position { return p.Fset.Position(pos) }

// Package returns the loaded package whose types are pkg, or nil.
func (p *Program) Package(pkg *types.Package) *packages.Package { return p.byTypes[pkg] }

// packagesByPath returns the packages with import path path, the
// non-test variant first.
func (p *Program) packagesByPath(path string) []*packages.Package {
	var out []*packages.Package
	for _, lp := range p.all {
		if lp.PkgPath == path {
			out = append(out, lp)
		}
	}
	slices.SortStableFunc(out, func(a, b *packages.Package) int {
		return boolCmp(a.ForTest != "", b.ForTest != "")
	})
	return out
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

// ssaProgram returns the SSA program of every well-formed package,
// creating it on the first call. Packages are built by ssaPackage.
func (p *Program) ssaProgram() *ssa.Program {
	p.ssaOnce.Do(func() {
		prog := ssa.NewProgram(p.Fset, ssa.InstantiateGenerics|ssa.GlobalDebug)
		for _, lp := range p.all {
			if lp.TypesInfo != nil {
				prog.CreatePackage(lp.Types, lp.Syntax, lp.TypesInfo, true)
			}
		}
		p.ssa = prog
	})
	return p.ssa
}

// ssaFunc returns the built SSA function of fn, building its package.
func (p *Program) ssaFunc(fn *types.Func) (*ssa.Function, error) {
	lp := p.byTypes[fn.Pkg()]
	if lp == nil {
		return nil, fmt.Errorf("package %s of %s is not loaded", fn.Pkg().Path(), fn.FullName())
	}
	if p.hasErrors(lp) {
		return nil, fmt.Errorf("package %s has errors", lp.PkgPath)
	}
	prog := p.ssaProgram()
	sp := prog.Package(fn.Pkg())
	if sp == nil {
		return nil, fmt.Errorf("no SSA package for %s", fn.Pkg().Path())
	}
	sp.Build()
	f := prog.FuncValue(fn)
	if f == nil {
		return nil, fmt.Errorf("no SSA function for %s", fn.FullName())
	}
	return f, nil
}

// IsGenerated reports whether src starts like a file that gadgen
// generated: before the package clause, a line matching
// "^// Code generated .* DO NOT EDIT\.$" that mentions gadgen.
func IsGenerated(src []byte) bool {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if bytes.HasPrefix(line, []byte("package ")) {
			return false
		}
		if bytes.HasPrefix(line, []byte("// Code generated ")) && bytes.HasSuffix(line, []byte(" DO NOT EDIT.")) &&
			bytes.Contains(line, []byte("gadgen")) {
			return true
		}
	}
	return false
}

// readErrorRE matches the go command's error for a Go file it cannot
// read, which has no position.
var readErrorRE = regexp.MustCompile(`^read (\S+\.go): (.*)$`)
