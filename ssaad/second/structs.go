package second

// This file defines the helpers with respect to a struct of tensors (a
// model: `type Net struct{ W, B *tensorops.Tensor; Hidden []*tensorops.Tensor;
// Layers []Layer }`, by value or by pointer, Layer a struct of tensors
// in turn). Its tensors, in the order of the fields, a []*Tensor field
// element by element, a nested struct depth first, a slice of structs
// element by element (each element's fields in order), are its
// parameters: the Hessian is a matrix over them taken as one vector
// (tensorops.ParamsFlatten), the diagonal and the HVP are structs of m's
// shape. The generated code packs the struct's tensors into a
// []*tensorops.Tensor and unpacks such a list into a fresh struct of m's
// shape (the lengths of its slices taken from m), with a loop over each
// slice of structs; the runtime's Params… functions do the rest.

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// nodeKind is the kind of a value that holds tensors of a struct of
// tensors.
type nodeKind int

const (
	tensorNode  nodeKind = iota // *tensorops.Tensor
	tensorsNode                 // []*tensorops.Tensor
	structNode                  // S or *S, S a struct of tensors
	structsNode                 // []S or []*S
)

// node describes a value of a struct of tensors that holds tensors: the
// struct itself, or one of its fields.
type node struct {
	kind   nodeKind
	typ    types.Type // the value's type
	ptr    bool       // a struct by pointer: *S, []*S
	st     types.Type // S, for a struct or a slice of structs
	fields []field    // S's fields that hold tensors, in order
}

// field is a field of a struct of tensors that holds tensors.
type field struct {
	index int    // the field's index in the struct
	name  string // its name
	*node
}

// model describes a varied parameter that is a struct of tensors or a
// pointer to one.
type model struct {
	root    *node      // structNode
	tensorT types.Type // *tensorops.Tensor
}

// modelOf returns the description of a parameter of type t when t is a
// struct of tensors or a pointer to one: nil, nil when t is no struct or
// pointer to a struct; an error naming the field when it is one whose
// floats are not all in tensors.
func modelOf(t types.Type) (*model, error) {
	s, ptr := t, false
	if p, ok := t.Underlying().(*types.Pointer); ok {
		s, ptr = p.Elem(), true
	}
	if _, ok := s.Underlying().(*types.Struct); !ok {
		return nil, nil
	}
	m := &model{}
	root, err := m.structOf(s, "", map[types.Type]bool{})
	if err != nil {
		return nil, err
	}
	if m.tensorT == nil {
		return nil, fmt.Errorf("%s has no tensor fields", types.TypeString(t, nil))
	}
	root.typ, root.ptr = t, ptr
	m.root = root
	return m, nil
}

// structOf describes the struct type s, its fields' names prefixed with
// prefix in messages.
func (m *model) structOf(s types.Type, prefix string, seen map[types.Type]bool) (*node, error) {
	if seen[s] {
		return nil, fmt.Errorf("%s refers to itself", types.TypeString(s, nil))
	}
	seen[s] = true
	defer delete(seen, s)
	n := &node{kind: structNode, typ: s, st: s}
	st := s.Underlying().(*types.Struct)
	for k := range st.NumFields() {
		f := st.Field(k)
		ft := f.Type()
		name := prefix + f.Name()
		var fn *node
		if ir.IsTensor(ft) {
			fn = &node{kind: tensorNode, typ: ft}
			m.tensorT = ft
		} else if sl, ok := ft.Underlying().(*types.Slice); ok && ir.IsTensor(sl.Elem()) {
			fn = &node{kind: tensorsNode, typ: ft}
			m.tensorT = sl.Elem()
		} else if inner, ptr, ok := structType(ft); ok && ssaad.HasFloat(inner) {
			var err error
			if fn, err = m.structOf(inner, name+".", seen); err != nil {
				return nil, err
			}
			fn.typ, fn.ptr = ft, ptr
		} else if sl, ok := ft.Underlying().(*types.Slice); ok && ssaad.HasFloat(ft) {
			inner, ptr, ok := structType(sl.Elem())
			if !ok {
				return nil, fieldErr(name, ft)
			}
			var err error
			if fn, err = m.structOf(inner, name+"[i].", seen); err != nil {
				return nil, err
			}
			fn.kind, fn.typ, fn.ptr = structsNode, ft, ptr
		} else if ssaad.HasFloat(ft) {
			return nil, fieldErr(name, ft)
		} else {
			continue
		}
		n.fields = append(n.fields, field{index: k, name: f.Name(), node: fn})
	}
	return n, nil
}

