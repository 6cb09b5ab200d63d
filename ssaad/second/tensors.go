package second

// This file defines the helpers with respect to a tensor x or a struct of
// tensors m (see structs.go), whose elements, in order, are the vector of
// parameters θ: the HVP returns a value of x's type (the JVP of the
// gradient, which for a tensor or a struct value returns x's adjoint, and
// for a pointer or a struct holding slices accumulates it into a shadow
// after x); the Hessian is a [n, n] tensor over θ, its rows HVPs along
// the unit directions, 64 per call stacked where F allows (stacked.go),
// else 8 per call of the gradient's vector JVP; the diagonal (a value of
// x's type) and the Laplacian come from second-order jets along the unit
// directions, 64 per call stacked where F allows, else 8 per call. A
// param gives what differs between a tensor and a struct.

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// param is the varied tensor or struct of tensors x of a helper, seen as
// the vector θ of its elements.
type param interface {
	// size returns θ's number of elements, computed at the entry.
	size() *ir.Value
	// units returns the unit directions e_{i+l} of θ, l < L, as values
	// of x's type (zero past the end), and their indices i+l.
	units(b *helperBuilder, i *ir.Value, L int) (units lanes, idx []*ir.Value)
	// fromFloats returns the float64 slice d of θ's length as a fresh
	// value of x's type.
	fromFloats(b *helperBuilder, d *ir.Value) *ir.Value
	// dense returns the derivatives hvs of x (of x's type, or fresh
	// shadows of x's struct) as fresh values of x's type without nil
	// tensors.
	dense(b *helperBuilder, hvs lanes) []*ir.Value
	// rows stores the derivatives hvs (as dense takes them), flattened,
	// in rows[idx[l]].
	rows(b *helperBuilder, hvs lanes, rows *ir.Value, idx []*ir.Value)
	// zeros returns L fresh zero shadows of x (a struct's, which the
	// gradient accumulates into), named name (name1, … for several); a
	// tensor has none.
	zeros(b *helperBuilder, name string, L int) lanes
	// check panics unless the direction v has x's shape (a struct's
	// slices their lengths).
	check(b *helperBuilder, fn string, v *ir.Value)
	// zeroCoef returns nil when a line-seeded jet (seed=line) can build
	// x's zero coefficients of degree 2 itself, else a zero of x's shape
	// (built now) that the helper passes as those coefficients to a jet
	// seeded with all of them (seed=jet).
	zeroCoef(b *helperBuilder) *ir.Value
	// like returns the arguments after the rows of
	// tensorops.ParamsHessian: x's tensors.
	like() (args []*ir.Value, spread bool)
	// order defines θ in a doc comment: how it orders x's elements.
	order() string
	// tensorT returns *tensorops.Tensor.
	tensorT() types.Type
	// stackedUnits returns the unit directions of θ from i, up to
	// stackedDirections of them, stacked: a value of x's type whose
	// tensors hold the directions (tensorops.Lanes).
	stackedUnits(b *helperBuilder, i *ir.Value) *ir.Value
	// stackedRows returns the derivatives hv along the stacked
	// directions u (both of x's type) as a plain tensor [m, …] of m rows
	// of θ's n elements.
	stackedRows(b *helperBuilder, hv, u *ir.Value) *ir.Value
	// lineSeeded reports whether a jet of F takes x's zero coefficients
	// of degree 2 itself (see zeroCoef), without emitting code.
	lineSeeded() bool
}

// lanes are the values of the L lanes of a call (its directions, its
// shadows), in order: in the generated code, when s is not nil, the
// elements of the slice s, made in a loop over the lanes.
type lanes struct {
	vals []*ir.Value
	s    *ir.Value
}

// each emits body(l, v) for each lane l and its value v: in a loop over
// the elements of s when there is one.
func (ls lanes) each(b *helperBuilder, body func(l, v *ir.Value)) {
	if ls.s == nil {
		for l, v := range ls.vals {
			body(b.int(int64(l)), v)
		}
		return
	}
	b.loop("l", b.int(0), b.int(int64(len(ls.vals))), nil, func(l *ir.Value, _ []*ir.Value) []*ir.Value {
		body(l, loadAt(b, b.Emit(ir.OpIndexAddr, types.NewPointer(sliceElem(ls.s.Type)), ls.s, l)))
		return nil
	})
}

