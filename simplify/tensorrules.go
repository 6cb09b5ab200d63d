package simplify

// This file defines the algebraic rewrites of calls of the tensor runtime
// (package tensorops), run on primals and derivatives: each a rule with
// its exactness argument, like the scalar ones of algebra.go. They rest on
// a small analysis of which values have one shape (sameShapes).
//
// Exactness. Unlike algebra.go's rules, which hold for every value, a
// tensor rule may change the numbers by rounding (a GEMM's order of
// summation, n·Σx for the sum of n copies of x) and, where its text says
// so, results at infinities and NaNs or the sign of a zero; nothing else.
// A rule may remove a panic of a program that misuses the runtime (the
// shape check of an operation it removes, as dead-code elimination drops
// an unused call), never add one. Ranks and shapes are not known
// statically: a rule holds for every shape, or calls a runtime form that
// dispatches on the shapes at run time (ScaleRows, SliceBroadcast,
// Repeats). A nil tensor stays the zero of every operation that accepts
// it: a rule never makes nil reach an operation that refuses it.

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// sameShapes is the partition of a function's tensor values into classes
// of one shape: a union-find by value ID.
type sameShapes struct{ parent map[int]int }

func (s *sameShapes) find(id int) int {
	for {
		p, ok := s.parent[id]
		if !ok || p == id {
			return id
		}
		if gp, ok := s.parent[p]; ok {
			s.parent[id] = gp // path halving
		}
		id = p
	}
}

func (s *sameShapes) union(a, b int) { s.parent[s.find(a)] = s.find(b) }

// same reports whether a and b are known to have one shape.
func (s *sameShapes) same(a, b *ir.Value) bool { return a == b || s.find(a.ID) == s.find(b.ID) }

// shapesOf computes which tensor values of f have one shape: a result and
// the arguments whose shape it has (templates.TensorOp.ShapeOf); the
// result of an elementwise binary operation (Add, Mul, Pow, …) and its
// two operands when they have one shape (no broadcasting then); and two
// calls of one tensorops function whose tensor operands have one shape,
// pairwise, and whose other arguments are one value (congruence, as in
// value numbering: the shape of a result is a function of the shapes of
// the tensor operands and of the values of the others), except the
// functions whose result for a nil operand is another operand
// (TensorOp.NilIdentity, such as Add: Add(nil, b) is b, however a
// broadcasts). A nil operand is the zero tensor of the shape the
// analysis gives it: every function but those returns nil, or panics,
// for it.
func shapesOf(f *ir.Func) *sameShapes {
	s := &sameShapes{parent: map[int]int{}}
	for changed := true; changed; {
		changed = false
		calls := map[string]*ir.Value{} // congruence: the first call of each key
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				name := ir.TensorCall(v)
				if name == "" || !ir.IsTensor(v.Type) {
					continue
				}
				op := templates.TensorOpOf(name)
				var ws []*ir.Value
				for _, i := range op.ShapeOf {
					if i < len(v.Args) && ir.IsTensor(v.Args[i].Type) {
						ws = append(ws, v.Args[i])
					}
				}
				if binaryElementwise(name) && s.same(v.Args[0], v.Args[1]) {
					ws = append(ws, v.Args[0])
				}
				for _, w := range ws {
					if !s.same(v, w) {
						s.union(v.ID, w.ID)
						changed = true
					}
				}
				if op.NilIdentity {
					continue
				}
				k, ok := congruenceKey(v, s)
				if !ok {
					continue
				}
				if u, ok := calls[k]; !ok {
					calls[k] = v
				} else if !s.same(u, v) {
					s.union(v.ID, u.ID)
					changed = true
				}
			}
		}
	}
	return s
}

// congruenceKey returns the key of v, a call of tensorops, under which
// shapesOf finds the calls of one shape: the function, and for each
// argument its shape class (a tensor), its value (a constant) or itself
// (a value of a basic type). It reports false when an argument is of
// another type (a slice of dimensions passed with "...": one SSA value
// whose elements stores may change between the calls).
func congruenceKey(v *ir.Value, s *sameShapes) (string, bool) {
	var sb strings.Builder
	name := ir.TensorCall(v)
	sb.WriteString(name)
	if v.Callee.Spread {
		sb.WriteString("...")
	}
	// Where a nil operand is the zero tensor of another operand's shape
	// (templates.TensorOp.NilLike), congruence asks for one value, not
	// one shape.
	byIdentity := templates.TensorOpOf(name).NilLike
	for i, a := range v.Args {
		switch {
		case ir.IsTensor(a.Type) && ir.IsNil(a):
			sb.WriteString("|nil")
		case ir.IsTensor(a.Type) && containsInt(byIdentity, i):
			fmt.Fprintf(&sb, "|v%d", a.ID)
		case ir.IsTensor(a.Type):
			fmt.Fprintf(&sb, "|t%d", s.find(a.ID))
		case basic(a.Type) == nil:
			return "", false
		case a.Op == ir.OpConst && a.Const != nil:
			fmt.Fprintf(&sb, "|c%s:%s", a.Type, a.Const.ExactString())
		default:
			fmt.Fprintf(&sb, "|v%d", a.ID)
		}
	}
	return sb.String(), true
}

