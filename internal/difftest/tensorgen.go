package difftest

// This file defines the generator of tensor programs: functions of
// tensors of package tensorops, built from random compositions of its
// operations with the shapes tracked so that every program is well
// shaped. The calls and structures that users write around the
// operations (variadic calls, accumulators, helpers returning slices,
// structs of tensors and their methods) are in tensorcalls.go.

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
)

// Tensor modes: value (F runs and is finite), the derivatives, and
// float32 (the derivatives on float32 tensors against float64's). The
// jets with lanes (ModeTaylorLanes) and the HVPs with lanes
// (ModeHVPLanes) are along TensorLanes directions per call. The modes
// with nil tangents (TModeJVPNil, TModeTaylorNil) and the gradient into
// shadows that hold tensors (TModeGradAcc) are checks of the harness on
// the functions of jvp, taylor and grad, with no directive of their own.
const (
	TModeValue     = "value"
	TModeFloat32   = "float32"
	TModeJVPNil    = "jvpnil"    // the JVP with nil tangents against explicit zeros
	TModeTaylorNil = "taylornil" // the jet with nil coefficients against explicit zeros
	TModeGradAcc   = "gradacc"   // the gradient added into a shadow's tensors
	ModeHVPLanes   = "hvplanes"  // //gad:hvp lanes=L
	// ModeHVPStacked is //gad:hvp lanes=stacked of a function of one
	// varied tensor: TensorLanes directions in one tensor [L, …]. gadgen
	// refuses it, with the reason, where the function computes what
	// stacked directions cannot carry: its refusals are expected (it is
	// in no list of TensorSupported).
	ModeHVPStacked = "hvpstacked"
	TensorLanes    = 2
)

// TensorModes lists the modes of a tensor run's summary.
var TensorModes = []string{TModeValue, ModeJVP, TModeJVPNil, ModeGrad, TModeGradAcc, ModeTaylor, TModeTaylorNil, ModeTaylorLanes,
	ModeHVP, ModeHVPLanes, ModeHVPStacked, ModeHessian, ModeHessDiag, ModeLaplacian, TModeFloat32}

// harnessModes are the tensor modes that the harness checks on the
// functions of another mode: each maps to that mode.
var harnessModes = map[string]string{TModeJVPNil: ModeJVP, TModeTaylorNil: ModeTaylor, TModeGradAcc: ModeGrad}

// maxHessianSize bounds the size of the tensor whose Hessian, diagonal
// and Laplacian a tensor program gets (the harness checks them against
// as many HVPs).
const maxHessianSize = 16

// DefaultTensorWeights returns the weights of the tensor generator's
// constructs. "model" is the percentage of programs whose varied inputs
// are the fields of a struct Model; "model-ptr", "model-value",
// "recv-ptr" and "recv-value" weigh how F takes it (a *Model or a Model
// parameter, or a method of *Model or Model). The others weigh the
// operations of a step against each other; a weight of 0 switches a
// construct off.
func DefaultTensorWeights() Weights {
	return Weights{
		"model": 33, "model-ptr": 3, "model-value": 2, "recv-ptr": 2, "recv-value": 1,
		// Operations of package tensorops.
		"unary": 6, "binary": 4, "broadcast": 2, "matmul": 4, "transpose": 2, "reshape": 2, "reduce": 2,
		"softmax": 2, "slice": 2, "pad": 2, "concat": 2, "gather": 2, "conv": 2,
		// Helpers and loops.
		"helper": 2, "loop": 2,
		// What users write around them (tensorcalls.go).
		"concat-literal3": 1, "concat-spread-literal": 2, "concat-heads": 3, "helper-slice": 2,
		"variadic-helper": 2, "acc-nil": 2, "struct-layer": 2, "struct-stack": 2, "state-step": 2, "model-method": 3,
	}
}

// tparam is a parameter of a tensor program, or a field of its model.
type tparam struct {
	name string // "x", "w1", "m.W0"
	// kind is "tensor", "slice" (of tensors), "layers" (a slice of
	// Layer: shape is W's, B's is its columns), "float", "labels",
	// "fixed" (a tensor not varied), "model" or "modelval".
	kind   string
	shape  []int
	n      int     // length of a slice
	value  float64 // of a float
	varied bool
	recv   bool // a model: F's receiver
}

