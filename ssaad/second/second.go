package second

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/diag"
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// Kind selects a second-order helper.
type Kind int

// The helpers.
const (
	HVP       Kind = iota // //gad:hvp: FHVP(x, v, hv []float64) float64
	Hessian               // //gad:hessian: FHessian(x, h []float64) float64
	HessDiag              // //gad:hessdiag: FHessDiag(x, d []float64) float64
	Laplacian             // //gad:laplacian: FLaplacian(x []float64) (f, lap float64)
)

// Helper is the mode of one second-order helper.
type Helper struct{ Kind Kind }

var helperNames = [...]struct{ mode, suffix string }{
	HVP:       {"hvp", "HVP"},
	Hessian:   {"hessian", "Hessian"},
	HessDiag:  {"hessdiag", "HessDiag"},
	Laplacian: {"laplacian", "Laplacian"},
}

// Helpers returns the modes of the four helpers.
func Helpers() []ssaad.Mode {
	return []ssaad.Mode{Helper{HVP}, Helper{Hessian}, Helper{HessDiag}, Helper{Laplacian}}
}

// Name implements ssaad.Mode.
func (h Helper) Name() string { return helperNames[h.Kind].mode }

// Suffix implements ssaad.Mode.
func (h Helper) Suffix() string { return helperNames[h.Kind].suffix }

// Options implements ssaad.Mode: wrt=, and lanes=L for the HVP of a
// tensor function (L directions per call).
func (h Helper) Options() []string {
	if h.Kind == HVP {
		return []string{"lanes"}
	}
	return nil
}

var float64Type = types.Typ[types.Float64]

// shape checks that fn has one varied parameter, a []float64, a tensor
// or a struct of tensors (or a pointer to one), and one float64 result,
// and returns the varied parameter's index and, for a struct of tensors,
// its description.
func (h Helper) shape(fn *types.Func, active []bool) (int, *model, error) {
	ps := ssaad.Params(fn)
	if len(active) != len(ps) {
		return 0, nil, fmt.Errorf("activity of %d parameters for %d", len(active), len(ps))
	}
	const kinds = "[]float64, *tensorops.Tensor, or a struct of tensors (by value or by pointer)"
	k := -1
	for i, a := range active {
		if !a {
			continue
		}
		if k >= 0 {
			return 0, nil, fmt.Errorf("//gad:%s needs exactly one varied parameter, of type %s; %s and %s are varied (choose one with wrt=)",
				h.Name(), kinds, ps[k].Name(), ps[i].Name())
		}
		k = i
	}
	if k < 0 {
		return 0, nil, fmt.Errorf("//gad:%s needs one varied parameter, of type %s", h.Name(), kinds)
	}
	var m *model
	if ir.IsTensor(ps[k].Type()) {
		// A tensor x: FHVP(x, v) (f float64, hv *Tensor) and FHessian(x)
		// (f float64, h *Tensor), see tensorHVP; FHessDiag(x) (f float64,
		// d *Tensor) and FLaplacian(x) (f, lap float64) by jets along
		// unit tensors.
	} else if !types.Identical(ps[k].Type(), types.NewSlice(float64Type)) {
		var err error
		if m, err = modelOf(ps[k].Type()); err != nil {
			if !ir.Holds(ps[k].Type(), ir.IsTensor) {
				// A model of plain floats (a struct of float64s and
				// []float64s): no layout of its floats as one vector is
				// chosen for the user.
				return 0, nil, fmt.Errorf("//gad:%s needs a varied parameter of type %s; %s, of type %s, holds floats outside tensors: "+
					"differentiate a function of its floats as one []float64 (as gonum's optimizers take them), "+
					"or use //gad:jvp and //gad:grad, which take structs", h.Name(), kinds, ps[k].Name(),
					types.TypeString(ps[k].Type(), types.RelativeTo(fn.Pkg())))
			}
			return 0, nil, fmt.Errorf("//gad:%s: %s is not a struct of tensors: %v", h.Name(), ps[k].Name(), err)
		}
		if m == nil {
			return 0, nil, fmt.Errorf("//gad:%s needs a varied parameter of type %s; %s has type %s", h.Name(), kinds, ps[k].Name(),
				types.TypeString(ps[k].Type(), types.RelativeTo(fn.Pkg())))
		}
	}
	res := fn.Type().(*types.Signature).Results()
	if res.Len() != 1 || !types.Identical(res.At(0).Type(), float64Type) {
		return 0, nil, fmt.Errorf("//gad:%s needs a function with one float64 result", h.Name())
	}
	return k, m, nil
}

// extraNames returns the names of the parameters the helper adds after
// x, and of its results.
func (h Helper) extraNames(fn *types.Func) (params, results []string) {
	used := map[string]bool{}
	for _, n := range ssaad.ParamNames(fn) {
		used[n] = true
	}
	switch h.Kind {
	case HVP:
		params = []string{ssaad.Fresh(used, "v"), ssaad.Fresh(used, "hv")}
	case Hessian:
		params = []string{ssaad.Fresh(used, "h")}
	case HessDiag:
		params = []string{ssaad.Fresh(used, "d")}
	case Laplacian:
		results = []string{ssaad.Fresh(used, "f"), ssaad.Fresh(used, "lap")}
	}
	return params, results
}

