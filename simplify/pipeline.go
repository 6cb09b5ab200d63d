package simplify

// This file defines the pass pipeline.

import (
	"fmt"

	"github.com/gadgen/gadgen/ir"
)

// Pass is one pass of the pipeline.
type Pass struct {
	Name string
	// Fn rewrites f in place. env, which may be nil, tells it about the
	// functions f calls; most passes look at f alone (see Local).
	Fn func(f *ir.Func, env Env)
	// Required passes run even when optimization is off.
	Required bool
}

// Local adapts a pass that needs nothing but the function.
func Local(fn func(*ir.Func)) func(*ir.Func, Env) {
	return func(f *ir.Func, _ Env) { fn(f) }
}

// Primal lists the passes run on a primal before differentiation, in
// order.
var Primal = []Pass{
	{Name: "inline", Fn: Inline},
	{Name: "promote", Fn: Local(PromoteReadOnly)},
	{Name: "fold", Fn: Local(Fold)},
	{Name: "loopform", Fn: Local(LoopForm), Required: true},
	{Name: "straighten", Fn: Local(Straighten)},
	{Name: "cse", Fn: CSE},
	{Name: "licm", Fn: LICM},
	{Name: "cse", Fn: CSE},
	{Name: "tensors", Fn: TensorAlgebra},
	{Name: "deadcode", Fn: Local(DeadCode), Required: true},
}

// Derivative lists the passes run on a derivative after differentiation,
// in order.
var Derivative = []Pass{
	{Name: "mem2reg", Fn: Local(Mem2Reg)},
	{Name: "fold", Fn: Local(Fold)},
	{Name: "cse", Fn: CSE},
	{Name: "algebra", Fn: Local(Algebra)},
	{Name: "tensors", Fn: TensorAlgebra},
	{Name: "fold", Fn: Local(Fold)},
	{Name: "cse", Fn: CSE},
	{Name: "licm", Fn: LICM},
	{Name: "cse", Fn: CSE},
	{Name: "speculate", Fn: Local(Speculate)},
	{Name: "remat", Fn: Local(Rematerialize)},
	{Name: "accumulate", Fn: FuseAccumulate},
	{Name: "recomputed", Fn: DropRecomputed},
	{Name: "sink", Fn: Sink},
	{Name: "deadcode", Fn: Local(DeadCode), Required: true},
}

// Final lists the passes run on a derivative that is emitted, after
// Derivative: their rewrites call runtime forms that are not primitives,
// so a derivative that gadgen differentiates again (nesting) goes without
// them.
var Final = []Pass{
	{Name: "slices", Fn: PushSlices},
	{Name: "merge", Fn: MergeProducts},
	{Name: "syrk", Fn: SymmetricProducts},
	{Name: "fuse", Fn: FuseElementwise},
	{Name: "reuse", Fn: ReuseBuffers},
	{Name: "release", Fn: ReleaseTemporaries},
	{Name: "deadcode", Fn: Local(DeadCode), Required: true},
}

// Order states the constraints between passes, each with its reason.
var Order = []struct{ Before, After, Why string }{
	{"promote", "cse", "promotion turns loads into OpField values that CSE can merge"},
	{"cse", "algebra", "the x*y + y*x rule needs equal operands to be one value"},
	{"algebra", "cse", "rewritten negations expose new common subexpressions"},
	{"cse", "remat", "CSE would merge the copies remat makes"},
	{"recomputed", "sink", "the arguments of a recomputed call it drops have one reader fewer, and may then sink"},
	{"cse", "speculate", "CSE is what leaves shared values in the blocks of && and || operands"},
	{"inline", "licm", "inlining a callee gives LICM the caller's knowledge of its arguments (a fresh slice aliases nothing)"},
	{"inline", "promote", "an inlined callee's struct parameters are local copies that promotion removes"},
	{"cse", "licm", "CSE merges the loads and lengths that make a value's arguments one invariant value"},
	{"licm", "cse", "a hoisted value may equal one computed before the loop"},
	{"inline", "fold", "the constant arguments of an inlined call fold in the callee's body"},
	{"promote", "fold", "promoted loads of a constant struct become field reads that fold"},
	{"fold", "cse", "folding makes equal expressions of constants one key"},
	{"mem2reg", "fold", "promoted adjoints are arithmetic that folding simplifies (x̄ = 0 + a)"},
	{"algebra", "fold", "pulling negations out of products leaves products of constants, -(3 * 0.5)"},
	{"fold", "loopform", "folding removes the entry test of a range over a constant, which loopform then does without"},
	{"loopform", "licm", "LICM hoists into the preheader of a loop tested at the top"},
	{"inline", "straighten", "inlining splits the caller's block around the call: straighten joins the pieces"},
	{"loopform", "straighten", "loopform reads go/ssa's shapes of range loops, which joining their blocks would change"},
	{"cse", "accumulate", "a product CSE merges with another use is not fused into a gradient buffer"},
	{"cse", "tensors", "the shape analysis sees one value where CSE merged copies (Mul(a, FullLike(a, 1)))"},
	{"slices", "merge", "a product merged with others is no longer a MatMul whose slice could shrink it"},
	{"slices", "fuse", "slices are pushed through elementwise calls, not through the Fuse call that replaces them"},
	{"fuse", "reuse", "a fused call reuses one buffer for the whole tree; fusion does not look into FuseInto"},
	{"reuse", "release", "a buffer FuseInto reuses is released once, as its first owner's, after its last use"},
	{"tensors", "accumulate", "a SumLike the tensor rules drop no longer stands between Accumulate and a product"},
	{"merge", "syrk", "a·aᵀ that merge stacks with the other products by aᵀ is one GEMM reading aᵀ once; syrk rewrites the products left alone"},
}

// Config says how to run a pipeline.
type Config struct {
	// Optimize runs every pass; otherwise only the required ones.
	Optimize bool
	// Check runs ir.Check after each pass and panics on a violation.
	Check bool
	// Dump, when not nil, receives the IR after each pass.
	Dump func(stage, text string)
	// Env tells passes about the functions a function calls; nil means
	// nothing is known of them.
	Env Env
}

// Run runs passes over f. A panic in a pass is re-raised with the pass and
// the function named.
func Run(f *ir.Func, passes []Pass, cfg Config) {
	for _, p := range passes {
		if !p.Required && !cfg.Optimize {
			continue
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					panic(fmt.Sprintf("pass %s on %s: %v", p.Name, f.Name, r))
				}
			}()
			p.Fn(f, cfg.Env)
		}()
		if cfg.Check {
			if err := ir.Check(f); err != nil {
				panic(fmt.Sprintf("after pass %s: %v", p.Name, err))
			}
		}
		if cfg.Dump != nil {
			cfg.Dump(p.Name, f.String())
		}
	}
}