// tgen is the state of the generator of one tensor program.
type tgen struct {
	r *rand.Rand
	w Weights
	// entry is how F takes its model ("model-ptr", "model-value",
	// "recv-ptr", "recv-value"), "" for none.
	entry    string
	params   []*tparam // the function's parameters, model excluded
	fields   []*tparam // the model's fields
	lines    []string
	pool     []tval
	tmp      int
	names    map[string]int
	features map[string]bool
	// decls are the declarations of types, helpers and methods, in
	// order; declared maps a kind of helper to its name, for reuse.
	decls    []string
	declared map[string]string
	fparam   string // the float64 parameter, if any
	// scope is what the expression being generated may name: F's
	// parameters (scopeF), none (scopeHelper: a helper of its own
	// arguments), or the model's fields (scopeModel: a method or helper
	// of the model, whose receiver or parameter is m).
	scope int
}

const (
	scopeF = iota
	scopeHelper
	scopeModel
)

// tval is a tensor value of F's body: a variable and its shape, and the
// lines from..to (inclusive) that compute it.
type tval struct {
	expr     string
	shape    []int
	from, to int
}

func (g *tgen) intn(n int) int { return g.r.IntN(n) }

func (g *tgen) pick(xs ...string) string { return xs[g.intn(len(xs))] }

func (g *tgen) feature(fs ...string) {
	for _, f := range fs {
		g.features[f] = true
	}
}

// model reports whether F's varied inputs are a model's fields.
func (g *tgen) model() bool { return g.entry != "" }

// choose returns one of names, drawn by their weights; the first if all
// weigh 0.
func (g *tgen) choose(names ...string) string {
	total := 0
	for _, n := range names {
		total += g.w[n]
	}
	if total == 0 {
		return names[0]
	}
	k := g.intn(total)
	for _, n := range names {
		if k < g.w[n] {
			return n
		}
		k -= g.w[n]
	}
	panic("unreachable")
}

// name returns a fresh name with the prefix: "ps0", "ps1", ….
func (g *tgen) name(prefix string) string {
	n := g.names[prefix]
	g.names[prefix]++
	return fmt.Sprintf("%s%d", prefix, n)
}

