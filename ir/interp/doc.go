// Package interp is a small, exact interpreter of gadgen's IR (package ir),
// used as a test oracle. A transformation's output runs on the same inputs
// as its input, without going through Go source emission: a derivative is
// compared with finite differences of the interpreted primal, and an
// optimization pass is checked to change no result ([Identical]).
//
// # Semantics
//
// The interpreter follows the Go specification, as the gc toolchain
// implements it on the host:
//
//   - float64 and float32 arithmetic is IEEE 754 with each operation
//     rounded to its type (float32 operations round to float32); the
//     interpreter never fuses a multiply and an add, as the spec allows a
//     compiler to do on some architectures;
//   - integer arithmetic wraps per type; division and remainder by zero
//     panic, shifts by a negative count panic, shifts by a count at least
//     the width give 0 (or -1 for >> of a negative signed value);
//   - conversions between numeric types, to and from named types, to
//     interfaces, and between strings and []byte / []rune;
//   - φ-nodes: all φ-nodes of a block read their arguments at once, on
//     entry from a predecessor;
//   - memory: variables ([ir.OpAlloc], [ir.OpGlobal]), slices with shared
//     backing arrays (slices of a slice alias it; append grows like the gc
//     runtime; copy and clear work in place), and pointers to variables,
//     struct fields, array elements and slice elements;
//   - structs and arrays have value semantics: loads and stores copy them;
//   - bounds and nil checks, with the gc runtime's panic messages;
//   - calls: the builtins len, cap, append, copy, min, max, clear (print
//     and println do nothing), every function of package math, functions
//     with IR bodies ([Machine.Funcs], [Machine.Derived]), helpers of
//     package templates, and natives registered by tests
//     ([Machine.Natives]); a variadic callee gets its variadic arguments
//     in a new slice, as in Go, whether the call has "..." or not.
//
// A run-time panic of the interpreted program (the panic op, an index out
// of range, a nil dereference, an integer division by zero) ends [Machine.Call]
// with an [*Error] that names the function and the instruction; so does an
// operation the interpreter does not support, and running past
// [Machine.MaxSteps] (an infinite loop is an error, not a hang).
//
// # Values
//
// An interpreted value is a [Value]: for a basic type, the Go value of its
// kind (float64, float32, int, int8, …, uint64, uintptr, complex64,
// complex128, bool, string), whatever the named type; a [Slice]; a
// [Pointer]; a [*Struct]; an [*Array]; an [Iface] for an interface; a
// [Tuple] for the results of a call with several; an [Opaque] for a Go
// value made by a native that the interpreter does not look into (a
// tensor of the runtime), of a pointer or interface type. [FromGo] and
// [ToGo] convert between Go values and interpreted ones, and [GoFunc]
// makes a native of a Go function, so that a caller can supply the
// functions of a package the interpreter does not import (the tensor
// runtime's) as a table of natives.
//
// # Non-goals
//
// Speed (the interpreter walks the IR with one type switch per
// instruction), goroutines, maps, channels, closures, defer and recover
// (the IR has none of them), dynamic interface calls ([ir.Callee].Invoke),
// and unsafe. The capacity a slice gets when append grows it is the one
// the gc runtime gives a heap-allocated backing array; compiled code may
// see another when the compiler places a small backing array on the stack,
// so a result should not depend on it. Converting a slice to an array
// pointer makes a pointer that aliases the slice's elements but compares
// unequal to other pointers to them. A Machine is not safe for concurrent
// use.
package interp
