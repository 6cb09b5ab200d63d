package frontend

// This file defines the specialization of function values, by which the
// frontend removes closures and function values before differentiation:
// gadgen's IR has no function values, so each call of a function value
// that is known statically becomes a direct call of a synthetic function.
//
//   - A function literal called where it is made, spring(2), becomes a
//     call of the literal's body as a function of its own, energySpring,
//     whose first parameters are the variables it captures:
//     energySpring(k, x0, 2).
//   - A call that passes known functions, simpson(spring, 0, 1, 64) or
//     simpson(math.Sin, 0, a, 32), becomes a call of the callee
//     specialized for them, simpsonSpring(k, x0, 0, 1, 64) or
//     simpsonSin(0, a, 32): the specialization has no parameter f, its
//     calls of f are direct calls of spring (or math.Sin), and the
//     captured variables of the functions bound to it come first among
//     its parameters. Its body passes f on the same way (nesting), and a
//     recursive callee calls its own specialization.
//
// This is specialization before differentiation: lambda lifting of the
// literals (Johnsson, "Lambda lifting", FPCA 1985) and specialization of
// higher-order functions for the function arguments known when gadgen
// runs (higher-order removal; Chin and Darlington, "A higher-order removal
// method", LSC 1996). Every mode then sees ordinary calls of ordinary
// functions, which it differentiates like any other callee. A specialization is a
// *types.Func that no package declares; Program.Lower lowers it from the
// go/ssa body of the function it specializes, and the driver generates
// its primal (a "copy") where generated code calls it with no varied
// argument.
//
// What a function value may be: a package-level function, a function
// literal (with or without captured variables), a parameter bound by the
// specialization being lowered, or a variable holding one of these that
// is assigned once before it is read (go/ssa keeps such a variable in
// memory when a literal captures it). Everything else is reported: method
// values, function values chosen at run time (φ-nodes), read from struct
// fields, slices, maps or package variables, returned by calls, and uses
// other than calling and passing (storing, returning, comparing).
//
// Captured variables. go/ssa gives every captured variable a heap cell,
// and the literal its address. A cell that no function literal writes,
// and whose address goes nowhere else (the common case: a parameter, a
// constant of the computation), is passed by value: its value is loaded
// where the specialization is called, which is what the literal would
// read during the call, since nothing can write the cell while it runs
// (the function that owns the cell is suspended at the call, and no
// literal writes it). Such a cell that is stored once before it is read
// (a parameter that a literal captures) is, in the IR, the value stored:
// no memory, with or without optimization, as for the variables go/ssa
// lifts. Other cells (an accumulator that a literal increments) are
// passed by address, as pointers: the specialization loads and stores
// through them like any function with a pointer parameter.

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"

	"github.com/gadgen/gadgen/ir"
)

// maxShapeDepth bounds the nesting of function values inside function
// values (a recursive function passing itself ever new closures).
const maxShapeDepth = 8

// A shape is a function value known statically, without its data: an
// SSA function and, for each of its captured variables that holds a
// function value, that value's shape; and, for a specialization, the
// shapes of the function values bound to its parameters.
type shape struct {
	fn *ssa.Function
	// free has one entry per fn.FreeVars: nil for a variable holding
	// data, the shape of the function value it holds otherwise.
	free []*shape
	// bound has one entry per fn.Params, or is nil: nil for a parameter
	// kept, the shape of the function value bound to it otherwise.
	bound []*shape
}

// key identifies s among the specializations of one Program (by the
// identity of its SSA functions), or, with canonical, across the package
// variants of the program (by their names: a package and its test
// variant have distinct SSA functions of the same name).
func (s *shape) key(canonical bool) string {
	var sb strings.Builder
	var walk func(s *shape)
	walk = func(s *shape) {
		if canonical {
			sb.WriteString(s.fn.String())
		} else {
			fmt.Fprintf(&sb, "%p", s.fn)
		}
		list := func(open, close string, l []*shape) {
			sb.WriteString(open)
			for i, x := range l {
				if i > 0 {
					sb.WriteByte(',')
				}
				if x != nil {
					walk(x)
				}
			}
			sb.WriteString(close)
		}
		list("{", "}", s.free)
		list("(", ")", s.bound)
	}
	walk(s)
	return sb.String()
}

