package difftest

// This file defines the constructs of the tensor generator that users
// write around tensorops' operations: variadic calls of Concat (literal
// arguments, a spread slice literal, a slice of heads built by append
// or by index in a loop, a slice returned by a helper), variadic helpers
// of their own called both ways, accumulators started from the nil
// tensor, helpers returning slices of tensors, structs of tensors passed
// by value and by pointer to helpers and methods, a state struct stepped
// in place, and methods and helpers of the model.

import (
	"fmt"
	"slices"
	"strings"
)

// concat returns Concat of a and one or two other values along an axis:
// the arguments written out ("concat", "concat-literal3") or spread from
// a slice literal, in a variable or not, or from a slice of the first
// that append grows by the others ("concat-spread-literal",
// "concat-spread-append").
func (g *tgen) concat(op string, a tval) tval {
	s := a.shape
	ok := axes(s, 4)
	ax := ok[g.intn(len(ok))]
	extra := 1
	switch op {
	case "concat-literal3":
		extra = 2
	case "concat-spread-literal":
		extra = 1 + g.intn(2)
	}
	t := slices.Clone(s)
	parts := []string{a.expr}
	for range extra {
		bs := slices.Clone(s)
		bs[ax] = 1 + g.intn(2)
		parts = append(parts, g.other(bs, a.expr))
		t[ax] += bs[ax]
	}
	g.r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	g.feature(op)
	from := len(g.lines)
	args := strings.Join(parts, ", ")
	if op == "concat-spread-literal" {
		lit := "[]" + tt + "{" + args + "}"
		switch g.intn(3) {
		case 0:
			ps := g.name("ps")
			g.line("%s := %s", ps, lit)
			args = ps + "..."
		case 1:
			args = lit + "..."
		default:
			// The first part, then the others appended (listed, or
			// spread from a second slice).
			g.feature("concat-spread-append")
			ps := g.name("ps")
			g.line("%s := []%s{%s}", ps, tt, parts[0])
			rest := strings.Join(parts[1:], ", ")
			if g.intn(2) == 0 {
				rest = "[]" + tt + "{" + rest + "}..."
			}
			g.line("%s = append(%s, %s)", ps, ps, rest)
			args = ps + "..."
		}
	}
	g.tmp++
	return g.assignTo(fmt.Sprintf("t%d", g.tmp), fmt.Sprintf("%sConcat(%d, %s)", tp, ax, args), t, from)
}