// structType returns S when t is a struct type S or a pointer to one, and
// whether it is a pointer.
func structType(t types.Type) (s types.Type, ptr, ok bool) {
	s = t
	if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
		s, ptr = p.Elem(), true
	}
	_, ok = s.Underlying().(*types.Struct)
	return s, ptr, ok
}

func fieldErr(name string, t types.Type) error {
	return fmt.Errorf("field %s has type %s: the floats of a struct of tensors must be in fields of type "+
		"*tensorops.Tensor or []*tensorops.Tensor, or in structs of such fields, by value or by pointer, or in slices of such structs",
		name, types.TypeString(t, nil))
}

// refs reports whether a value of n's type holds slices or pointers that
// a fresh value of its shape must allocate: a slice, a struct by
// pointer, or a struct holding one.
func (n *node) refs() bool {
	switch n.kind {
	case tensorNode:
		return false
	case structNode:
		return n.ptr || n.fieldRefs()
	}
	return true
}

// structSlices reports whether n holds a slice of structs.
func (n *node) structSlices() bool {
	if n.kind == structsNode {
		return true
	}
	for _, f := range n.fields {
		if f.structSlices() {
			return true
		}
	}
	return false
}

// fieldRefs reports whether a field of the struct or of the elements of
// the slice of structs n holds slices or pointers (see refs).
func (n *node) fieldRefs() bool {
	for _, f := range n.fields {
		if f.refs() {
			return true
		}
	}
	return false
}

// describe names m's tensors in order for doc comments: "W, B, the
// elements of Hidden, each element e of Layers in turn (e.W, e.B)".
func (m *model) describe() string { return describeFields(m.root.fields, "") }

func describeFields(fields []field, prefix string) string {
	var parts []string
	for _, f := range fields {
		name := prefix + f.name
		switch f.kind {
		case tensorNode:
			parts = append(parts, name)
		case tensorsNode:
			parts = append(parts, "the elements of "+name)
		case structNode:
			parts = append(parts, describeFields(f.fields, name+"."))
		case structsNode:
			parts = append(parts, fmt.Sprintf("each element e of %s in turn (%s)", name, describeFields(f.fields, "e.")))
		}
	}
	return strings.Join(parts, ", ")
}

// sliceT returns []*tensorops.Tensor.
func (m *model) sliceT() types.Type { return types.NewSlice(m.tensorT) }

// ptr reports whether the parameter is a pointer to the struct.
func (m *model) ptr() bool { return m.root.ptr }

// structT returns S.
func (m *model) structT() types.Type { return m.root.st }

// addr returns a pointer to the struct x (of type S or *S): x itself, or
// a fresh variable holding the value x.
func addr(b *helperBuilder, x *ir.Value) *ir.Value {
	if _, ok := x.Type.Underlying().(*types.Pointer); ok {
		return x
	}
	a := b.Emit(ir.OpAlloc, types.NewPointer(x.Type))
	b.Emit(ir.OpStore, nil, a, x)
	return a
}

// fieldAddr returns the address of field k of the struct p points to.
func fieldAddr(b *helperBuilder, p *ir.Value, k int) *ir.Value {
	st := p.Type.Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	a := b.Emit(ir.OpFieldAddr, types.NewPointer(st.Field(k).Type()), p)
	a.Index = k
	return a
}

// loadAt returns *p.
func loadAt(b *helperBuilder, p *ir.Value) *ir.Value {
	return b.Emit(ir.OpLoad, p.Type.Underlying().(*types.Pointer).Elem(), p)
}

