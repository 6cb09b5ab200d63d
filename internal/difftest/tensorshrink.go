package difftest

// This file defines the shrinking of a failing tensor program: the
// mutations of shrink.go's greedy minimization, on tensor programs (a
// statement or helper deleted, an if or loop unwrapped, a call replaced
// by one of its tensor arguments, a sum of float terms by one of them, an
// integer constant made smaller, a parameter made a local constant, a
// directive dropped), each kept if it type-checks and the tensor harness
// still fails the same way.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// parseTensor parses and type-checks a tensor program (its package
// imports tensorops; it declares its own types). After a type error (a
// typeErrors), it returns the parsed program too.
func parseTensor(src []byte) (*parsed, error) {
	p := &parsed{fset: token.NewFileSet()}
	var err error
	p.file, err = parser.ParseFile(p.fset, "prog.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	if err := p.checkFiles(p.file); err != nil {
		return p, err
	}
	return p, nil
}

// ShrinkTensor returns the smallest variant of the tensor program p it
// finds that has the outcome f (a failure or a refusal) too, and its
// outcome.
func ShrinkTensor(cfg *Config, sc ShrinkConfig, p *Program, f Outcome) (*Program, Outcome, error) {
	return shrinkBy(sc, p, f, shrinker{
		try:        func(progs []*Program) (Outcome, int, error) { return reproducesTensor(cfg, progs, f) },
		restrict:   restrictTensor,
		candidates: tensorCandidates,
	})
}

// TensorCategory groups the outcomes that shrinking treats as the same:
// any wrong number is "wrong", a panic is its message, a refusal its
// construct and message.
func TensorCategory(o Outcome) string {
	switch o.Kind {
	case "panic":
		msg, _, _ := strings.Cut(o.Detail, "\n")
		return "panic: " + msg
	case "crash", "hang", "compile", "vet", "signature", "input written", "internal", "unpositioned", "no output", "diagnostic with output", "program":
		return o.Kind
	}
	if o.Status == Refused {
		return o.Kind
	}
	return "wrong"
}

// reproducesTensor runs the tensor programs and returns the index of the
// smallest one that has the outcome f (-1 if none), and its outcome. A
// program whose function F does not run (its value mode fails) is no
// reproduction.
func reproducesTensor(cfg *Config, progs []*Program, f Outcome) (Outcome, int, error) {
	c := *cfg
	c.Log = nil
	outs, err := RunTensorBatch(&c, progs)
	if err != nil {
		return f, -1, err
	}
	bad := map[*Program]bool{}
	for _, o := range outs {
		if o.Mode == TModeValue && o.Status != Pass || o.Status == Tester {
			bad[o.Program] = true
		}
	}
	best, bestOut := -1, f
	for _, o := range outs {
		if o.Mode != f.Mode || o.Status != f.Status || TensorCategory(o) != TensorCategory(f) || bad[o.Program] {
			continue
		}
		k := slices.Index(progs, o.Program)
		if best < 0 || size(progs[k].Src) < size(progs[best].Src) {
			best, bestOut = k, o
		}
	}
	return bestOut, best, nil
}

// tensorRefs lists, for each tensor mode, the modes whose functions its
// checks read (besides jvp, which most read).
var tensorRefs = map[string][]string{
	TModeJVPNil: {ModeJVP}, TModeTaylorNil: {ModeTaylor}, TModeGradAcc: {ModeGrad},
	ModeTaylorLanes: {ModeTaylor}, ModeHVP: {ModeGrad, ModeTaylor}, ModeHVPLanes: {ModeHVP}, ModeHVPStacked: {ModeHVP},
	ModeHessian: {ModeHVP}, ModeHessDiag: {ModeHVP}, ModeLaplacian: {ModeHVP},
}