// A tensorRule is one rewrite of a call of tensorops, in place: it
// reports whether it applied. name is what gadgen -explain prints.
type tensorRule struct {
	name  string
	text  string
	apply func(v *ir.Value, c *tensorCtx) bool
}

// Explainer is what an Env implements to hear of the rewrites that fire
// (gadgen -explain): the rule's name, and the position of the value it
// rewrote.
type Explainer interface {
	Fired(rule string, pos token.Pos)
}

// fired tells env, when it is an Explainer, that rule fired at v.
func fired(env Env, rule string, v *ir.Value) {
	if e, ok := env.(Explainer); ok {
		e.Fired(rule, v.Pos)
	}
}

// intConsts returns the values of args when all are integer constants.
func intConsts(args []*ir.Value) ([]int, bool) {
	var out []int
	for _, a := range args {
		n, ok := intConst(a)
		if !ok {
			return nil, false
		}
		out = append(out, int(n))
	}
	return out, true
}

// swapsLastTwo reports whether perm is (0, 1, …, n−3, n−1, n−2).
func swapsLastTwo(perm []int) bool {
	n := len(perm)
	if n < 2 || perm[n-2] != n-1 || perm[n-1] != n-2 {
		return false
	}
	for i := range n - 2 {
		if perm[i] != i {
			return false
		}
	}
	return true
}

