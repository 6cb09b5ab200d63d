package ssaad

// This file defines what the driver does to a function generated with
// stacked directions (Options.Stacked) once it is final: RetypeStacked
// makes the floats that depend on the directions tensors of directions,
// and CheckStacked checks that what depends on them are tensors of
// directions (or memory holding them) that only the runtime's lane-aware
// operations touch.

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/templates"
)

// CalleeLanes tells which parameters and results of a derivative that a
// function with stacked directions calls hold directions (the callee's
// ir.Func.Lanes and ResultLanes); a function returns nil where it does
// not know them.
type CalleeLanes struct {
	Params, Results func(*ir.DerivedFunc) []bool
}

// CheckStacked returns an error when f, generated with stacked directions
// (its parameters marked in f.Lanes), computes a live value that the
// stacked layout cannot carry: a float (or a slice, array or struct of
// floats) that depends on the directions — one number per direction —, or
// a call on tensors of directions of a function that does not compute
// direction by direction (templates.StackedOp), or of a function that is
// not a generated derivative. Run it on the final form of f (after
// simplify), whose dead values are gone. The caller then uses the
// directions one lane at a time instead.
//
// cl tells, for a derivative that f calls, which of its results hold
// directions (all do where it does not know) and which of its
// parameters do: the memory of arguments passed to those (all of them
// where it does not know) may receive directions from the call.
func CheckStacked(f *ir.Func, cl CalleeLanes) error {
	dep := stackedDeps(f, cl)
	live := liveValues(f)
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if !live[v] {
				continue
			}
			if dep[v] && holdsScalarFloats(v.Type) {
				return fmt.Errorf("%s carries a %s per direction (%s); stacked directions carry tensors only", f.Name, v.Type, describe(v))
			}
			if v.Op != ir.OpCall {
				continue
			}
			touched := false
			for _, a := range v.Args {
				touched = touched || dep[a]
			}
			if !touched {
				continue
			}
			if err := stackedCall(v); err != nil {
				return fmt.Errorf("%s: %v", f.Name, err)
			}
		}
	}
	return nil
}

// stackedCall returns an error unless a call of c may take tensors of
// directions: a lane-aware function of the runtime, a generated
// derivative (generated with stacked directions too, and checked), or a
// builtin that moves values without reading them.
func stackedCall(v *ir.Value) error {
	c := v.Callee
	switch name := ir.TensorCall(v); {
	case c == nil:
		return fmt.Errorf("a call without a callee on directions")
	case c.Derived != nil:
		return nil
	case c.Builtin != "":
		switch c.Builtin {
		case "append", "len", "cap", "copy", "clear":
			return nil
		}
		return fmt.Errorf("builtin %s on directions", c.Builtin)
	case name != "":
		if templates.StackedOp(name) || name == templates.ReleaseFunc { // it computes nothing
			return nil
		}
		return fmt.Errorf("tensorops.%s does not compute direction by direction", name)
	case c.Func != nil:
		return fmt.Errorf("%s is called on directions", c.Func.FullName())
	}
	return fmt.Errorf("a dynamic call on directions")
}

