package simplify

// This file defines elementwise fusion: a tree of elementwise calls of
// the tensor runtime, each computing a fresh tensor that only the next
// one reads, becomes one call of tensorops.Fuse, which evaluates the
// whole expression in one pass over the data and allocates only its
// result (loop fusion of elementwise operations, as XLA's and TVM's
// fusion of injective operators, evaluated like numexpr). Derivatives
// are full of such chains: a product rule's terms, a JVP's
// (1 − y⊙y)⊙dx, a Taylor coefficient's sums.

import (
	"go/constant"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// maxFuseOperands is the number of operands an expression can name (a …
// z), and maxFuseText the length of the longest expression written: one
// that a reviewer reads at a glance, on one line of generated code.
const (
	maxFuseOperands = 26
	maxFuseText     = 80
)

// fusableCall returns the facts of the elementwise call v, a function of
// Fuse's expression language (templates.TensorOp.Fuse: Fuse reproduces
// it bit for bit, each form evaluated with the operation's own kernel
// formula), and its tensor and scalar arguments; ok is false when v is
// not such a call with tensor arguments that are values (not constants,
// such as a nil tensor) and float64 scalars.
func fusableCall(v *ir.Value) (op *templates.TensorOp, ts, ss []*ir.Value, ok bool) {
	op = templates.TensorOpOf(ir.TensorCall(v))
	if !op.Fuse || v.Callee.Spread || len(v.Args) != len(op.Elementwise)+len(op.Scalars) || !ir.IsTensor(v.Type) {
		return op, nil, nil, false
	}
	for _, i := range op.Elementwise {
		ts = append(ts, v.Args[i])
	}
	for _, i := range op.Scalars {
		ss = append(ss, v.Args[i])
	}
	for _, t := range ts {
		if !ir.IsTensor(t.Type) || t.Op == ir.OpConst {
			return op, nil, nil, false
		}
	}
	for _, s := range ss {
		if !types.Identical(s.Type, types.Typ[types.Float64]) {
			return op, nil, nil, false
		}
	}
	return op, ts, ss, true
}

// mayWriteTensor reports whether v may change the elements of a tensor:
// a store (through a slice a tensor shares), or a call of anything but a
// primitive or a form of the runtime that writes no tensor
// (templates.TensorOp.ReadOnly: the forms Final passes insert, such as
// Fuse; tensorops.Accumulate adds into its buffer, AddInto and the XxxTo
// forms write their destination).
func mayWriteTensor(v *ir.Value) bool {
	if templates.TensorOpOf(ir.TensorCall(v)).ReadOnly {
		return false
	}
	return writesMemory(v)
}

// FuseElementwise replaces each maximal tree of elementwise calls of a
// block (of the functions of Fuse's expression language) by one call of
// tensorops.Fuse, when the tree has at least two operations: an
// operation joins the tree of the call that uses it when that is its only
// use, in the same block, and no instruction between them may write a
// tensor's elements (so its operands hold the same values when the fused
// call reads them). A tree whose expression would be longer than
// maxFuseText characters or name more than maxFuseOperands operands is
// cut into several, each fused on its own. The leaves, any other values, become the operands a, b, c, …
// of the expression in the order they are first written, float constants
// are written as numbers (strconv's shortest form, which parses back to
// the same float64), and the other float64 arguments are scalar operands.
//
// Exact: each form of the expression is the operation it replaces, which
// Fuse evaluates with that operation's kernel formula on values of the
// tensors' dtype, every intermediate rounded as the operation rounds it;
// broadcasting, nil operands (Fuse then calls the operations one by one)
// and panics are the operations'. Only the order of evaluation of the
// tree's operations may differ from the block's (Fuse evaluates left to
// right), which changes which panic a program that panics twice reports.
// It runs last, on the derivative as emitted: Fuse is not a primitive that
// a derivative of the derivative could differentiate.
func FuseElementwise(f *ir.Func, env Env) {
	fuse := tensorFuncOf(f, "Fuse")
	if fuse == nil {
		return
	}
	anyT := fuse.Signature().Params().At(1).Type().(*types.Slice).Elem()
	uses := ir.Uses(f)
	for _, b := range f.Blocks {
		pos := map[*ir.Value]int{}
		for i, v := range b.Instrs {
			pos[v] = i
		}
		// joins reports whether v is computed inside the tree of its use.
		joins := func(v *ir.Value) bool {
			if _, _, _, ok := fusableCall(v); !ok || len(uses[v.ID]) != 1 {
				return false
			}
			u := uses[v.ID][0]
			if _, ts, _, ok := fusableCall(u); !ok || u.Block != b || !containsValue(ts, v) {
				return false
			}
			for _, w := range b.Instrs[pos[v]+1 : pos[u]] {
				if mayWriteTensor(w) {
					return false
				}
			}
			return true
		}
		// Which operations join their use's tree, decided before any
		// rewrite (the trees are disjoint). An operation that makes the
		// expression of its use's tree too long cuts the tree: bottom up
		// (the block's order), each operation detaches the operations it
		// joins, longest first, until its expression fits (the greedy
		// partition of a tree into parts of bounded weight).
		joined := map[*ir.Value]bool{}
		w := &exprWriter{joins: func(x *ir.Value) bool { return joined[x] }}
		var roots []*ir.Value
		for _, v := range b.Instrs {
			_, ts, _, ok := fusableCall(v)
			if !ok {
				continue
			}
			for {
				text := w.write(v)
				if len(text) <= maxFuseText && len(w.operands) <= maxFuseOperands {
					break
				}
				var cut *ir.Value
				longest := 0
				for _, t := range ts {
					if joined[t] {
						if n := len(w.write(t)); n > longest {
							cut, longest = t, n
						}
					}
				}
				if cut == nil {
					break
				}
				joined[cut] = false
				roots = append(roots, cut)
			}
			if joins(v) {
				joined[v] = true
			} else {
				roots = append(roots, v)
			}
		}
		slices.SortFunc(roots, func(x, y *ir.Value) int { return pos[x] - pos[y] })
		for _, v := range roots {
			text := w.write(v)
			if w.ops < 2 || len(w.operands) > maxFuseOperands {
				continue
			}
			i := indexOf(b, v)
			args := []*ir.Value{f.ConstValue(types.Typ[types.String], constant.MakeString(text))}
			for _, a := range w.operands {
				c := f.NewValue(ir.OpConvert, anyT, a)
				c.Pos = v.Pos
				b.Insert(i, c)
				i++
				args = append(args, c)
			}
			call := f.NewValue(ir.OpCall, v.Type, args...)
			call.Callee, call.Pos = &ir.Callee{Func: fuse}, v.Pos
			b.Insert(i, call)
			replaceUses(f, v, call)
			removeValue(v)
			for _, x := range w.interior {
				removeValue(x)
			}
			fired(env, "fuse-elementwise", v)
		}
	}
}

// tensorFuncOf returns the runtime's function name when f calls the
// runtime with a tensor result (the runtime's package is then known to
// the type checker), or nil.
func tensorFuncOf(f *ir.Func, name string) *types.Func {
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if ir.TensorCall(v) != "" && ir.IsTensor(v.Type) {
				return ir.TensorFunc(v.Type, name)
			}
		}
	}
	return nil
}