// tensorRules are the rewrites TensorAlgebra applies.
var tensorRules = []tensorRule{
	{"nil-operand", "tensorops.Add(nil, x) → x, Add(x, nil) → x, Sub(x, nil) → x (exact: nil is the runtime's zero tensor, and these return the other operand itself)", func(v *ir.Value, _ *tensorCtx) bool {
		name := ir.TensorCall(v)
		if name != "Add" && name != "Sub" {
			return false
		}
		for i, a := range v.Args {
			if ir.IsNil(a) && (i == 1 || name == "Add") {
				copyValue(v, v.Args[1-i])
				return true
			}
		}
		return false
	}},
	{"mul-ones", "tensorops.Mul(a, FullLike(b, 1)) → a, Mul(FullLike(b, 1), a) → a, where a and b have one shape (exact: multiplying by one; the seed of a sum's adjoint)", func(v *ir.Value, c *tensorCtx) bool {
		if ir.TensorCall(v) != "Mul" {
			return false
		}
		for i, a := range v.Args {
			o := v.Args[1-i]
			if ir.TensorCall(a) == "FullLike" && isFloatConst(a.Args[1], 1) && c.same(a.Args[0], o) {
				copyValue(v, o)
				return true
			}
		}
		return false
	}},
	{"same-shape", "tensorops.SumLike(g, like) → g, ExpandLike(g, like) → g, where g and like have one shape (exact: they return g itself then)", func(v *ir.Value, c *tensorCtx) bool {
		if name := ir.TensorCall(v); name != "SumLike" && name != "ExpandLike" || !c.same(v.Args[0], v.Args[1]) {
			return false
		}
		copyValue(v, v.Args[0])
		return true
	}},
	{"transpose-transpose", "tensorops.Transpose(Transpose(x, p), q) → x where q undoes p, both constant, or both default; TransposeBack(x, p) counts as Transpose by p's inverse, so that TransposeBack(Transpose(x, p), p) → x and Transpose(TransposeBack(x, p), p) → x (exact: copies)", func(v *ir.Value, _ *tensorCtx) bool {
		q, ok1 := permOf(v)
		p, ok2 := permOf(v.Args[0])
		if !ok1 || !ok2 || !undoes(p, q) {
			return false
		}
		copyValue(v, v.Args[0].Args[0])
		return true
	}},
	{"transposed-gemm-operand", "tensorops.MatMul(Transpose(a, …, n−1, n−2), b) → MatMulT(a, b, true, false), and the like for b and for MatMulT's flags (a transposed operand is a GEMM flag, not a copy; rounding may differ by the GEMM's order of summation)", func(v *ir.Value, _ *tensorCtx) bool {
		name := ir.TensorCall(v)
		if name != "MatMul" && name != "MatMulT" {
			return false
		}
		var flags [2]bool
		if name == "MatMulT" {
			for i := range 2 {
				c := v.Args[2+i]
				if c.Op != ir.OpConst || c.Const == nil || c.Const.Kind() != constant.Bool {
					return false
				}
				flags[i] = constant.BoolVal(c.Const)
			}
		}
		changed := false
		args := slices.Clone(v.Args[:2])
		for i, a := range args {
			perm, ok := permOf(a)
			if !ok || !swapsLastTwo(perm) {
				continue
			}
			args[i], flags[i], changed = a.Args[0], !flags[i], true
		}
		if !changed {
			return false
		}
		fn := ir.TensorFunc(v.Type, "MatMulT")
		if fn == nil {
			return false
		}
		boolT := types.Typ[types.Bool]
		v.Callee = &ir.Callee{Func: fn}
		v.Args = []*ir.Value{args[0], args[1],
			v.Block.Func.ConstValue(boolT, constant.MakeBool(flags[0])), v.Block.Func.ConstValue(boolT, constant.MakeBool(flags[1]))}
		return true
	}},
	{"transpose-binary", "op(Transpose(a, p…), Transpose(b, p…)) → Transpose(op(a, b), p…) for an elementwise binary op, one constant p (or both default and a, b of one shape), each transpose of no other use, and the same for TransposeBack: one transpose instead of two (exact: elementwise operations commute with permuting the axes of both operands, broadcasting included, as they have one rank)", func(v *ir.Value, c *tensorCtx) bool {
		if !binaryElementwise(ir.TensorCall(v)) {
			return false
		}
		a, b := v.Args[0], v.Args[1]
		p, ok1 := permOf(a)
		q, ok2 := permOf(b)
		if !ok1 || !ok2 || ir.TensorCall(a) != ir.TensorCall(b) || !slices.Equal(p, q) || a == b || !c.single(a) || !c.single(b) ||
			len(p) == 0 && !c.same(a.Args[0], b.Args[0]) {
			return false
		}
		inner := insertCall(v, v.Callee.Func, false, a.Args[0], b.Args[0])
		v.Callee, v.Args = a.Callee, append([]*ir.Value{inner}, a.Args[1:]...)
		return true
	}},
	{"transpose-elementwise", "f(Transpose(x, p…)) → Transpose(f(x), p…) for f elementwise in one tensor (Exp, Scale, …), and the same for TransposeBack, when the transpose has no other use and a use of the result undoes it (a transpose), takes it as a GEMM operand (it swaps the last two axes), or is such an f in turn: the transpose moves to where transpose-transpose or transposed-gemm-operand removes it (exact: f commutes with permuting the axes)", func(v *ir.Value, c *tensorCtx) bool {
		i, ok := elementwiseIn(ir.TensorCall(v))
		if !ok || i >= len(v.Args) {
			return false
		}
		t := v.Args[i]
		p, ok := permOf(t)
		if !ok || !c.single(t) || !transposeConsumed(v, p, c, 4) {
			return false
		}
		args := slices.Clone(v.Args)
		args[i] = t.Args[0]
		inner := insertCall(v, v.Callee.Func, v.Callee.Spread, args...)
		v.Callee, v.Args = t.Callee, append([]*ir.Value{inner}, t.Args[1:]...)
		return true
	}},
	{"reshape-reshape", "tensorops.Reshape(Reshape(x, s…), t…) → Reshape(x, t…), and the like for ReshapeLike in either place (exact: a reshape keeps the elements in row-major order, so only the last shape counts)", func(v *ir.Value, _ *tensorCtx) bool {
		name := ir.TensorCall(v)
		if name != "Reshape" && name != "ReshapeLike" {
			return false
		}
		in := ir.TensorCall(v.Args[0])
		if in != "Reshape" && in != "ReshapeLike" {
			return false
		}
		v.Args = append([]*ir.Value{v.Args[0].Args[0]}, v.Args[1:]...)
		return true
	}},
	{"reshape-same-shape", "tensorops.ReshapeLike(g, like) → g where g and like have one shape (exact: ReshapeLike returns g's elements, as a view of g or a copy)", func(v *ir.Value, c *tensorCtx) bool {
		if ir.TensorCall(v) != "ReshapeLike" || !c.same(v.Args[0], v.Args[1]) {
			return false
		}
		copyValue(v, v.Args[0])
		return true
	}},
	{"squeeze-unsqueeze", "tensorops.Squeeze(Unsqueeze(x, k), k) → x, Unsqueeze(Squeeze(x, k), k) → x, for one constant axis k (exact: views of x's elements; a negative k names the same axis in both, as each counts it from the end of the larger rank)", func(v *ir.Value, _ *tensorCtx) bool {
		name, in := ir.TensorCall(v), ir.TensorCall(v.Args[0])
		if !(name == "Squeeze" && in == "Unsqueeze" || name == "Unsqueeze" && in == "Squeeze") {
			return false
		}
		k1, ok1 := intConst(v.Args[1])
		k2, ok2 := intConst(v.Args[0].Args[1])
		if !ok1 || !ok2 || k1 != k2 {
			return false
		}
		copyValue(v, v.Args[0].Args[0])
		return true
	}},
	{"diag-rows", "tensorops.MatMul(Diag(v), a) → ScaleRows(v, a), and MatMulT(Diag(v), a, _, false) (diag(v)ᵀ = diag(v)): n products per row of a instead of a GEMM with n² − n zeros. The same numbers: an element of the GEMM is v[i]·a[i, j] plus products by zeros, except that a ±Inf or NaN of a no longer spreads NaN (0·Inf) to the other rows of its column, and a product −0 is no longer +0", func(v *ir.Value, _ *tensorCtx) bool {
		d, a, ok := diagProduct(v, 0)
		return ok && becomeCall(v, "ScaleRows", d.Args[0], a)
	}},
	{"diag-cols", "tensorops.MatMul(a, Diag(v)) → ScaleCols(a, v), and MatMulT(a, Diag(v), false, _): a's columns scaled, with the numbers of diag-rows", func(v *ir.Value, _ *tensorCtx) bool {
		d, a, ok := diagProduct(v, 1)
		return ok && becomeCall(v, "ScaleCols", a, d.Args[0])
	}},
	{"pad-mul", "tensorops.Mul(Pad(x, axis, b, e), y) → Pad(Mul(x, SliceLike(y, x, axis, b)), axis, b, e), and Mul(y, Pad(…)), where y has the padded shape and the pad no other use: the product over x's elements only. Exact where y is finite in the padding: there the products were zeros (−0 for y < 0, now +0) and ±Inf or NaN gave NaN (0·Inf), now 0 — the padding is a strong zero, as the runtime's nil is (Mul(nil, y) is nil whatever y holds); Enzyme-JaX makes the same rewrite", func(v *ir.Value, c *tensorCtx) bool {
		if ir.TensorCall(v) != "Mul" {
			return false
		}
		for i, p := range v.Args {
			y := v.Args[1-i]
			if ir.TensorCall(p) != "Pad" || p.Callee.Spread || !c.same(p, y) || !c.single(p) {
				continue
			}
			x := p.Args[0]
			sl := insertCall(v, tensorFn(v.Type, "SliceLike"), false, y, x, p.Args[1], p.Args[2])
			if sl == nil {
				return false
			}
			args := []*ir.Value{x, sl}
			if i == 1 {
				args = []*ir.Value{sl, x}
			}
			m := insertCall(v, v.Callee.Func, false, args...)
			v.Callee, v.Args = p.Callee, []*ir.Value{m, p.Args[1], p.Args[2], p.Args[3]}
			return true
		}
		return false
	}},
	{"sum-broadcast", "tensorops.SumAll(Broadcast(x, s…)) → SumAll(x)·RepeatsShape(x, s…), SumAll(BroadcastLike(x, l)) and SumAll(ExpandLike(x, l)) → SumAll(x)·Repeats(x, l): the sum of n copies of each element is n·Σx (up to rounding: the product rounds once where the sum rounds at each addition; an empty broadcast of a nonempty x whose sum is ±Inf or NaN gives NaN, 0·Inf, where the sum of nothing is 0)", func(v *ir.Value, _ *tensorCtx) bool {
		if ir.TensorCall(v) != "SumAll" {
			return false
		}
		b := v.Args[0]
		var n *ir.Value
		switch ir.TensorCall(b) {
		case "Broadcast":
			n = insertCall(v, tensorFn(b.Type, "RepeatsShape"), b.Callee.Spread, b.Args...)
		case "BroadcastLike", "ExpandLike":
			n = insertCall(v, tensorFn(b.Type, "Repeats"), false, b.Args...)
		default:
			return false
		}
		if n == nil {
			return false
		}
		sum := insertCall(v, v.Callee.Func, false, b.Args[0])
		v.Op, v.Tok, v.Callee, v.Args = ir.OpBinary, token.MUL, nil, []*ir.Value{sum, n}
		return true
	}},
	{"mean-broadcast", "tensorops.MeanAll(Broadcast(x, s…)) → MeanAll(x), and for BroadcastLike and ExpandLike: n copies of each element have x's mean (up to rounding; an empty broadcast of a nonempty x had the mean NaN, 0/0, and has x's now)", func(v *ir.Value, _ *tensorCtx) bool {
		if ir.TensorCall(v) != "MeanAll" {
			return false
		}
		switch ir.TensorCall(v.Args[0]) {
		case "Broadcast", "BroadcastLike", "ExpandLike":
			v.Args = []*ir.Value{v.Args[0].Args[0]}
			return true
		}
		return false
	}},
	{"sum-full", "tensorops.SumAll(FullLike(x, c)) → c·float64(Size(x)): n copies of c (up to rounding; the elements of a float32 x hold c rounded to float32; for an empty x and c = ±Inf, 0 before and NaN after)", func(v *ir.Value, _ *tensorCtx) bool {
		if ir.TensorCall(v) != "SumAll" || ir.TensorCall(v.Args[0]) != "FullLike" {
			return false
		}
		full := v.Args[0]
		size := insertCall(v, tensorFn(full.Type, "Size"), false, full.Args[0])
		if size == nil {
			return false
		}
		n := insertOp(v, ir.OpConvert, token.ILLEGAL, v.Type, size)
		v.Op, v.Tok, v.Callee, v.Args = ir.OpBinary, token.MUL, nil, []*ir.Value{full.Args[1], n}
		return true
	}},
	{"sumlike-broadcast", "tensorops.SumLike(ExpandLike(g, l), h) and SumLike(BroadcastLike(g, l), h) → Scale(g, Repeats(g, l)) where g and h have one shape: each element summed back from its n copies is n·g (up to rounding; for an empty l, zeros before and 0·g after: NaN where g is ±Inf or NaN, −0 where g < 0)", func(v *ir.Value, c *tensorCtx) bool {
		if ir.TensorCall(v) != "SumLike" {
			return false
		}
		b := v.Args[0]
		if name := ir.TensorCall(b); name != "ExpandLike" && name != "BroadcastLike" || !c.same(b.Args[0], v.Args[1]) {
			return false
		}
		n := insertCall(v, tensorFn(v.Type, "Repeats"), false, b.Args[0], b.Args[1])
		return n != nil && becomeCall(v, "Scale", b.Args[0], n)
	}},
	{"sumlike-full", "tensorops.SumLike(FullLike(w, c), h) → SumLikeFull(w, c, h), which is FullLike(h, c·Repeats(h, w)) and nil for a nil h as SumLike is: the sum of n copies of c (up to rounding; for an empty w and c = ±Inf, zeros before and NaN after) — the adjoint of a broadcast operand of a sum's seed", func(v *ir.Value, _ *tensorCtx) bool {
		if ir.TensorCall(v) != "SumLike" || ir.TensorCall(v.Args[0]) != "FullLike" {
			return false
		}
		fn := tensorFn(v.Type, "SumLikeFull")
		if fn == nil {
			return false
		}
		full, h := v.Args[0], v.Args[1]
		v.Callee, v.Args = &ir.Callee{Func: fn}, []*ir.Value{full.Args[0], full.Args[1], h}
		return true
	}},
	{"fold-fill", "f(FullLike(x, c)) → FullLike(x, f(c)) and f(Full(dt, c, s…)) → Full(dt, f(c), s…), for a constant c and f one of Neg, Exp, Log, Tanh, Sigmoid, ReLU, Sqrt, Abs, Square, Sin, Cos, Sign, Step, Log1p, Expm1, Scale, AddScalar, ScalarDiv, PowScalar with constant parameters, evaluated by gadgen as the runtime's kernels compute f (package math; see foldFill). Only constants that float32 represents are folded, which makes the rule exact in both dtypes: in float64 the kernel computes what gadgen does; in float32 the kernel rounds c and the parameters to float32, which changes neither, computes in float64 and rounds once to float32 as FullLike does with the folded value (a sum, product or quotient of two float32 values is rounded correctly through float64). Not folded when f(c) is NaN, ±Inf or −0", func(v *ir.Value, _ *tensorCtx) bool {
		return foldFill(v)
	}},
	{"fill-fill", "tensorops.FullLike(FullLike(x, c), d) → FullLike(x, d) (exact: one shape and dtype)", func(v *ir.Value, _ *tensorCtx) bool {
		if ir.TensorCall(v) != "FullLike" || ir.TensorCall(v.Args[0]) != "FullLike" {
			return false
		}
		v.Args = []*ir.Value{v.Args[0].Args[0], v.Args[1]}
		return true
	}},
	{"fill-operand", "tensorops.Mul(FullLike(x, c), y) → Scale(y, c), Mul(y, FullLike(x, c)) → Scale(y, c), Div(FullLike(x, c), y) → ScalarDiv(c, y), where x and y have one shape; Scale(FullLike(x, ±1), a) → FullLike(x, ±a) (exact: the same products and quotients, c and a rounded to the dtype by the kernel as by FullLike; a nil y is nil, or panics as the divisor, either way)", func(v *ir.Value, c *tensorCtx) bool {
		name := ir.TensorCall(v)
		if name == "Scale" && ir.TensorCall(v.Args[0]) == "FullLike" {
			full, a := v.Args[0], v.Args[1]
			switch {
			case isFloatConst(full.Args[1], 1):
			case isFloatConst(full.Args[1], -1):
				a = insertOp(v, ir.OpUnary, token.SUB, a.Type, a)
			default:
				return false
			}
			v.Callee, v.Args = full.Callee, []*ir.Value{full.Args[0], a}
			return true
		}
		for i, f := range v.Args {
			if name != "Mul" && !(name == "Div" && i == 0) || ir.TensorCall(f) != "FullLike" || !c.same(f.Args[0], v.Args[1-i]) {
				continue
			}
			y, k := v.Args[1-i], f.Args[1]
			if name == "Mul" {
				return becomeCall(v, "Scale", y, k)
			}
			return becomeCall(v, "ScalarDiv", k, y)
		}
		return false
	}},
}