// heads splits a (2-D) into H heads along an axis, transforms each
// (through a weight shared by the heads or one of the model's per head,
// along axis 1), collects them in a slice in a loop and joins them with
// Concat(axis, parts...), as a multi-head attention block does:
//
//	var ps0 []*tensorops.Tensor
//	for h := range 2 {
//		ps0 = append(ps0, head0(x, h))
//	}
//	t3 := tensorops.Concat(1, ps0...)
//
// The head is written inline, as a closure or as a helper; the slice is
// grown by append or made of H elements and assigned by index.
func (g *tgen) heads(a tval) tval {
	s := a.shape
	var ok []int
	for ax, d := range s {
		if d >= 2 {
			ok = append(ok, ax)
		}
	}
	ax := ok[g.intn(len(ok))]
	if len(ok) == 2 && g.intn(2) == 0 {
		ax = 1 // the features, as attention splits them
	}
	d := s[ax]
	var hs []int
	for h := 2; h <= d; h++ {
		if d%h == 0 {
			hs = append(hs, h)
		}
	}
	H := hs[g.intn(len(hs))]
	k := d / H
	from := len(g.lines)
	g.feature("concat-heads")
	// The weights of the heads: none, one shared, or the model's, one
	// per head (wi is the weight of head h).
	w, wi := "", ""
	if ax == 1 {
		switch g.intn(4) {
		case 0:
		case 1:
			w = g.other([]int{k, k}, "")
			wi = w
			g.feature("heads-weight")
		default:
			if g.model() {
				w = g.weights(H, []int{k, k})
				wi = w + "[h]"
				g.feature("heads-weights")
			}
		}
	}
	headOf := func(aName, wName string) string {
		e := fmt.Sprintf("%sSlice(%s, %d, h*%d, (h+1)*%d)", tp, aName, ax, k, k)
		if wName != "" {
			e = tp + "MatMul(" + e + ", " + wName + ")"
		}
		return g.unaryExpr(e)
	}
	loop := fmt.Sprintf("for h := range %d", H)
	if g.intn(2) == 0 {
		loop = fmt.Sprintf("for h := 0; h < %d; h++", H)
	}
	var head string
	forms := 3
	if strings.HasSuffix(wi, "[h]") {
		forms = 4 // and the range over the model's weights
	}
	switch g.intn(forms) {
	case 3:
		g.feature("heads-inline", "heads-range-weights")
		loop = "for h, w := range " + w
		head = headOf(a.expr, "w")
	case 0:
		g.feature("heads-inline")
		head = headOf(a.expr, wi)
	case 1:
		g.feature("heads-closure")
		c := g.name("head")
		g.line("%s := func(h int) %s {\n\treturn %s\n}", c, tt, headOf(a.expr, wi))
		head = c + "(h)"
	default:
		g.feature("heads-helper")
		name := g.name("head")
		var body string
		if wi == "" {
			g.inScope(scopeHelper, func() { body = headOf("a", "") })
			g.declare("func %s(a %s, h int) %s {\n\treturn %s\n}", name, tt, tt, body)
			head = fmt.Sprintf("%s(%s, h)", name, a.expr)
		} else {
			g.inScope(scopeHelper, func() { body = headOf("a", "w") })
			g.declare("func %s(a, w %s, h int) %s {\n\treturn %s\n}", name, tt, tt, body)
			head = fmt.Sprintf("%s(%s, %s, h)", name, a.expr, wi)
		}
	}
	ps := g.name("ps")
	switch g.intn(3) {
	case 0:
		g.feature("parts-append")
		g.line("var %s []%s", ps, tt)
		g.line("%s {\n\t%s = append(%s, %s)\n}", loop, ps, ps, head)
	case 1:
		g.feature("parts-append")
		g.line("%s := make([]%s, 0, %d)", ps, tt, H)
		g.line("%s {\n\t%s = append(%s, %s)\n}", loop, ps, ps, head)
	default:
		g.feature("parts-index")
		g.line("%s := make([]%s, %d)", ps, tt, H)
		g.line("%s {\n\t%s[h] = %s\n}", loop, ps, head)
	}
	g.tmp++
	return g.assignTo(fmt.Sprintf("t%d", g.tmp), fmt.Sprintf("%sConcat(%d, %s...)", tp, ax, ps), s, from)
}

// reuse returns the helper declared for key, sometimes, or "".
func (g *tgen) reuse(key string) string {
	if name := g.declared[key]; name != "" && g.intn(2) == 0 {
		return name
	}
	return ""
}

// declType declares a type once.
func (g *tgen) declType(name, decl string) {
	if g.declared["type "+name] == "" {
		g.declared["type "+name] = name
		g.declare("%s", decl)
	}
}

