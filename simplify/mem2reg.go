package simplify

// This file defines the promotion of local variables to SSA values. A
// derivative keeps its adjoints, the values of an iteration and the
// variables of blocks out of loops in local variables (an OpAlloc only
// loaded from and stored to), which no pass looks through; promoted, an
// adjoint's x̄ += a; t := x̄; x̄ = 0 is arithmetic that folding, algebra and
// CSE simplify, and the emitter gives the values back their variables
// (copy coalescing). The algorithm is that of Cytron, Ferrante, Rosen,
// Wegman & Zadeck, "Efficiently Computing Static Single Assignment Form
// and the Control Dependence Graph" (TOPLAS 1991): φs at the iterated
// dominance frontier of the stores, then a walk of the dominator tree
// that renames loads to the value last stored.

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/ir"
)

// Mem2Reg promotes the local variables of f whose address is only loaded
// from and stored to (not stored itself, passed to a call, indexed or
// sliced) to SSA values: the adjoints of values and of scalar locals, the
// tapes, the values of iterations and the control path of a reverse
// sweep. The sums of adjoints then drop the zeros of cleared adjoints
// (dropZeroSums), and φs merging one value go (removeTrivialPhis).
//
// The emitter writes the chains back as updates of one variable, x̄ += a,
// when the values are named alike: a value stored into an adjoint that
// has no name of its own takes the adjoint's. Aggregates of floats whose
// fields or elements are addressed stay in memory (no scalar replacement).
func Mem2Reg(f *ir.Func) {
	cfg := ir.NewCFG(f)
	uses := ir.Uses(f)
	vars, order := promotable(f, cfg, uses)
	if len(order) == 0 {
		return
	}
	phiOf := placePhis(f, frontiers(cfg), order, uses)
	r := &renamer{f: f, cfg: cfg, vars: vars, phiOf: phiOf, zero: map[*ir.Value]*ir.Value{},
		cur: map[*ir.Value][]*ir.Value{}, repl: map[*ir.Value]*ir.Value{},
		adjointLoad: map[*ir.Value]bool{}, sums: map[*ir.Value][2]bool{}}
	r.walk(f.Entry())
	// Arguments of φs from unreachable predecessors, and values replaced
	// in φs filled before their replacement was known.
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			for i, x := range v.Args {
				if x == nil && v.Op == ir.OpPhi && phiOf[v] != nil {
					v.Args[i] = r.top(phiOf[v])
				}
			}
		}
	}
	replaceAll(f, r.repl)
	removeTrivialPhis(f, phiOf)
	dropZeroSums(f, r.sumOrder, r.sums, phiOf)
}

// promotable returns the local allocations Mem2Reg promotes (in order and
// as a set): reachable, and only loaded from and stored to (not stored
// themselves), in reachable blocks.
func promotable(f *ir.Func, cfg *ir.CFG, uses [][]*ir.Value) (map[*ir.Value]bool, []*ir.Value) {
	vars := map[*ir.Value]bool{}
	var order []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpAlloc || v.Heap || !cfg.Reachable(b) {
				continue
			}
			ok := true
			for _, u := range uses[v.ID] {
				switch {
				case !cfg.Reachable(u.Block):
					ok = false
				case u.Op == ir.OpLoad:
				case u.Op == ir.OpStore && u.Args[0] == v && u.Args[1] != v:
				default:
					ok = false
				}
			}
			if ok {
				vars[v] = true
				order = append(order, v)
			}
		}
	}
	return vars, order
}

// placePhis inserts a φ for each variable at the iterated dominance
// frontier (df) of its stores and its allocation, and returns each φ's
// variable.
func placePhis(f *ir.Func, df [][]*ir.Block, order []*ir.Value, uses [][]*ir.Value) map[*ir.Value]*ir.Value {
	phiOf := map[*ir.Value]*ir.Value{} // φ → its variable
	for _, a := range order {
		// The allocation defines the variable too (zeroed memory), each
		// time it runs: in a loop, at every iteration.
		work := []*ir.Block{a.Block}
		for _, u := range uses[a.ID] {
			if u.Op == ir.OpStore && !slices.Contains(work, u.Block) {
				work = append(work, u.Block)
			}
		}
		placed := map[*ir.Block]bool{}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, d := range df[b.Index] {
				if placed[d] {
					continue
				}
				placed[d] = true
				phi := f.NewValue(ir.OpPhi, a.Type.(*types.Pointer).Elem())
				phi.Name = a.Name
				phi.Args = make([]*ir.Value, len(d.Preds))
				d.Insert(0, phi)
				phiOf[phi] = a
				work = append(work, d)
			}
		}
	}

	return phiOf
}

