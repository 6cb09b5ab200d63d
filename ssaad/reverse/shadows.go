package reverse

// This file defines the shadows of memory: every varied value that refers
// to memory — a slice, a pointer, or a struct or array holding them —
// has a shadow of the same type in the forward sweep, which refers to the
// memory where the adjoints of what the value refers to are accumulated:
//
//   - a parameter's shadow is the parameter after it (dx for x); a struct
//     passed by value that holds slices and floats has a pointer shadow,
//     *dm, into whose float fields their partials are accumulated;
//   - memory the function allocates gets shadow memory allocated beside
//     it (make, new, a composite literal);
//   - an element, a field, a slice or a conversion of a value has the same
//     of its shadow for shadow (dx[i:j] for x[i:j]);
//   - a slice or pointer loaded from memory has the one loaded from the
//     shadow memory for shadow (dn.W1 for n.W1): storing a slice or
//     pointer also stores its shadow into the shadow memory (the float
//     leaves of a struct stored are adjoints, which the forward sweep
//     leaves alone);
//   - a φ or select of such values has the φ or select of their shadows
//     (a layer's input that is x at first and the previous layer's output
//     after).
//
// The reverse sweep needs, for each load and store and each call, the
// address or slice and its shadow again. It rebuilds them from the roots
// it knows — parameters, memory allocated once, values computed once on
// every path to the return — by the same indexing, fields and slicing,
// and by loading again a slice or pointer from memory that nothing writes
// after the load (Enzyme's "rematerialization" of addresses). A root it
// cannot rebuild — memory allocated in a loop (a hidden vector per
// sample), a φ in a loop, a pointer loaded from memory written later — is
// recorded with its shadow by the block that needs it: two slice headers
// or pointers on a tape, not the memory they refer to.

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// hasShadow reports whether primal value v has a shadow: it is varied
// and refers to memory.
func (t *transformer) hasShadow(v *ir.Value) bool {
	return v != nil && v.Type != nil && ssaad.RefersToMemory(v.Type) && t.act.Varied(v)
}

// mixedParam reports whether parameter type typ is a struct or array,
// not a pointer or slice, that holds memory (and floats, or none: a
// model of slices of tensors by value): its shadow is a pointer to a
// value of its type (see the file comment).
func mixedParam(typ types.Type) bool {
	if ssaad.IsPointerLike(typ) || !ssaad.RefersToMemory(typ) {
		return false
	}
	switch typ.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}

// handsMemory reports whether a value of type typ gives whoever gets it
// memory to read and write: a slice or pointer, or a struct or array
// value holding them (mixedParam), whose copies share that memory.
func handsMemory(typ types.Type) bool {
	return ssaad.IsPointerLike(typ) || mixedParam(typ)
}

// makeShadow emits, after the forward copy of v, the shadow of v (see the
// file comment), when v has one. Parameters have theirs already.
func (t *transformer) makeShadow(v *ir.Value) {
	if !t.hasShadow(v) || t.shadow[v] != nil {
		return
	}
	var d *ir.Value
	switch v.Op {
	case ir.OpAlloc, ir.OpMakeSlice:
		args := make([]*ir.Value, len(v.Args))
		for i, a := range v.Args {
			args[i] = t.v(a)
		}
		d = t.Same(v, args...)
		d.Adjoint = v.Op == ir.OpAlloc // the adjoints of the variable's contents
	case ir.OpIndexAddr, ir.OpFieldAddr, ir.OpSlice, ir.OpField, ir.OpIndex, ir.OpConvert, ir.OpLoad:
		base := t.fwdShadow(v.Args[0])
		if base == nil {
			return
		}
		args := []*ir.Value{base}
		for _, a := range v.Args[1:] {
			args = append(args, t.v(a))
		}
		d = t.Same(v, args...)
	case ir.OpSelect:
		a, b := t.fwdShadow(v.Args[1]), t.fwdShadow(v.Args[2])
		if a == nil || b == nil {
			return
		}
		d = t.Emit(ir.OpSelect, v.Type, t.v(v.Args[0]), a, b)
	case ir.OpPhi:
		d = t.Emit(ir.OpPhi, v.Type) // its arguments: fillShadowPhi
	case ir.OpCall, ir.OpExtract:
		if v.Op == ir.OpCall && v.Callee.Builtin == "append" {
			d = t.appendShadow(v)
			break
		}
		d = t.resultShadow(v)
		if d == nil {
			return
		}
	default:
		return
	}
	if v.Name != "" {
		d.Name = ssaad.AdjointName(v.Name)
	}
	t.shadow[v] = d
	if t.spilled(v) {
		// Computed once, but not on every path to the return: the
		// reverse finds it and its shadow in variables.
		t.Emit(ir.OpStore, nil, t.spillOf(v), t.val[v])
		t.Emit(ir.OpStore, nil, t.shadowSpillOf(v), d)
	}
}

