package difftest

// This file defines the shrinking of a failing program: greedy
// minimization by one-step mutations of its syntax (delete a statement,
// replace an expression by an operand or a constant, shrink a constant,
// drop a parameter or a helper), each kept only if it type-checks and
// the same failure persists. Candidates are run many to a batch.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/ast/astutil"
)

// Category groups the kinds of failures that shrinking treats as the
// same: any wrong number is "wrong".
func Category(o Outcome) string {
	switch o.Kind {
	case "value", "jvp", "dot", "oracle dot", "taylor1", "taylor1-jvp", "taylor2", "taylor3", "twin value":
		return "wrong"
	}
	if isSecond(o.Mode) && strings.HasPrefix(o.Kind, o.Mode) || strings.HasPrefix(o.Kind, "hessian-") {
		return "wrong" // hvp-quad, hessian-sym, hessdiag, …
	}
	if strings.HasPrefix(o.Kind, "lane-") {
		return "wrong" // a lane against the jet without lanes: lane-taylor2, …
	}
	return o.Kind
}

// same reports whether a candidate's outcome reproduces the failure f.
func same(o, f Outcome) bool {
	return o.Entry == f.Entry && o.Mode == f.Mode && o.Status == f.Status && Category(o) == Category(f)
}

// ShrinkConfig bounds a shrinking.
type ShrinkConfig struct {
	Budget time.Duration // total time (default 10m)
	Chunk  int           // candidates per batch (default 40)
}

// Shrink returns the smallest variant of p it finds that fails as f
// does, and its outcome.
func Shrink(cfg *Config, sc ShrinkConfig, p *Program, f Outcome) (*Program, Outcome, error) {
	return shrink(sc, p, f, func(progs []*Program) (Outcome, int, error) { return reproduces(cfg, progs, f) })
}

// shrink is Shrink with try, which returns the index of the smallest
// program of a batch that fails as f does (-1 if none) and its outcome.
func shrink(sc ShrinkConfig, p *Program, f Outcome, try func([]*Program) (Outcome, int, error)) (*Program, Outcome, error) {
	return shrinkBy(sc, p, f, shrinker{try: try, restrict: restrictModes, candidates: candidates})
}

// shrinker is what shrinkBy needs of a kind of programs: try (as for
// shrink), restrict, which returns the program with only the modes that
// the failure f needs (an error if it cannot), and candidates, which
// returns the programs one mutation away, smallest first.
type shrinker struct {
	try        func([]*Program) (Outcome, int, error)
	restrict   func(src []byte, f Outcome) ([]byte, error)
	candidates func(src []byte) [][]byte
}

// shrinkBy minimizes p, which fails as f, greedily by the mutations of
// sh.
func shrinkBy(sc ShrinkConfig, p *Program, f Outcome, sh shrinker) (*Program, Outcome, error) {
	if sc.Budget <= 0 {
		sc.Budget = 10 * time.Minute
	}
	if sc.Chunk <= 0 {
		sc.Chunk = 40
	}
	deadline := time.Now().Add(sc.Budget)
	cur, curOut := p, f
	if src, err := sh.restrict(p.Src, f); err == nil {
		c := &Program{Name: "restricted", Src: src, Seed: p.Seed, Index: p.Index, Features: p.Features}
		if o, ok, err := sh.try([]*Program{c}); err != nil {
			return nil, f, err
		} else if ok >= 0 {
			cur, curOut = c, o
		}
	}
	// Candidates as large as the current program (an operand replaced
	// by a constant, which may let a parameter go next) are taken a few
	// times in a row at most; visited prevents cycles.
	visited := map[string]bool{string(cur.Src): true}
	neutral := 0
	for time.Now().Before(deadline) && neutral <= 4 {
		cands := slices.DeleteFunc(sh.candidates(cur.Src), func(c []byte) bool { return visited[string(c)] })
		if len(cands) == 0 {
			break
		}
		improved := false
		for start := 0; start < len(cands) && time.Now().Before(deadline); start += sc.Chunk {
			end := min(start+sc.Chunk, len(cands))
			var progs []*Program
			for k, src := range cands[start:end] {
				progs = append(progs, &Program{Name: fmt.Sprintf("c%d", start+k), Src: src, Seed: p.Seed, Index: p.Index})
			}
			o, k, err := sh.try(progs)
			if err != nil {
				return nil, f, err
			}
			if k >= 0 {
				if words(progs[k].Src) < words(cur.Src) {
					neutral = 0
				} else {
					neutral++
				}
				cur = &Program{Name: p.Name, Src: progs[k].Src, Seed: p.Seed, Index: p.Index, Features: p.Features}
				visited[string(cur.Src)] = true
				curOut = o
				improved = true
				break
			}
		}
		if !improved {
			break
		}
	}
	cur.Name = p.Name
	return cur, curOut, nil
}

