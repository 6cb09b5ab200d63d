package tensorops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// DType is the element type of a tensor.
type DType uint8

const (
	Float64 DType = iota
	Float32
)

// String returns "float64" or "float32".
func (d DType) String() string {
	switch d {
	case Float64:
		return "float64"
	case Float32:
		return "float32"
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}

// DeviceKind is the kind of memory a tensor lives in.
type DeviceKind uint8

const (
	CPUKind DeviceKind = iota
	CUDAKind
)

// String returns "cpu" or "cuda".
func (k DeviceKind) String() string {
	switch k {
	case CPUKind:
		return "cpu"
	case CUDAKind:
		return "cuda"
	}
	return fmt.Sprintf("DeviceKind(%d)", uint8(k))
}

// Device names where a tensor's elements live. The zero value is the CPU.
type Device struct {
	Kind DeviceKind
	ID   int
}

// CPU is the host's memory. Other devices compute through the backend
// registered for their kind (RegisterDevice).
var CPU = Device{}

// String returns "cpu" for the CPU and "cuda:ID" for a GPU.
func (d Device) String() string {
	if d.Kind == CPUKind {
		return "cpu"
	}
	return fmt.Sprintf("%v:%d", d.Kind, d.ID)
}

// Float is the constraint of the generic kernels' element types.
type Float interface {
	float32 | float64
}

// Tensor is a dense row-major n-dimensional array of float64 or float32.
//
// A Tensor is a view: a shape, strides (in elements) and an offset into a
// backing slice, f64 or f32 depending on the dtype. A zero-dimensional
// tensor (shape []) holds one element.
type Tensor struct {
	dtype DType
	// sym marks a 2-D tensor known to be exactly symmetric (Symmetrize,
	// Gram): its matrix products use SYMM. The mark belongs to this
	// *Tensor only; views and results of ops do not inherit it, and the
	// ops writing into it (checkDst, Set) clear it. See IsSymmetric.
	sym bool
	// lanes marks the first axis as the direction axis of stacked
	// directions (lanes.go): the tensor stands for shape[0] tensors of
	// shape[1:]. Generated derivatives set it (Lanes) and the lane-aware
	// operations keep it.
	lanes   bool
	shape   []int
	strides []int
	offset  int
	f64     []float64
	f32     []float32
	// buf holds the elements of a tensor on a device (dev is not the
	// CPU), f64 and f32 those of a tensor on the CPU.
	buf DeviceBuffer
	dev Device
}

// prod returns the product of shape's elements (1 for an empty shape).
func prod(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// rowMajor returns the contiguous row-major strides of shape.
func rowMajor(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= max(shape[i], 1)
	}
	return st
}

func checkDType(op string, dt DType) {
	if dt != Float64 && dt != Float32 {
		panic(fmt.Sprintf("tensorops: %s: unknown dtype %v", op, dt))
	}
}

func checkNewShape(op string, shape []int) {
	for _, d := range shape {
		if d < 0 {
			panic(fmt.Sprintf("tensorops: %s: negative dimension in shape %v", op, shape))
		}
	}
}

// alloc returns a fresh contiguous zero tensor; shape is copied.
func alloc(dt DType, shape []int) *Tensor { return allocate(dt, shape, true) }

// allocRaw is alloc for a tensor whose every element its caller writes: a
// buffer reused from a released tensor (release.go) is not zeroed.
func allocRaw(dt DType, shape []int) *Tensor { return allocate(dt, shape, false) }

func allocate(dt DType, shape []int, zero bool) *Tensor {
	// One allocation holds the shape and the strides.
	nd := len(shape)
	dims := make([]int, 2*nd)
	copy(dims, shape)
	t := &Tensor{dtype: dt, shape: dims[:nd:nd], strides: dims[nd:]}
	s := 1
	for i := nd - 1; i >= 0; i-- {
		t.strides[i] = s
		s *= max(shape[i], 1)
	}
	n := prod(shape)
	if dt == Float32 {
		if t.f32 = pooled[float32](dt, n, zero); t.f32 == nil {
			t.f32 = make([]float32, n)
		}
	} else if t.f64 = pooled[float64](dt, n, zero); t.f64 == nil {
		t.f64 = make([]float64, n)
	}
	return t
}

// New returns a zero tensor of the given dtype and shape.
// It panics if dt is not Float64 or Float32 or a dimension is negative.
func New(dt DType, shape ...int) *Tensor {
	checkDType("New", dt)
	checkNewShape("New", shape)
	return alloc(dt, shape)
}

// Zeros returns a float64 zero tensor of the given shape; ZerosOf takes
// the dtype.
// It panics if a dimension is negative.
func Zeros(shape ...int) *Tensor { return New(Float64, shape...) }

// Ones returns a float64 tensor of ones of the given shape; OnesOf takes
// the dtype.
// It panics if a dimension is negative.
func Ones(shape ...int) *Tensor { return Full(Float64, 1, shape...) }

// ZerosOf returns a zero tensor of dtype dt (Float64 or Float32) and the
// given shape, on the CPU (the same as New).
// It panics if dt is not Float64 or Float32 or a dimension is negative.
func ZerosOf(dt DType, shape ...int) *Tensor {
	checkDType("ZerosOf", dt)
	checkNewShape("ZerosOf", shape)
	return alloc(dt, shape)
}

// OnesOf returns a tensor of dtype dt (Float64 or Float32) and the given
// shape with every element 1, on the CPU.
// It panics if dt is not Float64 or Float32 or a dimension is negative.
func OnesOf(dt DType, shape ...int) *Tensor {
	checkDType("OnesOf", dt)
	checkNewShape("OnesOf", shape)
	t := alloc(dt, shape)
	Fill(t, 1)
	return t
}

// ZerosLike returns a zero tensor of t's dtype and shape.
// It panics if t is nil.
func ZerosLike(t *Tensor) *Tensor {
	mustNotNil("ZerosLike", t)
	if t.dev != CPU {
		z := allocOn("ZerosLike", t.dev, t.dtype, t.shape)
		devFill("ZerosLike", z, 0)
		return z
	}
	return alloc(t.dtype, t.shape)
}

// Full returns a tensor of the given dtype and shape with every element v.
// It panics if dt is not Float64 or Float32 or a dimension is negative.
func Full(dt DType, v float64, shape ...int) *Tensor {
	t := New(dt, shape...)
	if v != 0 {
		Fill(t, v)
	}
	return t
}

// FullLike returns a tensor of t's dtype, shape and device with every
// element v.
// It panics if t is nil.
func FullLike(t *Tensor, v float64) *Tensor {
	mustNotNil("FullLike", t)
	if t.dev != CPU {
		f := allocOn("FullLike", t.dev, t.dtype, t.shape)
		devFill("FullLike", f, v)
		return f
	}
	return Full(t.dtype, v, t.shape...)
}

// FromFloat64s returns a float64 tensor of the given shape that views data
// (no copy): writes through either are seen by the other. With no shape the
// result is 1-D of length len(data).
// It panics if len(data) differs from the product of shape.
func FromFloat64s(data []float64, shape ...int) *Tensor {
	if shape == nil {
		shape = []int{len(data)}
	}
	checkNewShape("FromFloat64s", shape)
	if prod(shape) != len(data) {
		panic(fmt.Sprintf("tensorops: FromFloat64s: shape %v needs %d elements, data has %d", shape, prod(shape), len(data)))
	}
	sh := append([]int(nil), shape...)
	return &Tensor{dtype: Float64, shape: sh, strides: rowMajor(sh), f64: data}
}

// FromFloat32s returns a float32 tensor of the given shape that views data
// (no copy). With no shape the result is 1-D of length len(data).
// It panics if len(data) differs from the product of shape.
func FromFloat32s(data []float32, shape ...int) *Tensor {
	if shape == nil {
		shape = []int{len(data)}
	}
	checkNewShape("FromFloat32s", shape)
	if prod(shape) != len(data) {
		panic(fmt.Sprintf("tensorops: FromFloat32s: shape %v needs %d elements, data has %d", shape, prod(shape), len(data)))
	}
	sh := append([]int(nil), shape...)
	return &Tensor{dtype: Float32, shape: sh, strides: rowMajor(sh), f32: data}
}

// Scalar returns a zero-dimensional float64 tensor holding v.
func Scalar(v float64) *Tensor {
	return &Tensor{dtype: Float64, shape: []int{}, strides: []int{}, f64: []float64{v}}
}

// RandN returns a tensor of standard normal samples drawn from rng.
// It panics if rng is nil, dt is unknown or a dimension is negative.
func RandN(rng *rand.Rand, dt DType, shape ...int) *Tensor {
	t := New(dt, shape...)
	if t.dtype == Float32 {
		for i := range t.f32 {
			t.f32[i] = float32(rng.NormFloat64())
		}
	} else {
		for i := range t.f64 {
			t.f64[i] = rng.NormFloat64()
		}
	}
	return t
}

// RandU returns a tensor of samples uniform in [lo, hi) drawn from rng.
// It panics if rng is nil, dt is unknown or a dimension is negative.
func RandU(rng *rand.Rand, dt DType, lo, hi float64, shape ...int) *Tensor {
	t := New(dt, shape...)
	if t.dtype == Float32 {
		for i := range t.f32 {
			t.f32[i] = float32(lo + (hi-lo)*rng.Float64())
		}
	} else {
		for i := range t.f64 {
			t.f64[i] = lo + (hi-lo)*rng.Float64()
		}
	}
	return t
}

// OneHot returns the [len(labels), n] tensor whose row i is 1 at labels[i]
// and 0 elsewhere.
// It panics if a label is outside [0, n) or dt is unknown.
func OneHot(labels []int, n int, dt DType) *Tensor {
	t := New(dt, len(labels), n)
	for i, l := range labels {
		if l < 0 || l >= n {
			panic(fmt.Sprintf("tensorops: OneHot: label %d at %d outside [0, %d)", l, i, n))
		}
		t.Set(1, i, l)
	}
	return t
}

// AsType returns a fresh contiguous copy of a converted to dt (a copy even
// when a already has dtype dt); nil for a nil a (a linear map).
// It panics if dt is unknown.
func AsType(a *Tensor, dt DType) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	checkDType("AsType", dt)
	t := allocOn("AsType", a.dev, dt, a.shape)
	Copy(t, a)
	return t
}

