package tensorops

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// FromDense returns a 2-D float64 tensor that views m's elements (no copy):
// shape [rows, cols], strides [stride, 1]. A view of a larger matrix
// (m.Slice) gives a non-contiguous tensor.
// It panics if m is nil.
func FromDense(m *mat.Dense) *Tensor {
	if m == nil {
		panic("tensorops: FromDense: nil matrix")
	}
	raw := m.RawMatrix()
	st := raw.Stride
	if st < raw.Cols {
		st = max(raw.Cols, 1)
	}
	return &Tensor{dtype: Float64, shape: []int{raw.Rows, raw.Cols}, strides: []int{st, 1}, f64: raw.Data}
}

// FromVecDense returns a 1-D float64 tensor that views v's elements (no
// copy), with v's increment as its stride.
// It panics if v is nil.
func FromVecDense(v *mat.VecDense) *Tensor {
	if v == nil {
		panic("tensorops: FromVecDense: nil vector")
	}
	raw := v.RawVector()
	return &Tensor{dtype: Float64, shape: []int{raw.N}, strides: []int{max(raw.Inc, 1)}, f64: raw.Data}
}

// Dense returns a *mat.Dense that views t's elements (no copy).
// It panics if t is not a non-empty 2-D float64 tensor whose last stride is 1
// (or whose last dimension has size 1).
func (t *Tensor) Dense() *mat.Dense {
	if t.dtype != Float64 || len(t.shape) != 2 {
		panic(fmt.Sprintf("tensorops: Dense: shape %v of dtype %v is not a 2-D float64 tensor", t.shape, t.dtype))
	}
	r, c := t.shape[0], t.shape[1]
	if r == 0 || c == 0 {
		panic(fmt.Sprintf("tensorops: Dense: shape %v is empty", t.shape))
	}
	sr := t.strides[0]
	if r == 1 {
		sr = c
	}
	if (c > 1 && t.strides[1] != 1) || sr < c {
		panic(fmt.Sprintf("tensorops: Dense: shape %v with strides %v has no row-major layout", t.shape, t.strides))
	}
	var m mat.Dense
	m.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: sr, Data: t.f64[t.offset : t.offset+(r-1)*sr+c]})
	return &m
}

// VecDense returns a *mat.VecDense that views t's elements (no copy).
// It panics if t is not a non-empty 1-D float64 tensor with a positive stride.
func (t *Tensor) VecDense() *mat.VecDense {
	if t.dtype != Float64 || len(t.shape) != 1 {
		panic(fmt.Sprintf("tensorops: VecDense: shape %v of dtype %v is not a 1-D float64 tensor", t.shape, t.dtype))
	}
	n, inc := t.shape[0], t.strides[0]
	if n == 0 {
		panic(fmt.Sprintf("tensorops: VecDense: shape %v is empty", t.shape))
	}
	if n == 1 {
		inc = 1
	}
	if inc <= 0 {
		panic(fmt.Sprintf("tensorops: VecDense: shape %v with stride %d", t.shape, inc))
	}
	var v mat.VecDense
	v.SetRawVector(blas64.Vector{N: n, Inc: inc, Data: t.f64[t.offset : t.offset+(n-1)*inc+1]})
	return &v
}