// restrictModes returns the program with only the failing mode of f's
// entry and the modes its checks read.
func restrictModes(src []byte, f Outcome) ([]byte, error) {
	// Only the failing mode (and forward mode, which the dot test
	// reads).
	modes := []string{f.Mode}
	if f.Kind == "dot" || f.Kind == "taylor1-jvp" {
		modes = append(modes, ModeJVP)
	}
	switch f.Mode {
	case ModeTaylorLanes:
		modes = append(modes, ModeTaylor) // the reference of each lane
	case ModeLineLanes:
		modes = append(modes, ModeLine)
	}
	if isSecond(f.Mode) {
		// The references of the second-order checks: the jets, and the
		// helpers the Hessian is checked against.
		modes = append(modes, ModeTaylor, ModeLine)
		switch f.Kind {
		case "hessian-hvp":
			modes = append(modes, ModeHVP)
		case "hessian-diag":
			modes = append(modes, ModeHessDiag)
		case "hessian-trace":
			modes = append(modes, ModeLaplacian)
		}
	}
	return withModes(src, f.Entry, modes)
}

// reproduces runs the programs and returns the index of the smallest one
// that fails as f does (-1 if none), and its outcome.
func reproduces(cfg *Config, progs []*Program, f Outcome) (Outcome, int, error) {
	c := *cfg
	c.Log = nil
	if f.Kind == "hang" {
		c.Timeout = time.Second // each hanging candidate costs this
	}
	outs, err := RunBatch(&c, progs)
	if err != nil {
		return f, -1, err
	}
	// A candidate whose own function panics, or whose twin is wrong,
	// is no reproduction.
	bad := map[*Program]bool{}
	for _, o := range outs {
		if o.Status == Tester {
			bad[o.Program] = true
		}
	}
	best, bestOut := -1, f
	for _, o := range outs {
		if !same(o, f) || bad[o.Program] {
			continue
		}
		k := slices.Index(progs, o.Program)
		if best < 0 || size(progs[k].Src) < size(progs[best].Src) {
			best, bestOut = k, o
		}
	}
	return bestOut, best, nil
}

// size measures a program: its words outside comments, then its bytes
// (in units small enough not to outweigh a word).
func size(src []byte) int {
	words, bytes := 0, 0
	for _, l := range strings.Split(string(src), "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
			words += len(strings.Fields(t))
			bytes += len(t)
		}
	}
	return words<<20 + bytes
}

// words returns the number of words of a program outside comments.
func words(src []byte) int { return size(src) >> 20 }

// withModes rewrites the //difftest:modes line of the entry key.
func withModes(src []byte, key string, modes []string) ([]byte, error) {
	p, err := parse(src)
	if err != nil {
		return nil, err
	}
	for _, d := range p.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !fd.Name.IsExported() || fd.Doc == nil {
			continue
		}
		for _, c := range fd.Doc.List {
			if modesRE.MatchString(c.Text) {
				c.Text = "//difftest:modes " + strings.Join(modes, " ")
			}
		}
	}
	return formatFile(p.fset, p.file), nil
}

// candidates returns the programs one mutation away from src that
// type-check and have no more words, smallest first, without
// duplicates.
func candidates(src []byte) [][]byte {
	return candidatesWith(src, parse, func(p *parsed, k int) *mutator {
		m := &mutator{p: p, target: k}
		m.walk()
		return m
	})
}

// candidatesWith is candidates with the type check parse and the walk
// that makes the k-th mutation of a program.
func candidatesWith(src []byte, parse func([]byte) (*parsed, error), walk func(p *parsed, k int) *mutator) [][]byte {
	var out [][]byte
	seen := map[string]bool{string(src): true}
	for k := 0; ; k++ {
		p, err := parse(src)
		if err != nil {
			return nil
		}
		m := walk(p, k)
		if !m.done {
			break
		}
		if !m.applied {
			continue
		}
		res, ok := fixupWith(formatFile(p.fset, p.file), parse)
		if !ok || seen[string(res)] || words(res) > words(src) {
			continue
		}
		seen[string(res)] = true
		out = append(out, res)
	}
	slices.SortStableFunc(out, func(a, b []byte) int { return size(a) - size(b) })
	return out
}