// Shape returns a copy of t's shape.
func (t *Tensor) Shape() []int { return append([]int{}, t.shape...) }

// Strides returns a copy of t's strides, in elements.
func (t *Tensor) Strides() []int { return append([]int{}, t.strides...) }

// Dims returns the number of dimensions of t.
func (t *Tensor) Dims() int { return len(t.shape) }

// Dim returns the size of dimension i; a negative i counts from the end.
// It panics if i is out of range.
func (t *Tensor) Dim(i int) int {
	return t.shape[normAxis("Dim", t, i)]
}

// Size returns the number of elements of t.
func (t *Tensor) Size() int { return prod(t.shape) }

// DType returns t's element type.
func (t *Tensor) DType() DType { return t.dtype }

// Device returns where t's elements live.
func (t *Tensor) Device() Device { return t.dev }

// SameShape reports whether t and b have the same shape.
func (t *Tensor) SameShape(b *Tensor) bool { return sameShape(t.shape, b.shape) }

// Dim returns a.Dim(axis). It panics if axis is out of range.
func Dim(a *Tensor, axis int) int {
	mustNotNil("Dim", a)
	return a.Dim(axis)
}

// Size returns a.Size(). It panics if a is nil.
func Size(a *Tensor) int {
	mustNotNil("Size", a)
	return a.Size()
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// IsContiguous reports whether t's elements are laid out row-major without
// gaps (strides of size-1 dimensions do not matter).
func (t *Tensor) IsContiguous() bool {
	s := 1
	for i := len(t.shape) - 1; i >= 0; i-- {
		d := t.shape[i]
		if d == 0 {
			return true
		}
		if d != 1 && t.strides[i] != s {
			return false
		}
		s *= d
	}
	return true
}

// Float64s returns the backing elements of a contiguous float64 tensor, in
// row-major order (no copy).
// It panics if t is not float64 or not contiguous.
func (t *Tensor) Float64s() []float64 {
	if t.dtype != Float64 {
		panic(fmt.Sprintf("tensorops: Float64s: dtype %v, shape %v", t.dtype, t.shape))
	}
	hostOnly("Float64s", t)
	if !t.IsContiguous() {
		panic(fmt.Sprintf("tensorops: Float64s: shape %v with strides %v is not contiguous", t.shape, t.strides))
	}
	n := t.Size()
	return t.f64[t.offset : t.offset+n : t.offset+n]
}

// Float32s returns the backing elements of a contiguous float32 tensor, in
// row-major order (no copy).
// It panics if t is not float32 or not contiguous.
func (t *Tensor) Float32s() []float32 {
	if t.dtype != Float32 {
		panic(fmt.Sprintf("tensorops: Float32s: dtype %v, shape %v", t.dtype, t.shape))
	}
	hostOnly("Float32s", t)
	if !t.IsContiguous() {
		panic(fmt.Sprintf("tensorops: Float32s: shape %v with strides %v is not contiguous", t.shape, t.strides))
	}
	n := t.Size()
	return t.f32[t.offset : t.offset+n : t.offset+n]
}

func (t *Tensor) index(op string, idx []int) int {
	if len(idx) != len(t.shape) {
		panic(fmt.Sprintf("tensorops: %s: %d indices for shape %v", op, len(idx), t.shape))
	}
	off := t.offset
	for i, x := range idx {
		if x < 0 || x >= t.shape[i] {
			panic(fmt.Sprintf("tensorops: %s: index %v out of range for shape %v", op, idx, t.shape))
		}
		off += x * t.strides[i]
	}
	return off
}

// At returns the element at idx (one index per dimension).
// It panics if the number of indices differs from t.Dims() or one is out of range.
func (t *Tensor) At(idx ...int) float64 {
	o := t.index("At", idx)
	hostOnly("At", t)
	if t.dtype == Float32 {
		return float64(t.f32[o])
	}
	return t.f64[o]
}

// Set sets the element at idx to v (converted to t's dtype).
// It panics if the number of indices differs from t.Dims() or one is out of range.
func (t *Tensor) Set(v float64, idx ...int) {
	o := t.index("Set", idx)
	hostOnly("Set", t)
	if t.sym {
		t.sym = false
	}
	if t.dtype == Float32 {
		t.f32[o] = float32(v)
	} else {
		t.f64[o] = v
	}
}

// Item returns the only element of a one-element tensor (of any number of
// dimensions).
// It panics if t does not have exactly one element.
func (t *Tensor) Item() float64 {
	if t.Size() != 1 {
		panic(fmt.Sprintf("tensorops: Item: shape %v has %d elements, want 1", t.shape, t.Size()))
	}
	if t.dev != CPU {
		return t.To(CPU).Item()
	}
	if t.dtype == Float32 {
		return float64(t.f32[t.offset])
	}
	return t.f64[t.offset]
}

// Clone returns a fresh contiguous copy of t, on t's device.
func (t *Tensor) Clone() *Tensor {
	c := allocOn("Clone", t.dev, t.dtype, t.shape)
	copyInto(c, t)
	c.lanes = t.lanes
	return c
}

// Contiguous returns t itself when it is contiguous, else a contiguous copy.
func (t *Tensor) Contiguous() *Tensor {
	if t.IsContiguous() {
		return t
	}
	return t.Clone()
}

// view returns a tensor sharing t's storage with the given geometry.
func (t *Tensor) view(shape, strides []int, offset int) *Tensor {
	return &Tensor{dtype: t.dtype, shape: shape, strides: strides, offset: offset, f64: t.f64, f32: t.f32, buf: t.buf, dev: t.dev}
}

// storageLen returns the length of t's backing slice.
func (t *Tensor) storageLen() int {
	if t.buf != nil {
		return t.buf.Len()
	}
	if t.dtype == Float32 {
		return len(t.f32)
	}
	return len(t.f64)
}

// AsStrided returns a view of a's storage with the given shape and strides
// (in elements, non-negative; a zero stride repeats elements) starting
// offset elements after a's first element. Writing through a view with
// repeated elements is allowed but the result of an op writing into it is
// unspecified. It is meant for tests and for building strided inputs.
// It panics if the lengths of shape and strides differ, a stride or
// dimension is negative, or an element falls outside a's storage.
func AsStrided(a *Tensor, shape, strides []int, offset int) *Tensor {
	mustNotNil("AsStrided", a)
	if len(shape) != len(strides) {
		panic(fmt.Sprintf("tensorops: AsStrided: shape %v and strides %v differ in length", shape, strides))
	}
	checkNewShape("AsStrided", shape)
	off := a.offset + offset
	last := off
	for i := range shape {
		if strides[i] < 0 {
			panic(fmt.Sprintf("tensorops: AsStrided: negative stride in %v", strides))
		}
		if shape[i] > 0 {
			last += (shape[i] - 1) * strides[i]
		}
	}
	if prod(shape) > 0 && (off < 0 || last >= a.storageLen()) {
		panic(fmt.Sprintf("tensorops: AsStrided: shape %v with strides %v at offset %d exceeds storage of %d elements", shape, strides, offset, a.storageLen()))
	}
	return a.view(append([]int(nil), shape...), append([]int(nil), strides...), off)
}

// String returns a short numpy-like rendering of t: dtype, shape and
// elements, with "..." in dimensions longer than 6 when t has more than 100
// elements.
func (t *Tensor) String() string {
	if t == nil {
		return "<nil>"
	}
	if t.dev != CPU {
		return t.To(CPU).String() + " on " + t.dev.String()
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%v%v ", t.dtype, t.shape)
	idx := make([]int, len(t.shape))
	summarize := t.Size() > 100
	var rec func(d int)
	rec = func(d int) {
		if d == len(t.shape) {
			v := t.At(idx...)
			if t.dtype == Float32 {
				sb.WriteString(formatFloat(v, 32))
			} else {
				sb.WriteString(formatFloat(v, 64))
			}
			return
		}
		sb.WriteByte('[')
		n := t.shape[d]
		for i := 0; i < n; i++ {
			if summarize && n > 6 && i == 3 {
				sb.WriteString(" ...")
				i = n - 3
			}
			if i > 0 {
				sb.WriteByte(' ')
			}
			idx[d] = i
			rec(d + 1)
		}
		sb.WriteByte(']')
	}
	rec(0)
	return sb.String()
}

func formatFloat(v float64, bits int) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return fmt.Sprint(v)
	}
	return fmt.Sprint(fmtG{v, bits})
}

