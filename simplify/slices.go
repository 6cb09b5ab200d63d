package simplify

// This file defines the final slice pushdown: a slice of a derivative's
// value is pushed through the elementwise operations and into the matrix
// product that compute it, so that only the part that is used is computed
// (Enzyme-JaX's slice(add(a, b)) → add(slice a, slice b)). Unlike pushSlice
// (tensorrules.go), which needs operands of one shape and a single use, it
// works through broadcasting, with operands whose shapes are known only at
// run time, by the runtime's SliceFor; it runs last, on the emitted
// derivative, since SliceFor and MatMulSlice are not primitives.

import (
	"slices"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// sliceOf returns, for v = Slice(x, axis, lo, hi) or SliceFor(x, axis,
// lo, hi, frame...), x, the three bounds and the frame.
func sliceOf(v *ir.Value) (x *ir.Value, bounds, frame []*ir.Value, ok bool) {
	switch ir.TensorCall(v) {
	case "Slice":
		return v.Args[0], v.Args[1:4], nil, true
	case "SliceFor":
		if v.Callee.Spread {
			return nil, nil, nil, false
		}
		return v.Args[0], v.Args[1:4], v.Args[4:], true
	}
	return nil, nil, nil, false
}

// sameBounds reports whether two slices' bounds are the same values or
// equal integer constants.
func sameBounds(a, b []*ir.Value) bool {
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		x, ok1 := intConst(a[i])
		y, ok2 := intConst(b[i])
		if !ok1 || !ok2 || x != y {
			return false
		}
	}
	return true
}

// frameStart returns the index of the first frame argument of a call of
// SliceFor or MatMulSlice, or -1.
func frameStart(v *ir.Value) int {
	switch ir.TensorCall(v) {
	case "SliceFor":
		return 4
	case "MatMulSlice":
		return 5
	}
	return -1
}

// onlySliced reports whether x's whole value is not needed: every use of
// x is a slice of x with the given bounds, or reads only x's shape (x is
// in the frame of a SliceFor or a MatMulSlice).
func onlySliced(x *ir.Value, bounds []*ir.Value, uses [][]*ir.Value) bool {
	for _, u := range uses[x.ID] {
		if y, b, _, ok := sliceOf(u); ok && y == x && sameBounds(b, bounds) {
			continue
		}
		if k := frameStart(u); k < 0 || u.Callee.Spread || slices.Contains(u.Args[:k], x) {
			return false
		}
	}
	return true
}

// replaceInFrames replaces x, in the frames of its uses, by values of x's
// broadcast shape that do not need x computed: its tensor operands (for
// an elementwise operation), or MatMulShape of a product's operands.
func replaceInFrames(x *ir.Value, operands []int, uses [][]*ir.Value) {
	var shape []*ir.Value
	if ir.TensorCall(x) == "MatMul" {
		fn := ir.TensorFunc(x.Type, "MatMulShape")
		if fn == nil {
			return
		}
		ms := x.Block.Func.NewValue(ir.OpCall, x.Type, x.Args[0], x.Args[1])
		ms.Callee, ms.Pos = &ir.Callee{Func: fn}, x.Pos
		x.Block.Insert(indexOf(x.Block, x), ms)
		shape = []*ir.Value{ms}
	} else {
		for _, j := range operands {
			shape = append(shape, x.Args[j])
		}
	}
	for _, u := range uses[x.ID] {
		k := frameStart(u)
		if k < 0 {
			continue
		}
		var frame []*ir.Value
		for _, a := range u.Args[k:] {
			if a == x {
				frame = append(frame, shape...)
			} else {
				frame = append(frame, a)
			}
		}
		u.Args = append(slices.Clone(u.Args[:k]), frameOf(u.Args[0], nil, frame)...)
	}
}