// restrictTensor returns the program with the directives of f's mode
// and those its checks read only (all of them for float32).
func restrictTensor(src []byte, f Outcome) ([]byte, error) {
	if f.Mode == TModeFloat32 || f.Mode == TModeValue {
		return nil, fmt.Errorf("every mode")
	}
	keep := map[string]bool{f.Mode: true, ModeJVP: true}
	for _, m := range tensorRefs[f.Mode] {
		keep[m] = true
		for _, r := range tensorRefs[m] {
			keep[r] = true
		}
	}
	var out []string
	for l := range strings.SplitSeq(string(src), "\n") {
		if m := tdirRE.FindStringSubmatch(l); m != nil && !keep[tensorMode(m)] {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n")), nil
}

// tensorCandidates returns the tensor programs one mutation away from
// src that type-check and have no more words, smallest first, without
// duplicates.
func tensorCandidates(src []byte) [][]byte {
	return candidatesWith(src, parseTensor, func(p *parsed, k int) *mutator {
		m := &tensorMutator{mutator: mutator{p: p, target: k}}
		m.walk()
		return &m.mutator
	})
}

// tensorMutator applies the target-th mutation of a walk over a tensor
// program.
type tensorMutator struct {
	mutator
}

// isTensor reports whether t is *tensorops.Tensor.
func isTensor(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Tensor" && n.Obj().Pkg() != nil && n.Obj().Pkg().Name() == "tensorops"
}

func (m *tensorMutator) walk() {
	f := m.p.file
	info := m.p.info
	// Helpers and methods: delete one (if nothing calls it).
	for i, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name != "F" && m.site() {
			f.Decls = slices.Delete(f.Decls, i, i+1)
			return
		}
	}
	// Parameters of F: make one a local.
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "F" {
			m.dropTensorParam(fd)
		}
	}
	if m.done {
		return
	}
	m.walkNodes(func(c *astutil.Cursor) bool {
		switch n := c.Node().(type) {
		case *ast.CallExpr:
			tv, ok := info.Types[n]
			if !ok || n.Ellipsis.IsValid() {
				break
			}
			// A tensor call replaced by one of its tensor arguments
			// (spread ones excluded), a float one by the SumAll of one.
			for _, a := range n.Args {
				at, ok := info.Types[a]
				if !ok || !isTensor(at.Type) {
					continue
				}
				if isTensor(tv.Type) && m.site() {
					c.Replace(a)
					return false
				}
				if isFloat(tv.Type) && !isSumAll(n) && m.site() {
					c.Replace(call(sel(id("tensorops"), "SumAll"), a))
					return false
				}
			}
		case *ast.BinaryExpr:
			// A sum of float terms by one of them.
			if tv, ok := info.Types[n]; ok && tv.Value == nil && isFloat(tv.Type) {
				for _, r := range []ast.Expr{n.X, n.Y} {
					if rt, ok := info.Types[r]; ok && rt.Value == nil && m.site() {
						c.Replace(r)
						return false
					}
				}
			}
		}
		return true
	})
}

// isSumAll reports whether c calls tensorops.SumAll.
func isSumAll(c *ast.CallExpr) bool {
	s, ok := c.Fun.(*ast.SelectorExpr)
	return ok && s.Sel.Name == "SumAll"
}

// dropTensorParam offers, for each parameter of F, its removal: a local
// of the same name takes its place (a tensor of its shape full of 0.5,
// 0.5 for a float), and its metadata and wrt= go.
func (m *tensorMutator) dropTensorParam(fd *ast.FuncDecl) {
	var params []*tparam
	for _, cg := range m.p.file.Comments {
		for _, c := range cg.List {
			if mm := tparamRE.FindStringSubmatch(c.Text); mm != nil {
				q := &tparam{name: mm[1], kind: mm[2]}
				if q.kind != "float" && q.kind != "model" && q.kind != "modelval" {
					q.shape, _ = parseDims(mm[3])
				}
				params = append(params, q)
			}
		}
	}
	for _, q := range params {
		var init ast.Expr
		switch q.kind {
		case "float":
			init = floatLit(0.5)
		case "tensor", "fixed", "labels":
			args := []ast.Expr{sel(id("tensorops"), "Float64"), floatLit(0.5)}
			for _, d := range q.shape {
				args = append(args, intLit(d))
			}
			init = call(sel(id("tensorops"), "Full"), args...)
		}
		if init == nil || !m.site() {
			continue
		}
		for _, fl := range fd.Type.Params.List {
			fl.Names = slices.DeleteFunc(fl.Names, func(n *ast.Ident) bool { return n.Name == q.name })
		}
		fd.Type.Params.List = slices.DeleteFunc(fd.Type.Params.List, func(fl *ast.Field) bool { return len(fl.Names) == 0 })
		fd.Body.List = append([]ast.Stmt{define(q.name, init)}, fd.Body.List...)
		for _, cg := range m.p.file.Comments {
			for _, c := range cg.List {
				if mm := tparamRE.FindStringSubmatch(c.Text); mm != nil && mm[1] == q.name {
					c.Text = "//difftest:dropped " + q.name
				}
				if mm := tdirRE.FindStringSubmatch(c.Text); mm != nil {
					c.Text = dropWrt(c.Text, q.name)
				}
			}
		}
		return
	}
}

// dropWrt removes name from the wrt= list of a directive.
func dropWrt(dir, name string) string {
	before, list, ok := strings.Cut(dir, "wrt=")
	if !ok {
		return dir
	}
	list, after, _ := strings.Cut(list, " ")
	names := slices.DeleteFunc(strings.Split(list, ","), func(n string) bool { return n == name })
	if after != "" {
		after = " " + after
	}
	return before + "wrt=" + strings.Join(names, ",") + after
}
