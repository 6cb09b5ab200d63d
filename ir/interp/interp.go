package interp

// This file defines the Machine, its errors, and the execution of a
// function: the walk over blocks, φ-nodes and instructions.

import (
	"fmt"
	"go/types"
	"reflect"
	"runtime"
	"strings"

	"github.com/gadgen/gadgen/ir"
)

// Defaults of the Machine's limits.
const (
	// DefaultMaxSteps is the number of instructions a Call may execute
	// when Machine.MaxSteps is zero.
	DefaultMaxSteps = 10_000_000
	// DefaultMaxDepth is the depth of nested calls allowed when
	// Machine.MaxDepth is zero.
	DefaultMaxDepth = 1000
)

// Native is a function implemented in Go that interpreted code may call:
// it receives the call's arguments (a method's receiver first) and returns
// its results. An error it returns becomes a panic of the interpreted
// program at the call.
type Native func(args []Value) ([]Value, error)

// Machine runs IR functions. Its zero value is ready to use; the maps are
// consulted, never modified, except Globals, which gets a zeroed variable
// for each package-level variable the first time one is used.
type Machine struct {
	// Funcs resolves static calls of functions and methods whose bodies
	// are IR.
	Funcs map[*types.Func]*ir.Func
	// Derived resolves calls of generated functions (ir.DerivedFunc) by
	// name.
	Derived map[string]*ir.Func
	// Natives resolves calls of other functions by name: a DerivedFunc's
	// Name, or a static callee's FullName ("math.Sin", "(*p.T).M"). Calls
	// look in Funcs or Derived first, then in Natives, then at the
	// functions the interpreter knows: package math and the helpers of
	// package templates.
	Natives map[string]Native
	// Globals holds the package-level variables.
	Globals map[*types.Var]Pointer
	// MaxSteps bounds the instructions one Call executes, nested calls
	// included; zero means DefaultMaxSteps.
	MaxSteps int
	// MaxDepth bounds the depth of nested calls; zero means
	// DefaultMaxDepth.
	MaxDepth int

	steps int
	depth int
}

// ErrorKind classifies an Error.
type ErrorKind int

const (
	// Panic: the interpreted program panicked (the panic op, an index out
	// of range, a nil dereference, an integer division by zero, …).
	Panic ErrorKind = iota
	// Unsupported: the program does something the interpreter cannot do
	// (an unknown callee, a dynamic interface call, a map).
	Unsupported
	// Limit: the program ran past MaxSteps or MaxDepth.
	Limit
	// Invalid: the IR or the arguments are ill-formed (a value of the
	// wrong type, a use of an undefined value).
	Invalid
)