// helperSlice calls a helper that returns a slice of tensors: the rows
// of a along an axis (split, grown by append in a loop over a.Dim) or
// two functions of a and another value (pair, a slice literal), and uses
// the slice: spread into Concat, ranged over into an accumulator started
// from nil, or indexed.
func (g *tgen) helperSlice(a tval) tval {
	s := a.shape
	from := len(g.lines)
	g.feature("helper-slice")
	var call string
	var part []int // the parts' shape
	n, ax := 2, 0  // their number, the axis of Concat
	whole := slices.Clone(s)
	if g.intn(2) == 0 {
		g.feature("helper-slice-split")
		ax = g.intn(len(s))
		key := fmt.Sprintf("split/%d", ax)
		name := g.reuse(key)
		if name == "" {
			name = g.name("split")
			var body string
			g.inScope(scopeHelper, func() { body = g.unaryExpr(fmt.Sprintf("%sSlice(a, %d, i, i+1)", tp, ax)) })
			g.declare("func %s(a %s) []%s {\n\tvar out []%s\n\tfor i := range a.Dim(%d) {\n\t\tout = append(out, %s)\n\t}\n\treturn out\n}",
				name, tt, tt, tt, ax, body)
			g.declared[key] = name
		}
		call = fmt.Sprintf("%s(%s)", name, a.expr)
		part = slices.Clone(s)
		part[ax] = 1
		n = s[ax]
	} else {
		g.feature("helper-slice-pair")
		name := g.reuse("pair")
		if name == "" {
			name = g.name("pair")
			var u, v string
			g.inScope(scopeHelper, func() { u, v = g.unaryExpr("a"), g.binaryExpr("a", "b") })
			g.declare("func %s(a, b %s) []%s {\n\treturn []%s{%s, %s}\n}", name, tt, tt, tt, u, v)
			g.declared["pair"] = name
		}
		call = fmt.Sprintf("%s(%s, %s)", name, a.expr, g.other(s, a.expr))
		part = s
		ax = g.intn(len(s))
		whole[ax] *= 2
	}
	ps := g.name("ps")
	switch g.intn(4) {
	case 0:
		g.feature("helper-slice-spread")
		g.tmp++
		return g.assignTo(fmt.Sprintf("t%d", g.tmp), fmt.Sprintf("%sConcat(%d, %s...)", tp, ax, call), whole, from)
	case 1:
		g.feature("helper-slice-spread")
		g.line("%s := %s", ps, call)
		g.tmp++
		return g.assignTo(fmt.Sprintf("t%d", g.tmp), fmt.Sprintf("%sConcat(%d, %s...)", tp, ax, ps), whole, from)
	case 2:
		g.feature("helper-slice-range", "acc-nil")
		acc := g.name("acc")
		g.line("%s := %s", ps, call)
		g.line("var %s %s", acc, tt)
		g.line("for _, p := range %s {\n\t%s = %sAdd(%s, p)\n}", ps, acc, tp, acc)
		return g.value(acc, part, from)
	default:
		g.feature("helper-slice-index")
		g.line("%s := %s", ps, call)
		g.tmp++
		return g.assignTo(fmt.Sprintf("t%d", g.tmp), fmt.Sprintf("%sMul(%s[0], %s[%d])", tp, ps, ps, n-1), part, from)
	}
}

