package frontend

// This file defines Lower, which translates one function from go/ssa into
// gadgen's IR, checking for the constructs gadgen cannot differentiate.
//
// The translation is one to one: each SSA value becomes one IR value in the
// same block, and the blocks keep go/ssa's order, predecessors and
// successors (so φ arguments keep their order). The exceptions:
//
//   - DebugRefs are dropped; they only name values (see below).
//   - Constants and parameters belong to no block (ir.OpConst, ir.OpParam).
//     Each use of a package-level variable gets its own ir.OpGlobal right
//     before the value that uses it.
//   - The argument array that go/ssa builds for a call of a variadic
//     function, "new [n]T (varargs)" with n stores and a slice, is removed:
//     the elements become plain arguments of the call, and a call with no
//     variadic argument has no argument for the variadic parameter. A call
//     that passes a slice with "..." keeps it, with Callee.Spread set.
//   - make([]T, n) has a nil cap argument (go/ssa repeats the length).
//
// Names: Value.Name is the source name of the local variable that holds the
// value, from go/ssa's DebugRefs (GlobalDebug mode): for a variable that
// go/ssa lifted into registers, the value stored in it (its φ-nodes
// included); for a variable that stays in memory, its Alloc. Failing that,
// a φ-node or an Alloc takes the variable name go/ssa records in its
// Comment; synthetic comments ("complit", "rangeindex", …) and names of
// predeclared identifiers are ignored. Parameters are named after the
// signature; unnamed and blank ones have the name "".

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
)

// Lower translates the body of fn into IR. fn must belong to a package of
// p without errors. It reports every construct of the body that gadgen
// cannot differentiate, and then returns a nil function.
func (p *Program) Lower(fn *types.Func) (*ir.Func, diag.List) {
	if a := p.aliasOf[fn]; a != nil {
		return p.lowerAliased(fn, a)
	}
	l := &lowerer{
		p:        p,
		fnObj:    fn,
		name:     FuncName(fn),
		funcs:    map[ssa.Value]*funcVal{},
		cells:    map[ssa.Value]*funcVal{},
		byVal:    map[ssa.Value]*ir.Value{},
		promoted: map[ssa.Value]*ssa.Store{},
		vals:     map[ssa.Value]*ir.Value{},
		names:    map[ssa.Value]string{},
		skip:     map[ssa.Instruction]bool{},
		varargs:  map[*ssa.CallCommon][]ssa.Value{},
		spread:   map[token.Pos]bool{},
		seen:     map[string]bool{},
	}
	if sp := p.specialOf[fn]; sp != nil {
		l.special = sp
		l.name = sp.origin
		l.fn = sp.shape.fn
		l.info = p.byTypes[fn.Pkg()].TypesInfo
		l.run()
		if len(l.diags) > 0 {
			return nil, l.diags.Sort()
		}
		return l.f, nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
		l.errorf(fn.Pos(), "generic function", "generic functions are not supported yet")
		return nil, l.diags
	}
	sf, err := p.ssaFunc(fn)
	if err != nil {
		l.errorf(fn.Pos(), "", "%v", err)
		return nil, l.diags
	}
	if sf.Blocks == nil {
		name := l.name
		if fn.Pkg() != nil {
			name = fn.Pkg().Name() + "." + name
		}
		l.errorf(fn.Pos(), "body", "%s has no Go body (an assembly or standard-library function): its derivative needs a rule", name)
		return nil, l.diags
	}
	l.fn = sf
	if lp := p.byTypes[fn.Pkg()]; lp != nil {
		l.info = lp.TypesInfo
	}
	l.run()
	if len(l.diags) > 0 {
		return nil, l.diags.Sort()
	}
	return l.f, nil
}

