package simplify

// This file defines the inlining of small callees whose loops LICM can
// optimize once they are inlined. Inside a callee, LICM knows nothing of
// its arguments: in Normalize(dst, x), the loop writes dst and mag(x)
// reads x, and the two may share memory. At a call Normalize(out, x) where
// out is a slice the caller just allocated, they cannot; inlining the call
// hands LICM that knowledge. So the pass inlines a call when (a
// profitability test, in the manner of a cost-model-driven inliner) LICM,
// run on a copy of the caller with the call inlined, hoists a call of a
// function of the program out of the inlined loop; other calls stay
// calls, and their derivatives stay functions of their own. Hoisting such
// a call can change the order of the cost (mag(x) is O(n)); hoisting
// arithmetic or a call of package math saves a constant factor that
// inlining can cost again: reverse mode records an inlined loop's values
// on a tape where it recomputes a callee's (S2a's GMM gradient was 25%
// slower with qtimesx and logsumexp inlined).

import (
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// inlineBudget bounds the size (values) of a callee that Inline considers.
const inlineBudget = 80

// Inline inlines the calls of f that LICM profits from (see above):
// calls of functions of f's package with a body of at most inlineBudget
// values that has a loop, allocates nothing and returns.
func Inline(f *ir.Func, env Env) {
	if env == nil {
		return
	}
	tried := map[*ir.Value]bool{}
	small := map[*types.Func]bool{} // by callee: inlinable
	for {
		call := nextInlineCandidate(f, env, tried, small)
		if call == nil {
			break
		}
		tried[call] = true
		if body := env.Body(call.Callee.Func); leafScalar(body) {
			inlineCall(f, call, body)
			continue
		}
		g, m := cloneFunc(f)
		inlined := inlineCall(g, m[call], env.Body(call.Callee.Func))
		profit := false
		for _, v := range licm(g, env) {
			profit = profit || inlined[v] && v.Op == ir.OpCall && !isPrimitive(v) && v.Callee.Builtin == ""
		}
		if profit {
			inlineCall(f, call, env.Body(call.Callee.Func))
		}
	}
	DeadCode(f)
}

// nextInlineCandidate returns a call of f not in tried that Inline may
// inline, or nil.
func nextInlineCandidate(f *ir.Func, env Env, tried map[*ir.Value]bool, small map[*types.Func]bool) *ir.Value {
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpCall || tried[v] {
				continue
			}
			c := v.Callee
			if c.Func == nil || c.Invoke || c.Derived != nil || c.Builtin != "" || c.Spread || c.Rule != nil ||
				c.Func.Pkg() == nil || f.Pkg == nil || c.Func.Pkg().Path() != f.Pkg.Path() {
				continue
			}
			if c.Func.Type().(*types.Signature).Variadic() || checkpointed(env, c.Func) {
				continue
			}
			ok, known := small[c.Func]
			if !known {
				body := env.Body(c.Func)
				ok = inlinable(body, len(v.Args)) || body != nil && len(body.Params) == len(v.Args) && leafScalar(body)
				small[c.Func] = ok
			}
			if ok {
				return v
			}
			tried[v] = true
		}
	}
	return nil
}

// leafBudget bounds the size (values) of a leaf scalar function that
// Inline inlines whatever the profit.
const leafBudget = 24

