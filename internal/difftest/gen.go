package difftest

// This file defines the generator of random programs: smooth functions of
// floats, slices, arrays and structs, with loops of every form, branches,
// memory, helpers and closures, built as Go syntax.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// Weights weighs the constructs the generator chooses from (see
// DefaultWeights for their names). A construct of weight 0 is never
// generated: that is the switch to leave out a construct known to fail.
//
// Most weights are relative, among the choices of one place. The
// weights of the special constructs (Specials) are instead the percentage
// of programs that may use the construct: each program enables a few,
// which keeps the others free of them, so that a program that a mode
// refuses for one construct does not hide the rest.
type Weights map[string]int

// Specials are the constructs enabled per program; their weight is the
// percentage of programs that enable them.
var Specials = []string{
	"closure", "closure-pure", "integrate", "append-grow", "alloc-in-loop", "struct-model",
	"method-update", "helper-dst", "param-model", "param-modelptr", "method", "method-score",
	"dst", "inplace", "fixpoint", "state-step", "helper-ret-slice", "nest-grad", "nest-jvp",
}

// specialPlace is the weight of an enabled special construct among the
// choices of a place where it is not specialWeight: the constructs of
// simulation and nesting code, which a program that enables them should
// use.
var specialPlace = map[string]int{"state-step": 12, "helper-ret-slice": 6, "nest-grad": 8, "nest-jvp": 8}

// specialWeight is the weight of an enabled special construct among the
// choices of a place.
const specialWeight = 3

// DefaultWeights returns the weights of every construct.
func DefaultWeights() Weights {
	return Weights{
		// Parameters of the entry function, and its shape.
		"param-float": 6, "param-slice": 6, "param-int": 2, "param-array": 2, "param-vec2": 2,
		"result1": 8, "results2": 2,
		// Statements.
		"assign-new": 6, "assign-acc": 6, "assign-range-value": 2, "dead-store": 4, "if-active": 3, "loop": 7,
		"local-slice": 2, "local-slice-make": 2, "local-slice-copy": 1, "local-slice-append": 1,
		"slice-write": 3, "field-write": 1, "struct-vec2": 1,
		// Statements inside loops.
		"loop-break": 1, "loop-continue": 1, "loop-return": 1,
		// Loop forms.
		"for-3clause": 3, "for-down": 1, "for-cond": 1, "for-range-const": 2, "for-range-var": 1,
		"for-range-slice-iv": 2, "for-range-slice-i": 1, "for-range-slice-v": 1, "for-range-array": 1,
		"for-tri": 2,
		// Expressions.
		"leaf": 10, "arith": 8, "div": 1, "neg": 1, "minmax": 1, "int-conv": 1,
		"math-exp": 1, "math-log": 1, "math-sqrt": 1, "math-sin": 1, "math-cos": 1, "math-tanh": 1,
		"math-atan": 1, "math-pow": 1, "math-hypot": 1, "math-abs": 1,
		"helper-scalar": 1, "helper-slice": 1, "call-closure": 3,
		// Specials: percentages of programs.
		"closure": 8, "closure-pure": 8, "integrate": 6, "append-grow": 10, "alloc-in-loop": 10,
		"struct-model": 8, "method-update": 10, "helper-dst": 12, "param-model": 8, "param-modelptr": 10,
		"method": 10, "method-score": 10, "dst": 20, "inplace": 8, "fixpoint": 12,
		"state-step": 25, "helper-ret-slice": 15, "nest-grad": 15, "nest-jvp": 10,
		// The shapes of a state stepped in place (see genstate.go).
		"state-new": 2, "state-alias": 1, "state-literal": 1, "state-euler": 1, "state-leapfrog": 1,
		"state-replace": 1, "state-append": 1, "nest-in-step": 1, "state-checkpoint": 1, "state-carry": 1,
		"state-value": 1,
		// The percentage of the entries with a state loop whose reverse
		// modes checkpoint it (checkpoint=1 or 2: see genstmt.go).
		"state-revolve": 50,
		// Modes: the percentage of the entries of one float64 result with
		// a []float64 parameter that get the second-order helpers, and
		// that of the entries that get the jets with lanes.
		"second": 100, "lanes": 100,
	}
}

