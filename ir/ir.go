package ir

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/gadgen/gadgen/templates"
)

// Op is the operation of a Value.
type Op uint8

// The operations. Each comment gives the arguments and the auxiliary fields
// the operation uses; fields not named are zero.
const (
	OpInvalid Op = iota

	// OpParam is a parameter of the function. Index: position in
	// Func.Params. Name: the parameter's name.
	OpParam
	// OpConst is a constant of Type. Const: its value, or nil for the zero
	// value of Type (used for zero structs, arrays, nil slices and
	// pointers).
	OpConst
	// OpPhi merges values at a block with several predecessors: Args[i]
	// flows in from Block.Preds[i].
	OpPhi

	// OpBinary is Args[0] Tok Args[1], Tok one of + - * / % & | ^ &^ << >>
	// == != < <= > >= && ||; both operands are evaluated (&& and || come
	// from the conditions of derivative rules, on values without effects).
	OpBinary
	// OpUnary is Tok Args[0], Tok one of - ! ^.
	OpUnary
	// OpConvert is the conversion Type(Args[0]), including conversion to an
	// interface type (boxing).
	OpConvert
	// OpSelect is Args[1] if Args[0] (bool) is true, else Args[2]. Both
	// alternatives are evaluated; they must be free of effects.
	OpSelect

	// OpCall calls Callee with Args (a method's receiver first). Type is
	// the result type: nil for no result, a *types.Tuple for several.
	OpCall
	// OpExtract is element Index of the tuple Args[0].
	OpExtract

	// OpAlloc allocates a zeroed variable of type Type.(*types.Pointer).Elem()
	// and yields its address. Heap: the address escapes the function (new,
	// &T{} returned or stored); otherwise the variable is a local. Name: the
	// source variable, if any. Adjoint: the variable holds an adjoint (see
	// Value.Adjoint).
	OpAlloc
	// OpGlobal is the address of the package-level variable Global; Type
	// is a pointer to the variable's type.
	OpGlobal
	// OpLoad is *Args[0].
	OpLoad
	// OpStore is *Args[0] = Args[1]. It has no result (Type nil).
	OpStore
	// OpFieldAddr is &Args[0].f, Args[0] a pointer to a struct and f its
	// field number Index.
	OpFieldAddr
	// OpIndexAddr is &Args[0][Args[1]], Args[0] a slice or a pointer to an
	// array.
	OpIndexAddr
	// OpField is Args[0].f, Args[0] a struct value and f its field number
	// Index.
	OpField
	// OpIndex is Args[0][Args[1]], Args[0] an array value or a string.
	OpIndex
	// OpMakeSlice is make(Type, Args[0], Args[1]).
	OpMakeSlice
	// OpSlice is Args[0][Args[1]:Args[2]:Args[3]]; missing bounds are nil
	// entries of Args. Args[0] is a slice or a pointer to an array.
	OpSlice
	// OpLen is len(Args[0]); OpCap is cap(Args[0]).
	OpLen
	OpCap

	// OpJump ends a block that continues at Block.Succs[0].
	OpJump
	// OpIf ends a block: if Args[0] then Succs[0] else Succs[1].
	OpIf
	// OpReturn ends the function with results Args.
	OpReturn
	// OpPanic ends the function with panic(Args[0]).
	OpPanic

	numOps
)

// Callee names the function an OpCall calls.
type Callee struct {
	// Func is the called function or method; nil for builtins.
	Func *types.Func
	// Builtin is the name of a called builtin ("len", "copy", "append",
	// "min", "max", "print", "println", "clear"); "" otherwise.
	Builtin string
	// Invoke: Func is an interface method, called dynamically on Args[0].
	Invoke bool
	// Spread: the last argument is a slice passed with "..." to a
	// variadic function.
	Spread bool
	// Derived, when not nil, names a function that gadgen generates (a
	// derivative): Func is nil and the call is emitted as a call of Name in
	// Pkg (the package being generated when Pkg is nil); with Recv set, it
	// is a method call on Args[0].
	Derived *DerivedFunc
	// Rule, when not nil, is the derivative rule a user gave Func with
	// //gad:rule: every mode differentiates the call by the rule, as a
	// call of package math, instead of through Func's body.
	Rule *templates.Rule
	// Value: the call is of the function value Args[0] (the reverse half
	// of a split reversal, see Suspend); Func is nil.
	Value bool
	// Split: reverse mode reverses the call in two halves (split
	// reversal) where it can, as simplify.ChooseReversal decided.
	Split bool
	// Recomputed: the call runs again, on the same arguments and memory,
	// a call that has returned (reverse mode's forward sweep in a callee's
	// reverse, which joint reversal calls after the caller ran the
	// callee): it cannot panic, so simplify.DropRecomputed removes it when
	// nothing reads its results and its callee writes nothing.
	Recomputed bool
}