// spilled reports whether v, which has a shadow, is kept with it in
// variables where it is computed, for the reverse sweep: it is computed
// out of loops, but not on every path to the return.
func (t *transformer) spilled(v *ir.Value) bool {
	return v.Op != ir.OpPhi && v.Block != nil && t.hasShadow(v) && t.outOfLoops(v.Block) && !t.available(v)
}

// appendShadow emits the shadow of ys := append(xs, …): when the append
// grew the slice into new memory (its capacity changed), new zeroed
// memory of ys's length and capacity; otherwise dxs extended to ys's
// length, so that the shadows of xs and ys share memory as xs and ys do.
// The shadows of appended slices and pointers go into it at their places.
func (t *transformer) appendShadow(v *ir.Value) *ir.Value {
	xs, ys := v.Args[0], t.val[v]
	dxs := t.fwdShadow(xs)
	if dxs == nil {
		dxs = t.F.ConstValue(xs.Type, nil)
	}
	leny := t.Emit(ir.OpLen, intType, ys)
	elem := v.Type.Underlying().(*types.Slice).Elem()
	if xs.Op == ir.OpConst && xs.Const == nil && !ssaad.RefersToMemory(elem) {
		// append([]float64(nil), x...), a copy: new memory whenever
		// anything was appended, and an empty shadow of no capacity
		// (as good as nil) otherwise.
		return t.Emit(ir.OpMakeSlice, v.Type, leny, t.Emit(ir.OpCap, intType, ys))
	}
	grew := t.Emit(ir.OpBinary, boolType, t.Emit(ir.OpCap, intType, ys), t.Emit(ir.OpCap, intType, t.v(xs)))
	grew.Tok = token.NEQ
	d := t.forwardIf(grew, func() *ir.Value {
		d := t.Emit(ir.OpMakeSlice, v.Type, leny, t.Emit(ir.OpCap, intType, ys))
		// The shadows of the slices and pointers the append copied;
		// the float leaves' adjoints start at zero.
		switch {
		case ssaad.IsPointerLike(elem):
			cp := t.Emit(ir.OpCall, intType, d, dxs)
			cp.Callee = &ir.Callee{Builtin: "copy"}
		case ssaad.RefersToMemory(elem):
			ptr := types.NewPointer(elem)
			t.forRange(t.Emit(ir.OpLen, intType, dxs), func(k *ir.Value) {
				from, to := t.Emit(ir.OpIndexAddr, ptr, dxs, k), t.Emit(ir.OpIndexAddr, ptr, d, k)
				for _, l := range memoryLeaves(elem) {
					t.Emit(ir.OpStore, nil, t.leafAddr(to, l), t.Emit(ir.OpLoad, l.typ, t.leafAddr(from, l)))
				}
			})
		}
		return d
	}, func() *ir.Value {
		return t.Emit(ir.OpSlice, v.Type, dxs, nil, leny, nil)
	})
	if !ssaad.RefersToMemory(elem) {
		return d
	}
	n := t.Emit(ir.OpLen, intType, t.v(xs))
	if v.Callee.Spread {
		if dz := t.fwdShadow(v.Args[1]); dz != nil {
			cp := t.Emit(ir.OpCall, intType, t.Emit(ir.OpSlice, v.Type, d, n, nil, nil), dz)
			cp.Callee = &ir.Callee{Builtin: "copy"}
		}
		return d
	}
	for j, a := range v.Args[1:] {
		if da := t.fwdShadow(a); da != nil {
			i := t.Add(n, t.F.Int(int64(j)))
			p := t.Emit(ir.OpIndexAddr, types.NewPointer(elem), d, i)
			if ssaad.IsPointerLike(elem) {
				t.Emit(ir.OpStore, nil, p, da)
			} else {
				for _, l := range memoryLeaves(elem) {
					t.Emit(ir.OpStore, nil, t.leafAddr(p, l), t.leafOf(da, l))
				}
			}
		}
	}
	return d
}

