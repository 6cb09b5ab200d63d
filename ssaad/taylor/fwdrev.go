package taylor

// This file defines the Hessian-vector product by forward over reverse:
// the forward-mode derivative (Mode{Tangent: true}) of the reverse-mode
// gradient (package ssaad/reverse) of F, both built in memory, then
// spliced into FHVP(x, v, hv): one call costs a small multiple of a
// gradient, whatever len(x).

import (
	"fmt"
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/simplify"
	"github.com/gadgen/gadgen/ssaad"
	"github.com/gadgen/gadgen/ssaad/reverse"
)

// forwardOverReverse returns FHVP built by forward over reverse, or an
// error when one of the two transformations does not apply (reverse mode
// does not cover F, or forward mode cannot differentiate the gradient,
// which calls generated functions when F calls others).
func forwardOverReverse(primal *ir.Func, req *ssaad.Request, env ssaad.Env, k int, sig *types.Signature, names []string) (*ir.Func, error) {
	fn := req.Target
	// The gradient of a function that calls others with floats calls
	// their generated reverse variants, which forward mode cannot
	// differentiate: do not ask reverse mode for them.
	for _, b := range primal.Blocks {
		for _, v := range b.Instrs {
			c := v.Callee
			if v.Op != ir.OpCall || c.Builtin != "" || ssaad.ByRule(c) {
				continue
			}
			for _, a := range v.Args {
				if ssaad.HasFloat(a.Type) {
					name := c.String()
					if c.Func != nil && c.Func.Pkg() != nil {
						name = c.Func.Pkg().Name() + "." + ssaad.FuncName(c.Func)
					}
					return nil, fmt.Errorf("%s calls %s, whose reverse-mode variant forward mode cannot differentiate", ssaad.FuncName(fn), name)
				}
			}
		}
	}
	gradReq := &ssaad.Request{Mode: "grad", Target: fn, Name: "grad", Active: req.Active, Options: map[string]string{}, Pos: req.Pos}
	gsig, err := reverse.Mode{}.Signature(gradReq)
	if err != nil {
		return nil, err
	}
	g, errs := reverse.Mode{}.Transform(primal, gradReq, env)
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", errs[0].Msg)
	}
	if err := ir.Check(g); err != nil {
		return nil, fmt.Errorf("reverse mode: %v", err)
	}
	for _, b := range g.Blocks {
		for _, v := range b.Instrs {
			if v.Op == ir.OpCall && v.Callee.Derived != nil && !v.Callee.Derived.Helper {
				return nil, fmt.Errorf("the gradient calls %s, which forward mode cannot differentiate", v.Callee.Derived.Name)
			}
		}
	}
	simplify.Run(g, simplify.Derivative, simplify.Config{Optimize: true, Check: true})
	if err := lowerGrow(g); err != nil {
		return nil, err
	}

	// The gradient as a function forward mode can take: x and its
	// adjoint dx varied.
	grad := types.NewFunc(fn.Pos(), fn.Pkg(), fn.Name()+"Grad", gsig)
	gps := gsig.Params()
	if gps.Len() != len(g.Params) {
		return nil, fmt.Errorf("the gradient has %d parameters, its signature %d", len(g.Params), gps.Len())
	}
	active := make([]bool, len(g.Params))
	xi := k + 1 // the gradient's parameters: F's, each varied slice followed by its adjoint
	if xi >= len(g.Params) || g.Params[k].Type != g.Params[xi].Type {
		return nil, fmt.Errorf("unexpected gradient signature %s", gsig)
	}
	active[k], active[xi] = true, true
	fwdReq := &ssaad.Request{Mode: "jvp", Target: grad, Name: req.Name, Active: active, Options: map[string]string{}, Pos: req.Pos}
	fo, errs := transform(g, fwdReq, env, tangentMode)
	if len(errs) > 0 {
		return nil, fmt.Errorf("forward mode on the gradient: %v", errs[0].Msg)
	}
	removeTrivialPhis(fo)
	removeNoopStores(fo)
	// fo's parameters: F's, with x followed by v (x's tangent), dx (the
	// gradient, accumulated) and ddx (its tangent, accumulated: H·v).
	if len(fo.Params) != len(g.Params)+2 {
		return nil, fmt.Errorf("unexpected JVP of the gradient: %d parameters", len(fo.Params))
	}
	x, v, gr, hv := fo.Params[k], fo.Params[k+1], fo.Params[k+2], fo.Params[k+3]
	rest := fo.Params[k+4:]

	// New parameters: F's with v and hv after x.
	params := append([]*ir.Value{}, fo.Params[:k]...)
	params = append(params, x, v, hv)
	params = append(params, rest...)
	for i, p := range params {
		p.Index = i
	}
	fo.Params = params
	for i, n := range names {
		if i < len(params) {
			params[i].Name = n
		}
	}
	fo.Name = req.Name
	fo.Recv = nil
	if req.Method {
		fo.Recv = params[0].Type
	}
	fo.Variadic = sig.Variadic()

	// A new entry: check the lengths, make the gradient's buffer, clear
	// hv, then run the JVP of the gradient.
	old := fo.Entry()
	start := len(fo.Blocks)
	b := &helperBuilder{intT: types.Typ[types.Int]}
	b.F = fo
	b.Cur = fo.NewBlock("entry")
	n := b.Emit(ir.OpLen, b.intT, x)
	n.Name = "n"
	b.checkLen(v, n, fmt.Sprintf("%s: len(%s) != len(%s)", req.Name, v.Name, x.Name))
	b.checkLen(hv, n, fmt.Sprintf("%s: len(%s) != len(%s)", req.Name, hv.Name, x.Name))
	// The gradient's buffer: the parameter becomes make([]float64, n).
	gr.Op, gr.Args, gr.Index, gr.Name = ir.OpMakeSlice, []*ir.Value{n, nil}, 0, "grad"
	b.Cur.Append(gr)
	c := b.Emit(ir.OpCall, nil, hv)
	c.Callee = &ir.Callee{Builtin: "clear"}
	b.Cur.Jump(old)
	// The new blocks go first, the new entry at their head.
	fo.Blocks = append(append([]*ir.Block{}, fo.Blocks[start:]...), fo.Blocks[:start]...)
	fo.Renumber()
	// The gradient itself is not wanted.
	dropScratch(fo, gr, n)
	removeNoopStores(fo)

	// Results: F's value only.
	fo.ResultNames, fo.ResultTypes = []string{""}, []types.Type{types.Typ[types.Float64]}
	for _, blk := range fo.Blocks {
		if t := blk.Terminator(); t != nil && t.Op == ir.OpReturn {
			t.Args = t.Args[:1]
		}
	}
	return fo, nil
}