// depth returns the nesting depth of s.
func (s *shape) depth() int {
	d := 0
	for _, l := range [][]*shape{s.free, s.bound} {
		for _, x := range l {
			if x != nil {
				d = max(d, x.depth())
			}
		}
	}
	return d + 1
}

// forData calls data for each captured variable of a value of shape s
// that holds data, in the order of the data parameters a specialization
// takes for it: fn.FreeVars in order, those of a captured function value
// in its place.
func (s *shape) forData(data func(fv *ssa.FreeVar)) {
	for i, fv := range s.fn.FreeVars {
		if s.free[i] != nil {
			s.free[i].forData(data)
		} else {
			data(fv)
		}
	}
}

// A funcVal is a function value at some point of the function being
// lowered: its shape, and the IR values of its data parameters, in the
// order of shape.forData.
type funcVal struct {
	shape *shape
	args  []*ir.Value
}

// special is a specialization: a function that no package declares.
type special struct {
	obj       *types.Func
	shape     *shape
	canonical string
	// origin names the source function whose body the specialization
	// has, in diagnostics: "simpson", or "Energy" for its literals.
	origin string
	// captured names its parameters that are captured variables.
	captured []string
}

// funcErr is why a function value is not known statically.
type funcErr struct {
	construct string
	msg       string
	// pos is where to report it; NoPos means the call.
	pos token.Pos
}

func funcErrorf(construct, format string, args ...any) *funcErr {
	return &funcErr{construct: construct, msg: fmt.Sprintf(format, args...)}
}

// at sets where e is reported, if pos is valid.
func (e *funcErr) at(pos token.Pos) *funcErr {
	if pos.IsValid() {
		e.pos = pos
	}
	return e
}

// report reports e at its position, or at the call at pos.
func (l *lowerer) report(e *funcErr, pos token.Pos) {
	if e.pos.IsValid() {
		pos = e.pos
	}
	l.errorf(pos, e.construct, "%s", e.msg)
}

// isFunc reports whether t is a function type.
func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// isFuncCell reports whether t is a pointer to a function type: a
// variable holding a function value.
func isFuncCell(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && isFunc(p.Elem())
}

// holdsFunc reports whether t is a function type or a tuple holding one.
func holdsFunc(t types.Type) bool {
	if tu, ok := t.(*types.Tuple); ok {
		for v := range tu.Variables() {
			if isFunc(v.Type()) {
				return true
			}
		}
		return false
	}
	return t != nil && isFunc(t)
}

// IsSpecialization reports whether fn is a specialization that the
// frontend made (see closure.go): a function no package declares, which
// generated code that calls it needs a copy of.
func (p *Program) IsSpecialization(fn *types.Func) bool {
	return p.specialOf[fn] != nil || p.aliasOf[fn] != nil
}

// SpecializationKey returns a key that identifies the specialization fn
// across the package variants of the program (a package and its test
// variant make distinct *types.Func of the same specialization), or ""
// when fn is not a specialization.
func (p *Program) SpecializationKey(fn *types.Func) string {
	if sp := p.specialOf[fn]; sp != nil {
		return sp.canonical
	}
	if a := p.aliasOf[fn]; a != nil {
		return fmt.Sprintf("%s%v", p.SpecializationKey(a.fn)+a.fn.FullName(), a.same)
	}
	return ""
}

// Describe returns a sentence saying what the specialization fn is,
// called name in code of package pkg, for doc comments, or "" when fn is
// not a specialization.
func (p *Program) Describe(fn *types.Func, name string, pkg *types.Package) string {
	if sp := p.specialOf[fn]; sp != nil {
		return wrap(name+describe(sp.shape, sp.captured, pkg), 76)
	}
	if a := p.aliasOf[fn]; a != nil {
		return describeAliased(a, name)
	}
	return ""
}

// wrap breaks text into lines of at most width bytes between words
// (a longer word stands alone).
func wrap(text string, width int) string {
	var sb strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(w) > width:
			sb.WriteByte('\n')
			n = 0
		default:
			sb.WriteByte(' ')
			n++
		}
		sb.WriteString(w)
		n += len(w)
	}
	return sb.String()
}