// resultShadow emits the shadow of the slice a call returns (v, or the
// extract v of its tuple): new zeroed memory of its length and capacity
// when the callee allocates it, the argument's shadow when it returns an
// argument; nil otherwise.
func (t *transformer) resultShadow(v *ir.Value) *ir.Value {
	call, k := v, 0
	if v.Op == ir.OpExtract {
		call, k = v.Args[0], v.Index
	}
	if call.Op != ir.OpCall || call.Callee.Func == nil || !shadowResult(v.Type) {
		return nil
	}
	if d, ok := t.splitShadows[call][k]; ok {
		return d // returned by the callee's forward half
	}
	switch o := t.resultOrigin(call, k); {
	case o == ssaad.OriginFresh:
		return t.freshShadow(t.val[v])
	case o >= 0:
		return t.fwdShadow(call.Args[o])
	}
	return nil
}

// freshShadow emits, in the forward sweep, zeroed memory of the shape of
// r, a slice or pointer of shadowResult's types: the shadow of memory
// that holds no varied value yet.
func (t *transformer) freshShadow(r *ir.Value) *ir.Value {
	if memResult(r.Type) {
		return t.zeroShape(r)
	}
	return t.Emit(ir.OpMakeSlice, r.Type, t.Emit(ir.OpLen, intType, r), t.Emit(ir.OpCap, intType, r))
}

// fwdShadow returns the shadow of a in the forward sweep: its shadow, the
// zero value for a constant (nil), or nil when a has none.
func (t *transformer) fwdShadow(a *ir.Value) *ir.Value {
	if s, ok := t.shadow[a]; ok {
		return s
	}
	if a.Op == ir.OpConst && ssaad.RefersToMemory(a.Type) {
		return t.F.ConstValue(a.Type, nil)
	}
	return nil
}

// fillShadowPhi gives the shadow φ of v its arguments.
func (t *transformer) fillShadowPhi(v *ir.Value) {
	d := t.shadow[v]
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

// storeShadow emits, in the forward sweep, the store of the shadows of
// the slices and pointers that store v (*addr = x) puts into varied
// memory: into the shadow memory at the same place.
func (t *transformer) storeShadow(v *ir.Value) {
	addr, x := v.Args[0], v.Args[1]
	if !t.hasShadow(addr) || !ssaad.RefersToMemory(x.Type) {
		return
	}
	da, dx := t.fwdShadow(addr), t.fwdShadow(x)
	if da == nil {
		return
	}
	if dx == nil {
		dx = t.F.ConstValue(x.Type, nil) // an inactive slice: no adjoints flow into it
	}
	t.storeShadows(da, dx)
}

// storeShadows stores at *da the slices and pointers of shadow dx: all of
// it when it is a slice or pointer, its leaves that are when it is a
// struct or array (its floats at *da are adjoints, which stay).
func (t *transformer) storeShadows(da, dx *ir.Value) {
	if ssaad.IsPointerLike(dx.Type) {
		t.Emit(ir.OpStore, nil, da, dx)
		return
	}
	for _, l := range memoryLeaves(dx.Type) {
		t.Emit(ir.OpStore, nil, t.leafAddr(da, l), t.leafOf(dx, l))
	}
}

// memoryLeaves returns the paths to the slices and pointers inside the
// struct or array type typ.
func memoryLeaves(typ types.Type) []leaf {
	var out []leaf
	var walk func(t types.Type, path []int)
	walk = func(t types.Type, path []int) {
		if ssaad.IsPointerLike(t) {
			out = append(out, leaf{append([]int(nil), path...), t})
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				walk(u.Field(i).Type(), append(path, i))
			}
		case *types.Array:
			for i := int64(0); i < u.Len(); i++ {
				walk(u.Elem(), append(path, int(i)))
			}
		}
	}
	walk(typ, nil)
	return out
}