// PushSlices rewrites each slice of a value computed by an elementwise
// operation F, or by a matrix product, whose uses are all slices with the
// same bounds:
//
//	Slice(F(a, b), axis, lo, hi) → F(SliceFor(a, axis, lo, hi, b), SliceFor(b, axis, lo, hi, a))
//	SliceFor(F(a, b), …, frame…) → F(SliceFor(a, …, b, frame…), SliceFor(b, …, a, frame…))
//	Slice(MatMul(a, b), …) → MatMulSlice(a, b, …), and SliceFor likewise
//
// (one tensor operand for a unary F), until none applies. Exact: an
// elementwise operation commutes with slicing, and SliceFor keeps each
// operand whole along an axis it is broadcast along. A value sliced by
// several uses is computed, sliced, once per use: more work than once
// whole only when the slice keeps more than 1/uses of it.
//
// The slices of broadcast operands that the tensor rules leave
// (SliceBroadcast(a, other, axis, lo, hi), the primitive form) are first
// written as SliceFor(a, axis, lo, hi, other), the same value.
func PushSlices(f *ir.Func, env Env) {
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if ir.TensorCall(v) != "SliceBroadcast" {
				continue
			}
			if fn := ir.TensorFunc(v.Type, "SliceFor"); fn != nil {
				v.Callee = &ir.Callee{Func: fn}
				v.Args = []*ir.Value{v.Args[0], v.Args[2], v.Args[3], v.Args[4], v.Args[1]}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		uses := ir.Uses(f)
		for _, b := range f.Blocks {
			for i := 0; i < len(b.Instrs); i++ {
				v := b.Instrs[i]
				x, bounds, frame, ok := sliceOf(v)
				if !ok || !onlySliced(x, bounds, uses) {
					continue
				}
				name := ir.TensorCall(x)
				var operands []int
				if j, ok := elementwiseIn(name); ok {
					operands = []int{j}
				} else if templates.TensorOpOf(name).SliceThrough {
					operands = []int{0, 1}
				} else if name == "MatMul" {
					if fn := ir.TensorFunc(v.Type, "MatMulSlice"); fn != nil {
						replaceInFrames(x, nil, uses)
						v.Callee = &ir.Callee{Func: fn}
						v.Args = slices.Concat(x.Args[:2], bounds, frame)
						fired(env, "slice-product", v)
						changed = true
						break
					}
					continue
				} else {
					continue
				}
				sliceFor := ir.TensorFunc(v.Type, "SliceFor")
				if sliceFor == nil {
					continue
				}
				frameOps := operands
				if name == "ExpandLike" {
					frameOps = []int{1} // ExpandLike(g, like) has like's shape
				}
				replaceInFrames(x, frameOps, uses)
				args := slices.Clone(x.Args)
				for _, j := range operands {
					var others []*ir.Value
					for _, k := range operands {
						if k != j {
							others = append(others, x.Args[k])
						}
					}
					sl := f.NewValue(ir.OpCall, v.Type, slices.Concat([]*ir.Value{x.Args[j]}, bounds, frameOf(x.Args[j], others, frame))...)
					sl.Callee, sl.Pos = &ir.Callee{Func: sliceFor}, v.Pos
					b.Insert(i, sl)
					i++
					args[j] = sl
				}
				v.Callee, v.Args = x.Callee, args
				fired(env, "slice-pushdown", v)
				changed = true
				// The uses changed: recompute them on the next round.
				break
			}
			if changed {
				break
			}
		}
		DeadCode(f)
		removeUnused(f, "MatMulShape", "SliceFor")
	}
}

// frameOf returns the frame of a slice of a: the values of others and
// frame, each once, without a itself (its own shape adds nothing to the
// broadcast).
func frameOf(a *ir.Value, others, frame []*ir.Value) []*ir.Value {
	var out []*ir.Value
	for _, x := range slices.Concat(others, frame) {
		if x != a && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// removeUnused removes the calls of the named runtime functions (pure,
// but not primitives that DeadCode knows) whose results are not used.
func removeUnused(f *ir.Func, names ...string) {
	for removed := true; removed; {
		removed = false
		uses := ir.Uses(f)
		for _, b := range f.Blocks {
			for _, v := range slices.Clone(b.Instrs) {
				if slices.Contains(names, ir.TensorCall(v)) && len(uses[v.ID]) == 0 {
					removeValue(v)
					removed = true
				}
			}
		}
	}
}