// sliceElem returns the element type of the slice type t.
func sliceElem(t types.Type) types.Type { return t.Underlying().(*types.Slice).Elem() }

// newLanes returns L values that fill(l, a) stores at the address a of
// lane l: in a slice named name of elemT made in a loop over the lanes
// for L > 1, then loaded one by one (named name1 …); else made once.
func newLanes(b *helperBuilder, elemT types.Type, name string, L int, fill func(l, a *ir.Value)) lanes {
	if L == 1 {
		a := b.Emit(ir.OpAlloc, types.NewPointer(elemT))
		fill(b.int(0), a)
		v := loadAt(b, a)
		v.Name = name
		return lanes{vals: []*ir.Value{v}}
	}
	s := b.Emit(ir.OpMakeSlice, types.NewSlice(elemT), b.int(int64(L)), nil)
	s.Name = name + "s"
	b.loop("l", b.int(0), b.int(int64(L)), nil, func(l *ir.Value, _ []*ir.Value) []*ir.Value {
		fill(l, b.Emit(ir.OpIndexAddr, types.NewPointer(elemT), s, l))
		return nil
	})
	ls := lanes{s: s}
	for l := range L {
		v := loadAt(b, b.Emit(ir.OpIndexAddr, types.NewPointer(elemT), s, b.int(int64(l))))
		v.Name = fmt.Sprintf("%s%d", name, l+1)
		ls.vals = append(ls.vals, v)
	}
	return ls
}

// tensorParam is a varied tensor x.
type tensorParam struct {
	x, n *ir.Value
}

func newTensorParam(b *helperBuilder, x *ir.Value) *tensorParam {
	n := b.TensorCall("Size", x)
	n.Name = "n"
	return &tensorParam{x: x, n: n}
}

func (p *tensorParam) size() *ir.Value { return p.n }

func (p *tensorParam) units(b *helperBuilder, i *ir.Value, L int) (units lanes, idx []*ir.Value) {
	for l := range L {
		il := b.Add(i, b.int(int64(l)))
		u := b.TensorCall("Basis", p.x, il)
		u.Name = fmt.Sprintf("u%d", l)
		units.vals, idx = append(units.vals, u), append(idx, il)
	}
	return units, idx
}

func (p *tensorParam) fromFloats(b *helperBuilder, d *ir.Value) *ir.Value {
	flat := b.Emit(ir.OpCall, p.x.Type, d, p.n)
	flat.Callee = &ir.Callee{Func: ir.TensorFunc(p.x.Type, "FromFloat64s")}
	return b.TensorCall("AsTypeLike", b.TensorCall("ReshapeLike", flat, p.x), p.x)
}

func (p *tensorParam) dense(b *helperBuilder, hvs lanes) []*ir.Value {
	var out []*ir.Value
	for _, hv := range hvs.vals {
		out = append(out, b.TensorCall("OrZerosLike", hv, p.x))
	}
	return out
}

func (p *tensorParam) rows(b *helperBuilder, hvs lanes, rows *ir.Value, idx []*ir.Value) {
	for l, hv := range hvs.vals {
		b.Emit(ir.OpStore, nil, b.Emit(ir.OpIndexAddr, types.NewPointer(p.x.Type), rows, idx[l]), hv)
	}
}

func (p *tensorParam) zeros(*helperBuilder, string, int) lanes {
	panic("second: a tensor has no shadow")
}

func (p *tensorParam) check(*helperBuilder, string, *ir.Value) {}

func (p *tensorParam) zeroCoef(*helperBuilder) *ir.Value { return nil }

func (p *tensorParam) like() ([]*ir.Value, bool) { return []*ir.Value{p.x}, false }

func (p *tensorParam) order() string {
	return fmt.Sprintf("θ, the n = Size(%s) elements of %s in row-major order", p.x.Name, p.x.Name)
}

func (p *tensorParam) tensorT() types.Type { return p.x.Type }

// structParam is a varied struct of tensors x (or a pointer to one).
type structParam struct {
	m        *model
	b        *helperBuilder
	x, xp, n *ir.Value // xp points to x
	params   *ir.Value // x's tensors at the entry
}

