package difftest

// This file defines the generator of tensor programs: functions of
// tensors of package tensorops, built from random compositions of its
// operations with the shapes tracked so that every program is well
// shaped.

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
// (ModeHVPLanes) are along TensorLanes directions per call.
const (
	TModeValue   = "value"
	TModeFloat32 = "float32"
	ModeHVPLanes = "hvplanes" // //gad:hvp lanes=L
	TensorLanes  = 2
)

// TensorModes lists the modes of a tensor run's summary.
var TensorModes = []string{TModeValue, ModeJVP, ModeGrad, ModeTaylor, ModeTaylorLanes, ModeHVP, ModeHVPLanes, ModeHessian, TModeFloat32}

// maxHessianSize bounds the size of the tensor whose Hessian a tensor
// program gets (the harness checks its rows against as many HVPs).
const maxHessianSize = 16

// tparam is a parameter of a tensor program, or a field of its model.
type tparam struct {
	name   string // "x", "w1", "m.W0"
	kind   string // "tensor", "slice" (of tensors), "float", "labels", "fixed" (a tensor not varied)
	shape  []int
	n      int     // length of a slice
	value  float64 // of a float
	varied bool
}

// tgen is the state of the generator of one tensor program.
type tgen struct {
	r        *rand.Rand
	model    bool
	params   []*tparam // the function's parameters, model excluded
	fields   []*tparam // the model's fields
	lines    []string
	pool     []tval
	tmp      int
	features map[string]bool
	// firstOrder: an operation that Taylor mode expands to order 1 only.
	firstOrder bool
	helpers    []string
	fparam     string // the float64 parameter, if any
	inHelper   bool   // generating a helper: no parameter of F in scope
}

// tval is a tensor value of the body: an expression (a variable's name)
// and its shape.
type tval struct {
	expr  string
	shape []int
}

func (g *tgen) intn(n int) int { return g.r.IntN(n) }

func (g *tgen) pick(xs ...string) string { return xs[g.intn(len(xs))] }

func (g *tgen) feature(f string) { g.features[f] = true }

func dimsString(s []int) string {
	p := make([]string, len(s))
	for i, d := range s {
		p[i] = fmt.Sprint(d)
	}
	return strings.Join(p, ",")
}

// weight returns a varied tensor of the given shape: an existing one
// (sometimes) or a new parameter or model field.
func (g *tgen) weight(shape []int) string {
	var same []*tparam
	for _, p := range append(slices.Clone(g.params), g.fields...) {
		if p.kind == "tensor" && p.varied && slices.Equal(p.shape, shape) {
			same = append(same, p)
		}
	}
	if len(same) > 0 && g.intn(3) == 0 {
		return same[g.intn(len(same))].name
	}
	if g.model {
		p := &tparam{name: fmt.Sprintf("m.W%d", len(g.fields)), kind: "tensor", shape: shape, varied: true}
		g.fields = append(g.fields, p)
		return p.name
	}
	p := &tparam{name: fmt.Sprintf("w%d", len(g.params)), kind: "tensor", shape: shape, varied: true}
	g.params = append(g.params, p)
	return p.name
}

// scalar returns a float64 expression: a constant or the float
// parameter.
func (g *tgen) scalar() string {
	if !g.inHelper && g.intn(3) == 0 {
		if g.fparam == "" {
			g.fparam = "s"
			g.params = append(g.params, &tparam{name: "s", kind: "float", value: float64(g.intn(15)-7) / 10})
		}
		g.feature("float-param")
		return g.fparam
	}
	return fmt.Sprint(float64(g.intn(19)-9) / 8)
}