// With returns a copy of w with the weights of the constructs in kv
// ("name=weight") changed.
func (w Weights) With(kv ...string) (Weights, error) {
	c := Weights{}
	for k, v := range w {
		c[k] = v
	}
	for _, s := range kv {
		var name string
		var n int
		if _, err := fmt.Sscanf(strings.Replace(s, "=", " ", 1), "%s %d", &name, &n); err != nil {
			return nil, fmt.Errorf("weight %q: want name=N", s)
		}
		if _, ok := c[name]; !ok {
			return nil, fmt.Errorf("weight %q: no construct %s", s, name)
		}
		c[name] = n
	}
	return c, nil
}

type kind int

const (
	kFloat kind = iota
	kInt
	kSlice
	kArray
	kVec2
	kModel
	kModelPtr
	kFunc
	kState // a pointer to the program's state struct (genstate.go)
)

// vr is a variable in scope.
type vr struct {
	name     string
	k        kind
	lo, hi   int  // ints: the range of values
	isLen    bool // ints: equal to the length of slices
	writable bool // slices, models: elements may be assigned
	// rangeValue: the value variable of a range loop.
	rangeValue bool
	// dirty: assigned since it was last read (floats, Vec2).
	dirty bool
	read  bool
	param bool
	// hist: a state whose step appends to its field hist.
	hist bool
}

// gen generates one program.
type gen struct {
	r       *rand.Rand
	w       Weights
	L       int // length of slices and arrays
	idx     int
	feats   map[string]bool
	helpers map[string]ast.Decl
	// docs are the doc comment lines of helpers (directives of nested
	// derivatives, the references' marks), by the helpers' key.
	docs map[string][]string
	// stateHist: the step method appends to the state's field hist.
	stateHist bool
	// fset holds the positions of the declarations parsed from templates.
	fset *token.FileSet
}

// Generate returns the program idx of seed: the same program for the same
// arguments.
func Generate(seed uint64, idx int, w Weights) *Program {
	g := &gen{
		r:       rand.New(rand.NewPCG(seed, uint64(idx))),
		w:       Weights{},
		idx:     idx,
		feats:   map[string]bool{},
		helpers: map[string]ast.Decl{},
		docs:    map[string][]string{},
		fset:    token.NewFileSet(),
	}
	for k, v := range w {
		g.w[k] = v
	}
	for _, s := range Specials {
		if g.r.IntN(100) < w[s] {
			g.w[s] = specialWeight
			if p, ok := specialPlace[s]; ok {
				g.w[s] = p
			}
		} else {
			g.w[s] = 0
		}
	}
	g.L = 3 + g.r.IntN(4)
	entry, doc := g.entry()
	src := g.file(entry, doc, seed)
	var feats []string
	for f := range g.feats {
		feats = append(feats, f)
	}
	sort.Strings(feats)
	return &Program{Name: fmt.Sprintf("s%dp%d", seed, idx), Src: src, Seed: seed, Index: idx, Features: feats}
}

// file prints the program.
func (g *gen) file(entry *ast.FuncDecl, doc []string, seed uint64) []byte {
	fset := g.fset
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Program %d of seed %d of difftest's generator.\n//\n//difftest:len %d\n\npackage p\n\n", g.idx, seed, g.L)
	decls := []ast.Node{entry}
	for _, d := range g.helpers {
		decls = append(decls, d)
	}
	if slices.ContainsFunc(decls, usesMath) {
		buf.WriteString("import \"math\"\n\n")
	}
	print := func(d ast.Decl) {
		if err := format.Node(&buf, fset, d); err != nil {
			panic(fmt.Sprintf("difftest: printing program %d of seed %d: %v", g.idx, seed, err))
		}
		buf.WriteString("\n\n")
	}
	for _, line := range doc {
		if strings.HasPrefix(line, "difftest:") {
			buf.WriteString("//" + line + "\n")
		} else {
			buf.WriteString(strings.TrimRight("// "+line, " ") + "\n")
		}
	}
	print(entry)
	names := make([]string, 0, len(g.helpers))
	for n := range g.helpers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, line := range g.docs[n] {
			buf.WriteString(line + "\n")
		}
		print(g.helpers[n])
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		panic(fmt.Sprintf("difftest: program %d of seed %d: %v\n%s", g.idx, seed, err, buf.Bytes()))
	}
	return src
}

