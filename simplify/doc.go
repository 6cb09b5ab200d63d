// Package simplify holds gadgen's passes over the IR and the pipeline that
// runs them: on the primal before differentiation and on the derivative
// after it.
//
// A pass is a function that rewrites an ir.Func in place. The pipeline is a
// table of passes (in the style of cmd/compile/internal/ssa's compile.go):
// each entry has a name, the function, and whether it is required (runs
// even when optimization is off, because later stages rely on it); the
// table Order gives each constraint between passes with its reason.
// Between passes the pipeline can run ir.Check (tests do) and hand the IR
// to a dump callback (gadgen's -dump option). gadgen -O0 runs only the
// required passes.
//
// # Pipelines
//
// Three tables in pipeline.go, run in this order (TestDocPipelines checks
// these lines against them):
//
// Primal, on a function before it is differentiated:
//
//	inline → promote → fold → loopform → straighten → cse → licm → cse → tensors → deadcode
//
// Derivative, on a derivative after differentiation:
//
//	mem2reg → fold → cse → algebra → tensors → fold → cse → licm → cse → speculate → remat → accumulate → recomputed → sink → deadcode
//
// Final, on a derivative that is emitted (its rewrites call runtime forms
// that are not primitives, so a derivative differentiated again, in
// nesting, goes without them):
//
//	slices → merge → syrk → fuse → reuse → release → deadcode
//
// # Passes
//
//   - inline (inline.go): inline a small callee with a loop when LICM can
//     then hoist something out of that loop (Normalize(out, x) with a fresh
//     out);
//   - promote (promote.go): read-only local copies of aggregates become
//     field reads of the value;
//   - fold (fold.go): constant folding and propagation, math calls of
//     constants, branches on constants, Pow(x, 0|1|2);
//   - loopform (loopform.go, required): loops in the canonical form, tested
//     at the top with a counter stepped by a constant, which reverse mode
//     runs backwards by its index and the emitter writes as a three-clause
//     for;
//   - straighten (straighten.go): a block entered by a jump from one
//     block alone is merged into it (inlining splits blocks around calls),
//     so that reverse mode records a value once per chain, not per block;
//   - cse (cse.go): value numbering of pure values and pure calls, and of
//     loads and read-only calls until their memory may be written;
//   - licm (licm.go, guard.go): loop-invariant code motion of values,
//     loads and calls that cannot panic and always return, and, under the
//     loop's test, of calls that may panic when the first iteration would
//     call them first;
//   - tensors (tensorrules.go): the algebraic rewrites of tensor calls
//     (a table of rules, as gadgen -explain reports them) and slices pushed
//     through elementwise operations, until none applies;
//   - mem2reg (mem2reg.go): local variables, adjoints included, become SSA
//     values;
//   - algebra (algebra.go): exact scalar rewrite rules kept as a table;
//   - speculate (speculate.go) and remat (remat.go): values moved into the
//     branches that use them, and cheap values recomputed where they are
//     used rather than kept alive;
//   - accumulate (tensors.go): an adjoint computed only to be added into a
//     gradient buffer is computed into it (tensorops.Accumulate forms);
//   - recomputed (recomputed.go): the calls a callee's reverse runs again
//     (ir.Callee.Recomputed) whose results nothing reads and whose callees
//     write nothing;
//   - sink (sink.go): values without effects moved down to the one later
//     block that reads them, never into a loop, so that they are written
//     inside the expression that reads them;
//   - slices (slices.go): a slice of a derivative's value pushed through
//     elementwise operations and into the matrix product computing it;
//   - merge (merge.go): matrix products that share an operand become one
//     GEMM over stacked rows (XLA's dot merger);
//   - syrk (symmetric.go): aᵀa and aaᵀ become symmetric rank-k updates;
//   - fuse (fuse.go): chains of elementwise tensor calls become one
//     tensorops.Fuse evaluated in one pass;
//   - reuse (reuse.go): an elementwise result written into the buffer of an
//     operand nothing reads afterwards;
//   - release (release.go): the temporaries nothing reaches after a return
//     handed back to the runtime before it (tensorops.Release), whose next
//     allocations of their sizes reuse them;
//   - deadcode (deadcode.go, required): values, stores and appends nothing
//     uses.
//
// # Analyses
//
// Passes learn about the functions a function calls through an [Env]
// (Config.Env), which the driver implements from the callees' lowered IR:
// [Summarize] computes a function's [Effects] (which parameters' memory it
// may read or write, package-level variables, whether it may panic or
// not return), bottom-up over the call graph. Within a function, alias
// classes (alias.go) partition the values that refer to memory, and
// loops.go recognizes counted loops and indexes in bounds. Analyses are
// computed by the pass that needs them and never modified. What the
// passes know of the tensor runtime's functions (which are elementwise in
// which operands, which return a fresh buffer or read only a shape, their
// fused forms) is package templates' data, one [templates.TensorOp] per
// function, checked there against the runtime; the rewrites that use it
// are here.
//
// # Exactness
//
// Every rewrite gives the same results as the code it replaces, NaN,
// infinities and signed zeros included, with two documented exceptions:
// math.Pow(x, 2) → x*x can differ in the last bit of a subnormal result
// (fold.go), and an adjoint's sum with its cleared zero, 0 + a, is a even
// for a = -0 (mem2reg.go; an adjoint's sign of zero means nothing,
// ir.Value.Adjoint). Moving code changes no result: LICM moves only values without
// effects that cannot panic and always return, or, under the loop's test,
// a call the first iteration makes before anything observable; CSE merges
// only values equal by construction. Derivatives generated with and without
// optimization agree to rounding (driver's TestOptimizationSameNumbers).
package simplify