// stackedDeps returns the values of f that depend on its parameters of
// directions: through their arguments (φs included), and through memory:
// a load depends on the directions when its address does, or when a
// value of its kind that depends on them was stored into memory that the
// address may reach (regions), by f or by a derivative f calls with
// directions. The sum over the directions
// (tensorops.SumLanes), the primal results of a derivative, and values
// that hold neither floats nor tensors (lengths, indices, conditions) do
// not.
func stackedDeps(f *ir.Func, cl CalleeLanes) map[*ir.Value]bool {
	dep := map[*ir.Value]bool{}
	for i, p := range f.Params {
		if i < len(f.Lanes) && f.Lanes[i] {
			dep[p] = true
		}
	}
	reg := newRegions(f)
	storedTensors, storedFloats := map[*ir.Value]bool{}, map[*ir.Value]bool{}
	changed := true
	// stored records that values of type t that depend on the directions
	// went into the memory of addr's region.
	stored := func(addr *ir.Value, t types.Type) {
		r := reg.find(addr)
		if HoldsTensors(t) && !storedTensors[r] {
			storedTensors[r], changed = true, true
		}
		if holdsScalarFloats(t) && !storedFloats[r] {
			storedFloats[r], changed = true, true
		}
	}
	for changed {
		changed = false
		for _, b := range f.Blocks {
			for _, v := range b.Instrs {
				d := false
				for _, a := range v.Args {
					d = d || dep[a]
				}
				if d && v.Op == ir.OpCall && v.Callee != nil && v.Callee.Derived != nil {
					// A derivative called with directions may store
					// values of directions into the memory its
					// arguments of directions reach (a shadow it steps
					// in place): all of them where its layout is not
					// known yet.
					pl := cl.Params(v.Callee.Derived)
					for i, a := range v.Args {
						if a != nil && a.Type != nil && holdsMemory(a.Type) && (pl == nil || i < len(pl) && pl[i]) {
							stored(a, a.Type)
						}
					}
				}
				switch {
				case v.Op == ir.OpStore:
					if val := v.Args[1]; dep[val] {
						stored(v.Args[0], val.Type)
					}
					continue
				case dep[v]:
					continue
				case v.Type != nil && holdsMemory(v.Type) && (storedTensors[reg.find(v)] && HoldsTensors(v.Type) || storedFloats[reg.find(v)] && holdsScalarFloats(v.Type)):
					// Memory (a slice, a struct by pointer) into which
					// values of directions were stored.
					d = true
				case v.Op == ir.OpLoad:
					if e, ok := eachResult(v, dep); ok {
						d = e
						break
					}
					r := reg.find(v.Args[0])
					d = d || storedTensors[r] && HoldsTensors(v.Type) || storedFloats[r] && holdsScalarFloats(v.Type)
				case ir.TensorCall(v) == "SumLanes", ir.TensorCall(v) == "LaneSum", isBuiltin(v, ir.LaneSumBuiltin):
					d = false
				case v.Op == ir.OpExtract && v.Args[0].Op == ir.OpCall && v.Args[0].Callee != nil && v.Args[0].Callee.Derived != nil:
					// A result of a derivative: the primal ones do not
					// depend on the directions.
					if rl := cl.Results(v.Args[0].Callee.Derived); rl != nil && v.Index < len(rl) {
						d = d && rl[v.Index]
					}
				}
				if d && v.Type != nil && carries(v.Type) {
					dep[v] = true
					changed = true
				}
			}
		}
	}
	return dep
}

// regions partitions the memory that f's values may point to, by
// unification: an address and what is derived from it (a field, an
// element, a slice, a pointer loaded from it), a pointer and the cell it
// is stored into, and the arguments and results of φs, conversions and
// calls that may pass memory through are one region. Tensors are values
// here: their storage is the runtime's.
type regions struct{ parent map[*ir.Value]*ir.Value }

func newRegions(f *ir.Func) *regions {
	r := &regions{parent: map[*ir.Value]*ir.Value{}}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			switch v.Op {
			case ir.OpFieldAddr, ir.OpIndexAddr, ir.OpSlice, ir.OpField, ir.OpIndex, ir.OpLoad, ir.OpExtract:
				r.union(v, v.Args[0])
			case ir.OpStore:
				if holdsMemory(v.Args[1].Type) {
					r.union(v.Args[0], v.Args[1])
				}
			case ir.OpCall:
				if v.Callee == nil || v.Callee.Builtin != "append" {
					r.unionAll(v)
					continue
				}
				// append's result may share its first argument's
				// memory; the others' elements are copied, which share
				// memory only when they hold some.
				r.union(v, v.Args[0])
				elem := v.Args[0].Type.Underlying().(*types.Slice).Elem()
				if holdsMemory(elem) {
					for _, a := range v.Args[1:] {
						r.union(v, a)
					}
				}
			default:
				r.unionAll(v)
			}
		}
	}
	return r
}

// unionAll unites v with its arguments that hold memory, when v does.
func (r *regions) unionAll(v *ir.Value) {
	if v.Type == nil || !holdsMemory(v.Type) {
		return // a value: it passes no memory on
	}
	for _, a := range v.Args {
		if a != nil && a.Type != nil && holdsMemory(a.Type) {
			r.union(v, a)
		}
	}
}

func (r *regions) find(v *ir.Value) *ir.Value {
	for {
		p, ok := r.parent[v]
		if !ok || p == v {
			return v
		}
		if q, ok := r.parent[p]; ok && q != p {
			r.parent[v] = q
		}
		v = p
	}
}

func (r *regions) union(a, b *ir.Value) {
	if a == nil || b == nil || a.Op == ir.OpConst || b.Op == ir.OpConst {
		return // a constant (nil) points to no memory, and is shared
	}
	ra, rb := r.find(a), r.find(b)
	if ra != rb {
		r.parent[ra] = rb
	}
}