// specialize returns the specialization of shape s, making it on first
// use.
func (p *Program) specialize(s *shape) (*types.Func, *funcErr) {
	key := s.key(false)
	if sp := p.specials[key]; sp != nil {
		return sp.obj, nil
	}
	if s.depth() > maxShapeDepth {
		return nil, funcErrorf("function value", "function values nest too deeply (a recursive function that passes itself new function literals)")
	}
	fn := s.fn
	if fn.Package() == nil || fn.Signature.TypeParams().Len() > 0 || len(fn.TypeArgs()) > 0 {
		return nil, funcErrorf("function value", "function values passed to %s are not supported", fn.Name())
	}
	if err := p.build(fn); err != nil {
		return nil, err
	}
	if fn.Blocks == nil {
		return nil, funcErrorf("function value", "function value passed to %s, which has no Go body: gadgen cannot specialize it for the function", qualified(fn, nil))
	}
	pkg := fn.Package().Pkg
	var vars []*types.Var
	var captured []string
	used := map[string]bool{}
	for i, sp := range fn.Params {
		if s.bound == nil || s.bound[i] == nil {
			used[paramName(sp)] = true
		}
	}
	for r := range fn.Signature.Results().Variables() {
		used[r.Name()] = true
	}
	addData := func(fv *ssa.FreeVar) {
		t := fv.Type()
		if p.byValue(fv) {
			t = t.(*types.Pointer).Elem()
		}
		name := fv.Name()
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s%d", fv.Name(), k)
		}
		used[name] = true
		captured = append(captured, name)
		vars = append(vars, types.NewParam(fv.Pos(), pkg, name, t))
	}
	s.forData(addData)
	for _, b := range s.bound {
		if b != nil {
			b.forData(addData)
		}
	}
	for i, sp := range fn.Params {
		if s.bound == nil || s.bound[i] == nil {
			vars = append(vars, types.NewParam(sp.Pos(), pkg, paramName(sp), sp.Type()))
		}
	}
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(vars...), fn.Signature.Results(), fn.Signature.Variadic())
	name := p.specialName(s, pkg)
	obj := types.NewFunc(fn.Pos(), pkg, name, sig)
	sp := &special{obj: obj, shape: s, canonical: s.key(true), origin: originName(fn), captured: captured}
	p.specials[key] = sp
	p.specialOf[obj] = sp
	return obj, nil
}

// build builds the SSA package of fn, so that fn has its parameters and
// body.
func (p *Program) build(fn *ssa.Function) *funcErr {
	if fn.Package() == nil {
		return nil // a synthetic function (a thunk): built
	}
	if lp := p.byTypes[fn.Package().Pkg]; lp == nil || p.hasErrors(lp) {
		return funcErrorf("function value", "function values passed to %s are not supported: its package has errors", fn.Name())
	}
	fn.Package().Build()
	return nil
}

// paramName is the name of an SSA parameter in a signature: "" when it
// has none or is blank.
func paramName(sp *ssa.Parameter) string {
	if obj := sp.Object(); obj != nil && obj.Name() != "_" {
		return obj.Name()
	}
	return ""
}

// specialName names a specialization in lower camel case: the function's
// name (a literal's: the function it is in and the variable that holds
// it, energySpring, or its number, energyFunc1), then the name of each
// function bound to it (simpsonSpring, simpsonSin); a number makes it
// unique in pkg.
func (p *Program) specialName(s *shape, pkg *types.Package) string {
	var parts []string
	if s.fn.Parent() != nil {
		parts = append(funcParts(rootOf(s.fn)), literalName(s.fn))
	} else {
		parts = funcParts(s.fn)
	}
	var lits []*ssa.Function
	for _, b := range s.bound {
		if b == nil {
			continue
		}
		if b.fn.Parent() != nil {
			parts = append(parts, literalName(b.fn))
			lits = append(lits, b.fn)
		} else {
			parts = append(parts, funcParts(b.fn)...)
		}
	}
	taken := p.specialNames[pkg]
	if taken == nil {
		taken = map[string]bool{}
		p.specialNames[pkg] = taken
	}
	free := func(name string) bool { return !taken[name] && pkg.Scope().Lookup(name) == nil }
	for i, p := range parts {
		// Go identifiers only (go/ssa's synthetic names have '$').
		parts[i] = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
				return r
			}
			return -1
		}, p)
	}
	name := LowerCamel(parts)
	if !free(name) && s.fn.Parent() == nil && len(lits) > 0 {
		// simpsonF taken: simpsonFixedF, after the function of the
		// first literal bound.
		parts = slices.Insert(parts, len(funcParts(s.fn)), funcParts(rootOf(lits[0]))...)
		name = LowerCamel(parts)
	}
	base := name
	for k := 2; !free(name); k++ {
		name = fmt.Sprintf("%s%d", base, k)
	}
	taken[name] = true
	return name
}

