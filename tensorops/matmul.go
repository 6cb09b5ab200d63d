package tensorops

import "fmt"

// mmShape is the geometry of a matrix product op(a)·op(b) in numpy matmul
// semantics.
type mmShape struct {
	a, b       *Tensor // at least 2-D (a 1-D operand viewed as [1,k] or [k,1])
	ta, tb     bool
	m, k, n    int
	batch      []int
	aVec, bVec bool
	out        []int // the result's shape
}

// matmulShape checks a and b for MatMulT and returns the product's geometry.
func matmulShape(op string, a, b *Tensor, ta, tb bool) mmShape {
	mustNotNil(op, a, b)
	onDevice(op, a, b)
	mustSameDType(op, a, b)
	if len(a.shape) == 0 || len(b.shape) == 0 {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: operands must have at least 1 dimension", op, a.shape, b.shape))
	}
	s := mmShape{a: a, b: b, ta: ta, tb: tb}
	if len(a.shape) == 1 {
		s.a, s.ta, s.aVec = Unsqueeze(a, 0), false, true
	}
	if len(b.shape) == 1 {
		s.b, s.tb, s.bVec = Unsqueeze(b, 1), false, true
	}
	ra, ca := s.a.shape[len(s.a.shape)-2], s.a.shape[len(s.a.shape)-1]
	if s.ta {
		ra, ca = ca, ra
	}
	rb, cb := s.b.shape[len(s.b.shape)-2], s.b.shape[len(s.b.shape)-1]
	if s.tb {
		rb, cb = cb, rb
	}
	if ca != rb {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v do not match: op(a) is %d×%d, op(b) is %d×%d (transA %v, transB %v)", op, a.shape, b.shape, ra, ca, rb, cb, ta, tb))
	}
	s.m, s.k, s.n = ra, ca, cb
	batch, ok := broadcastShape(s.a.shape[:len(s.a.shape)-2], s.b.shape[:len(s.b.shape)-2])
	if !ok {
		panic(fmt.Sprintf("tensorops: %s: shapes %v and %v: batch dimensions do not broadcast", op, a.shape, b.shape))
	}
	s.batch = batch
	s.out = append(make([]int, 0, len(batch)+2), batch...)
	if !s.aVec {
		s.out = append(s.out, s.m)
	}
	if !s.bVec {
		s.out = append(s.out, s.n)
	}
	return s
}

// promote views dst (of shape s.out) as batch + [m, n].
func (s *mmShape) promote(dst *Tensor) *Tensor {
	if s.aVec {
		dst = Unsqueeze(dst, len(s.batch))
	}
	if s.bVec {
		dst = Unsqueeze(dst, len(dst.shape))
	}
	return dst
}

// MatMul returns the matrix product of a and b with numpy's matmul
// semantics: 2-D × 2-D is the matrix product; [..., m, k] × [..., k, n]
// multiplies the matrices of a batch, whose dimensions broadcast (b may be
// 2-D); a 1-D a is a row vector and a 1-D b a column vector, whose dimension
// is removed from the result. The products go to the BLAS backend's GEMM,
// or SYMM for two matrices one of which is marked symmetric (IsSymmetric).
// It panics if an operand is nil or 0-D, the inner dimensions differ, the
// batch dimensions do not broadcast or the dtypes differ.
func MatMul(a, b *Tensor) *Tensor {
	if a == nil || b == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	return matmulNew("MatMul", a, b, false, false)
}

// MatMulT returns op(a)·op(b) where op transposes the last two axes of its
// operand when the flag is set (ignored for a 1-D operand). The transposes
// are not materialized: the flags go to GEMM. Otherwise as MatMul.
// It panics if an operand is nil or 0-D, the inner dimensions differ, the
// batch dimensions do not broadcast or the dtypes differ.
func MatMulT(a, b *Tensor, transA, transB bool) *Tensor {
	if a == nil || b == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	return matmulNew("MatMulT", a, b, transA, transB)
}

func matmulNew(op string, a, b *Tensor, transA, transB bool) *Tensor {
	if a.lanes || b.lanes {
		return laneMatMul(op, a, b, transA, transB)
	}
	s := matmulShape(op, a, b, transA, transB)
	out := allocOutOn(op, a.dev, a.dtype, s.out)
	gemmBatched(s.promote(out), 1, s.a, s.ta, s.b, s.tb, 0)
	return out
}

// MatMulTo sets dst = a·b (as MatMul) and returns dst. dst must not overlap a
// or b.
// It panics as MatMul does, or if dst does not have the result's shape and
// dtype.
func MatMulTo(dst, a, b *Tensor) *Tensor { return matmulTo("MatMulTo", dst, 1, a, false, b, false, 0) }

// MatMulTTo sets dst = op(a)·op(b) (as MatMulT) and returns dst. dst must not
// overlap a or b.
// It panics as MatMulT does, or if dst does not have the result's shape and
// dtype.
func MatMulTTo(dst, a, b *Tensor, transA, transB bool) *Tensor {
	return matmulTo("MatMulTTo", dst, 1, a, transA, b, transB, 0)
}