type lowerer struct {
	p     *Program
	fnObj *types.Func
	fn    *ssa.Function
	info  *types.Info
	name  string // for diagnostics
	f     *ir.Func
	cur   *ir.Block
	pos   token.Pos // of the instruction being lowered
	// instrNow is the instruction being lowered.
	instrNow ssa.Instruction

	// special is the specialization being lowered, or nil (closure.go).
	special *special
	// funcs holds the function values bound to parameters by special;
	// cells those that special's free variables holding functions hold.
	funcs map[ssa.Value]*funcVal
	cells map[ssa.Value]*funcVal
	// byVal holds, for each free variable of special passed by value,
	// and each field or element address of one, the value at that
	// address.
	byVal map[ssa.Value]*ir.Value
	// promoted holds the captured variables of the function being
	// lowered that are their one store's value (see promotedStore).
	promoted map[ssa.Value]*ssa.Store

	vals    map[ssa.Value]*ir.Value
	names   map[ssa.Value]string
	skip    map[ssa.Instruction]bool        // instructions of variadic argument arrays
	varargs map[*ssa.CallCommon][]ssa.Value // elements of a call's variadic arguments
	spread  map[token.Pos]bool              // Lparen of calls written with "..."
	quiet   []quietRange                    // statements already reported
	diags   diag.List
	seen    map[string]bool // construct and line of reported problems
}

// quietRange is a statement reported from the AST, in which go/ssa's
// rendition (closures for range-over-func, Range and Next for maps and
// strings) is not reported again.
type quietRange struct{ pos, end token.Pos }

// quietConstructs are the constructs not reported inside a quietRange.
var quietConstructs = map[string]bool{
	"closure": true, "function value": true, "range over map": true,
	"range over string": true, "range over function": true, "defer": true,
}

func (l *lowerer) errorf(pos token.Pos, construct, format string, args ...any) {
	if quietConstructs[construct] && !pos.IsValid() && len(l.quiet) > 0 {
		return // go/ssa's rendition of a statement reported from the AST
	}
	if !pos.IsValid() {
		pos = l.fnObj.Pos()
	}
	if quietConstructs[construct] {
		for _, q := range l.quiet {
			if q.pos <= pos && pos < q.end {
				return
			}
		}
	}
	position := l.p.Fset.Position(pos)
	key := construct + "@" + position.Filename + ":" + strconv.Itoa(position.Line)
	if construct == "complex number" {
		key = construct // once per function
	}
	if l.seen[key] {
		return
	}
	l.seen[key] = true
	l.diags.Add(position, l.name, construct, format, args...)
}

func (l *lowerer) run() {
	fn := l.fn
	l.scanSyntax()
	l.scanNames()
	l.scanVarargs()
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if a, ok := instr.(*ssa.Alloc); ok {
				if st := promotedStore(a); st != nil {
					l.promoted[a] = st
				}
			}
		}
	}

	f := ir.NewFunc(l.fnObj.Name(), l.fnObj.Pkg())
	l.f = f
	f.Pos = l.fnObj.Pos()
	sig := l.fnObj.Type().(*types.Signature)
	if r := sig.Recv(); r != nil {
		f.Recv = r.Type()
	}
	if l.special != nil {
		l.specialParams(f)
	} else {
		for _, sp := range fn.Params {
			v := f.AddParam(paramName(sp), sp.Type())
			v.Pos = sp.Pos()
			l.vals[sp] = v
			l.checkComplex(sp.Type(), sp.Pos())
		}
	}
	for r := range sig.Results().Variables() {
		f.AddResult(r.Name(), r.Type())
	}
	f.Variadic = sig.Variadic()

	blocks := make([]*ir.Block, len(fn.Blocks))
	for i, b := range fn.Blocks {
		blocks[i] = f.NewBlock(b.Comment)
	}
	for i, b := range fn.Blocks {
		for _, s := range b.Succs {
			blocks[i].Succs = append(blocks[i].Succs, blocks[s.Index])
		}
		for _, q := range b.Preds {
			blocks[i].Preds = append(blocks[i].Preds, blocks[q.Index])
		}
	}

	// Definitions dominate their uses, except in φ-nodes: lower the blocks
	// in dominator-tree preorder, and the φ arguments at the end.
	var phis []*ssa.Phi
	for _, b := range fn.DomPreorder() {
		l.cur = blocks[b.Index]
		for _, instr := range b.Instrs {
			if phi, ok := instr.(*ssa.Phi); ok {
				phis = append(phis, phi)
			}
			l.instr(instr)
		}
	}
	for _, phi := range phis {
		v := l.vals[phi]
		if v == nil {
			continue // a function value (closure.go)
		}
		for i, e := range phi.Edges {
			l.cur = blocks[phi.Block().Preds[i].Index]
			v.Args = append(v.Args, l.operand(e))
		}
	}
	l.cur = nil
}