// variadic calls a variadic helper of the program's own: a sum of
// functions of its arguments (with a nil-started accumulator), a
// Concat that forwards them (Concat(axis, ts...)), or a mix after a
// float and a first tensor. The variadic arguments are written out
// ("variadic-literal") or spread from a slice literal, in a variable or
// not ("variadic-spread").
func (g *tgen) variadic(a tval) tval {
	s := a.shape
	from := len(g.lines)
	g.feature("variadic-helper")
	kinds := []string{"sum", "mix"}
	if len(axes(s, 4)) > 0 {
		kinds = append(kinds, "cat")
	}
	var fixed, vars []string
	shape := s
	var name string
	switch kind := g.pick(kinds...); kind {
	case "sum":
		g.feature("variadic-sum", "acc-nil")
		if name = g.reuse("sum"); name == "" {
			name = g.name("sum")
			var u string
			g.inScope(scopeHelper, func() { u = g.unaryExpr("t") })
			g.declare("func %s(ts ...%s) %s {\n\tvar acc %s\n\tfor _, t := range ts {\n\t\tacc = %sAdd(acc, %s)\n\t}\n\treturn acc\n}",
				name, tt, tt, tt, tp, u)
			g.declared["sum"] = name
		}
		vars = []string{a.expr}
		for range g.intn(3) {
			vars = append(vars, g.other(s, a.expr))
		}
	case "mix":
		g.feature("variadic-mix")
		if name = g.reuse("mix"); name == "" {
			name = g.name("mix")
			var u string
			g.inScope(scopeHelper, func() { u = g.unaryExpr("first") })
			g.declare("func %s(c float64, first %s, rest ...%s) %s {\n\tout := %s\n\tfor i, t := range rest {\n\t\tout = %sAdd(out, %sScale(t, c*float64(i+1)))\n\t}\n\treturn out\n}",
				name, tt, tt, tt, u, tp, tp)
			g.declared["mix"] = name
		}
		fixed = []string{g.scalar(), a.expr}
		for range 1 + g.intn(2) {
			vars = append(vars, g.other(s, a.expr))
		}
	default:
		g.feature("variadic-cat")
		if name = g.reuse("cat"); name == "" {
			name = g.name("cat")
			g.declare("func %s(axis int, ts ...%s) %s {\n\treturn %sConcat(axis, ts...)\n}", name, tt, tt, tp)
			g.declared["cat"] = name
		}
		ok := axes(s, 4)
		ax := ok[g.intn(len(ok))]
		fixed = []string{fmt.Sprint(ax)}
		shape = slices.Clone(s)
		vars = []string{a.expr}
		for range 1 + g.intn(2) {
			bs := slices.Clone(s)
			bs[ax] = 1 + g.intn(2)
			vars = append(vars, g.other(bs, a.expr))
			shape[ax] += bs[ax]
		}
		g.r.Shuffle(len(vars), func(i, j int) { vars[i], vars[j] = vars[j], vars[i] })
	}
	args := append(fixed, vars...)
	if g.intn(2) == 0 {
		g.feature("variadic-literal")
	} else {
		g.feature("variadic-spread")
		lit := "[]" + tt + "{" + strings.Join(vars, ", ") + "}"
		if g.intn(2) == 0 {
			ps := g.name("ps")
			g.line("%s := %s", ps, lit)
			lit = ps
		}
		args = append(fixed, lit+"...")
	}
	g.tmp++
	return g.assignTo(fmt.Sprintf("t%d", g.tmp), fmt.Sprintf("%s(%s)", name, strings.Join(args, ", ")), shape, from)
}

// accNil sums terms into an accumulator declared nil (var acc
// *tensorops.Tensor), in a counted loop or over the model's slice of
// weights, by Add (either order), Sub or a test of nil.
func (g *tgen) accNil(a tval) tval {
	s := a.shape
	from := len(g.lines)
	acc := g.name("acc")
	g.feature("acc-nil")
	g.line("var %s %s", acc, tt)
	shape := s
	var loop, term string
	if g.model() && len(s) == 2 && g.intn(2) == 0 {
		g.feature("acc-nil-weights")
		k := g.dim()
		ws := g.weights(1+g.intn(2), []int{s[1], k})
		loop = "for _, w := range " + ws
		term = g.unaryExpr(tp + "MatMul(" + a.expr + ", w)")
		shape = []int{s[0], k}
	} else {
		k := 2 + g.intn(2)
		loop = fmt.Sprintf("for i := range %d", k)
		if g.intn(2) == 0 {
			loop = fmt.Sprintf("for i := 0; i < %d; i++", k)
		}
		term = tp + "Scale(" + g.unaryExpr(a.expr) + ", float64(i)+0.5)"
	}
	var upd string
	switch g.intn(4) {
	case 0:
		upd = fmt.Sprintf("%s = %sAdd(%s, %s)", acc, tp, acc, term)
	case 1:
		upd = fmt.Sprintf("%s = %sAdd(%s, %s)", acc, tp, term, acc)
	case 2:
		g.feature("acc-nil-sub")
		upd = fmt.Sprintf("%s = %sSub(%s, %s)", acc, tp, acc, term)
	default:
		g.feature("acc-nil-test")
		upd = fmt.Sprintf("u := %s\nif %s == nil {\n\t%s = u\n} else {\n\t%s = %sAdd(%s, u)\n}", term, acc, acc, acc, tp, acc)
	}
	g.line("%s {\n\t%s\n}", loop, strings.ReplaceAll(upd, "\n", "\n\t"))
	return g.value(acc, shape, from)
}