// leafScalar reports whether g is a small function of numbers that
// touches no memory and calls nothing but primitives (package math's
// functions, ...): one block, like
// func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }.
// Inlining it costs nothing and saves more than the call: reverse mode
// records its values instead of calling its reverse, which would compute
// them again.
func leafScalar(g *ir.Func) bool {
	if g == nil || len(g.Blocks) != 1 || len(g.Blocks[0].Instrs) > leafBudget {
		return false
	}
	basic := func(t types.Type) bool {
		_, ok := t.Underlying().(*types.Basic)
		return ok
	}
	for _, p := range g.Params {
		if !basic(p.Type) {
			return false
		}
	}
	for _, v := range g.Blocks[0].Instrs {
		switch v.Op {
		case ir.OpBinary, ir.OpUnary, ir.OpConvert, ir.OpReturn, ir.OpConst:
		case ir.OpCall:
			if !isPrimitive(v) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// inlinable reports whether g, a callee's body, is small, has a loop,
// allocates nothing (an allocation inlined into a caller's loop would be
// one per iteration) and returns.
func inlinable(g *ir.Func, nargs int) bool {
	if g == nil || len(g.Params) != nargs || len(g.Blocks[0].Preds) > 0 {
		return false
	}
	n, returns := 0, false
	for _, b := range g.Blocks {
		for _, v := range b.Instrs {
			n++
			switch {
			case v.Op == ir.OpAlloc || v.Op == ir.OpMakeSlice:
				return false
			case v.Op == ir.OpCall && v.Callee.Builtin == "append":
				return false
			case v.Op == ir.OpReturn:
				returns = true
			}
		}
	}
	return n <= inlineBudget && returns && len(ir.NewCFG(g).Loop) > 0
}

// inlineCall replaces call, a value of f, with the body g of its callee,
// and returns the values of f that came from g.
func inlineCall(f *ir.Func, call *ir.Value, g *ir.Func) map[*ir.Value]bool {
	b := call.Block
	at := indexOf(b, call)
	// Split b after the call: cont gets the rest of b and its successors.
	cont := f.NewBlock(b.Comment)
	for _, v := range b.Instrs[at+1:] {
		cont.Append(v)
	}
	b.Instrs = b.Instrs[:at]
	cont.Succs = b.Succs
	for _, s := range cont.Succs {
		for i, p := range s.Preds {
			if p == b {
				s.Preds[i] = cont
			}
		}
	}
	b.Succs = nil

	// Copy g's blocks and values into f, its parameters replaced by the
	// arguments.
	vals := map[*ir.Value]*ir.Value{}
	for i, p := range g.Params {
		vals[p] = call.Args[i]
	}
	blocks := map[*ir.Block]*ir.Block{}
	var newBlocks []*ir.Block
	for _, gb := range g.Blocks {
		nb := f.NewBlock(gb.Comment)
		blocks[gb] = nb
		newBlocks = append(newBlocks, nb)
	}
	inlined := map[*ir.Value]bool{}
	copyValues(f, g, vals, blocks, inlined)
	b.Jump(blocks[g.Blocks[0]])

	// Returns become jumps to cont; several returns merge in φs.
	var results [][]*ir.Value
	for _, gb := range g.Blocks {
		nb := blocks[gb]
		term := nb.Terminator()
		if term.Op != ir.OpReturn {
			continue
		}
		results = append(results, term.Args)
		nb.Instrs = nb.Instrs[:len(nb.Instrs)-1]
		nb.Jump(cont)
	}
	res := make([]*ir.Value, len(g.ResultTypes))
	for i := range res {
		if len(results) == 1 {
			res[i] = results[0][i]
			continue
		}
		phi := f.NewValue(ir.OpPhi, g.ResultTypes[i])
		for _, r := range results {
			phi.Args = append(phi.Args, r[i])
		}
		cont.Insert(i, phi)
		inlined[phi] = true
		res[i] = phi
	}
	switch len(res) {
	case 0:
	case 1:
		replaceUses(f, call, res[0])
	default:
		for _, bb := range f.Blocks {
			for _, v := range bb.Instrs {
				if v.Op == ir.OpExtract && v.Args[0] == call {
					replaceUses(f, v, res[v.Index])
				}
			}
		}
	}

	// Order: b, the callee's blocks, cont, then the blocks after b.
	rest := f.Blocks[:len(f.Blocks)-len(newBlocks)-1]
	i := slices.Index(rest, b)
	order := append([]*ir.Block(nil), rest[:i+1]...)
	order = append(order, newBlocks...)
	order = append(order, cont)
	order = append(order, rest[i+1:]...)
	f.Blocks = order
	f.Renumber()
	DeadCode(f) // the extracts of the call
	return inlined
}

// copyValues copies the values of g's blocks into the corresponding
// blocks of f, mapping arguments through vals (which it extends) and
// recording the copies in copies. Constants are copied as constants of f.
func copyValues(f, g *ir.Func, vals map[*ir.Value]*ir.Value, blocks map[*ir.Block]*ir.Block, copies map[*ir.Value]bool) {
	for _, gb := range g.Blocks {
		nb := blocks[gb]
		for _, v := range gb.Instrs {
			nv := f.NewValue(v.Op, v.Type)
			nv.Name, nv.Pos, nv.Tok, nv.Const, nv.Index = v.Name, v.Pos, v.Tok, v.Const, v.Index
			nv.Callee, nv.Heap, nv.Global, nv.Adjoint = v.Callee, v.Heap, v.Global, v.Adjoint
			nb.Append(nv)
			vals[v] = nv
			copies[nv] = true
		}
		for _, p := range gb.Preds {
			nb.Preds = append(nb.Preds, blocks[p])
		}
		for _, s := range gb.Succs {
			nb.Succs = append(nb.Succs, blocks[s])
		}
	}
	get := func(a *ir.Value) *ir.Value {
		if a == nil {
			return nil
		}
		if n, ok := vals[a]; ok {
			return n
		}
		if a.Op == ir.OpConst {
			c := f.ConstValue(a.Type, a.Const)
			vals[a] = c
			return c
		}
		panic("inline: argument " + a.Ref() + " of no block")
	}
	for _, gb := range g.Blocks {
		for i, v := range gb.Instrs {
			nv := blocks[gb].Instrs[i]
			for _, a := range v.Args {
				nv.Args = append(nv.Args, get(a))
			}
		}
	}
}

// cloneFunc returns a copy of f and the map from f's values to the copy's.
func cloneFunc(f *ir.Func) (*ir.Func, map[*ir.Value]*ir.Value) {
	g := ir.NewFunc(f.Name, f.Pkg)
	g.Recv, g.Variadic, g.Doc, g.Pos = f.Recv, f.Variadic, f.Doc, f.Pos
	vals := map[*ir.Value]*ir.Value{}
	for _, p := range f.Params {
		np := g.AddParam(p.Name, p.Type)
		np.Pos = p.Pos
		vals[p] = np
	}
	for i, t := range f.ResultTypes {
		g.AddResult(f.ResultNames[i], t)
	}
	blocks := map[*ir.Block]*ir.Block{}
	for _, b := range f.Blocks {
		blocks[b] = g.NewBlock(b.Comment)
	}
	copyValues(g, f, vals, blocks, map[*ir.Value]bool{})
	return g, vals
}