type fmtG struct {
	v    float64
	bits int
}

func (f fmtG) String() string {
	if f.bits == 32 {
		return fmt.Sprintf("%.6g", f.v)
	}
	return fmt.Sprintf("%.8g", f.v)
}

func mustNotNil(op string, ts ...*Tensor) {
	for _, t := range ts {
		if t == nil {
			panic(fmt.Sprintf("tensorops: %s: nil tensor", op))
		}
	}
}

func mustSameDType(op string, a, b *Tensor) {
	if a.dtype != b.dtype {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v have dtypes %v and %v", op, a.shape, b.shape, a.dtype, b.dtype))
	}
}

// normAxis returns axis in [0, t.Dims()), counting a negative axis from the end.
func normAxis(op string, t *Tensor, axis int) int {
	n := len(t.shape)
	a := axis
	if a < 0 {
		a += n
	}
	if a < 0 || a >= n {
		panic(fmt.Sprintf("tensorops: %s: axis %d out of range for shape %v", op, axis, t.shape))
	}
	return a
}

// checkDst panics unless dst has the given shape and dtype.
func checkDst(op string, dst *Tensor, shape []int, dt DType) {
	if dst == nil {
		panic(fmt.Sprintf("tensorops: %s: nil dst", op))
	}
	if !sameShape(dst.shape, shape) {
		panic(fmt.Sprintf("tensorops: %s: dst shape %v and result shape %v differ", op, dst.shape, shape))
	}
	if dst.dtype != dt {
		panic(fmt.Sprintf("tensorops: %s: dst shape %v has dtype %v, result has %v", op, dst.shape, dst.dtype, dt))
	}
	if dst.sym {
		dst.sym = false // about to be written: no longer known symmetric
	}
}
