package simplify

// This file defines the algebraic rewrites of calls of the tensor runtime
// (package tensorops), run on primals and derivatives: each a rule with
// its exactness argument, like the scalar ones of algebra.go. They rest on
// a small analysis of which values have one shape (sameShapes).

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// shapeKeepers lists the tensorops functions whose result has the shape
// of one of their tensor arguments, by the argument's index.
var shapeKeepers = map[string]int{
	"Neg": 0, "Exp": 0, "Log": 0, "Tanh": 0, "Sigmoid": 0, "ReLU": 0, "Sqrt": 0, "Abs": 0,
	"Square": 0, "Sin": 0, "Cos": 0, "Sign": 0, "Step": 0, "Log1p": 0, "Expm1": 0,
	"Scale": 0, "AddScalar": 0, "Affine": 0, "ScalarDiv": 1, "PowScalar": 0,
	"TanhJVP": 0, "SigmoidJVP": 0, "ReLUJVP": 0,
	"FullLike": 0, "ZerosLike": 0, "Basis": 0, "AsTypeLike": 1,
	"SumLike": 1, "BroadcastLike": 1, "ExpandLike": 1, "ReshapeLike": 1, "ExpandAxis": 1, "MeanGrad": 1,
	"MeanAllGrad": 0, "MaxGrad": 0, "MaxAllGrad": 0, "SliceGrad": 1, "MatMulGradA": 1, "MatMulGradB": 2,
	"Softmax": 0, "LogSoftmax": 0, "SoftmaxJVP": 0, "LogSoftmaxJVP": 0, "LogSoftmaxVJP": 0,
	"SoftmaxCrossEntropyGrad": 0, "Conv2DGradX": 1, "Conv2DGradW": 2,
}

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
// the argument shapeKeepers names, and the result of an elementwise
// binary operation (Add, Sub, Mul, Div, Maximum, Minimum) and its two
// operands when they have one shape (no broadcasting then).
func shapesOf(f *ir.Func) *sameShapes {
	s := &sameShapes{parent: map[int]int{}}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				name := tensorCall(v)
				var w *ir.Value
				if i, ok := shapeKeepers[name]; ok && i < len(v.Args) && ir.IsTensor(v.Args[i].Type) {
					w = v.Args[i]
				}
				switch name {
				case "Add", "Sub", "Mul", "Div", "Maximum", "Minimum":
					if s.same(v.Args[0], v.Args[1]) {
						w = v.Args[0]
					}
				}
				if w != nil && !s.same(v, w) {
					s.union(v.ID, w.ID)
					changed = true
				}
			}
		}
	}
	return s
}