// SuspendBuiltin is the name of the builtin that ends the forward half of
// a function split in two (see Suspend): a call of it returns from the
// function, and the code after it runs when the caller calls the returned
// continuation. Its arguments are the function's results, then the
// memory the caller may change in between; passes see it as a call of an
// unknown function with these arguments, so that no memory access moves
// across it.
const SuspendBuiltin = "suspend"

// LaneSumBuiltin is the name of the builtin by which Taylor mode with
// stacked directions sums a float of directions over them (a collapsed
// second-order term; ssaad.Options.Stacked): a call of it takes a float
// and returns one of its type. ssaad.RetypeStacked replaces it (by
// tensorops.LaneSum, or its argument) before the code is emitted; passes
// see it as a call of an unknown function.
const LaneSumBuiltin = "lanesum"

// LaneTensorBuiltin is the name of the builtin by which Taylor mode with
// stacked directions returns a float of directions as the tensor of
// directions it stands for (ssaad.Options.ScalarLanes): a call of it
// takes a float and returns a tensor. ssaad.RetypeStacked replaces it by
// its argument, made that tensor, before the code is emitted.
const LaneTensorBuiltin = "lanetensor"

// LaneFloatBuiltin is LaneTensorBuiltin's converse: a tensor of
// directions of scalars that a callee returned, seen as the float it
// stands for by a caller with stacked directions (ssaad.RetypeStacked
// replaces it by the tensor).
const LaneFloatBuiltin = "lanefloat"

// Suspend describes a function split in two by a call of SuspendBuiltin:
// the function returns, when it reaches that call, the call's first
// len(Types) arguments and a continuation, a func value whose parameters
// are the last Params of the function and whose results are the
// function's ResultTypes (what its OpReturn returns). Reverse mode's split
// reversal generates such functions: the forward sweep and, as the
// continuation, the reverse sweep, a closure over the forward sweep's
// variables.
type Suspend struct {
	// Names and Types are the function's own results before the
	// continuation's ("" names when unnamed).
	Names []string
	Types []types.Type
	// BackParams is how many of the last Params belong to the
	// continuation; Back names the continuation result.
	BackParams int
	Back       string
}

// BackType returns the type of f's continuation: func(the continuation's
// parameters) (f's results).
func (f *Func) BackType() *types.Signature {
	var ps, rs []*types.Var
	for _, p := range f.Params[len(f.Params)-f.Suspend.BackParams:] {
		ps = append(ps, types.NewParam(token.NoPos, f.Pkg, p.Name, p.Type))
	}
	for i, t := range f.ResultTypes {
		rs = append(rs, types.NewParam(token.NoPos, f.Pkg, f.ResultNames[i], t))
	}
	return types.NewSignatureType(nil, nil, nil, types.NewTuple(ps...), types.NewTuple(rs...), false)
}

// IsSuspend reports whether v is a call of SuspendBuiltin.
func IsSuspend(v *Value) bool {
	return v.Op == OpCall && v.Callee != nil && v.Callee.Builtin == SuspendBuiltin
}

// DerivedFunc names a function that gadgen generates in some package.
type DerivedFunc struct {
	Pkg    *types.Package
	Name   string
	Method bool // called as a method: Args[0].Name(Args[1:]...)
	Sig    *types.Signature
	// Helper: the function is a helper of package templates (see
	// templates.Helpers), whose source the driver adds once to the
	// generated package.
	Helper bool
	// Obj, when not nil, stands for the generated function as a Go
	// object, so that a mode can ask for its derivative in turn (through
	// ssaad.Env, as for any function): the driver knows how to build its
	// body. A call of Obj (Callee.Func) is a call of the generated
	// function.
	Obj *types.Func
}

