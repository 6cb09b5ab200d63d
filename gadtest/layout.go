package gadtest

// This file defines the layout of a point of a tensor check: the values
// that hold floats in a *tensorops.Tensor, a float, or a struct, pointer,
// slice or array of them (a model), found by reflection and laid out as
// one vector of float64s; and the values built back from such a vector,
// which share what holds no floats with the point they were laid out
// from.

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/gadgen/gadgen/tensorops"
)

var tensorType = reflect.TypeFor[*tensorops.Tensor]()

// leafKind says what a leaf of a point is.
type leafKind int

const (
	tensorLeaf leafKind = iota // a *tensorops.Tensor
	floatLeaf                  // a float64 or float32 (or a named float type)
	sliceLeaf                  // a slice or array of floats
)

// leaf is one part of a point that holds floats.
type leaf struct {
	name  string // as a Go expression from the point: "x", "W1", "Ws[2]", "Inner.B"
	kind  leafKind
	f32   bool  // float32 elements
	shape []int // a tensor's shape; [n] for a slice; [] for a float
	dev   tensorops.Device
	isNil bool // a nil tensor (or nil slice): no elements, left as it is
	off   int  // offset of the first element in the vector
	size  int
}

// layout lays out the values of one type, of the shapes of one value.
type layout struct {
	typ    reflect.Type
	leaves []leaf
	n      int  // the length of the vector
	f32    bool // some leaf holds float32s
}

// holdsFloats reports whether values of type t hold floats: tensors,
// floats, and structs, pointers, slices and arrays of them.
func holdsFloats(t reflect.Type) bool { return holds(t, map[reflect.Type]bool{}) }