func newStructParam(b *helperBuilder, m *model, x *ir.Value) *structParam {
	return &structParam{m: m, b: b, x: x, xp: addr(b, x), params: m.pack(b, x, "params")}
}

// size computes θ's length on its first call (at the entry, before any
// loop), which the HVP does not make.
func (p *structParam) size() *ir.Value {
	if p.n == nil {
		p.n = p.b.tensorsCall("ParamsSize", p.b.intT, p.params)
		p.n.Name = "n"
	}
	return p.n
}

// fresh stores at the address a a value of x's type that fill fills: the
// struct at a, or for a pointer new(S), stored at a.
func (p *structParam) fresh(b *helperBuilder, a *ir.Value, fill func(dst *ir.Value)) {
	if p.m.ptr() {
		s := p.m.newStruct(b, true)
		b.Emit(ir.OpStore, nil, a, s)
		a = s
	}
	fill(a)
}

func (p *structParam) units(b *helperBuilder, i *ir.Value, L int) (units lanes, idx []*ir.Value) {
	units = newLanes(b, p.m.root.typ, "u", L, func(l, a *ir.Value) {
		ts := b.tensorsCall("ParamsBasis", p.m.sliceT(), p.params, b.Add(i, l))
		p.fresh(b, a, func(dst *ir.Value) { p.m.unpack(b, ts, dst, p.xp) })
	})
	for l := range L {
		idx = append(idx, b.Add(i, b.int(int64(l))))
	}
	return units, idx
}

func (p *structParam) fromFloats(b *helperBuilder, d *ir.Value) *ir.Value {
	ts := b.tensorsCall("ParamsUnflatten", p.m.sliceT(), d, p.params)
	out := p.m.newStruct(b, p.m.ptr())
	p.m.unpack(b, ts, out, p.xp)
	return p.m.finish(b, out, p.m.ptr())
}

// dense fills, in place, the nil tensors of the shadows hvs with zeros
// (a derivative that a JVP returns by value, in a copy).
func (p *structParam) dense(b *helperBuilder, hvs lanes) []*ir.Value {
	var out []*ir.Value
	if hvs.s != nil {
		hvs.each(b, func(_, hv *ir.Value) { p.m.orZeros(b, hv, p.params) })
		for _, hv := range hvs.vals {
			out = append(out, p.m.finish(b, hv, p.m.ptr()))
		}
		return out
	}
	for _, hv := range hvs.vals {
		a := addr(b, hv)
		p.m.orZeros(b, a, p.params)
		out = append(out, p.m.finish(b, a, p.m.ptr()))
	}
	return out
}

func (p *structParam) rows(b *helperBuilder, hvs lanes, rows *ir.Value, idx []*ir.Value) {
	i := idx[0]
	hvs.each(b, func(l, hv *ir.Value) {
		flat := b.tensorsCall("ParamsFlatten", p.m.tensorT, p.m.pack(b, hv, "ts"), p.params)
		b.Emit(ir.OpStore, nil, b.Emit(ir.OpIndexAddr, types.NewPointer(p.m.tensorT), rows, b.Add(i, l)), flat)
	})
}

func (p *structParam) zeros(b *helperBuilder, name string, L int) lanes {
	return newLanes(b, types.NewPointer(p.m.structT()), name, L, func(_, a *ir.Value) {
		b.Emit(ir.OpStore, nil, a, p.m.zero(b, p.xp, ""))
	})
}

func (p *structParam) check(b *helperBuilder, fn string, v *ir.Value) {
	p.m.checkShape(b, fn, addr(b, v), p.xp, v.Name, p.x.Name)
}

// zeroCoef: Taylor mode builds the zero coefficients of a struct by
// value only where they need no loop (ssaad.Builder.ZeroShadowOfValue),
// that is, unless it holds a slice of structs.
func (p *structParam) zeroCoef(b *helperBuilder) *ir.Value {
	if p.m.ptr() || !p.m.root.structSlices() {
		return nil
	}
	z := loadAt(b, p.m.zero(b, p.xp, ""))
	z.Name = "zero"
	return z
}

func (p *structParam) like() ([]*ir.Value, bool) { return []*ir.Value{p.params}, true }

func (p *structParam) order() string {
	return fmt.Sprintf("θ, the n elements of the tensors of %s in the order of its fields (%s), each tensor row-major "+
		"(tensorops.ParamsFlatten's order)", p.x.Name, p.m.describe())
}