// pairedShadow reports whether recording w records its shadow too.
func (t *transformer) pairedShadow(w *ir.Value) bool {
	return t.shadow[w] != nil && ssaad.RefersToMemory(w.Type)
}

// shadowSpillOf returns the variable keeping the shadow of w for the
// reverse of a block out of loops.
func (t *transformer) shadowSpillOf(w *ir.Value) *ir.Value {
	if s, ok := t.phiShadowSpill[w]; ok {
		return s
	}
	s := t.F.NewValue(ir.OpAlloc, t.spillOf(w).Type)
	if w.Name != "" {
		s.Name = ssaad.AdjointName(w.Name)
	}
	t.entry.Insert(0, s)
	t.phiShadowSpill[w] = s
	return s
}

// reloadable reports whether load v of a slice, pointer or aggregate
// holding them can be done again in the reverse sweep, from memory that
// nothing writes after it.
func (t *transformer) reloadable(v *ir.Value) bool {
	return v.Op == ir.OpLoad && !t.overwritten(v)
}

// addrNeeds appends to out what the reverse needs to rebuild the address,
// slice, pointer or aggregate a, and its shadow: the indices and bounds on
// the way, and the roots it cannot rebuild (see the file comment), which
// plan records with their shadows when they are not available.
func (t *transformer) addrNeeds(a *ir.Value, out []*ir.Value) []*ir.Value {
	switch a.Op {
	case ir.OpIndexAddr, ir.OpIndex:
		return append(t.addrNeeds(a.Args[0], out), a.Args[1])
	case ir.OpFieldAddr, ir.OpField, ir.OpConvert:
		return t.addrNeeds(a.Args[0], out)
	case ir.OpSlice:
		out = t.addrNeeds(a.Args[0], out)
		for _, b := range a.Args[1:] {
			if b != nil {
				out = append(out, b)
			}
		}
		return out
	case ir.OpLoad:
		if t.reloadable(a) {
			return t.addrNeeds(a.Args[0], out)
		}
	case ir.OpParam, ir.OpConst:
		return out
	}
	return append(out, a)
}

// addrAt returns, in the reverse sweep, the primal address, slice,
// pointer or aggregate a: recorded, or rebuilt (see addrNeeds).
func (t *transformer) addrAt(a *ir.Value) *ir.Value {
	if x, ok := t.rvals[a]; ok {
		return x
	}
	if x := t.fromIteration(a, false); x != nil {
		return x
	}
	if x, ok := t.part(a, t.addrAt); ok {
		return x
	}
	if a.Op == ir.OpLoad && t.reloadable(a) {
		x := t.Same(a, t.addrAt(a.Args[0]))
		x.Name = a.Name
		return x
	}
	return t.r(a)
}

// part rebuilds a in the reverse sweep on base(a.Args[0]) when a takes a
// part of its first argument (an element, a field, a slice, a
// conversion); ok is false for other ops.
func (t *transformer) part(a *ir.Value, base func(*ir.Value) *ir.Value) (x *ir.Value, ok bool) {
	switch a.Op {
	case ir.OpIndexAddr, ir.OpIndex:
		return t.Same(a, base(a.Args[0]), t.r(a.Args[1])), true
	case ir.OpFieldAddr, ir.OpField, ir.OpConvert:
		return t.Same(a, base(a.Args[0])), true
	case ir.OpSlice:
		return t.Same(a, base(a.Args[0]), t.r(a.Args[1]), t.r(a.Args[2]), t.r(a.Args[3])), true
	}
	return nil, false
}