// Signature implements ssaad.Mode.
func (h Helper) Signature(req *ssaad.Request) (*types.Signature, error) {
	fn := req.Target
	k, m, err := h.shape(fn, req.Active)
	if err != nil {
		return nil, err
	}
	sig := fn.Type().(*types.Signature)
	if req.Method && sig.Recv() == nil {
		return nil, fmt.Errorf("%s is not a method", fn.Name())
	}
	names := ssaad.ParamNames(fn)
	extra, resNames := h.extraNames(fn)
	tensor := (ir.IsTensor(ssaad.Params(fn)[k].Type()) || m != nil) && h.Kind != Laplacian
	if L := req.Options.Lanes; L > 0 && !tensor {
		return nil, fmt.Errorf("//gad:%s lanes=%d needs a varied parameter of type *tensorops.Tensor or a struct of tensors", h.Name(), L)
	}
	if req.Options.Stacked && (!tensor || m != nil) {
		return nil, fmt.Errorf("//gad:%s lanes=stacked needs a varied parameter of type *tensorops.Tensor", h.Name())
	}
	if tensor {
		// The product, or the diagonal, is returned: HVP takes v only.
		extra, resNames = extra[:len(extra)-1], []string{extra[len(extra)-1]}
		if req.Options.Stacked {
			// lanes=stacked: vs [L, …], hvs [L, …].
			extra, resNames = []string{extra[0] + "s"}, []string{resNames[0] + "s"}
		}
		if L := req.Options.Lanes; L > 0 {
			// lanes=L: v1 … vL, hv1 … hvL.
			v, hv := extra[0], resNames[0]
			extra, resNames = nil, nil
			for l := 1; l <= L; l++ {
				extra = append(extra, fmt.Sprintf("%s%d", v, l))
				resNames = append(resNames, fmt.Sprintf("%s%d", hv, l))
			}
		}
	}
	pkg := fn.Pkg()
	var recv *types.Var
	var params []*types.Var
	for i, p := range ssaad.Params(fn) {
		v := types.NewParam(token.NoPos, pkg, names[i], p.Type())
		if req.Method && i == 0 {
			recv = v
		} else {
			params = append(params, v)
		}
		if i == k {
			for _, n := range extra {
				params = append(params, types.NewParam(token.NoPos, pkg, n, p.Type()))
			}
		}
	}
	var results []*types.Var
	if tensor {
		used := map[string]bool{}
		for _, n := range names {
			used[n] = true
		}
		results = []*types.Var{types.NewParam(token.NoPos, pkg, ssaad.Fresh(used, "f"), float64Type)}
		rt := ssaad.Params(fn)[k].Type()
		if m != nil && h.Kind == Hessian {
			rt = m.tensorT // the Hessian of a struct's tensors as one vector
		}
		for _, r := range resNames {
			results = append(results, types.NewParam(token.NoPos, pkg, r, rt))
		}
	} else if h.Kind == Laplacian {
		results = []*types.Var{types.NewParam(token.NoPos, pkg, resNames[0], float64Type), types.NewParam(token.NoPos, pkg, resNames[1], float64Type)}
	} else {
		results = []*types.Var{types.NewParam(token.NoPos, pkg, "", float64Type)}
	}
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), types.NewTuple(results...), sig.Variadic()), nil
}

// helperBuilder builds the body of a helper.
type helperBuilder struct {
	ssaad.Builder
	intT types.Type
}

func (b *helperBuilder) int(n int64) *ir.Value {
	return b.F.ConstValue(b.intT, constant.MakeInt64(n))
}

func (b *helperBuilder) float(x float64) *ir.Value {
	return b.F.ConstValue(float64Type, constant.MakeFloat64(x))
}

// laplacianLanes is the number of directions a Laplacian's collapsed jet
// takes at once.
const laplacianLanes = 8

// loop builds for i := lo; i < hi; i++ { body(i) } from the current
// block and leaves the builder after the loop. carried are the initial
// values of loop-carried variables, which body updates; loop returns
// their values after the loop.
func (b *helperBuilder) loop(name string, lo, hi *ir.Value, carried []*ir.Value, body func(i *ir.Value, carried []*ir.Value) []*ir.Value) []*ir.Value {
	return b.loopStep(name, lo, hi, 1, carried, body)
}