// Gemm sets dst = alpha·op(a)·op(b) + beta·dst, with op and the shapes as in
// MatMulT (batched and vector operands included). With beta = 0, dst's
// previous elements are not read (NaNs in it do not propagate). dst must not
// overlap a or b.
// It panics as MatMulT does, or if dst does not have the product's shape
// and dtype.
func Gemm(dst *Tensor, alpha float64, a *Tensor, transA bool, b *Tensor, transB bool, beta float64) {
	matmulTo("Gemm", dst, alpha, a, transA, b, transB, beta)
}

func matmulTo(op string, dst *Tensor, alpha float64, a *Tensor, ta bool, b *Tensor, tb bool, beta float64) *Tensor {
	s := matmulShape(op, a, b, ta, tb)
	checkDst(op, dst, s.out, a.dtype)
	onDevice(op, dst, a)
	gemmBatched(s.promote(dst), alpha, s.a, s.ta, s.b, s.tb, beta)
	return dst
}

// layout returns how the last two dimensions of t (rows r, columns c,
// strides sr, sc) map to a row-major BLAS matrix: either directly with
// leading dimension ld, or as the transpose (flip) of a row-major matrix.
func layout(r, c, sr, sc int) (flip bool, ld int, ok bool) {
	if (c <= 1 || sc == 1) && (r <= 1 || sr >= max(c, 1)) {
		if r <= 1 {
			return false, max(c, 1), true
		}
		return false, sr, true
	}
	if (r <= 1 || sr == 1) && (c <= 1 || sc >= max(r, 1)) {
		if c <= 1 {
			return true, max(r, 1), true
		}
		return true, sc, true
	}
	return false, 0, false
}

func matLayout(t *Tensor) (flip bool, ld int, ok bool) {
	n := len(t.shape)
	return layout(t.shape[n-2], t.shape[n-1], t.strides[n-2], t.strides[n-1])
}

// gemmBatched sets c = alpha·op(a)·op(b) + beta·c over the broadcast batch
// of a and b (all at least 2-D, shapes checked). c's batch dimensions may be
// broadcast too (size 1 or missing where the batch is larger): the products
// of those batches are summed into c, which is how the adjoints of batch
// broadcasting are computed.
func gemmBatched(c *Tensor, alpha float64, a *Tensor, ta bool, b *Tensor, tb bool, beta float64) {
	onDevice("MatMul", c, a, b)
	nc := len(c.shape)
	m, n := c.shape[nc-2], c.shape[nc-1]
	k := a.shape[len(a.shape)-1]
	if ta {
		k = a.shape[len(a.shape)-2]
	}
	if m == 0 || n == 0 {
		return
	}
	batch, _ := broadcastShape(a.shape[:len(a.shape)-2], b.shape[:len(b.shape)-2])
	batch, _ = broadcastShape(batch, c.shape[:nc-2])
	if k == 0 || alpha == 0 {
		scaleInPlace(c, beta)
		return
	}
	// c must be row-major in its last two dimensions; else go through a copy.
	if flip, _, ok := matLayout(c); !ok || flip {
		tmp := c.Clone()
		gemmBatched(tmp, alpha, a, ta, b, tb, beta)
		copyInto(c, tmp)
		return
	}
	if _, _, ok := matLayout(a); !ok {
		a = a.Clone()
	}
	if _, _, ok := matLayout(b); !ok {
		b = b.Clone()
	}
	flipA, lda, _ := matLayout(a)
	flipB, ldb, _ := matLayout(b)
	_, ldc, _ := matLayout(c)
	ta, tb = ta != flipA, tb != flipB
	impl := backend()

	// A product of matrices with a symmetric operand: SYMM.
	if (a.sym || b.sym) && nc == 2 && c.dev == CPU && len(a.shape) == 2 && len(b.shape) == 2 &&
		symmCall(impl, c, ldc, alpha, a, ta, lda, b, tb, ldb, beta, m, n, k) {
		return
	}

	bstA := batchStrides(a, batch)
	bstB := batchStrides(b, batch)
	bstC := batchStrides(c, batch)
	nb := prod(batch)
	reduce := false
	for i, d := range batch {
		if d > 1 && bstC[i] == 0 {
			reduce = true
		}
	}
	if reduce && nb > 1 {
		scaleInPlace(c, beta)
		beta = 1
	}

	// One GEMM for a batch of a's matrices times one b: stack a's rows.
	if nb > 1 && !ta && !reduce && allZero(bstB) && stacks(bstA, batch, m, lda) && stacks(bstC, batch, m, ldc) {
		gemmCall(impl, c, a.dtype, ta, tb, nb*m, n, k, alpha, a, a.offset, lda, b, b.offset, ldb, beta, c.offset, ldc)
		return
	}
	idx := make([]int, len(batch))
	oa, ob, oc := a.offset, b.offset, c.offset
	for it := 0; it < nb; it++ {
		gemmCall(impl, c, a.dtype, ta, tb, m, n, k, alpha, a, oa, lda, b, ob, ldb, beta, oc, ldc)
		for i := len(batch) - 1; i >= 0; i-- {
			idx[i]++
			oa += bstA[i]
			ob += bstB[i]
			oc += bstC[i]
			if idx[i] < batch[i] {
				break
			}
			oa -= idx[i] * bstA[i]
			ob -= idx[i] * bstB[i]
			oc -= idx[i] * bstC[i]
			idx[i] = 0
		}
	}
}

