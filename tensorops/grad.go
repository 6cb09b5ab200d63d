package tensorops

import "fmt"

// This file holds the helpers of the compiler's derivative rules: the
// adjoints (…Grad, …VJP) and tangents (…JVP) of the ops that are not
// compositions of other ops. A nil g or tangent is zero: the helpers return
// nil (or 0) for it.

// mustShape panics unless t has the given shape.
func mustShape(op string, t *Tensor, shape []int, what string) {
	if !sameShape(t.shape, shape) {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: %s", op, t.shape, shape, what))
	}
}

// ExpandAxis returns g, whose shape is like's with axis removed, with axis
// re-inserted and broadcast to like's shape (materialized): the adjoint of
// Sum(like, axis). It returns nil when g is nil.
// It panics if axis is out of range for like or g's shape is not like's
// without axis.
func ExpandAxis(g, like *Tensor, axis int) *Tensor {
	if g == nil {
		return nil
	}
	mustNotNil("ExpandAxis", like)
	if g.lanes || like.lanes {
		return laneLikeAdjoint("ExpandAxis", g, like, axis, ExpandAxis)
	}
	ax := normAxis("ExpandAxis", like, axis)
	mustShape("ExpandAxis", g, without(like.shape, ax), "g must have like's shape without the axis")
	out := allocOn("ExpandAxis", g.dev, g.dtype, like.shape)
	copyInto(out, Unsqueeze(g, ax))
	return out
}

// MeanGrad returns ExpandAxis(g, like, axis) / like.Dim(axis): the adjoint
// of Mean(like, axis). It returns nil when g is nil.
// It panics as ExpandAxis does.
func MeanGrad(g, like *Tensor, axis int) *Tensor {
	if g == nil {
		return nil
	}
	out := ExpandAxis(g, like, axis)
	return ScaleTo(out, out, 1/float64(like.Dim(axis)))
}

// MeanAllGrad returns a tensor of like's shape and dtype full of
// g/Size(like): the adjoint of MeanAll(like).
// It panics if like is nil.
func MeanAllGrad(like *Tensor, g float64) *Tensor {
	mustNotNil("MeanAllGrad", like)
	return FullLike(like, g/float64(like.Size()))
}

// MaxGrad returns zeros of a's shape with g (of a's shape without axis)
// placed at the first maximum along axis: the adjoint of Max(a, axis). It
// returns nil when g is nil.
// It panics if a is nil, axis is out of range or empty, or g's shape is
// not a's without axis.
func MaxGrad(a, g *Tensor, axis int) *Tensor {
	if g == nil {
		return nil
	}
	mustNotNil("MaxGrad", a)
	mustSameDType("MaxGrad", a, g)
	ax := normAxis("MaxGrad", a, axis)
	mustShape("MaxGrad", g, without(a.shape, ax), "g must have a's shape without the axis")
	if onDevice("MaxGrad", a, g) {
		outer, n, inner := splitAxis(a.shape, ax)
		if n == 0 {
			panic(fmt.Sprintf("tensorops: ArgMax: axis %d of shape %v is empty", ax, a.shape))
		}
		out := allocOn("MaxGrad", a.dev, a.dtype, a.shape)
		devFail("MaxGrad", a.dev, devExt[deviceArgMax]("MaxGrad", a.dev).MaxGrad(out.arr(), a.Contiguous().arr(), g.Contiguous().arr(), outer, n, inner))
		return out
	}
	idx := ArgMax(a, ax)
	outer, n, inner := splitAxis(a.shape, ax)
	out := alloc(a.dtype, a.shape)
	gc := g.Contiguous()
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			p := o*inner + i
			q := o*n*inner + idx[p]*inner + i
			if a.dtype == Float32 {
				out.f32[q] = gc.f32[gc.offset+p]
			} else {
				out.f64[q] = gc.f64[gc.offset+p]
			}
		}
	}
	return out
}