// elementwiseIn returns the index of the tensor operand of the tensorops
// function name when it is elementwise in that one alone, its other
// arguments float64s (templates.TensorOp.Elementwise: Exp, Scale,
// ScalarDiv).
func elementwiseIn(name string) (int, bool) {
	if e := templates.TensorOpOf(name).Elementwise; len(e) == 1 {
		return e[0], true
	}
	return 0, false
}

// binaryElementwise reports whether the tensorops function name is
// elementwise in its two arguments, tensors that broadcast (Add, Pow) or
// have one shape (TanhJVP).
func binaryElementwise(name string) bool { return len(templates.TensorOpOf(name).Elementwise) == 2 }

// tensorCtx is what the tensor rules read: the shape analysis and the
// uses of the values, computed at the start of a round of TensorAlgebra.
// A value a rule made since is in no shape class and has no known uses;
// the uses of older values may be stale. Rules consult uses only for
// profit (whether a value dies), never for correctness.
type tensorCtx struct {
	s    *sameShapes
	uses [][]*ir.Value
}

// same reports whether a and b are known to have one shape.
func (c *tensorCtx) same(a, b *ir.Value) bool { return c.s.same(a, b) }

// usesOf returns the known uses of v.
func (c *tensorCtx) usesOf(v *ir.Value) []*ir.Value {
	if v.ID < len(c.uses) {
		return c.uses[v.ID]
	}
	return nil
}