func (p *structParam) tensorT() types.Type { return p.m.tensorT }

// gradJVPOf returns the JVP of the gradient of req.Target with respect
// to x (parameter k), a tensor or a struct of tensors, along lanes
// directions at once (one for lanes 0), and whether the gradient takes
// x's adjoint as a shadow parameter after x (a pointer, or a struct
// holding slices), into which it accumulates, rather than returning it
// as its last result (a tensor, a struct value of tensors). With a
// shadow, the JVP is FGradJVP(…, x, v₁…v_L, xBar, hv₁…hv_L, …),
// accumulating ∇²F·v_l into hv_l (the gradient's buffer xBar is scratch);
// else FGradJVP(…, x, v₁…v_L, …) returns the tangents of x's adjoint
// last.
func gradJVPOf(req *ssaad.Request, env ssaad.Env, k, lanes int) (gj *ir.DerivedFunc, shadow bool, err error) {
	be, grad, err := buildGrad(req, env)
	if err != nil {
		return nil, false, err
	}
	ps := ssaad.Params(grad.Obj)
	shadow = len(ps) == len(req.Active)+1
	active := make([]bool, len(ps))
	active[k] = true
	opts := ssaad.Options{Lanes: lanes}
	if shadow {
		if k+1 >= 64 {
			return nil, false, fmt.Errorf("too many parameters")
		}
		active[k+1] = true
		opts.Scratch, opts.NoResultCoefs = 1<<(k+1), true
	} else if res := grad.Obj.Signature().Results(); res.Len() < 2 || !types.Identical(res.At(res.Len()-1).Type(), ps[k].Type()) {
		return nil, false, fmt.Errorf("unexpected gradient signature %s", grad.Sig)
	}
	gj, err = be.Build("jvp", opts, grad.Obj, active, req.Pos)
	return gj, shadow, err
}

// gradJVPCall calls gj (see gradJVPOf) along the directions us of x
// (parameter k of args) and returns F's value and the HVPs, of x's type
// (fresh shadows of its struct with a shadow) with nil tensors where the
// product is zero.
func gradJVPCall(b *helperBuilder, gj *ir.DerivedFunc, shadow bool, args []*ir.Value, k int, p param, us []*ir.Value) (f *ir.Value, hvs lanes) {
	dirs := slices.Clone(us)
	if shadow {
		// The gradient's buffer and the HVPs' accumulators: fresh
		// shadows of x's shape.
		dirs = append(dirs, p.zeros(b, args[k].Name+"Bar", 1).vals...)
		hvs = p.zeros(b, "hv", len(us))
		dirs = append(dirs, hvs.vals...)
	}
	res := gj.Sig.Results()
	c := b.Emit(ir.OpCall, res, withDirections(args, k, dirs)...)
	c.Callee = &ir.Callee{Derived: gj}
	f = b.Emit(ir.OpExtract, float64Type, c)
	f.Name = "f"
	if !shadow {
		for l := range us {
			hv := b.Emit(ir.OpExtract, res.At(res.Len()-len(us)+l).Type(), c)
			hv.Index = res.Len() - len(us) + l
			hvs.vals = append(hvs.vals, hv)
		}
	}
	return f, hvs
}

