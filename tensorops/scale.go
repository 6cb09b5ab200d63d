package tensorops

// This file defines the forms that the tensor rewrites of gadgen's
// optimizer (package simplify) call in place of costlier ones: products
// by a diagonal matrix as scalings (ScaleRows, ScaleCols), the count of a
// broadcast's copies (Repeats, RepeatsShape), the slices of an operand
// of a broadcasting operation (SliceBroadcast) and of the other operand
// of a product with a padded tensor (SliceLike), with the helpers of
// their derivative rules.

import "fmt"

// mustVector panics unless v is 1-D, with Diag's message (the rewritten
// program called Diag(v)).
func mustVector(op string, v *Tensor) {
	if len(v.shape) != 1 {
		panic(fmt.Sprintf("tensorops: %s: shape %v is not 1-D", op, v.shape))
	}
}

// rowAxis returns the axis of a that Diag(v)·a scales: its first for a
// 1-D a, else its axis −2.
func rowAxis(op string, a *Tensor) int {
	switch len(a.shape) {
	case 0:
		panic(fmt.Sprintf("tensorops: %s: shape %v: operands must have at least 1 dimension", op, a.shape))
	case 1:
		return 0
	}
	return len(a.shape) - 2
}

// ScaleRows returns Diag(v)·a (as MatMul(Diag(v), a)) without the
// matrix: v[i]·a[…, i, :], each matrix of a batch with its row i scaled
// by v[i]; for a 1-D a, v⊙a. The result has a's shape. Each element is
// one product, where the matrix product adds the zeros of the other
// rows: the same numbers, except that a ±Inf or NaN in a row of a does
// not spread to the other rows, and a product −0 stays −0. It returns
// nil when v or a is nil (after checking v).
// It panics if v is not 1-D, a is 0-D, a's rows (its axis −2, its only
// axis for a 1-D a) are not len(v), or the dtypes differ.
func ScaleRows(v, a *Tensor) *Tensor {
	if v != nil {
		mustVector("ScaleRows", v)
	}
	if v == nil || a == nil {
		return nil // a zero operand of a bilinear map (the package doc: nil)
	}
	onDevice("ScaleRows", v, a)
	mustSameDType("ScaleRows", v, a)
	ax := rowAxis("ScaleRows", a)
	if a.shape[ax] != v.shape[0] {
		panic(fmt.Sprintf("tensorops: ScaleRows: shapes %v and %v do not match: %d rows, %d scales", v.shape, a.shape, a.shape[ax], v.shape[0]))
	}
	if len(a.shape) == 1 {
		return Mul(v, a)
	}
	return Mul(Unsqueeze(v, 1), a)
}

// ScaleRowsGradV returns the adjoint in v of ScaleRows(v, a) for the
// result's adjoint g: Σ g⊙a over every axis but a's rows (a vector of
// len(v)). It is bilinear in (g, a) and returns nil when g or a is nil.
// It panics if g and a have different shapes or dtypes, or a is 0-D.
func ScaleRowsGradV(g, a *Tensor) *Tensor {
	if g == nil || a == nil {
		return nil // a zero operand of a bilinear map (the package doc: nil)
	}
	onDevice("ScaleRowsGradV", g, a)
	mustSame("ScaleRowsGradV", g, a)
	ax := rowAxis("ScaleRowsGradV", a)
	p := Mul(g, a)
	if len(a.shape) == 1 {
		return p
	}
	n := a.shape[ax]
	return Reshape(sumToShape(p, []int{n, 1}), n)
}

// ScaleCols returns a·Diag(v) (as MatMul(a, Diag(v))) without the
// matrix: a[…, j]·v[j], each column j of a scaled by v[j]; for a 1-D a,
// a⊙v. The result has a's shape. The numbers are those of the matrix
// product as for ScaleRows. It returns nil when v or a is nil (after
// checking v).
// It panics if v is not 1-D, a is 0-D, a's last dimension is not len(v),
// or the dtypes differ.
func ScaleCols(a, v *Tensor) *Tensor {
	if v != nil {
		mustVector("ScaleCols", v)
	}
	if v == nil || a == nil {
		return nil // a zero operand of a bilinear map (the package doc: nil)
	}
	onDevice("ScaleCols", a, v)
	mustSameDType("ScaleCols", a, v)
	if len(a.shape) == 0 || a.shape[len(a.shape)-1] != v.shape[0] {
		panic(fmt.Sprintf("tensorops: ScaleCols: shapes %v and %v do not match", a.shape, v.shape))
	}
	return Mul(a, v)
}

// Repeats returns how many times BroadcastLike(a, like) repeats each
// element of a: Size(like)/Size(a), as a float64; 1 when a is empty
// (like is empty too) or nil (the zero tensor: any count will do).
// It panics if like is nil or a's shape does not broadcast to like's
// (when a is not nil).
func Repeats(a, like *Tensor) float64 {
	if a == nil {
		return 1
	}
	mustNotNil("Repeats", like)
	return repeats("Repeats", a, like.shape)
}

