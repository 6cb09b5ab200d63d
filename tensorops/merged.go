package tensorops

// This file defines the forms of matrix products that generated code
// calls after simplify's rewrites of products: several products sharing
// an operand merged into one GEMM over the stacked rows of the others (the
// shared operand read once instead of once per product), and a slice of a
// product computed from slices of its operands.

import "fmt"

// MatMulEach returns MatMulT(aᵢ, b, false, transB) for each aᵢ of as, nil
// for a nil aᵢ. When the non-nil aᵢ are vectors or matrices (or tensors of
// directions of vectors or matrices, Lanes) with b's dtype, and b is a
// matrix, their rows are stacked and multiplied by b in one GEMM: each
// result is then a view of its block of rows of the product, as the
// separate product would be up to rounding (the GEMM may sum in another
// order). Otherwise each product is computed on its own.
// It panics as MatMulT would.
func MatMulEach(b *Tensor, transB bool, as ...*Tensor) []*Tensor {
	out := make([]*Tensor, len(as))
	stack := stackRows(b, as)
	if stack == nil {
		for i, a := range as {
			out[i] = MatMulT(a, b, false, transB)
		}
		return out
	}
	for _, a := range as {
		if a != nil {
			matmulShape("MatMulT", a, b, false, transB) // the separate products' panics
		}
	}
	p := MatMulT(stack, b, false, transB)
	splitRows(p, as, out)
	return out
}

// MatMulGradAEach returns MatMulGradA(gᵢ, a, b, false, transB) for each gᵢ
// of gs, nil for a nil gᵢ, in one GEMM when a and b are matrices and the
// non-nil gᵢ have one shape and b's dtype (as MatMulEach: the adjoint of a
// product's left operand is gᵢ·op(b)ᵀ, row by row).
// It panics as MatMulGradA would.
func MatMulGradAEach(a, b *Tensor, transB bool, gs ...*Tensor) []*Tensor {
	out := make([]*Tensor, len(gs))
	var stack *Tensor
	if a != nil && b != nil && len(a.shape) == 2 && len(b.shape) == 2 && a.dtype == b.dtype && !a.lanes && !b.lanes {
		s := matmulShape("MatMulGradA", a, b, false, transB)
		stack = stackRows(b, gs)
		for _, g := range gs {
			if g != nil && !sameShape(g.dataShape(), s.out) {
				stack = nil // the separate call's panic
			}
		}
	}
	if stack == nil {
		for i, g := range gs {
			out[i] = MatMulGradA(g, a, b, false, transB)
		}
		return out
	}
	p := MatMulT(stack, b, false, !transB) // MatMulGradA's product, g·op(b)ᵀ
	splitRows(p, gs, out)
	return out
}

// stackRows returns the rows of the non-nil tensors of as stacked into one
// matrix (the rows of a tensor [..., k] being its prod(...) vectors of k
// elements, those of a tensor of directions included), or nil when there
// are fewer than two, or their last dimensions differ, or they are not all
// of b's dtype and device, or b is not a matrix.
func stackRows(b *Tensor, as []*Tensor) *Tensor {
	if b == nil || len(b.shape) != 2 || b.lanes {
		return nil
	}
	var first *Tensor
	n, rows := 0, 0
	for _, a := range as {
		if a == nil {
			continue
		}
		if first == nil {
			first = a
		}
		if dataRank(a) < 1 || dataRank(a) > 2 && !a.lanes || a.shape[len(a.shape)-1] != first.shape[len(first.shape)-1] || a.dtype != b.dtype || a.dev != b.dev {
			return nil
		}
		n++
		rows += prod(a.shape[:len(a.shape)-1])
	}
	if n < 2 {
		return nil
	}
	cols := first.shape[len(first.shape)-1]
	s := allocOn("MatMulEach", b.dev, b.dtype, []int{rows, cols})
	at := 0
	for _, a := range as {
		if a == nil {
			continue
		}
		dst := s.view(append([]int(nil), a.shape...), rowMajor(a.shape), at*cols)
		copyInto(dst, a)
		at += prod(a.shape[:len(a.shape)-1])
	}
	return s
}

// splitRows sets out[i], for each non-nil as[i] in order, to the view of
// its block of rows of the product p: a's shape with its last dimension
// p's, marked as a is.
func splitRows(p *Tensor, as, out []*Tensor) {
	cols := p.shape[1]
	at := 0
	for i, a := range as {
		if a == nil {
			continue
		}
		shape := append(append([]int(nil), a.shape[:len(a.shape)-1]...), cols)
		out[i] = remark(p.view(shape, rowMajor(shape), p.offset+at*cols), a)
		at += prod(a.shape[:len(a.shape)-1])
	}
}

