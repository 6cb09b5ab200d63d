package second

// This file defines the helpers with respect to a struct of tensors (a
// model: `type Net struct{ W, B *tensorops.Tensor; Layers
// []*tensorops.Tensor }`, by value or by pointer). Its tensors, in the
// order of the fields (a []*Tensor field element by element, nested
// structs depth first), are its parameters: the Hessian is a matrix over
// them taken as one vector (tensorops.ParamsFlatten), the diagonal and the
// HVP are structs of m's shape. The generated code packs the struct's
// tensors into a []*tensorops.Tensor and unpacks such a list into a fresh
// struct of m's shape (the lengths of its slices taken from m); the
// runtime's Params… functions do the rest.

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/gadgen/gadgen/ir"
	"github.com/gadgen/gadgen/ssaad"
)

// leaf is a tensor field of a struct of tensors, reached from the struct
// through the fields of path (nested structs, by value or by pointer).
type leaf struct {
	path  []int
	slice bool   // a []*Tensor field, else a *Tensor
	name  string // "W", "Layers", "Enc.W" for messages
}

// model describes a varied parameter that is a struct of tensors or a
// pointer to one.
type model struct {
	typ     types.Type // the parameter's type, S or *S
	ptr     bool       // typ is *S
	leaves  []leaf
	tensorT types.Type // *tensorops.Tensor
}

// modelOf returns the description of a parameter of type t when t is a
// struct of tensors or a pointer to one: nil, nil when t is no struct or
// pointer to a struct; an error naming the field when it is one whose
// floats are not all in tensors.
func modelOf(t types.Type) (*model, error) {
	m := &model{typ: t}
	s := t
	if p, ok := t.Underlying().(*types.Pointer); ok {
		s, m.ptr = p.Elem(), true
	}
	if _, ok := s.Underlying().(*types.Struct); !ok {
		return nil, nil
	}
	if err := m.walk(s, nil, "", map[types.Type]bool{}); err != nil {
		return nil, err
	}
	if len(m.leaves) == 0 {
		return nil, fmt.Errorf("%s has no tensor fields", types.TypeString(t, nil))
	}
	return m, nil
}

// walk adds the tensor fields of the struct type s, reached by path.
func (m *model) walk(s types.Type, path []int, prefix string, seen map[types.Type]bool) error {
	if seen[s] {
		return fmt.Errorf("%s refers to itself", types.TypeString(s, nil))
	}
	seen[s] = true
	defer delete(seen, s)
	st := s.Underlying().(*types.Struct)
	for k := range st.NumFields() {
		f := st.Field(k)
		ft := f.Type()
		p := append(slices.Clip(path), k)
		name := prefix + f.Name()
		if ir.IsTensor(ft) {
			m.leaves = append(m.leaves, leaf{path: p, name: name})
			m.tensorT = ft
			continue
		}
		if sl, ok := ft.Underlying().(*types.Slice); ok && ir.IsTensor(sl.Elem()) {
			m.leaves = append(m.leaves, leaf{path: p, slice: true, name: name})
			m.tensorT = sl.Elem()
			continue
		}
		inner := ft
		if pt, ok := ft.Underlying().(*types.Pointer); ok {
			inner = pt.Elem()
		}
		if _, ok := inner.Underlying().(*types.Struct); ok && ssaad.HasFloat(inner) {
			if err := m.walk(inner, p, name+".", seen); err != nil {
				return err
			}
			continue
		}
		if ssaad.HasFloat(ft) {
			return fmt.Errorf("field %s has type %s: the floats of a struct of tensors must be in fields of type "+
				"*tensorops.Tensor or []*tensorops.Tensor, or in structs of such fields", name, types.TypeString(ft, nil))
		}
	}
	return nil
}

// describe names m's tensors in order for doc comments: "W, B, then the
// elements of Layers".
func (m *model) describe() string {
	var parts []string
	for _, l := range m.leaves {
		if l.slice {
			parts = append(parts, "the elements of "+l.name)
		} else {
			parts = append(parts, l.name)
		}
	}
	return strings.Join(parts, ", ")
}

// sliceT returns []*tensorops.Tensor.
func (m *model) sliceT() types.Type { return types.NewSlice(m.tensorT) }

// structT returns S.
func (m *model) structT() types.Type {
	if m.ptr {
		return m.typ.Underlying().(*types.Pointer).Elem()
	}
	return m.typ
}

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

// leafAddr returns the address of leaf l in the struct p points to,
// following nested structs (loading the pointers to them).
func leafAddr(b *helperBuilder, p *ir.Value, l leaf) *ir.Value {
	for i, k := range l.path {
		p = fieldAddr(b, p, k)
		if i == len(l.path)-1 {
			break
		}
		ft := p.Type.Underlying().(*types.Pointer).Elem()
		if _, ok := ft.Underlying().(*types.Pointer); ok {
			p = b.Emit(ir.OpLoad, ft, p)
		}
	}
	return p
}

// load returns the value of leaf l of the struct p points to.
func (m *model) load(b *helperBuilder, p *ir.Value, l leaf) *ir.Value {
	a := leafAddr(b, p, l)
	return b.Emit(ir.OpLoad, a.Type.Underlying().(*types.Pointer).Elem(), a)
}

// pack returns the tensors of the struct x (of type S or *S) as a fresh
// []*tensorops.Tensor, in order.
func (m *model) pack(b *helperBuilder, x *ir.Value, name string) *ir.Value {
	p := addr(b, x)
	singles := 0
	for _, l := range m.leaves {
		if !l.slice {
			singles++
		}
	}
	ts := b.Emit(ir.OpMakeSlice, m.sliceT(), b.int(0), b.int(int64(singles)))
	for _, l := range m.leaves {
		c := b.Emit(ir.OpCall, m.sliceT(), ts, m.load(b, p, l))
		c.Callee = &ir.Callee{Builtin: "append", Spread: l.slice}
		ts = c
	}
	ts.Name = name
	return ts
}

