package emit

// This file defines the variables of the emitted function: liveness of the
// values that need a variable, their interference, the coalescing of
// φ-related values into one variable, and naming.
//
// Coalescing follows the out-of-SSA literature (Sreedhar et al., "Translating
// Out of Static Single Assignment Form", SAS 1999; Boissinot et al.,
// "Revisiting Out-of-SSA Translation for Correctness, Code Quality, and
// Efficiency", CGO 2009): a φ and its argument share a variable when their
// live ranges do not interfere. φ copies are emitted on the CFG edges as
// parallel copies, so the classic lost-copy and swap problems do not arise;
// the copies left over are sequenced in copies.go. Liveness is computed on
// the emitted form: an inlined value's operands are read where the value's
// statement is, not where the value was.
//
// Names come from the values' source names (Value.Name), sanitized into Go
// identifiers and made unique in the whole function, so no variable ever
// shadows another, a parameter, a named result, a predeclared identifier,
// an imported package or a package-level name the file uses.

import (
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/gadgen/gadgen/ir"
)

// variable is one Go variable of the emitted function.
type variable struct {
	name string
	// hint is the name asked for: name, or name with a suffix the namer
	// added to keep it unique in the function.
	hint string
	typ  types.Type
	// members are the SSA values the variable holds (kVar values).
	members []*ir.Value
	// predeclared: a parameter or a named result; never declared in the
	// body.
	predeclared bool
	// alloc is the local allocation whose memory this variable is.
	alloc *ir.Value
	id    int
}

func (v *variable) String() string { return v.name }

// makeVariables names the parameters, coalesces φ-related values and
// creates the variables of all kVar values and local allocations.
func (e *emitter) makeVariables() {
	e.names = newNamer(e.fs)
	for _, r := range e.fn.ResultNames {
		if r != "" && r != "_" {
			e.names.reserve(r)
		}
	}
	// Parameters: their own names first, then generated ones.
	var unnamed []*ir.Value
	for _, p := range e.fn.Params {
		if s := sanitize(p.Name); s != "" {
			e.params[p] = e.names.fresh(s)
		} else if e.kind[p.ID] == kVar {
			unnamed = append(unnamed, p)
		}
	}
	for _, p := range unnamed {
		base := "p" + strconv.Itoa(p.Index)
		if e.fn.Recv != nil && p.Index == 0 {
			base = receiverName(e.fn.Recv)
		}
		e.params[p] = e.names.fresh(base)
	}

	for _, b := range e.cfg.RPO {
		for _, v := range b.Instrs {
			if v.Op == ir.OpExtract && e.live[v.ID] {
				e.extract[v.Args[0]] = append(e.extract[v.Args[0]], v)
			}
		}
	}

	classes := e.coalesce()

	results := map[string]int{}
	for i, r := range e.fn.ResultNames {
		if r != "" && r != "_" {
			results[r] = i
		}
	}
	for _, members := range classes {
		vr := &variable{typ: members[0].Type, members: members, id: len(e.varList)}
		for _, m := range members {
			e.vars[m.ID] = vr
		}
		e.varList = append(e.varList, vr)
	}
	e.findInductions()
	// The names of the source's variables: a value the source did not name
	// (t, n) takes none of them, so that it cannot be mistaken for one
	// (t := copy(s, state) beside the source's loop counter t).
	source := map[string]bool{}
	for _, vr := range e.varList {
		for _, m := range vr.members {
			if s := sanitize(m.Name); s != "" {
				source[s] = true
			}
		}
	}
	for _, vr := range e.varList {
		members := vr.members
		hint := ""
		for _, m := range members {
			if m.Op == ir.OpParam {
				vr.name, vr.predeclared = e.params[m], true
				break
			}
			if hint == "" {
				hint = sanitize(m.Name)
			}
		}
		if vr.name == "" {
			if i, ok := results[hint]; ok && types.Identical(e.fn.ResultTypes[i], vr.typ) {
				// Hold the value in the named result itself.
				vr.name, vr.predeclared = hint, true
				delete(results, hint)
			} else {
				if hint == "" {
					hint = elementHint(members[0])
				}
				var avoid map[string]bool
				if hint == "" {
					hint, avoid = "t", source
					if members[0].Op == ir.OpLen {
						hint = "n"
					}
					for _, m := range members {
						if e.induction[m] {
							hint = "i" // an unnamed loop counter
						}
					}
				}
				vr.name, vr.hint = e.names.freshAvoiding(hint, avoid), hint
			}
		}
	}
	for _, b := range e.cfg.RPO {
		for _, v := range b.Instrs {
			info := e.allocs[v]
			if info == nil || !e.live[v.ID] {
				continue
			}
			elem := v.Type.Underlying().(*types.Pointer).Elem()
			vr := &variable{typ: elem, alloc: v, id: len(e.varList)}
			hint := sanitize(v.Name)
			if info.param != nil {
				vr.name, vr.predeclared = e.params[info.param], true
			} else if i, ok := results[hint]; ok && types.Identical(e.fn.ResultTypes[i], elem) && b == e.fn.Entry() {
				vr.name, vr.predeclared = hint, true
				delete(results, hint)
			} else {
				if hint == "" {
					hint = "t"
				}
				vr.name = e.names.fresh(hint)
			}
			info.v = vr
			e.varList = append(e.varList, vr)
		}
	}
}