// renamer replaces the loads and stores of the promoted variables by the
// values they hold, along the dominator tree.
type renamer struct {
	f           *ir.Func
	cfg         *ir.CFG
	vars        map[*ir.Value]bool        // the promoted allocations
	phiOf       map[*ir.Value]*ir.Value   // φ → its variable
	zero        map[*ir.Value]*ir.Value   // a variable's zero value
	cur         map[*ir.Value][]*ir.Value // a variable's values, innermost last
	repl        map[*ir.Value]*ir.Value   // a load → the value it reads
	adjointLoad map[*ir.Value]bool        // loads of an adjoint
	// The sums of adjoints, with which of their operands are loads of
	// one.
	sums     map[*ir.Value][2]bool
	sumOrder []*ir.Value
}

// zeroOf returns the zero value of variable a.
func (r *renamer) zeroOf(a *ir.Value) *ir.Value {
	if z, ok := r.zero[a]; ok {
		return z
	}
	z := r.f.ConstValue(a.Type.(*types.Pointer).Elem(), nil)
	if c := zeroConst(z.Type); c != nil {
		z.Const = c
	}
	r.zero[a] = z
	return z
}

// top returns the value variable a holds at this point of the walk.
func (r *renamer) top(a *ir.Value) *ir.Value {
	if s := r.cur[a]; len(s) > 0 {
		return s[len(s)-1]
	}
	return r.zeroOf(a)
}

// walk renames in b, then in the blocks b dominates.
func (r *renamer) walk(b *ir.Block) {
	pushed := map[*ir.Value]int{}
	out := b.Instrs[:0]
	for _, v := range b.Instrs {
		for i, x := range v.Args {
			if r.adjointLoad[x] && v.Op == ir.OpBinary {
				if _, ok := r.sums[v]; !ok {
					r.sumOrder = append(r.sumOrder, v)
				}
				f := r.sums[v]
				f[i] = true
				r.sums[v] = f
			}
			if rep, ok := r.repl[x]; ok {
				v.Args[i] = rep
			}
		}
		switch {
		case v.Op == ir.OpPhi && r.phiOf[v] != nil:
			a := r.phiOf[v]
			r.cur[a] = append(r.cur[a], v)
			pushed[a]++
		case v.Op == ir.OpLoad && r.vars[v.Args[0]]:
			x := r.top(v.Args[0])
			r.repl[v] = x
			r.adjointLoad[v] = v.Args[0].Adjoint
			if x.Name == "" && x.Op != ir.OpConst {
				x.Name = v.Name
			}
			continue
		case v.Op == ir.OpStore && r.vars[v.Args[0]]:
			a := v.Args[0]
			if x := v.Args[1]; a.Adjoint && x.Name == "" && x.Op != ir.OpConst && x.Op != ir.OpParam {
				x.Name = a.Name // x̄ += a reads as an update of x̄
			}
			r.cur[a] = append(r.cur[a], v.Args[1])
			pushed[a]++
			continue
		case v.Op == ir.OpAlloc && r.vars[v]:
			r.cur[v] = append(r.cur[v], r.zeroOf(v))
			pushed[v]++
			continue
		}
		out = append(out, v)
	}
	for i := len(out); i < len(b.Instrs); i++ {
		b.Instrs[i] = nil
	}
	b.Instrs = out
	for _, s := range b.Succs {
		for _, v := range s.Instrs {
			if v.Op != ir.OpPhi {
				break
			}
			if a := r.phiOf[v]; a != nil {
				// Several edges from b to s: every argument from b.
				for j, p := range s.Preds {
					if p == b {
						v.Args[j] = r.top(a)
					}
				}
			}
		}
	}
	for _, c := range r.cfg.Children[b.Index] {
		r.walk(c)
	}
	for a, n := range pushed {
		r.cur[a] = r.cur[a][:len(r.cur[a])-n]
	}
}

// dropZeroSums rewrites the sums of adjoints whose operand from an
// adjoint is that adjoint's zero: 0̄ + a and a ± 0̄ become a, 0̄ - a
// becomes -a. A reverse sweep clears an adjoint once consumed and adds
// the next contribution to it, x̄ = 0; x̄ += a, which promoted is 0 + a.
// The rewrite is exact but for the sign of a zero, which an adjoint does
// not carry (ir.Value.Adjoint). As a sum that drops out can leave a φ
// merging zeros, or a zero to the next sum, it runs until nothing
// changes.
func dropZeroSums(f *ir.Func, sums []*ir.Value, from map[*ir.Value][2]bool, phis map[*ir.Value]*ir.Value) {
	for changed := true; changed; {
		changed = false
		repl := map[*ir.Value]*ir.Value{}
		for _, v := range sums {
			if v.Block == nil || v.Op != ir.OpBinary || v.Tok != token.ADD && v.Tok != token.SUB {
				continue
			}
			var zero [2]bool
			for i := range zero {
				v.Args[i] = resolve(repl, v.Args[i])
				zero[i] = from[v][i] && isFloatConst(v.Args[i], 0)
			}
			switch {
			case zero[1]:
				repl[v] = v.Args[0]
			case !zero[0]:
				continue
			case v.Tok == token.ADD:
				repl[v] = v.Args[1]
			default:
				v.Op, v.Args = ir.OpUnary, v.Args[1:]
			}
			if r := repl[v]; r != nil && r.Name == "" && r.Op != ir.OpConst {
				r.Name = v.Name
			}
			changed = true
		}
		if changed {
			for v := range repl {
				removeValue(v)
			}
			replaceAll(f, repl)
			removeTrivialPhis(f, phis)
		}
	}
}

