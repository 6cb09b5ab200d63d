package simplify

// This file defines product merging: matrix products that share an
// operand become one GEMM over the stacked rows of the others (XLA's dot
// merger). Forward over reverse and Taylor mode multiply each weight
// matrix by the primal and by every tangent or coefficient: merged, the
// weights are read from memory once per layer instead of once per lane.

import (
	"go/constant"
	"go/types"

	"github.com/gadgen/gadgen/ir"
)

// mergeable describes a product MergeProducts can merge with others: the
// merged runtime form, and the arguments that must be the same for all
// (the first argument, the rows, varies).
type mergeable struct {
	merged string
	shared []int
}

// mergeKey returns, for a product v that can be merged, how, and the key
// that the products merged with it share; ok is false for any other value.
func mergeKey(v *ir.Value) (m mergeable, key [4]*ir.Value, tb bool, ok bool) {
	flag := func(i int) (bool, bool) {
		c := v.Args[i]
		if c.Op != ir.OpConst || c.Const == nil || c.Const.Kind() != constant.Bool {
			return false, false
		}
		return constant.BoolVal(c.Const), true
	}
	switch ir.TensorCall(v) {
	case "MatMul":
		m = mergeable{"MatMulEach", []int{1}}
	case "MatMulT": // MatMulT(a, b, false, tb)
		ta, ok1 := flag(2)
		t, ok2 := flag(3)
		if !ok1 || !ok2 || ta {
			return m, key, false, false
		}
		m, tb = mergeable{"MatMulEach", []int{1}}, t
	case "MatMulGradA": // MatMulGradA(g, a, b, false, tb)
		ta, ok1 := flag(3)
		t, ok2 := flag(4)
		if !ok1 || !ok2 || ta {
			return m, key, false, false
		}
		m, tb = mergeable{"MatMulGradAEach", []int{1, 2}}, t
	default:
		return m, key, false, false
	}
	for i, a := range m.shared {
		key[i] = v.Args[a]
	}
	return m, key, tb, true
}

// writesMemory reports whether v may write memory: a store, or a call of
// anything but a primitive (tensorops.Accumulate writes into its buffer).
func writesMemory(v *ir.Value) bool {
	if v.Op == ir.OpCall {
		return !v.Callee.Pure()
	}
	return v.Op.Info().WritesMemory
}

// MergeProducts merges the products of a block that share their right
// operand (MatMul(aᵢ, b), MatMulT(aᵢ, b, false, tb), MatMulGradA(gᵢ, a, b,
// false, tb)) into one call of the runtime's merged form
// (tensorops.MatMulEach, MatMulGradAEach), placed where the first of them
// was: a later one joins when its rows are computed before that point and
// no write to memory stands between them. Exact up to rounding: each
// result is its own rows of one GEMM (the runtime falls back to separate
// products where the operands do not stack). It runs last, on the
// derivative as emitted: the merged forms are not primitives that a
// derivative of the derivative could differentiate.
func MergeProducts(f *ir.Func, env Env) {
	intT := types.Typ[types.Int]
	for _, b := range f.Blocks {
		pos := map[*ir.Value]int{}
		for i, v := range b.Instrs {
			pos[v] = i
		}
		// defined reports whether a is available before index i of b.
		defined := func(a *ir.Value, i int) bool {
			j, ok := pos[a]
			return !ok || j < i
		}
		merged := map[*ir.Value]bool{}
		for i := 0; i < len(b.Instrs); i++ {
			v := b.Instrs[i]
			m, key, tb, ok := mergeKey(v)
			if !ok || merged[v] {
				continue
			}
			group := []*ir.Value{v}
			for _, w := range b.Instrs[i+1:] {
				if m2, key2, tb2, ok := mergeKey(w); ok && !merged[w] && m2.merged == m.merged && key2 == key && tb2 == tb &&
					defined(w.Args[0], i) {
					group = append(group, w)
					continue
				}
				if writesMemory(w) {
					break
				}
			}
			if len(group) < 2 {
				continue
			}
			fn := ir.TensorFunc(v.Type, m.merged)
			if fn == nil {
				continue
			}
			args := []*ir.Value{}
			for _, a := range m.shared {
				args = append(args, v.Args[a])
			}
			args = append(args, f.ConstValue(types.Typ[types.Bool], constant.MakeBool(tb)))
			for _, w := range group {
				args = append(args, w.Args[0])
			}
			call := f.NewValue(ir.OpCall, types.NewSlice(v.Type), args...)
			call.Callee, call.Pos = &ir.Callee{Func: fn}, v.Pos
			b.Insert(i, call)
			for k, w := range group {
				addr := f.NewValue(ir.OpIndexAddr, types.NewPointer(v.Type), call, f.ConstValue(intT, constant.MakeInt64(int64(k))))
				idx := f.NewValue(ir.OpLoad, v.Type, addr)
				addr.Pos, idx.Pos = w.Pos, w.Pos
				b.Insert(i+1+2*k, addr)
				b.Insert(i+2+2*k, idx)
				replaceUses(f, w, idx)
				merged[w] = true
				fired(env, "merge-products", w)
			}
			for j, x := range b.Instrs {
				pos[x] = j
			}
			i += 2 * len(group)
		}
		for w := range merged {
			removeValue(w)
		}
	}
}