// single reports whether v is known to have exactly one use.
func (c *tensorCtx) single(v *ir.Value) bool { return len(c.usesOf(v)) == 1 }

// tensorFn returns the function name of the runtime of the tensor type
// t, or nil.
func tensorFn(t types.Type, name string) *types.Func { return ir.TensorFunc(t, name) }

// insertCall inserts before v a call of fn (a tensorops function; nil
// inserts nothing) with args, spread when the last is a slice passed
// with "...", and returns it, or nil.
func insertCall(v *ir.Value, fn *types.Func, spread bool, args ...*ir.Value) *ir.Value {
	if fn == nil {
		return nil
	}
	c := v.Block.Func.NewValue(ir.OpCall, fn.Signature().Results().At(0).Type(), args...)
	c.Callee, c.Pos = &ir.Callee{Func: fn, Spread: spread}, v.Pos
	v.Block.Insert(indexOf(v.Block, v), c)
	return c
}

// insertOp inserts before v the value op (tok for OpBinary) of type t
// with args and returns it.
func insertOp(v *ir.Value, op ir.Op, tok token.Token, t types.Type, args ...*ir.Value) *ir.Value {
	w := v.Block.Func.NewValue(op, t, args...)
	w.Tok, w.Pos = tok, v.Pos
	v.Block.Insert(indexOf(v.Block, v), w)
	return w
}