// shapeSize returns the number of elements of a shape.
func shapeSize(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func dimsString(s []int) string {
	p := make([]string, len(s))
	for i, d := range s {
		p[i] = fmt.Sprint(d)
	}
	return strings.Join(p, ",")
}

// weight returns a varied tensor of the given shape: an existing one
// (sometimes) or a new parameter or model field. In a method or helper
// of the model, a field.
func (g *tgen) weight(shape []int) string {
	if g.scope == scopeHelper {
		panic("difftest: a weight in a helper")
	}
	var same []*tparam
	cands := g.fields
	if g.scope == scopeF {
		cands = append(slices.Clone(g.params), g.fields...)
	}
	for _, p := range cands {
		if p.kind == "tensor" && p.varied && slices.Equal(p.shape, shape) {
			same = append(same, p)
		}
	}
	if len(same) > 0 && g.intn(3) == 0 {
		return same[g.intn(len(same))].name
	}
	if g.model() {
		p := &tparam{name: fmt.Sprintf("m.W%d", len(g.fields)), kind: "tensor", shape: shape, varied: true}
		g.fields = append(g.fields, p)
		return p.name
	}
	p := &tparam{name: fmt.Sprintf("w%d", len(g.params)), kind: "tensor", shape: shape, varied: true}
	g.params = append(g.params, p)
	return p.name
}

// weights returns a field of the model holding n tensors of the shape.
func (g *tgen) weights(n int, shape []int) string {
	f := &tparam{name: fmt.Sprintf("m.Ws%d", len(g.fields)), kind: "slice", shape: shape, n: n, varied: true}
	g.fields = append(g.fields, f)
	return f.name
}

// layers returns a field of the model holding n Layers of weights W of
// the shape (2-D) and biases B of its columns.
func (g *tgen) layers(n int, shape []int) string {
	g.declType("Layer", "type Layer struct {\n\tW, B "+tt+"\n}")
	f := &tparam{name: fmt.Sprintf("m.Ls%d", len(g.fields)), kind: "layers", shape: shape, n: n, varied: true}
	g.fields = append(g.fields, f)
	return f.name
}

// scalar returns a float64 expression: a constant or the float
// parameter.
func (g *tgen) scalar() string {
	if g.scope == scopeF && g.intn(3) == 0 {
		if g.fparam == "" {
			g.fparam = "s"
			g.params = append(g.params, &tparam{name: "s", kind: "float", value: float64(g.intn(15)-7) / 10})
		}
		g.feature("float-param")
		return g.fparam
	}
	return fmt.Sprint(float64(g.intn(19)-9) / 8)
}

// line adds a statement to F's body.
func (g *tgen) line(format string, args ...any) {
	g.lines = append(g.lines, fmt.Sprintf(format, args...))
}

// assign adds t := expr with the given shape to the body and the pool.
func (g *tgen) assign(expr string, shape []int) tval {
	g.tmp++
	return g.assignTo(fmt.Sprintf("t%d", g.tmp), expr, shape, len(g.lines))
}

// assignTo adds name := expr to the body and the pool as a value
// computed by the lines from from on.
func (g *tgen) assignTo(name, expr string, shape []int, from int) tval {
	g.line("%s := %s", name, expr)
	return g.value(name, shape, from)
}

// value adds to the pool the variable name, computed by the lines from
// from to the last.
func (g *tgen) value(name string, shape []int, from int) tval {
	v := tval{name, shape, from, len(g.lines) - 1}
	g.pool = append(g.pool, v)
	return v
}

// other returns a value of the shape: one of the pool's or a weight.
func (g *tgen) other(shape []int, not string) string {
	var same []tval
	for _, v := range g.pool {
		if slices.Equal(v.shape, shape) && v.expr != not {
			same = append(same, v)
		}
	}
	if len(same) > 0 && g.intn(2) == 0 {
		return same[g.intn(len(same))].expr
	}
	return g.weight(shape)
}

const tp = "tensorops."

// tt is the type of a tensor in the programs.
const tt = "*tensorops.Tensor"

// plainUnary are the elementwise functions that unaryExpr applies to
// any value, by its draw: construct and name.
var plainUnary = map[int][2]string{0: {"tanh", "Tanh"}, 1: {"sigmoid", "Sigmoid"}, 2: {"sin", "Sin"},
	6: {"relu", "ReLU"}, 7: {"neg", "Neg"}, 10: {"cos", "Cos"}, 11: {"tanh", "Tanh"},
	12: {"gelu", "GELU"}, 13: {"silu", "SiLU"}, 14: {"softplus", "Softplus"}, 15: {"erf", "Erf"}}

// unaryExpr returns an elementwise function of a, bounded where it must
// be.
func (g *tgen) unaryExpr(a string) string {
	k := g.intn(16)
	if f, ok := plainUnary[k]; ok {
		g.feature(f[0])
		return tp + f[1] + "(" + a + ")"
	}
	switch k {
	case 3:
		g.feature("square")
		return tp + "Scale(" + tp + "Square(" + a + "), 0.5)"
	case 4:
		g.feature("exp")
		return tp + "Exp(" + tp + g.pick("Tanh", "Sin", "Sigmoid") + "(" + a + "))"
	case 5:
		g.feature("log")
		if g.intn(2) == 0 {
			return tp + "Log(" + tp + "AddScalar(" + tp + "Square(" + a + "), 1))"
		}
		return tp + "Log(" + tp + "Sigmoid(" + a + "))"
	case 8:
		g.feature("scale")
		return tp + "Scale(" + a + ", " + g.scalar() + ")"
	default:
		g.feature("addscalar")
		return tp + "AddScalar(" + a + ", " + g.scalar() + ")"
	}
}

// binaryExpr returns an elementwise function of a and b (b broadcasts
// to a).
func (g *tgen) binaryExpr(a, b string) string {
	switch g.intn(4) {
	case 0:
		return tp + "Add(" + a + ", " + b + ")"
	case 1:
		return tp + "Sub(" + a + ", " + b + ")"
	case 2:
		return tp + "Mul(" + a + ", " + b + ")"
	default:
		g.feature("div")
		return tp + "Div(" + a + ", " + tp + "AddScalar(" + tp + "Square(" + b + "), 1))"
	}
}

// inScope runs f with the scope set to s.
func (g *tgen) inScope(s int, f func()) {
	old := g.scope
	g.scope = s
	defer func() { g.scope = old }()
	f()
}

// declare adds a declaration of the program.
func (g *tgen) declare(format string, args ...any) {
	g.decls = append(g.decls, fmt.Sprintf(format, args...))
}

// helper declares an elementwise helper function of two tensors (any
// shape, the same) and returns its name.
func (g *tgen) helper() string {
	if n := g.names["h"]; n > 0 && g.intn(2) == 0 {
		return fmt.Sprintf("h%d", g.intn(n))
	}
	name := g.name("h")
	var body []string
	g.inScope(scopeHelper, func() {
		body = []string{"u := " + g.binaryExpr(g.unaryExpr("a"), "b")}
		switch g.intn(3) {
		case 0:
			body = append(body, "return "+g.unaryExpr("u"))
		case 1:
			body = append(body, "return "+tp+"Add(u, "+tp+"Scale(a, 0.5))")
		default:
			body = append(body, "return u")
		}
	})
	g.declare("func %s(a, b %s) %s {\n\t%s\n}", name, tt, tt, strings.Join(body, "\n\t"))
	return name
}

// dim returns a random size.
func (g *tgen) dim() int { return 2 + g.intn(3) }

// axes returns the axes of s of at most n elements.
func axes(s []int, n int) []int {
	var out []int
	for ax, d := range s {
		if d <= n {
			out = append(out, ax)
		}
	}
	return out
}

// step applies one random operation to a value of the pool and returns
// the result.
func (g *tgen) step(a tval) tval {
	s := a.shape
	ops := []string{"unary", "binary", "reshape", "softmax", "gather", "helper", "helper-slice", "variadic-helper", "acc-nil"}
	if len(s) == 2 {
		ops = append(ops, "broadcast", "matmul", "transpose", "reduce", "loop", "conv", "struct-layer", "struct-stack", "state-step")
		if g.model() {
			ops = append(ops, "model-method")
		}
	}
	if slices.Max(s) >= 2 {
		ops = append(ops, "slice")
		if len(s) == 2 {
			ops = append(ops, "concat-heads")
		}
	}
	if len(axes(s, 4)) > 0 {
		ops = append(ops, "pad", "concat", "concat-literal3", "concat-spread-literal")
	}
	switch op := g.choose(ops...); op {
	case "unary":
		return g.assign(g.unaryExpr(a.expr), s)
	case "binary":
		g.feature("binary")
		return g.assign(g.binaryExpr(a.expr, g.other(s, a.expr)), s)
	case "broadcast":
		g.feature("broadcast")
		return g.assign(g.binaryExpr(a.expr, g.other(s[1:], "")), s)
	case "matmul":
		k := g.dim()
		switch g.intn(4) {
		case 0:
			g.feature("matmul")
			return g.assign(fmt.Sprintf("%sMatMul(%s, %s)", tp, a.expr, g.other([]int{s[1], k}, "")), []int{s[0], k})
		case 1:
			g.feature("matmul")
			return g.assign(fmt.Sprintf("%sMatMul(%s, %s)", tp, g.other([]int{k, s[0]}, ""), a.expr), []int{k, s[1]})
		case 2:
			g.feature("matmulT")
			return g.assign(fmt.Sprintf("%sMatMulT(%s, %s, false, true)", tp, a.expr, g.other([]int{k, s[1]}, "")), []int{s[0], k})
		default:
			g.feature("matmulT")
			return g.assign(fmt.Sprintf("%sMatMulT(%s, %s, true, false)", tp, a.expr, g.other([]int{s[0], k}, "")), []int{s[1], k})
		}
	case "transpose":
		g.feature("transpose")
		return g.assign(tp+"Transpose("+a.expr+")", []int{s[1], s[0]})
	case "reshape":
		g.feature("reshape")
		if len(s) == 2 {
			if g.intn(2) == 0 {
				return g.assign(fmt.Sprintf("%sReshape(%s, -1)", tp, a.expr), []int{s[0] * s[1]})
			}
			return g.assign(fmt.Sprintf("%sReshape(%s, %d, %d)", tp, a.expr, s[1], s[0]), []int{s[1], s[0]})
		}
		n := s[0]
		for _, d := range []int{2, 3} {
			if n%d == 0 && n > d {
				return g.assign(fmt.Sprintf("%sReshape(%s, %d, -1)", tp, a.expr, d), []int{d, n / d})
			}
		}
		return g.assign(fmt.Sprintf("%sReshape(%s, 1, %d)", tp, a.expr, n), []int{1, n})
	case "reduce":
		ax := g.intn(2)
		rest := []int{s[1-ax]}
		switch g.intn(4) {
		case 0:
			g.feature("sum")
			return g.assign(fmt.Sprintf("%sSum(%s, %d)", tp, a.expr, ax), rest)
		case 1:
			g.feature("mean")
			return g.assign(fmt.Sprintf("%sMean(%s, %d)", tp, a.expr, ax), rest)
		case 2:
			g.feature("max")
			return g.assign(fmt.Sprintf("%sMax(%s, %d)", tp, a.expr, ax), rest)
		default:
			g.feature("logsumexp")
			return g.assign(fmt.Sprintf("%sLogSumExp(%s, %d)", tp, a.expr, ax), rest)
		}
	case "softmax":
		ax := g.intn(len(s))
		if g.intn(2) == 0 {
			g.feature("softmax")
			return g.assign(fmt.Sprintf("%sSoftmax(%s, %d)", tp, a.expr, ax), s)
		}
		g.feature("logsoftmax")
		return g.assign(fmt.Sprintf("%sLogSoftmax(%s, %d)", tp, a.expr, ax), s)
	case "slice":
		var ok []int
		for ax, d := range s {
			if d >= 2 {
				ok = append(ok, ax)
			}
		}
		ax := ok[g.intn(len(ok))]
		g.feature("slice")
		lo := g.intn(s[ax] - 1)
		hi := min(lo+1+g.intn(s[ax]-lo-1)+1, s[ax])
		t := slices.Clone(s)
		t[ax] = hi - lo
		return g.assign(fmt.Sprintf("%sSlice(%s, %d, %d, %d)", tp, a.expr, ax, lo, hi), t)
	case "pad":
		ok := axes(s, 4)
		ax := ok[g.intn(len(ok))]
		g.feature("pad")
		before, after := g.intn(2), 1+g.intn(2)
		if g.intn(2) == 0 {
			before, after = after, before
		}
		t := slices.Clone(s)
		t[ax] += before + after
		return g.assign(fmt.Sprintf("%sPad(%s, %d, %d, %d)", tp, a.expr, ax, before, after), t)
	case "concat", "concat-literal3", "concat-spread-literal":
		return g.concat(op, a)
	case "gather":
		ax := g.intn(len(s))
		idx := make([]string, 1+g.intn(4))
		for i := range idx {
			idx[i] = fmt.Sprint(g.intn(s[ax])) // repeats too: the adjoint adds them
		}
		t := slices.Clone(s)
		t[ax] = len(idx)
		ids := "[]int{" + strings.Join(idx, ", ") + "}"
		if ax == 0 && len(s) == 2 && g.intn(2) == 0 {
			g.feature("embedding")
			return g.assign(fmt.Sprintf("%sEmbedding(%s, %s)", tp, a.expr, ids), t)
		}
		g.feature("gather")
		return g.assign(fmt.Sprintf("%sGather(%s, %d, %s)", tp, a.expr, ax, ids), t)
	case "helper":
		g.feature("helper")
		h := g.helper()
		return g.assign(fmt.Sprintf("%s(%s, %s)", h, a.expr, g.other(s, a.expr)), s)
	default:
		return tsteps[op](g, a)
	}
}

// tsteps are the steps of more than one operation.
var tsteps = map[string]func(*tgen, tval) tval{
	"loop": (*tgen).loop, "concat-heads": (*tgen).heads, "helper-slice": (*tgen).helperSlice,
	"variadic-helper": (*tgen).variadic, "acc-nil": (*tgen).accNil, "struct-layer": (*tgen).layer,
	"state-step": (*tgen).stateStep, "model-method": (*tgen).modelMethod, "struct-stack": (*tgen).stack,
	"conv": (*tgen).conv,
}

// conv runs a convolutional block on a (2-D [r, c]) seen as an NCHW
// image [1, 1, r, c]: Conv2D (or Conv2DDilated) with co filters k×k of
// a weight, sometimes MaxPool2D or AvgPool2D, an activation, and the
// result reshaped back to 2-D, [co·oh, ow].
func (g *tgen) conv(a tval) tval {
	r, c := a.shape[0], a.shape[1]
	from := len(g.lines)
	g.feature("conv")
	co, pad, k, dil := 1+g.intn(2), g.intn(2), 1+g.intn(3), 1
	if k > 1 && g.intn(3) == 0 {
		dil = 2
	}
	if ke := dil*(k-1) + 1; ke > min(r, c)+2*pad {
		k, dil = 1, 1
	}
	ke := dil*(k-1) + 1
	oh, ow := r+2*pad-ke+1, c+2*pad-ke+1
	img := fmt.Sprintf("%sReshape(%s, 1, 1, %d, %d)", tp, a.expr, r, c)
	w := g.other([]int{co, 1, k, k}, "")
	cv := g.name("cv")
	if dil > 1 {
		g.feature("conv-dilated")
		g.line("%s := %sConv2DDilated(%s, %s, 1, %d, %d)", cv, tp, img, w, pad, dil)
	} else {
		g.line("%s := %sConv2D(%s, %s, 1, %d)", cv, tp, img, w, pad)
	}
	out := cv
	if oh >= 2 && ow >= 2 && g.intn(2) == 0 {
		stride, ppad := 1+g.intn(2), g.intn(2)
		pool := "MaxPool2D"
		if g.intn(2) == 0 {
			pool = "AvgPool2D"
		}
		g.feature(strings.ToLower(strings.TrimSuffix(pool, "2D")))
		out = fmt.Sprintf("%s%s(%s, 2, %d, %d)", tp, pool, cv, stride, ppad)
		oh, ow = (oh+2*ppad-2)/stride+1, (ow+2*ppad-2)/stride+1
	}
	g.tmp++
	return g.assignTo(fmt.Sprintf("t%d", g.tmp), fmt.Sprintf("%sReshape(%s, %d, %d)", tp, g.unaryExpr(out), co*oh, ow), []int{co * oh, ow}, from)
}

// loop adds a loop updating a copy of a and returns the result.
func (g *tgen) loop(a tval) tval {
	s := a.shape
	from := len(g.lines)
	g.tmp++
	h := fmt.Sprintf("t%d", g.tmp)
	g.line("%s := %s", h, a.expr)
	if g.model() && g.intn(2) == 0 {
		// A slice of weights in the model.
		ws := g.weights(1+g.intn(2), []int{s[1], s[1]})
		if g.intn(2) == 0 {
			g.feature("loop-range-weights")
			g.line("for _, w := range %s {\n\t%s = %s\n}", ws, h, g.unaryExpr(tp+"MatMul("+h+", w)"))
		} else {
			g.feature("loop-index-weights")
			g.line("for i := range %s {\n\t%s = %sAdd(%s, %s)\n}", ws, h, tp, h, g.unaryExpr(tp+"MatMul("+h+", "+ws+"[i])"))
		}
		return g.value(h, s, from)
	}
	g.feature("loop-const")
	k := 2 + g.intn(2)
	g.line("for i := 0; i < %d; i++ {\n\t%s = %sAdd(%s, %sScale(%s, 0.5))\n}", k, h, tp, h, tp, g.unaryExpr(h))
	return g.value(h, s, from)
}

// final returns a float64 term of a value.
func (g *tgen) final(a tval) string {
	switch g.intn(7) {
	case 0, 1:
		g.feature("sumall")
		return tp + "SumAll(" + a.expr + ")"
	case 2:
		g.feature("meanall")
		return tp + "MeanAll(" + a.expr + ")"
	case 3:
		g.feature("dot")
		return tp + "Dot(" + a.expr + ", " + g.other(a.shape, "") + ")"
	case 4:
		g.feature("maxall")
		return tp + "MaxAll(" + a.expr + ")"
	default:
		if len(a.shape) != 2 {
			return tp + "SumAll(" + a.expr + ")"
		}
		g.feature("softmax-cross-entropy")
		y := &tparam{name: fmt.Sprintf("y%d", len(g.params)), kind: "labels", shape: a.shape}
		g.params = append(g.params, y)
		return tp + "SoftmaxCrossEntropy(" + a.expr + ", " + y.name + ")"
	}
}

// GenerateTensor returns tensor program index of seed, with the default
// weights.
func GenerateTensor(seed uint64, index int) *Program {
	return GenerateTensorWith(seed, index, DefaultTensorWeights())
}

// GenerateTensorWith returns tensor program index of seed, with the
// weights w (see DefaultTensorWeights): the same program for the same
// arguments.
func GenerateTensorWith(seed uint64, index int, w Weights) *Program {
	g := &tgen{r: rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+0x5eed)), w: w,
		features: map[string]bool{}, names: map[string]int{}, declared: map[string]string{}}
	if g.intn(100) < w["model"] {
		g.entry = g.choose("model-ptr", "model-value", "recv-ptr", "recv-value")
		g.feature("model", g.entry)
	}
	xp := &tparam{name: "x", kind: "tensor", varied: !g.model()}
	if g.intn(5) == 0 {
		xp.shape = []int{g.dim() + 1}
	} else {
		xp.shape = []int{g.dim(), g.dim()}
	}
	if g.model() {
		xp.kind = "fixed"
	}
	g.params = append(g.params, xp)
	x := tval{"x", xp.shape, -1, -1}
	g.pool = append(g.pool, x)
	steps := 2 + g.intn(5)
	cur := x
	for range steps {
		// Mostly a chain, sometimes from an earlier value.
		a := cur
		if g.intn(4) == 0 {
			a = g.pool[g.intn(len(g.pool))]
		}
		cur = g.step(a)
	}
	ret := g.final(cur)
	if g.intn(3) == 0 {
		v := g.pool[1+g.intn(len(g.pool)-1)]
		ret += " + " + fmt.Sprint(float64(1+g.intn(7))/4) + "*" + g.final(v)
	}
	// Every value is used: the unused ones add to the result.
	for _, v := range g.pool[1:] {
		if !g.used(v, ret) {
			ret += " + 0.25*" + tp + "SumAll(" + v.expr + ")"
		}
	}
	if g.model() && len(g.fields) == 0 {
		// The model must have a field; x alone is not varied.
		ret += " + " + tp + "Dot(x, " + g.weight(x.shape) + ")"
	}
	return g.program(seed, index, ret)
}