// resolve returns what x is replaced with, following repl to its end.
func resolve(repl map[*ir.Value]*ir.Value, x *ir.Value) *ir.Value {
	for {
		r, ok := repl[x]
		if !ok {
			return x
		}
		x = r
	}
}

// replaceAll replaces every operand in f by what repl replaces it with.
func replaceAll(f *ir.Func, repl map[*ir.Value]*ir.Value) {
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			for i, x := range v.Args {
				v.Args[i] = resolve(repl, x)
			}
		}
	}
}

// removeTrivialPhis removes the φs of phis that merge one value, besides
// themselves and other such φs, or that nothing uses, until none is left.
// A web of φs merging one value is what a variable reset at the end of
// each iteration of nested loops leaves (Braun et al., "Simple and
// Efficient Construction of Static Single Assignment Form", CC 2013,
// §3.2: redundant φ SCCs): the value dominates them all, since on each
// path to one of them the web's only way in is through it.
func removeTrivialPhis(f *ir.Func, phis map[*ir.Value]*ir.Value) {
	for changed := true; changed; {
		changed = false
		uses := ir.Uses(f)
		for _, b := range f.Blocks {
			out := b.Instrs[:0]
			for _, v := range b.Instrs {
				if v.Op != ir.OpPhi || phis[v] == nil {
					out = append(out, v)
					continue
				}
				used := false
				for _, u := range uses[v.ID] {
					used = used || u != v
				}
				if !used {
					changed = true
					continue
				}
				if same := phiLeaf(v, phis); same != nil {
					ir.ReplaceUses(f, v, same)
					if same.Name == "" && same.Op != ir.OpConst {
						same.Name = v.Name
					}
					changed = true
					continue
				}
				out = append(out, v)
			}
			for i := len(out); i < len(b.Instrs); i++ {
				b.Instrs[i] = nil
			}
			b.Instrs = out
		}
	}
}

// phiLeaf returns the one value that φ v merges, following its arguments
// through the φs of phis, or nil when it merges several.
func phiLeaf(v *ir.Value, phis map[*ir.Value]*ir.Value) *ir.Value {
	var leaf *ir.Value
	seen := map[*ir.Value]bool{v: true}
	work := []*ir.Value{v}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range p.Args {
			switch {
			case a.Op == ir.OpPhi && phis[a] != nil:
				if !seen[a] {
					seen[a] = true
					work = append(work, a)
				}
			case leaf == nil:
				leaf = a
			case a != leaf && !sameConst(a, leaf):
				return nil
			}
		}
	}
	return leaf
}

// frontiers returns the dominance frontier of each block, by block index
// (Cooper, Harvey & Kennedy's formulation: for each join point, walk up
// from each predecessor to the join's immediate dominator).
func frontiers(cfg *ir.CFG) [][]*ir.Block {
	df := make([][]*ir.Block, len(cfg.Order))
	for _, b := range cfg.RPO {
		if len(b.Preds) < 2 {
			continue
		}
		for _, p := range b.Preds {
			if !cfg.Reachable(p) {
				continue
			}
			for r := p; r != nil && r != cfg.Idom[b.Index]; r = cfg.Idom[r.Index] {
				if !slices.Contains(df[r.Index], b) {
					df[r.Index] = append(df[r.Index], b)
				}
			}
		}
	}
	return df
}

// zeroConst returns the zero of a basic type as a constant, or nil (the
// zero value of other types is a constant without a value).
func zeroConst(t types.Type) constant.Value {
	b, ok := t.Underlying().(*types.Basic)
	switch {
	case !ok:
		return nil
	case b.Info()&types.IsFloat != 0:
		return constant.MakeFloat64(0)
	case b.Info()&types.IsInteger != 0:
		return constant.MakeInt64(0)
	case b.Info()&types.IsBoolean != 0:
		return constant.MakeBool(false)
	case b.Info()&types.IsString != 0:
		return constant.MakeString("")
	}
	return nil
}