// becomeCall makes v a call of the tensorops function name with args
// and reports whether the runtime has it.
func becomeCall(v *ir.Value, name string, args ...*ir.Value) bool {
	var fn *types.Func
	for _, a := range append([]*ir.Value{v}, args...) {
		if fn = tensorFn(a.Type, name); fn != nil {
			break
		}
	}
	if fn == nil {
		return false
	}
	v.Op, v.Tok, v.Callee, v.Args = ir.OpCall, token.ILLEGAL, &ir.Callee{Func: fn}, args
	return true
}

// isPerm reports whether p is a permutation of 0, …, len(p)−1.
func isPerm(p []int) bool {
	seen := make([]bool, len(p))
	for _, j := range p {
		if j < 0 || j >= len(p) || seen[j] {
			return false
		}
		seen[j] = true
	}
	return true
}

// inversePerm returns the inverse of the permutation p.
func inversePerm(p []int) []int {
	q := make([]int, len(p))
	for i, j := range p {
		q[j] = i
	}
	return q
}

// undoes reports whether transposing by q undoes transposing by p: q is
// p's inverse, or both are the default (reversing the axes).
func undoes(p, q []int) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range q {
		if p[q[i]] != i { // (x^p)^q[i] = x[p[q[i]]]
			return false
		}
	}
	return true
}

// constFlags reports whether the transpose flags of v, a MatMulT, are
// constants.
func constFlags(v *ir.Value) bool {
	for _, f := range v.Args[2:4] {
		if f.Op != ir.OpConst || f.Const == nil || f.Const.Kind() != constant.Bool {
			return false
		}
	}
	return true
}

