package tensorops

import "fmt"

// Reshape returns a with the given shape, which may contain one −1 standing
// for the size that makes the element counts equal. The result is a view of
// a when a is contiguous, else a contiguous copy.
// It panics if a is nil, shape has more than one −1 or another negative
// dimension, or the sizes differ.
func Reshape(a *Tensor, shape ...int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Reshape", a)
	if a.lanes {
		return laneReshape(a, shape)
	}
	sh := append([]int{}, shape...)
	neg := -1
	known := 1
	for i, d := range sh {
		switch {
		case d == -1 && neg < 0:
			neg = i
		case d < 0:
			panic(fmt.Sprintf("tensorops: Reshape: shapes %v and %v: bad target shape", a.shape, shape))
		default:
			known *= d
		}
	}
	n := a.Size()
	if neg >= 0 {
		if known == 0 || n%known != 0 {
			panic(fmt.Sprintf("tensorops: Reshape: shapes %v and %v have different sizes", a.shape, shape))
		}
		sh[neg] = n / known
	}
	if prod(sh) != n {
		panic(fmt.Sprintf("tensorops: Reshape: shapes %v and %v have different sizes", a.shape, shape))
	}
	c := a.Contiguous()
	return c.view(sh, rowMajor(sh), c.offset)
}

// ReshapeLike returns g reshaped to like's shape (Reshape(g, like.Shape()...)),
// a view when g is contiguous; nil when g is nil.
// It panics if the sizes differ.
func ReshapeLike(g, like *Tensor) *Tensor {
	if g == nil {
		return nil
	}
	mustNotNil("ReshapeLike", like)
	if g.lanes || like.lanes {
		return Reshape(g, like.dataShape()...)
	}
	if g.Size() != like.Size() {
		panic(fmt.Sprintf("tensorops: ReshapeLike: shapes %v and %v have different sizes", g.shape, like.shape))
	}
	return Reshape(g, like.shape...)
}

// Unsqueeze returns a view of a with a dimension of size 1 inserted at axis
// (in [−Dims()−1, Dims()]; a negative axis counts from the end of the
// result's dimensions).
// It panics if a is nil or axis is out of range.
func Unsqueeze(a *Tensor, axis int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Unsqueeze", a)
	if a.lanes {
		return laneUnsqueeze(a, axis)
	}
	n := len(a.shape)
	ax := axis
	if ax < 0 {
		ax += n + 1
	}
	if ax < 0 || ax > n {
		panic(fmt.Sprintf("tensorops: Unsqueeze: axis %d out of range for shape %v", axis, a.shape))
	}
	st := 1
	if ax < n {
		st = a.strides[ax] * max(a.shape[ax], 1)
	}
	shape := make([]int, 0, n+1)
	shape = append(append(append(shape, a.shape[:ax]...), 1), a.shape[ax:]...)
	strides := make([]int, 0, n+1)
	strides = append(append(append(strides, a.strides[:ax]...), st), a.strides[ax:]...)
	return a.view(shape, strides, a.offset)
}

// Squeeze returns a view of a with dimension axis, of size 1, removed.
// It panics if a is nil, axis is out of range or its size is not 1.
func Squeeze(a *Tensor, axis int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Squeeze", a)
	ax := normAxis("Squeeze", a.dataView(), axis)
	if a.lanes {
		ax++
	}
	if a.shape[ax] != 1 {
		panic(fmt.Sprintf("tensorops: Squeeze: axis %d of shape %v has size %d, want 1", axis, a.dataShape(), a.shape[ax]))
	}
	return remark(a.view(without(a.shape, ax), without(a.strides, ax), a.offset), a)
}

