package reverse

// This file defines split reversal of calls (the split mode of Tapenade,
// Enzyme's augmented forward pass). A call reversed jointly is recomputed
// in the reverse sweep from the memory it read, which the caller saves
// and restores around it; a callee that stores slices or pointers into
// memory its caller reaches cannot be recomputed so (the recomputation
// would store fresh memory the caller's shadows do not know). Such a call
// is reversed in two halves instead:
//
//   - the forward sweep calls the callee's Split variant, fSplit(args,
//     shadows), which runs the callee's forward sweep — its results, the
//     shadows of what it stores into its caller's memory, its tapes — and
//     returns its results and its reverse sweep as a closure, back;
//   - the caller keeps back (a variable out of loops, a tape of them in
//     loops), and its reverse sweep calls back(seeds), which accumulates
//     into the shadows and returns the partials of the scalar arguments.
//
// The Split variant is the callee's VJP cut where its reverse sweep
// starts (ir.Suspend): the emitted closure captures the forward sweep's
// variables. Since the caller runs between the halves and may write any
// memory it reaches, the variant assumes every memory class written after
// its end (writtenAfterBy): its reverse reads no memory of the caller's
// but the shadows, and records what it needs; it restores no memory and
// fuses no loop.

import (
	"fmt"
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// mayChange reports whether memory of alias class c may change between a
// point of the primal and the reverse sweep: the function writes it, or,
// in the Split variant, the caller may (see writtenAfterBy).
func (t *transformer) mayChange(c int) bool {
	return t.split || t.classWritten[c]
}

// splitSignature returns the signature of the Split variant: the callee
// variant's parameters but its seeds, and its results: the primal's, the
// shadows of those that are slices or pointers, then back, a func of the
// other results' seeds returning the partials.
func splitSignature(fn *types.Func, active []bool, method bool) (*types.Signature, error) {
	sig, err := signature(fn, active, method, true, true)
	if err != nil {
		return nil, err
	}
	nm := computeNames(fn, active)
	nseeds := 0
	for _, s := range nm.seeds {
		if s != "" {
			nseeds++
		}
	}
	pr := fn.Type().(*types.Signature).Results()
	ps := sig.Params()
	var params, seeds []*types.Var
	for i := range ps.Len() {
		if i < ps.Len()-nseeds {
			params = append(params, ps.At(i))
		} else if !shadowResult(ps.At(i).Type()) {
			seeds = append(seeds, ps.At(i))
		}
	}
	var partials []*types.Var
	for v := range sig.Results().Variables() {
		partials = append(partials, v)
	}
	back := types.NewSignatureType(nil, nil, nil, types.NewTuple(seeds...), types.NewTuple(partials...), false)
	var results []*types.Var
	for i := range pr.Len() {
		results = append(results, types.NewParam(pr.At(i).Pos(), fn.Pkg(), "", pr.At(i).Type()))
	}
	for i := range pr.Len() {
		if shadowResult(pr.At(i).Type()) {
			results = append(results, types.NewParam(pr.At(i).Pos(), fn.Pkg(), "", pr.At(i).Type()))
		}
	}
	results = append(results, types.NewParam(0, fn.Pkg(), "", back))
	return types.NewSignatureType(sig.Recv(), nil, nil, types.NewTuple(params...), types.NewTuple(results...), false), nil
}

// splitRefusal returns why call v cannot be reversed by split reversal
// (its arguments are not passed as this version passes them), or "".
func (t *transformer) splitRefusal(v *ir.Value) string {
	fixed, elems := variadicElems(v)
	if elems != nil {
		return "with variadic arguments listed one by one"
	}
	if sameArgs(fixed) != nil {
		return "with arguments that share memory"
	}
	for _, a := range v.Args {
		if t.act.Varied(a) && mixedParam(a.Type) {
			return "with structs of slices passed by value"
		}
	}
	return ""
}

// forwardSplit emits, in the forward sweep, the call of the Split variant
// of v's callee: its results are v's, and its continuation is kept for
// the reverse of v (splitAdjoint).
func (t *transformer) forwardSplit(v *ir.Value) {
	callee := v.Callee.Func
	active := make([]bool, len(v.Args))
	var args []*ir.Value
	for i, a := range v.Args {
		active[i] = t.act.Varied(a) && (hasAdjoint(a.Type) || handsMemory(a.Type))
		args = append(args, t.v(a))
		if active[i] && ssaad.IsPointerLike(a.Type) {
			d := t.fwdShadow(a)
			if d == nil {
				t.errorf(v.Pos, "call of "+callee.Name(), "reverse mode cannot split this call: argument %d has no shadow", i+1)
				d = t.F.ConstValue(a.Type, nil)
			}
			args = append(args, d)
		}
	}
	df, err := t.env.Derivative(SplitMode, callee, active, v.Pos)
	if err != nil {
		t.errorf(v.Pos, "call of "+callee.Name(), "%v", err)
		t.val[v] = t.Same(v, args...)
		return
	}
	res := df.Sig.Results()
	n := res.Len() - 1 // the results, and the shadows of the slices and pointers among them
	var typ types.Type = res
	if n == 0 {
		typ = res.At(0).Type()
	}
	call := t.Emit(ir.OpCall, typ, args...)
	call.Pos = v.Pos
	call.Callee = &ir.Callee{Derived: df}
	back := call
	nres := 0
	if tu, ok := v.Type.(*types.Tuple); ok {
		nres = tu.Len()
	} else if v.Type != nil {
		nres = 1
	}
	switch {
	case nres == 1:
		r := t.Emit(ir.OpExtract, res.At(0).Type(), call)
		r.Index = 0
		r.Name = v.Name
		t.val[v] = r
	case nres > 1:
		t.val[v] = call // its extracts 0…nres-1 are v's
	}
	shadows := map[int]*ir.Value{}
	j := nres
	for k := range nres {
		if typ := res.At(k).Type(); shadowResult(typ) {
			shadows[k] = t.Emit(ir.OpExtract, typ, call)
			shadows[k].Index = j
			j++
		}
	}
	t.splitShadows[v] = shadows
	if n > 0 {
		back = t.Emit(ir.OpExtract, res.At(n).Type(), call)
		back.Index = n
	}
	back.Name = "back"
	if t.outOfLoops(v.Block) {
		s := t.F.NewValue(ir.OpAlloc, types.NewPointer(back.Type))
		s.Name = "back"
		t.entry.Insert(0, s)
		t.Emit(ir.OpStore, nil, s, back)
		t.backs[v] = s
	} else {
		tp := t.newTape(back.Type, "backs")
		t.push(tp, back)
		t.backs[v] = tp
	}
	t.makeShadow(v)
}

// splitAdjoint emits the reverse of split call v: back(the adjoints of
// its float results), whose partials go to the adjoints of its scalar
// arguments (the adjoints of its slice and pointer results are in their
// shadows, which its forward half returned).
func (t *transformer) splitAdjoint(v *ir.Value) {
	var seeds, scalars []*ir.Value
	results, typs := callResults(v)
	for k, typ := range typs {
		if typ != nil && hasAdjoint(typ) && !shadowResult(typ) {
			seeds = append(seeds, t.resultSeed(v, results[k], k, typ))
		}
	}
	for _, a := range v.Args {
		if t.act.Varied(a) && hasAdjoint(a.Type) && !ssaad.IsPointerLike(a.Type) {
			scalars = append(scalars, a)
		}
	}
	var back *ir.Value
	keep := t.backs[v]
	if keep == nil {
		return // forwardSplit reported why
	}
	if t.outOfLoops(v.Block) {
		back = t.Emit(ir.OpLoad, keep.Type.(*types.Pointer).Elem(), keep)
	} else {
		back = t.pop(keep, 1)[0]
	}
	res := back.Type.Underlying().(*types.Signature).Results()
	t.callPartials(v, &ir.Callee{Value: true}, res, append([]*ir.Value{back}, seeds...), scalars)
}

// suspend ends the forward sweep of the Split variant: a call of
// ir.SuspendBuiltin with the primal results and, so that no pass moves a
// memory access across it, the parameters that reach memory.
func (t *transformer) suspend() {
	var args []*ir.Value
	sp := &ir.Suspend{Back: "back"}
	res := t.exit.Terminator().Args
	for _, a := range res {
		args = append(args, t.v(a))
		sp.Names = append(sp.Names, "")
		sp.Types = append(sp.Types, a.Type)
	}
	for _, a := range res {
		if shadowResult(a.Type) {
			d := t.fwdShadow(a)
			if d == nil {
				// Memory of no varied value here: the caller may store
				// some into it.
				d = t.freshShadow(t.v(a))
			}
			args = append(args, d)
			sp.Names = append(sp.Names, "")
			sp.Types = append(sp.Types, a.Type)
		}
	}
	for _, p := range t.F.Params {
		if ssaad.RefersToMemory(p.Type) {
			args = append(args, p)
		}
	}
	for _, s := range t.seeds {
		if s != nil {
			sp.BackParams++
		}
	}
	c := t.Emit(ir.OpCall, nil, args...)
	c.Callee = &ir.Callee{Builtin: ir.SuspendBuiltin}
	t.F.Suspend = sp
}

// splitDoc is the first paragraph of the Split variant's doc comment.
func splitDoc(name string, fn *types.Func) string {
	target := ssaad.FuncName(fn)
	return fmt.Sprintf("%s is the forward half of the reverse of %s for the gradients that call it (split "+
		"reversal): it does what %s does, keeping what its reverse needs, and returns %s's results "+
		"and back, the reverse half: back takes the adjoints of the results and returns the partials "+
		"of the varied scalar inputs, accumulating the adjoints of the varied memory into the shadows "+
		"(the caller's reverse sweep calls it, with the adjoints of what %s left in memory in the "+
		"shadows).\n\n", name, target, target, target, target)
}
