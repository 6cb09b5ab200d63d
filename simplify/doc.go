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
// # Passes
//
// On the primal (Primal), in order:
//
//   - inline (inline.go): inline a small callee with a loop when LICM can
//     then hoist something out of that loop (Normalize(out, x) with a fresh
//     out);
//   - promote (promote.go): read-only local copies of aggregates become
//     field reads of the value;
//   - fold (fold.go): constant folding and propagation, math calls of
//     constants, branches on constants, Pow(x, 0|1|2);
//   - cse (cse.go): value numbering of pure values and pure calls, and of
//     loads and read-only calls until their memory may be written;
//   - licm (licm.go, guard.go): loop-invariant code motion of values,
//     loads and calls that cannot panic and always return, and, under the
//     loop's test, of calls that may panic when the first iteration would
//     call them first;
//   - deadcode (deadcode.go, required).
//
// On the derivative (Derivative): mem2reg (mem2reg.go: local variables,
// adjoints included, become SSA values), fold, cse, algebra (algebra.go:
// exact rewrite rules kept as a table), fold, cse, licm, cse, speculate
// (speculate.go), remat (remat.go), deadcode.
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
// computed by the pass that needs them and never modified.
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