// Primitive returns the rule of package templates of the function c calls,
// when that is a primitive: a function of templates' table (package
// math's, gonum's mathext's, ...; see templates.LookupFunc), called
// directly. It returns nil for other callees, the helpers and the
// builtins included. Primitives are pure and never panic.
func (c *Callee) Primitive() *templates.Rule {
	if c == nil || c.Func == nil || c.Invoke || c.Derived != nil {
		return nil
	}
	r, _ := templates.LookupFunc(c.Func)
	return r
}

// Pure reports whether a call of c has no effects and a result that
// depends on its arguments alone, so that it may be merged, moved,
// duplicated or dropped like arithmetic: a primitive, a helper of package
// templates, or the builtins len, cap, min, max, real, imag and complex.
func (c *Callee) Pure() bool {
	switch {
	case c == nil:
		return false
	case c.Builtin != "":
		switch c.Builtin {
		case "len", "cap", "min", "max", "real", "imag", "complex":
			return true
		}
		return false
	case c.Derived != nil:
		return c.Derived.Helper
	}
	return c.Primitive() != nil
}

// String returns a short name of the callee for printing.
func (c *Callee) String() string {
	switch {
	case c.Derived != nil:
		if c.Derived.Method {
			return "(recv)." + c.Derived.Name
		}
		return c.Derived.Name
	case c.Builtin != "":
		return c.Builtin
	case c.Value:
		return "(func value)"
	case c.Func != nil:
		s := c.Func.FullName()
		if c.Invoke {
			s = "invoke " + s
		}
		return s
	}
	return "?"
}

// Value is one instruction of the IR. See the Op constants for the meaning of
// the fields for each operation.
type Value struct {
	ID    int
	Op    Op
	Type  types.Type
	Args  []*Value
	Block *Block

	// Name is the source name the value had ("s", "dx"), or "" when it has
	// none. The emitter uses it to name the variable holding the value.
	Name string
	// Pos is the position of the source construct the value comes from, or
	// token.NoPos.
	Pos token.Pos

	Tok    token.Token
	Const  constant.Value
	Index  int
	Callee *Callee
	Heap   bool
	Global *types.Var
	// Adjoint marks an OpAlloc whose variable holds reverse mode's adjoint
	// of a value, x̄: a sum of contributions, linear in the seed, of which
	// only the numeric value means anything (not the sign of a zero, which
	// no linear combination turns into a nonzero value). Adding a
	// contribution a to its zero may give a itself, as the transformers'
	// builder does (0 + a is +0 for a = -0).
	Adjoint bool
}

// Block is a basic block.
type Block struct {
	Index  int
	Instrs []*Value
	Preds  []*Block
	Succs  []*Block
	Func   *Func
	// Comment is a hint of where the block came from ("for.body"); the
	// emitter ignores it.
	Comment string
}

// Func is a function in SSA form.
type Func struct {
	// Name is the name to emit; Recv, when not nil, makes the function a
	// method with Params[0] as its receiver.
	Name string
	// Pkg is the package the function belongs to.
	Pkg *types.Package
	// Recv is the receiver's type when the function is a method.
	Recv types.Type
	// Params are the OpParam values, receiver first for a method. They
	// belong to no block.
	Params []*Value
	// ResultNames names the results ("" for unnamed; all or none named),
	// ResultTypes gives their types.
	ResultNames []string
	ResultTypes []types.Type
	// Variadic: the last parameter, of slice type []T, is declared ...T.
	Variadic bool
	// Blocks lists the blocks; Blocks[0] is the entry. The emitter and the
	// printer follow this order.
	Blocks []*Block
	// Doc is the doc comment to emit, without comment markers.
	Doc string
	// Pos is the position of the source function, when there is one.
	Pos token.Pos
	// Scratch, when not nil, says for each parameter whether the memory
	// it points to is scratch: the caller does not read it after the
	// call, so that stores into it that the function itself does not read
	// back are dead.
	Scratch []bool
	// Lanes, when not nil, says for each parameter whether it holds
	// stacked directions (ssaad.Options.Stacked): a tensor of directions
	// (tensorops.Lanes), or memory holding them.
	Lanes []bool
	// ResultLanes says the same of each result.
	ResultLanes []bool
	// Suspend, when not nil, splits the function in two at its call of
	// SuspendBuiltin (see Suspend).
	Suspend *Suspend

	nextID int
}