// MaxJVP returns da gathered at the first maximum of a along axis (shape
// of a without axis): the tangent of Max(a, axis). It returns nil when da is
// nil.
// It panics if a is nil, axis is out of range or empty, or da's shape
// differs from a's.
func MaxJVP(a, da *Tensor, axis int) *Tensor {
	if da == nil {
		return nil
	}
	mustNotNil("MaxJVP", a)
	mustSameDType("MaxJVP", a, da)
	ax := normAxis("MaxJVP", a, axis)
	mustShape("MaxJVP", da, a.shape, "da must have a's shape")
	if onDevice("MaxJVP", a, da) {
		outer, n, inner := splitAxis(a.shape, ax)
		if n == 0 {
			panic(fmt.Sprintf("tensorops: ArgMax: axis %d of shape %v is empty", ax, a.shape))
		}
		out := allocOn("MaxJVP", a.dev, a.dtype, without(a.shape, ax))
		devFail("MaxJVP", a.dev, devExt[deviceArgMax]("MaxJVP", a.dev).MaxJVP(out.arr(), a.Contiguous().arr(), da.Contiguous().arr(), outer, n, inner))
		return out
	}
	idx := ArgMax(a, ax)
	outer, n, inner := splitAxis(a.shape, ax)
	out := alloc(a.dtype, without(a.shape, ax))
	dc := da.Contiguous()
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			p := o*inner + i
			q := dc.offset + o*n*inner + idx[p]*inner + i
			if a.dtype == Float32 {
				out.f32[p] = dc.f32[q]
			} else {
				out.f64[p] = dc.f64[q]
			}
		}
	}
	return out
}

// MaxAllGrad returns zeros of a's shape with g at the first maximum of a in
// row-major order: the adjoint of MaxAll(a).
// It panics if a is nil or empty.
func MaxAllGrad(a *Tensor, g float64) *Tensor {
	mustNotNil("MaxAllGrad", a)
	if a.Size() == 0 {
		panic(fmt.Sprintf("tensorops: MaxAllGrad: shape %v is empty", a.shape))
	}
	if a.dev != CPU {
		// MaxGrad along the one axis of the flattened a.
		flat := Reshape(a.Contiguous(), a.Size())
		return Reshape(MaxGrad(flat, Full(a.dtype, g).To(a.dev), 0), a.shape...)
	}
	out := alloc(a.dtype, a.shape)
	i := argMaxFlat(a)
	if a.dtype == Float32 {
		out.f32[i] = float32(g)
	} else {
		out.f64[i] = g
	}
	return out
}

// MaxAllJVP returns the element of da at the first maximum of a in
// row-major order: the tangent of MaxAll(a); 0 when da is nil.
// It panics if a is nil or empty, or da's shape differs from a's.
func MaxAllJVP(a, da *Tensor) float64 {
	if da == nil {
		return 0
	}
	mustNotNil("MaxAllJVP", a)
	if a.Size() == 0 {
		panic(fmt.Sprintf("tensorops: MaxAllJVP: shape %v is empty", a.shape))
	}
	mustShape("MaxAllJVP", da, a.shape, "da must have a's shape")
	if onDevice("MaxAllJVP", a, da) {
		// MaxJVP along the one axis of the flattened a.
		n := a.Size()
		return MaxJVP(Reshape(a.Contiguous(), n), Reshape(da.Contiguous(), n), 0).Item()
	}
	i := argMaxFlat(a)
	dc := da.Contiguous()
	if dc.dtype == Float32 {
		return float64(dc.Float32s()[i])
	}
	return dc.Float64s()[i]
}