// loopStep is loop with i += step.
func (b *helperBuilder) loopStep(name string, lo, hi *ir.Value, step int64, carried []*ir.Value, body func(i *ir.Value, carried []*ir.Value) []*ir.Value) []*ir.Value {
	head, blk, done := b.F.NewBlock("for.loop"), b.F.NewBlock("for.body"), b.F.NewBlock("for.done")
	b.Cur.Jump(head)
	b.Cur = head
	i := b.Emit(ir.OpPhi, b.intT)
	i.Name = name
	var phis []*ir.Value
	for _, c := range carried {
		p := b.Emit(ir.OpPhi, c.Type)
		p.Name = c.Name
		phis = append(phis, p)
	}
	cond := b.Emit(ir.OpBinary, types.Typ[types.Bool], i, hi)
	cond.Tok = token.LSS
	head.If(cond, blk, done)
	b.Cur = blk
	next := body(i, phis)
	i1 := b.Binary(token.ADD, i, b.int(step))
	b.Cur.Jump(head)
	i.Args = []*ir.Value{lo, i1}
	for k, p := range phis {
		p.Args = []*ir.Value{carried[k], next[k]}
	}
	b.Cur = done
	return phis
}

// index returns &s[i].
func (b *helperBuilder) index(s, i *ir.Value) *ir.Value {
	return b.Emit(ir.OpIndexAddr, types.NewPointer(float64Type), s, i)
}

func (b *helperBuilder) store(s, i, x *ir.Value) {
	b.Emit(ir.OpStore, nil, b.index(s, i), x)
}

func (b *helperBuilder) load(s, i *ir.Value) *ir.Value {
	return b.Emit(ir.OpLoad, float64Type, b.index(s, i))
}

// orValue returns v, F's value that the loop before computed (its jets'
// or JVPs' primal result), or F's value by value() when the loop did not
// run (n == 0: x has no elements): v if n != 0 else value().
func (b *helperBuilder) orValue(v, n *ir.Value, value func() *ir.Value) *ir.Value {
	empty := b.Emit(ir.OpBinary, types.Typ[types.Bool], n, b.int(0))
	empty.Tok = token.EQL
	then, done := b.F.NewBlock("if.then"), b.F.NewBlock("if.done")
	from := b.Cur
	b.Cur.If(empty, then, done)
	b.Cur = then
	w := value()
	b.Cur.Jump(done)
	b.Cur = done
	phi := b.Emit(ir.OpPhi, float64Type)
	phi.Name = "f"
	// done's predecessors: from (the loop's exit), then the then block.
	phi.Args = make([]*ir.Value, 2)
	phi.Args[done.PredIndex(from)] = v
	phi.Args[done.PredIndex(then)] = w
	return phi
}

// checkLen panics with msg unless len(s) == n.
func (b *helperBuilder) checkLen(s, n *ir.Value, msg string) {
	b.panicIf(token.NEQ, b.Emit(ir.OpLen, b.intT, s), n, msg)
}

// panicIf panics with msg when x tok y holds (tok a comparison).
func (b *helperBuilder) panicIf(tok token.Token, x, y *ir.Value, msg string) {
	ne := b.Emit(ir.OpBinary, types.Typ[types.Bool], x, y)
	ne.Tok = tok
	bad, ok := b.F.NewBlock("if.then"), b.F.NewBlock("if.done")
	b.Cur.If(ne, bad, ok)
	b.Cur = bad
	m := b.F.ConstValue(types.Typ[types.String], constant.MakeString(msg))
	b.Emit(ir.OpPanic, nil, b.Emit(ir.OpConvert, types.Universe.Lookup("any").Type(), m))
	b.Cur = ok
}