// shadowAt returns, in the reverse sweep, the shadow of the address,
// slice, pointer or aggregate a.
func (t *transformer) shadowAt(a *ir.Value) *ir.Value {
	if s, ok := t.rshadow[a]; ok {
		return s
	}
	if s := t.fromIteration(a, true); s != nil {
		return s
	}
	switch a.Op {
	case ir.OpParam:
		if s, ok := t.shadow[a]; ok {
			return s
		}
	case ir.OpConst:
		return t.F.ConstValue(a.Type, nil)
	case ir.OpIndexAddr, ir.OpIndex, ir.OpFieldAddr, ir.OpField, ir.OpConvert, ir.OpSlice:
		s, _ := t.part(a, t.shadowAt)
		return s
	case ir.OpLoad:
		if t.reloadable(a) {
			d := t.Same(a, t.shadowAt(a.Args[0]))
			if a.Name != "" {
				d.Name = ssaad.AdjointName(a.Name)
			}
			return d
		}
	}
	if t.spilled(a) {
		return t.Emit(ir.OpLoad, a.Type, t.shadowSpillOf(a))
	}
	if s, ok := t.shadow[a]; ok && t.available(a) {
		return s
	}
	panic("reverse: no shadow for " + a.Ref())
}

// Values of an iteration. A value that an iteration of loop L computes,
// and that the reverse of loops nested in L reads (a hidden vector
// allocated per sample, read by the loops over its elements), is recorded
// once per iteration of L, at the blocks that end the iteration (its
// latch, and the blocks that leave L), rather than once per iteration of
// the loop that reads it; the reverse of those blocks, which begins the
// reverse of the iteration, pops it into a variable that the reverse of
// the nested loops reads.

// iterScope returns the loop L whose iterations record x for the reverse
// of block b (see above), or nil when b records it itself.
func (t *transformer) iterScope(x *ir.Value, b *ir.Block) *ir.Block {
	if x.Block == nil {
		return nil
	}
	l := t.innermostLoop(x.Block)
	if l == nil || !t.cfg.InLoop(l, b) || t.innermostLoop(b) == l || t.inFused(l) {
		return nil
	}
	for _, e := range t.iterEnds(l) {
		if !t.cfg.Dominates(x.Block, e) {
			return nil
		}
	}
	return l
}

// innermostLoop returns the header of the innermost loop around b, or nil.
func (t *transformer) innermostLoop(b *ir.Block) *ir.Block {
	var in *ir.Block
	for hi := range t.cfg.Loop {
		h := t.primal.Blocks[hi]
		if t.cfg.InLoop(h, b) && (in == nil || t.cfg.InLoop(in, h)) {
			in = h
		}
	}
	return in
}

// iterEnds returns the blocks of loop h that end an iteration: those that
// go back to h, and those of its body that leave the loop for a block that
// returns (the header leaves it between iterations).
func (t *transformer) iterEnds(h *ir.Block) []*ir.Block {
	var out []*ir.Block
	for _, b := range t.primal.Blocks {
		if !t.cfg.Reachable(b) || !t.cfg.InLoop(h, b) || b == h && h.Preds[0] != h && h.Preds[len(h.Preds)-1] != h {
			continue
		}
		for _, s := range b.Succs {
			if s == h || !t.cfg.InLoop(h, s) && t.returns[s] {
				out = append(out, b)
				break
			}
		}
	}
	return out
}

// iterLoopsEndedBy returns the loops with values recorded per iteration
// whose iterations block b ends, in block order.
func (t *transformer) iterLoopsEndedBy(b *ir.Block) []*ir.Block {
	var out []*ir.Block
	for _, h := range t.primal.Blocks {
		if len(t.iterNeeds[h]) > 0 && slices.Contains(t.iterEnds(h), b) {
			out = append(out, h)
		}
	}
	return out
}

