package tensorops

// This file defines the merged forms of matrix products that generated
// code calls where several products share an operand (simplify's product
// merging): one GEMM over the stacked rows of the others instead of one
// matrix-vector product each, so the shared operand is read once.

// MatMulEach returns MatMulT(aᵢ, b, false, transB) for each aᵢ of as, nil
// for a nil aᵢ. When the non-nil aᵢ are vectors or matrices of one shape and
// b's dtype, and b is a matrix, their rows are stacked and multiplied by b
// in one GEMM: each result is then a view of its block of rows of the
// product, as the separate product would be up to rounding (the GEMM may
// sum in another order). Otherwise each product is computed on its own.
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
			matmulShape("MatMulT", a, b, false, transB) // the separate product's panic
			break
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
	if a != nil && b != nil && len(a.shape) == 2 && len(b.shape) == 2 && a.dtype == b.dtype {
		s := matmulShape("MatMulGradA", a, b, false, transB)
		stack = stackRows(b, gs)
		for _, g := range gs {
			if g != nil && !sameShape(g.shape, s.out) {
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
// matrix, or nil when there are fewer than two, or they are not all vectors
// or all matrices of one shape and of b's dtype, or b is not a matrix.
func stackRows(b *Tensor, as []*Tensor) *Tensor {
	if b == nil || len(b.shape) != 2 {
		return nil
	}
	var first *Tensor
	n := 0
	for _, a := range as {
		if a == nil {
			continue
		}
		if first == nil {
			first = a
		}
		if len(a.shape) < 1 || len(a.shape) > 2 || !sameShape(a.shape, first.shape) || a.dtype != b.dtype || a.dev != b.dev {
			return nil
		}
		n++
	}
	if n < 2 {
		return nil
	}
	rows, cols := 1, first.shape[len(first.shape)-1]
	if len(first.shape) == 2 {
		rows = first.shape[0]
	}
	s := alloc(b.dtype, []int{n * rows, cols})
	at := 0
	for _, a := range as {
		if a == nil {
			continue
		}
		dst := s.view(append([]int(nil), a.shape...), rowMajor(a.shape), at*rows*cols)
		copyInto(dst, a)
		at++
	}
	return s
}

// splitRows sets out[i], for each non-nil as[i] in order, to the view of
// its block of rows of the product p, shaped as a vector when as[i] is one.
func splitRows(p *Tensor, as, out []*Tensor) {
	cols := p.shape[1]
	rows := 0
	at := 0
	for i, a := range as {
		if a == nil {
			continue
		}
		if rows == 0 {
			rows = 1
			if len(a.shape) == 2 {
				rows = a.shape[0]
			}
		}
		shape := []int{rows, cols}
		if len(a.shape) == 1 {
			shape = []int{cols}
		}
		out[i] = p.view(shape, rowMajor(shape), p.offset+at*rows*cols)
		at++
	}
}
