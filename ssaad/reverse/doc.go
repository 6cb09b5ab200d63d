// Package reverse implements gadgen's reverse mode (//gad:grad): it turns
// a primal function with one float result into FGrad, which computes the
// function and its gradient in one call, at a small constant times the
// cost of the function.
//
// # Generated signature
//
// For func F(p1 T1, …, pn Tn) R, FGrad takes each parameter, followed,
// when it is a varied slice or pointer, by its shadow pBar, into which
// ∂F/∂p is accumulated (+=; the caller zeroes it); it returns F's result
// followed by the partial derivatives of the varied scalar parameters, in
// parameter order: func F(x, y float64) float64 gives
// func FGrad(x, y float64) (f, xBar, yBar float64); func F(x []float64)
// float64 gives func FGrad(x, xBar []float64) float64. Adjoints are named
// xBar (x̄) after their values, tangents dx (ssaad's naming scheme).
//
// # Transformation
//
// The generated function runs a forward sweep, the primal with recording,
// then a reverse sweep that visits the primal's blocks backwards and
// accumulates adjoints (Griewank & Walther, Evaluating Derivatives, ch. 3
// and 4; the joint mode of Tapenade):
//
//   - Control flow: a block the primal reaches from several predecessors
//     records which one it came from on a control tape; its reverse pops
//     it and goes back to that predecessor's reverse. Loops are reversed as
//     loops this way, iteration by iteration.
//   - Values: each block records, at its end, the values its own reverse
//     needs (the operands of its nonlinear operations and the indices of
//     its memory accesses) and its reverse pops them first, so tapes are
//     plain stacks. Values available everywhere in the reverse sweep —
//     parameters, constants and values computed once, outside loops, on
//     every path to the return — are not recorded.
//   - Adjoints of values are local variables, reset once consumed, so that
//     loops start each iteration afresh; adjoints of memory are shadows.
//   - A load x = *p in reverse adds the adjoint of x to *dp; a store *p = x
//     moves *dp into the adjoint of x and clears *dp.
//
// Tapes are local slices: generated functions hold no global state.
//
// # Memory
//
// Slices, pointers and structs holding them have shadows of their shape
// (see shadows.go): the reverse rebuilds addresses from the roots it
// knows and records those it cannot rebuild with their shadows; memory
// allocated afresh in each iteration of a loop is written only in that
// iteration; values an iteration computes for the loops nested in it are
// recorded once per iteration. append, slices returned by calls, and
// calls whose arguments are one slice (called in place) are covered.
// Around a call, the memory behind its arguments that the callee reads and
// the caller overwrites later is saved deep, through the slices and
// pointers it holds (see snapshot.go); pointers and slices of memory a
// callee allocates whole and returns get shadows of their shape (see
// memresult.go). A store that replaces a slice or pointer in memory the
// function did not allocate puts the old shadow back in its reverse, so
// that the caller's shadow receives the gradient of what its memory held
// (see replaced.go).
//
// # Limits
//
// A call of a callee that stores slices or pointers into memory its
// caller reaches cannot be recomputed: it is reversed in two halves
// instead (split reversal, see split.go), unless the driver inlines it
// (simplify.ChooseReversal). Calls that return slices or pointers that
// share memory with an argument other than the argument itself, calls
// that need a copy of memory of a recursive type, split calls with
// variadic arguments listed one by one, arguments that share memory or
// structs of slices passed by value, and calls through interfaces or
// function values gadgen cannot resolve are reported. See fuse.go, counted.go, recompute.go,
// shadows.go and finalstate.go for the optimizations of the sweeps and
// what they assume.
package reverse