// tensorHelper builds the helper h with respect to x, parameter k of
// primal, a tensor or (m not nil) a struct of tensors, with signature
// sig.
func (h Helper) tensorHelper(primal *ir.Func, req *ssaad.Request, env ssaad.Env, k int, m *model, sig *types.Signature) (*ir.Func, error) {
	f, b := newHelper(primal, req)
	var args, extra []*ir.Value
	pi := 0
	// The HVP's directions follow x (the receiver too).
	directions := func() {
		if h.Kind != HVP {
			return
		}
		for range max(1, req.Options.Lanes) {
			p := sig.Params().At(pi)
			pi++
			extra = append(extra, f.AddParam(p.Name(), p.Type()))
		}
	}
	if req.Method {
		args = append(args, f.AddParam(sig.Recv().Name(), sig.Recv().Type()))
		if k == 0 {
			directions()
		}
	}
	for i := len(args); i < len(primal.Params); i++ {
		p := sig.Params().At(pi)
		pi++
		args = append(args, f.AddParam(p.Name(), p.Type()))
		if i == k {
			directions()
		}
	}
	for r := range sig.Results().Variables() {
		f.AddResult(r.Name(), r.Type())
	}
	f.Variadic = sig.Variadic()
	b.Cur = f.NewBlock("entry")
	x := args[k]
	var p param
	if m != nil {
		p = newStructParam(b, m, x)
	} else {
		p = newTensorParam(b, x)
	}
	value := func() *ir.Value {
		c := b.Emit(ir.OpCall, float64Type, args...)
		c.Callee = &ir.Callee{Func: req.Target}
		c.Name = "f"
		return c
	}
	name, xname := ssaad.FuncName(req.Target), x.Name
	var doc string
	switch h.Kind {
	case HVP:
		if tp, ok := p.(*tensorParam); ok && req.Options.Stacked {
			gj, _, err := stackedGradJVP(req, env, k)
			if err != nil {
				return nil, fmt.Errorf("lanes=stacked: %v", err)
			}
			doc = h.stackedHVP(b, req, args, k, tp, gj, extra[0])
			break
		}
		lanes := req.Options.Lanes
		gj, shadow, err := gradJVPOf(req, env, k, lanes)
		if err != nil {
			return nil, err
		}
		for _, v := range extra {
			p.check(b, req.Name, v)
		}
		val, hvs := gradJVPCall(b, gj, shadow, args, k, p, extra)
		b.Cur.Return(append([]*ir.Value{val}, p.dense(b, hvs)...)...)
		var dirs []string
		for _, v := range extra {
			dirs = append(dirs, v.Name)
		}
		doc = fmt.Sprintf("%s returns %s and the Hessian-vector product ∇²%s·%s, the Hessian taken with respect to %s, "+
			"by forward mode over reverse mode: the directional derivative of the gradient of %s (%s)", req.Name, name, name,
			strings.Join(dirs, ", ∇²"+name+"·"), xname, name, gj.Name)
		if lanes > 0 {
			doc += fmt.Sprintf(" along the %d directions at once (vector forward mode), so that %s and its gradient are evaluated once for all", lanes, name)
		}
		doc += fmt.Sprintf(". Each product is a fresh value of %s's type, zeros where it is zero (never a nil tensor). ", xname)
		if m != nil {
			dir := "A direction"
			if m.ptr() {
				dir = "A direction, not nil,"
			}
			doc += fmt.Sprintf("%s has %s's shape: its slices (of tensors, of structs, in the elements of a slice too) "+
				"have %s's lengths, its nested structs by pointer (the elements of a slice of pointers too) are there "+
				"(it panics otherwise, naming them); a nil tensor in it is zero. Nothing needs sizing: the results have %s's lengths.",
				dir, xname, xname, xname)
		} else {
			doc += fmt.Sprintf("A direction has %s's shape.", xname)
		}
	case Hessian:
		if gj, shadow, err := stackedGradJVP(req, env, k); err == nil {
			doc = h.stackedHessian(b, req, args, k, p, gj, shadow, value)
			break
		}
		d, err := h.hessian(b, req, env, args, k, p, value)
		if err != nil {
			return nil, err
		}
		doc = d
	default:
		// The diagonal and the Laplacian: second-order jets along the
		// unit directions, stacked where the function allows.
		if h.Kind == Laplacian && p.lineSeeded() {
			if jet, err := stackedJet(req, env); err == nil {
				doc = h.stackedLaplacian(b, req, args, k, p, jet, value)
				break
			}
		}
		if h.Kind == HessDiag && p.lineSeeded() {
			if jet, err := stackedDiagJet(req, env); err == nil {
				doc = h.stackedHessDiag(b, req, args, k, p, jet, value)
				break
			}
		}
		zc := p.zeroCoef(b)
		jet, err := h.jet(req, env, zc == nil)
		if err != nil {
			return nil, err
		}
		if h.Kind == HessDiag {
			doc = h.hessDiag(b, req, args, k, p, jet, zc, value)
		} else {
			doc = h.laplacian(b, req, args, k, p, jet, zc, value)
		}
	}
	f.Doc = doc
	return f, nil
}