// NewFunc returns an empty function named name in package pkg.
func NewFunc(name string, pkg *types.Package) *Func {
	return &Func{Name: name, Pkg: pkg}
}

// AddParam appends a parameter named name of type t and returns it.
func (f *Func) AddParam(name string, t types.Type) *Value {
	v := f.newValue(OpParam, t)
	v.Name = name
	v.Index = len(f.Params)
	f.Params = append(f.Params, v)
	return v
}

// AddResult appends a result named name ("" for unnamed) of type t.
func (f *Func) AddResult(name string, t types.Type) {
	f.ResultNames = append(f.ResultNames, name)
	f.ResultTypes = append(f.ResultTypes, t)
}

// NewBlock appends a new, empty block to f.
func (f *Func) NewBlock(comment string) *Block {
	b := &Block{Index: len(f.Blocks), Func: f, Comment: comment}
	f.Blocks = append(f.Blocks, b)
	return b
}

// Renumber sets Block.Index to the position of each block in f.Blocks.
func (f *Func) Renumber() {
	for i, b := range f.Blocks {
		b.Index = i
	}
}

// NumValues is one more than the largest Value.ID of f: a size for tables
// indexed by ID.
func (f *Func) NumValues() int { return f.nextID }

func (f *Func) newValue(op Op, t types.Type, args ...*Value) *Value {
	f.nextID++
	return &Value{ID: f.nextID, Op: op, Type: t, Args: args}
}

// NewValue returns a new value of f that belongs to no block yet; place it
// with Block.Append or Block.Insert.
func (f *Func) NewValue(op Op, t types.Type, args ...*Value) *Value {
	return f.newValue(op, t, args...)
}

// Entry returns the entry block.
func (f *Func) Entry() *Block { return f.Blocks[0] }

// NewValue appends a new value to b and returns it.
func (b *Block) NewValue(op Op, t types.Type, args ...*Value) *Value {
	v := b.Func.newValue(op, t, args...)
	b.Append(v)
	return v
}

// Append appends v to b.
func (b *Block) Append(v *Value) {
	v.Block = b
	b.Instrs = append(b.Instrs, v)
}

// Insert inserts v into b before position i.
func (b *Block) Insert(i int, v *Value) {
	v.Block = b
	b.Instrs = append(b.Instrs, nil)
	copy(b.Instrs[i+1:], b.Instrs[i:])
	b.Instrs[i] = v
}

// Terminator returns the last value of b, or nil if b is empty or does not
// end with a terminator.
func (b *Block) Terminator() *Value {
	if len(b.Instrs) == 0 {
		return nil
	}
	if t := b.Instrs[len(b.Instrs)-1]; t.Op.IsTerminator() {
		return t
	}
	return nil
}

// AddEdge adds the CFG edge from → to.
func AddEdge(from, to *Block) {
	from.Succs = append(from.Succs, to)
	to.Preds = append(to.Preds, from)
}

// Jump ends b with a jump to to.
func (b *Block) Jump(to *Block) *Value {
	v := b.NewValue(OpJump, nil)
	AddEdge(b, to)
	return v
}

// If ends b with a branch on cond.
func (b *Block) If(cond *Value, then, els *Block) *Value {
	v := b.NewValue(OpIf, nil, cond)
	AddEdge(b, then)
	AddEdge(b, els)
	return v
}

// Return ends b with a return of results.
func (b *Block) Return(results ...*Value) *Value {
	return b.NewValue(OpReturn, nil, results...)
}