// layer applies a dense layer, a struct Layer of tensors (W, B), to a
// (2-D): by a helper taking it by value or by pointer, or by its method
// of a value or pointer receiver; the layer a local struct or pointer,
// or the elements of a slice of layers ranged over.
func (g *tgen) layer(a tval) tval {
	s := a.shape
	from := len(g.lines)
	form := g.structForm("Layer", "type Layer struct {\n\tW, B "+tt+"\n}", "struct-layer", "struct-")
	fn := g.structFn("Layer", form, "l", [4]string{"dense", "denseP", "apply", "applyP"}, func() string {
		return "return " + g.unaryExpr(tp+"Add("+tp+"MatMul(x, l.W), l.B)")
	})
	// apply returns the call of fn on layer l (ptr: a *Layer) and x.
	apply := func(l string, ptr bool, x string) string { return structCall(form, fn, l, ptr, x) }
	if g.intn(3) == 0 {
		// A slice of layers, ranged over: a local one, or the model's
		// field Ls of type []Layer.
		g.feature("struct-slice-range")
		d := s[1]
		var ls string
		if g.model() && g.intn(2) == 0 {
			g.feature("model-layers")
			ls = g.layers(1+g.intn(2), []int{d, d})
		} else {
			var elts []string
			for range 2 {
				elts = append(elts, fmt.Sprintf("{W: %s, B: %s}", g.other([]int{d, d}, ""), g.other([]int{d}, "")))
			}
			ls = g.name("ls")
			g.line("%s := []Layer{%s}", ls, strings.Join(elts, ", "))
		}
		g.tmp++
		h := fmt.Sprintf("t%d", g.tmp)
		g.line("%s := %s", h, a.expr)
		if g.intn(2) == 0 {
			g.line("for _, l := range %s {\n\t%s = %s\n}", ls, h, apply("l", false, h))
		} else {
			g.line("for i := range %s {\n\t%s = %s\n}", ls, h, apply(ls+"[i]", false, h))
		}
		return g.value(h, s, from)
	}
	k := g.dim()
	l := g.name("l")
	lit := fmt.Sprintf("Layer{W: %s, B: %s}", g.other([]int{s[1], k}, ""), g.other([]int{k}, ""))
	ptr := g.intn(3) == 0
	if ptr {
		g.feature("struct-pointer-var")
		lit = "&" + lit
	}
	g.line("%s := %s", l, lit)
	g.tmp++
	return g.assignTo(fmt.Sprintf("t%d", g.tmp), apply(l, ptr, a.expr), []int{s[0], k}, from)
}

// structForm declares the struct type typ (decl) once, draws the form
// of the function that takes it (see structFn) and records the
// constructs feature and prefix+form.
func (g *tgen) structForm(typ, decl, feature, prefix string) string {
	g.declType(typ, decl)
	form := g.pick("value-helper", "ptr-helper", "method-value", "method-ptr")
	g.feature(feature, prefix+form)
	return form
}