// pushGroup records the values of g, a group of one type, each followed
// by its shadow where it has one paired, on the group's tape; k names the
// record for pruneRecords.
func (t *transformer) pushGroup(k recordKey, g []*ir.Value) {
	var xs []*ir.Value
	for _, w := range g {
		xs = append(xs, t.v(w))
		if t.pairedShadow(w) {
			xs = append(xs, t.shadow[w])
		}
	}
	t.recordOf(k).pushes = append(t.recordOf(k).pushes, t.push(t.tape(g[0].Type), xs...))
}

// popGroup pops the record pushGroup made of g under key k and calls use
// with each value w of g, its popped copy x (named after w) and its popped
// shadow s (nil when w has none paired).
func (t *transformer) popGroup(k recordKey, g []*ir.Value, use func(w, x, s *ir.Value)) {
	n := len(g)
	for _, w := range g {
		if t.pairedShadow(w) {
			n++
		}
	}
	xs := t.pop(t.tape(g[0].Type), n)
	t.recordOf(k).pops = append(t.recordOf(k).pops, slices.Clone(xs))
	for _, w := range g {
		x := xs[0]
		x.Name = poppedName(w)
		xs = xs[1:]
		var s *ir.Value
		if t.pairedShadow(w) {
			s, xs = xs[0], xs[1:]
		}
		use(w, x, s)
	}
}

// pushIteration emits, at the end of the forward copy of b, the records
// of the iterations b ends.
func (t *transformer) pushIteration(b *ir.Block) {
	for _, h := range t.iterLoopsEndedBy(b) {
		for _, g := range groupByType(t.iterNeeds[h]) {
			t.pushGroup(recordKey{b, h, g[0]}, g)
		}
	}
}

// popIteration emits, at the start of the reverse of b, the pops of the
// records of the iterations b ends, into their variables.
func (t *transformer) popIteration(b *ir.Block) {
	loops := t.iterLoopsEndedBy(b)
	for i := len(loops) - 1; i >= 0; i-- {
		groups := groupByType(t.iterNeeds[loops[i]])
		for k := len(groups) - 1; k >= 0; k-- {
			t.popGroup(recordKey{b, loops[i], groups[k][0]}, groups[k], func(w, x, s *ir.Value) {
				t.Emit(ir.OpStore, nil, t.iterVarOf(w, false), x)
				if s != nil {
					t.Emit(ir.OpStore, nil, t.iterVarOf(w, true), s)
				}
			})
		}
	}
}

// iterVarOf returns the variable of the reverse sweep that holds w (or
// its shadow) for the iteration being reversed.
func (t *transformer) iterVarOf(w *ir.Value, shadow bool) *ir.Value {
	m := t.iterVar
	if shadow {
		m = t.iterShadowVar
	}
	if v, ok := m[w]; ok {
		return v
	}
	v := t.F.NewValue(ir.OpAlloc, types.NewPointer(w.Type))
	v.Name = w.Name
	if shadow && w.Name != "" {
		v.Name = ssaad.AdjointName(w.Name)
	}
	t.entry.Insert(0, v)
	m[w] = v
	return v
}

// ofIteration reports whether the reverse of the block being reversed
// finds w in the variable of the iteration (see fromIteration): it is in
// the body of the loop that records w per iteration.
func (t *transformer) ofIteration(w *ir.Value) bool {
	h, ok := t.iterLoop[w]
	return ok && t.cur != nil && t.cur != h && t.cfg.InLoop(h, t.cur)
}

// fromIteration returns, in the reverse of a block nested in the loop
// that records w per iteration, w (or its shadow) read from its
// variable; nil elsewhere.
func (t *transformer) fromIteration(w *ir.Value, shadow bool) *ir.Value {
	cache := t.rvals
	if shadow {
		cache = t.rshadow
	}
	if !t.ofIteration(w) {
		return nil
	}
	v := t.iterVarOf(w, shadow)
	x := t.Emit(ir.OpLoad, w.Type, v)
	x.Name = v.Name
	cache[w] = x
	return x
}

