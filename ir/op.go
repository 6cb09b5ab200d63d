package ir

// This file defines the opcode table: for each Op, its name, its
// operands, whether it ends a block, its effects, whether passes may merge
// equal values of it, and its type rule (in the spirit of cmd/compile's
// ssa opcode table, generated there from _gen/*Ops.go, and of go/ssa's
// sanity.go, which checks each instruction's types). Op.String,
// Op.IsTerminator, Op.HasEffect and Check read it; passes read it through
// Op.Info instead of listing ops.

// OpInfo describes an Op.
type OpInfo struct {
	// Name is the op's name in the text form.
	Name string
	// Args is the number of arguments, or -1 when it varies: one per
	// predecessor (φ), per callee parameter (call), per result (return).
	Args int
	// Optional has bit i set when Args[i] may be nil (a missing slice
	// bound, make's missing capacity).
	Optional uint8
	// Result says whether a value of the op has a result (a non-nil Type).
	Result Result
	// Terminator: the op ends a block, which has Succs successors.
	Terminator bool
	Succs      int
	// ReadsMemory, WritesMemory: the op may read or write memory through
	// its arguments (or anywhere, for a call; what a call does is the
	// callee's business, see package simplify's Effects).
	ReadsMemory, WritesMemory bool
	// MayPanic: some arguments make the op panic (a nil pointer, an index
	// out of range, an integer division by zero, a failing call).
	MayPanic bool
	// Pure: a value of the op is a function of its arguments and its
	// auxiliary fields (Tok, Index, Global, Type): two values that agree in
	// all of them are equal, and common-subexpression elimination may keep
	// one. OpConst and OpParam, which belong to no block, are not marked;
	// OpAlloc and OpMakeSlice are not pure (each yields fresh memory); a
	// call is pure when its callee is (a pass decides).
	Pure bool

	// typ checks the value's type against its arguments' and returns a
	// description of the violation, or "". Check calls it only when the
	// arity is right and every argument that is not Optional is present
	// and has a type.
	typ func(v *Value) string
}

// Result says whether values of an op have a result.
type Result uint8

const (
	// ResultAlways: the value has a type.
	ResultAlways Result = iota
	// ResultNever: the value has no type (a store, a terminator).
	ResultNever
	// ResultMaybe: a call has a type unless its callee returns nothing.
	ResultMaybe
)

// opInfo is the table. Each op has an entry; TestOpInfo checks it.
var opInfo = [numOps]OpInfo{
	OpInvalid: {Name: "invalid", Args: -1, Result: ResultMaybe, typ: invalidType},
	OpParam:   {Name: "param", Args: 0},
	OpConst:   {Name: "const", Args: 0, typ: constType},
	OpPhi:     {Name: "phi", Args: -1, typ: phiType},

	OpBinary:  {Name: "binary", Args: 2, MayPanic: true, Pure: true, typ: binaryType},
	OpUnary:   {Name: "unary", Args: 1, Pure: true, typ: unaryType},
	OpConvert: {Name: "convert", Args: 1, MayPanic: true, Pure: true, typ: convertType},
	OpSelect:  {Name: "select", Args: 3, Pure: true, typ: selectType},

	OpCall:    {Name: "call", Args: -1, Result: ResultMaybe, ReadsMemory: true, WritesMemory: true, MayPanic: true, typ: callType},
	OpExtract: {Name: "extract", Args: 1, Pure: true, typ: extractType},

	OpAlloc:     {Name: "alloc", Args: 0, typ: allocType},
	OpGlobal:    {Name: "global", Args: 0, Pure: true, typ: globalType},
	OpLoad:      {Name: "load", Args: 1, ReadsMemory: true, MayPanic: true, typ: loadType},
	OpStore:     {Name: "store", Args: 2, Result: ResultNever, WritesMemory: true, MayPanic: true, typ: storeType},
	OpFieldAddr: {Name: "fieldaddr", Args: 1, MayPanic: true, Pure: true, typ: fieldType},
	OpIndexAddr: {Name: "indexaddr", Args: 2, MayPanic: true, Pure: true, typ: indexAddrType},
	OpField:     {Name: "field", Args: 1, Pure: true, typ: fieldType},
	OpIndex:     {Name: "index", Args: 2, MayPanic: true, Pure: true, typ: indexType},
	OpMakeSlice: {Name: "makeslice", Args: 2, Optional: 1 << 1, MayPanic: true, typ: makeSliceType},
	OpSlice:     {Name: "slice", Args: 4, Optional: 1<<1 | 1<<2 | 1<<3, MayPanic: true, Pure: true, typ: sliceType},
	OpLen:       {Name: "len", Args: 1, Pure: true, typ: lenType},
	OpCap:       {Name: "cap", Args: 1, Pure: true, typ: lenType},

	OpJump:   {Name: "jump", Args: 0, Result: ResultNever, Terminator: true, Succs: 1},
	OpIf:     {Name: "if", Args: 1, Result: ResultNever, Terminator: true, Succs: 2, typ: ifType},
	OpReturn: {Name: "return", Args: -1, Result: ResultNever, Terminator: true, typ: returnType},
	OpPanic:  {Name: "panic", Args: 1, Result: ResultNever, Terminator: true, MayPanic: true},
}

// Info returns the table entry of op (that of OpInvalid for an op out of
// range).
func (op Op) Info() *OpInfo {
	if op >= numOps {
		return &opInfo[OpInvalid]
	}
	return &opInfo[op]
}

// IsOptional reports whether argument i of the op may be nil.
func (info *OpInfo) IsOptional(i int) bool {
	return i < 8 && info.Optional&(1<<i) != 0
}

func (op Op) String() string {
	if op >= numOps {
		return "op?"
	}
	return opInfo[op].Name
}

// IsTerminator reports whether op ends a block.
func (op Op) IsTerminator() bool { return op.Info().Terminator }

// HasEffect reports whether a value of this op does something besides
// computing its result: it may write memory, call a function, or end the
// block. Such values are never removed or reordered by passes that do not
// understand their effects. Calls are effects unless a pass proves the
// callee pure.
func (op Op) HasEffect() bool {
	info := op.Info()
	return info.WritesMemory || info.Terminator
}