// rootOf returns the package-level function in which the literal fn is.
func rootOf(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// funcParts returns the receiver's type name, if any, and the name of fn
// (of the method, for a method expression's thunk).
func funcParts(fn *ssa.Function) []string {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return []string{fn.Name()}
	}
	if r := obj.Type().(*types.Signature).Recv(); r != nil {
		t := r.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return []string{n.Obj().Name(), obj.Name()}
		}
	}
	return []string{obj.Name()}
}

// literalName names the function literal fn after the local variable
// that holds it in its parent ("spring"), or after its number ("func1"
// for Energy$1).
func literalName(fn *ssa.Function) string {
	var mc *ssa.MakeClosure
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(*ssa.MakeClosure); ok && c.Fn == fn {
				mc = c
			}
		}
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			ref, ok := instr.(*ssa.DebugRef)
			if !ok || ref.IsAddr || ref.X != fn && (mc == nil || ref.X != ssa.Value(mc)) {
				continue
			}
			if v, ok := ref.Object().(*types.Var); ok && isSourceName(v.Name()) {
				return v.Name()
			}
		}
	}
	n := fn.Name()
	return "func" + n[strings.LastIndexByte(n, '$')+1:]
}

// originName names the source function whose body fn is: fn's own name,
// or for a function literal, the function it is in.
func originName(fn *ssa.Function) string {
	fn = rootOf(fn)
	if obj, ok := fn.Object().(*types.Func); ok {
		return FuncName(obj)
	}
	return fn.Name()
}

// qualified names fn as code in package pkg would: Sin in package
// math, math.Sin elsewhere; T.M for a method.
func qualified(fn *ssa.Function, pkg *types.Package) string {
	name := strings.Join(funcParts(fn), ".")
	if fn.Pkg != nil && fn.Pkg.Pkg != pkg {
		name = fn.Pkg.Pkg.Name() + "." + name
	}
	return name
}

// describe returns the sentence of Program.Describe without its
// subject.
func describe(s *shape, captured []string, pkg *types.Package) string {
	what := func(b *shape) string {
		if b.fn.Parent() != nil {
			return fmt.Sprintf("the literal %s of %s", literalName(b.fn), originName(b.fn))
		}
		return qualified(b.fn, pkg)
	}
	var sb strings.Builder
	if s.fn.Parent() != nil {
		fmt.Fprintf(&sb, " is the function literal %s of %s", literalName(s.fn), originName(s.fn))
	} else {
		fmt.Fprintf(&sb, " is %s", qualified(s.fn, pkg))
	}
	var binds []string
	for i, b := range s.bound {
		if b != nil {
			binds = append(binds, fmt.Sprintf("%s = %s", paramName(s.fn.Params[i]), what(b)))
		}
	}
	if len(binds) > 0 {
		fmt.Fprintf(&sb, " specialized for %s", strings.Join(binds, ", "))
	}
	switch len(captured) {
	case 0:
	case 1:
		fmt.Fprintf(&sb, ", with the captured variable %s as its first parameter", captured[0])
	default:
		fmt.Fprintf(&sb, ", with the captured variables %s as its first parameters", strings.Join(captured, ", "))
	}
	sb.WriteString(".")
	return sb.String()
}

// byValue reports whether the captured variable fv is passed by value
// (see the file comment): its cell is written by no function literal and
// its address goes nowhere but into literals, loads and stores.
func (p *Program) byValue(fv *ssa.FreeVar) bool {
	if v, ok := p.byValueMemo[fv]; ok {
		return v
	}
	p.byValueMemo[fv] = false // cycles are impossible; be safe
	ok := true
	roots := 0
	for _, c := range makeClosures(fv.Parent()) {
		i := slices.Index(fv.Parent().FreeVars, fv)
		switch b := c.Bindings[i].(type) {
		case *ssa.Alloc:
			ok = ok && cellByValue(b)
			roots++
		case *ssa.FreeVar:
			ok = ok && p.byValue(b)
			roots++
		default:
			ok = false
		}
	}
	ok = ok && roots > 0
	p.byValueMemo[fv] = ok
	return ok
}