func (k ErrorKind) String() string {
	switch k {
	case Panic:
		return "panic"
	case Unsupported:
		return "unsupported"
	case Limit:
		return "limit"
	case Invalid:
		return "invalid"
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Error is the error of a Call that did not return normally.
type Error struct {
	Kind ErrorKind
	// Func is the name of the function that was running, Value the
	// instruction in the IR's text form ("" when the error is not at an
	// instruction).
	Func, Value string
	// Msg says what happened: for a panic, the panic's message ("runtime
	// error: index out of range [3] with length 3").
	Msg string
	// Stack lists the calls that led to the function, innermost first, as
	// "F: v12 = call G …".
	Stack []string
}

func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("interp: ")
	sb.WriteString(e.Func)
	if e.Value != "" {
		sb.WriteString(": " + e.Value)
	}
	fmt.Fprintf(&sb, ": %s: %s", e.Kind, e.Msg)
	for _, s := range e.Stack {
		sb.WriteString("\n\tcalled from " + s)
	}
	return sb.String()
}

// fault is what the interpreter panics with inside a frame; run turns it
// into an *Error that names the instruction.
type fault struct {
	kind ErrorKind
	msg  string
}

// throw stops the current instruction with an error of the given kind.
func throw(kind ErrorKind, format string, args ...any) {
	panic(fault{kind, fmt.Sprintf(format, args...)})
}

// runtimeError is a run-time panic of the interpreted program with the gc
// runtime's message.
func runtimeError(format string, args ...any) {
	throw(Panic, "runtime error: "+format, args...)
}

// Call runs f with args (a method's receiver first) and returns its
// results. It returns an *Error when f panics, runs too long, or does
// something the interpreter does not support. The arguments must match
// f's parameters. Structs and arrays among them are not modified; slices
// and pointers share memory with the caller, so that what f writes
// through them is seen after the call, as in Go.
func (m *Machine) Call(f *ir.Func, args ...Value) (results []Value, err error) {
	m.steps, m.depth = 0, 0
	return m.call(f, args)
}

func (m *Machine) call(f *ir.Func, args []Value) (results []Value, err error) {
	params := f.Params
	if f.Suspend != nil {
		params = params[:len(params)-f.Suspend.BackParams] // the rest are the continuation's
	}
	if len(args) != len(params) {
		return nil, &Error{Kind: Invalid, Func: f.Name, Msg: fmt.Sprintf("%d arguments for %d parameters", len(args), len(params))}
	}
	for i, p := range params {
		if !conforms(args[i], p.Type) {
			return nil, &Error{Kind: Invalid, Func: f.Name, Msg: fmt.Sprintf("argument %d: %s is not a value of type %s", i, Format(args[i]), p.Type)}
		}
	}
	maxDepth := m.MaxDepth
	if maxDepth == 0 {
		maxDepth = DefaultMaxDepth
	}
	if m.depth >= maxDepth {
		return nil, &Error{Kind: Limit, Func: f.Name, Msg: fmt.Sprintf("calls nested deeper than %d", maxDepth)}
	}
	m.depth++
	defer func() { m.depth-- }()
	fr, err := newFrame(m, f)
	if err != nil {
		return nil, err
	}
	for i, p := range params {
		fr.regs[p.ID] = args[i]
	}
	return fr.run()
}

// frame is one activation of a function.
type frame struct {
	m      *Machine
	f      *ir.Func
	regs   []Value // by Value.ID
	consts map[*ir.Value]Value
	cur    *ir.Value // the instruction being executed
	// resume, when not nil, is the suspension after which run goes on
	// (a call of a Continuation).
	resume *ir.Value
}

// Continuation is the value of the continuation a split function returns
// (ir.Suspend): calling it runs the rest of the function's frame, its
// parameters set to the arguments.
type Continuation struct {
	fr *frame
	at *ir.Value // the suspension
}

// call runs the rest of the frame of c with args as the continuation's
// parameters, once.
func (c *Continuation) call(args []Value) []Value {
	if c == nil {
		throw(Panic, "call of a nil func value")
	}
	if c.fr == nil {
		throw(Unsupported, "a continuation called twice")
	}
	fr := c.fr
	c.fr = nil
	ps := fr.f.Params[len(fr.f.Params)-fr.f.Suspend.BackParams:]
	if len(args) != len(ps) {
		throw(Invalid, "%d arguments for a continuation of %d parameters", len(args), len(ps))
	}
	for i, p := range ps {
		fr.regs[p.ID] = args[i]
	}
	fr.resume = c.at
	res, err := fr.run()
	if err != nil {
		panic(err)
	}
	return res
}

// position returns the index of v in its block.
func position(v *ir.Value) int {
	for i, w := range v.Block.Instrs {
		if w == v {
			return i
		}
	}
	throw(Invalid, "%s is not in its block", v.Ref())
	return -1
}

func newFrame(m *Machine, f *ir.Func) (*frame, error) {
	if len(f.Blocks) == 0 {
		return nil, &Error{Kind: Invalid, Func: f.Name, Msg: "function has no blocks"}
	}
	// Registers are indexed by ID: check that IDs are in range and unique,
	// which ir.Check does not require of hand-made values.
	n := f.NumValues() + 1
	seen := make([]bool, n)
	claim := func(v *ir.Value) error {
		if v.ID <= 0 || v.ID >= n || seen[v.ID] {
			return &Error{Kind: Invalid, Func: f.Name, Value: v.LongString(nil), Msg: fmt.Sprintf("value ID %d out of range or not unique", v.ID)}
		}
		seen[v.ID] = true
		return nil
	}
	for _, p := range f.Params {
		if err := claim(p); err != nil {
			return nil, err
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if err := claim(v); err != nil {
				return nil, err
			}
		}
	}
	return &frame{m: m, f: f, regs: make([]Value, n), consts: map[*ir.Value]Value{}}, nil
}

// run executes the frame's function from its entry block.
func (fr *frame) run() (results []Value, err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		e := &Error{Func: fr.f.Name}
		if fr.cur != nil {
			e.Value = fr.cur.LongString(types.RelativeTo(fr.f.Pkg))
		}
		switch r := r.(type) {
		case fault:
			e.Kind, e.Msg = r.kind, r.msg
		case *Error:
			// An error of a callee: add this call to its stack.
			r.Stack = append(r.Stack, fr.f.Name+": "+e.Value)
			e = r
		case runtime.Error:
			// The host caught an ill-typed operation (a failed type
			// assertion on a value of the wrong kind, …).
			e.Kind, e.Msg = Invalid, r.Error()
		default:
			e.Kind, e.Msg = Invalid, fmt.Sprint(r)
		}
		results, err = nil, e
	}()
	maxSteps := fr.m.MaxSteps
	if maxSteps == 0 {
		maxSteps = DefaultMaxSteps
	}
	var prev *ir.Block
	prevSucc := 0
	b, start := fr.f.Blocks[0], -1
	if fr.resume != nil {
		b, start = fr.resume.Block, position(fr.resume)+1
		fr.resume = nil
	}
	for {
		fr.m.steps += len(b.Instrs)
		if fr.m.steps > maxSteps {
			fr.cur = nil
			throw(Limit, "more than %d steps (an infinite loop?) in b%d", maxSteps, b.Index)
		}
		n := start
		if start < 0 {
			n = fr.phis(b, prev, prevSucc)
		}
		start = -1
		term := b.Terminator()
		if term == nil {
			fr.cur = nil
			throw(Invalid, "b%d does not end with a terminator", b.Index)
		}
		for _, v := range b.Instrs[n : len(b.Instrs)-1] {
			fr.cur = v
			if ir.IsSuspend(v) && fr.f.Suspend != nil {
				// The first half returns its results and the
				// continuation, which resumes this frame after v.
				sp := fr.f.Suspend
				res := make([]Value, 0, len(sp.Types)+1)
				for _, a := range v.Args[:len(sp.Types)] {
					res = append(res, fr.get(a))
				}
				return append(res, &Continuation{fr: fr, at: v}), nil
			}
			fr.regs[v.ID] = fr.eval(v)
		}
		fr.cur = term
		switch term.Op {
		case ir.OpJump:
			prev, prevSucc, b = b, 0, succ(b, 0)
		case ir.OpIf:
			k := 1
			if fr.get(term.Args[0]).(bool) {
				k = 0
			}
			prev, prevSucc, b = b, k, succ(b, k)
		case ir.OpReturn:
			res := make([]Value, len(term.Args))
			for j, a := range term.Args {
				res[j] = fr.get(a)
			}
			return res, nil
		case ir.OpPanic:
			throw(Panic, "%s", panicMessage(fr.get(term.Args[0])))
		}
	}
}