func holds(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == tensorType {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Float64, reflect.Float32:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return holds(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if holds(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// settable returns v, or, for a field that the package of v does not
// export, a settable view of it (v must be addressable).
func settable(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// isFloatKind reports whether k is a float kind.
func isFloatKind(k reflect.Kind) bool { return k == reflect.Float64 || k == reflect.Float32 }

// walk calls visit on each leaf of v (addressable), in a fixed order: the
// fields of structs in order, the elements of slices and arrays by index,
// through pointers. name is v's name as a Go expression.
func walk(v reflect.Value, name string, visit func(name string, v reflect.Value) error) error {
	t := v.Type()
	switch {
	case t == tensorType:
		return visit(name, v)
	case isFloatKind(t.Kind()):
		return visit(name, v)
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && isFloatKind(t.Elem().Kind()):
		return visit(name, v)
	case !holdsFloats(t):
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return walk(v.Elem(), name, visit)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !holdsFloats(f.Type) {
				continue
			}
			fn := f.Name
			if name != "" {
				fn = name + "." + f.Name
			}
			if err := walk(settable(v.Field(i)), fn, visit); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := walk(v.Index(i), fmt.Sprintf("%s[%d]", name, i), visit); err != nil {
				return err
			}
		}
	case reflect.Interface, reflect.Map, reflect.Func, reflect.Chan:
		// Opaque: shared, never varied.
	}
	return nil
}

// addressable returns an addressable copy of the value x of type t.
func addressable(x any, t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	if x != nil {
		v.Set(reflect.ValueOf(x))
	}
	return v
}

// layoutOf lays out the point x of type t: its leaves, their shapes and
// dtypes. It fails when x holds no floats.
func layoutOf(x any, t reflect.Type) (*layout, error) {
	l := &layout{typ: t}
	v := addressable(x, t)
	err := walk(v, "", func(name string, v reflect.Value) error {
		lf := leaf{name: name, off: l.n}
		switch {
		case v.Type() == tensorType:
			lf.kind = tensorLeaf
			if v.IsNil() {
				lf.isNil = true
				break
			}
			tt := v.Interface().(*tensorops.Tensor)
			lf.shape, lf.f32, lf.dev = tt.Shape(), tt.DType() == tensorops.Float32, tt.Device()
			lf.size = tt.Size()
		case isFloatKind(v.Kind()):
			lf.kind, lf.f32, lf.size = floatLeaf, v.Kind() == reflect.Float32, 1
		default:
			lf.kind, lf.f32 = sliceLeaf, v.Type().Elem().Kind() == reflect.Float32
			lf.isNil = v.Kind() == reflect.Slice && v.IsNil()
			lf.size, lf.shape = v.Len(), []int{v.Len()}
		}
		l.f32 = l.f32 || lf.f32
		l.leaves = append(l.leaves, lf)
		l.n += lf.size
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(l.leaves) == 0 {
		return nil, fmt.Errorf("a value of type %s holds no tensors or floats to vary", t)
	}
	return l, nil
}

// leafName names leaf i in messages: its expression, or "x" for the
// point itself.
func (l *layout) leafName(i int) string {
	if n := l.leaves[i].name; n != "" {
		return strings.TrimPrefix(n, ".")
	}
	return "x"
}

// describe lists the leaves with their shapes, for messages.
func (l *layout) describe() string {
	var parts []string
	for i, lf := range l.leaves {
		s := l.leafName(i)
		switch {
		case lf.isNil:
			s += " (nil)"
		case lf.kind == tensorLeaf:
			dt := "float64"
			if lf.f32 {
				dt = "float32"
			}
			s += fmt.Sprintf(" %v %s", lf.shape, dt)
		case lf.kind == sliceLeaf:
			s += fmt.Sprintf(" [%d]", lf.size)
		}
		parts = append(parts, s)
	}
	const max = 12
	if len(parts) > max {
		parts = append(parts[:max], fmt.Sprintf("… (%d parts)", len(parts)))
	}
	return strings.Join(parts, ", ")
}

// elemName names element k of the vector: its leaf and, in a tensor or a
// slice, its index.
func (l *layout) elemName(k int) string {
	for i, lf := range l.leaves {
		if k < lf.off || k >= lf.off+lf.size {
			continue
		}
		switch lf.kind {
		case floatLeaf:
			return l.leafName(i)
		case sliceLeaf:
			return fmt.Sprintf("%s[%d]", l.leafName(i), k-lf.off)
		}
		return fmt.Sprintf("%s%s", l.leafName(i), index(lf.shape, k-lf.off))
	}
	return fmt.Sprintf("element %d", k)
}

// index writes the multi-index of element k of a row-major array of the
// shape: "[1 2]".
func index(shape []int, k int) string {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			idx[d] = k % shape[d]
			k /= shape[d]
		}
	}
	return fmt.Sprint(idx)
}

// tensorData returns the elements of t as float64s, in row-major order.
func tensorData(t *tensorops.Tensor) []float64 {
	if t.Device() != tensorops.CPU {
		t = t.To(tensorops.CPU)
	}
	t = t.Contiguous()
	if t.DType() == tensorops.Float32 {
		d := t.Float32s()
		out := make([]float64, len(d))
		for i, x := range d {
			out[i] = float64(x)
		}
		return out
	}
	return append([]float64(nil), t.Float64s()...)
}

// newTensor returns a fresh tensor of the shape, dtype and device of lf
// holding data.
func newTensor(lf *leaf, data []float64) *tensorops.Tensor {
	var t *tensorops.Tensor
	if lf.f32 {
		d := make([]float32, len(data))
		for i, x := range data {
			d[i] = float32(x)
		}
		t = tensorops.FromFloat32s(d, lf.shape...)
	} else {
		t = tensorops.FromFloat64s(append([]float64(nil), data...), lf.shape...)
	}
	if lf.dev != tensorops.CPU {
		t = t.To(lf.dev)
	}
	return t
}

// flatten returns the vector of the point x, laid out as l. A nil tensor
// where l has one is zero (a gradient that does not depend on a part of
// the point may leave it nil). It fails when x does not have l's shapes.
func (l *layout) flatten(x any) ([]float64, error) {
	out := make([]float64, l.n)
	i := 0
	err := walk(addressable(x, l.typ), "", func(name string, v reflect.Value) error {
		if i >= len(l.leaves) {
			return fmt.Errorf("%s: a part that the point does not have", name)
		}
		lf := &l.leaves[i]
		i++
		dst := out[lf.off : lf.off+lf.size]
		switch lf.kind {
		case tensorLeaf:
			if v.IsNil() {
				return nil
			}
			if lf.isNil {
				return fmt.Errorf("%s: a tensor where the point has nil", l.leafName(i-1))
			}
			t := v.Interface().(*tensorops.Tensor)
			if !slices.Equal(t.Shape(), lf.shape) {
				return fmt.Errorf("%s: shape %v, want %v", l.leafName(i-1), t.Shape(), lf.shape)
			}
			copy(dst, tensorData(t))
		case floatLeaf:
			dst[0] = v.Float()
		case sliceLeaf:
			if v.Kind() == reflect.Slice && v.IsNil() && lf.size > 0 {
				return nil
			}
			if v.Len() != lf.size {
				return fmt.Errorf("%s: length %d, want %d", l.leafName(i-1), v.Len(), lf.size)
			}
			for k := range dst {
				dst[k] = v.Index(k).Float()
			}
		}
		return nil
	})
	if err == nil && i != len(l.leaves) {
		err = fmt.Errorf("the value has %d parts holding floats, the point %d (slices of another length?)", i, len(l.leaves))
	}
	return out, err
}

// build returns a value of the point's type holding the vector vec: a
// copy of like (a point laid out as l) with fresh tensors, floats and
// float slices for its leaves, and fresh structs, slices and arrays
// around them; what holds no floats is shared with like. With zero, the
// tensors are nil instead (a shadow of like, see Shadow).
func (l *layout) build(like any, vec []float64, zero bool) any {
	v := deepCopy(addressable(like, l.typ))
	i := 0
	_ = walk(v, "", func(name string, v reflect.Value) error {
		lf := &l.leaves[i]
		i++
		data := vec[lf.off : lf.off+lf.size]
		switch lf.kind {
		case tensorLeaf:
			switch {
			case lf.isNil || zero:
				v.Set(reflect.Zero(tensorType))
			default:
				v.Set(reflect.ValueOf(newTensor(lf, data)))
			}
		case floatLeaf:
			v.SetFloat(data[0])
		case sliceLeaf:
			for k := range data {
				v.Index(k).SetFloat(data[k])
			}
		}
		return nil
	})
	return v.Interface()
}

// deepCopy returns a copy of v (addressable) in which the structs,
// slices, arrays and pointers that hold floats are fresh, so that setting
// the leaves of the copy leaves v as it is.
func deepCopy(v reflect.Value) reflect.Value {
	t := v.Type()
	out := reflect.New(t).Elem()
	out.Set(v)
	if t == tensorType || !holdsFloats(t) {
		return out
	}
	switch t.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			p := reflect.New(t.Elem())
			p.Elem().Set(deepCopy(v.Elem()))
			out.Set(p)
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsFloats(t.Field(i).Type) {
				settable(out.Field(i)).Set(deepCopy(settable(v.Field(i))))
			}
		}
	case reflect.Slice:
		if !v.IsNil() {
			s := reflect.MakeSlice(t, v.Len(), v.Len())
			for i := range v.Len() {
				s.Index(i).Set(deepCopy(v.Index(i)))
			}
			out.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			out.Index(i).Set(deepCopy(v.Index(i)))
		}
	}
	return out
}

// tensors returns the tensor of each leaf of x (a point laid out as l),
// nil for the leaves that are not tensors.
func (l *layout) tensors(x any) []*tensorops.Tensor {
	var out []*tensorops.Tensor
	_ = walk(addressable(x, l.typ), "", func(_ string, v reflect.Value) error {
		if v.Type() == tensorType {
			t, _ := v.Interface().(*tensorops.Tensor)
			out = append(out, t)
		} else {
			out = append(out, nil)
		}
		return nil
	})
	return out
}

// round32 rounds the elements of vec that l lays out as float32 to
// float32, as they are stored.
func (l *layout) round32(vec []float64) {
	for _, lf := range l.leaves {
		if !lf.f32 {
			continue
		}
		for k := lf.off; k < lf.off+lf.size; k++ {
			vec[k] = float64(float32(vec[k]))
		}
	}
}
