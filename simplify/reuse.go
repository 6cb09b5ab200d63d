package simplify

// This file defines buffer reuse: an elementwise operation writes its
// result into the buffer of an operand whose elements nothing reads
// after it, instead of a fresh tensor (the merging of allocations of
// disjoint lifetimes that Enzyme does for its caches, and XLA's buffer
// assignment for elementwise operations "in place"). The runtime's
// FuseInto checks, when it runs, that the buffer has the result's shape,
// dtype and layout, and allocates otherwise.

import (
	"go/constant"
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// readsShapeOnly reports whether use u of x reads only x's shape.
func readsShapeOnly(u, x *ir.Value) bool {
	idx := templates.TensorOpOf(ir.TensorCall(u)).ShapeOnly
	if idx == nil || u.Callee.Spread {
		return false
	}
	for i, a := range u.Args {
		if a == x && !containsInt(idx, i) {
			return false
		}
	}
	return true
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// ReuseBuffers rewrites an elementwise operation v (a call of Fuse, or of
// one of the operations fusion fuses) into a call of tensorops.FuseInto
// that writes into the buffer of an operand x, when:
//
//   - x is the result of a call in v's block of a function whose result
//     is fresh (templates.TensorOp.Fresh), or of one whose arguments that
//     it may return (TensorOp.PassThrough) are such results read by it
//     alone: nothing else shares its memory (not a parameter, nor a value
//     loaded from memory, a tape or a slice, nor a view);
//   - v is the only use of x that reads its elements (directly, or through
//     the conversion of a Fuse operand used by v alone); the other uses
//     read only its shape, which FuseInto does not change: so x is not
//     stored, returned, or carried to another iteration, and no later
//     use sees the elements FuseInto writes.
//
// An operand known to have the result's shape is preferred. Exact:
// FuseInto computes what Fuse computes (into dst only when dst has the
// result's shape, dtype and a contiguous layout, each element from the
// operands' elements at its index, so reading x where it writes is
// harmless), and v's result, which has x's buffer, is the value v had.
// It runs last, after fusion, on the derivative as emitted.
func ReuseBuffers(f *ir.Func, env Env) {
	into := tensorFuncOf(f, "FuseInto")
	if into == nil {
		return
	}
	anyT := into.Signature().Params().At(2).Type().(*types.Slice).Elem()
	uses := ir.Uses(f)
	shapes := shapesOf(f)
	// onlyReader reports whether user is the only use of x that reads
	// its elements.
	onlyReader := func(x, user *ir.Value) bool {
		for _, u := range uses[x.ID] {
			if u != user && !readsShapeOnly(u, x) {
				return false
			}
		}
		return true
	}
	// fresh reports whether x, a value of block b, holds memory nothing
	// else shares.
	var fresh func(x *ir.Value, b *ir.Block) bool
	fresh = func(x *ir.Value, b *ir.Block) bool {
		if x.Block != b || x.Op != ir.OpCall || !ir.IsTensor(x.Type) {
			return false
		}
		op := templates.TensorOpOf(ir.TensorCall(x))
		if op.Fresh {
			return true
		}
		if op.PassThrough == nil || x.Callee.Spread {
			return false
		}
		for _, i := range op.PassThrough {
			if a := x.Args[i]; !fresh(a, b) || !onlyReader(a, x) {
				return false
			}
		}
		return true
	}
	// reusable reports whether operand x of v (arg, the value v uses: x or
	// its conversion) may give v its buffer.
	reusable := func(v, x, arg *ir.Value) bool {
		if !fresh(x, v.Block) {
			return false
		}
		user := v // the value that reads x's elements
		if arg != x {
			if len(uses[arg.ID]) != 1 {
				return false
			}
			user = arg
		}
		return onlyReader(x, user)
	}
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			v := b.Instrs[i]
			var cands, args []*ir.Value // operands, and the values v uses for them
			switch name := ir.TensorCall(v); {
			case name == "Fuse" && !v.Callee.Spread:
				for _, c := range v.Args[1:] {
					if c.Op == ir.OpConvert {
						cands, args = append(cands, c.Args[0]), append(args, c)
					}
				}
			case templates.TensorOpOf(name).Fuse:
				if _, ts, _, ok := fusableCall(v); ok {
					cands, args = ts, ts
				}
			}
			var x *ir.Value
			for k, c := range cands {
				if reusable(v, c, args[k]) && (x == nil || shapes.same(c, v) && !shapes.same(x, v)) {
					x = c
				}
			}
			if x == nil {
				continue
			}
			if ir.TensorCall(v) == "Fuse" {
				v.Callee = &ir.Callee{Func: into}
				v.Args = append([]*ir.Value{x}, v.Args...)
				fired(env, "reuse-buffer", v)
				uses = ir.Uses(f)
				continue
			}
			w := &exprWriter{joins: func(*ir.Value) bool { return false }}
			text := w.write(v)
			call := f.NewValue(ir.OpCall, v.Type, x, f.ConstValue(types.Typ[types.String], constant.MakeString(text)))
			call.Callee, call.Pos = &ir.Callee{Func: into}, v.Pos
			for _, a := range w.operands {
				c := f.NewValue(ir.OpConvert, anyT, a)
				c.Pos = v.Pos
				b.Insert(i, c)
				i++
				call.Args = append(call.Args, c)
			}
			b.Instrs[i] = call
			call.Block = b
			replaceUses(f, v, call)
			v.Block = nil
			fired(env, "reuse-buffer", v)
			uses = ir.Uses(f)
		}
	}
}