// structFn declares (or reuses) a function of one tensor x and a
// struct of type typ, of the form: a helper taking the struct by value
// or by pointer, or a method of a value or pointer receiver, the struct
// named r, the names of the four forms from names. body returns its
// body (generated as a helper's).
func (g *tgen) structFn(typ, form, r string, names [4]string, body func() string) string {
	key := typ + "/" + form
	if name := g.reuse(key); name != "" {
		return name
	}
	var b string
	g.inScope(scopeHelper, func() { b = body() })
	var name string
	switch form {
	case "value-helper":
		name = g.name(names[0])
		g.declare("func %s(%s %s, x %s) %s {\n\t%s\n}", name, r, typ, tt, tt, b)
	case "ptr-helper":
		name = g.name(names[1])
		g.declare("func %s(%s *%s, x %s) %s {\n\t%s\n}", name, r, typ, tt, tt, b)
	case "method-value":
		name = g.name(names[2])
		g.declare("func (%s %s) %s(x %s) %s {\n\t%s\n}", r, typ, name, tt, tt, b)
	default:
		name = g.name(names[3])
		g.declare("func (%s *%s) %s(x %s) %s {\n\t%s\n}", r, typ, name, tt, tt, b)
	}
	g.declared[key] = name
	return name
}

// structCall returns the call of the function fn of the form (see
// structFn) on the struct v (ptr: a pointer to it) and x.
func structCall(form, fn, v string, ptr bool, x string) string {
	switch form {
	case "value-helper":
		if ptr {
			v = "*" + v
		}
		return fmt.Sprintf("%s(%s, %s)", fn, v, x)
	case "ptr-helper":
		if !ptr {
			v = "&" + v
		}
		return fmt.Sprintf("%s(%s, %s)", fn, v, x)
	}
	return fmt.Sprintf("%s.%s(%s)", v, fn, x)
}

// stack runs a struct Stack holding a slice of tensors (weights or
// values of F: Ws, built by a literal or by append) over a (2-D), by a
// helper taking it by value or by pointer or by its method of a value
// or pointer receiver: h ← f(h·w) for each w of Ws.
func (g *tgen) stack(a tval) tval {
	s := a.shape
	from := len(g.lines)
	form := g.structForm("Stack", "type Stack struct {\n\tWs []"+tt+"\n}", "struct-stack", "stack-")
	name := g.structFn("Stack", form, "st", [4]string{"runStack", "runStackP", "run", "runP"}, func() string {
		return fmt.Sprintf("h := x\n\tfor _, w := range st.Ws {\n\t\th = %s\n\t}\n\treturn h", g.unaryExpr(tp+"MatMul(h, w)"))
	})
	d := s[1]
	sk := g.name("sk")
	ws := []string{g.other([]int{d, d}, "")}
	if g.intn(2) == 0 {
		ws = append(ws, g.other([]int{d, d}, ""))
	}
	if g.intn(2) == 0 {
		g.line("%s := Stack{Ws: []%s{%s}}", sk, tt, strings.Join(ws, ", "))
	} else {
		g.feature("stack-append")
		g.line("var %s Stack", sk)
		for _, w := range ws {
			g.line("%s.Ws = append(%s.Ws, %s)", sk, sk, w)
		}
	}
	g.tmp++
	return g.assignTo(fmt.Sprintf("t%d", g.tmp), structCall(form, name, sk, false, a.expr), s, from)
}