// elementHint names an unnamed load of an element after the slice and the
// index (ir.ElementName), as an identifier.
func elementHint(v *ir.Value) string { return sanitize(ir.ElementName(v)) }

// receiverName returns a conventional receiver name for type t: the
// first letter of its name, lower case.
func receiverName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(interface{ Obj() *types.TypeName }); ok {
		for _, r := range n.Obj().Name() {
			if s := sanitize(string(unicode.ToLower(r))); s != "" {
				return s
			}
			break
		}
	}
	return "r"
}

// A bitset over value IDs.
type bitset []uint64

func newBitset(n int) bitset  { return make(bitset, (n+63)/64) }
func (s bitset) add(i int)    { s[i/64] |= 1 << (i % 64) }
func (s bitset) remove(i int) { s[i/64] &^= 1 << (i % 64) }
func (s bitset) unionWith(t bitset) {
	for i := range s {
		s[i] |= t[i]
	}
}
func (s bitset) clone() bitset { return append(bitset(nil), s...) }
func (s bitset) forEach(f func(int)) {
	for i, w := range s {
		for w != 0 {
			b := 0
			for w&(1<<b) == 0 {
				b++
			}
			f(i*64 + b)
			w &^= 1 << b
		}
	}
}
func (s bitset) equal(t bitset) bool {
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// reads calls f for each variable-held value that rendering v as an
// operand reads.
func (e *emitter) reads(v *ir.Value, f func(*ir.Value)) {
	if v == nil {
		return
	}
	switch e.kind[v.ID] {
	case kVar:
		f(v)
	case kInline:
		for _, a := range v.Args {
			e.reads(a, f)
		}
	case kAddr:
		if v.Op == ir.OpAlloc || v.Op == ir.OpGlobal {
			return
		}
		for _, a := range v.Args {
			e.reads(a, f)
		}
	}
}

// stmtDefs calls f for the values that the statement of root v defines.
func (e *emitter) stmtDefs(v *ir.Value, f func(*ir.Value)) {
	switch {
	case e.kind[v.ID] == kVar && v.Op != ir.OpPhi && v.Op != ir.OpExtract && v.Op != ir.OpParam:
		f(v)
	case v.Op == ir.OpCall && v.Type != nil && isTuple(v.Type):
		for _, x := range e.extract[v] {
			if !e.unread[e.vars[x.ID]] {
				f(x)
			}
		}
	}
}

// isStmtRoot reports whether v is emitted as a statement of its block.
func (e *emitter) isStmtRoot(v *ir.Value) bool {
	switch e.kind[v.ID] {
	case kStmt:
		return true
	case kVar:
		return v.Op != ir.OpPhi && v.Op != ir.OpExtract && v.Op != ir.OpParam
	case kAddr:
		return v.Op == ir.OpAlloc
	}
	return false
}

// succPred returns, for the k-th successor edge of b, the index of that
// edge among the successor's predecessors (φ arguments are in Preds
// order; two edges from b to one block are told apart by position).
func succPred(b *ir.Block, k int) int {
	s := b.Succs[k]
	nth := 0
	for i := 0; i < k; i++ {
		if b.Succs[i] == s {
			nth++
		}
	}
	for j, p := range s.Preds {
		if p == b {
			if nth == 0 {
				return j
			}
			nth--
		}
	}
	internalf("b%d is not a predecessor of b%d", b.Index, s.Index)
	return -1
}

// livePhis returns the live φs of b.
func (e *emitter) livePhis(b *ir.Block) []*ir.Value {
	var phis []*ir.Value
	for _, v := range b.Instrs {
		if v.Op != ir.OpPhi {
			break
		}
		if e.live[v.ID] {
			phis = append(phis, v)
		}
	}
	return phis
}

// coalesce computes liveness and interference of the kVar values and
// groups φ-related values into classes that will share a variable. It
// returns the classes in order of first definition.
func (e *emitter) coalesce() [][]*ir.Value {
	c := e.newCoalescer(e.interference())
	c.mergePhis()
	// An update of a source variable (s2 = s + x*x, both named s) reuses
	// the variable when the old value is dead: s += x*x.
	c.mergeUpdates()
	c.mergePhis()
	return c.classes()
}

// interference returns the pairs of kVar values (and kVar parameters)
// live at once, by value ID, the smaller first.
func (e *emitter) interference() map[[2]int]bool {
	n := len(e.live)
	nb := len(e.fn.Blocks)
	liveIn := make([]bitset, nb)
	liveOut := make([]bitset, nb)
	for _, b := range e.cfg.RPO {
		liveIn[b.Index] = newBitset(n)
		liveOut[b.Index] = newBitset(n)
	}
	for changed := true; changed; {
		changed = false
		for k := len(e.cfg.RPO) - 1; k >= 0; k-- {
			b := e.cfg.RPO[k]
			out := newBitset(n)
			for si, s := range b.Succs {
				out.unionWith(liveIn[s.Index])
				e.edgeReads(b, si, out)
			}
			liveOut[b.Index] = out
			live := out.clone()
			e.walkDefs(b, live, nil)
			if !live.equal(liveIn[b.Index]) {
				liveIn[b.Index] = live
				changed = true
			}
		}
	}

	interfere := map[[2]int]bool{}
	addEdge := func(a, b int) {
		if a == b {
			return
		}
		if a > b {
			a, b = b, a
		}
		interfere[[2]int{a, b}] = true
	}
	for _, b := range e.cfg.RPO {
		live := liveOut[b.Index].clone()
		e.walkDefs(b, live, func(d *ir.Value, live bitset) {
			live.forEach(func(x int) { addEdge(d.ID, x) })
		})
	}
	entryLive := liveIn[e.fn.Entry().Index]
	for _, p := range e.fn.Params {
		if e.kind[p.ID] == kVar {
			entryLive.forEach(func(x int) { addEdge(p.ID, x) })
		}
	}
	return interfere
}

// edgeReads adds to live what the copies on b's k-th out edge read.
func (e *emitter) edgeReads(b *ir.Block, k int, live bitset) {
	j := succPred(b, k)
	for _, phi := range e.livePhis(b.Succs[k]) {
		e.reads(phi.Args[j], func(x *ir.Value) { live.add(x.ID) })
	}
}

// walkDefs runs backward over b's statements, starting from live (which
// it updates), calling def (if not nil) for each definition with the set
// live after it.
func (e *emitter) walkDefs(b *ir.Block, live bitset, def func(d *ir.Value, live bitset)) {
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		v := b.Instrs[i]
		if !e.isStmtRoot(v) {
			continue
		}
		if v.Op == ir.OpSelect && e.kind[v.Args[1].ID] != kVar {
			// v := b; if c { v = a }: a is read after v is
			// assigned (reading b there reads v, which holds it).
			e.reads(v.Args[1], func(x *ir.Value) {
				if x != v.Args[2] {
					live.add(x.ID)
				}
			})
		}
		e.stmtDefs(v, func(d *ir.Value) {
			if def != nil {
				def(d, live)
			}
		})
		e.stmtDefs(v, func(d *ir.Value) { live.remove(d.ID) })
		for _, a := range v.Args {
			e.reads(a, func(x *ir.Value) { live.add(x.ID) })
		}
	}
	phis := e.livePhis(b)
	for _, p := range phis {
		if def != nil {
			def(p, live)
		}
	}
	for _, p := range phis {
		live.remove(p.ID)
	}
}