// MatMulSlice returns Slice(MatMul(a, b), axis, lo, hi), computing only the
// part of the product that the slice keeps: when axis is the product's
// row axis, a's rows lo to hi times b; when it is its column axis, a times
// b's columns lo to hi; otherwise (a batch axis) the whole product, sliced.
// Generated code calls it where a slice of a product is the product's only
// use (simplify's slice pushdown). The result is a fresh tensor, equal to
// the slice of the whole product up to rounding.
// It panics as Slice(MatMul(a, b), axis, lo, hi) would; nil when a or b is.
//
// With frame tensors, it returns SliceFor(MatMul(a, b), axis, lo, hi,
// frame...): the part of the product that a slice of its broadcast with the
// frame reads (the whole product where it is broadcast along the axis).
func MatMulSlice(a, b *Tensor, axis, lo, hi int, frame ...*Tensor) *Tensor {
	if a == nil || b == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	s := matmulShape("MatMul", a, b, false, false)
	ax, ok := alignedAxis("Slice", s.out, axis, lo, hi, frame)
	if !ok {
		return MatMul(a, b)
	}
	last := len(s.out) - 1
	switch {
	case !s.bVec && ax == last: // columns: b's last axis
		return MatMul(a, sliceView(b, len(b.shape)-1, lo, hi))
	case !s.aVec && (s.bVec && ax == last || !s.bVec && ax == last-1): // rows: a's last axis but one
		return MatMul(sliceView(a, len(a.shape)-2, lo, hi), b)
	}
	return Slice(MatMul(a, b), axis, lo, hi)
}

// SliceFor returns the part of a that a slice [lo:hi] along axis of the
// broadcast of a with the frame tensors reads: a sliced along the aligned
// axis, or a itself where it is broadcast along it (of size 1 there, or
// without the axis). So F(SliceFor(a, …, b), SliceFor(b, …, a)) is
// Slice(F(a, b), …) for a broadcasting elementwise F, computed on the part
// that is used; without a frame, SliceFor is Slice. The result is a view of
// a, not a copy. Generated code calls it where simplify pushes a slice
// through elementwise operations whose operands' shapes it cannot tell
// apart.
// It panics if the shapes do not broadcast, or as Slice would on the
// broadcast shape; nil when a is.
func SliceFor(a *Tensor, axis, lo, hi int, frame ...*Tensor) *Tensor {
	if a == nil {
		return nil
	}
	ax, ok := alignedAxis("SliceFor", a.shape, axis, lo, hi, frame)
	if !ok {
		return a // broadcast along the axis
	}
	return sliceView(a, ax, lo, hi)
}

// alignedAxis returns the axis of shape aligned with axis of the broadcast
// of shape with the frame tensors' shapes, and whether shape has that axis
// unbroadcast (of the broadcast shape's size). Nil frame tensors are
// skipped. It panics, naming op, if the shapes do not broadcast, axis is
// out of range for the broadcast shape, or not 0 ≤ lo ≤ hi ≤ its size
// along axis.
func alignedAxis(op string, shape []int, axis, lo, hi int, frame []*Tensor) (int, bool) {
	full := shape
	for _, f := range frame {
		if f == nil {
			continue
		}
		b, ok := broadcastShape(full, f.shape)
		if !ok {
			panic(fmt.Sprintf("tensorops: %s: shapes %v and %v do not broadcast", op, full, f.shape))
		}
		full = b
	}
	ax := normAxis(op, &Tensor{shape: full}, axis)
	if lo < 0 || lo > hi || hi > full[ax] {
		panic(fmt.Sprintf("tensorops: %s: [%d:%d] out of range along axis %d of shape %v", op, lo, hi, axis, full))
	}
	a := ax - (len(full) - len(shape))
	return a, a >= 0 && shape[a] == full[ax]
}

// MatMulShape returns a tensor of the shape and dtype of MatMul(a, b)
// without computing it: every element is the one zero it stores (all
// strides 0). Generated code passes it to SliceFor and MatMulSlice as a
// frame, which read shapes only, where the product itself is not needed.
// It panics as MatMul would; nil when a or b is.
func MatMulShape(a, b *Tensor) *Tensor {
	if a == nil || b == nil {
		return nil
	}
	s := matmulShape("MatMul", a, b, false, false)
	z := alloc(a.dtype, nil)
	return z.view(append([]int(nil), s.out...), make([]int, len(s.out)), 0)
}