// jetCoefs returns the coefficients of x a jet along the unit directions
// units takes: theirs, then, with a zero coefficient zc (seed=jet, see
// param.zeroCoef), n zero coefficients of degree 2 (one per lane; one
// for a collapsed jet).
func jetCoefs(units lanes, zc *ir.Value, n int) []*ir.Value {
	if zc == nil {
		return units.vals
	}
	out := slices.Clone(units.vals)
	for range n {
		out = append(out, zc)
	}
	return out
}

// hessianLanes is the number of directions a Hessian's vector JVP of the
// gradient takes at once.
const hessianLanes = 8

// hessian completes FHessian(x) (f float64, h *tensorops.Tensor): h is
// [n, n] over θ, row i the HVP along the unit direction eᵢ (flattened),
// hessianLanes rows per call of the gradient's vector JVP where it can be
// built (one per call else), then (H + Hᵀ)/2. It returns the doc comment.
func (h Helper) hessian(b *helperBuilder, req *ssaad.Request, env ssaad.Env, args []*ir.Value, k int, p param, value func() *ir.Value) (string, error) {
	L := hessianLanes
	gj, shadow, err := gradJVPOf(req, env, k, L)
	if err != nil {
		// No vector JVP of the gradient: one direction per call.
		L = 1
		if gj, shadow, err = gradJVPOf(req, env, k, 0); err != nil {
			return "", err
		}
	}
	n := p.size()
	// rows has L−1 slots past n for the directions past the end (zeros)
	// of the last call.
	rows := b.Emit(ir.OpMakeSlice, types.NewSlice(p.tensorT()), b.Add(n, b.int(int64(L-1))), nil)
	rows.Name = "rows"
	fv := b.float(0)
	fv.Name = "f"
	out := b.loopStep("i", b.int(0), n, int64(L), []*ir.Value{fv}, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		units, idx := p.units(b, i, L)
		val, hvs := gradJVPCall(b, gj, shadow, args, k, p, units.vals)
		p.rows(b, hvs, rows, idx)
		return []*ir.Value{val}
	})
	val := b.orValue(out[0], n, value)
	head := b.Emit(ir.OpSlice, rows.Type, rows, nil, n, nil)
	like, spread := p.like()
	hm := b.Emit(ir.OpCall, p.tensorT(), append([]*ir.Value{head}, like...)...)
	hm.Callee = &ir.Callee{Func: ir.TensorFunc(p.tensorT(), "ParamsHessian"), Spread: spread}
	b.Cur.Return(val, hm)
	name, xname := ssaad.FuncName(req.Target), args[k].Name
	per := fmt.Sprintf("%s, the JVP of the gradient along %d unit directions at once, ⌈n/%d⌉ calls, which give %s's value too", gj.Name, L, L, name)
	if L == 1 {
		per = fmt.Sprintf("%s, n calls", gj.Name)
	}
	return fmt.Sprintf("%s returns %s and its Hessian with respect to %s, a [n, n] tensor (marked symmetric) over %s: "+
		"H[i, j] = ∂²%s/∂θᵢ∂θⱼ. Row i is the Hessian-vector product along the unit direction eᵢ by forward mode over "+
		"reverse mode (%s), then (H + Hᵀ)/2, exactly symmetric.", req.Name, name, xname, p.order(), name, per), nil
}

// hessdiagLanes is the number of unit directions a Hessian diagonal's jet
// takes at once.
const hessdiagLanes = 8