// coalescer is a union-find over the kVar values (and kVar parameters)
// by ID: the classes that will share a variable.
type coalescer struct {
	e         *emitter
	interfere map[[2]int]bool
	parent    []int
	members   map[int][]*ir.Value // a root's class
	order     []*ir.Value         // the values in order of definition
}

func (e *emitter) newCoalescer(interfere map[[2]int]bool) *coalescer {
	c := &coalescer{e: e, interfere: interfere, parent: make([]int, len(e.live)), members: map[int][]*ir.Value{}}
	for i := range c.parent {
		c.parent[i] = i
	}
	for _, p := range e.fn.Params {
		if e.kind[p.ID] == kVar {
			c.order = append(c.order, p)
		}
	}
	for _, b := range e.cfg.RPO {
		for _, v := range b.Instrs {
			if e.kind[v.ID] == kVar {
				c.order = append(c.order, v)
			}
		}
	}
	for _, v := range c.order {
		c.members[v.ID] = []*ir.Value{v}
	}
	return c
}

func (c *coalescer) find(i int) int {
	for c.parent[i] != i {
		c.parent[i] = c.parent[c.parent[i]]
		i = c.parent[i]
	}
	return i
}

// compatible reports whether classes x and y may share a variable: one
// name among them (a parameter's, or the source names), at most one
// parameter, and no two values live at once.
func (c *coalescer) compatible(x, y []*ir.Value) bool {
	name, params := "", 0
	for _, set := range [][]*ir.Value{x, y} {
		for _, m := range set {
			if m.Op == ir.OpParam {
				params++
			}
			h := sanitize(m.Name)
			if m.Op == ir.OpParam {
				h = c.e.params[m]
			}
			if h == "" {
				continue
			}
			if name != "" && name != h {
				return false
			}
			name = h
		}
	}
	if params > 1 {
		return false
	}
	for _, a := range x {
		for _, b := range y {
			k := [2]int{a.ID, b.ID}
			if k[0] > k[1] {
				k[0], k[1] = k[1], k[0]
			}
			if c.interfere[k] {
				return false
			}
		}
	}
	return true
}