// scanSyntax reports the constructs that go/ssa erases (goto) or renders
// in ways hard to recognize (range over maps, strings and functions), and
// records the calls written with "...".
func (l *lowerer) scanSyntax() {
	syn := l.fn.Syntax()
	if syn == nil {
		return
	}
	ast.Inspect(syn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				l.errorf(n.Pos(), "goto", "goto statements are not supported")
			}
		case *ast.CallExpr:
			if n.Ellipsis.IsValid() {
				l.spread[n.Lparen] = true
			}
		case *ast.RangeStmt:
			if l.info == nil {
				break
			}
			t := l.info.TypeOf(n.X)
			if t == nil {
				break
			}
			construct := ""
			switch u := t.Underlying().(type) {
			case *types.Basic:
				if u.Info()&types.IsString != 0 {
					construct = "range over string"
				}
			case *types.Map:
				construct = "range over map"
			case *types.Signature:
				construct = "range over function"
			}
			if construct != "" {
				l.errorf(n.For, construct, "range loops over strings, maps and functions are not supported")
				l.quiet = append(l.quiet, quietRange{n.Pos(), n.End()})
			}
		}
		return true
	})
}

// syntheticNames are the comments go/ssa gives Allocs and φ-nodes that are
// not source variables.
var syntheticNames = map[string]bool{
	"complit": true, "slicelit": true, "makeslice": true, "varargs": true,
	"new": true, "rangeindex": true, "recv": true,
}

// isSourceName reports whether s can name a value: an identifier that is
// not blank, not one of go/ssa's synthetic names and not predeclared.
func isSourceName(s string) bool {
	return token.IsIdentifier(s) && s != "_" && !syntheticNames[s] && types.Universe.Lookup(s) == nil
}

// scanNames names values after the local variables that DebugRefs say
// hold them.
func (l *lowerer) scanNames() {
	for _, b := range l.fn.Blocks {
		for _, instr := range b.Instrs {
			ref, ok := instr.(*ssa.DebugRef)
			if !ok {
				continue
			}
			obj, ok := ref.Object().(*types.Var)
			if !ok || obj.IsField() || obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() || !isSourceName(obj.Name()) {
				continue
			}
			x := ref.X
			if ref.IsAddr {
				if _, ok := x.(*ssa.Alloc); !ok {
					continue
				}
			} else {
				switch x.(type) {
				case *ssa.Const, *ssa.Parameter, *ssa.Function, *ssa.Global, *ssa.Builtin, *ssa.FreeVar:
					continue
				}
			}
			if _, done := l.names[x]; !done {
				l.names[x] = obj.Name()
			}
		}
	}
}

// scanVarargs finds the argument arrays go/ssa builds for calls of
// variadic functions.
func (l *lowerer) scanVarargs() {
	for _, b := range l.fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			c := call.Common()
			sig := c.Signature()
			if sig == nil || !sig.Variadic() || len(c.Args) == 0 || l.spread[c.Pos()] {
				continue
			}
			last := c.Args[len(c.Args)-1]
			if k, ok := last.(*ssa.Const); ok && k.IsNil() {
				l.varargs[c] = []ssa.Value{}
				continue
			}
			if elems, instrs := matchVarargs(last, call); elems != nil {
				l.varargs[c] = elems
				for _, in := range instrs {
					l.skip[in] = true
				}
			}
		}
	}
}