// assign adds t := expr with the given shape to the body and the pool.
func (g *tgen) assign(expr string, shape []int) tval {
	g.tmp++
	v := tval{fmt.Sprintf("t%d", g.tmp), shape}
	g.lines = append(g.lines, fmt.Sprintf("%s := %s", v.expr, expr))
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

// unaryExpr returns an elementwise function of a, bounded where it must
// be.
func (g *tgen) unaryExpr(a string) string {
	switch g.intn(12) {
	case 0:
		g.feature("tanh")
		return tp + "Tanh(" + a + ")"
	case 1:
		g.feature("sigmoid")
		return tp + "Sigmoid(" + a + ")"
	case 2:
		g.feature("sin")
		return tp + "Sin(" + a + ")"
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
	case 6:
		g.feature("relu")
		return tp + "ReLU(" + a + ")"
	case 7:
		g.feature("neg")
		return tp + "Neg(" + a + ")"
	case 8:
		g.feature("scale")
		return tp + "Scale(" + a + ", " + g.scalar() + ")"
	case 9:
		g.feature("addscalar")
		return tp + "AddScalar(" + a + ", " + g.scalar() + ")"
	case 10:
		g.feature("cos")
		return tp + "Cos(" + a + ")"
	default:
		g.feature("tanh")
		return tp + "Tanh(" + a + ")"
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

// helper declares an elementwise helper function of two tensors (any
// shape, the same) and returns its name.
func (g *tgen) helper() string {
	if len(g.helpers) > 0 && g.intn(2) == 0 {
		return fmt.Sprintf("h%d", g.intn(len(g.helpers)))
	}
	name := fmt.Sprintf("h%d", len(g.helpers))
	g.inHelper = true
	defer func() { g.inHelper = false }()
	body := []string{"u := " + g.binaryExpr(g.unaryExpr("a"), "b")}
	switch g.intn(3) {
	case 0:
		body = append(body, "return "+g.unaryExpr("u"))
	case 1:
		body = append(body, "return "+tp+"Add(u, "+tp+"Scale(a, 0.5))")
	default:
		body = append(body, "return u")
	}
	g.helpers = append(g.helpers, fmt.Sprintf("func %s(a, b *tensorops.Tensor) *tensorops.Tensor {\n\t%s\n}", name, strings.Join(body, "\n\t")))
	return name
}

// dim returns a random size.
func (g *tgen) dim() int { return 2 + g.intn(3) }

// step applies one random operation to a value of the pool and returns
// the result.
func (g *tgen) step(a tval) tval {
	s := a.shape
	for {
		switch g.intn(17) {
		case 0, 1, 2:
			return g.assign(g.unaryExpr(a.expr), s)
		case 3, 4:
			g.feature("binary")
			return g.assign(g.binaryExpr(a.expr, g.other(s, a.expr)), s)
		case 5:
			if len(s) != 2 {
				continue
			}
			g.feature("broadcast")
			return g.assign(g.binaryExpr(a.expr, g.other(s[1:], "")), s)
		case 6, 7:
			if len(s) != 2 {
				continue
			}
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
		case 8:
			if len(s) != 2 {
				continue
			}
			g.feature("transpose")
			return g.assign(tp+"Transpose("+a.expr+")", []int{s[1], s[0]})
		case 9:
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
		case 10:
			if len(s) != 2 {
				continue
			}
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
				g.firstOrder = true
				return g.assign(fmt.Sprintf("%sLogSumExp(%s, %d)", tp, a.expr, ax), rest)
			}
		case 11:
			ax := g.intn(len(s))
			g.firstOrder = true
			if g.intn(2) == 0 {
				g.feature("softmax")
				return g.assign(fmt.Sprintf("%sSoftmax(%s, %d)", tp, a.expr, ax), s)
			}
			g.feature("logsoftmax")
			return g.assign(fmt.Sprintf("%sLogSoftmax(%s, %d)", tp, a.expr, ax), s)
		case 12:
			ax := g.intn(len(s))
			if s[ax] < 2 {
				continue
			}
			g.feature("slice")
			lo := g.intn(s[ax] - 1)
			hi := lo + 1 + g.intn(s[ax]-lo-1) + 1
			hi = min(hi, s[ax])
			t := slices.Clone(s)
			t[ax] = hi - lo
			return g.assign(fmt.Sprintf("%sSlice(%s, %d, %d, %d)", tp, a.expr, ax, lo, hi), t)
		case 13:
			ax := g.intn(len(s))
			if s[ax] > 4 {
				continue
			}
			g.feature("pad")
			before, after := g.intn(2), 1+g.intn(2)
			if g.intn(2) == 0 {
				before, after = after, before
			}
			t := slices.Clone(s)
			t[ax] += before + after
			return g.assign(fmt.Sprintf("%sPad(%s, %d, %d, %d)", tp, a.expr, ax, before, after), t)
		case 14:
			ax := g.intn(len(s))
			if s[ax] > 4 {
				continue
			}
			g.feature("concat")
			bs := slices.Clone(s)
			bs[ax] = 1 + g.intn(2)
			b := g.other(bs, a.expr)
			t := slices.Clone(s)
			t[ax] += bs[ax]
			if g.intn(2) == 0 {
				return g.assign(fmt.Sprintf("%sConcat(%d, %s, %s)", tp, ax, a.expr, b), t)
			}
			return g.assign(fmt.Sprintf("%sConcat(%d, %s, %s)", tp, ax, b, a.expr), t)
		case 15:
			g.feature("helper")
			h := g.helper()
			return g.assign(fmt.Sprintf("%s(%s, %s)", h, a.expr, g.other(s, a.expr)), s)
		default:
			if len(s) != 2 {
				continue
			}
			return g.loop(a)
		}
	}
}

// loop adds a loop updating a copy of a and returns the result.
func (g *tgen) loop(a tval) tval {
	s := a.shape
	h := g.assign(a.expr, s)
	if g.model && g.intn(2) == 0 {
		// A slice of weights in the model.
		n := 1 + g.intn(2)
		f := &tparam{name: fmt.Sprintf("m.Ws%d", len(g.fields)), kind: "slice", shape: []int{s[1], s[1]}, n: n, varied: true}
		g.fields = append(g.fields, f)
		if g.intn(2) == 0 {
			g.feature("loop-range-weights")
			g.lines = append(g.lines, fmt.Sprintf("for _, w := range %s {\n\t%s = %s\n}", f.name, h.expr,
				g.unaryExpr(tp+"MatMul("+h.expr+", w)")))
		} else {
			g.feature("loop-index-weights")
			g.lines = append(g.lines, fmt.Sprintf("for i := range %s {\n\t%s = %sAdd(%s, %s)\n}", f.name, h.expr, tp, h.expr,
				g.unaryExpr(tp+"MatMul("+h.expr+", "+f.name+"[i])")))
		}
		return h
	}
	g.feature("loop-const")
	k := 2 + g.intn(2)
	g.lines = append(g.lines, fmt.Sprintf("for i := 0; i < %d; i++ {\n\t%s = %sAdd(%s, %sScale(%s, 0.5))\n}", k, h.expr, tp, h.expr, tp,
		g.unaryExpr(h.expr)))
	return h
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
		g.firstOrder = true
		y := &tparam{name: fmt.Sprintf("y%d", len(g.params)), kind: "labels", shape: a.shape}
		g.params = append(g.params, y)
		return tp + "SoftmaxCrossEntropy(" + a.expr + ", " + y.name + ")"
	}
}

// GenerateTensor returns tensor program index of seed.
func GenerateTensor(seed uint64, index int) *Program {
	g := &tgen{r: rand.New(rand.NewPCG(seed, uint64(index)*0x9e3779b97f4a7c15+0x5eed)), features: map[string]bool{}}
	g.model = g.intn(3) == 0
	var x tval
	xp := &tparam{name: "x", kind: "tensor", varied: !g.model}
	if g.intn(5) == 0 {
		xp.shape = []int{g.dim() + 1}
	} else {
		xp.shape = []int{g.dim(), g.dim()}
	}
	if g.model {
		xp.kind = "fixed"
		g.feature("model")
	}
	g.params = append(g.params, xp)
	x = tval{"x", xp.shape}
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
	used := func(v string) bool {
		re := regexp.MustCompile(`\b` + v + `\b`)
		if re.MatchString(ret) {
			return true
		}
		for _, l := range g.lines {
			if _, rhs, ok := strings.Cut(l, " := "); ok && re.MatchString(rhs) {
				return true
			}
			if strings.HasPrefix(l, "for ") && re.MatchString(l) {
				return true
			}
		}
		return false
	}
	for _, v := range g.pool[1:] {
		if !used(v.expr) {
			ret += " + 0.25*" + tp + "SumAll(" + v.expr + ")"
		}
	}
	if g.model {
		// The model must have a field; x alone is not varied.
		if len(g.fields) == 0 {
			w := g.weight(x.shape)
			ret += " + " + tp + "Dot(x, " + w + ")"
		}
	}

	// The parameters, directives and metadata.
	var sig, wrt, meta []string
	if g.model {
		sig = append(sig, "m *Model")
		wrt = append(wrt, "m")
		meta = append(meta, "//difftest:param m model")
		for _, f := range g.fields {
			if f.kind == "slice" {
				meta = append(meta, fmt.Sprintf("//difftest:field %s slice %d %s", strings.TrimPrefix(f.name, "m."), f.n, dimsString(f.shape)))
			} else {
				meta = append(meta, fmt.Sprintf("//difftest:field %s tensor %s", strings.TrimPrefix(f.name, "m."), dimsString(f.shape)))
			}
		}
	}
	nvaried, hsize := 0, 0
	for _, p := range g.params {
		switch p.kind {
		case "float":
			sig = append(sig, p.name+" float64")
			meta = append(meta, fmt.Sprintf("//difftest:param %s float %v", p.name, p.value))
		default:
			sig = append(sig, p.name+" *tensorops.Tensor")
			meta = append(meta, fmt.Sprintf("//difftest:param %s %s %s", p.name, p.kind, dimsString(p.shape)))
			if p.varied {
				wrt = append(wrt, p.name)
				nvaried++
				hsize = 1
				for _, d := range p.shape {
					hsize *= d
				}
			}
		}
	}
	modes := []string{ModeJVP, ModeGrad}
	if !g.firstOrder {
		modes = append(modes, ModeTaylor, ModeTaylorLanes)
	}
	if !g.model && nvaried == 1 {
		modes = append(modes, ModeHVP, ModeHVPLanes)
		if hsize <= maxHessianSize {
			modes = append(modes, ModeHessian)
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "// Tensor program %d of seed %d of difftest's tensor generator.\n\npackage p\n\nimport \"github.com/gadgen/gadgen/tensorops\"\n\n", index, seed)
	for _, m := range meta {
		b.WriteString(m + "\n")
	}
	b.WriteString("\n")
	if g.model {
		b.WriteString("type Model struct {\n")
		for _, f := range g.fields {
			t := "*tensorops.Tensor"
			if f.kind == "slice" {
				t = "[]*tensorops.Tensor"
			}
			fmt.Fprintf(&b, "\t%s %s\n", strings.TrimPrefix(f.name, "m."), t)
		}
		b.WriteString("}\n\n")
	}
	for _, h := range g.helpers {
		b.WriteString(h + "\n\n")
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
		}
		fmt.Fprintf(&b, "//gad:%s%s wrt=%s\n", dir, opt, strings.Join(wrt, ","))
	}
	fmt.Fprintf(&b, "func F(%s) float64 {\n", strings.Join(sig, ", "))
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