// union merges the classes of a and b when a is a kVar value of b's type
// and the classes are compatible.
func (c *coalescer) union(a, b *ir.Value) {
	if a == nil || c.e.kind[a.ID] != kVar || !types.Identical(a.Type, b.Type) {
		return
	}
	ra, rb := c.find(a.ID), c.find(b.ID)
	if ra == rb || !c.compatible(c.members[ra], c.members[rb]) {
		return
	}
	c.parent[ra] = rb
	c.members[rb] = append(c.members[rb], c.members[ra]...)
	delete(c.members, ra)
}

// mergePhis merges each live φ with its arguments where it can.
func (c *coalescer) mergePhis() {
	for _, b := range c.e.cfg.RPO {
		for _, phi := range c.e.livePhis(b) {
			for _, a := range phi.Args {
				c.union(a, phi)
			}
		}
	}
}

// mergeUpdates merges a value with an argument of the same source name
// (s2 = s + x*x), and a φ with such an argument of an update rendered in
// the φ's copy (s = s + x*x on the edge).
func (c *coalescer) mergeUpdates() {
	e := c.e
	sameName := func(a, v *ir.Value) bool {
		return a != nil && e.kind[a.ID] == kVar && v.Name != "" && sanitize(a.Name) == sanitize(v.Name)
	}
	for _, v := range c.order {
		switch v.Op {
		case ir.OpParam:
		case ir.OpPhi:
			for _, x := range v.Args {
				if x != nil && e.kind[x.ID] == kInline {
					for _, a := range x.Args {
						if sameName(a, v) {
							c.union(a, v)
						}
					}
				}
			}
		default:
			for _, a := range v.Args {
				if sameName(a, v) {
					c.union(a, v)
				}
			}
		}
	}
}

