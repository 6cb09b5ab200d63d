package simplify

// This file defines the release of temporaries: before a derivative
// returns, it hands the buffers of its temporary tensors back to the
// runtime (tensorops.Release), which gives them to the tensors of the next
// call instead of fresh memory (XLA and PyTorch keep their buffers the
// same way, in a buffer assignment or a caching allocator).

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// aliasedArgs returns the arguments of call v whose memory v's result
// may share: those the facts about a tensorops function name
// (templates.TensorOp: Aliases, or PassThrough), else all but those it
// reads only the shape of.
func aliasedArgs(v *ir.Value) []*ir.Value {
	if refFree(v.Type) {
		return nil
	}
	op := templates.TensorOpOf(ir.TensorCall(v))
	idx := op.Aliases
	if idx == nil {
		idx = op.PassThrough
	}
	switch {
	case freshBuffer(v):
		return nil
	case idx == nil || v.Callee.Spread:
		var all []*ir.Value
		for i, a := range v.Args {
			if !containsInt(op.ShapeOnly, i) {
				all = append(all, a)
			}
		}
		return all
	}
	var args []*ir.Value
	for _, i := range idx {
		args = append(args, v.Args[i])
	}
	return args
}

// freshBuffer reports whether v is a tensor of a buffer of its own (or
// nil): a call of a function whose result is fresh
// (templates.TensorOp.Fresh) and shares no argument's memory; not
// FuseInto, whose buffer is its first argument's when it fits.
func freshBuffer(v *ir.Value) bool {
	op := templates.TensorOpOf(ir.TensorCall(v))
	return ir.IsTensor(v.Type) && op.Fresh && op.Aliases == nil && !v.Callee.Spread
}

// refFree reports whether a value of type t holds no reference (a
// number, a boolean, a string, or a tuple of them): nothing it holds can
// share a tensor's memory.
func refFree(t types.Type) bool {
	switch t := t.(type) {
	case nil:
		return true
	case *types.Tuple:
		for v := range t.Variables() {
			if !refFree(v.Type()) {
				return false
			}
		}
		return true
	}
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

// keepsNoArgument reports whether call u uses its arguments without
// keeping them (it may read or write their elements): a function of the
// tensor runtime, or a method of a tensor.
func keepsNoArgument(u *ir.Value) bool {
	if ir.TensorCall(u) != "" {
		return true
	}
	c := u.Callee
	if c == nil || c.Func == nil || c.Invoke || c.Derived != nil {
		return false
	}
	recv := c.Func.Signature().Recv()
	return recv != nil && ir.IsTensor(recv.Type())
}

// ReleaseTemporaries inserts, before each return of f, a call of
// tensorops.Release of the temporaries that nothing reaches after it:
// the results of calls whose result is fresh (freshBuffer: each a buffer
// of its own, or nil) in blocks that run at most once a call (in no loop)
// and dominate the return, that share their memory with nothing that
// escapes, and that have more than one use (a variable of the code
// emitted: a temporary of one use is written inside its user's
// expression, which a release would have to name). The values that may
// share memory form classes: a call with the memories its result may
// share (aliasedArgs), a φ or a select with its operands, a conversion
// and an extraction with their operand. A class escapes when one of its
// values is returned, stored, given to a call that may keep it (not the
// runtime's, not a tensor's method), or used by anything else. Exact: the buffers released are those of values
// no later use reads, and each is released once.
func ReleaseTemporaries(f *ir.Func, env Env) {
	release := tensorFuncOf(f, templates.ReleaseFunc)
	if release == nil {
		return
	}
	// Classes of the values that may share a buffer.
	classes := newPartition(f.NumValues() + 1)
	union := func(a, b *ir.Value) {
		if a != nil {
			classes.union(a.ID, b.ID)
		}
	}
	escapes := map[*ir.Value]bool{} // by the value itself, not its class
	for _, b := range f.Blocks {
		for _, u := range b.Instrs {
			switch u.Op {
			case ir.OpPhi, ir.OpSelect, ir.OpExtract:
				for _, a := range u.Args {
					union(a, u)
				}
			case ir.OpConvert:
				union(u.Args[0], u)
			case ir.OpCall:
				for _, a := range aliasedArgs(u) {
					union(a, u)
				}
				if !keepsNoArgument(u) {
					for _, a := range u.Args {
						escapes[a] = true
					}
				}
			case ir.OpBinary, ir.OpUnary, ir.OpLen, ir.OpCap, ir.OpIf, ir.OpJump:
				// They read values of their own types, not tensors' memory.
			default:
				for _, a := range u.Args {
					escapes[a] = true
				}
			}
		}
	}
	uses := ir.Uses(f)
	escaped := map[int]bool{} // by class
	for v := range escapes {
		if v != nil {
			escaped[classes.find(v.ID)] = true
		}
	}
	cfg := ir.NewCFG(f)
	var temps []*ir.Value
	for _, b := range cfg.RPO {
		if cfg.InAnyLoop(b) {
			continue
		}
		for _, v := range b.Instrs {
			if freshBuffer(v) && !escaped[classes.find(v.ID)] && len(uses[v.ID]) > 1 {
				temps = append(temps, v)
			}
		}
	}
	if len(temps) == 0 {
		return
	}
	for _, b := range cfg.RPO {
		ret := b.Instrs[len(b.Instrs)-1]
		if ret.Op != ir.OpReturn {
			continue
		}
		var args []*ir.Value
		for _, v := range temps {
			if cfg.Dominates(v.Block, b) {
				args = append(args, v)
			}
		}
		if len(args) == 0 {
			continue
		}
		call := f.NewValue(ir.OpCall, nil, args...)
		call.Callee, call.Pos = &ir.Callee{Func: release}, ret.Pos
		b.Insert(len(b.Instrs)-1, call)
		fired(env, "release-temporaries", call)
	}
}