// mutator applies the target-th mutation of a walk over the program.
type mutator struct {
	p       *parsed
	target  int
	n       int
	done    bool // the target-th site was reached
	applied bool // and its mutation made
}

// site reports whether this site is the target, counting it.
func (m *mutator) site() bool {
	if m.done {
		return false
	}
	if m.n == m.target {
		m.done = true
		m.applied = true
		return true
	}
	m.n++
	return false
}

func (m *mutator) walk() {
	f := m.p.file
	// Helpers: delete one.
	for i, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && !fd.Name.IsExported() && !pinned(fd) && m.site() {
			f.Decls = slices.Delete(f.Decls, i, i+1)
			return
		}
	}
	// Parameters of the entries: drop one.
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.IsExported() {
			m.dropParams(fd)
		}
	}
	if m.done {
		return
	}
	// //difftest:len: smaller.
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if ms := lenRE.FindStringSubmatch(c.Text); ms != nil {
				if n, _ := strconv.Atoi(ms[1]); n > 1 && m.site() {
					c.Text = fmt.Sprintf("//difftest:len %d", n-1)
					return
				}
			}
		}
	}
	// Statements and expressions.
	m.walkNodes(func(c *astutil.Cursor) bool {
		switch n := c.Node().(type) {
		case ast.Expr:
			tv, ok := m.p.info.Types[n]
			if !ok || tv.Value != nil || !isFloat(tv.Type) {
				break
			}
			for _, r := range operands(m.p.info, n) {
				if m.site() {
					c.Replace(r)
					return false
				}
			}
			if _, lit := n.(*ast.BasicLit); !lit && m.site() {
				c.Replace(floatLit(0.5))
				return false
			}
		}
		return true
	})
}

// walkNodes walks the program offering, at each node, the structural
// mutations, then those of other (an astutil.Apply pre function that
// returns false once it mutated).
func (m *mutator) walkNodes(other func(c *astutil.Cursor) bool) {
	astutil.Apply(m.p.file, func(c *astutil.Cursor) bool {
		if m.done {
			return false
		}
		if fd, ok := c.Node().(*ast.FuncDecl); ok && pinned(fd) {
			return false
		}
		if handled, mutated := m.structural(c.Node()); handled {
			return !mutated
		}
		return other(c)
	}, nil)
}

// structural offers the mutations of a block (delete a statement,
// unwrap one), an if (drop its else) and an integer constant (make it
// smaller) at node n: it reports whether n is one of those (handled)
// and whether it mutated it.
func (m *mutator) structural(n ast.Node) (handled, mutated bool) {
	switch n := n.(type) {
	case *ast.BlockStmt:
		for i := range n.List {
			if m.site() {
				n.List = slices.Delete(n.List, i, i+1)
				return true, true
			}
		}
		for i, st := range n.List {
			if inner := unwrap(st); inner != nil && m.site() {
				n.List = slices.Replace(n.List, i, i+1, inner...)
				return true, true
			}
		}
	case *ast.IfStmt:
		if n.Else != nil && m.site() {
			n.Else = nil
			return true, true
		}
	case *ast.BasicLit:
		if n.Kind == token.INT {
			if v, _ := strconv.Atoi(n.Value); v > 1 {
				for _, w := range []int{1, v / 2, v - 1} {
					if w >= 1 && w < v && m.site() {
						n.Value = strconv.Itoa(w)
						return true, true
					}
				}
			}
		}
	default:
		return false, false
	}
	return true, false
}

// unwrap returns the statements that replace st by its body: an if by
// its then branch, a loop by its body (which type-checks only where the
// body does not use the loop's variables).
func unwrap(st ast.Stmt) []ast.Stmt {
	switch st := st.(type) {
	case *ast.IfStmt:
		return st.Body.List
	case *ast.ForStmt:
		return st.Body.List
	case *ast.RangeStmt:
		return st.Body.List
	case *ast.BlockStmt:
		return st.List
	}
	return nil
}

// operands returns the float subexpressions that may replace e.
func operands(info *types.Info, e ast.Expr) []ast.Expr {
	isF := func(x ast.Expr) bool {
		tv, ok := info.Types[x]
		return ok && isFloat(tv.Type)
	}
	var ops []ast.Expr
	switch e := e.(type) {
	case *ast.BinaryExpr:
		ops = []ast.Expr{e.X, e.Y}
	case *ast.UnaryExpr:
		ops = []ast.Expr{e.X}
	case *ast.ParenExpr:
		ops = []ast.Expr{e.X}
	case *ast.CallExpr:
		ops = e.Args
	case *ast.IndexExpr:
		return nil
	}
	return slices.DeleteFunc(slices.Clone(ops), func(x ast.Expr) bool { return !isF(x) })
}