// Addresses of an iteration. The reverse rebuilds an address or slice at
// each of its uses; one that an iteration of loop L computes and the
// loops nested in L use (a row of weights, w := W[k*n:(k+1)*n], for the
// loop over its elements) is rebuilt once per iteration of L instead,
// with its shadow, when the reverse of the iteration begins, into the
// variables of values of the iteration: the reverse's own loop-invariant
// code motion.

// findIterRebuilds fills t.iterRebuild: for each loop, the addresses its
// iterations rebuild for the loops nested in them.
func (t *transformer) findIterRebuilds() {
	t.iterRebuild = map[*ir.Block][]*ir.Value{}
	defer func() {
		// What a rebuild reads is rebuilt before it.
		for _, xs := range t.iterRebuild {
			slices.SortFunc(xs, func(a, b *ir.Value) int {
				if a.Block != b.Block {
					return t.cfg.Order[a.Block.Index] - t.cfg.Order[b.Block.Index]
				}
				return indexIn(a.Block, a) - indexIn(b.Block, b)
			})
		}
	}()
	for _, b := range t.cfg.RPO {
		m := t.innermostLoop(b)
		if m == nil || !t.returns[b] {
			continue
		}
		for _, v := range b.Instrs {
			for _, a := range v.Args {
				if a == nil || !ssaad.IsPointerLike(a.Type) {
					continue
				}
				for x := a; x != nil; x = addrBase(x) {
					if x.Block == nil {
						break
					}
					l := t.innermostLoop(x.Block)
					if l == nil || l == m || !t.cfg.InLoop(l, b) || t.iterLoop[x] != nil {
						continue
					}
					if t.rebuildable(x, l) {
						t.iterLoop[x] = l
						t.iterRebuild[l] = append(t.iterRebuild[l], x)
					}
					break
				}
			}
		}
	}
}

// indexIn returns the position of v in block b.
func indexIn(b *ir.Block, v *ir.Value) int {
	for i, x := range b.Instrs {
		if x == v {
			return i
		}
	}
	return -1
}

// addrBase returns the address, slice or pointer x is derived from, when
// the reverse rebuilds x from it (see addrNeeds), or nil.
func addrBase(x *ir.Value) *ir.Value {
	switch x.Op {
	case ir.OpIndexAddr, ir.OpFieldAddr, ir.OpSlice, ir.OpConvert, ir.OpLoad:
		return x.Args[0]
	}
	return nil
}

// rebuildable reports whether the reverse can rebuild x, computed in an
// iteration of loop l, at the start of the reverse of each such iteration:
// x is computed on every path to the end of the iteration, and what it is
// rebuilt from is known there without records.
func (t *transformer) rebuildable(x *ir.Value, l *ir.Block) bool {
	if !ssaad.IsPointerLike(x.Type) || x.Op == ir.OpParam || x.Op == ir.OpConst {
		return false
	}
	for _, e := range t.iterEnds(l) {
		if !t.cfg.Dominates(x.Block, e) {
			return false
		}
		for _, y := range t.addrNeeds(x, nil) {
			if y == x || !t.knownIn(e, y) {
				return false
			}
		}
	}
	return true
}

// rebuildIteration emits, at the start of the reverse of b, the addresses
// and shadows the iterations b ends rebuild, into their variables.
func (t *transformer) rebuildIteration(b *ir.Block) {
	for _, h := range t.primal.Blocks {
		xs := t.iterRebuild[h]
		if len(xs) == 0 || !slices.Contains(t.iterEnds(h), b) {
			continue
		}
		for _, x := range xs {
			delete(t.iterLoop, x) // rebuild it, not read it back
			delete(t.rvals, x)
			delete(t.rshadow, x)
			y := t.addrAt(x)
			t.Emit(ir.OpStore, nil, t.iterVarOf(x, false), y)
			if t.hasShadow(x) {
				t.Emit(ir.OpStore, nil, t.iterVarOf(x, true), t.shadowAt(x))
			}
			t.iterLoop[x] = h
			t.rvals[x] = y
		}
	}
}