func succ(b *ir.Block, k int) *ir.Block {
	if k >= len(b.Succs) {
		throw(Invalid, "b%d has no successor %d", b.Index, k)
	}
	return b.Succs[k]
}

// phis evaluates the φ-nodes at the start of b on entry from prev by the
// edge to its successor number k, all at once, and returns the number of
// φ-nodes.
func (fr *frame) phis(b, prev *ir.Block, k int) int {
	n := 0
	for n < len(b.Instrs) && b.Instrs[n].Op == ir.OpPhi {
		n++
	}
	if n == 0 {
		return 0
	}
	fr.cur = b.Instrs[0]
	if prev == nil {
		throw(Invalid, "φ-nodes in the entry block")
	}
	// The edge prev → b is the j-th edge between them when b is prev's
	// successor k, both lists holding parallel edges in the same order.
	j := 0
	for _, s := range prev.Succs[:k] {
		if s == b {
			j++
		}
	}
	pi := -1
	for i, p := range b.Preds {
		if p == prev {
			if j == 0 {
				pi = i
				break
			}
			j--
		}
	}
	if pi < 0 {
		throw(Invalid, "b%d is not a predecessor of b%d", prev.Index, b.Index)
	}
	vals := make([]Value, n)
	for i, v := range b.Instrs[:n] {
		fr.cur = v
		if pi >= len(v.Args) {
			throw(Invalid, "φ-node without an argument for predecessor %d", pi)
		}
		vals[i] = fr.get(v.Args[pi])
	}
	for i, v := range b.Instrs[:n] {
		fr.regs[v.ID] = vals[i]
	}
	return n
}

// get returns the value of argument a.
func (fr *frame) get(a *ir.Value) Value {
	if a == nil {
		throw(Invalid, "missing argument")
	}
	if a.Op == ir.OpConst {
		c, ok := fr.consts[a]
		if !ok {
			c = constValue(a)
			fr.consts[a] = c
		}
		return c
	}
	if a.ID <= 0 || a.ID >= len(fr.regs) || fr.regs[a.ID] == nil {
		throw(Invalid, "%s is not defined", a.Ref())
	}
	return fr.regs[a.ID]
}