// checkPerm returns perm, or the reversal of n axes when perm is empty.
func checkPerm(op string, a *Tensor, perm []int) []int {
	n := len(a.shape)
	if len(perm) == 0 {
		p := make([]int, n)
		for i := range p {
			p[i] = n - 1 - i
		}
		return p
	}
	seen := make([]bool, n)
	bad := len(perm) != n
	for _, p := range perm {
		if bad || p < 0 || p >= n || seen[p] {
			bad = true
			break
		}
		seen[p] = true
	}
	if bad {
		panic(fmt.Sprintf("tensorops: %s: perm %v is not a permutation of the axes of shape %v", op, perm, a.shape))
	}
	return perm
}

// Transpose returns a contiguous copy of a with its axes permuted: result
// axis i is a's axis perm[i]. With no perm the axes are reversed.
// It panics if a is nil or perm is not a permutation of a's axes.
func Transpose(a *Tensor, perm ...int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Transpose", a)
	if a.lanes {
		return marked(permuted(a.plain(), lanePerm("Transpose", a, perm)).Clone())
	}
	p := checkPerm("Transpose", a, perm)
	if a.sym {
		// A symmetric matrix is its own transpose: a row-major copy,
		// still marked.
		c := a.Clone()
		c.sym = true
		return c
	}
	return permuted(a, p).Clone()
}

// permuted returns the view of a with axes permuted by p.
func permuted(a *Tensor, p []int) *Tensor {
	shape := make([]int, len(p))
	strides := make([]int, len(p))
	for i, j := range p {
		shape[i], strides[i] = a.shape[j], a.strides[j]
	}
	return a.view(shape, strides, a.offset)
}

// TransposeBack returns g with the inverse of perm applied (the adjoint of
// Transpose(a, perm...)); an empty perm reverses the axes. It returns nil
// when g is nil.
// It panics if perm is not a permutation of g's axes.
func TransposeBack(g *Tensor, perm ...int) *Tensor {
	if g == nil {
		return nil
	}
	p := checkPerm("TransposeBack", g.dataView(), perm)
	if g.lanes {
		p = lanePerm("TransposeBack", g, perm)
	}
	inv := make([]int, len(p))
	for i, j := range p {
		inv[j] = i
	}
	return remark(permuted(g, inv).Clone(), g)
}

// sliceView returns the view a[..., lo:hi, ...] along axis ax.
func sliceView(a *Tensor, ax, lo, hi int) *Tensor {
	shape := append([]int{}, a.shape...)
	shape[ax] = hi - lo
	off := a.offset
	if hi > lo {
		off += lo * a.strides[ax]
	}
	return a.view(shape, append([]int{}, a.strides...), off)
}

// Slice returns a contiguous copy of a[..., lo:hi, ...] along axis.
// It panics if a is nil, axis is out of range or not 0 ≤ lo ≤ hi ≤ a.Dim(axis).
func Slice(a *Tensor, axis, lo, hi int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Slice", a)
	if a.lanes {
		ax := laneAxis("Slice", a, axis)
		if lo < 0 || lo > hi || hi > a.shape[ax] {
			panic(fmt.Sprintf("tensorops: Slice: [%d:%d] out of range along axis %d of shape %v", lo, hi, axis, a.shape[1:]))
		}
		return marked(sliceView(a.plain(), ax, lo, hi).Clone())
	}
	ax := normAxis("Slice", a, axis)
	if lo < 0 || lo > hi || hi > a.shape[ax] {
		panic(fmt.Sprintf("tensorops: Slice: [%d:%d] out of range along axis %d of shape %v", lo, hi, axis, a.shape))
	}
	return sliceView(a, ax, lo, hi).Clone()
}

// Pad returns a with before zeros inserted before and after zeros after its
// elements along axis.
// It panics if a is nil, axis is out of range, or before or after is negative.
func Pad(a *Tensor, axis, before, after int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Pad", a)
	if a.lanes {
		return marked(Pad(a.plain(), laneAxis("Pad", a, axis), before, after))
	}
	ax := normAxis("Pad", a, axis)
	if before < 0 || after < 0 {
		panic(fmt.Sprintf("tensorops: Pad: negative padding %d, %d for shape %v", before, after, a.shape))
	}
	shape := append([]int{}, a.shape...)
	shape[ax] += before + after
	out := zerosOn("Pad", a.dev, a.dtype, shape)
	copyInto(sliceView(out, ax, before, before+a.shape[ax]), a)
	return out
}