// A tensorRule is one rewrite of a call of tensorops, in place: it
// reports whether it applied. name is what gadgen -explain prints.
type tensorRule struct {
	name  string
	text  string
	apply func(v *ir.Value, s *sameShapes) bool
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
	{"nil-operand", "tensorops.Add(nil, x) → x, Add(x, nil) → x, Sub(x, nil) → x (exact: nil is the runtime's zero tensor, and these return the other operand itself)", func(v *ir.Value, _ *sameShapes) bool {
		name := tensorCall(v)
		if name != "Add" && name != "Sub" {
			return false
		}
		for i, a := range v.Args {
			if a.Op == ir.OpConst && a.Const == nil && (i == 1 || name == "Add") {
				copyValue(v, v.Args[1-i])
				return true
			}
		}
		return false
	}},
	{"mul-ones", "tensorops.Mul(a, FullLike(b, 1)) → a, Mul(FullLike(b, 1), a) → a, where a and b have one shape (exact: multiplying by one; the seed of a sum's adjoint)", func(v *ir.Value, s *sameShapes) bool {
		if tensorCall(v) != "Mul" {
			return false
		}
		for i, a := range v.Args {
			o := v.Args[1-i]
			if tensorCall(a) == "FullLike" && isFloatConst(a.Args[1], 1) && s.same(a.Args[0], o) {
				copyValue(v, o)
				return true
			}
		}
		return false
	}},
	{"same-shape", "tensorops.SumLike(g, like) → g, ExpandLike(g, like) → g, where g and like have one shape (exact: they return g itself then)", func(v *ir.Value, s *sameShapes) bool {
		if name := tensorCall(v); name != "SumLike" && name != "ExpandLike" || !s.same(v.Args[0], v.Args[1]) {
			return false
		}
		copyValue(v, v.Args[0])
		return true
	}},
	{"transpose-transpose", "tensorops.Transpose(Transpose(x, p), q) → x where q undoes p, both constant, or both default (exact: copies)", func(v *ir.Value, _ *sameShapes) bool {
		if tensorCall(v) != "Transpose" || v.Callee.Spread || tensorCall(v.Args[0]) != "Transpose" || v.Args[0].Callee.Spread {
			return false
		}
		inner := v.Args[0]
		p, ok1 := intConsts(inner.Args[1:])
		q, ok2 := intConsts(v.Args[1:])
		if !ok1 || !ok2 || len(p) != len(q) {
			return false
		}
		for i := range q {
			if p[q[i]] != i { // (x^p)^q[i] = x[p[q[i]]]
				return false
			}
		}
		copyValue(v, inner.Args[0])
		return true
	}},
	{"transposed-gemm-operand", "tensorops.MatMul(Transpose(a, …, n−1, n−2), b) → MatMulT(a, b, true, false), and the like for b and for MatMulT's flags (a transposed operand is a GEMM flag, not a copy; rounding may differ by the GEMM's order of summation)", func(v *ir.Value, _ *sameShapes) bool {
		name := tensorCall(v)
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
			if tensorCall(a) != "Transpose" || a.Callee.Spread {
				continue
			}
			perm, ok := intConsts(a.Args[1:])
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
}

// elementwiseIn maps the tensorops functions elementwise in one tensor
// operand (the others floats) to that operand's index.
var elementwiseIn = map[string]int{
	"Neg": 0, "Exp": 0, "Log": 0, "Tanh": 0, "Sigmoid": 0, "ReLU": 0, "Sqrt": 0, "Abs": 0,
	"Square": 0, "Sin": 0, "Cos": 0, "Sign": 0, "Step": 0, "Log1p": 0, "Expm1": 0,
	"Scale": 0, "AddScalar": 0, "Affine": 0, "ScalarDiv": 1, "PowScalar": 0,
}

// pushSlice rewrites v = Slice(f(…), axis, lo, hi) into f applied to
// slices of f's tensor operands, when f is elementwise (in one tensor, or
// in two of one shape) and v is the only use of f's result: only the
// part that is used is computed. Exact: an elementwise operation commutes
// with slicing.
func pushSlice(v *ir.Value, s *sameShapes, uses [][]*ir.Value) bool {
	if tensorCall(v) != "Slice" {
		return false
	}
	inner := v.Args[0]
	name := tensorCall(inner)
	if name == "" || len(uses[inner.ID]) != 1 {
		return false
	}
	var operands []int
	if i, ok := elementwiseIn[name]; ok {
		operands = []int{i}
	} else {
		switch name {
		case "Add", "Sub", "Mul", "Div", "Maximum", "Minimum", "TanhJVP", "SigmoidJVP", "ReLUJVP":
			if !s.same(inner.Args[0], inner.Args[1]) {
				return false
			}
			operands = []int{0, 1}
		default:
			return false
		}
	}
	args := slices.Clone(inner.Args)
	for _, i := range operands {
		sl := v.Block.Func.NewValue(ir.OpCall, v.Type, append([]*ir.Value{inner.Args[i]}, v.Args[1:]...)...)
		sl.Callee, sl.Pos = v.Callee, v.Pos
		v.Block.Insert(indexOf(v.Block, v), sl)
		args[i] = sl
	}
	v.Callee, v.Args = inner.Callee, args
	return true
}

// TensorAlgebra applies tensorRules, and pushes slices through
// elementwise operations (pushSlice), until none applies.
func TensorAlgebra(f *ir.Func, env Env) {
	for changed := true; changed; {
		changed = false
		s := shapesOf(f)
		uses := ir.Uses(f)
		for _, b := range f.Blocks {
			for i := 0; i < len(b.Instrs); i++ {
				v := b.Instrs[i]
				if tensorCall(v) == "" {
					continue
				}
				for _, r := range tensorRules {
					if r.apply(v, s) {
						fired(env, r.name, v)
						changed = true
					}
				}
				if pushSlice(v, s, uses) {
					fired(env, "slice-pushdown", v)
					// The uses changed: recompute them, and the shapes,
					// on the next round.
					changed = true
					break
				}
			}
		}
		DeadCode(f)
	}
}