// classes returns the classes in order of their first definition, each
// in order of definition.
func (c *coalescer) classes() [][]*ir.Value {
	rank := map[*ir.Value]int{}
	for i, o := range c.order {
		rank[o] = i
	}
	var classes [][]*ir.Value
	for _, v := range c.order {
		if r := c.find(v.ID); c.members[r] != nil {
			ms := c.members[r]
			delete(c.members, r)
			slices.SortFunc(ms, func(a, b *ir.Value) int { return rank[a] - rank[b] })
			classes = append(classes, ms)
		}
	}
	return classes
}

// namer hands out identifiers unique in one function.
type namer struct {
	taken map[string]bool
}

func newNamer(fs *fileState) *namer {
	n := &namer{taken: map[string]bool{}}
	for _, s := range types.Universe.Names() {
		n.taken[s] = true
	}
	for s := range fs.reserved {
		n.taken[s] = true
	}
	return n
}

func (n *namer) reserve(s string) { n.taken[s] = true }

// fresh returns base, or base2, base3, ... whichever is free first, and
// takes it; a base that ends in a digit takes v2, v3, ... (du0v2: du0_2
// would read as coefficient 0 of lane 2, the convention of Taylor mode's
// lanes).
func (n *namer) fresh(base string) string { return n.freshAvoiding(base, nil) }

// freshAvoiding is fresh, also passing over the names in avoid (which it
// does not take).
func (n *namer) freshAvoiding(base string, avoid map[string]bool) string {
	if !n.taken[base] && !avoid[base] {
		n.taken[base] = true
		return base
	}
	sep := ""
	if last := base[len(base)-1]; last >= '0' && last <= '9' {
		sep = "v"
	}
	for k := 2; ; k++ {
		s := base + sep + strconv.Itoa(k)
		if !n.taken[s] && !avoid[s] {
			n.taken[s] = true
			return s
		}
	}
}

// keywordNames replaces Go keywords used as source-name hints.
var keywordNames = map[string]string{
	"break": "brk", "case": "cas", "chan": "ch", "const": "cnst",
	"continue": "cont", "default": "def", "defer": "dfr", "else": "els",
	"fallthrough": "fall", "for": "fr", "func": "fn", "go": "g", "goto": "gt",
	"if": "iff", "import": "imp", "interface": "iface", "map": "m",
	"package": "pkg", "range": "rng", "return": "ret", "select": "sel",
	"struct": "st", "switch": "sw", "type": "typ", "var": "v",
}

// sanitize turns a name hint into a Go identifier, or "" if nothing is
// left of it: characters that cannot appear in an identifier separate
// words, which are joined in camel case ("x.f" becomes "xF").
func sanitize(hint string) string {
	var sb strings.Builder
	upper := false
	for _, r := range hint {
		if r == '_' && sb.Len() == 0 {
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			if upper {
				r = unicode.ToUpper(r)
				upper = false
			}
			sb.WriteRune(r)
		} else if sb.Len() > 0 {
			upper = true
		}
	}
	s := sb.String()
	if s == "" {
		return ""
	}
	if unicode.IsDigit([]rune(s)[0]) {
		s = "v" + s
	}
	if token.Lookup(s).IsKeyword() {
		s = keywordNames[s]
	}
	return s
}