// stateStep runs a recurrent cell: a struct State (H, Sum) stepped in
// place by a method of a pointer receiver or a helper of a pointer, or
// replaced by a method of a value receiver that returns the next state,
// H ← f(H·w + x) and Sum (nil at first) += H, a few times.
func (g *tgen) stateStep(a tval) tval {
	s := a.shape
	from := len(g.lines)
	g.declType("State", "type State struct {\n\tH, Sum "+tt+"\n}")
	g.feature("state-step", "acc-nil-field")
	w := g.other([]int{s[1], s[1]}, "")
	xin := g.other(s, a.expr)
	if g.intn(2) == 0 {
		xin = g.other([]int{s[1]}, "")
	}
	form := g.pick("method-ptr", "helper-ptr", "method-value")
	g.feature("state-" + form)
	name := g.reuse("state/" + form)
	if name == "" {
		var u string
		g.inScope(scopeHelper, func() { u = g.unaryExpr(tp + "Add(" + tp + "MatMul(st.H, w), x)") })
		body := fmt.Sprintf("st.H = %s\n\tst.Sum = %sAdd(st.Sum, st.H)", u, tp)
		switch form {
		case "method-ptr":
			name = g.name("step")
			g.declare("func (st *State) %s(x, w %s) {\n\t%s\n}", name, tt, body)
		case "helper-ptr":
			name = g.name("stepState")
			g.declare("func %s(st *State, x, w %s) {\n\t%s\n}", name, tt, body)
		default:
			name = g.name("next")
			g.declare("func (st State) %s(x, w %s) State {\n\t%s\n\treturn st\n}", name, tt, body)
		}
		g.declared["state/"+form] = name
	}
	st := g.name("st")
	g.line("%s := State{H: %s}", st, a.expr)
	var call string
	switch form {
	case "method-ptr":
		call = fmt.Sprintf("%s.%s(%s, %s)", st, name, xin, w)
	case "helper-ptr":
		call = fmt.Sprintf("%s(&%s, %s, %s)", name, st, xin, w)
	default:
		call = fmt.Sprintf("%s = %s.%s(%s, %s)", st, st, name, xin, w)
	}
	k := 2 + g.intn(2)
	if g.intn(2) == 0 {
		g.line("for range %d {\n\t%s\n}", k, call)
	} else {
		g.line("for i := 0; i < %d; i++ {\n\t%s\n}", k, call)
	}
	g.tmp++
	h := g.assignTo(fmt.Sprintf("t%d", g.tmp), st+".H", s, from)
	g.tmp++
	sum := g.assignTo(fmt.Sprintf("t%d", g.tmp), st+".Sum", s, len(g.lines))
	if g.intn(2) == 0 {
		return h
	}
	return sum
}

// modelMethod calls a block of the model, a method (pointer or value
// receiver) or a helper taking the model by pointer or by value: a
// product with a field, or a loop over a slice of weights.
func (g *tgen) modelMethod(a tval) tval {
	s := a.shape
	form := g.pick("method-ptr", "method-value", "helper-ptr", "helper-value")
	g.feature("model-method", "model-"+form)
	var body string
	out := s
	g.inScope(scopeModel, func() {
		if g.intn(2) == 0 {
			k := g.dim()
			w := g.weight([]int{s[1], k})
			body = "return " + g.unaryExpr(tp+"MatMul(x, "+w+")")
			out = []int{s[0], k}
			return
		}
		g.feature("model-method-loop")
		ws := g.weights(1+g.intn(2), []int{s[1], s[1]})
		body = fmt.Sprintf("h := x\n\tfor _, w := range %s {\n\t\th = %s\n\t}\n\treturn h", ws, g.unaryExpr(tp+"MatMul(h, w)"))
	})
	name := g.name("block")
	ptr := g.entry == "model-ptr" || g.entry == "recv-ptr"
	var call string
	switch form {
	case "method-ptr":
		g.declare("func (m *Model) %s(x %s) %s {\n\t%s\n}", name, tt, tt, body)
		call = fmt.Sprintf("m.%s(%s)", name, a.expr)
	case "method-value":
		g.declare("func (m Model) %s(x %s) %s {\n\t%s\n}", name, tt, tt, body)
		call = fmt.Sprintf("m.%s(%s)", name, a.expr)
	case "helper-ptr":
		g.declare("func %s(m *Model, x %s) %s {\n\t%s\n}", name, tt, tt, body)
		m := "m"
		if !ptr {
			m = "&m"
		}
		call = fmt.Sprintf("%s(%s, %s)", name, m, a.expr)
	default:
		g.declare("func %s(m Model, x %s) %s {\n\t%s\n}", name, tt, tt, body)
		m := "m"
		if ptr {
			m = "*m"
		}
		call = fmt.Sprintf("%s(%s, %s)", name, m, a.expr)
	}
	return g.assign(call, out)
}
