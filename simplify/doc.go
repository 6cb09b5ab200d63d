// Package simplify holds gadgen's passes over the IR and the pipeline that
// runs them: on the primal before differentiation and on the derivative
// after it.
//
// A pass is a function that rewrites an ir.Func in place. The pipeline is a
// table of passes (in the style of cmd/compile/internal/ssa's compile.go):
// each entry has a name, the function, and whether it is required (runs
// even when optimization is off, because later stages rely on it). Between
// passes the pipeline can run ir.Check (tests do) and hand the IR to a dump
// callback (gadgen's -dump option).
package simplify