// walk goes through the fields of structs of one shape in parallel (the
// sides), emitting what its callbacks do with their tensors: a nested
// struct by pointer or a slice of structs is read from a side that is
// not built (loaded) and allocated in one that is (a fresh struct, a
// fresh slice of the last side's length: the last side is read), with a
// loop over the elements of a slice of structs. Values that the
// callbacks thread through the fields in order (an offset into a list
// of tensors, a list being appended to) are carried through the loops.
type walk struct {
	b     *helperBuilder
	built []bool // which sides are built
	// leaf emits what the walk does with a tensor field (a
	// *tensorops.Tensor or a []*tensorops.Tensor), given the field's
	// address in each side, its path (in Go, from the side's name) and
	// the carried values, which it returns updated.
	leaf func(f field, addrs []*ir.Value, path []string, carried []*ir.Value) []*ir.Value
	// flush, when set, returns the carried values ready to cross a
	// loop's boundary (a list with what was pending appended).
	flush func(carried []*ir.Value) []*ir.Value
	// nested, when set, is called on the values read from the sides (nil
	// for the built ones) of a struct by pointer (a field, an element of
	// a []*S) or of a slice of structs, before the walk goes in.
	nested func(slice bool, vals []*ir.Value, path []string)
	// refsOnly: visit only the fields that hold slices or pointers (see
	// node.refs), as a fresh zero struct needs.
	refsOnly bool
	// carriedNames are the names of the carried values in the loops.
	carriedNames []string
	depth        int // of loops, for their variables' names
}

// run walks the fields of node n of the structs the sides point to, at
// path, and returns the carried values after them.
func (w *walk) run(n *node, sides []*ir.Value, path []string, carried []*ir.Value) []*ir.Value {
	for _, f := range n.fields {
		if w.refsOnly && !f.refs() {
			continue
		}
		addrs := make([]*ir.Value, len(sides))
		fpath := make([]string, len(sides))
		for s, p := range sides {
			addrs[s] = fieldAddr(w.b, p, f.index)
			fpath[s] = path[s] + "." + f.name
		}
		switch {
		case f.kind == tensorNode || f.kind == tensorsNode:
			carried = w.leaf(f, addrs, fpath, carried)
		case f.kind == structNode && !f.ptr:
			carried = w.run(f.node, addrs, fpath, carried)
		case f.kind == structNode:
			carried = w.run(f.node, w.pointers(f.typ, addrs, fpath), fpath, carried)
		default:
			carried = w.slice(f, addrs, fpath, carried)
		}
	}
	return carried
}

// read returns the values at addrs of the sides that are not built, nil
// for the others.
func (w *walk) read(addrs []*ir.Value) []*ir.Value {
	vals := make([]*ir.Value, len(addrs))
	for s, a := range addrs {
		if !w.built[s] {
			vals[s] = loadAt(w.b, a)
		}
	}
	return vals
}

// pointers returns the pointers to the structs at addrs, of type typ (a
// field's, or an element's of a []*S), at path: read from the sides that
// are not built, fresh in the others (stored at addrs).
func (w *walk) pointers(typ types.Type, addrs []*ir.Value, path []string) []*ir.Value {
	vals := w.read(addrs)
	if w.nested != nil {
		w.nested(false, vals, path)
	}
	for s, a := range addrs {
		if w.built[s] {
			p := w.b.Emit(ir.OpAlloc, typ)
			p.Heap = true
			w.b.Emit(ir.OpStore, nil, a, p)
			vals[s] = p
		}
	}
	return vals
}

// slice walks the elements of the slices of structs of field f at addrs.
func (w *walk) slice(f field, addrs []*ir.Value, path []string, carried []*ir.Value) []*ir.Value {
	b := w.b
	slices := w.read(addrs)
	if w.nested != nil {
		w.nested(true, slices, path)
	}
	n := b.Emit(ir.OpLen, b.intT, slices[len(slices)-1])
	for s, a := range addrs {
		if w.built[s] {
			slices[s] = b.Emit(ir.OpMakeSlice, f.typ, n, nil)
			b.Emit(ir.OpStore, nil, a, slices[s])
		}
	}
	if w.refsOnly && !f.ptr && !f.fieldRefs() {
		return carried // make([]S, n) is the zero of S's shape
	}
	if w.flush != nil {
		carried = w.flush(carried)
	}
	idx := loopNames[min(w.depth, len(loopNames)-1)]
	w.depth++
	defer func() { w.depth-- }()
	elemT := f.typ.Underlying().(*types.Slice).Elem()
	return b.loop(idx, b.int(0), n, carried, func(j *ir.Value, carried []*ir.Value) []*ir.Value {
		for c, name := range w.carriedNames {
			carried[c].Name = name
		}
		elems := make([]*ir.Value, len(slices))
		epath := make([]string, len(slices))
		for s, sl := range slices {
			elems[s] = b.Emit(ir.OpIndexAddr, types.NewPointer(elemT), sl, j)
			epath[s] = path[s] + "[" + idx + "]"
		}
		if f.ptr {
			elems = w.pointers(elemT, elems, epath)
		}
		carried = w.run(f.node, elems, epath, carried)
		if w.flush != nil {
			carried = w.flush(carried)
		}
		return carried
	})
}