// Transform implements ssaad.Mode.
func (h Helper) Transform(primal *ir.Func, req *ssaad.Request, env ssaad.Env) (*ir.Func, diag.List) {
	var errs diag.List
	fail := func(format string, args ...any) (*ir.Func, diag.List) {
		p := env.Position(req.Pos)
		if !p.IsValid() {
			p = env.Position(primal.Pos)
		}
		errs.Add(p, ssaad.FuncName(req.Target), "", format, args...)
		return nil, errs
	}
	k, m, err := h.shape(req.Target, req.Active)
	if err != nil {
		return fail("%v", err)
	}
	sig, err := h.Signature(req)
	if err != nil {
		return fail("%v", err)
	}
	if m != nil || ir.IsTensor(primal.Params[k].Type) {
		// A tensor or a struct of tensors (tensors.go). Every helper but
		// the HVP evaluates F several times.
		if h.Kind != HVP {
			if err := h.singleWrites(primal, req, env); err != nil {
				return fail("%v", err)
			}
		}
		f, err := h.tensorHelper(primal, req, env, k, m, sig)
		if err != nil {
			return fail("%v", err)
		}
		return f, nil
	}
	// Every helper but the HVP by forward over reverse evaluates F (or its
	// jets) several times: F must not write through its parameters, or
	// each evaluation would start from what the last one wrote.
	name := ssaad.FuncName(req.Target)
	writes := writtenParams(primal, req, env)
	if h.Kind != HVP && writes != "" {
		return fail("%v", h.singleWrites(primal, req, env))
	}
	// The HVP and the Hessian by forward mode over reverse mode where both
	// cover F; by Taylor jets otherwise.
	var gj, jet *ir.DerivedFunc
	var why error
	if h.Kind == HVP || h.Kind == Hessian {
		gj, why = gradJVP(req, env, k)
	}
	if gj == nil && writes != "" {
		return fail("%v; //gad:hvp falls back to Taylor jets, which evaluate %s several times, and %s writes through %s",
			why, name, name, writes)
	}
	if gj == nil {
		if jet, err = h.jet(req, env, true); err != nil {
			return fail("%v", err)
		}
	}

	f, b := newHelper(primal, req)
	var args []*ir.Value // F's parameters
	var extra []*ir.Value
	pi := 0
	all := sig.Params()
	if req.Method {
		args = append(args, f.AddParam(sig.Recv().Name(), sig.Recv().Type()))
	}
	for i := len(args); i < len(primal.Params); i++ {
		p := all.At(pi)
		pi++
		args = append(args, f.AddParam(p.Name(), p.Type()))
		if i == k {
			n, _ := h.extraNames(req.Target)
			for range n {
				p := all.At(pi)
				pi++
				extra = append(extra, f.AddParam(p.Name(), p.Type()))
			}
		}
	}
	for r := range sig.Results().Variables() {
		f.AddResult(r.Name(), r.Type())
	}
	f.Variadic = sig.Variadic()
	b.Cur = f.NewBlock("entry")
	s := &sliceHelper{b: b, req: req, env: env, args: args, extra: extra, k: k, x: args[k], xname: args[k].Name,
		name: name, gj: gj, jet: jet, why: why, doc: &strings.Builder{}}
	s.n = b.Emit(ir.OpLen, b.intT, s.x)
	s.n.Name = "n"
	s.zero, s.one = b.int(0), b.float(1)
	switch h.Kind {
	case HVP:
		s.hvp()
	case Hessian:
		s.hessian()
	case HessDiag:
		s.hessDiag()
	case Laplacian:
		s.laplacian()
	}
	f.Doc = s.doc.String()
	return f, nil
}

// sliceHelper builds a second-order helper of F with respect to x, its
// k-th parameter, a []float64: by the JVP of F's gradient (gj) where it
// covers F, else by Taylor jets (jet); why says why not gj.
type sliceHelper struct {
	b           *helperBuilder
	req         *ssaad.Request
	env         ssaad.Env
	args, extra []*ir.Value // F's parameters, then the helper's own (v, hv, …)
	k           int
	x           *ir.Value
	xname, name string // x's and F's names
	gj, jet     *ir.DerivedFunc
	why         error
	n, zero     *ir.Value // len(x), 0
	one         *ir.Value // 1.0
	doc         *strings.Builder
}

// q returns f2 of the jet along u: ½uᵀ∇²F(x)u.
func (s *sliceHelper) q(u *ir.Value) *ir.Value {
	b := s.b
	var jargs []*ir.Value
	for i, a := range s.args {
		jargs = append(jargs, a)
		if i == s.k {
			jargs = append(jargs, u)
		}
	}
	c := b.Emit(ir.OpCall, s.jet.Sig.Results(), jargs...)
	c.Callee = &ir.Callee{Derived: s.jet}
	e := b.Emit(ir.OpExtract, float64Type, c)
	e.Index = 2
	return e
}

// value returns F(x).
func (s *sliceHelper) value() *ir.Value {
	c := s.b.Emit(ir.OpCall, float64Type, s.args...)
	c.Callee = &ir.Callee{Func: s.req.Target}
	c.Name = "f"
	return c
}

// newVec returns a fresh []float64 of x's length.
func (s *sliceHelper) newVec(nm string) *ir.Value {
	v := s.b.Emit(ir.OpMakeSlice, types.NewSlice(float64Type), s.n, nil)
	v.Name = nm
	return v
}

// gradBuf returns the gradient's buffer that the JVP of the gradient
// takes: nil when it does not touch it.
func (s *sliceHelper) gradBuf() *ir.Value {
	if bufferUnused(s.env, s.gj, s.k) {
		return s.b.F.ConstValue(s.x.Type, nil)
	}
	return s.newVec("grad")
}