// permOf returns the permutation of the axes that v, a call of
// Transpose or TransposeBack with a constant perm, applies: result axis i
// is operand axis p[i] (TransposeBack applies its perm's inverse); empty
// for the default perm, which reverses the axes (its own inverse).
func permOf(v *ir.Value) ([]int, bool) {
	name := ir.TensorCall(v)
	if name != "Transpose" && name != "TransposeBack" || v.Callee.Spread {
		return nil, false
	}
	p, ok := intConsts(v.Args[1:])
	if !ok || !isPerm(p) {
		return nil, false
	}
	if name == "TransposeBack" {
		p = inversePerm(p)
	}
	return p, true
}

// transposeConsumed reports whether a use of v, which computes
// f(Transpose(x, p…)), would remove the transpose were it moved after f:
// a transpose that undoes p, a matrix product with v for an operand when
// p swaps the last two axes (a GEMM flag), or, depth permitting, an
// elementwise f' of which v is the only use and whose result is such in
// turn.
func transposeConsumed(v *ir.Value, p []int, c *tensorCtx, depth int) bool {
	for _, w := range c.usesOf(v) {
		name := ir.TensorCall(w)
		switch {
		case name == "Transpose" || name == "TransposeBack":
			if q, ok := permOf(w); ok && w.Args[0] == v && undoes(p, q) {
				return true
			}
		case name == "MatMul" || name == "MatMulT" && constFlags(w):
			if swapsLastTwo(p) && (w.Args[0] == v || w.Args[1] == v) {
				return true
			}
		default:
			i, ok := elementwiseIn(name)
			if ok && depth > 0 && i < len(w.Args) && w.Args[i] == v && c.single(v) && transposeConsumed(w, p, c, depth-1) {
				return true
			}
		}
	}
	return false
}

// diagProduct matches v = MatMul or MatMulT whose operand i is Diag(…):
// it returns the Diag call and the other operand. A MatMulT's flag of the
// other operand must be the constant false (its transpose would be a
// copy); the diagonal's does not matter, diag(v)ᵀ = diag(v).
func diagProduct(v *ir.Value, i int) (d, other *ir.Value, ok bool) {
	name := ir.TensorCall(v)
	if name != "MatMul" && name != "MatMulT" || ir.TensorCall(v.Args[i]) != "Diag" {
		return nil, nil, false
	}
	if name == "MatMulT" {
		f := v.Args[2+1-i]
		if f.Op != ir.OpConst || f.Const == nil || f.Const.Kind() != constant.Bool || constant.BoolVal(f.Const) {
			return nil, nil, false
		}
	}
	return v.Args[i], v.Args[1-i], true
}

// exactConst returns the value of v when it is a float constant that
// float32 represents exactly.
func exactConst(v *ir.Value) (float64, bool) {
	c, b := constOf(v), basic(v.Type)
	if c == nil || b == nil || b.Info()&types.IsFloat == 0 || c.Kind() != constant.Int && c.Kind() != constant.Float {
		return 0, false
	}
	x := toFloat(c, b)
	return x, float64(float32(x)) == x
}

// sigmoid is the runtime's logistic function (tensorops/kernels.go),
// written as it is there, so that folding computes the kernel's value.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// fillFold is how fold-fill evaluates a tensorops function elementwise
// in one tensor operand (elementwiseIn) on a constant tensor: it computes
// an element from c, the constant, and the function's other (float)
// arguments in order, as the runtime's kernel computes it.
type fillFold func(c float64, params []float64) float64

func unaryFold(f func(float64) float64) fillFold {
	return func(c float64, _ []float64) float64 { return f(c) }
}

// fillFolds are fold-fill's evaluations, by function. They stay here, not
// with the facts about the runtime's functions in package templates
// (templates.TensorOp): each is code of the rewrite, the runtime kernel's
// arithmetic written again for the constant folder (the compiler does not
// import the runtime); which operand is the tensor is a fact, from
// templates.
var fillFolds = map[string]fillFold{
	"Neg":     unaryFold(func(c float64) float64 { return -c }),
	"Exp":     unaryFold(math.Exp),
	"Log":     unaryFold(math.Log),
	"Tanh":    unaryFold(math.Tanh),
	"Sigmoid": unaryFold(sigmoid),
	"ReLU":    unaryFold(func(c float64) float64 { return max(c, 0) }),
	"Sqrt":    unaryFold(math.Sqrt),
	"Abs":     unaryFold(math.Abs),
	"Square":  unaryFold(func(c float64) float64 { return c * c }),
	"Sin":     unaryFold(math.Sin),
	"Cos":     unaryFold(math.Cos),
	"Log1p":   unaryFold(math.Log1p),
	"Expm1":   unaryFold(math.Expm1),
	"Sign": unaryFold(func(c float64) float64 {
		switch {
		case c > 0:
			return 1
		case c < 0:
			return -1
		}
		return c
	}),
	"Step": unaryFold(func(c float64) float64 {
		if c > 0 {
			return 1
		}
		return 0
	}),
	"Scale":     func(c float64, p []float64) float64 { return c * p[0] },
	"AddScalar": func(c float64, p []float64) float64 { return c + p[0] },
	"ScalarDiv": func(c float64, p []float64) float64 { return p[0] / c },
	// The kernel copies for the power 1 and squares for 2.
	"PowScalar": func(c float64, p []float64) float64 {
		switch p[0] {
		case 1:
			return c
		case 2:
			return c * c
		}
		return math.Pow(c, p[0])
	},
}