// loopNames are the names of the loops' variables over the elements of
// slices of structs, by depth.
var loopNames = []string{"j", "k"}

// pack returns the tensors of the struct x (of type S or *S) as a fresh
// []*tensorops.Tensor, in order.
func (m *model) pack(b *helperBuilder, x *ir.Value, name string) *ir.Value {
	singles := 0 // the tensor fields outside slices
	var count func(n *node)
	count = func(n *node) {
		for _, f := range n.fields {
			switch f.kind {
			case tensorNode:
				singles++
			case structNode:
				count(f.node)
			}
		}
	}
	count(m.root)
	var cp *ir.Value
	if singles > 0 {
		cp = b.int(int64(singles))
	}
	ts := b.Emit(ir.OpMakeSlice, m.sliceT(), b.int(0), cp)
	ts.Name = name
	// The list, then the tensors to append to it at once.
	var pending []*ir.Value
	w := &walk{b: b, built: []bool{false}, carriedNames: []string{name}}
	w.flush = func(c []*ir.Value) []*ir.Value {
		if len(pending) > 0 {
			a := b.Emit(ir.OpCall, m.sliceT(), append([]*ir.Value{c[0]}, pending...)...)
			a.Callee = &ir.Callee{Builtin: "append"}
			a.Name = name
			c, pending = []*ir.Value{a}, nil
		}
		return c
	}
	w.leaf = func(f field, addrs []*ir.Value, _ []string, c []*ir.Value) []*ir.Value {
		t := loadAt(b, addrs[0])
		if f.kind == tensorNode {
			pending = append(pending, t)
			return c
		}
		c = w.flush(c)
		a := b.Emit(ir.OpCall, m.sliceT(), c[0], t)
		a.Callee = &ir.Callee{Builtin: "append", Spread: true}
		a.Name = name
		return []*ir.Value{a}
	}
	c := w.run(m.root, []*ir.Value{addr(b, x)}, []string{x.Name}, []*ir.Value{ts})
	return w.flush(c)[0]
}

// unpack stores into the struct dst points to, fresh but for its nested
// structs by value (zero), the tensors of ts in order (see pack), in the
// shape of the struct ref points to: its slices of tensors view ts, its
// nested structs by pointer and slices of structs are fresh, of ref's
// lengths.
func (m *model) unpack(b *helperBuilder, ts, dst, ref *ir.Value) {
	w := &walk{b: b, built: []bool{true, false}, carriedNames: []string{"off"}}
	w.leaf = func(f field, addrs []*ir.Value, _ []string, c []*ir.Value) []*ir.Value {
		off := c[0]
		if f.kind == tensorNode {
			t := loadAt(b, b.Emit(ir.OpIndexAddr, types.NewPointer(m.tensorT), ts, off))
			b.Emit(ir.OpStore, nil, addrs[0], t)
			return []*ir.Value{b.Add(off, b.int(1))}
		}
		end := b.Add(off, b.Emit(ir.OpLen, b.intT, loadAt(b, addrs[1])))
		b.Emit(ir.OpStore, nil, addrs[0], b.Emit(ir.OpSlice, m.sliceT(), ts, off, end, end))
		return []*ir.Value{end}
	}
	w.run(m.root, []*ir.Value{dst, ref}, []string{"", ""}, []*ir.Value{b.int(0)})
}

// newStruct returns a fresh *S (new(S) when heap, else a local variable).
func (m *model) newStruct(b *helperBuilder, heap bool) *ir.Value {
	out := b.Emit(ir.OpAlloc, types.NewPointer(m.structT()))
	out.Heap = heap
	return out
}

// finish returns the struct out points to as m's type when ptr is
// false, else out.
func (m *model) finish(b *helperBuilder, out *ir.Value, ptr bool) *ir.Value {
	if ptr {
		return out
	}
	return b.Emit(ir.OpLoad, m.structT(), out)
}