// hessDiag completes FHessDiag(x) (f float64, d): d[i] = ∂²F/∂θᵢ² =
// 2·f2(eᵢ), f2 the second Taylor coefficient of the jet along the unit
// direction eᵢ, hessdiagLanes per call of jet; d of x's type. It returns
// the doc comment.
func (h Helper) hessDiag(b *helperBuilder, req *ssaad.Request, args []*ir.Value, k int, p param, jet *ir.DerivedFunc, zc *ir.Value, value func() *ir.Value) string {
	L := hessdiagLanes
	n := p.size()
	// d has L−1 slots past n for the directions past the end (zeros) of
	// the last call.
	d := b.Emit(ir.OpMakeSlice, types.NewSlice(float64Type), b.Add(n, b.int(int64(L-1))), nil)
	d.Name = "d"
	fv := b.float(0)
	fv.Name = "f"
	out := b.loopStep("i", b.int(0), n, int64(L), []*ir.Value{fv}, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		units, idx := p.units(b, i, L)
		call := b.Emit(ir.OpCall, jet.Sig.Results(), withDirections(args, k, jetCoefs(units, zc, L))...)
		call.Callee = &ir.Callee{Derived: jet}
		// The results: F's value, the first coefficients of the L lanes,
		// then their second ones.
		for l := range L {
			f2 := b.Emit(ir.OpExtract, float64Type, call)
			f2.Index = 1 + L + l
			b.store(d, idx[l], b.Mul(b.float(2), f2))
		}
		return []*ir.Value{b.Emit(ir.OpExtract, float64Type, call)}
	})
	val := b.orValue(out[0], n, value)
	head := b.Emit(ir.OpSlice, d.Type, d, nil, n, nil)
	b.Cur.Return(val, p.fromFloats(b, head))
	return hessDiagDoc(req, args[k].Name, p, jet, fmt.Sprintf("%d unit directions per call", L), L)
}

// hessDiagDoc returns the doc comment of FHessDiag(x) of a tensor or a
// struct of tensors x, computed by jet with per directions a call (at
// most step).
func hessDiagDoc(req *ssaad.Request, xname string, p param, jet *ir.DerivedFunc, per string, step int) string {
	name := ssaad.FuncName(req.Target)
	return fmt.Sprintf("%s returns %s and the diagonal of its Hessian with respect to %s, as a fresh value of %s's type (of its shape): "+
		"∂²%s/∂θᵢ² = 2·f2(eᵢ) for %s, f2 the second Taylor coefficient of %s along the unit direction eᵢ (%s, "+
		"%s, ⌈n/%d⌉ calls, which give %s's value too).",
		req.Name, name, xname, xname, name, p.order(), name, jet.Name, per, step, name)
}

// laplacian completes FLaplacian(x) (f, lap float64) by collapsed Taylor
// mode along the unit directions, laplacianLanes per call of the jet. It
// returns the doc comment.
func (h Helper) laplacian(b *helperBuilder, req *ssaad.Request, args []*ir.Value, k int, p param, jet *ir.DerivedFunc, zc *ir.Value, value func() *ir.Value) string {
	L := laplacianLanes
	n := p.size()
	laplacianLoop(b, n, int64(L), jet, 1+L, value, func(i *ir.Value) []*ir.Value {
		units, _ := p.units(b, i, L)
		return withDirections(args, k, jetCoefs(units, zc, 1))
	})
	name, xname := ssaad.FuncName(req.Target), args[k].Name
	return fmt.Sprintf("%s returns %s and its Laplacian with respect to %s, Σᵢ ∂²%s/∂θᵢ² over %s, "+
		"by collapsed Taylor mode: %s propagates %d unit directions at once, their first coefficients "+
		"and the sum of their second ones; ⌈n/%d⌉ calls, which give %s's value too.", req.Name, name, xname, name, p.order(), jet.Name, L, L, name)
}

// laplacianLoop emits the body of FLaplacian(x) (f, lap float64) by
// collapsed jets: a loop over the n unit directions, step per call of jet
// with the arguments jetArgs(i) gives for directions i, …, i+step−1,
// adding 2× the call's result sum (the sum of the directions' second
// coefficients) into lap and keeping its first result, F's value (or
// value() when n is 0), then the return.
func laplacianLoop(b *helperBuilder, n *ir.Value, step int64, jet *ir.DerivedFunc, sum int, value func() *ir.Value, jetArgs func(i *ir.Value) []*ir.Value) {
	lap := b.float(0)
	lap.Name = "lap"
	fv := b.float(0)
	fv.Name = "f"
	out := b.loopStep("i", b.int(0), n, step, []*ir.Value{lap, fv}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		call := b.Emit(ir.OpCall, jet.Sig.Results(), jetArgs(i)...)
		call.Callee = &ir.Callee{Derived: jet}
		s := b.Emit(ir.OpExtract, float64Type, call)
		s.Index = sum
		val := b.Emit(ir.OpExtract, float64Type, call)
		return []*ir.Value{b.Add(c[0], b.Mul(b.float(2), s)), val}
	})
	b.Cur.Return(b.orValue(out[1], n, value), out[0])
}