// shape is what the generated code knows of the struct m of a call: its
// tensors (pack), and the length of each of its slices of tensors (nil
// for a single tensor), which every struct of its shape shares.
type shape struct {
	params *ir.Value
	lens   []*ir.Value
}

// shapeOf returns the shape of x, computed once, at the current block.
func (m *model) shapeOf(b *helperBuilder, x *ir.Value) *shape {
	sh := &shape{params: m.pack(b, x, "params")}
	p := addr(b, x)
	for _, l := range m.leaves {
		var n *ir.Value
		if l.slice {
			n = b.Emit(ir.OpLen, b.intT, m.load(b, p, l))
		}
		sh.lens = append(sh.lens, n)
	}
	return sh
}

// newStruct returns a fresh *S whose nested structs reached through
// pointers are fresh too, and set, which returns the address of the field
// of leaf l in it.
func (m *model) newStruct(b *helperBuilder, ptr bool) (out *ir.Value, set func(l leaf) *ir.Value) {
	out = b.Emit(ir.OpAlloc, types.NewPointer(m.structT()))
	out.Heap = ptr
	// The nested structs reached through pointers, by path, allocated on
	// their first use.
	nested := map[string]*ir.Value{}
	var structAt func(path []int) *ir.Value
	structAt = func(path []int) *ir.Value {
		if len(path) == 0 {
			return out
		}
		key := fmt.Sprint(path)
		if p, ok := nested[key]; ok {
			return p
		}
		a := fieldAddr(b, structAt(path[:len(path)-1]), path[len(path)-1])
		ft := a.Type.Underlying().(*types.Pointer).Elem()
		p := a
		if pt, ok := ft.Underlying().(*types.Pointer); ok {
			p = b.Emit(ir.OpAlloc, pt)
			p.Heap = true
			b.Emit(ir.OpStore, nil, a, p)
		}
		nested[key] = p
		return p
	}
	return out, func(l leaf) *ir.Value {
		return fieldAddr(b, structAt(l.path[:len(l.path)-1]), l.path[len(l.path)-1])
	}
}

// finish returns the struct out points to as m's type when ptr is
// false, else out.
func (m *model) finish(b *helperBuilder, out *ir.Value, ptr bool) *ir.Value {
	if ptr {
		return out
	}
	return b.Emit(ir.OpLoad, m.structT(), out)
}

// unpack returns a fresh struct of shape sh whose tensors are those of ts,
// in order: a *S when ptr, else an S. Its other fields are zero; its
// slices view ts.
func (m *model) unpack(b *helperBuilder, ts *ir.Value, sh *shape, ptr bool) *ir.Value {
	out, set := m.newStruct(b, ptr)
	off := b.int(0)
	for j, l := range m.leaves {
		a := set(l)
		if !l.slice {
			t := b.Emit(ir.OpLoad, m.tensorT, b.Emit(ir.OpIndexAddr, types.NewPointer(m.tensorT), ts, off))
			b.Emit(ir.OpStore, nil, a, t)
			off = b.Add(off, b.int(1))
			continue
		}
		end := b.Add(off, sh.lens[j])
		b.Emit(ir.OpStore, nil, a, b.Emit(ir.OpSlice, m.sliceT(), ts, off, end, end))
		off = end
	}
	return m.finish(b, out, ptr)
}

// zero returns a fresh *S of shape sh with nil tensors: the shadow a
// gradient accumulates into, whose slices need no sizing by the caller.
func (m *model) zero(b *helperBuilder, sh *shape, name string) *ir.Value {
	out, set := m.newStruct(b, true)
	for j, l := range m.leaves {
		a := set(l) // the nested structs on its way allocated
		if l.slice {
			b.Emit(ir.OpStore, nil, a, b.Emit(ir.OpMakeSlice, m.sliceT(), sh.lens[j], nil))
		}
	}
	out.Name = name
	return out
}

// checkShape panics, naming both, unless v has the shape of m, a
// direction of m (a nil tensor in it is zero): each of its nested structs
// by pointer is there (not nil), each slice has the length of m's.
func (m *model) checkShape(b *helperBuilder, fn string, mv, v *ir.Value) {
	mp, vp := addr(b, mv), addr(b, v)
	checked := map[string]bool{}
	for _, l := range m.leaves {
		p, name := vp, v.Name
		st := m.structT().Underlying().(*types.Struct)
		for i, k := range l.path[:len(l.path)-1] {
			name += "." + st.Field(k).Name()
			a := fieldAddr(b, p, k)
			ft := st.Field(k).Type()
			pt, ok := ft.Underlying().(*types.Pointer)
			if !ok {
				p, st = a, ft.Underlying().(*types.Struct)
				continue
			}
			p, st = b.Emit(ir.OpLoad, ft, a), pt.Elem().Underlying().(*types.Struct)
			if key := fmt.Sprint(l.path[:i+1]); !checked[key] {
				checked[key] = true
				b.panicIf(token.EQL, p, b.F.ConstValue(ft, nil), fmt.Sprintf("%s: %s is nil", fn, name))
			}
		}
		if l.slice {
			n := b.Emit(ir.OpLen, b.intT, m.load(b, mp, l))
			b.checkLen(m.load(b, vp, l), n, fmt.Sprintf("%s: len(%s.%s) != len(%s.%s)", fn, v.Name, l.name, mv.Name, l.name))
		}
	}
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