// matchVarargs matches
//
//	t0 = new [n]T (varargs)
//	t1 = &t0[0]; *t1 = x0 ... (n times)
//	t2 = slice t0[:]
//	call f(..., t2...)
//
// returning x0..xn-1 and the instructions to drop.
func matchVarargs(last ssa.Value, call *ssa.Call) ([]ssa.Value, []ssa.Instruction) {
	s, ok := last.(*ssa.Slice)
	if !ok || s.Low != nil || s.High != nil || s.Max != nil {
		return nil, nil
	}
	a, ok := s.X.(*ssa.Alloc)
	if !ok || a.Comment != "varargs" {
		return nil, nil
	}
	arr, ok := a.Type().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok {
		return nil, nil
	}
	elems := make([]ssa.Value, arr.Len())
	instrs := []ssa.Instruction{a, s}
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Slice:
			if r != s {
				return nil, nil
			}
		case *ssa.DebugRef:
			instrs = append(instrs, r)
		case *ssa.IndexAddr:
			k, ok := r.Index.(*ssa.Const)
			if !ok {
				return nil, nil
			}
			i := k.Int64()
			refs := *r.Referrers()
			if i < 0 || i >= int64(len(elems)) || elems[i] != nil || len(refs) != 1 {
				return nil, nil
			}
			st, ok := refs[0].(*ssa.Store)
			if !ok || st.Addr != r {
				return nil, nil
			}
			elems[i] = st.Val
			instrs = append(instrs, r, st)
		default:
			return nil, nil
		}
	}
	for _, r := range *s.Referrers() {
		if _, ok := r.(*ssa.DebugRef); ok {
			instrs = append(instrs, r)
		} else if r != call {
			return nil, nil
		}
	}
	for _, e := range elems {
		if e == nil {
			return nil, nil
		}
	}
	return elems, instrs
}

// checkComplex reports values of complex type.
func (l *lowerer) checkComplex(t types.Type, pos token.Pos) {
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsComplex != 0 {
		l.errorf(pos, "complex number", "complex numbers are not supported")
	}
}

// placeholder stands for a value that could not be lowered; the function
// is discarded since an error was reported.
func (l *lowerer) placeholder(t types.Type) *ir.Value {
	return l.f.ConstValue(t, nil)
}

// operand returns the IR value for an operand of the instruction being
// lowered in l.cur.
func (l *lowerer) operand(v ssa.Value) *ir.Value {
	if v == nil {
		return nil
	}
	if x, ok := l.vals[v]; ok {
		return x
	}
	switch v := v.(type) {
	case *ssa.Const:
		l.checkComplex(v.Type(), v.Pos())
		x := l.f.ConstValue(v.Type(), v.Value)
		l.vals[v] = x
		return x
	case *ssa.Global:
		g := l.f.NewValue(ir.OpGlobal, v.Type())
		g.Global, _ = v.Object().(*types.Var)
		g.Pos = v.Pos()
		// Before the terminator, when filling φ arguments in a
		// predecessor.
		if t := l.cur.Terminator(); t != nil {
			l.cur.Insert(len(l.cur.Instrs)-1, g)
		} else {
			l.cur.Append(g)
		}
		return g
	}
	if isFunc(v.Type()) {
		l.funcUseError(l.instrNow)
	} else {
		// A free variable has a value when it is a parameter of the
		// specialization being lowered.
		l.errorf(l.pos, "unsupported", "%T operands are not supported", v)
	}
	// Not lowered: an error was reported.
	return l.placeholder(v.Type())
}

func (l *lowerer) operands(vs ...ssa.Value) []*ir.Value {
	out := make([]*ir.Value, len(vs))
	for i, v := range vs {
		out[i] = l.operand(v)
	}
	return out
}