func gemmCall(impl blasImpl, c *Tensor, dt DType, ta, tb bool, m, n, k int, alpha float64, a *Tensor, oa, lda int, b *Tensor, ob, ldb int, beta float64, oc, ldc int) {
	if c.dev != CPU {
		devGemm(c, dt, ta, tb, m, n, k, alpha, a, oa, lda, b, ob, ldb, beta, oc, ldc)
		return
	}
	if dt == Float32 {
		impl.sgemm(ta, tb, m, n, k, float32(alpha), a.f32[oa:], lda, b.f32[ob:], ldb, float32(beta), c.f32[oc:], ldc)
	} else {
		impl.dgemm(ta, tb, m, n, k, alpha, a.f64[oa:], lda, b.f64[ob:], ldb, beta, c.f64[oc:], ldc)
	}
}

// batchStrides returns the strides of t's batch dimensions (all but the
// last two) aligned to batch, zero where broadcast.
func batchStrides(t *Tensor, batch []int) []int {
	nb := len(t.shape) - 2
	v := t.view(t.shape[:nb], t.strides[:nb], t.offset)
	return bstrides(v, batch)
}

func allZero(s []int) bool {
	for _, x := range s {
		if x != 0 {
			return false
		}
	}
	return true
}

// stacks reports whether the matrices of a batch with strides st are
// stacked rows: row i of batch j is row j·m+i of one matrix with leading
// dimension ld.
func stacks(st, batch []int, m, ld int) bool {
	want := m * ld
	for i := len(batch) - 1; i >= 0; i-- {
		if batch[i] == 1 {
			continue
		}
		if st[i] != want {
			return false
		}
		want *= batch[i]
	}
	return true
}

// scaleInPlace sets c = beta·c, and c = 0 when beta is 0 (NaNs dropped).
func scaleInPlace(c *Tensor, beta float64) {
	switch beta {
	case 1:
	case 0:
		Fill(c, 0)
	default:
		unary("Gemm", uMulS, c, c, beta, 0)
	}
}

// Dot returns Σᵢ aᵢbᵢ over all elements of a and b (accumulated in float64).
// It panics if an operand is nil or the shapes or dtypes differ.
func Dot(a, b *Tensor) float64 {
	if a == nil || b == nil {
		return 0 // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Dot", a, b)
	onDevice("Dot", a, b)
	mustSameDType("Dot", a, b)
	if !a.SameShape(b) {
		panic(fmt.Sprintf("tensorops: Dot: shapes %v and %v differ", a.shape, b.shape))
	}
	ac, bc := a.Contiguous(), b.Contiguous()
	if a.dev != CPU {
		v, err := devExt[deviceDot]("Dot", a.dev).Dot(ac.arr(), bc.arr(), a.Size())
		devFail("Dot", a.dev, err)
		return v
	}
	if a.dtype == Float32 {
		return dot(ac.Float32s(), bc.Float32s())
	}
	return dot(ac.Float64s(), bc.Float64s())
}

// deviceDot is implemented by device backends that compute Dot on the
// device.
type deviceDot interface {
	// Dot returns Σ a[i]·b[i] over the n elements of contiguous a and b
	// (of one dtype), the products and their sum in float64.
	Dot(a, b DeviceArray, n int) (float64, error)
}

func dot[T Float](x, y []T) float64 {
	y = y[:len(x)]
	var s0, s1 float64
	i := 0
	for ; i+2 <= len(x); i += 2 {
		s0 += float64(x[i]) * float64(y[i])
		s1 += float64(x[i+1]) * float64(y[i+1])
	}
	if i < len(x) {
		s0 += float64(x[i]) * float64(y[i])
	}
	return s0 + s1
}

// Outer returns the outer product of 1-D a and b: out[i, j] = a[i]·b[j].
// It panics if an operand is nil or not 1-D, or the dtypes differ.
func Outer(a, b *Tensor) *Tensor {
	if a == nil || b == nil {
		return nil // a zero operand of a linear map (the package doc: nil)
	}
	mustNotNil("Outer", a, b)
	mustSameDType("Outer", a, b)
	if len(a.shape) != 1 || len(b.shape) != 1 {
		panic(fmt.Sprintf("tensorops: Outer: shapes %v and %v are not both 1-D", a.shape, b.shape))
	}
	return binary("Outer", bMul, nil, Unsqueeze(a, 1), b)
}
