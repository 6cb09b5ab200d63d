package second

// This file defines the helpers with respect to a tensor or a struct of
// tensors x that take the unit directions stacked
// (ssaad.Options.Stacked): stackedDirections of them per call travel as
// one tensor [L, …] per tensor of x (tensorops.Bases, ParamsBases, marked
// by tensorops.Lanes), so that each product by a weight matrix is one GEMM
// over all of them and each elementwise operation one pass. Where the
// function computes something that stacked directions cannot carry (a
// float per direction, a runtime operation that is not lane-aware), the
// stacked derivative is refused (ssaad.CheckStacked) and the helpers take
// the directions 8 lanes at a time instead.

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// stackedDirections is the number of unit directions the stacked helpers
// take per call: 64 covers the inputs of most functions a Laplacian or
// Hessian is asked of in one call, while the tensors of directions stay
// 64 times the function's own.
const stackedDirections = 64

// stackedJet returns the collapsed second-order jet of req.Target with
// stacked directions, FTaylorStacked(…, x, U, …) (f, f1, lap2): f1 not
// computed, lap2 the sum over U's directions of their second
// coefficients; built now, so that a refusal is known.
func stackedJet(req *ssaad.Request, env ssaad.Env) (*ir.DerivedFunc, error) {
	be, ok := env.(ssaad.BuildEnv)
	if !ok {
		return nil, fmt.Errorf("this environment cannot compose modes")
	}
	opts := ssaad.Options{Order: 2, Line: true, Lanes: 1, Collapsed: true, Stacked: true, NoScalarCoefs: true}
	return be.Build("taylor", opts, req.Target, req.Active, req.Pos)
}

// stackedDiagJet returns the second-order jet of req.Target with stacked
// directions whose float coefficients are tensors of directions,
// FTaylorStacked(…, x, U, …) (f, f1, f2 *tensorops.Tensor): f2's
// direction l is ½·uₗᵀ∇²F·uₗ; built now, so that a refusal is known.
func stackedDiagJet(req *ssaad.Request, env ssaad.Env) (*ir.DerivedFunc, error) {
	be, ok := env.(ssaad.BuildEnv)
	if !ok {
		return nil, fmt.Errorf("this environment cannot compose modes")
	}
	opts := ssaad.Options{Order: 2, Line: true, Stacked: true, ScalarLanes: true}
	return be.Build("taylor", opts, req.Target, req.Active, req.Pos)
}

// stackedGradJVP returns the JVP of the gradient of req.Target with
// respect to x (parameter k), a tensor or a struct of tensors, with
// stacked directions, and whether the gradient takes a shadow of x (see
// gradJVPOf): FGradJVPStacked(…, x, u, …) (f, xBar, df, hv), or with a
// shadow FGradJVPStacked(…, x, u, xBar, hv, …) accumulating into hv;
// the HVPs along u's directions, stacked; df not computed.
func stackedGradJVP(req *ssaad.Request, env ssaad.Env, k int) (*ir.DerivedFunc, bool, error) {
	be, grad, err := buildGrad(req, env)
	if err != nil {
		return nil, false, err
	}
	ps := ssaad.Params(grad.Obj)
	shadow := len(ps) == len(req.Active)+1
	active := make([]bool, len(ps))
	active[k] = true
	opts := ssaad.Options{Stacked: true, NoScalarCoefs: true}
	if shadow {
		if k+1 >= 64 {
			return nil, false, fmt.Errorf("too many parameters")
		}
		active[k+1] = true
		opts.Scratch, opts.NoResultCoefs = 1<<(k+1), true
	}
	gj, err := be.Build("jvp", opts, grad.Obj, active, req.Pos)
	return gj, shadow, err
}

// stackedUnits: tensorops.Lanes(tensorops.Bases(x, i, stackedDirections)).
func (p *tensorParam) stackedUnits(b *helperBuilder, i *ir.Value) *ir.Value {
	u := b.TensorCall("Lanes", b.TensorCall("Bases", p.x, i, b.int(stackedDirections)))
	u.Name = "u"
	return u
}