// RepeatsShape returns how many times Broadcast(a, shape...) repeats
// each element of a, as Repeats does.
// It panics if a's shape does not broadcast to shape (when a is not nil).
func RepeatsShape(a *Tensor, shape ...int) float64 {
	if a == nil {
		return 1
	}
	checkNewShape("RepeatsShape", shape)
	return repeats("RepeatsShape", a, shape)
}

func repeats(op string, a *Tensor, shape []int) float64 {
	if !broadcastsTo(a.shape, shape) {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: the first does not broadcast to the second", op, a.shape, shape))
	}
	n := a.Size()
	if n == 0 {
		return 1
	}
	return float64(prod(shape) / n)
}

// SliceLike returns the part of y that lies over like in Pad(like, axis,
// lo, …): y[…, lo:lo+like.Dim(axis), …] (PadGrad(y, like, axis, lo)). It
// returns nil when y is nil, and when like is nil: the tensor rewrites
// write it as the other operand of a product with like, which is zero
// then.
// It panics if axis is out of range, or y's shape differs from like's
// outside axis or is too short along it.
func SliceLike(y, like *Tensor, axis, lo int) *Tensor {
	if y == nil || like == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	ax := normAxis("SliceLike", like, axis)
	ok := len(y.shape) == len(like.shape)
	for i := 0; ok && i < len(y.shape); i++ {
		ok = i == ax || y.shape[i] == like.shape[i]
	}
	if !ok || lo < 0 || lo+like.shape[ax] > y.shape[ax] {
		panic(fmt.Sprintf("tensorops: SliceLike: shapes %v and %v: like does not fit in y at %d along axis %d", y.shape, like.shape, lo, axis))
	}
	return sliceView(y, ax, lo, lo+like.shape[ax]).Clone()
}

// sliceOperand returns how Slice(op(a, other), axis, lo, hi) slices a,
// for an elementwise op: the axis of a that aligns with axis of the
// broadcast shape of a and other, and whether a is sliced along it: a is
// not when it lacks the axis or has size 1 there while the broadcast
// shape does not (a is broadcast along it). A nil other is the zero
// tensor of a's shape. It panics, naming op, if the shapes do not
// broadcast, axis is out of range for the broadcast shape, or not
// 0 ≤ lo ≤ hi ≤ its size along axis.
func sliceOperand(op string, a, other *Tensor, axis, lo, hi int) (ax int, sliced bool) {
	return alignedAxis(op, a.shape, axis, lo, hi, []*Tensor{other})
}

// SliceBroadcast returns the part of a, an operand of an elementwise
// operation with other (broadcasting), that the slice [lo, hi) along
// axis of the operation's result uses: a sliced along its axis that
// aligns with axis of the broadcast shape, or a itself when a is
// broadcast along it (lacks it, or has size 1 where the broadcast shape
// does not). So op(SliceBroadcast(a, b, axis, lo, hi), SliceBroadcast(b,
// a, axis, lo, hi)) is Slice(op(a, b), axis, lo, hi), whatever the
// shapes. A nil other is the zero tensor of a's shape (Add(a, nil) is
// a): a is sliced along axis. It returns nil for a nil a.
// It panics if the shapes of a and other do not broadcast, axis is out of
// range for the broadcast shape, or not 0 ≤ lo ≤ hi ≤ its size along
// axis.
func SliceBroadcast(a, other *Tensor, axis, lo, hi int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	onDevice("SliceBroadcast", a, other)
	ax, sliced := sliceOperand("SliceBroadcast", a, other, axis, lo, hi)
	if !sliced {
		return a
	}
	return Slice(a, ax, lo, hi)
}

// SliceBroadcastGrad returns the adjoint in a of SliceBroadcast(a, other,
// axis, lo, hi) for the result's adjoint g: g placed at [lo, hi) along
// a's aligned axis in zeros of a's shape, or g itself when a is not
// sliced. It returns nil for a nil g.
// It panics if a is nil, as SliceBroadcast does, or if g does not have
// the shape of SliceBroadcast's result.
func SliceBroadcastGrad(g, a, other *Tensor, axis, lo, hi int) *Tensor {
	if g == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("SliceBroadcastGrad", a)
	onDevice("SliceBroadcastGrad", g, a, other)
	ax, sliced := sliceOperand("SliceBroadcastGrad", a, other, axis, lo, hi)
	want := append([]int{}, a.shape...)
	if sliced {
		want[ax] = hi - lo
	}
	mustShape("SliceBroadcastGrad", g, want, "g")
	if !sliced {
		return g
	}
	return SliceGrad(g, a, ax, lo)
}