// hvp completes FHVP(x, v, hv): by forward over reverse, or by
// differences of f2 along v ± eᵢ.
func (s *sliceHelper) hvp() {
	b, args, k, extra, n, zero, one := s.b, s.args, s.k, s.extra, s.n, s.zero, s.one
	req, name, xname, gj, jet, why := s.req, s.name, s.xname, s.gj, s.jet, s.why
	v, hv := extra[0], extra[1]
	b.checkLen(v, n, fmt.Sprintf("%s: len(%s) != len(%s)", req.Name, v.Name, xname))
	b.checkLen(hv, n, fmt.Sprintf("%s: len(%s) != len(%s)", req.Name, hv.Name, xname))
	if gj != nil {
		g := s.gradBuf()
		clearSlice(b, hv)
		b.Cur.Return(callGradJVP(b, gj, args, k, v, g, hv))
		fmt.Fprintf(s.doc, "%s returns %s and stores the Hessian-vector product ∇²%s·%s in %s (overwritten), "+
			"the Hessian taken with respect to %s, by forward mode over reverse mode: the directional derivative "+
			"along %s of the gradient of %s (%s), at the cost of a few gradients.\n",
			req.Name, name, name, v.Name, hv.Name, xname, v.Name, name, gj.Name)
		fmt.Fprintf(s.doc, "%s and %s must have the length of %s; %s may alias neither %s nor %s.", v.Name, hv.Name, xname, hv.Name, xname, v.Name)
		return
	}
	u := s.newVec("u")
	cp := b.Emit(ir.OpCall, b.intT, u, v)
	cp.Callee = &ir.Callee{Builtin: "copy"}
	b.loop("i", zero, n, nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		vi := b.load(u, i)
		vi.Name = "vi"
		b.store(u, i, b.Add(vi, one))
		qp := s.q(u)
		b.store(u, i, b.Sub(vi, one))
		qm := s.q(u)
		b.store(u, i, vi)
		// (Hv)ᵢ = (f2(v+eᵢ) − f2(v−eᵢ))/2
		b.store(hv, i, b.Mul(b.float(0.5), b.Sub(qp, qm)))
		return nil
	})
	b.Cur.Return(s.value())
	fmt.Fprintf(s.doc, "%s returns %s and stores the Hessian-vector product ∇²%s·%s in %s\n", req.Name, name, name, v.Name, hv.Name)
	fmt.Fprintf(s.doc, "(overwritten), the Hessian taken with respect to %s: (H%s)ᵢ = (f2(%s+eᵢ) − f2(%s−eᵢ))/2\n", xname, v.Name, v.Name, v.Name)
	fmt.Fprintf(s.doc, "where f2(u) = ½uᵀHu is the second Taylor coefficient of %s along u, computed by\n%s. It costs 2·len(%s) of those.\n", name, jet.Name, xname)
	fmt.Fprintf(s.doc, "%s and %s must have the length of %s; %s may alias neither %s nor %s.", v.Name, hv.Name, xname, hv.Name, xname, v.Name)
	fmt.Fprintf(s.doc, "\n(Not by forward over reverse: %v.)", why)
}

// hessian completes FHessian(x, h): rows by forward over reverse then
// symmetrized, or each distinct entry from f2.
func (s *sliceHelper) hessian() {
	b, args, k, extra, n, zero := s.b, s.args, s.k, s.extra, s.n, s.zero
	one, req, name, xname, gj, jet := s.one, s.req, s.name, s.xname, s.gj, s.jet
	hm := extra[0]
	nn := b.Binary(token.MUL, n, n)
	b.checkLen(hm, nn, fmt.Sprintf("%s: len(%s) != len(%s)²", req.Name, hm.Name, xname))
	if gj != nil {
		e, g := s.newVec("e"), s.gradBuf()
		b.loop("i", zero, n, nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
			in := b.Binary(token.MUL, i, n)
			in.Name = "in"
			row := b.Emit(ir.OpSlice, hm.Type, hm, in, b.Binary(token.ADD, in, n), nil)
			row.Name = "row"
			clearSlice(b, row)
			if g.Op != ir.OpConst {
				clearSlice(b, g)
			}
			b.store(e, i, one)
			callGradJVP(b, gj, args, k, e, g, row)
			b.store(e, i, b.float(0))
			return nil
		})
		b.loop("i", zero, n, nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
			in := b.Binary(token.MUL, i, n)
			b.loop("j", b.Binary(token.ADD, i, b.int(1)), n, nil, func(j *ir.Value, _ []*ir.Value) []*ir.Value {
				jn := b.Binary(token.MUL, j, n)
				ij, ji := b.Binary(token.ADD, in, j), b.Binary(token.ADD, jn, i)
				// (Hᵢⱼ + Hⱼᵢ)/2
				s := b.Mul(b.float(0.5), b.Add(b.load(hm, ij), b.load(hm, ji)))
				s.Name = "s"
				b.store(hm, ij, s)
				b.store(hm, ji, s)
				return nil
			})
			return nil
		})
		b.Cur.Return(s.value())
		fmt.Fprintf(s.doc, "%s returns %s and stores its Hessian with respect to %s in %s (overwritten),\n", req.Name, name, xname, hm.Name)
		fmt.Fprintf(s.doc, "dense and row-major: %s[i*n+j] = ∂²%s/∂%s[i]∂%s[j], n = len(%s); len(%s) must be n².\n", hm.Name, name, xname, xname, xname, hm.Name)
		fmt.Fprintf(s.doc, "Row i is the Hessian-vector product H·eᵢ by forward mode over reverse mode (%s), "+
			"n of them; then each pair Hᵢⱼ, Hⱼᵢ is set to its mean, so that %s is exactly symmetric.", gj.Name, hm.Name)
		return
	}
	e := s.newVec("e")
	b.loop("i", zero, n, nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		b.store(e, i, one)
		d := b.Mul(b.float(2), s.q(e))
		b.store(hm, b.Binary(token.ADD, b.Binary(token.MUL, i, n), i), d)
		b.store(e, i, b.float(0))
		return nil
	})
	b.loop("i", zero, n, nil, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		b.store(e, i, one)
		in := b.Binary(token.MUL, i, n)
		hii := b.load(hm, b.Binary(token.ADD, in, i))
		b.loop("j", b.Binary(token.ADD, i, b.int(1)), n, nil, func(j *ir.Value, _ []*ir.Value) []*ir.Value {
			b.store(e, j, one)
			jn := b.Binary(token.MUL, j, n)
			hjj := b.load(hm, b.Binary(token.ADD, jn, j))
			// Hᵢⱼ = f2(eᵢ+eⱼ) − f2(eᵢ) − f2(eⱼ), f2(eᵢ) = Hᵢᵢ/2
			hij := b.Sub(s.q(e), b.Mul(b.float(0.5), b.Add(hii, hjj)))
			b.store(hm, b.Binary(token.ADD, in, j), hij)
			b.store(hm, b.Binary(token.ADD, jn, i), hij)
			b.store(e, j, b.float(0))
			return nil
		})
		b.store(e, i, b.float(0))
		return nil
	})
	b.Cur.Return(s.value())
	fmt.Fprintf(s.doc, "%s returns %s and stores its Hessian with respect to %s in %s (overwritten),\n", req.Name, name, xname, hm.Name)
	fmt.Fprintf(s.doc, "dense and row-major: %s[i*n+j] = ∂²%s/∂%s[i]∂%s[j], n = len(%s); len(%s) must be n².\n", hm.Name, name, xname, xname, xname, hm.Name)
	fmt.Fprintf(s.doc, "Each of the n(n+1)/2 distinct entries is computed once, from f2(u) = ½uᵀHu, the second\n")
	fmt.Fprintf(s.doc, "Taylor coefficient of %s along u (%s): Hᵢᵢ = 2·f2(eᵢ), Hᵢⱼ = f2(eᵢ+eⱼ) − f2(eᵢ) − f2(eⱼ).", name, jet.Name)
}

