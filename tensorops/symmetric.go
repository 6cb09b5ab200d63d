package tensorops

// This file defines symmetric matrices: the mark that a tensor is exactly
// symmetric, the products that use it (SYMM in place of GEMM), and the
// Gram products op(a)·op(a)ᵀ that compute half of a symmetric result
// (SYRK) and mark it. Enzyme-JaX rewrites a Hessian's products the same
// way: a Hessian is symmetric, so gemm(H, B) is symm(H, B), and aᵀa is
// syrk(a).

// IsSymmetric reports whether t is marked exactly symmetric: a square
// matrix made by Symmetrize, by Gram of a matrix, or by Transpose of a
// marked matrix. A
// matrix product (MatMul, MatMulT, Gemm and the gradients built on them)
// of two matrices, one of them marked and the other not transposed, goes
// to the BLAS backend's SYMM, which reads one triangle of the marked
// operand; batched and vector products use GEMM.
//
// The mark belongs to t alone: views of t (Reshape, Unsqueeze, AsStrided),
// copies (Clone) and the results of other ops are not marked, and the ops
// that write into t as a destination (the …To forms, Gemm, AddInto,
// Accumulate, Set) clear it. Writing into t's elements any other way
// (Copy, through a view, the slice of Float64s or the matrix of Dense)
// leaves the mark: products then see the symmetric matrix of one of t's
// triangles.
// It does not look at the elements.
func (t *Tensor) IsSymmetric() bool { return t.sym }

// Gram returns op(a)·op(a)ᵀ, that is MatMulT(a, a, transA, !transA): aᵀ·a
// when transA, a·aᵀ otherwise. For a matrix a it computes one triangle
// with the BLAS backend's SYRK (half the multiplications of GEMM) and
// mirrors it, so the result is exactly symmetric, and marks it
// (IsSymmetric); its elements equal MatMulT's up to rounding (each is the
// same sum of the same products, perhaps added in another order). On a
// device the matrix goes to GEMM and its upper triangle is mirrored
// likewise. A batch of matrices or a vector goes to MatMulT. It returns nil when a is nil
// (the product of zeros is zero).
// It panics if a is 0-D.
func Gram(a *Tensor, transA bool) *Tensor {
	if a == nil {
		return nil // a zero operand (the package doc: nil)
	}
	s := matmulShape("Gram", a, a, transA, !transA)
	out := allocOn("Gram", a.dev, a.dtype, s.out)
	if len(a.shape) != 2 || a.dev != CPU {
		// On a device: GEMM, then the lower triangle from the upper.
		gemmBatched(s.promote(out), 1, s.a, s.ta, s.b, s.tb, 0)
		if len(a.shape) == 2 {
			devFail("Gram", a.dev, devExt[deviceMirror]("Gram", a.dev).MirrorUpper(out.arr(), s.m))
			out.sym = true
		}
		return out
	}
	out.sym = true
	n, k := s.m, s.k
	if n == 0 || k == 0 {
		return out // zeros
	}
	if _, _, ok := matLayout(a); !ok {
		a = a.Clone()
	}
	flip, lda, _ := matLayout(a)
	tA := transA != flip
	impl := backend()
	if a.dtype == Float32 {
		impl.ssyrk(tA, n, k, 1, a.f32[a.offset:], lda, 0, out.f32, n)
		mirrorUpper(out.f32, n)
	} else {
		impl.dsyrk(tA, n, k, 1, a.f64[a.offset:], lda, 0, out.f64, n)
		mirrorUpper(out.f64, n)
	}
	return out
}

// deviceMirror is implemented by device backends that compute Gram on
// the device (by GEMM).
type deviceMirror interface {
	// MirrorUpper copies the upper triangle of the contiguous n×n matrix
	// c into its lower triangle.
	MirrorUpper(c DeviceArray, n int) error
}

// mirrorUpper copies the upper triangle of the row-major n×n matrix c into
// its lower triangle, in square blocks so that the column reads stay in
// cache.
func mirrorUpper[T Float](c []T, n int) {
	const bs = 64
	for ib := 0; ib < n; ib += bs {
		ie := min(ib+bs, n)
		for jb := 0; jb <= ib; jb += bs {
			je := min(jb+bs, n)
			for i := ib; i < ie; i++ {
				row := c[i*n : i*n+min(je, i)]
				for j := jb; j < len(row); j++ {
					row[j] = c[j*n+i]
				}
			}
		}
	}
}

// symmCall computes c = alpha·op(a)·op(b) + beta·c with SYMM when a (or
// b) is marked symmetric and the other operand is not transposed (SYMM
// has no transpose flag for it; a marked operand's own flag does not
// matter), and reports whether it did. a, b and c are matrices in the
// row-major layouts of gemmBatched (ta and tb already account for a
// transposed storage) and m, n, k are positive.
func symmCall(impl blasImpl, c *Tensor, ldc int, alpha float64, a *Tensor, ta bool, lda int, b *Tensor, tb bool, ldb int, beta float64, m, n, k int) bool {
	var right bool
	switch {
	case a.sym && !tb && m == k:
		right = false
	case b.sym && !ta && n == k:
		right = true
		a, b, lda, ldb = b, a, ldb, lda
	default:
		return false
	}
	if c.dtype == Float32 {
		impl.ssymm(right, m, n, float32(alpha), a.f32[a.offset:], lda, b.f32[b.offset:], ldb, float32(beta), c.f32[c.offset:], ldc)
	} else {
		impl.dsymm(right, m, n, alpha, a.f64[a.offset:], lda, b.f64[b.offset:], ldb, beta, c.f64[c.offset:], ldc)
	}
	return true
}