// holdsMemory reports whether values of type t hold pointers, slices or
// maps (tensors aside) through which memory is shared.
func holdsMemory(t types.Type) bool {
	return walkType(t, map[types.Type]bool{}, func(t types.Type) bool {
		if ir.IsTensor(t) {
			return false
		}
		switch t.Underlying().(type) {
		case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Interface, *types.Signature:
			return true
		}
		return false
	})
}

// eachFirst gives, for the runtime's functions that return one product
// per operand (tensorops.MatMulEach(b, transB, as...),
// MatMulGradAEach(a, b, transB, gs...)), the index of their first such
// operand.
var eachFirst = map[string]int{"MatMulEach": 2, "MatMulGradAEach": 3}

// eachResult reports, for v a load of element j (a constant) of the
// result of such a call, whether that element depends on the directions:
// when its own operand or a shared one does; ok is false for other
// loads.
func eachResult(v *ir.Value, dep map[*ir.Value]bool) (d, ok bool) {
	ia := v.Args[0]
	if ia.Op != ir.OpIndexAddr || ia.Args[1].Op != ir.OpConst || ia.Args[1].Const == nil {
		return false, false
	}
	c := ia.Args[0]
	first, ok := eachFirst[ir.TensorCall(c)]
	j, exact := constant.Int64Val(ia.Args[1].Const)
	if !ok || !exact || first+int(j) >= len(c.Args) || c.Callee.Spread {
		return false, false
	}
	for _, a := range c.Args[:first] {
		d = d || dep[a]
	}
	return d || dep[c.Args[first+int(j)]], true
}

// liveValues returns the values of f that its effects, its control flow
// and its results use, transitively.
func liveValues(f *ir.Func) map[*ir.Value]bool {
	live := map[*ir.Value]bool{}
	var work []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if v.Op.HasEffect() && !(v.Op == ir.OpCall && v.Callee.Pure()) {
				live[v] = true
				work = append(work, v)
			}
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range v.Args {
			if a != nil && !live[a] {
				live[a] = true
				work = append(work, a)
			}
		}
	}
	return live
}

// HoldsTensors reports whether values of type t hold tensors (directly or
// through slices, arrays, pointers and struct fields).
func HoldsTensors(t types.Type) bool {
	return walkType(t, map[types.Type]bool{}, func(t types.Type) bool { return ir.IsTensor(t) })
}

// holdsScalarFloats reports whether values of type t hold floats outside
// tensors.
func holdsScalarFloats(t types.Type) bool {
	return walkType(t, map[types.Type]bool{}, func(t types.Type) bool {
		b, ok := t.Underlying().(*types.Basic)
		return ok && b.Info()&(types.IsFloat|types.IsComplex) != 0
	})
}

// walkType reports whether leaf holds for t or a type that t's values
// hold through slices, arrays, pointers (not a tensor's) and struct
// fields.
func walkType(t types.Type, seen map[types.Type]bool, leaf func(types.Type) bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if leaf(t) {
		return true
	}
	if ir.IsTensor(t) {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return walkType(u.Elem(), seen, leaf)
	case *types.Array:
		return walkType(u.Elem(), seen, leaf)
	case *types.Pointer:
		return walkType(u.Elem(), seen, leaf)
	case *types.Struct:
		for f := range u.Fields() {
			if walkType(f.Type(), seen, leaf) {
				return true
			}
		}
	case *types.Tuple:
		for v := range u.Variables() {
			if walkType(v.Type(), seen, leaf) {
				return true
			}
		}
	}
	return false
}

// carries reports whether values of type t may carry directions: all
// but the basic types without floats (lengths, indices, conditions,
// strings); an interface may hold a tensor (a Fuse operand).
func carries(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return !ok || b.Info()&(types.IsFloat|types.IsComplex) != 0
}

// describe names v for a message: its op, and a call's callee.
func describe(v *ir.Value) string {
	if v.Op == ir.OpCall && v.Callee != nil {
		switch c := v.Callee; {
		case c.Func != nil:
			return "a call of " + c.Func.Name()
		case c.Derived != nil:
			return "a call of " + c.Derived.Name
		case c.Builtin != "":
			return "a call of " + c.Builtin
		}
	}
	return v.Op.String()
}