// foldFill applies the rule fold-fill to v.
func foldFill(v *ir.Value) bool {
	name := ir.TensorCall(v)
	ff := fillFolds[name]
	operand, ok := elementwiseIn(name)
	if ff == nil || !ok || v.Callee.Spread || operand >= len(v.Args) {
		return false
	}
	fill := v.Args[operand]
	if name := ir.TensorCall(fill); name != "FullLike" && name != "Full" {
		return false
	}
	c, ok := exactConst(fill.Args[1])
	if !ok {
		return false
	}
	var params []float64
	for j, a := range v.Args {
		if j == operand {
			continue
		}
		p, ok := exactConst(a)
		if !ok {
			return false
		}
		params = append(params, p)
	}
	k := floatConst(v.Block.Func, fill.Args[1].Type, ff(c, params))
	if k == nil {
		return false
	}
	args := slices.Clone(fill.Args)
	args[1] = k
	v.Callee, v.Args = fill.Callee, args
	return true
}

// pushSlice rewrites v = Slice(f(…), axis, lo, hi) into f applied to
// slices of f's tensor operands, when f is elementwise and v is the only
// use of f's result: only the part that is used is computed. Operands of
// one shape are sliced (Slice); operands of a binary f not known to have
// one shape, which may broadcast, are each sliced along their own axis
// under the sliced one unless broadcast along it, which the runtime
// decides from both shapes (SliceBroadcast). Exact: an elementwise
// operation commutes with slicing, and op(SliceBroadcast(a, b, …),
// SliceBroadcast(b, a, …)) is Slice(op(a, b), …) for all shapes (nil
// operands included: SliceBroadcast(a, nil, …) slices a, as Add(a, nil)
// is a).
func pushSlice(v *ir.Value, c *tensorCtx) bool {
	if ir.TensorCall(v) != "Slice" || v.Callee.Spread {
		return false
	}
	inner := v.Args[0]
	name := ir.TensorCall(inner)
	if name == "" || inner.Callee.Spread || !c.single(inner) {
		return false
	}
	args := slices.Clone(inner.Args)
	if i, ok := elementwiseIn(name); ok {
		args[i] = insertCall(v, v.Callee.Func, false, append([]*ir.Value{inner.Args[i]}, v.Args[1:]...)...)
	} else if binaryElementwise(name) {
		a, b := inner.Args[0], inner.Args[1]
		if c.same(a, b) {
			args[0] = insertCall(v, v.Callee.Func, false, append([]*ir.Value{a}, v.Args[1:]...)...)
			args[1] = insertCall(v, v.Callee.Func, false, append([]*ir.Value{b}, v.Args[1:]...)...)
		} else {
			fn := tensorFn(v.Type, "SliceBroadcast")
			if fn == nil {
				return false
			}
			args[0] = insertCall(v, fn, false, append([]*ir.Value{a, b}, v.Args[1:]...)...)
			args[1] = insertCall(v, fn, false, append([]*ir.Value{b, a}, v.Args[1:]...)...)
		}
	} else {
		return false
	}
	v.Callee, v.Args = inner.Callee, args
	return true
}

// TensorAlgebra applies tensorRules, and pushes slices through
// elementwise operations (pushSlice), until none applies. Each round
// recomputes the shapes and the uses; rules that fire in a round see
// those of its start (tensorCtx).
func TensorAlgebra(f *ir.Func, env Env) {
	for changed := true; changed; {
		changed = false
		c := &tensorCtx{s: shapesOf(f), uses: ir.Uses(f)}
		for _, b := range f.Blocks {
			for i := 0; i < len(b.Instrs); i++ {
				v := b.Instrs[i]
				if ir.TensorCall(v) == "" {
					continue
				}
				// One rewrite of v per round: the next round sees what it
				// made, with fresh shapes and uses.
				rewrote := false
				for _, r := range tensorRules {
					if r.apply(v, c) {
						fired(env, r.name, v)
						rewrote = true
						break
					}
				}
				if !rewrote && pushSlice(v, c) {
					fired(env, "slice-pushdown", v)
					rewrote = true
				}
				changed = changed || rewrote
			}
		}
		DeadCode(f)
	}
}