// hessDiag completes FHessDiag(x, d) by Taylor jets along the unit
// vectors, hessdiagLanes per call.
func (s *sliceHelper) hessDiag() {
	b, args, k, extra, n := s.b, s.args, s.k, s.extra, s.n
	zero, req, name, xname, jet := s.zero, s.req, s.name, s.xname, s.jet
	d := extra[0]
	b.checkLen(d, n, fmt.Sprintf("%s: len(%s) != len(%s)", req.Name, d.Name, xname))
	// L unit vectors per call of the jet (lanes), as the Laplacian's;
	// the diagonal goes through a buffer of n+L for the last block.
	L := hessdiagLanes
	bufs, views := unitBuffers(b, n, L)
	dd := b.Emit(ir.OpMakeSlice, d.Type, b.Binary(token.ADD, n, b.int(int64(L))), nil)
	dd.Name = "dd"
	fv := b.float(0)
	fv.Name = "f"
	out := b.loopStep("i", zero, n, int64(L), []*ir.Value{fv}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		call := unitJet(b, args, k, jet, bufs, views, i, func(call *ir.Value) {
			for l := range L {
				f2 := b.Emit(ir.OpExtract, float64Type, call)
				f2.Index = 1 + L + l
				b.store(dd, b.Add(i, b.int(int64(l))), b.Mul(b.float(2), f2))
			}
		})
		return []*ir.Value{b.Emit(ir.OpExtract, float64Type, call)}
	})
	cp := b.Emit(ir.OpCall, b.intT, d, dd)
	cp.Callee = &ir.Callee{Builtin: "copy"}
	b.Cur.Return(b.orValue(out[0], n, s.value))
	fmt.Fprintf(s.doc, "%s returns %s and stores the diagonal of its Hessian with respect to %s in %s (overwritten): ", req.Name, name, xname, d.Name)
	fmt.Fprintf(s.doc, "%s[i] = ∂²%s/∂%s[i]² = 2·f2(eᵢ), f2 the second Taylor coefficient of %s along the unit vector eᵢ, ", d.Name, name, xname, name)
	fmt.Fprintf(s.doc, "by %s, %d unit vectors per call (⌈len(%s)/%d⌉ calls, which give %s's value too).\n", jet.Name, L, xname, L, name)
	fmt.Fprintf(s.doc, "len(%s) must be len(%s).", d.Name, xname)
}

