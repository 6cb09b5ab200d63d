package tensorops

// This file defines the gathering of slices of a tensor by integer
// indices (Gather, Embedding) and its adjoint, the scatter-add into zeros
// (GatherGrad).

import "fmt"

// gatherShape checks idx against axis of a and returns the axis and a's
// shape with that axis replaced by len(idx).
func gatherShape(op string, a *Tensor, axis int, idx []int) (int, []int) {
	ax := normAxis(op, a, axis)
	n := a.shape[ax]
	for k, i := range idx {
		if i < 0 || i >= n {
			panic(fmt.Sprintf("tensorops: %s: shape %v: index %d (at %d) out of range [0, %d) along axis %d", op, a.shape, i, k, n, axis))
		}
	}
	shape := append([]int{}, a.shape...)
	shape[ax] = len(idx)
	return ax, shape
}

// deviceGather is implemented by device backends that gather and
// scatter-add along an axis on the device.
type deviceGather interface {
	// Gather sets dst [outer, len(idx), inner] to src [outer, n, inner]
	// at the indices idx (each in [0, n)) along the middle axis; both
	// contiguous and of one dtype.
	Gather(dst, src DeviceArray, outer, n, inner int, idx []int) error
	// ScatterAdd sets dst [outer, n, inner] to the sum, for each j, of
	// g[o, k, i] over the k with idx[k] = j, added in increasing k from
	// zero (as GatherGrad on the CPU adds them); 0 where no index is j.
	// Both are contiguous and of one dtype.
	ScatterAdd(dst, g DeviceArray, outer, n, inner int, idx []int) error
}

// Gather returns the slices of a at the indices idx along axis (negative
// counts from the end): a's shape with that axis of size len(idx), whose
// slice k is a's slice idx[k]. Indices may repeat and come in any order.
// It is linear in a: Gather(nil, …) is nil; GatherGrad is its adjoint.
// idx is not differentiated.
// It panics if axis is out of range or an index is outside [0, a.Dim(axis)).
func Gather(a *Tensor, axis int, idx []int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	if a.lanes {
		return marked(gatherAxis("Gather", a.plain(), laneAxis("Gather", a, axis), idx))
	}
	return gatherAxis("Gather", a, axis, idx)
}

// gatherAxis is Gather, op naming the public function in panics.
func gatherAxis(op string, a *Tensor, axis int, idx []int) *Tensor {
	ax, shape := gatherShape(op, a, axis, idx)
	outer, n, inner := splitAxis(a.shape, ax)
	out := allocOn(op, a.dev, a.dtype, shape)
	if out.Size() == 0 {
		return out
	}
	ac := a.Contiguous()
	if a.dev != CPU {
		devFail(op, a.dev, devExt[deviceGather](op, a.dev).Gather(out.arr(), ac.arr(), outer, n, inner, idx))
		return out
	}
	if a.dtype == Float32 {
		gatherRows(out.f32, ac.f32[ac.offset:], outer, n, inner, idx)
	} else {
		gatherRows(out.f64, ac.f64[ac.offset:], outer, n, inner, idx)
	}
	return out
}

// gatherRows copies the rows src[o, idx[k], :] to dst[o, k, :].
func gatherRows[T Float](dst, src []T, outer, n, inner int, idx []int) {
	l := len(idx)
	parallelRows(outer*l, inner, grainCheap, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			o, k := r/l, r%l
			copy(dst[r*inner:(r+1)*inner], src[(o*n+idx[k])*inner:][:inner])
		}
	})
}

// scatterAdd adds the rows g[o, k, :] into dst[o, idx[k], :], in
// increasing k; goroutines take disjoint ranges of the columns (o, i).
func scatterAdd[T Float](dst, g []T, outer, n, inner int, idx []int) {
	l := len(idx)
	parallel(outer*inner, max(grainCheap/max(l, 1), 16), func(lo, hi int) {
		for c := lo; c < hi; {
			o, i0 := c/inner, c%inner
			i1 := min(inner, i0+hi-c)
			for k, j := range idx {
				d := dst[(o*n+j)*inner+i0 : (o*n+j)*inner+i1]
				s := g[(o*l+k)*inner+i0:][:len(d)]
				for i := range d {
					d[i] += s[i]
				}
			}
			c += i1 - i0
		}
	})
}

// GatherGrad returns the adjoint of Gather(like, axis, idx) with respect
// to like for the result's adjoint g: zeros of like's shape into which
// g's slice k is added at idx[k] along axis (a scatter-add: repeated
// indices accumulate, in increasing k); nil when g is nil. like gives
// only the shape. It is linear in g, and Gather is its transpose.
// It panics as Gather does, or if g's shape is not Gather's result shape
// or its dtype is not like's.
func GatherGrad(g, like *Tensor, axis int, idx []int) *Tensor {
	if g == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	const op = "GatherGrad"
	mustNotNil(op, like)
	if g.lanes || like.lanes {
		return laneLikeAdjoint(op, g, like, axis, func(g, like *Tensor, axis int) *Tensor { return GatherGrad(g, like, axis, idx) })
	}
	ax, shape := gatherShape(op, like, axis, idx)
	mustSameDType(op, g, like)
	mustShape(op, g, shape, "g must have Gather's result shape")
	outer, n, inner := splitAxis(like.shape, ax)
	if onDevice(op, g, like) {
		out := allocOn(op, g.dev, g.dtype, like.shape)
		if out.Size() > 0 {
			devFail(op, g.dev, devExt[deviceGather](op, g.dev).ScatterAdd(out.arr(), g.Contiguous().arr(), outer, n, inner, idx))
		}
		return out
	}
	out := alloc(g.dtype, like.shape)
	if out.Size() == 0 || g.Size() == 0 {
		return out
	}
	gc := g.Contiguous()
	if g.dtype == Float32 {
		scatterAdd(out.f32, gc.f32[gc.offset:], outer, n, inner, idx)
	} else {
		scatterAdd(out.f64, gc.f64[gc.offset:], outer, n, inner, idx)
	}
	return out
}

// Embedding returns the rows of table [rows, d] at ids: a [len(ids), d]
// tensor whose row k is table's row ids[k] (Gather(table, 0, ids)), the
// lookup of an embedding layer. It is linear in table (nil for a nil
// table); its adjoint is GatherGrad(g, table, 0, ids), which adds the
// gradient of every occurrence of a row into that row. ids is not
// differentiated.
// It panics if table is not 2-D or an id is outside [0, rows).
func Embedding(table *Tensor, ids []int) *Tensor {
	if table == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	if len(table.shape) != 2 {
		panic(fmt.Sprintf("tensorops: Embedding: shape %v: want a table [rows d]", table.shape))
	}
	return gatherAxis("Embedding", table, 0, ids)
}