// makeClosures returns the MakeClosure instructions of fn in its parent.
func makeClosures(fn *ssa.Function) []*ssa.MakeClosure {
	var out []*ssa.MakeClosure
	if fn.Parent() == nil {
		return nil
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(*ssa.MakeClosure); ok && c.Fn == fn {
				out = append(out, c)
			}
		}
	}
	return out
}

// cellByValue reports whether the captured variable a, in the function
// that declares it, is only loaded and stored there (through field and
// element addresses too) and only read by the literals that capture it.
func cellByValue(a *ssa.Alloc) bool { return onlyAccessed(a, a, true) }

// readOnly reports whether the address addr, in a function literal, is
// only loaded from (through field and element addresses too), or
// captured by literals that only read it.
func readOnly(addr ssa.Value) bool { return onlyAccessed(addr, addr, false) }

// onlyAccessed reports whether addr, the variable cell or an address in
// it, is only loaded from, stored into when stores is set, and captured
// by literals that only read it.
func onlyAccessed(addr, cell ssa.Value, stores bool) bool {
	for _, r := range *addr.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if !stores || r.Addr != addr || r.Val == addr {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if !onlyAccessed(r, cell, stores) {
				return false
			}
		case *ssa.IndexAddr:
			if !ir.IsArrayPointer(r.X.Type()) || !onlyAccessed(r, cell, stores) {
				return false
			}
		case *ssa.MakeClosure:
			if addr != cell || !capturedReadOnly(r, cell) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// promotedStore returns the one store into the captured variable a
// when a is passed by value and that store, of its whole value, comes
// before every load and every literal that captures it: then a is, for
// the IR, the stored value (no memory, with or without optimization, as
// for the variables go/ssa lifts). It returns nil otherwise.
func promotedStore(a *ssa.Alloc) *ssa.Store {
	if !a.Heap || !cellByValue(a) {
		return nil
	}
	var store *ssa.Store
	var reads []ssa.Instruction
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if store != nil {
				return nil
			}
			store = r
		case *ssa.UnOp, *ssa.MakeClosure:
			reads = append(reads, r)
		case *ssa.DebugRef:
		default:
			return nil // a field or element address
		}
	}
	if store == nil {
		return nil
	}
	for _, r := range reads {
		if !dominates(store, r) {
			return nil
		}
	}
	return store
}

// capturedReadOnly reports whether each literal that c makes with cell
// among its bindings only reads it.
func capturedReadOnly(c *ssa.MakeClosure, cell ssa.Value) bool {
	fn := c.Fn.(*ssa.Function)
	for i, b := range c.Bindings {
		if b == cell && !readOnly(fn.FreeVars[i]) {
			return false
		}
	}
	return true
}

// funcCellStore returns the one store into the variable a holding a
// function value, or why there is not exactly one that comes before
// every read.
func funcCellStore(a *ssa.Alloc) (*ssa.Store, *funcErr) {
	name := a.Comment
	if !isSourceName(name) {
		name = "the variable"
	}
	var store *ssa.Store
	var reads []ssa.Instruction
	var walk func(addr ssa.Value) *funcErr
	walk = func(addr ssa.Value) *funcErr {
		for _, r := range *addr.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if addr != a || r.Addr != a {
					return funcErrorf("closure", "%s is assigned in a function literal: gadgen must know the one function it holds", name).at(r.Pos())
				}
				if store != nil {
					return funcErrorf("function value", "%s is assigned more than once: gadgen must know the one function it holds", name).at(r.Pos())
				}
				store = r
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return funcErrorf("function value", "the address of %s is taken: gadgen must know the one function it holds", name)
				}
				if addr == a {
					reads = append(reads, r)
				}
			case *ssa.DebugRef:
			case *ssa.MakeClosure:
				fn := r.Fn.(*ssa.Function)
				for i, b := range r.Bindings {
					if b == addr {
						if err := walk(fn.FreeVars[i]); err != nil {
							return err
						}
					}
				}
				if addr == a {
					reads = append(reads, r)
				}
			default:
				return funcErrorf("function value", "the address of %s is taken: gadgen must know the one function it holds", name)
			}
		}
		return nil
	}
	if err := walk(a); err != nil {
		return nil, err
	}
	if store == nil {
		return nil, funcErrorf("function value", "%s is never assigned a function", name)
	}
	for _, r := range reads {
		if !dominates(store, r) {
			if c, ok := store.Val.(*ssa.MakeClosure); ok && slices.Contains(c.Bindings, ssa.Value(a)) {
				return nil, funcErrorf("closure", "recursive function literals (%s calls itself) are not supported", name).at(store.Pos())
			}
			return nil, funcErrorf("function value", "%s may be read before it is assigned: gadgen must know the one function it holds", name)
		}
	}
	return store, nil
}

