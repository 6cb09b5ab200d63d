package simplify

// This file defines the rewrites of calls of the tensor runtime (package
// tensorops) that reuse buffers: an adjoint computed only to be added into
// a gradient buffer is computed into it.

import (
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// FuseAccumulate rewrites tensorops.Accumulate(dst, F(args)), where F's
// result has no other use and F has a fused form that adds into a buffer
// (templates.TensorOp.Accumulate), to tensorops.AccumulateF(dst, args): the
// product of a gradient GEMM goes into the gradient buffer (β = 1)
// instead of a fresh tensor added to it afterwards. Exact: the fused forms
// compute the same sums (a GEMM's accumulation into C rounds as the
// separate addition does, up to the order of one addition per element).
func FuseAccumulate(f *ir.Func, env Env) {
	uses := ir.Uses(f)
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if ir.TensorCall(v) != "Accumulate" {
				continue
			}
			inner := v.Args[1]
			fused := templates.TensorOpOf(ir.TensorCall(inner)).Accumulate
			if fused == "" || len(uses[inner.ID]) != 1 || inner.Block != b {
				continue
			}
			fn := ir.TensorFunc(v.Type, fused)
			if fn == nil {
				continue
			}
			v.Callee = &ir.Callee{Func: fn}
			v.Args = append([]*ir.Value{v.Args[0]}, inner.Args...)
			fired(env, "accumulate-"+ir.TensorCall(inner), v)
		}
	}
	DeadCode(f)
}