// SliceGrad returns zeros of like's shape with g placed at
// [lo, lo+g.Dim(axis)) along axis: the adjoint of Slice(like, axis, lo, hi).
// It returns nil when g is nil.
// It panics if axis is out of range, g's shape differs from like's outside
// axis, or the range does not fit in like.
func SliceGrad(g, like *Tensor, axis, lo int) *Tensor {
	if g == nil {
		return nil
	}
	mustNotNil("SliceGrad", like)
	if g.lanes || like.lanes {
		return laneLikeAdjoint("SliceGrad", g, like, axis, func(g, like *Tensor, axis int) *Tensor { return SliceGrad(g, like, axis, lo) })
	}
	ax := normAxis("SliceGrad", like, axis)
	ok := len(g.shape) == len(like.shape)
	for i := 0; ok && i < len(g.shape); i++ {
		ok = i == ax || g.shape[i] == like.shape[i]
	}
	if !ok || lo < 0 || lo+g.shape[ax] > like.shape[ax] {
		panic(fmt.Sprintf("tensorops: SliceGrad: shapes %v and %v: g does not fit in like at %d along axis %d", g.shape, like.shape, lo, axis))
	}
	out := zerosOn("SliceGrad", g.dev, g.dtype, like.shape)
	copyInto(sliceView(out, ax, lo, lo+g.shape[ax]), g)
	return out
}

// PadGrad returns the part of g that corresponds to like's elements,
// g[..., before:before+like.Dim(axis), ...]: the adjoint of
// Pad(like, axis, before, after). It returns nil when g is nil.
// It panics if axis is out of range or g's shape differs from like's
// outside axis or is too short along it.
func PadGrad(g, like *Tensor, axis, before int) *Tensor {
	if g == nil {
		return nil
	}
	mustNotNil("PadGrad", like)
	if g.lanes || like.lanes {
		return laneLikeAdjoint("PadGrad", g, like, axis, func(g, like *Tensor, axis int) *Tensor { return PadGrad(g, like, axis, before) })
	}
	ax := normAxis("PadGrad", like, axis)
	ok := len(g.shape) == len(like.shape)
	for i := 0; ok && i < len(g.shape); i++ {
		ok = i == ax || g.shape[i] == like.shape[i]
	}
	if !ok || before < 0 || before+like.shape[ax] > g.shape[ax] {
		panic(fmt.Sprintf("tensorops: PadGrad: shapes %v and %v: like does not fit in g at %d along axis %d", g.shape, like.shape, before, axis))
	}
	return sliceView(g, ax, before, before+like.shape[ax]).Clone()
}

// sumKeep returns Sum(a, ax) with the axis kept (size 1).
func sumKeep(a *Tensor, ax int) *Tensor { return Unsqueeze(Sum(a, ax), ax) }

func mustSame(op string, a, b *Tensor) {
	mustNotNil(op, a, b)
	mustSameDType(op, a, b)
	if !a.SameShape(b) {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v differ", op, a.shape, b.shape))
	}
}

// SoftmaxJVP returns s ⊙ (dx − Σ_axis(s ⊙ dx)) where s = Softmax(x, axis):
// the tangent of Softmax, and also its adjoint (the Jacobian is
// symmetric) with dx the output's adjoint. It returns nil when dx is nil.
// It panics if the shapes or dtypes differ or axis is out of range.
func SoftmaxJVP(s, dx *Tensor, axis int) *Tensor {
	if dx == nil {
		return nil
	}
	if s.lanes || dx.lanes {
		return laneSoftmaxJVP(s, dx, axis)
	}
	mustSame("SoftmaxJVP", s, dx)
	ax := normAxis("SoftmaxJVP", s, axis)
	r := sumKeep(Mul(s, dx), ax)
	out := Sub(dx, r)
	return MulTo(out, out, s)
}

// LogSoftmaxJVP returns dx − Σ_axis(exp(ls) ⊙ dx) where ls =
// LogSoftmax(x, axis): the tangent of LogSoftmax. It returns nil when dx is
// nil.
// It panics if the shapes or dtypes differ or axis is out of range.
func LogSoftmaxJVP(ls, dx *Tensor, axis int) *Tensor {
	if dx == nil {
		return nil
	}
	if ls.lanes || dx.lanes {
		return laneLogSoftmaxJVP(ls, dx, axis)
	}
	mustSame("LogSoftmaxJVP", ls, dx)
	ax := normAxis("LogSoftmaxJVP", ls, axis)
	p := Exp(ls)
	r := sumKeep(MulTo(p, p, dx), ax)
	return Sub(dx, r)
}