// pick returns one of the options, with probabilities proportional to
// their weights, and records it; "" when all weigh 0.
func (g *gen) pick(options ...string) string {
	total := 0
	for _, o := range options {
		total += g.w[o]
	}
	if total == 0 {
		return ""
	}
	k := g.r.IntN(total)
	for _, o := range options {
		if k < g.w[o] {
			g.feats[o] = true
			return o
		}
		k -= g.w[o]
	}
	panic("unreachable")
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// maybe returns true, and records the construct, with the probability
// w/(w+other) where w is its weight.
func (g *gen) maybe(construct string, other int) bool {
	w := g.w[construct]
	if w == 0 || g.r.IntN(w+other) >= w {
		return false
	}
	g.feats[construct] = true
	return true
}

var constants = []float64{0.5, 1.5, 2, 0.25, 0.75, 3, 0.1, 1.25}

func (g *gen) constant() ast.Expr {
	c := constants[g.r.IntN(len(constants))]
	if g.chance(0.25) {
		c = -c
	}
	return floatLit(c)
}

// fn generates one function body.
type fn struct {
	g      *gen
	scopes [][]*vr
	loops  int // enclosing loops
	nres   int // float results
	dst    *vr // destination parameter, for functions without results
	acc    *vr // the accumulator every unused variable is added to
	budget int // statements left
	n      int // names made
	helper bool
	// writesParam records a write into the memory of a parameter.
	writesParam bool
	// stateLoop: the function steps a state in a time loop.
	stateLoop bool
}

func (f *fn) push() { f.scopes = append(f.scopes, nil) }

// pop closes a scope and returns statements that read the variables of
// it no one read, into the accumulator.
func (f *fn) pop() []ast.Stmt {
	uses := f.useUnread()
	f.scopes = f.scopes[:len(f.scopes)-1]
	return uses
}

// useUnread returns statements that read the variables of the innermost
// scope no one read, into the accumulator.
func (f *fn) useUnread() []ast.Stmt {
	vars := f.scopes[len(f.scopes)-1]
	var uses []ast.Stmt
	for _, v := range vars {
		if !f.needsUse(v) {
			continue
		}
		f.acc.read = true
		if u := f.use(v); u != nil {
			uses = append(uses, assign(id(f.acc.name), token.ADD_ASSIGN, u))
		}
	}
	return uses
}

// needsUse reports whether v needs a read at the end of its scope: no
// one read it (Go requires one), or it was assigned after its last read
// (a dead store, left with the weight of "dead-store").
func (f *fn) needsUse(v *vr) bool {
	if v == f.acc || v.k == kInt {
		return false
	}
	return !v.read || v.dirty && !f.g.maybe("dead-store", 20)
}

// use returns a float expression that reads v.
func (f *fn) use(v *vr) ast.Expr {
	v.read, v.dirty = true, false
	switch v.k {
	case kFloat:
		return id(v.name)
	case kSlice, kArray:
		return index(id(v.name), intLit(f.g.r.IntN(f.g.L)))
	case kVec2:
		return bin(sel(id(v.name), "X"), token.ADD, sel(id(v.name), "Y"))
	case kModel, kModelPtr:
		return sel(id(v.name), "B")
	case kFunc:
		return call(id(v.name), f.g.constant())
	case kState:
		return f.readState(v)
	}
	return nil
}

func (f *fn) declare(v *vr) *vr {
	f.scopes[len(f.scopes)-1] = append(f.scopes[len(f.scopes)-1], v)
	return v
}

func (f *fn) fresh(prefix string) string {
	f.n++
	return fmt.Sprintf("%s%d", prefix, f.n)
}

// vars returns the variables in scope of the kinds given.
func (f *fn) vars(ks ...kind) []*vr {
	var vs []*vr
	seen := map[string]bool{}
	for i := len(f.scopes) - 1; i >= 0; i-- {
		for _, v := range f.scopes[i] {
			if !seen[v.name] && slices.Contains(ks, v.k) {
				vs = append(vs, v)
			}
			seen[v.name] = true
		}
	}
	return vs
}

func (f *fn) any(vs []*vr) *vr { return vs[f.g.r.IntN(len(vs))] }

// index returns an int expression with a value in [0, L).
func (f *fn) index() ast.Expr {
	L := f.g.L
	var opts []ast.Expr
	for _, v := range f.vars(kInt) {
		if v.lo >= 0 && v.hi <= L-1 {
			opts = append(opts, id(v.name), id(v.name))
		}
		if v.lo >= 1 && v.hi <= L {
			opts = append(opts, bin(id(v.name), token.SUB, intLit(1)))
		}
		if v.lo >= -1 && v.hi <= L-2 {
			opts = append(opts, bin(id(v.name), token.ADD, intLit(1)))
		}
		if v.lo >= 0 && v.hi <= L-1 && f.g.chance(0.2) {
			opts = append(opts, bin(intLit(L-1), token.SUB, id(v.name)))
		}
	}
	if len(opts) == 0 || f.g.chance(0.2) {
		return intLit(f.g.r.IntN(L))
	}
	e := opts[f.g.r.IntN(len(opts))]
	ast.Inspect(e, func(n ast.Node) bool {
		if i, ok := n.(*ast.Ident); ok {
			f.markRead(i.Name)
		}
		return true
	})
	return e
}

func (f *fn) markRead(name string) {
	for i := len(f.scopes) - 1; i >= 0; i-- {
		for _, v := range f.scopes[i] {
			if v.name == name {
				v.read, v.dirty = true, false
				return
			}
		}
	}
}

func (f *fn) read(v *vr) ast.Expr {
	v.read, v.dirty = true, false
	return id(v.name)
}

// leaf returns a float operand.
func (f *fn) leaf() ast.Expr {
	g := f.g
	floats := f.vars(kFloat)
	slicesv := f.vars(kSlice)
	arrays := f.vars(kArray)
	vecs := f.vars(kVec2)
	models := f.vars(kModel, kModelPtr)
	states := f.vars(kState)
	type opt struct {
		w    int
		make func() ast.Expr
	}
	opts := []opt{{2, g.constant}}
	if len(floats) > 0 {
		opts = append(opts, opt{6, func() ast.Expr { return f.read(f.any(floats)) }})
	}
	if len(slicesv) > 0 {
		opts = append(opts, opt{5, func() ast.Expr { return index(f.read(f.any(slicesv)), f.index()) }})
	}
	if len(arrays) > 0 {
		opts = append(opts, opt{2, func() ast.Expr { return index(f.read(f.any(arrays)), f.index()) }})
	}
	if len(vecs) > 0 {
		opts = append(opts, opt{2, func() ast.Expr { return sel(f.read(f.any(vecs)), []string{"X", "Y"}[g.r.IntN(2)]) }})
	}
	if len(models) > 0 {
		opts = append(opts, opt{2, func() ast.Expr {
			m := f.read(f.any(models))
			if g.chance(0.4) {
				return sel(m, "B")
			}
			return index(sel(m, "W"), f.index())
		}})
	}
	if len(states) > 0 {
		opts = append(opts, opt{4, func() ast.Expr { return f.readState(f.any(states)) }})
	}
	total := 0
	for _, o := range opts {
		total += o.w
	}
	k := g.r.IntN(total)
	for _, o := range opts {
		if k < o.w {
			return o.make()
		}
		k -= o.w
	}
	panic("unreachable")
}

// expr returns a float expression of depth at most d.
func (f *fn) expr(d int) ast.Expr {
	g := f.g
	if d <= 0 {
		return f.leaf()
	}
	opts := []string{"leaf", "arith", "div", "neg", "minmax", "math-exp", "math-log", "math-sqrt",
		"math-sin", "math-cos", "math-tanh", "math-atan", "math-pow", "math-hypot", "math-abs"}
	if len(f.vars(kInt)) > 0 {
		opts = append(opts, "int-conv")
	}
	if !f.helper {
		opts = append(opts, "helper-scalar", "integrate")
		if len(f.vars(kSlice)) > 0 {
			opts = append(opts, "helper-slice")
			if len(f.vars(kModel, kModelPtr)) > 0 {
				opts = append(opts, "method-score")
			}
		}
		if len(f.vars(kFunc)) > 0 {
			opts = append(opts, "call-closure")
		}
	}
	sub := func() ast.Expr { return f.expr(d - 1) }
	o := g.pick(opts...)
	switch o {
	case "", "leaf":
		return f.leaf()
	case "arith":
		op := []token.Token{token.ADD, token.SUB, token.MUL, token.MUL}[g.r.IntN(4)]
		return bin(sub(), op, sub())
	case "div":
		if g.chance(0.5) {
			return bin(sub(), token.QUO, floatLit([]float64{2, 3, 1.5, 4}[g.r.IntN(4)]))
		}
		e := sub()
		return bin(sub(), token.QUO, bin(floatLit(1), token.ADD, bin(e, token.MUL, clone(e))))
	case "neg":
		return neg(sub())
	case "minmax":
		return call(id([]string{"min", "max"}[g.r.IntN(2)]), sub(), sub())
	case "int-conv":
		v := f.any(f.vars(kInt))
		return bin(call(id("float64"), f.read(v)), token.MUL, sub())
	case "helper-scalar":
		return call(id(g.scalarHelper()), sub(), sub())
	case "helper-slice":
		ss := f.vars(kSlice)
		return call(id(g.sliceHelper()), f.read(f.any(ss)), f.read(f.any(ss)))
	case "method-score":
		m := f.any(f.vars(kModel, kModelPtr))
		return call(sel(f.read(m), g.scoreMethod()), f.read(f.any(f.vars(kSlice))))
	case "call-closure":
		return call(f.read(f.any(f.vars(kFunc))), sub())
	case "integrate":
		return f.integrate(d)
	}
	return f.mathExpr(strings.TrimPrefix(o, "math-"), d)
}

// mathExpr returns a call of a math function on arguments in its domain.
func (f *fn) mathExpr(name string, d int) ast.Expr {
	g := f.g
	sub := func() ast.Expr { return f.expr(d - 1) }
	square1 := func() ast.Expr { e := sub(); return bin(floatLit(1), token.ADD, bin(e, token.MUL, clone(e))) }
	switch name {
	case "exp":
		bounded := []string{"Sin", "Cos", "Tanh", "Atan"}[g.r.IntN(4)]
		return mathCall("Exp", mathCall(bounded, sub()))
	case "log":
		return mathCall("Log", square1())
	case "sqrt":
		return mathCall("Sqrt", square1())
	case "sin", "cos", "tanh", "atan", "abs":
		return mathCall(strings.ToUpper(name[:1])+name[1:], sub())
	case "pow":
		return mathCall("Pow", sub(), floatLit(float64(2+g.r.IntN(2))))
	case "hypot":
		return mathCall("Hypot", sub(), sub())
	}
	panic("difftest: no math construct " + name)
}

// clone copies an expression tree (a shared node would be printed twice
// but must not be rewritten twice).
func clone(e ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.Ident:
		return id(e.Name)
	case *ast.BasicLit:
		c := *e
		return &c
	case *ast.BinaryExpr:
		return &ast.BinaryExpr{X: clone(e.X), Op: e.Op, Y: clone(e.Y)}
	case *ast.UnaryExpr:
		return &ast.UnaryExpr{Op: e.Op, X: clone(e.X)}
	case *ast.ParenExpr:
		return &ast.ParenExpr{X: clone(e.X)}
	case *ast.CallExpr:
		c := &ast.CallExpr{Fun: clone(e.Fun)}
		for _, a := range e.Args {
			c.Args = append(c.Args, clone(a))
		}
		return c
	case *ast.SelectorExpr:
		return sel(clone(e.X), e.Sel.Name)
	case *ast.IndexExpr:
		return index(clone(e.X), clone(e.Index))
	case *ast.FuncLit:
		return e // closures are not cloned: generated once
	}
	panic(fmt.Sprintf("difftest: clone %T", e))
}

// usesMath reports whether n calls a function of package math.
func usesMath(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := s.X.(*ast.Ident); ok && x.Name == "math" {
				found = true
			}
		}
		return !found
	})
	return found
}
