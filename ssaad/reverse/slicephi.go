package reverse

// This file defines slices chosen at run time: a φ of slices or pointers,
// as in
//
//	y := dst
//	for k := range layers {
//		h := s[k*b : (k+1)*b]
//		cell(h, y)
//		y = h
//	}
//
// Its shadow is the φ of its arguments' shadows, built in the forward
// sweep (slices of a shadow are taken beside the slices of the primal). A
// reverse block that needs such a φ, as the root of an address or an
// argument of a call, records it with its shadow: two slice headers on a
// tape, not the memory they point to.

import (
	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// pointerPhi reports whether v is a φ of slices or pointers.
func pointerPhi(v *ir.Value) bool {
	return v.Op == ir.OpPhi && ssaad.IsPointerLike(v.Type)
}

// shadowable reports whether the shadow of the slice or pointer a can be
// built in the forward sweep: a parameter or memory allocated once, a
// slice of one, or a φ of such values.
func (t *transformer) shadowable(a *ir.Value, seen map[*ir.Value]bool) bool {
	switch a.Op {
	case ir.OpParam:
		return true
	case ir.OpAlloc, ir.OpMakeSlice:
		return t.available(a)
	case ir.OpSlice:
		return t.shadowable(a.Args[0], seen)
	case ir.OpPhi:
		if seen[a] {
			return true
		}
		seen[a] = true
		for _, x := range a.Args {
			if !t.shadowable(x, seen) {
				return false
			}
		}
		return true
	}
	return false
}

// fwdShadow returns the shadow of the slice or pointer a in the forward
// sweep, or nil.
func (t *transformer) fwdShadow(a *ir.Value) *ir.Value {
	if s, ok := t.shadow[a]; ok {
		return s
	}
	return t.shadowFwd[a]
}

// forwardShadow emits, after the forward copy of v, the shadow of v when v
// is a slice of a slice that has one.
func (t *transformer) forwardShadow(v *ir.Value) {
	if v.Op != ir.OpSlice || !t.act.Varied(v) || !t.needsFwdShadow {
		return
	}
	base := t.fwdShadow(v.Args[0])
	if base == nil {
		return
	}
	args := []*ir.Value{base}
	for _, a := range v.Args[1:] {
		args = append(args, t.v(a))
	}
	d := t.Emit(ir.OpSlice, v.Type, args...)
	if v.Name != "" {
		d.Name = "d" + v.Name
	}
	t.shadowFwd[v] = d
}

// shadowPhi creates the shadow φ of pointer φ v in the forward sweep; its
// arguments are added with the primal φs' (fillShadowPhis).
func (t *transformer) shadowPhi(v *ir.Value) {
	if !pointerPhi(v) || !t.act.Varied(v) {
		return
	}
	d := t.Emit(ir.OpPhi, v.Type)
	if v.Name != "" {
		d.Name = "d" + v.Name
	}
	t.shadowFwd[v] = d
}

// fillShadowPhi gives shadow φ of v its arguments.
func (t *transformer) fillShadowPhi(v *ir.Value) {
	d := t.shadowFwd[v]
	if d == nil || d.Op != ir.OpPhi {
		return
	}
	for i, a := range v.Args {
		if t.cfg.Reachable(v.Block.Preds[i]) {
			s := t.fwdShadow(a)
			if s == nil {
				panic("reverse: no forward shadow for " + a.Ref())
			}
			d.Args = append(d.Args, s)
		}
	}
}

// pairedShadow reports whether recording w records its shadow too.
func (t *transformer) pairedShadow(w *ir.Value) bool {
	return pointerPhi(w) && t.shadowFwd[w] != nil
}

// shadowSpillOf returns the variable keeping the shadow of pointer φ w for
// the reverse of a block out of loops.
func (t *transformer) shadowSpillOf(w *ir.Value) *ir.Value {
	if s, ok := t.phiShadowSpill[w]; ok {
		return s
	}
	s := t.F.NewValue(ir.OpAlloc, t.spillOf(w).Type)
	if w.Name != "" {
		s.Name = "d" + w.Name
	}
	t.entry.Insert(0, s)
	t.phiShadowSpill[w] = s
	return s
}