func containsValue(vs []*ir.Value, v *ir.Value) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}

// exprWriter writes the Fuse expression of a tree.
type exprWriter struct {
	joins    func(*ir.Value) bool
	operands []*ir.Value // in the order of their letters
	interior []*ir.Value // the operations of the tree
	ops      int
}

// Precedences of the expression's syntax, as Go's.
const (
	precAdd = iota + 1
	precMul
	precUnary
	precPrimary
)

// write returns the expression of the tree rooted at v.
func (w *exprWriter) write(v *ir.Value) string {
	w.operands, w.interior, w.ops = nil, nil, 0
	s, _ := w.node(v, true)
	return s
}

// node returns the expression of v, an operation of the tree when root or
// when it joins its use, else an operand; and its precedence. Operands
// are named in the order the text shows them.
func (w *exprWriter) node(v *ir.Value, root bool) (string, int) {
	if !root && !w.joins(v) {
		return w.operand(v), precPrimary
	}
	op, ts, ss, _ := fusableCall(v)
	w.ops++
	if !root {
		w.interior = append(w.interior, v)
	}
	name := ir.TensorCall(v)
	switch name {
	case "Add", "Sub", "Mul", "Div":
		prec := precAdd
		if op.Infix == "*" || op.Infix == "/" {
			prec = precMul
		}
		x, px := w.node(ts[0], false)
		y, py := w.node(ts[1], false)
		return binaryExpr(x, px, op.Infix, y, py, prec), prec
	case "Neg":
		x, px := w.node(ts[0], false)
		if px <= precUnary {
			x = "(" + x + ")"
		}
		return "-" + x, precUnary
	case "Scale", "ScalarDiv": // s*x, s/x
		s, ps := w.scalar(ss[0])
		x, px := w.node(ts[0], false)
		return binaryExpr(s, ps, op.Infix, x, px, precMul), precMul
	case "AddScalar": // x + s, or x - c for a negative constant c
		x, px := w.node(ts[0], false)
		if c, ok := floatConstOf(ss[0]); ok && c < 0 {
			return binaryExpr(x, px, "-", formatFloat(-c), precPrimary, precAdd), precAdd
		}
		s, ps := w.scalar(ss[0])
		return binaryExpr(x, px, "+", s, ps, precAdd), precAdd
	case "Affine": // s - x for Affine(x, -1, s)
		if c, ok := floatConstOf(ss[0]); ok && c == -1 {
			s, ps := w.scalar(ss[1])
			x, px := w.node(ts[0], false)
			return binaryExpr(s, ps, "-", x, px, precAdd), precAdd
		}
	}
	var args []string
	for _, t := range ts {
		x, _ := w.node(t, false)
		args = append(args, x)
	}
	for _, s := range ss {
		x, _ := w.scalar(s)
		args = append(args, x)
	}
	return name + "(" + strings.Join(args, ", ") + ")", precPrimary
}