// used reports whether a value is read outside the lines that compute
// it, or by the result ret.
func (g *tgen) used(v tval, ret string) bool {
	re := regexp.MustCompile(`\b` + v.expr + `\b`)
	if re.MatchString(ret) {
		return true
	}
	for i, l := range g.lines {
		if (i < v.from || i > v.to) && re.MatchString(l) {
			return true
		}
	}
	return false
}

// program writes the program of F returning ret.
func (g *tgen) program(seed uint64, index int, ret string) *Program {
	var sig, wrt, meta []string
	recv := ""
	if g.model() {
		kind, typ := "model", "*Model"
		if g.entry == "model-value" || g.entry == "recv-value" {
			kind, typ = "modelval", "Model"
		}
		wrt = append(wrt, "m")
		if strings.HasPrefix(g.entry, "recv-") {
			recv = "(m " + typ + ") "
			meta = append(meta, "//difftest:param m "+kind+" recv")
		} else {
			sig = append(sig, "m "+typ)
			meta = append(meta, "//difftest:param m "+kind)
		}
		for _, f := range g.fields {
			if f.kind == "slice" || f.kind == "layers" {
				meta = append(meta, fmt.Sprintf("//difftest:field %s %s %d %s", strings.TrimPrefix(f.name, "m."), f.kind, f.n, dimsString(f.shape)))
			} else {
				meta = append(meta, fmt.Sprintf("//difftest:field %s tensor %s", strings.TrimPrefix(f.name, "m."), dimsString(f.shape)))
			}
		}
	}
	nvaried, n := 0, 0 // the varied parameters, and θ's size
	for _, f := range g.fields {
		n += max(f.n, 1) * shapeSize(f.shape)
		if f.kind == "layers" {
			n += f.n * f.shape[1]
		}
	}
	for _, p := range g.params {
		switch p.kind {
		case "float":
			sig = append(sig, p.name+" float64")
			meta = append(meta, fmt.Sprintf("//difftest:param %s float %v", p.name, p.value))
		default:
			sig = append(sig, p.name+" "+tt)
			meta = append(meta, fmt.Sprintf("//difftest:param %s %s %s", p.name, p.kind, dimsString(p.shape)))
			if p.varied {
				wrt = append(wrt, p.name)
				nvaried++
				n += shapeSize(p.shape)
			}
		}
	}
	// The second-order helpers for one varied parameter, a tensor or
	// the model, the Hessian, its diagonal and the Laplacian (checked
	// against n HVPs) for n ≤ maxHessianSize.
	modes := []string{ModeJVP, ModeGrad, ModeTaylor, ModeTaylorLanes}
	if g.model() || nvaried == 1 {
		modes = append(modes, ModeHVP, ModeHVPLanes)
		if !g.model() {
			modes = append(modes, ModeHVPStacked)
		}
		if n <= maxHessianSize {
			modes = append(modes, ModeHessian, ModeHessDiag, ModeLaplacian)
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "// Tensor program %d of seed %d of difftest's tensor generator.\n\npackage p\n\nimport \"github.com/gadgen/gadgen/tensorops\"\n\n", index, seed)
	for _, m := range meta {
		b.WriteString(m + "\n")
	}
	b.WriteString("\n")
	if g.model() {
		b.WriteString("type Model struct {\n")
		for _, f := range g.fields {
			t := tt
			switch f.kind {
			case "slice":
				t = "[]" + tt
			case "layers":
				t = "[]Layer"
			}
			fmt.Fprintf(&b, "\t%s %s\n", strings.TrimPrefix(f.name, "m."), t)
		}
		b.WriteString("}\n\n")
	}
	for _, d := range g.decls {
		b.WriteString(d + "\n\n")
	}
	for _, m := range modes {
		dir, opt := m, ""
		switch m {
		case ModeTaylor:
			opt = " order=3"
		case ModeTaylorLanes:
			dir, opt = ModeTaylor, fmt.Sprintf(" order=3 lanes=%d", TensorLanes)
		case ModeHVPLanes:
			dir, opt = ModeHVP, fmt.Sprintf(" lanes=%d", TensorLanes)
		case ModeHVPStacked:
			dir, opt = ModeHVP, " lanes=stacked"
		}
		fmt.Fprintf(&b, "//gad:%s%s wrt=%s\n", dir, opt, strings.Join(wrt, ","))
	}
	fmt.Fprintf(&b, "func %sF(%s) float64 {\n", recv, strings.Join(sig, ", "))
	for _, l := range g.lines {
		b.WriteString("\t" + strings.ReplaceAll(l, "\n", "\n\t") + "\n")
	}
	fmt.Fprintf(&b, "\treturn %s\n}\n", ret)
	src, err := formatSource([]byte(b.String()))
	if err != nil {
		panic(fmt.Sprintf("difftest: tensor program %d of seed %d does not format: %v\n%s", index, seed, err, b.String()))
	}
	var feats []string
	for f := range g.features {
		feats = append(feats, f)
	}
	slices.Sort(feats)
	return &Program{Name: fmt.Sprintf("t%dp%d", seed, index), Src: src, Seed: seed, Index: index, Features: feats}
}