// dominates reports whether instruction a comes before b on every path.
func dominates(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		return slices.Index(a.Block().Instrs, a) < slices.Index(b.Block().Instrs, b)
	}
	return a.Block().Dominates(b.Block())
}

// resolve returns the function value v at the instruction being lowered,
// emitting the loads of the captured variables passed by value, or why v
// is not known statically.
func (l *lowerer) resolve(v ssa.Value) (*funcVal, *funcErr) {
	switch v := v.(type) {
	case *ssa.Function:
		return l.staticFunc(v)
	case *ssa.MakeClosure:
		return l.closure(v)
	case *ssa.Parameter:
		if fv, ok := l.funcs[v]; ok {
			return fv, nil
		}
		return nil, funcErrorf("function value", "call of the function parameter %s: gadgen must know the function called; differentiate a function that passes %s a function literal or a named function", v.Name(), v.Name())
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return l.resolveCell(v.X)
		}
	case *ssa.ChangeType:
		return l.resolve(v.X)
	case *ssa.Phi:
		name := "a function value"
		if isSourceName(v.Comment) {
			name = v.Comment
		}
		return nil, funcErrorf("function value", "%s holds different functions on different paths: gadgen must know the function called", name)
	case *ssa.Call, *ssa.Extract:
		return nil, funcErrorf("function value", "function values returned by calls are not supported")
	case *ssa.Field:
		return nil, funcErrorf("function value", "function values stored in struct fields are not supported")
	case *ssa.Index, *ssa.Lookup:
		return nil, funcErrorf("function value", "function values stored in slices, arrays and maps are not supported")
	case *ssa.Const:
		return nil, funcErrorf("function value", "call of a nil function value")
	case *ssa.TypeAssert:
		return nil, funcErrorf("type assertion", "type assertions and type switches are not supported")
	}
	return nil, funcErrorf("function value", "a function value that gadgen cannot know statically is not supported")
}

// staticFunc returns the function value of a function with no captured
// variables: a package-level function or a literal that captures
// nothing.
func (l *lowerer) staticFunc(fn *ssa.Function) (*funcVal, *funcErr) {
	switch {
	case strings.HasPrefix(fn.Synthetic, "bound method wrapper"):
		return nil, funcErrorf("function value", "method values are not supported")
	case fn.Synthetic != "" && fn.Parent() == nil:
		if _, ok := fn.Object().(*types.Func); !ok || !strings.HasPrefix(fn.Synthetic, "thunk") {
			return nil, funcErrorf("function value", "%s used as a function value is not supported", fn.Synthetic)
		}
	case fn.Origin() != nil || len(fn.TypeArgs()) > 0:
		return nil, funcErrorf("generic function", "generic function %s used as a function value is not supported yet", fn.Name())
	}
	return &funcVal{shape: &shape{fn: fn}}, nil
}

// closure returns the function value that c makes.
func (l *lowerer) closure(c *ssa.MakeClosure) (*funcVal, *funcErr) {
	fn := c.Fn.(*ssa.Function)
	if strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
		return nil, funcErrorf("function value", "method values are not supported").at(c.Pos())
	}
	fv := &funcVal{shape: &shape{fn: fn, free: make([]*shape, len(fn.FreeVars))}}
	for i, b := range c.Bindings {
		free := fn.FreeVars[i]
		if isFuncCell(free.Type()) {
			inner, err := l.resolveCell(b)
			if err != nil {
				return nil, err
			}
			fv.shape.free[i] = inner.shape
			fv.args = append(fv.args, inner.args...)
			continue
		}
		fv.args = append(fv.args, l.captureArg(b, free))
	}
	return fv, nil
}