// instr lowers one instruction into l.cur.
func (l *lowerer) instr(instr ssa.Instruction) {
	if l.skip[instr] {
		return
	}
	pos := instr.Pos()
	l.pos = pos
	l.instrNow = instr
	if l.funcInstr(instr) || l.byValInstr(instr) {
		return
	}
	if _, ok := instr.(*ssa.DebugRef); ok {
		return
	}
	v := l.lower(instr, pos)
	l.record(instr, v, pos)
}

// lower returns the value of instr, a supported instruction, appended to
// no block yet (nil for one without a value or refused: refuse reports
// the others).
func (l *lowerer) lower(instr ssa.Instruction, pos token.Pos) *ir.Value {
	var v *ir.Value
	val := func(op ir.Op, t types.Type, args ...ssa.Value) *ir.Value {
		return l.f.NewValue(op, t, l.operands(args...)...)
	}
	switch in := instr.(type) {
	case *ssa.Alloc:
		v = val(ir.OpAlloc, in.Type())
		// A captured variable passed by value (closure.go) no longer
		// escapes.
		v.Heap = in.Heap && !cellByValue(in)
	case *ssa.Phi:
		v = val(ir.OpPhi, in.Type()) // arguments at the end of run
	case *ssa.BinOp:
		v = val(ir.OpBinary, in.Type(), in.X, in.Y)
		v.Tok = in.Op
	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			v = val(ir.OpLoad, in.Type(), in.X)
		case token.ARROW:
			l.errorf(pos, "channel", "channel receive is not supported")
		default: // SUB, NOT, XOR
			v = val(ir.OpUnary, in.Type(), in.X)
			v.Tok = in.Op
		}
	case *ssa.Convert:
		if isUnsafePointer(in.Type()) || isUnsafePointer(in.X.Type()) {
			l.errorf(pos, "unsafe", "conversions involving unsafe.Pointer are not supported")
		}
		v = val(ir.OpConvert, in.Type(), in.X)
	case *ssa.ChangeType:
		v = val(ir.OpConvert, in.Type(), in.X)
	case *ssa.MakeInterface:
		v = val(ir.OpConvert, in.Type(), in.X)
	case *ssa.ChangeInterface:
		v = val(ir.OpConvert, in.Type(), in.X)
	case *ssa.SliceToArrayPointer:
		v = val(ir.OpConvert, in.Type(), in.X)
	case *ssa.MultiConvert:
		l.errorf(pos, "generic function", "conversions between type parameters are not supported")
	case *ssa.FieldAddr:
		v = val(ir.OpFieldAddr, in.Type(), in.X)
		v.Index = in.Field
	case *ssa.Field:
		v = val(ir.OpField, in.Type(), in.X)
		v.Index = in.Field
	case *ssa.IndexAddr:
		v = val(ir.OpIndexAddr, in.Type(), in.X, in.Index)
	case *ssa.Index:
		v = val(ir.OpIndex, in.Type(), in.X, in.Index)
	case *ssa.Lookup:
		if m, ok := in.X.Type().Underlying().(*types.Map); ok {
			l.mapError(pos, m)
		} else {
			v = val(ir.OpIndex, in.Type(), in.X, in.Index)
		}
	case *ssa.Slice:
		v = val(ir.OpSlice, in.Type(), in.X, in.Low, in.High, in.Max)
	case *ssa.MakeSlice:
		capv := in.Cap
		if capv == in.Len {
			capv = nil
		}
		v = val(ir.OpMakeSlice, in.Type(), in.Len, capv)
	case *ssa.Extract:
		v = val(ir.OpExtract, in.Type(), in.Tuple)
		v.Index = in.Index
	case *ssa.Call:
		v = l.call(in)
	case *ssa.Store:
		v = val(ir.OpStore, nil, in.Addr, in.Val)
	case *ssa.If:
		v = val(ir.OpIf, nil, in.Cond)
	case *ssa.Jump:
		v = val(ir.OpJump, nil)
	case *ssa.Return:
		v = val(ir.OpReturn, nil, in.Results...)
	case *ssa.Panic:
		v = val(ir.OpPanic, nil, in.X)
	default:
		l.refuse(instr, pos)
	}
	return v
}

