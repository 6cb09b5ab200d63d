// This file defines what the optimizer may assume of the tensor runtime's
// functions beyond their rules: one TensorOp per function of package
// tensorops that package simplify rewrites, moves or reasons about, with
// the facts as fields. The facts are the runtime's (which arguments a
// function reads elementwise or by their shape alone, what its result's
// shape and memory are, which fused forms it has); what the passes do
// with them stays in package simplify. A test (tensorfacts_test.go) checks
// each entry against the function's signature, loaded from source.

package templates

// TensorOp states facts about one function of the tensor runtime. They
// are sound, not complete: a function without an entry, or a fact left
// out of one, only keeps the optimizer from a rewrite (GELU is elementwise
// but has no entry). Argument indices count the function's parameters
// from 0. TensorOps are shared and must not be modified.
type TensorOp struct {
	// Name is the function's name in package tensorops: "Add".
	Name string
	// Elementwise lists the tensor arguments in which the function is
	// elementwise: each element of the result is a function of their
	// elements at its index (broadcast, when there are two) and of the
	// Scalars alone, so the function commutes with permuting and with
	// slicing the axes. {0} for Exp and Scale(a, s), {1} for
	// ScalarDiv(s, a), {0, 1} for Add (which broadcasts) and TanhJVP (whose
	// operands have one shape).
	Elementwise []int
	// Scalars lists the float64 arguments of an elementwise function:
	// with Elementwise, all of its parameters.
	Scalars []int
	// Fuse says that tensorops.Fuse's expression language has the
	// function, an elementwise one, and computes it bit for bit as the
	// function's own kernel does. Infix is the operator by which the
	// language writes it ("+" for Add(a, b), a + b; "*" for Scale(a, s),
	// s * a), "" for a call of the function by its name.
	Fuse  bool
	Infix string
	// SliceThrough says that a slice of the result along an axis is the
	// function of its operands 0 and 1 each sliced by tensorops.SliceFor
	// with the other as the frame (kept whole along an axis it is
	// broadcast along): so are the elementwise functions of two tensors,
	// and ExpandLike(a, like), a broadcast to like's shape. Pow is one
	// too but unmarked: marking it would extend the final slice pushdown
	// (simplify.PushSlices) to it, a change of the optimizer's output to
	// make with tests of its own.
	SliceThrough bool
	// ShapeOf lists tensor arguments whose shape the result has.
	ShapeOf []int
	// ShapeOnly lists the tensor arguments of which the function reads
	// only the shape (and dtype), not the elements.
	ShapeOnly []int
	// NilIdentity says that for a nil operand (the zero tensor) the result
	// is another operand itself, whose shape may be smaller than the
	// result's would be: Add(nil, b) is b, however a broadcasts. Two
	// calls with operands of one shape need not give one shape.
	NilIdentity bool
	// NilLike lists the tensor arguments where nil stands for the zero
	// tensor of another argument's shape (SliceBroadcast's other, for
	// which nil means zeros of a's shape): the result depends on which
	// value is there, not only on its shape.
	NilLike []int
	// Fresh says that the result is nil or a tensor whose memory nothing
	// else shares: a new buffer, or a view of a new buffer that only the
	// result holds (a product's vector operand).
	Fresh bool
	// PassThrough lists the arguments that the result may be, when it is
	// not a fresh tensor or nil: SumLike(g, like) is g when g has like's
	// shape. The result is fresh when those arguments are and nothing else
	// reads them.
	PassThrough []int
	// Aliases lists the arguments whose memory the result may share
	// (itself, or a view of it). With Fresh (FuseInto), the result is
	// fresh given that those arguments are buffers that the call alone
	// reads. The result of a function with none of Fresh, PassThrough and
	// Aliases may share any argument's memory.
	Aliases []int
	// ReadOnly says that the function writes no tensor's elements. The
	// functions with rules are pure; this marks the runtime's other forms
	// that the optimizer inserts (Fuse, SliceFor, …).
	ReadOnly bool
	// Accumulate names the runtime's fused form AccumulateF(dst, args…)
	// of the function F, which adds F(args…) into dst's buffer and
	// returns dst, as Accumulate(dst, F(args…)) does, without the
	// intermediate tensor: a GEMM's β = 1.
	Accumulate string
}

// unaryElementwise returns the facts of a function of package tensorops
// elementwise in its single tensor argument, the first, into a new
// buffer: in Fuse's language when fuse is set, written infix when infix
// is not "".
func unaryElementwise(name string, fuse bool, infix string, scalars ...int) *TensorOp {
	return &TensorOp{Name: name, Elementwise: []int{0}, Scalars: scalars, Fuse: fuse, Infix: infix,
		ShapeOf: []int{0}, Fresh: true}
}