// LogSoftmaxVJP returns g − exp(ls) ⊙ Σ_axis g where ls = LogSoftmax(x,
// axis): the adjoint of LogSoftmax. It returns nil when g is nil.
// It panics if the shapes or dtypes differ or axis is out of range.
func LogSoftmaxVJP(ls, g *Tensor, axis int) *Tensor {
	if g == nil {
		return nil
	}
	mustSame("LogSoftmaxVJP", ls, g)
	ax := normAxis("LogSoftmaxVJP", ls, axis)
	r := sumKeep(g, ax)
	p := Exp(ls)
	MulTo(p, p, r)
	return SubTo(p, g, p)
}

// SoftmaxCrossEntropyGrad returns the adjoint of
// g·SoftmaxCrossEntropy(logits, labels) with respect to logits:
// g·(softmax(logits)·Σⱼlabels[i,j] − labels)/n for n rows, which is
// g·(softmax(logits) − labels)/n when the label rows sum to 1 (one-hot or
// probabilities).
// It panics if an operand is nil, the shapes differ or are not 2-D, or the
// dtypes differ.
func SoftmaxCrossEntropyGrad(logits, labels *Tensor, g float64) *Tensor {
	checkLogitsLabels("SoftmaxCrossEntropyGrad", logits, labels)
	p := Softmax(logits, 1)
	MulTo(p, p, sumKeep(labels, 1))
	SubTo(p, p, labels)
	return ScaleTo(p, p, g/float64(logits.shape[0]))
}

// MatMulGradA returns the adjoint with respect to a of
// MatMulT(a, b, transA, transB) for the result's adjoint g, with a's shape:
// g·op(b)ᵀ (or op(b)·gᵀ when transA), summed over the batch dimensions
// that a was broadcast along; 1-D operands as in MatMul. The transposes go
// to GEMM as flags. It returns nil when g is nil.
// It panics if MatMulT(a, b, transA, transB) would, or g does not have the
// product's shape.
func MatMulGradA(g, a, b *Tensor, transA, transB bool) *Tensor {
	if g == nil || b == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	if g.lanes || a.lanes || b.lanes {
		return laneMatMulGradA(g, a, b, transA, transB)
	}
	s := matmulShape("MatMulGradA", a, b, transA, transB)
	mustSameDType("MatMulGradA", g, a)
	mustShape("MatMulGradA", g, s.out, "g must have the product's shape")
	g2 := s.promote(g)
	onDevice("MatMulGradA", g, a)
	da := allocOutOn("MatMulGradA", a.dev, a.dtype, s.a.shape)
	if !s.ta {
		gemmBatched(da, 1, g2, false, s.b, !s.tb, 0)
	} else {
		gemmBatched(da, 1, s.b, s.tb, g2, true, 0)
	}
	if s.aVec {
		return da.view([]int{da.shape[1]}, []int{1}, 0)
	}
	return da
}

// MatMulGradB returns the adjoint with respect to b of
// MatMulT(a, b, transA, transB) for the result's adjoint g, with b's shape:
// op(a)ᵀ·g (or gᵀ·op(a) when transB), summed over the batch dimensions that
// b was broadcast along. It returns nil when g is nil.
// It panics if MatMulT(a, b, transA, transB) would, or g does not have the
// product's shape.
func MatMulGradB(g, a, b *Tensor, transA, transB bool) *Tensor {
	if g == nil || a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	if g.lanes || a.lanes || b.lanes {
		return laneMatMulGradB(g, a, b, transA, transB)
	}
	s := matmulShape("MatMulGradB", a, b, transA, transB)
	mustSameDType("MatMulGradB", g, b)
	mustShape("MatMulGradB", g, s.out, "g must have the product's shape")
	g2 := s.promote(g)
	onDevice("MatMulGradB", g, b)
	db := allocOutOn("MatMulGradB", b.dev, b.dtype, s.b.shape)
	if !s.tb {
		gemmBatched(db, 1, s.a, !s.ta, g2, false, 0)
	} else {
		gemmBatched(db, 1, g2, true, s.a, s.ta, 0)
	}
	if s.bVec {
		return db.view([]int{db.shape[0]}, []int{1}, 0)
	}
	return db
}