// HasPhi reports whether b starts with a φ.
func (b *Block) HasPhi() bool { return len(b.Instrs) > 0 && b.Instrs[0].Op == OpPhi }

// PredIndex returns the position of p in b.Preds, or -1.
func (b *Block) PredIndex(p *Block) int {
	for i, q := range b.Preds {
		if q == p {
			return i
		}
	}
	return -1
}

// RemovePred removes predecessor i of b and the φ arguments that flow
// along that edge (the predecessor's Succs are the caller's to fix).
func (b *Block) RemovePred(i int) {
	b.Preds = append(b.Preds[:i], b.Preds[i+1:]...)
	for _, v := range b.Instrs {
		if v.Op != OpPhi {
			break
		}
		v.Args = append(v.Args[:i], v.Args[i+1:]...)
	}
}

// Int returns the constant n of type int.
func (f *Func) Int(n int64) *Value {
	return f.ConstValue(types.Typ[types.Int], constant.MakeInt64(n))
}

// ConstValue returns a new constant of type t. Constants, like parameters,
// belong to no block: any value may use them.
// c == nil means the zero value of t.
func (f *Func) ConstValue(t types.Type, c constant.Value) *Value {
	v := f.newValue(OpConst, t)
	v.Const = c
	return v
}

// IsNil reports whether v is the constant zero value of its type spelled
// without a value (Const == nil): nil for a pointer, slice, map or tensor.
func IsNil(v *Value) bool { return v.Op == OpConst && v.Const == nil }

// Uses returns, for each value ID of f, the values that use it as an
// argument, in block and instruction order (a user appears once per
// argument position).
func Uses(f *Func) [][]*Value {
	uses := make([][]*Value, f.NumValues()+1)
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			for _, a := range v.Args {
				if a != nil {
					uses[a.ID] = append(uses[a.ID], v)
				}
			}
		}
	}
	return uses
}

// ReplaceUses makes every argument of f's values that is old new.
func ReplaceUses(f *Func, old, new *Value) {
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			for i, a := range v.Args {
				if a == old {
					v.Args[i] = new
				}
			}
		}
	}
}

// InductionStep returns the step of an integer φ of a loop header whose
// argument on the back edge (argument latch) is φ ± a constant, or nil
// when v is not such a φ or the step is zero.
func InductionStep(v *Value, latch int) constant.Value {
	b, ok := v.Type.Underlying().(*types.Basic)
	if v.Op != OpPhi || !ok || b.Info()&types.IsInteger == 0 || latch >= len(v.Args) {
		return nil
	}
	next := v.Args[latch]
	if next.Op != OpBinary || next.Args[0] != v || next.Args[1].Op != OpConst ||
		next.Tok != token.ADD && next.Tok != token.SUB {
		return nil
	}
	step := next.Args[1].Const
	if next.Tok == token.SUB {
		step = constant.UnaryOp(token.SUB, step, 0)
	}
	if constant.Sign(step) == 0 {
		return nil
	}
	return step
}

// IsArrayPointer reports whether t is a pointer to an array, whose
// element addresses (OpIndexAddr) stay inside the array.
func IsArrayPointer(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Array)
	return ok
}

// ElementName names an unnamed load of an element after the slice and the
// index, as people name them: xi for x[i], dx0 for dx[0], xiBar for
// xBar[i]; "" when v is not
// such a load or the slice or the index has no short name.
func ElementName(v *Value) string {
	if v.Op != OpLoad || v.Args[0].Op != OpIndexAddr {
		return ""
	}
	base, idx := v.Args[0].Args[0], v.Args[0].Args[1]
	// An adjoint's element: xiBar := xBar[i].
	stem, suffix := base.Name, ""
	if s, ok := strings.CutSuffix(stem, "Bar"); ok && s != "" {
		stem, suffix = s, "Bar"
	}
	if stem == "" || len(stem) > 3 {
		return ""
	}
	switch {
	case idx.Op == OpConst && idx.Const != nil && idx.Const.Kind() == constant.Int:
		return stem + idx.Const.ExactString() + suffix
	case len(idx.Name) == 1:
		return stem + idx.Name + suffix
	}
	return ""
}