// stackedRows: the HVPs themselves, [m, …x's shape] (tensorops.UnlanesLike).
func (p *tensorParam) stackedRows(b *helperBuilder, hv, u *ir.Value) *ir.Value {
	return b.TensorCall("UnlanesLike", hv, u)
}

func (p *tensorParam) lineSeeded() bool { return true }

// stackedUnits: a struct of x's shape whose tensors are
// tensorops.ParamsBases(x's tensors, i, stackedDirections).
func (p *structParam) stackedUnits(b *helperBuilder, i *ir.Value) *ir.Value {
	ts := b.tensorsCall("ParamsBases", p.m.sliceT(), p.params, i, b.int(stackedDirections))
	return newLanes(b, p.m.root.typ, "u", 1, func(_, a *ir.Value) {
		p.fresh(b, a, func(dst *ir.Value) { p.m.unpack(b, ts, dst, p.xp) })
	}).vals[0]
}

// stackedRows: tensorops.ParamsFlattenLanes of hv's tensors, [m, n].
func (p *structParam) stackedRows(b *helperBuilder, hv, u *ir.Value) *ir.Value {
	return b.tensorsCall("ParamsFlattenLanes", p.m.tensorT, p.m.pack(b, hv, "ts"), p.m.pack(b, u, "us"), p.params)
}

func (p *structParam) lineSeeded() bool { return p.m.ptr() || !p.m.root.structSlices() }

// stackedLaplacian completes FLaplacian(x) (f, lap float64) by collapsed
// Taylor mode along the unit directions, stackedDirections per call of
// jet (stackedJet). It returns the doc comment.
func (h Helper) stackedLaplacian(b *helperBuilder, req *ssaad.Request, args []*ir.Value, k int, p param, jet *ir.DerivedFunc, value func() *ir.Value) string {
	laplacianLoop(b, p.size(), stackedDirections, jet, 2, value, func(i *ir.Value) []*ir.Value {
		return withDirections(args, k, []*ir.Value{p.stackedUnits(b, i)})
	})
	name, xname := ssaad.FuncName(req.Target), args[k].Name
	return fmt.Sprintf("%s returns %s and its Laplacian with respect to %s, Σᵢ ∂²%s/∂θᵢ² over %s, "+
		"by collapsed Taylor mode: %s propagates up to %d unit directions at once, stacked in one tensor "+
		"(their first coefficients, and the sum of their second ones); ⌈n/%d⌉ calls, which give %s's value too.",
		req.Name, name, xname, name, p.order(), jet.Name, stackedDirections, stackedDirections, name)
}

// stackedHVP completes FHVP(x, vs) (f float64, hvs *tensorops.Tensor),
// //gad:hvp lanes=stacked: vs holds L directions of x's shape, [L, …],
// and hvs their HVPs, by one call of gj (stackedGradJVP). It returns the
// doc comment.
func (h Helper) stackedHVP(b *helperBuilder, req *ssaad.Request, args []*ir.Value, k int, p *tensorParam, gj *ir.DerivedFunc, vs *ir.Value) string {
	u := b.TensorCall("Lanes", vs)
	u.Name = "u"
	res := gj.Sig.Results()
	call := b.Emit(ir.OpCall, res, withDirections(args, k, []*ir.Value{u})...)
	call.Callee = &ir.Callee{Derived: gj}
	val := b.Emit(ir.OpExtract, float64Type, call)
	val.Name = "f"
	hv := b.Emit(ir.OpExtract, res.At(res.Len()-1).Type(), call)
	hv.Index = res.Len() - 1
	b.Cur.Return(val, b.TensorCall("UnlanesLike", hv, u))
	name, xname := ssaad.FuncName(req.Target), args[k].Name
	return fmt.Sprintf("%s returns %s and its Hessian-vector products along the directions %s, the Hessian taken with "+
		"respect to %s, by forward mode over reverse mode (%s): %s is a tensor [L, …] of L directions of %s's shape "+
		"(any L ≥ 1, stacked on its first axis), and the result a fresh tensor [L, …] of the same shape whose "+
		"element l is ∇²%s·%s[l]. The directions travel stacked: a product by a weight matrix is one matrix product for all "+
		"of them.", req.Name, name, vs.Name, xname, gj.Name, vs.Name, xname, name, vs.Name)
}