// laplacian completes FLaplacian(x) by collapsed Taylor mode,
// laplacianLanes unit directions per call.
func (s *sliceHelper) laplacian() {
	b, args, k, n, zero := s.b, s.args, s.k, s.n, s.zero
	req, name, xname, jet := s.req, s.name, s.xname, s.jet
	L := laplacianLanes
	bufs, views := unitBuffers(b, n, L)
	lap := b.float(0)
	lap.Name = "lap"
	fv := b.float(0)
	fv.Name = "f"
	out := b.loopStep("i", zero, n, int64(L), []*ir.Value{lap, fv}, func(i *ir.Value, c []*ir.Value) []*ir.Value {
		var l2 *ir.Value
		call := unitJet(b, args, k, jet, bufs, views, i, func(call *ir.Value) {
			sum := b.Emit(ir.OpExtract, float64Type, call)
			sum.Index = 1 + L
			l2 = b.Add(c[0], b.Mul(b.float(2), sum))
		})
		return []*ir.Value{l2, b.Emit(ir.OpExtract, float64Type, call)}
	})
	b.Cur.Return(b.orValue(out[1], n, s.value), out[0])
	fmt.Fprintf(s.doc, "%s returns %s and its Laplacian with respect to %s, Σᵢ ∂²%s/∂%s[i]²,\n", req.Name, name, xname, name, xname)
	fmt.Fprintf(s.doc, "by collapsed Taylor mode: %s propagates %d unit directions at once, their first\n", jet.Name, L)
	fmt.Fprintf(s.doc, "coefficients and the sum of their second ones; ⌈len(%s)/%d⌉ calls, which give %s's value too.", xname, L, name)
}

// newHelper returns the helper's function, without parameters, and its
// builder.
func newHelper(primal *ir.Func, req *ssaad.Request) (*ir.Func, *helperBuilder) {
	f := ir.NewFunc(req.Name, primal.Pkg)
	f.Pos = primal.Pos
	if req.Method {
		f.Recv = primal.Params[0].Type
	}
	b := &helperBuilder{intT: types.Typ[types.Int]}
	b.F = f
	return f, b
}

// jet returns F's second-order jet along a line (f2(u) = ½uᵀ∇²F·u), with
// hessdiagLanes lanes for the diagonal and collapsed over laplacianLanes
// directions for the Laplacian: line-seeded (seed=line) when line is
// set, else seeded with every coefficient (the caller passes zeros of
// degree 2).
func (h Helper) jet(req *ssaad.Request, env ssaad.Env, line bool) (*ir.DerivedFunc, error) {
	oe, ok := env.(ssaad.OptionsEnv)
	if !ok {
		return nil, fmt.Errorf("this environment cannot generate Taylor-mode functions")
	}
	opts := ssaad.Options{Order: 2, Line: line}
	switch h.Kind {
	case Laplacian:
		opts.Lanes, opts.Collapsed = laplacianLanes, true
	case HessDiag:
		opts.Lanes = hessdiagLanes
	}
	return oe.DerivativeWithOptions("taylor", opts, req.Target, req.Active, req.Pos)
}

// writtenParams names the parameters through which F writes memory that
// outlives it, "" for none.
func writtenParams(primal *ir.Func, req *ssaad.Request, env ssaad.Env) string {
	pnames := ssaad.ParamNames(req.Target)
	var written []string
	for i, w := range ssaad.PersistentWrites(primal, env.Writes, ssaad.EnvFacts(env)) {
		if w {
			written = append(written, pnames[i])
		}
	}
	return strings.Join(written, ", ")
}

// singleWrites returns the refusal of a helper that evaluates F several
// times when F writes through its parameters (each evaluation would start
// from what the last one wrote), nil when it does not.
func (h Helper) singleWrites(primal *ir.Func, req *ssaad.Request, env ssaad.Env) error {
	writes := writtenParams(primal, req, env)
	if writes == "" {
		return nil
	}
	name := ssaad.FuncName(req.Target)
	return fmt.Errorf("//gad:%s evaluates %s several times, and %s writes through %s: each evaluation would "+
		"start from what the last one wrote", h.Name(), name, name, writes)
}

// unitBuffers returns L buffers of n+L zeros and their views of the
// first n elements, through which unitJet passes L unit vectors per call:
// the last block needs no test, its 1s beyond n are not seen.
func unitBuffers(b *helperBuilder, n *ir.Value, L int) (bufs, views []*ir.Value) {
	nL := b.Binary(token.ADD, n, b.int(int64(L)))
	for l := range L {
		buf := b.Emit(ir.OpMakeSlice, types.NewSlice(float64Type), nL, nil)
		buf.Name = fmt.Sprintf("e%d", l)
		view := b.Emit(ir.OpSlice, buf.Type, buf, nil, n, nil)
		view.Name = fmt.Sprintf("u%d", l)
		bufs, views = append(bufs, buf), append(views, view)
	}
	return bufs, views
}

// unitJet calls jet along the unit vectors e_{i+l}, l < len(bufs) (the
// views of bufs, see unitBuffers), x being parameter k of args, hands
// the call to use, and sets the buffers back to zeros.
func unitJet(b *helperBuilder, args []*ir.Value, k int, jet *ir.DerivedFunc, bufs, views []*ir.Value, i *ir.Value, use func(call *ir.Value)) *ir.Value {
	for l, buf := range bufs {
		b.store(buf, b.Add(i, b.int(int64(l))), b.float(1))
	}
	call := b.Emit(ir.OpCall, jet.Sig.Results(), withDirections(args, k, views)...)
	call.Callee = &ir.Callee{Derived: jet}
	use(call)
	for l, buf := range bufs {
		b.store(buf, b.Add(i, b.int(int64(l))), b.float(0))
	}
	return call
}