// RetypeStacked rewrites the floats of f (generated with stacked
// directions, final) that depend on the directions into tensors of
// directions of scalars ([L], tensorops.SumAllLanes and the like): their
// arithmetic into the runtime's lane-aware operations (a tensor times a
// float of directions is Mul, which scales each direction by its own),
// the φs that carry them into φs of tensors, and the sums over the
// directions (ir.LaneSumBuiltin) into tensorops.LaneSum, or into their
// argument where it does not depend on them. It returns an error,
// and changes nothing, when such a float has another use (a store, a call
// that takes a float, a conversion): CheckStacked would refuse f anyway.
func RetypeStacked(f *ir.Func, cl CalleeLanes) error {
	var tensorT types.Type // the runtime's *Tensor, from any tensor of f
	for _, p := range f.Params {
		if ir.IsTensor(p.Type) {
			tensorT = p.Type
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if tensorT == nil && v.Type != nil && ir.IsTensor(v.Type) {
				tensorT = v.Type
			}
		}
	}
	dep := stackedDeps(f, cl)
	uses := ir.Uses(f)
	var floats, lanes, zeros []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Instrs {
			if isBuiltin(v, ir.LaneSumBuiltin) {
				floats = append(floats, v) // rewritten below, whether or not its argument depends
				continue
			}
			if isBuiltin(v, ir.LaneFloatBuiltin) && !dep[v] {
				if !IsZero(v.Args[0]) {
					return fmt.Errorf("%s: a callee's coefficient of directions does not depend on them", f.Name)
				}
				zeros = append(zeros, v) // a zero coefficient: 0
				continue
			}
			if isBuiltin(v, ir.LaneTensorBuiltin) {
				if !dep[v.Args[0]] || !isFloat64(v.Args[0].Type) {
					return fmt.Errorf("%s: a coefficient returned as directions is not a float64 of directions", f.Name)
				}
				lanes = append(lanes, v)
				continue
			}
			if dep[v] && isFloat64(v.Type) {
				if tensorT == nil {
					return fmt.Errorf("%s: a float per direction and no tensor of directions", f.Name)
				}
				if err := retypable(v, dep); err != nil {
					return fmt.Errorf("%s: %v", f.Name, err)
				}
				for _, u := range uses[v.ID] {
					if err := takesScalarLanes(u, v, dep); err != nil {
						return fmt.Errorf("%s: %v", f.Name, err)
					}
				}
				floats = append(floats, v)
			}
		}
	}
	for _, v := range floats {
		retype(f, v, dep, tensorT, uses[v.ID])
	}
	for _, v := range zeros {
		replaceBy(f, v, f.ConstValue(v.Type, constant.MakeFloat64(0)))
	}
	// The coefficients returned as tensors of directions are those
	// tensors now.
	for _, v := range lanes {
		replaceBy(f, v, v.Args[0])
	}
	return nil
}

// scalarLanes maps the runtime's reductions to a float to their forms on
// tensors of directions.
var scalarLanes = map[string]string{"SumAll": "SumAllLanes", "MeanAll": "MeanAllLanes", "Dot": "DotLanes"}

// retypable returns an error unless v, a float of directions, is one that
// RetypeStacked rewrites.
func retypable(v *ir.Value, dep map[*ir.Value]bool) error {
	switch v.Op {
	case ir.OpBinary:
		switch v.Tok {
		case token.ADD, token.SUB, token.MUL:
			return nil
		case token.QUO:
			if !dep[v.Args[1]] {
				return nil
			}
		}
	case ir.OpUnary:
		if v.Tok == token.SUB {
			return nil
		}
	case ir.OpPhi, ir.OpSelect:
		args := v.Args
		if v.Op == ir.OpSelect {
			args = args[1:] // the condition is not a float
		}
		for _, a := range args {
			if !dep[a] && !IsZero(a) {
				return fmt.Errorf("a %s of a float per direction and %s", v.Op, describe(a))
			}
		}
		return nil
	case ir.OpCall:
		if scalarLanes[ir.TensorCall(v)] != "" || isBuiltin(v, ir.LaneFloatBuiltin) {
			return nil
		}
	}
	return fmt.Errorf("a float per direction from %s", describe(v))
}

// takesScalarLanes returns an error unless u's use of v, a float of
// directions, survives v's becoming a tensor of directions.
func takesScalarLanes(u, v *ir.Value, dep map[*ir.Value]bool) error {
	switch u.Op {
	case ir.OpBinary, ir.OpUnary, ir.OpPhi, ir.OpSelect:
		if dep[u] && isFloat64(u.Type) && (u.Op != ir.OpSelect || u.Args[0] != v) {
			return retypable(u, dep)
		}
	case ir.OpConvert:
		if _, ok := u.Type.Underlying().(*types.Interface); ok {
			return nil // a Fuse operand
		}
	case ir.OpCall:
		c := u.Callee
		if c.Builtin == ir.LaneSumBuiltin || c.Builtin == ir.LaneTensorBuiltin {
			return nil
		}
		switch ir.TensorCall(u) {
		case "Scale", "AddScalar", "FullLike":
			if len(u.Args) == 2 && u.Args[1] == v && u.Args[0] != v {
				return nil
			}
		}
	}
	return fmt.Errorf("a float per direction used by %s", describe(u))
}