// lowerGrow rewrites the calls slices.Grow(s, n) of reverse mode's tapes
// as s2 := append(s, make([]T, n)...)[:len(s)], which forward mode
// differentiates (append and slicing act on the shadows alike): the same
// length and contents, and room for n more. Other calls of package slices
// are refused.
func lowerGrow(g *ir.Func) error {
	intT := types.Typ[types.Int]
	for _, b := range g.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			v := b.Instrs[i]
			if v.Op != ir.OpCall || v.Callee.Func == nil || v.Callee.Func.Pkg() == nil || v.Callee.Func.Pkg().Path() != "slices" {
				continue
			}
			if v.Callee.Func.Name() != "Grow" || len(v.Args) != 2 {
				return fmt.Errorf("the gradient calls slices.%s", v.Callee.Func.Name())
			}
			s, n := v.Args[0], v.Args[1]
			mk := g.NewValue(ir.OpMakeSlice, s.Type, n, nil)
			ap := g.NewValue(ir.OpCall, s.Type, s, mk)
			ap.Callee = &ir.Callee{Builtin: "append", Spread: true}
			ln := g.NewValue(ir.OpLen, intT, s)
			for k, w := range []*ir.Value{mk, ap, ln} {
				b.Insert(i+k, w)
			}
			i += 3
			v.Op, v.Args, v.Callee = ir.OpSlice, []*ir.Value{ap, nil, ln, nil}, nil
		}
	}
	return ir.Check(g)
}
