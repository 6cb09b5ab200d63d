package reverse

// This file defines the snapshots of memory around calls. A call is
// reversed jointly: its callee's reverse recomputes the callee from the
// memory it read, so the forward sweep saves, before the call, what the
// callee reads and the function may overwrite later, and the reverse sweep
// puts it back before the callee's reverse (the joint reversal of
// Tapenade, whose calls are checkpoints: Hascoët & Pascual, "The Tapenade
// automatic differentiation tool", 2013, §3.3).
//
// The memory an argument refers to is saved deep: a slice's elements and a
// pointer's variable, and behind the slices and pointers they hold (the
// contents of s.q and s.v behind a *state with fields q, v []float64),
// all the way down, since alias classes do not tell the parts apart (a
// slice loaded from memory is in the class of that memory). Each part's
// contents go to the tape of their type after the parts behind them, so
// that the restore, which pops in the reverse order, first puts back a
// part (its slices' headers as they were, should the callee have replaced
// one) and then what lies behind those headers. Nil pointers are saved as
// nothing; memory reached twice (two fields sharing a slice) is saved
// twice and restored twice with the same values.
//
// Tensors are values here, as everywhere in reverse mode (the runtime
// never writes one in place): their pointers are saved, not their data.
// Types whose memory has no bound (recursive types: a list), or that hold
// memory gadgen does not walk (maps, channels, functions, interfaces),
// are not saved: calls that need them are reported.