// retype rewrites v (see RetypeStacked) in place, and the uses of v that
// take it as a float.
func retype(f *ir.Func, v *ir.Value, dep map[*ir.Value]bool, tensorT types.Type, uses []*ir.Value) {
	fn := func(name string) *ir.Callee { return &ir.Callee{Func: ir.TensorFunc(tensorT, name)} }
	f64 := types.Typ[types.Float64]
	// before inserts a new value ahead of v in its block.
	before := func(op ir.Op, t types.Type, args ...*ir.Value) *ir.Value {
		n := f.NewValue(op, t, args...)
		i := slices.Index(v.Block.Instrs, v)
		v.Block.Insert(i, n)
		return n
	}
	switch {
	case isBuiltin(v, ir.LaneSumBuiltin):
		if !dep[v.Args[0]] {
			replaceBy(f, v, v.Args[0])
			return
		}
		v.Callee = fn("LaneSum")
		return
	case isBuiltin(v, ir.LaneFloatBuiltin):
		replaceBy(f, v, v.Args[0]) // the callee's tensor of directions itself
		return
	case v.Op == ir.OpCall:
		v.Callee = fn(scalarLanes[ir.TensorCall(v)])
	case v.Op == ir.OpPhi || v.Op == ir.OpSelect:
		for i, a := range v.Args {
			if !dep[a] && (v.Op == ir.OpPhi || i > 0) {
				v.Args[i] = f.ConstValue(tensorT, nil)
			}
		}
	case v.Op == ir.OpUnary:
		v.Op, v.Callee = ir.OpCall, fn("Neg")
	case v.Op == ir.OpBinary:
		x, y := v.Args[0], v.Args[1]
		switch xt, yt := dep[x], dep[y]; {
		case xt && yt:
			v.Callee = fn(map[token.Token]string{token.ADD: "Add", token.SUB: "Sub", token.MUL: "Mul"}[v.Tok])
		case v.Tok == token.ADD && xt:
			v.Callee = fn("AddScalar")
		case v.Tok == token.ADD:
			v.Callee, v.Args = fn("AddScalar"), []*ir.Value{y, x}
		case v.Tok == token.SUB && xt:
			ny := before(ir.OpUnary, f64, y)
			ny.Tok = token.SUB
			v.Callee, v.Args = fn("AddScalar"), []*ir.Value{x, ny}
		case v.Tok == token.SUB:
			v.Callee, v.Args = fn("Affine"), []*ir.Value{y, f.ConstValue(f64, constant.MakeFloat64(-1)), x}
		case v.Tok == token.MUL && xt:
			v.Callee = fn("Scale")
		case v.Tok == token.MUL:
			v.Callee, v.Args = fn("Scale"), []*ir.Value{y, x}
		case v.Tok == token.QUO:
			inv := before(ir.OpBinary, f64, f.ConstValue(f64, constant.MakeFloat64(1)), y)
			inv.Tok = token.QUO
			v.Callee, v.Args = fn("Scale"), []*ir.Value{x, inv}
		}
		v.Op = ir.OpCall
	}
	v.Type = tensorT
	// Its uses among the runtime's scalar forms take it as a tensor.
	for _, u := range uses {
		if len(u.Args) != 2 || u.Args[1] != v {
			continue
		}
		switch ir.TensorCall(u) {
		case "Scale":
			u.Callee = fn("Mul")
		case "AddScalar":
			u.Callee = fn("Add")
		case "FullLike":
			// FullLike(like, s): s's directions broadcast to like.
			u.Callee, u.Args = fn("ExpandLike"), []*ir.Value{v, u.Args[0]}
		}
	}
}

// isFloat64 reports whether t is float64.
func isFloat64(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.Float64
}

// isBuiltin reports whether v calls the builtin name.
func isBuiltin(v *ir.Value, name string) bool {
	return v.Op == ir.OpCall && v.Callee != nil && v.Callee.Builtin == name
}

// replaceBy replaces v by w in f: every use of v, then v itself.
func replaceBy(f *ir.Func, v, w *ir.Value) {
	ir.ReplaceUses(f, v, w)
	v.Block.Instrs = slices.DeleteFunc(v.Block.Instrs, func(x *ir.Value) bool { return x == v })
}