// buildGrad returns env as a BuildEnv and the gradient of req.Target,
// built now.
func buildGrad(req *ssaad.Request, env ssaad.Env) (ssaad.BuildEnv, *ir.DerivedFunc, error) {
	be, ok := env.(ssaad.BuildEnv)
	if !ok {
		return nil, nil, fmt.Errorf("this environment cannot compose modes")
	}
	grad, err := be.Build("grad", ssaad.Options{}, req.Target, req.Active, req.Pos)
	return be, grad, err
}

// gradJVP returns the JVP of the gradient of req.Target with respect to
// x (parameter k) and to the gradient's buffer dx, the function that
// forward mode over reverse mode makes: FGradJVP(…, x, ẋ, dx, ḋx, …)
// accumulates the gradient into dx and ∇²F·ẋ into ḋx, and returns F's
// value first. Both are built now, through env, so that an error (a
// mode that does not cover F) is known before any code calls them.
func gradJVP(req *ssaad.Request, env ssaad.Env, k int) (*ir.DerivedFunc, error) {
	be, grad, err := buildGrad(req, env)
	if err != nil {
		return nil, err
	}
	// The gradient's parameters are F's with x's adjoint after x.
	ps := ssaad.Params(grad.Obj)
	if len(ps) != len(req.Active)+1 || !types.Identical(ps[k].Type(), ps[k+1].Type()) {
		return nil, fmt.Errorf("unexpected gradient signature %s", grad.Sig)
	}
	active := make([]bool, len(ps))
	active[k], active[k+1] = true, true
	if k+1 >= 64 {
		return nil, fmt.Errorf("too many parameters")
	}
	// The gradient itself is not wanted: its buffer is scratch.
	gj, err := be.Build("jvp", ssaad.Options{Scratch: 1 << (k + 1), NoResultCoefs: true}, grad.Obj, active, req.Pos)
	if err != nil {
		return nil, err
	}
	if gj.Sig.Results().Len() != 2 {
		return nil, fmt.Errorf("unexpected signature of the gradient's JVP %s", gj.Sig)
	}
	return gj, nil
}

// bufferUnused reports whether the JVP of the gradient, gj, with its
// gradient's buffer as scratch, no longer touches the buffer (parameter
// k+2: after x and its tangent) but for the check that it does not alias
// x (&x[:1][0] == &dx[:1][0], false for nil): the helper may then pass
// nil rather than allocate it.
func bufferUnused(env ssaad.Env, gj *ir.DerivedFunc, k int) bool {
	be, ok := env.(ssaad.BuildEnv)
	if !ok {
		return false
	}
	f := be.Generated(gj)
	if f == nil || k+2 >= len(f.Params) {
		return false
	}
	uses := ir.Uses(f)
	// onlyCompared: v's uses measure its capacity, take the address of an
	// element, or compare addresses.
	var onlyCompared func(v *ir.Value) bool
	onlyCompared = func(v *ir.Value) bool {
		for _, u := range uses[v.ID] {
			switch {
			case u.Op == ir.OpCap:
			case u.Op == ir.OpBinary && (u.Tok == token.EQL || u.Tok == token.NEQ):
			case (u.Op == ir.OpSlice || u.Op == ir.OpIndexAddr) && u.Args[0] == v:
				if !onlyCompared(u) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return onlyCompared(f.Params[k+2])
}

// callGradJVP calls gj (see gradJVP) with F's arguments args, x = args[k]
// followed by its tangent v, the gradient's buffer g and its tangent hv,
// and returns F's value.
func callGradJVP(b *helperBuilder, gj *ir.DerivedFunc, args []*ir.Value, k int, v, g, hv *ir.Value) *ir.Value {
	var all []*ir.Value
	for i, a := range args {
		all = append(all, a)
		if i == k {
			all = append(all, v, g, hv)
		}
	}
	c := b.Emit(ir.OpCall, gj.Sig.Results(), all...)
	c.Callee = &ir.Callee{Derived: gj}
	f := b.Emit(ir.OpExtract, float64Type, c)
	f.Index = 0
	f.Name = "f"
	return f
}

// clearSlice zeroes s.
func clearSlice(b *helperBuilder, s *ir.Value) {
	c := b.Emit(ir.OpCall, nil, s)
	c.Callee = &ir.Callee{Builtin: "clear"}
}

// withDirections returns args with dirs inserted after args[k], x: the
// arguments of a jet or JVP along the directions dirs of x.
func withDirections(args []*ir.Value, k int, dirs []*ir.Value) []*ir.Value {
	out := slices.Clone(args[:k+1])
	out = append(out, dirs...)
	return append(out, args[k+1:]...)
}