// captureArg returns the argument that passes the captured variable b of
// the function being lowered to a literal's free variable free: the
// value it holds now, or its address.
func (l *lowerer) captureArg(b ssa.Value, free *ssa.FreeVar) *ir.Value {
	if !l.p.byValue(free) {
		return l.operand(b)
	}
	if x, ok := l.byVal[b]; ok {
		return x // a free variable of the function being lowered, passed by value
	}
	if st, ok := l.promoted[b]; ok {
		return l.operand(st.Val)
	}
	ld := l.f.NewValue(ir.OpLoad, free.Type().(*types.Pointer).Elem(), l.operand(b))
	ld.Pos, ld.Name = l.pos, free.Name()
	l.cur.Append(ld)
	return ld
}

// resolveCell returns the function value that the variable at addr
// holds.
func (l *lowerer) resolveCell(addr ssa.Value) (*funcVal, *funcErr) {
	switch a := addr.(type) {
	case *ssa.FreeVar:
		if fv, ok := l.cells[a]; ok {
			return fv, nil
		}
	case *ssa.Alloc:
		store, err := funcCellStore(a)
		if err != nil {
			return nil, err
		}
		return l.resolve(store.Val)
	case *ssa.FieldAddr:
		return nil, funcErrorf("function value", "function values stored in struct fields are not supported")
	case *ssa.IndexAddr:
		return nil, funcErrorf("function value", "function values stored in slices and arrays are not supported")
	case *ssa.Global:
		return nil, funcErrorf("function value", "function values in package-level variables are not supported")
	}
	return nil, funcErrorf("function value", "a function value read from memory is not supported")
}

// callFuncVal lowers a call of the function value callee: a direct call
// of a package-level function, or a call of the specialization of
// callee for the function values among the arguments.
func (l *lowerer) callFuncVal(in *ssa.Call, callee *funcVal) *ir.Value {
	c := in.Common()
	pos := in.Pos()
	fn := callee.shape.fn
	if err := l.p.build(fn); err != nil {
		l.report(err, pos)
		return nil
	}
	s := &shape{fn: fn, free: callee.shape.free}
	args := slices.Clone(callee.args)
	var rest []ssa.Value
	for i, a := range c.Args {
		if !isFunc(a.Type()) {
			rest = append(rest, a)
			continue
		}
		fv, err := l.resolve(a)
		if err != nil {
			l.report(err, pos)
			return nil
		}
		if s.bound == nil {
			s.bound = make([]*shape, len(fn.Params))
		}
		s.bound[i] = fv.shape
		args = append(args, fv.args...)
	}
	rest, spread := l.expandVarargs(c, rest)
	callee2 := &ir.Callee{Spread: spread}
	if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil && s.bound == nil && len(s.free) == 0 {
		callee2.Func = obj // a package-level function (or a method through its thunk)
	} else {
		obj, err := l.p.specialize(s)
		if err != nil {
			l.report(err, pos)
			return nil
		}
		callee2.Func = obj
	}
	typ := in.Type()
	if t, ok := typ.(*types.Tuple); ok && t.Len() == 0 {
		typ = nil
	}
	v := l.f.NewValue(ir.OpCall, typ, append(args, l.operands(rest...)...)...)
	v.Callee = callee2
	return v
}

// funcUseError reports a use of a function value other than calling it
// or passing it to a function.
func (l *lowerer) funcUseError(instr ssa.Instruction) {
	var what string
	switch instr.(type) {
	case *ssa.Return:
		what = "returning a function value"
	case *ssa.MakeInterface:
		what = "converting a function value to an interface"
	case *ssa.BinOp:
		what = "comparing function values"
	case *ssa.Store:
		what = "storing a function value in a struct, slice, array or package-level variable"
	default:
		what = "this use of a function value"
	}
	l.errorf(l.pos, "function value", "%s is not supported: gadgen handles function values that are called or passed to functions", what)
}