// dropParams offers, for each parameter of fd, its removal: a local of
// the same name takes its place.
func (m *mutator) dropParams(fd *ast.FuncDecl) {
	L := DefaultLen
	for _, cg := range m.p.file.Comments {
		for _, c := range cg.List {
			if ms := lenRE.FindStringSubmatch(c.Text); ms != nil {
				L, _ = strconv.Atoi(ms[1])
			}
		}
	}
	var names []*ast.Ident
	for _, fl := range fd.Type.Params.List {
		names = append(names, fl.Names...)
	}
	for _, name := range names {
		obj := m.p.info.Defs[name]
		if obj == nil {
			continue
		}
		var init ast.Expr
		switch t := obj.Type().(type) {
		case *types.Basic:
			if isFloat(t) {
				init = floatLit(0.5)
			} else if isInteger(t) {
				init = intLit(L)
			}
		case *types.Slice:
			init = call(id("make"), sliceOf(id("float64")), intLit(L))
		case *types.Array:
			init = &ast.CompositeLit{Type: arrayOf(int(t.Len()), id("float64"))}
		case *types.Named:
			init = &ast.CompositeLit{Type: id(t.Obj().Name())}
		case *types.Pointer:
			if n, ok := t.Elem().(*types.Named); ok {
				init = &ast.UnaryExpr{Op: token.AND, X: &ast.CompositeLit{Type: id(n.Obj().Name())}}
			}
		}
		if init == nil || !m.site() {
			continue
		}
		for _, fl := range fd.Type.Params.List {
			fl.Names = slices.DeleteFunc(fl.Names, func(n *ast.Ident) bool { return n == name })
		}
		fd.Type.Params.List = slices.DeleteFunc(fd.Type.Params.List, func(fl *ast.Field) bool { return len(fl.Names) == 0 })
		fd.Body.List = append([]ast.Stmt{define(name.Name, init)}, fd.Body.List...)
		return
	}
}

var unusedRE = regexp.MustCompile(`^declared and not used: (\w+)$|^"(\w+)" imported and not used$`)

// fixupWith removes what a mutation left unused (declarations, loop
// variables, imports) and returns the source if it then type-checks by
// parse.
func fixupWith(src []byte, parse func([]byte) (*parsed, error)) ([]byte, bool) {
	for range 20 {
		p, err := parse(src)
		if err == nil {
			return src, true
		}
		tes, ok := err.(typeErrors)
		if !ok {
			return nil, false
		}
		changed := false
		for _, te := range tes {
			ms := unusedRE.FindStringSubmatch(te.Msg)
			if ms == nil {
				return nil, false
			}
			if ms[2] != "" {
				changed = astutil.DeleteImport(p.fset, p.file, ms[2]) || changed
				continue
			}
			changed = removeUnused(p, te.Pos) || changed
		}
		if !changed {
			return nil, false
		}
		src = formatFile(p.fset, p.file)
	}
	return nil, false
}

// removeUnused deletes the declaration of the unused variable at pos: a
// v := x statement, a var declaration, or a range variable.
func removeUnused(p *parsed, pos token.Pos) bool {
	changed := false
	astutil.Apply(p.file, func(c *astutil.Cursor) bool {
		if changed {
			return false
		}
		switch n := c.Node().(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == 1 && n.Lhs[0].Pos() == pos {
				if _, ok := c.Parent().(*ast.BlockStmt); ok {
					c.Delete()
					changed = true
					return false
				}
			}
		case *ast.DeclStmt:
			if n.Pos() <= pos && pos < n.End() {
				if _, ok := c.Parent().(*ast.BlockStmt); ok {
					c.Delete()
					changed = true
					return false
				}
			}
		case *ast.RangeStmt:
			if n.Key != nil && n.Key.Pos() == pos {
				if n.Value == nil {
					n.Key, n.Tok = nil, token.ILLEGAL
				} else {
					n.Key = id("_")
				}
				changed = true
			}
			if n.Value != nil && n.Value.Pos() == pos {
				n.Value = nil
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "_" {
					n.Key, n.Tok = nil, token.ILLEGAL
				}
				changed = true
			}
		}
		return true
	}, nil)
	return changed
}