import (
	"go/token"
	"go/types"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// snapshotable reports whether the memory that a slice or pointer of type
// typ refers to (or the slices and pointers a struct or array value of
// type typ holds) can be saved and restored: it is made of numbers,
// booleans, strings and tensors, in structs, arrays, slices and pointers,
// and no type contains itself.
func snapshotable(typ types.Type) bool {
	return handsMemory(typ) && boundedMemory(typ, true)
}

// boundedMemory reports whether values of type typ are made of numbers,
// booleans, strings and, when tensors is true, tensors, in structs,
// arrays, slices and pointers, and no type contains itself.
func boundedMemory(typ types.Type, tensors bool) bool {
	var walk func(t types.Type, open map[types.Type]bool) bool
	walk = func(t types.Type, open map[types.Type]bool) bool {
		if ir.IsTensor(t) {
			return tensors // a value, as ssaad.RefersToMemory takes it
		}
		if n, ok := t.(*types.Named); ok {
			if open[n] {
				return false // recursive
			}
			open[n] = true
			defer delete(open, n)
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			return true
		case *types.Pointer:
			return walk(u.Elem(), open)
		case *types.Slice:
			return walk(u.Elem(), open)
		case *types.Array:
			return walk(u.Elem(), open)
		case *types.Struct:
			for f := range u.Fields() {
				if !walk(f.Type(), open) {
					return false
				}
			}
			return true
		}
		return false
	}
	return walk(typ, map[types.Type]bool{})
}

// saveMemory emits the records of the memory that the slice or pointer x
// refers to, deep (see the file comment), on the tapes tapeOf gives. A
// pointer to memory that holds no slices or pointers is saved without a
// test for nil: the callee reads it.
func (t *transformer) saveMemory(x *ir.Value, tapeOf func(types.Type) *ir.Value) {
	if mixedParam(x.Type) {
		// A struct or array value holding slices or pointers: the memory
		// behind them.
		t.valueParts(x, false, func(p *ir.Value) { t.saveMemory(p, tapeOf) })
		return
	}
	switch u := x.Type.Underlying().(type) {
	case *types.Pointer:
		if !ssaad.RefersToMemory(u.Elem()) {
			t.push(tapeOf(u.Elem()), t.Emit(ir.OpLoad, u.Elem(), x))
			return
		}
		t.ifNotNil(x, func() {
			t.saveInside(x, u.Elem(), tapeOf)
			t.push(tapeOf(u.Elem()), t.Emit(ir.OpLoad, u.Elem(), x))
		})
	case *types.Slice:
		elem := u.Elem()
		if ssaad.RefersToMemory(elem) {
			ptr := types.NewPointer(elem)
			t.forRange(t.Emit(ir.OpLen, intType, x), func(k *ir.Value) {
				t.saveInside(t.Emit(ir.OpIndexAddr, ptr, x, k), elem, tapeOf)
			})
		}
		tp := tapeOf(elem)
		st := tp.Type.(*types.Pointer).Elem()
		app := t.tapeValue(tp, t.Emit(ir.OpCall, st, t.Emit(ir.OpLoad, st, tp), x))
		app.Callee = &ir.Callee{Builtin: "append", Spread: true}
		t.Emit(ir.OpStore, nil, tp, app)
	}
}

// valueParts calls do with each slice or pointer held in the struct or
// array value x (fields in order, array elements by a loop), or in the
// reverse order when backwards.
func (t *transformer) valueParts(x *ir.Value, backwards bool, do func(p *ir.Value)) {
	t.walkParts([]*ir.Value{x}, x.Type, backwards, true, func(qs []*ir.Value, _ types.Type) { do(qs[0]) })
}

// saveInside emits the records of the memory behind the slices and
// pointers of the value of type typ at address p, in the order of its
// fields and elements.
func (t *transformer) saveInside(p *ir.Value, typ types.Type, tapeOf func(types.Type) *ir.Value) {
	t.partsOf(p, typ, false, func(q *ir.Value, pt types.Type) {
		t.saveMemory(t.Emit(ir.OpLoad, pt, q), tapeOf)
	})
}

// restoreMemory emits the restore of what saveMemory(x) recorded: x is,
// in the reverse sweep, the slice or pointer as it was when it was saved.
func (t *transformer) restoreMemory(x *ir.Value, tapeOf func(types.Type) *ir.Value) {
	if mixedParam(x.Type) {
		t.valueParts(x, true, func(p *ir.Value) { t.restoreMemory(p, tapeOf) })
		return
	}
	switch u := x.Type.Underlying().(type) {
	case *types.Pointer:
		if !ssaad.RefersToMemory(u.Elem()) {
			t.popStore(x, tapeOf(u.Elem()))
			return
		}
		t.ifNotNil(x, func() {
			t.popStore(x, tapeOf(u.Elem()))
			t.restoreInside(x, u.Elem(), tapeOf)
		})
	case *types.Slice:
		elem := u.Elem()
		tp := tapeOf(elem)
		st := tp.Type.(*types.Pointer).Elem()
		s := t.Emit(ir.OpLoad, st, tp)
		n := t.Emit(ir.OpBinary, intType, t.Emit(ir.OpLen, intType, s), t.Emit(ir.OpLen, intType, x))
		n.Tok = token.SUB
		cp := t.Emit(ir.OpCall, intType, x, t.Emit(ir.OpSlice, st, s, n, nil, nil))
		cp.Callee = &ir.Callee{Builtin: "copy"}
		t.Emit(ir.OpStore, nil, tp, t.tapeValue(tp, t.Emit(ir.OpSlice, st, s, nil, n, nil)))
		if ssaad.RefersToMemory(elem) {
			ptr := types.NewPointer(elem)
			last := t.Emit(ir.OpBinary, intType, t.Emit(ir.OpLen, intType, x), t.F.Int(1))
			last.Tok = token.SUB
			t.forRange(t.Emit(ir.OpLen, intType, x), func(k *ir.Value) {
				i := t.Emit(ir.OpBinary, intType, last, k) // backwards
				i.Tok = token.SUB
				t.restoreInside(t.Emit(ir.OpIndexAddr, ptr, x, i), elem, tapeOf)
			})
		}
	}
}

// restoreInside emits the restore of what saveInside(p, typ) recorded,
// part by part in the reverse order.
func (t *transformer) restoreInside(p *ir.Value, typ types.Type, tapeOf func(types.Type) *ir.Value) {
	t.partsOf(p, typ, true, func(q *ir.Value, pt types.Type) {
		t.restoreMemory(t.Emit(ir.OpLoad, pt, q), tapeOf)
	})
}

// eachPart calls do with the address and type of each slice and pointer
// inside the value of type typ at address p (fields in order, array
// elements by a loop), or in the reverse order when backwards.
func (t *transformer) eachPart(p *ir.Value, typ types.Type, backwards bool, do func(q *ir.Value, pt types.Type)) {
	t.eachPartOf([]*ir.Value{p}, typ, backwards, func(qs []*ir.Value, pt types.Type) { do(qs[0], pt) })
}

// eachPartOf is eachPart on several values of type typ at once, at the
// addresses ps: do gets the addresses of the same part in each.
func (t *transformer) eachPartOf(ps []*ir.Value, typ types.Type, backwards bool, do func(qs []*ir.Value, pt types.Type)) {
	t.walkParts(ps, typ, backwards, false, do)
}

// walkParts is eachPartOf, or, byValue, the same walk on the values ps of
// type typ themselves: do gets the slices and pointers they hold.
func (t *transformer) walkParts(ps []*ir.Value, typ types.Type, backwards, byValue bool, do func(qs []*ir.Value, pt types.Type)) {
	at := func(ft types.Type, part func(p *ir.Value) *ir.Value) {
		qs := make([]*ir.Value, len(ps))
		for i, p := range ps {
			qs[i] = part(p)
		}
		if ssaad.IsPointerLike(ft) {
			do(qs, ft)
		} else {
			t.walkParts(qs, ft, backwards, byValue, do)
		}
	}
	// partType is the type of what a part op gives: the part's address,
	// or the part itself byValue.
	partType := func(ft types.Type) types.Type {
		if byValue {
			return ft
		}
		return types.NewPointer(ft)
	}
	fieldOp, indexOp := ir.OpFieldAddr, ir.OpIndexAddr
	if byValue {
		fieldOp, indexOp = ir.OpField, ir.OpIndex
	}
	switch u := typ.Underlying().(type) {
	case *types.Struct:
		for j := range u.NumFields() {
			k := j
			if backwards {
				k = u.NumFields() - 1 - j
			}
			ft := u.Field(k).Type()
			if !ssaad.RefersToMemory(ft) {
				continue
			}
			at(ft, func(p *ir.Value) *ir.Value {
				fa := t.Emit(fieldOp, partType(ft), p)
				fa.Index = k
				return fa
			})
		}
	case *types.Array:
		et := u.Elem()
		if !ssaad.RefersToMemory(et) {
			return
		}
		t.forRange(t.F.Int(u.Len()), func(k *ir.Value) {
			i := k
			if backwards {
				i = t.Emit(ir.OpBinary, intType, t.F.Int(u.Len()-1), k)
				i.Tok = token.SUB
			}
			at(et, func(p *ir.Value) *ir.Value { return t.Emit(indexOp, partType(et), p, i) })
		})
	}
}

// ifNotNil emits `if x != nil { body() }` and continues after it.
func (t *transformer) ifNotNil(x *ir.Value, body func()) {
	then, done := t.F.NewBlock("then"), t.F.NewBlock("done")
	cond := t.Emit(ir.OpBinary, boolType, x, t.F.ConstValue(x.Type, nil))
	cond.Tok = token.NEQ
	t.Cur.If(cond, then, done)
	t.Cur = then
	body()
	t.Cur.Jump(done)
	t.Cur = done
}

// detached emits body, which may end the current block and continue in
// others, in a block whose successors are set already (a block of the
// forward sweep): the successors move to the block body ends in.
func (t *transformer) detached(body func()) {
	cur := t.Cur
	succs := cur.Succs
	cur.Succs = nil
	body()
	end := t.Cur
	if end == cur {
		cur.Succs = succs
		return
	}
	end.Succs = succs
	for _, s := range succs {
		for i, p := range s.Preds {
			if p == cur {
				s.Preds[i] = end
			}
		}
	}
}

// saveShadowHeaders emits the records of the slices and pointers held in
// the shadow memory that the shadow slice or pointer d refers to, deep,
// not of its floats (adjoints, which the reverse sweep accumulates): the
// shadow headers a callee's reverse follows, which the function may
// replace after the call (b.cur, b.next = b.next, b.cur).
func (t *transformer) saveShadowHeaders(d *ir.Value) {
	t.eachShadowPart(d, false, func(p *ir.Value, typ types.Type) {
		t.partsOf(p, typ, false, func(q *ir.Value, pt types.Type) { t.saveShadowHeaders(t.Emit(ir.OpLoad, pt, q)) })
		t.partsOf(p, typ, false, func(q *ir.Value, pt types.Type) { t.push(t.tape(pt), t.Emit(ir.OpLoad, pt, q)) })
	})
}

// restoreShadowHeaders emits the restore of what saveShadowHeaders(d)
// recorded, in the reverse order.
func (t *transformer) restoreShadowHeaders(d *ir.Value) {
	t.eachShadowPart(d, true, func(p *ir.Value, typ types.Type) {
		t.partsOf(p, typ, true, func(q *ir.Value, pt types.Type) { t.popStore(q, t.tape(pt)) })
		t.partsOf(p, typ, true, func(q *ir.Value, pt types.Type) { t.restoreShadowHeaders(t.Emit(ir.OpLoad, pt, q)) })
	})
}

// eachShadowPart calls do with the address and type of each value that
// the slice or pointer d refers to, when these hold slices or pointers:
// *d unless d is nil, d[k] for each k (backwards: from the last).
func (t *transformer) eachShadowPart(d *ir.Value, backwards bool, do func(p *ir.Value, typ types.Type)) {
	switch u := d.Type.Underlying().(type) {
	case *types.Pointer:
		if ssaad.RefersToMemory(u.Elem()) {
			t.ifNotNil(d, func() { do(d, u.Elem()) })
		}
	case *types.Slice:
		if !ssaad.RefersToMemory(u.Elem()) {
			return
		}
		ptr := types.NewPointer(u.Elem())
		last := t.Emit(ir.OpBinary, intType, t.Emit(ir.OpLen, intType, d), t.F.Int(1))
		last.Tok = token.SUB
		t.forRange(t.Emit(ir.OpLen, intType, d), func(k *ir.Value) {
			i := k
			if backwards {
				i = t.Emit(ir.OpBinary, intType, last, k)
				i.Tok = token.SUB
			}
			do(t.Emit(ir.OpIndexAddr, ptr, d, i), u.Elem())
		})
	}
}

// partsOf is eachPart, with the value at p itself for a slice or pointer.
func (t *transformer) partsOf(p *ir.Value, typ types.Type, backwards bool, do func(q *ir.Value, pt types.Type)) {
	if ssaad.IsPointerLike(typ) {
		do(p, typ)
		return
	}
	t.eachPart(p, typ, backwards, do)
}

// shadowHeadersSaved reports whether the shadow of argument i of call v
// has its slices and pointers saved around the call: the callee's reverse
// follows them, and the function may replace them after the call.
func (t *transformer) shadowHeadersSaved(v *ir.Value, i int) bool {
	if t.splitCalls[v] {
		return false // not recomputed (see split.go)
	}
	a := v.Args[i]
	return ssaad.IsPointerLike(a.Type) && t.hasShadow(a) && holdsMemoryBehind(a.Type) && snapshotable(a.Type) &&
		t.mayChange(t.act.Class(a)) && t.headersWrittenAfter(v, t.act.Class(a))
}

// holdsMemoryBehind reports whether the memory a slice or pointer of type
// typ refers to holds slices or pointers.
func holdsMemoryBehind(typ types.Type) bool {
	switch u := typ.Underlying().(type) {
	case *types.Pointer:
		return ssaad.RefersToMemory(u.Elem())
	case *types.Slice:
		return ssaad.RefersToMemory(u.Elem())
	}
	return false
}

// saveArgs emits, in the forward sweep before call v, the snapshots of
// the memory of its arguments that its callee's reverse reads and the
// function may overwrite after the call (see needsSnapshot), then of the
// headers in their shadows that the function may replace (see
// shadowHeadersSaved).
func (t *transformer) saveArgs(v *ir.Value, args []*ir.Value) {
	t.detached(func() {
		for i := range v.Args {
			if t.needsSnapshot(v, i) {
				t.saveMemory(args[i], t.tape)
			}
		}
		for i, a := range v.Args {
			if t.shadowHeadersSaved(v, i) {
				t.saveShadowHeaders(t.fwdShadow(a))
			}
		}
	})
}

// restoreArgs emits, in the reverse sweep before the callee's reverse of
// call v, the restore of what saveArgs saved, in the reverse order.
func (t *transformer) restoreArgs(v *ir.Value) {
	for i := len(v.Args) - 1; i >= 0; i-- {
		if t.shadowHeadersSaved(v, i) {
			t.restoreShadowHeaders(t.shadowAt(v.Args[i]))
		}
	}
	for i := len(v.Args) - 1; i >= 0; i-- {
		if t.needsSnapshot(v, i) {
			t.restoreMemory(t.addrAt(v.Args[i]), t.tape)
		}
	}
}
