package reverse

// This file keeps the memory the caller can see in the state the primal
// leaves it in. The reverse sweep writes primal memory: it restores what a
// callee read before running the callee's VJP, which redoes the callee's
// writes. For memory of the function's own, that is harmless; for memory
// reached from a parameter, the caller would see the state of some
// earlier point of the primal. So the forward sweep saves the final
// contents of such parameters, and the generated function puts them back
// before it returns.

import (
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// rewrittenParams returns the parameters (slices and pointers, and
// struct values holding them) whose memory the reverse sweep writes, in
// parameter order.
func (t *transformer) rewrittenParams() []*ir.Value {
	if t.callee {
		return nil // the caller reads none of it again (see Mode.Callee)
	}
	hit := map[*ir.Value]bool{}
	for _, b := range t.primal.Blocks {
		for _, v := range b.Instrs {
			if v.Op != ir.OpCall || !t.reversedCall(v) {
				continue
			}
			for i, a := range v.Args {
				if !handsMemory(a.Type) || !t.needsSnapshot(v, i) && !t.callWrites(v, i) {
					continue
				}
				if r := rootOf(a); r.Op == ir.OpParam {
					hit[r] = true
				}
				// Memory the argument holds may be a parameter's (a
				// state built around it: &state{q: x}), which the
				// callee's reverse rewrites too.
				for _, p := range t.primal.Params {
					if handsMemory(p.Type) && t.act.Class(p) >= 0 && t.act.Class(p) == t.act.Class(a) {
						hit[p] = true
					}
				}
			}
		}
	}
	for p := range t.restoredParams() {
		hit[p] = true
	}
	var out []*ir.Value
	for _, p := range t.primal.Params {
		if hit[p] {
			out = append(out, p)
		}
	}
	return out
}

// rootOf returns the value address or slice a is derived from by
// indexing, fields and slicing.
func rootOf(a *ir.Value) *ir.Value {
	for {
		switch a.Op {
		case ir.OpIndexAddr, ir.OpFieldAddr, ir.OpSlice:
			a = a.Args[0]
		default:
			return a
		}
	}
}

// saveFinal emits, at the end of the forward sweep, copies of the
// contents of params, and returns them. The memory of a parameter that
// holds slices or pointers (a *state of slices) is saved deep on tapes of
// its own (see snapshot.go), its entry in the result nil.
func (t *transformer) saveFinal(params []*ir.Value) []*ir.Value {
	var saved []*ir.Value
	for _, p := range params {
		pv := t.v(p)
		if deepSnapshot(p.Type) || mixedParam(p.Type) {
			if !snapshotable(p.Type) {
				t.errorf(t.primal.Pos, "parameter "+p.Name, "reverse mode can put back the final contents of a parameter only when its memory is made of numbers in structs, arrays, slices and pointers, for now; not of type %s", types.TypeString(p.Type, pkgName))
				saved = append(saved, nil)
				continue
			}
			t.saveMemory(pv, t.finalTape)
			saved = append(saved, nil)
			continue
		}
		switch typ := p.Type.Underlying().(type) {
		case *types.Slice:
			s := t.Emit(ir.OpCall, p.Type, pv)
			s.Callee = &ir.Callee{Func: slicesFunc("Clone", []types.Type{p.Type}, p.Type)}
			s.Name = "final" + capitalize(p.Name)
			saved = append(saved, s)
		case *types.Pointer:
			x := t.Emit(ir.OpLoad, typ.Elem(), pv)
			x.Name = "final" + capitalize(p.Name)
			saved = append(saved, x)
		default:
			saved = append(saved, nil)
		}
	}
	return saved
}

// restoreFinal emits, before the return, the writing back of saved.
func (t *transformer) restoreFinal(params, saved []*ir.Value) {
	for i := len(params) - 1; i >= 0; i-- {
		if (deepSnapshot(params[i].Type) || mixedParam(params[i].Type)) && snapshotable(params[i].Type) {
			t.restoreMemory(t.v(params[i]), t.finalTape)
		}
	}
	for i, p := range params {
		switch {
		case saved[i] == nil:
		case saved[i].Op == ir.OpCall:
			cp := t.Emit(ir.OpCall, intType, t.v(p), saved[i])
			cp.Callee = &ir.Callee{Builtin: "copy"}
		default:
			t.Emit(ir.OpStore, nil, t.v(p), saved[i])
		}
	}
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// deepSnapshot reports whether the memory a slice or pointer of type typ
// refers to holds slices or pointers: a copy of it is a deep snapshot.
func deepSnapshot(typ types.Type) bool {
	return ssaad.IsPointerLike(typ) && snapshotElem(typ) == nil
}

// finalTape returns the tape of values of type typ on which saveFinal
// keeps the final contents of parameters that hold memory, apart from the
// tapes of the sweeps, which the reverse sweep empties first.
func (t *transformer) finalTape(typ types.Type) *ir.Value {
	key := types.TypeString(typ, nil)
	if tp, ok := t.finalTapes[key]; ok {
		return tp
	}
	tp := t.newTape(typ, "finalState")
	t.finalTapes[key] = tp
	return tp
}