// refuse reports an instruction gadgen does not lower, with the construct
// it comes from.
func (l *lowerer) refuse(instr ssa.Instruction, pos token.Pos) {
	switch in := instr.(type) {
	case *ssa.Go:
		l.errorf(pos, "goroutine", "go statements are not supported")
	case *ssa.Defer:
		l.errorf(pos, "defer", "defer statements are not supported")
	case *ssa.RunDefers:
		// Reported at the Defer.
	case *ssa.MakeChan:
		l.errorf(pos, "channel", "channels are not supported")
	case *ssa.Send:
		l.errorf(pos, "channel", "channel send is not supported")
	case *ssa.Select:
		l.errorf(pos, "select", "select statements are not supported")
	case *ssa.MakeMap:
		l.mapError(pos, in.Type().Underlying().(*types.Map))
	case *ssa.MapUpdate:
		l.mapError(pos, in.Map.Type().Underlying().(*types.Map))
	case *ssa.Range:
		switch u := in.X.Type().Underlying().(type) {
		case *types.Map:
			l.errorf(pos, "range over map", "range loops over maps are not supported")
		case *types.Basic:
			l.errorf(pos, "range over string", "range loops over strings are not supported")
		default:
			l.errorf(pos, "range", "range over %s is not supported", u)
		}
	case *ssa.Next:
		if in.IsString {
			l.errorf(pos, "range over string", "range loops over strings are not supported")
		} else {
			l.errorf(pos, "range over map", "range loops over maps are not supported")
		}
	case *ssa.TypeAssert:
		l.errorf(pos, "type assertion", "type assertions and type switches are not supported")
	default:
		l.errorf(pos, "unsupported", "%T instructions are not supported", instr)
	}
}

// record names v, the value of instr, after its source variable, appends
// it to the current block, and maps instr to it (to a placeholder of its
// type when instr was refused).
func (l *lowerer) record(instr ssa.Instruction, v *ir.Value, pos token.Pos) {
	if sv, ok := instr.(ssa.Value); ok {
		l.checkComplex(sv.Type(), pos)
		if v == nil {
			v = l.placeholder(sv.Type())
			l.vals[sv] = v
			return
		}
		l.vals[sv] = v
		v.Name = l.names[sv]
		if v.Name == "" {
			switch in := sv.(type) {
			case *ssa.Phi:
				if isSourceName(in.Comment) {
					v.Name = in.Comment
				}
			case *ssa.Alloc:
				if isSourceName(in.Comment) {
					v.Name = in.Comment
				}
			}
		}
	}
	if v == nil {
		return
	}
	v.Pos = pos
	l.cur.Append(v)
}