// LowerCamel joins parts in lower camel case: geom, Vec, Norm →
// geomVecNorm.
func LowerCamel(parts []string) string {
	var sb strings.Builder
	for i, p := range parts {
		r, n := utf8.DecodeRuneInString(p)
		if i == 0 {
			r = unicode.ToLower(r)
		} else {
			r = unicode.ToUpper(r)
		}
		sb.WriteRune(r)
		sb.WriteString(p[n:])
	}
	return sb.String()
}

// specialParams adds to f the parameters of the specialization being
// lowered, in the order of specialize, and binds them: captured
// variables holding data, function values bound to parameters, the
// parameters kept.
func (l *lowerer) specialParams(f *ir.Func) {
	s := l.special.shape
	sig := l.fnObj.Type().(*types.Signature)
	next := 0
	take := func() *ir.Value {
		pv := sig.Params().At(next)
		next++
		v := f.AddParam(pv.Name(), pv.Type())
		v.Pos = pv.Pos()
		l.checkComplex(pv.Type(), pv.Pos())
		return v
	}
	takeVal := func(b *shape) *funcVal {
		fv := &funcVal{shape: b}
		b.forData(func(*ssa.FreeVar) { fv.args = append(fv.args, take()) })
		return fv
	}
	for i, free := range s.fn.FreeVars {
		switch {
		case s.free[i] != nil:
			l.cells[free] = takeVal(s.free[i])
		case l.p.byValue(free):
			l.byVal[free] = take()
		default:
			l.vals[free] = take()
		}
	}
	for i, sp := range s.fn.Params {
		if s.bound != nil && s.bound[i] != nil {
			l.funcs[sp] = takeVal(s.bound[i])
		}
	}
	for i, sp := range s.fn.Params {
		if s.bound == nil || s.bound[i] == nil {
			l.vals[sp] = take()
		}
	}
}

// funcInstr lowers the instructions that make, hold or store function
// values, which have no IR (their values are resolved where they are
// called or passed), and reports true; false for other instructions.
func (l *lowerer) funcInstr(instr ssa.Instruction) bool {
	switch in := instr.(type) {
	case *ssa.Call:
		if holdsFunc(in.Type()) {
			l.errorf(in.Pos(), "function value", "function values returned by calls are not supported")
			return true
		}
		return false
	case *ssa.Store:
		if !isFunc(in.Val.Type()) {
			return false
		}
		switch in.Addr.(type) {
		case *ssa.Alloc, *ssa.FreeVar:
			if isFuncCell(in.Addr.Type()) {
				return true // a variable holding a function value: see resolveCell
			}
		}
		l.funcUseError(in)
		return true
	case *ssa.Alloc:
		return isFuncCell(in.Type())
	case ssa.Value:
		return holdsFunc(in.Type())
	}
	return false
}

// byValInstr lowers the reads of a free variable passed by value (see
// closure.go): a load is the value, a field or element address the
// field or element of the value; and the captured variables that
// promotedStore promotes: no alloc, no store, a load is the value
// stored. It reports whether instr was one.
func (l *lowerer) byValInstr(instr ssa.Instruction) bool {
	var v *ir.Value
	switch in := instr.(type) {
	case *ssa.Alloc:
		return l.promoted[in] != nil
	case *ssa.Store:
		return l.promoted[in.Addr] != nil
	case *ssa.UnOp:
		if x, ok := l.byVal[in.X]; ok && in.Op == token.MUL {
			l.vals[in] = x
			return true
		}
		if st, ok := l.promoted[in.X]; ok && in.Op == token.MUL {
			l.vals[in] = l.operand(st.Val)
			return true
		}
	case *ssa.FieldAddr:
		if x, ok := l.byVal[in.X]; ok {
			v = l.f.NewValue(ir.OpField, in.Type().(*types.Pointer).Elem(), x)
			v.Index = in.Field
		}
	case *ssa.IndexAddr:
		if x, ok := l.byVal[in.X]; ok {
			v = l.f.NewValue(ir.OpIndex, in.Type().(*types.Pointer).Elem(), x, l.operand(in.Index))
		}
	}
	if v == nil {
		return false
	}
	v.Pos = l.pos
	l.cur.Append(v)
	l.byVal[instr.(ssa.Value)] = v
	return true
}
