// Package ir defines gadgen's typed intermediate representation: the form
// in which gadgen optimizes a primal function, differentiates it and hands
// the result to the emitter.
//
// go/ssa is read-only for its clients, so gadgen lowers each function it
// needs from go/ssa into this IR (see package frontend) and transforms only
// IR. The IR is small on purpose and imports nothing from x/tools: a test
// can build a function by hand with the constructors in this package.
//
// # Main types
//
//   - [Func]: a function in SSA form: parameters, a list of [Block]s whose
//     first is the entry, and the signature to emit.
//   - [Block]: a basic block: φ-nodes first, then ordinary values, then
//     exactly one terminator ([OpJump], [OpIf], [OpReturn], [OpPanic]).
//   - [Value]: one instruction, in the style of cmd/compile's ssa.Value: an
//     [Op], a go/types type, arguments, and auxiliary fields whose meaning
//     depends on the Op (documented on each Op).
//
// Values are typed with go/types so that the emitter can spell any Go type
// and so that values of tensor types need no change to the IR; operations that are
// calls into a runtime (math, tensorops) are [OpCall] values whose [Callee]
// names the function.
//
// # Invariants
//
// [Check] verifies them; the driver runs it after every pass and every
// transformation.
//
//   - Every block ends with exactly one terminator, and only the last value
//     of a block is a terminator. φ-nodes come first.
//   - Block.Succs agrees with the terminator: one successor for OpJump, two
//     (then, else) for OpIf, none for OpReturn and OpPanic. Preds and Succs
//     mirror each other.
//   - A φ-node has one argument per predecessor, in Preds order.
//   - Every argument is defined in a block that dominates the use (for a
//     φ argument: dominates the corresponding predecessor), and earlier in
//     the block when it is the same block.
//   - Each value fits its op's entry in the opcode table ([Op.Info]): its
//     number of arguments, which of them may be nil (slice bounds, make's
//     capacity), whether it has a type (not a store or a terminator), and
//     its type rule: the arguments of a φ and the operands of a select
//     have its type; the operands of a binary operation (but shifts) have
//     one type, that of the result or bool for a comparison; a load has
//     the element type of its address, and a stored value has it too; a
//     field (address), an element address, an index and an extract have
//     the type of the field, element or tuple element; len and cap are
//     ints; a constant's value is of its type's kind; a call's arguments
//     have its callee's parameter types (a receiver first) and its type
//     is the callee's result (nil for none, a tuple for several); a
//     returned value has the function's result type. Where Go asks for
//     assignable types, the IR asks for identical ones: go/ssa converts
//     values to the type they go to.
//
// # Non-goals
//
// The IR has no goroutines, channels, maps, function values, defer or
// unsafe: the frontend reports those constructs as unsupported, or, for
// function values known statically, replaces calls through them by calls
// of specialized functions, while lowering.
//
// # Printing
//
// [Func.String] prints a stable text form used by golden tests of passes and
// by gadgen's -dump option.
package ir