// binaryExpr writes x op y for an operator of precedence prec, with the
// parentheses that keep the tree (the operators associate to the left,
// and no two operations are regrouped); an operand that starts with a
// minus on the right is parenthesized for the reader.
func binaryExpr(x string, px int, op, y string, py, prec int) string {
	if px < prec {
		x = "(" + x + ")"
	}
	if py <= prec || strings.HasPrefix(y, "-") {
		y = "(" + y + ")"
	}
	if prec == precAdd {
		return x + " " + op + " " + y
	}
	return x + op + y
}

// operand returns the letter of the operand v, a new one for a value not
// seen before.
func (w *exprWriter) operand(v *ir.Value) string {
	i := 0
	for i < len(w.operands) && w.operands[i] != v {
		i++
	}
	if i == len(w.operands) {
		w.operands = append(w.operands, v)
	}
	if i >= maxFuseOperands {
		return "?" // too many: the caller does not fuse
	}
	return string(rune('a' + i))
}

// scalar returns the expression of a float64 argument: a number for a
// constant, else an operand; and its precedence.
func (w *exprWriter) scalar(v *ir.Value) (string, int) {
	if c, ok := floatConstOf(v); ok {
		s := formatFloat(c)
		if c < 0 {
			return s, precUnary
		}
		return s, precPrimary
	}
	return w.operand(v), precPrimary
}

// floatConstOf returns the float64 value of a numeric constant v (the
// nearest, as the Go compiler converts a constant argument).
func floatConstOf(v *ir.Value) (float64, bool) {
	if v.Op != ir.OpConst {
		return 0, false
	}
	if v.Const == nil {
		return 0, true
	}
	switch v.Const.Kind() {
	case constant.Int, constant.Float:
		c, _ := constant.Float64Val(constant.ToFloat(v.Const))
		return c, true
	}
	return 0, false
}

// formatFloat writes c in the shortest form that parses back to c.
func formatFloat(c float64) string {
	return strconv.FormatFloat(c, 'g', -1, 64)
}