// stackedHessDiag completes FHessDiag(x) (f float64, d): d[i] =
// ∂²F/∂θᵢ² = 2·f2(eᵢ), the second coefficients of jet (stackedDiagJet)
// along stackedDirections unit directions per call (tensorops.LanesInto);
// d of x's type. It returns the doc comment.
func (h Helper) stackedHessDiag(b *helperBuilder, req *ssaad.Request, args []*ir.Value, k int, p param, jet *ir.DerivedFunc, value func() *ir.Value) string {
	n := p.size()
	d := b.Emit(ir.OpMakeSlice, types.NewSlice(float64Type), n, nil)
	d.Name = "d"
	fv := b.float(0)
	fv.Name = "f"
	out := b.loopStep("i", b.int(0), n, stackedDirections, []*ir.Value{fv}, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		res := jet.Sig.Results()
		call := b.Emit(ir.OpCall, res, withDirections(args, k, []*ir.Value{p.stackedUnits(b, i)})...)
		call.Callee = &ir.Callee{Derived: jet}
		f2 := b.Emit(ir.OpExtract, res.At(2).Type(), call)
		f2.Index = 2
		b.TensorCall("LanesInto", d, i, b.float(2), f2)
		return []*ir.Value{b.Emit(ir.OpExtract, float64Type, call)}
	})
	val := b.orValue(out[0], n, value)
	b.Cur.Return(val, p.fromFloats(b, d))
	return hessDiagDoc(req, args[k].Name, p, jet, fmt.Sprintf("up to %d unit directions per call stacked in one tensor", stackedDirections), stackedDirections)
}

// stackedHessian completes FHessian(x) (f float64, h *tensorops.Tensor):
// the HVPs along the unit directions, stackedDirections per call of gj
// (stackedGradJVP), give h's rows, then (H + Hᵀ)/2. It returns the doc
// comment.
func (h Helper) stackedHessian(b *helperBuilder, req *ssaad.Request, args []*ir.Value, k int, p param, gj *ir.DerivedFunc, shadow bool, value func() *ir.Value) string {
	n := p.size()
	const S = stackedDirections
	calls := b.Binary(token.QUO, b.Add(n, b.int(S-1)), b.int(S))
	rows := b.Emit(ir.OpMakeSlice, types.NewSlice(p.tensorT()), calls, nil)
	rows.Name = "rows"
	fv := b.float(0)
	fv.Name = "f"
	out := b.loopStep("i", b.int(0), n, S, []*ir.Value{fv}, func(i *ir.Value, _ []*ir.Value) []*ir.Value {
		u := p.stackedUnits(b, i)
		val, hvs := gradJVPCall(b, gj, shadow, args, k, p, []*ir.Value{u})
		at := b.Emit(ir.OpIndexAddr, types.NewPointer(p.tensorT()), rows, b.Binary(token.QUO, i, b.int(S)))
		b.Emit(ir.OpStore, nil, at, p.stackedRows(b, hvs.vals[0], u))
		return []*ir.Value{val}
	})
	val := b.orValue(out[0], n, value)
	like, spread := p.like()
	hm := b.Emit(ir.OpCall, p.tensorT(), append([]*ir.Value{rows}, like...)...)
	hm.Callee = &ir.Callee{Func: ir.TensorFunc(p.tensorT(), "ParamsHessian"), Spread: spread}
	b.Cur.Return(val, hm)
	name, xname := ssaad.FuncName(req.Target), args[k].Name
	return fmt.Sprintf("%s returns %s and its Hessian with respect to %s, a [n, n] tensor (marked symmetric) over %s: "+
		"H[i, j] = ∂²%s/∂θᵢ∂θⱼ. Its rows are the Hessian-vector products along the unit directions by forward mode over "+
		"reverse mode (%s, the JVP of the gradient along up to %d unit directions at once, stacked in one tensor; "+
		"⌈n/%d⌉ calls, which give %s's value too), then (H + Hᵀ)/2, exactly symmetric.",
		req.Name, name, xname, p.order(), name, gj.Name, S, S, name)
}
