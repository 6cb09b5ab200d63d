package tensorops

// This file defines the view of a list of tensors (a model's parameters,
// in the order of its fields) as one vector: what the second-order
// helpers gadgen generates for a struct of tensors call (its Hessian is
// a matrix over this vector, its unit directions are this vector's).

import (
	"fmt"
	"slices"
)

// ParamsSize returns the number of elements of the tensors ts together; a
// nil tensor has none.
func ParamsSize(ts []*Tensor) int {
	n := 0
	for _, t := range ts {
		if t != nil {
			n += t.Size()
		}
	}
	return n
}

// ParamsBasis returns the unit direction i of the tensors like taken as
// one vector (their elements in order, each tensor's row-major): a fresh
// slice of len(like), nil but for the tensor that holds index i, which is
// Basis(like[j], i − o) with o the number of elements before like[j]. A
// nil like[j] has no elements. Every entry is nil when i is not an index
// (i < 0 or i ≥ ParamsSize(like)).
func ParamsBasis(like []*Tensor, i int) []*Tensor {
	out := make([]*Tensor, len(like))
	if i < 0 {
		return out
	}
	for j, t := range like {
		if t == nil {
			continue
		}
		n := t.Size()
		if i < n {
			out[j] = Basis(t, i)
			return out
		}
		i -= n
	}
	return out
}

// paramsDType returns the dtype and the device of the first tensor of
// like that is not nil (Float64 on the CPU when there is none).
func paramsDType(like []*Tensor) (DType, Device) {
	for _, t := range like {
		if t != nil {
			return t.dtype, t.dev
		}
	}
	return Float64, CPU
}

// ParamsFlatten returns the tensors ts, shaped like the tensors like, as
// one vector: a 1-D tensor of ParamsSize(like) elements, ts[j]'s in the
// place of like[j]'s (row-major), a nil ts[j] standing for zeros, of the
// dtype and on the device of like's first tensor that is not nil (a
// fresh tensor). ts[j] is ignored where like[j] is nil.
// It panics if len(ts) != len(like), a tensor of ts does not have the
// shape of like's, or the tensors differ in dtype or device.
func ParamsFlatten(ts, like []*Tensor) *Tensor {
	if len(ts) != len(like) {
		panic(fmt.Sprintf("tensorops: ParamsFlatten: %d tensors for %d", len(ts), len(like)))
	}
	var parts []*Tensor
	for j, l := range like {
		if l == nil {
			continue
		}
		t := ts[j]
		if t == nil {
			t = ZerosLike(l)
		} else if !sameShape(t.shape, l.shape) {
			panic(fmt.Sprintf("tensorops: ParamsFlatten: tensor %d has shape %v, want %v", j, t.shape, l.shape))
		}
		parts = append(parts, Reshape(t, t.Size()))
	}
	if len(parts) == 0 {
		dt, dev := paramsDType(like)
		return allocOn("ParamsFlatten", dev, dt, []int{0})
	}
	if len(parts) == 1 {
		return parts[0].Clone()
	}
	return Concat(0, parts...)
}

// ParamsUnflatten returns x, the elements of the tensors like taken as one
// vector, as fresh tensors of like's shapes, dtypes and devices (nil where
// like[j] is nil): the inverse of ParamsFlatten, from float64s.
// It panics if len(x) != ParamsSize(like).
func ParamsUnflatten(x []float64, like []*Tensor) []*Tensor {
	if n := ParamsSize(like); len(x) != n {
		panic(fmt.Sprintf("tensorops: ParamsUnflatten: %d elements for tensors of %d", len(x), n))
	}
	out := make([]*Tensor, len(like))
	for j, l := range like {
		if l == nil {
			continue
		}
		n := l.Size()
		out[j] = AsTypeLike(FromFloat64s(slices.Clone(x[:n]), l.Shape()...), l)
		x = x[n:]
	}
	return out
}

// ParamsOrZeros returns a fresh slice of ts with each nil ts[j] replaced by
// ZerosLike(like[j]) (nil where like[j] is nil too): a derivative of the
// tensors like with every tensor present.
// It panics if len(ts) != len(like).
func ParamsOrZeros(ts, like []*Tensor) []*Tensor {
	if len(ts) != len(like) {
		panic(fmt.Sprintf("tensorops: ParamsOrZeros: %d tensors for %d", len(ts), len(like)))
	}
	out := make([]*Tensor, len(ts))
	for j, t := range ts {
		if t == nil && like[j] != nil {
			t = ZerosLike(like[j])
		}
		out[j] = t
	}
	return out
}

// ParamsHessian returns the Hessian of a function of the tensors like,
// taken as one vector of n = ParamsSize(like) elements, from its rows in
// order: rows[i] holds one row or several, k·n elements in any shape
// (row-major; a tensor [k, …] of the HVPs along k stacked directions
// holds k rows; a nil entry is one row of zeros). The result is a fresh
// [n, n] tensor, (H + Hᵀ)/2 of the rows' H, marked symmetric, of the
// dtype and on the device of like's first tensor that is not nil
// (Float64 on the CPU when there is none); with n = 0, an empty [0, 0]
// tensor.
// It panics if the entries do not hold n rows, an entry's size is not a
// multiple of n, or the rows differ from like in dtype or device.
func ParamsHessian(rows []*Tensor, like ...*Tensor) *Tensor {
	n := ParamsSize(like)
	dt, dev := paramsDType(like)
	if n == 0 {
		h := allocOn("ParamsHessian", dev, dt, []int{0, 0})
		h.sym = true
		return h
	}
	parts := make([]*Tensor, len(rows))
	count := 0
	for i, r := range rows {
		if r == nil {
			r = allocOn("ParamsHessian", dev, dt, []int{1, n})
			if dev != CPU {
				devFill("ParamsHessian", r, 0)
			}
		} else if r.Size() == 0 || r.Size()%n != 0 {
			panic(fmt.Sprintf("tensorops: ParamsHessian: row %d has shape %v, not a multiple of %d elements", i, r.shape, n))
		}
		parts[i] = Reshape(r, r.Size()/n, n)
		count += r.Size() / n
	}
	if count != n {
		panic(fmt.Sprintf("tensorops: ParamsHessian: %d rows for %d elements", count, n))
	}
	return Symmetrize(Concat(0, parts...))
}