// zero returns a fresh *S of the shape of the struct ref points to, with
// nil tensors: the shadow a gradient accumulates into, whose slices need
// no sizing by the caller.
func (m *model) zero(b *helperBuilder, ref *ir.Value, name string) *ir.Value {
	out := m.newStruct(b, true)
	out.Name = name
	w := &walk{b: b, built: []bool{true, false}, refsOnly: true}
	w.leaf = func(f field, addrs []*ir.Value, _ []string, c []*ir.Value) []*ir.Value {
		// Only []*Tensor fields are visited.
		n := b.Emit(ir.OpLen, b.intT, loadAt(b, addrs[1]))
		b.Emit(ir.OpStore, nil, addrs[0], b.Emit(ir.OpMakeSlice, m.sliceT(), n, nil))
		return c
	}
	w.run(m.root, []*ir.Value{out, ref}, []string{"", ""}, nil)
	return out
}

// orZeros replaces, in place, each nil tensor of the struct hv points to
// (of the shape of params, the tensors it is a derivative of, in order)
// with zeros like the tensor of params in its place.
func (m *model) orZeros(b *helperBuilder, hv, params *ir.Value) {
	w := &walk{b: b, built: []bool{false}, carriedNames: []string{"off"}}
	w.leaf = func(f field, addrs []*ir.Value, _ []string, c []*ir.Value) []*ir.Value {
		off, t := c[0], loadAt(b, addrs[0])
		if f.kind == tensorNode {
			like := loadAt(b, b.Emit(ir.OpIndexAddr, types.NewPointer(m.tensorT), params, off))
			b.Emit(ir.OpStore, nil, addrs[0], b.TensorCall("OrZerosLike", t, like))
			return []*ir.Value{b.Add(off, b.int(1))}
		}
		end := b.Add(off, b.Emit(ir.OpLen, b.intT, t))
		like := b.Emit(ir.OpSlice, m.sliceT(), params, off, end, nil)
		b.Emit(ir.OpStore, nil, addrs[0], b.tensorsCall("ParamsOrZeros", m.sliceT(), t, like))
		return []*ir.Value{end}
	}
	w.run(m.root, []*ir.Value{hv}, []string{""}, []*ir.Value{b.int(0)})
}

// checkShape panics, naming both, unless the struct v has the shape of
// the struct x (pointers to them, named vName and xName), a direction of
// x (a nil tensor in it is zero): v itself, when the model is a pointer,
// and each of its nested structs by pointer (each element of a []*S) is
// there, not nil, each slice has the length of x's.
func (m *model) checkShape(b *helperBuilder, fn string, v, x *ir.Value, vName, xName string) {
	w := &walk{b: b, built: []bool{false, false}}
	lenCheck := func(vs, xs *ir.Value, path []string) {
		b.checkLen(vs, b.Emit(ir.OpLen, b.intT, xs), fmt.Sprintf("%s: len(%s) != len(%s)", fn, path[0], path[1]))
	}
	w.leaf = func(f field, addrs []*ir.Value, path []string, c []*ir.Value) []*ir.Value {
		if f.kind == tensorsNode {
			lenCheck(loadAt(b, addrs[0]), loadAt(b, addrs[1]), path)
		}
		return c
	}
	w.nested = func(slice bool, vals []*ir.Value, path []string) {
		if slice {
			lenCheck(vals[0], vals[1], path)
			return
		}
		// A struct by pointer: v's (the first side) is there.
		b.panicIf(token.EQL, vals[0], b.F.ConstValue(vals[0].Type, nil), fmt.Sprintf("%s: %s is nil", fn, path[0]))
	}
	if m.ptr() {
		w.nested(false, []*ir.Value{v, x}, []string{vName, xName})
	}
	w.run(m.root, []*ir.Value{v, x}, []string{vName, xName}, nil)
}

// tensorsCall calls the function name of package tensorops, whose
// arguments need not be tensors, with result type typ.
func (b *helperBuilder) tensorsCall(name string, typ types.Type, args ...*ir.Value) *ir.Value {
	var fn *types.Func
	for _, a := range args {
		t := a.Type
		if s, ok := t.Underlying().(*types.Slice); ok {
			t = s.Elem()
		}
		if fn = ir.TensorFunc(t, name); fn != nil {
			break
		}
	}
	if fn == nil {
		panic("second: no function tensorops." + name)
	}
	c := b.Emit(ir.OpCall, typ, args...)
	c.Callee = &ir.Callee{Func: fn}
	return c
}