// eval computes the result of an instruction that is neither a φ-node nor
// a terminator. Instructions without a result yield a placeholder.
func (fr *frame) eval(v *ir.Value) Value {
	arg := func(i int) Value { return fr.get(v.Args[i]) }
	switch v.Op {
	case ir.OpConst:
		return constValue(v)
	case ir.OpBinary:
		return binary(v.Tok, v.Args[0].Type, arg(0), arg(1))
	case ir.OpUnary:
		return unary(v.Tok, arg(0))
	case ir.OpConvert:
		return convert(arg(0), v.Args[0].Type, v.Type)
	case ir.OpSelect:
		if arg(0).(bool) {
			return arg(1)
		}
		return arg(2)
	case ir.OpCall:
		return fr.callOp(v)
	case ir.OpExtract:
		t, ok := arg(0).(Tuple)
		if !ok || v.Index < 0 || v.Index >= len(t) {
			throw(Invalid, "extract #%d of %s", v.Index, Format(arg(0)))
		}
		return t[v.Index]
	case ir.OpAlloc:
		p, ok := v.Type.Underlying().(*types.Pointer)
		if !ok {
			throw(Invalid, "alloc of non-pointer type %s", v.Type)
		}
		return Pointer{ref: newSlot(Zero(p.Elem()))}
	case ir.OpGlobal:
		return fr.m.global(v)
	case ir.OpLoad:
		return deref(arg(0)).Load()
	case ir.OpStore:
		deref(arg(0)).Store(arg(1))
		return noValue{}
	case ir.OpFieldAddr:
		p := deref(arg(0))
		s := (*p.ref).(*Struct)
		return Pointer{ref: &s.Fields[v.Index]}
	case ir.OpIndexAddr:
		return indexAddr(arg(0), arg(1))
	case ir.OpField:
		return arg(0).(*Struct).Fields[v.Index]
	case ir.OpIndex:
		return index(arg(0), arg(1))
	case ir.OpMakeSlice:
		return makeSlice(v, fr.get(v.Args[0]), fr.optional(v.Args[1]))
	case ir.OpSlice:
		return slice(arg(0), fr.optional(v.Args[1]), fr.optional(v.Args[2]), fr.optional(v.Args[3]))
	case ir.OpLen:
		return length(arg(0), v.Args[0].Type)
	case ir.OpCap:
		return capacity(arg(0), v.Args[0].Type)
	case ir.OpPhi:
		throw(Invalid, "φ-node after other instructions")
	case ir.OpJump, ir.OpIf, ir.OpReturn, ir.OpPanic:
		throw(Invalid, "terminator in the middle of a block")
	}
	throw(Invalid, "unknown op %s", v.Op)
	return nil
}

// noValue is the register content of an instruction without a result.
type noValue struct{}

// optional returns the value of an argument that may be missing (nil).
func (fr *frame) optional(a *ir.Value) Value {
	if a == nil {
		return nil
	}
	return fr.get(a)
}

func newSlot(v Value) *Value {
	s := new(Value)
	*s = v
	return s
}

// deref returns p as a non-nil Pointer, or panics as a nil dereference.
func deref(p Value) Pointer {
	q, ok := p.(Pointer)
	if !ok {
		throw(Invalid, "%s is not a pointer", Format(p))
	}
	if q.IsNil() {
		runtimeError("invalid memory address or nil pointer dereference")
	}
	return q
}

func (m *Machine) global(v *ir.Value) Pointer {
	if v.Global == nil {
		throw(Invalid, "global without a variable")
	}
	if p, ok := m.Globals[v.Global]; ok {
		return p
	}
	if m.Globals == nil {
		m.Globals = map[*types.Var]Pointer{}
	}
	p := Pointer{ref: newSlot(Zero(v.Global.Type()))}
	m.Globals[v.Global] = p
	return p
}

// panicMessage formats the argument of panic as the gc runtime prints it.
func panicMessage(v Value) string {
	if i, ok := v.(Iface); ok {
		if i.Type == nil {
			return "panic called with nil argument"
		}
		v = i.V
	}
	switch v := v.(type) {
	case string:
		return v
	case error:
		return v.Error()
	}
	return Format(v)
}

// conforms reports whether v may be a value of type t, looking at its
// representation only (not at the elements of slices).
func conforms(v Value, t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		z, ok := basicZero(u)
		return ok && reflect.TypeOf(z) == reflect.TypeOf(v)
	case *types.Slice:
		_, ok := v.(Slice)
		return ok
	case *types.Pointer:
		switch v.(type) {
		case Pointer, Opaque:
			return true
		}
		return false
	case *types.Signature:
		_, ok := v.(*Continuation)
		return ok
	case *types.Interface:
		switch v.(type) {
		case Iface, Opaque:
			return true
		}
		return false
	case *types.Struct:
		s, ok := v.(*Struct)
		if !ok || len(s.Fields) != u.NumFields() {
			return false
		}
		for i, f := range s.Fields {
			if !conforms(f, u.Field(i).Type()) {
				return false
			}
		}
		return true
	case *types.Array:
		a, ok := v.(*Array)
		if !ok || int64(len(a.Elems)) != u.Len() {
			return false
		}
		for _, e := range a.Elems {
			if !conforms(e, u.Elem()) {
				return false
			}
		}
		return true
	}
	return false
}