// Concat returns the tensors joined along axis (negative counts from the
// end). The tensors must have the same dtype, number of dimensions and sizes
// outside axis.
// It panics if ts is empty, a tensor is nil, or the shapes or dtypes differ.
func Concat(axis int, ts ...*Tensor) *Tensor {
	if len(ts) == 0 {
		panic("tensorops: Concat: no tensors")
	}
	mustNotNil("Concat", ts...)
	first := ts[0]
	ax := normAxis("Concat", first, axis)
	shape := append([]int{}, first.shape...)
	shape[ax] = 0
	for _, t := range ts {
		mustSameDType("Concat", first, t)
		ok := len(t.shape) == len(first.shape)
		for i := 0; ok && i < len(t.shape); i++ {
			ok = i == ax || t.shape[i] == first.shape[i]
		}
		if !ok {
			panic(fmt.Sprintf("tensorops: Concat: shapes %v and %v differ outside axis %d", first.shape, t.shape, axis))
		}
		shape[ax] += t.shape[ax]
	}
	out := allocOn("Concat", first.dev, first.dtype, shape)
	lo := 0
	for _, t := range ts {
		copyInto(sliceView(out, ax, lo, lo+t.shape[ax]), t)
		lo += t.shape[ax]
	}
	return out
}

// Broadcast returns a broadcast to shape, materialized (a fresh contiguous
// tensor).
// It panics if a is nil or a's shape does not broadcast to shape.
func Broadcast(a *Tensor, shape ...int) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Broadcast", a)
	checkNewShape("Broadcast", shape)
	if !broadcastsTo(a.shape, shape) {
		panic(fmt.Sprintf("tensorops: Broadcast: shapes %v and %v: the first does not broadcast to the second", a.shape, shape))
	}
	out := allocOn("Broadcast", a.dev, a.dtype, shape)
	copyInto(out, a)
	return out
}

// BroadcastLike returns a broadcast to like's shape, materialized.
// It panics if a or like is nil or a's shape does not broadcast to like's.
func BroadcastLike(a, like *Tensor) *Tensor {
	if a == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("BroadcastLike", a, like)
	if !broadcastsTo(a.shape, like.shape) {
		panic(fmt.Sprintf("tensorops: BroadcastLike: shapes %v and %v: the first does not broadcast to the second", a.shape, like.shape))
	}
	out := allocOn("BroadcastLike", a.dev, a.dtype, like.shape)
	copyInto(out, a)
	return out
}

// Diag returns the square matrix with v on its diagonal.
// It panics if v is nil or not 1-D.
func Diag(v *Tensor) *Tensor {
	if v == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Diag", v)
	if len(v.shape) != 1 {
		panic(fmt.Sprintf("tensorops: Diag: shape %v is not 1-D", v.shape))
	}
	n := v.shape[0]
	out := zerosOn("Diag", v.dev, v.dtype, []int{n, n})
	copyInto(out.view([]int{n}, []int{n + 1}, 0), v)
	return out
}

// DiagPart returns the diagonal of a square matrix.
// It panics if m is nil or not a square 2-D tensor.
func DiagPart(m *Tensor) *Tensor {
	if m == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("DiagPart", m)
	if len(m.shape) != 2 || m.shape[0] != m.shape[1] {
		panic(fmt.Sprintf("tensorops: DiagPart: shape %v is not a square matrix", m.shape))
	}
	n := m.shape[0]
	return m.view([]int{n}, []int{m.strides[0] + m.strides[1]}, m.offset).Clone()
}