// binaryElementwise returns the facts of a function of package tensorops
// elementwise in its two tensor arguments into a new buffer, in Fuse's
// language (written infix when infix is not ""), whose result has the
// shape of the arguments shapeOf.
func binaryElementwise(name, infix string, shapeOf ...int) *TensorOp {
	return &TensorOp{Name: name, Elementwise: []int{0, 1}, Fuse: true, Infix: infix, SliceThrough: true,
		ShapeOf: shapeOf, Fresh: true}
}

// tensorOps are the facts about the functions of package tensorops, one
// entry each; tensorOpByName indexes them by name.
var tensorOps = []*TensorOp{
	// Unary elementwise math, r[i] = f(a[i]).
	unaryElementwise("Neg", true, "-"),
	unaryElementwise("Exp", true, ""),
	unaryElementwise("Log", true, ""),
	unaryElementwise("Tanh", true, ""),
	unaryElementwise("Sigmoid", true, ""),
	unaryElementwise("ReLU", true, ""),
	unaryElementwise("Sqrt", true, ""),
	unaryElementwise("Abs", true, ""),
	unaryElementwise("Square", true, ""),
	unaryElementwise("Sin", true, ""),
	unaryElementwise("Cos", true, ""),
	unaryElementwise("Sign", true, ""),
	unaryElementwise("Step", true, ""),
	unaryElementwise("Log1p", true, ""),
	unaryElementwise("Expm1", true, ""),
	// A tensor and float64s: s·a[i], a[i] + s, scale·a[i] + shift.
	unaryElementwise("Scale", true, "*", 1),
	unaryElementwise("AddScalar", true, "+", 1),
	unaryElementwise("Affine", true, "", 1, 2),
	// a[i]^p: not in Fuse's language, as its kernel computes a² as a·a
	// on contiguous operands and by math.Pow on strided ones.
	unaryElementwise("PowScalar", false, "", 1),
	// s / a[i], the tensor second.
	{Name: "ScalarDiv", Elementwise: []int{1}, Scalars: []int{0}, Fuse: true, Infix: "/", ShapeOf: []int{1}, Fresh: true},

	// Binary elementwise math, broadcasting.
	binaryElementwise("Mul", "*"),
	binaryElementwise("Div", "/"),
	binaryElementwise("Maximum", ""),
	binaryElementwise("Minimum", ""),
	// Pow: see TensorOp.SliceThrough.
	{Name: "Pow", Elementwise: []int{0, 1}, Fuse: true, Fresh: true},
	// Add(nil, b) is b and Add(a, nil) a, Sub(a, nil) is a (Sub(nil, b)
	// is −b, a new buffer): not fresh, and of an operand's shape for a
	// nil one.
	{Name: "Add", Elementwise: []int{0, 1}, Fuse: true, Infix: "+", SliceThrough: true, PassThrough: []int{0, 1}, NilIdentity: true},
	{Name: "Sub", Elementwise: []int{0, 1}, Fuse: true, Infix: "-", SliceThrough: true, PassThrough: []int{0}, NilIdentity: true},
	// The fused derivatives of the activations, of two operands of one
	// shape: dx(1 − y²), dx·y(1 − y), dx where x > 0.
	binaryElementwise("TanhJVP", "", 0),
	binaryElementwise("SigmoidJVP", "", 0),
	binaryElementwise("ReLUJVP", "", 0),

	// Products, into a new buffer (a view of one for a vector operand).
	// The gradients of MatMulT have the shape of the operand they are the
	// adjoint of, and fused forms that add into a gradient buffer.
	{Name: "MatMul", Fresh: true},
	{Name: "MatMulT", Fresh: true},
	{Name: "MatMulGradA", ShapeOf: []int{1}, Fresh: true, Accumulate: "AccumulateMatMulGradA"},
	{Name: "MatMulGradB", ShapeOf: []int{2}, Fresh: true, Accumulate: "AccumulateMatMulGradB"},
	// The in-place accumulations (inplace.go) write into dst and return
	// it, or (a copy of) the addend for a nil dst.
	{Name: "Accumulate", Aliases: []int{0}, NilIdentity: true},
	{Name: "AccumulateMatMulGradA", Aliases: []int{0}, NilIdentity: true},
	{Name: "AccumulateMatMulGradB", Aliases: []int{0}, NilIdentity: true},
	{Name: "AccumulateSumLike", ShapeOnly: []int{2}, Aliases: []int{0}, NilIdentity: true},

	// Shapes: views of their operand, or of another's shape.
	{Name: "Reshape", Aliases: []int{0}},
	{Name: "Unsqueeze", Aliases: []int{0}},
	{Name: "Squeeze", Aliases: []int{0}},
	{Name: "ReshapeLike", ShapeOf: []int{1}, ShapeOnly: []int{1}, Aliases: []int{0}},
	{Name: "BroadcastLike", ShapeOf: []int{1}, ShapeOnly: []int{1}, Aliases: []int{0}},
	// OrZerosLike(t, like) is t, or zeros of like's shape for a nil t.
	{Name: "OrZerosLike", ShapeOf: []int{1}, Aliases: []int{0}},
	// SumLike(g, like) and ExpandLike(a, like) are their first operand
	// when it has like's shape already, else a new tensor of like's
	// shape; ExpandLike is a broadcast, sliced through.
	{Name: "SumLike", ShapeOf: []int{1}, ShapeOnly: []int{1}, PassThrough: []int{0}, Accumulate: "AccumulateSumLike"},
	{Name: "ExpandLike", SliceThrough: true, ShapeOf: []int{1}, ShapeOnly: []int{1}, PassThrough: []int{0}},
	{Name: "AsTypeLike", ShapeOf: []int{1}},
	{Name: "ExpandAxis", ShapeOf: []int{1}},
	{Name: "SliceGrad", ShapeOf: []int{1}},
	{Name: "SliceLike", ShapeOf: []int{1}},
	// SliceBroadcast(a, other, …) slices a as an operand of an
	// elementwise operation with other; a nil other is zeros of a's shape
	// (so a is sliced). SliceBroadcastGrad(g, a, other, …) places g back
	// in zeros of a's shape.
	{Name: "SliceBroadcast", NilLike: []int{1}},
	{Name: "SliceBroadcastGrad", ShapeOf: []int{1}, NilLike: []int{2}},

	// Tensors of an operand's shape made from its shape: a constant, a
	// basis vector.
	{Name: "FullLike", ShapeOf: []int{0}, ShapeOnly: []int{0}},
	{Name: "ZerosLike", ShapeOf: []int{0}, ShapeOnly: []int{0}},
	{Name: "Basis", ShapeOf: []int{0}},
	// Sizes.
	{Name: "Size", ShapeOnly: []int{0}},
	{Name: "Dim", ShapeOnly: []int{0}},

	// Reductions' adjoints, of the shape of the operand reduced.
	{Name: "MeanGrad", ShapeOf: []int{1}},
	{Name: "MeanAllGrad", ShapeOf: []int{0}},
	{Name: "MaxGrad", ShapeOf: []int{0}},
	{Name: "MaxAllGrad", ShapeOf: []int{0}},
	// Softmax and its relatives, along an axis of their first operand.
	{Name: "Softmax", ShapeOf: []int{0}},
	{Name: "LogSoftmax", ShapeOf: []int{0}},
	{Name: "SoftmaxJVP", ShapeOf: []int{0}},
	{Name: "LogSoftmaxJVP", ShapeOf: []int{0}},
	{Name: "LogSoftmaxVJP", ShapeOf: []int{0}},
	{Name: "SoftmaxCrossEntropyGrad", ShapeOf: []int{0}},
	// Convolutions' adjoints, of the shape of x and w.
	{Name: "Conv2DGradX", ShapeOf: []int{1}},
	{Name: "Conv2DGradW", ShapeOf: []int{2}},
	// Products by a diagonal: diag(v)·a, a·diag(v).
	{Name: "ScaleRows", ShapeOf: []int{1}},
	{Name: "ScaleCols", ShapeOf: []int{0}},

	// The forms that the final passes insert, which are not primitives.
	// Fuse evaluates an elementwise expression into a new buffer (a copy
	// of an operand it would return); FuseInto into dst's buffer when it
	// fits, else a new one: it counts as fresh, dst being a buffer that
	// only it reads (simplify.ReuseBuffers). (A Gram matrix is marked
	// symmetric; FuseInto clears the mark of the buffer it writes.)
	{Name: "Fuse", Fresh: true, ReadOnly: true},
	{Name: "FuseInto", Fresh: true, Aliases: []int{0}},
	{Name: "Gram", Fresh: true, ReadOnly: true},
	{Name: "MatMulEach", ReadOnly: true},
	{Name: "MatMulGradAEach", ReadOnly: true},
	{Name: "SliceFor", ReadOnly: true},
	{Name: "MatMulSlice", ReadOnly: true},
	{Name: "MatMulShape", ReadOnly: true},
}

var tensorOpByName = indexTensorOps(tensorOps)

// indexTensorOps maps the name of each TensorOp to it; it panics on a
// duplicate.
func indexTensorOps(ops []*TensorOp) map[string]*TensorOp {
	m := make(map[string]*TensorOp, len(ops))
	for _, op := range ops {
		if m[op.Name] != nil {
			panic("templates: duplicate TensorOp " + op.Name)
		}
		m[op.Name] = op
	}
	return m
}

// noFacts is the TensorOp of a function without an entry.
var noFacts = &TensorOp{}

// TensorOpOf returns the facts about the function name of package
// tensorops: its entry, or a TensorOp with no facts (only the zero
// values) when it has none, never nil.
func TensorOpOf(name string) *TensorOp {
	if op := tensorOpByName[name]; op != nil {
		return op
	}
	return noFacts
}