// mapError reports a use of a map.
func (l *lowerer) mapError(pos token.Pos, m *types.Map) {
	if ir.HasFloat(m.Key()) || ir.HasFloat(m.Elem()) {
		l.errorf(pos, "map", "maps holding active values are not supported")
	} else {
		l.errorf(pos, "map", "maps are not supported")
	}
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// supportedBuiltins are the builtins lowered to calls (len and cap have
// their own ops).
var supportedBuiltins = map[string]bool{
	"append": true, "copy": true, "min": true, "max": true,
	"print": true, "println": true, "clear": true,
}

// call lowers a call.
func (l *lowerer) call(in *ssa.Call) *ir.Value {
	c := in.Common()
	pos := in.Pos()
	typ := in.Type()
	if t, ok := typ.(*types.Tuple); ok && t.Len() == 0 {
		typ = nil
	}
	callee := &ir.Callee{}
	var recv []ssa.Value
	switch {
	case c.IsInvoke():
		callee.Func, callee.Invoke = c.Method, true
		recv = []ssa.Value{c.Value}
		if pkg := c.Method.Pkg(); pkg != nil && pkg.Path() == "reflect" {
			l.errorf(pos, "reflect", "calls into package reflect are not supported")
		}
		if floats := invokeCarriesFloats(c); floats {
			l.errorf(pos, "dynamic interface call", "call of method %s through an interface with floating-point arguments or results is not supported", c.Method.Name())
		}
	default:
		switch fv := c.Value.(type) {
		case *ssa.Builtin:
			switch name := fv.Name(); {
			case name == "len" || name == "cap":
				op := ir.OpLen
				if name == "cap" {
					op = ir.OpCap
				}
				return l.f.NewValue(op, typ, l.operand(c.Args[0]))
			case supportedBuiltins[name]:
				callee.Builtin = name
			case name == "real" || name == "imag" || name == "complex":
				l.errorf(pos, "complex number", "complex numbers are not supported")
				return nil
			case name == "recover":
				l.errorf(pos, "recover", "recover is not supported")
				return nil
			case name == "close":
				l.errorf(pos, "channel", "channels are not supported")
				return nil
			case name == "delete":
				l.mapError(pos, c.Args[0].Type().Underlying().(*types.Map))
				return nil
			case fv.Object() == nil: // unsafe.Add, unsafe.Slice, ...
				l.errorf(pos, "unsafe", "unsafe.%s is not supported", name)
				return nil
			default:
				l.errorf(pos, "builtin", "builtin %s is not supported", name)
				return nil
			}
		case *ssa.Function:
			obj, _ := fv.Object().(*types.Func)
			switch {
			case fv.Parent() != nil:
				return l.callFuncVal(in, &funcVal{shape: &shape{fn: fv}}) // a literal that captures nothing
			case obj == nil:
				l.errorf(pos, "function value", "calls of %s are not supported", fv.Synthetic)
				return nil
			case fv.Origin() != nil || len(fv.TypeArgs()) > 0:
				l.errorf(pos, "generic function", "call of generic function %s is not supported yet", FuncName(obj))
				return nil
			}
			if pkg := obj.Pkg(); pkg != nil && pkg.Path() == "reflect" {
				l.errorf(pos, "reflect", "calls into package reflect are not supported")
			}
			if slices.ContainsFunc(c.Args, func(a ssa.Value) bool { return isFunc(a.Type()) }) {
				return l.callFuncVal(in, &funcVal{shape: &shape{fn: fv}})
			}
			callee.Func = obj
		default:
			fval, err := l.resolve(fv)
			if err != nil {
				l.report(err, pos)
				return nil
			}
			return l.callFuncVal(in, fval)
		}
	}
	if c.IsInvoke() && slices.ContainsFunc(c.Args, func(a ssa.Value) bool { return isFunc(a.Type()) }) {
		l.errorf(pos, "function value", "function value passed to the interface method %s: gadgen cannot specialize it for the function", c.Method.Name())
		return nil
	}

	args, spread := l.expandVarargs(c, append(recv, c.Args...))
	callee.Spread = spread
	v := l.f.NewValue(ir.OpCall, typ, l.operands(args...)...)
	v.Callee = callee
	return v
}

// expandVarargs replaces the last of args, the variadic argument of the
// call c, by the elements of its argument array when scanVarargs
// recognized one; otherwise, for a variadic callee, spread says the slice
// is passed as it is (written with "...", or an array not recognized).
func (l *lowerer) expandVarargs(c *ssa.CallCommon, args []ssa.Value) (out []ssa.Value, spread bool) {
	if elems, ok := l.varargs[c]; ok {
		return append(args[:len(args)-1:len(args)-1], elems...), false
	}
	sig := c.Signature()
	return args, sig != nil && sig.Variadic()
}

// invokeCarriesFloats reports whether floating-point values flow into or
// out of an interface method call.
func invokeCarriesFloats(c *ssa.CallCommon) bool {
	for _, a := range c.Args {
		if ir.HasFloat(a.Type()) {
			return true
		}
	}
	sig := c.Signature()
	for r := range sig.Results().Variables() {
		if ir.HasFloat(r.Type()) {
			return true
		}
	}
	return false
}
