package tensorops

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// countingBLAS is a backend that counts the calls it passes on.
type countingBLAS struct {
	blasImpl
	gemm, symm, syrk int
}

func (c *countingBLAS) dgemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, cc []float64, ldc int) {
	c.gemm++
	c.blasImpl.dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc)
}

func (c *countingBLAS) sgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, cc []float32, ldc int) {
	c.gemm++
	c.blasImpl.sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc)
}

func (c *countingBLAS) dsymm(right bool, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, cc []float64, ldc int) {
	c.symm++
	c.blasImpl.dsymm(right, m, n, alpha, a, lda, b, ldb, beta, cc, ldc)
}

func (c *countingBLAS) ssymm(right bool, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, cc []float32, ldc int) {
	c.symm++
	c.blasImpl.ssymm(right, m, n, alpha, a, lda, b, ldb, beta, cc, ldc)
}

func (c *countingBLAS) dsyrk(tA bool, n, k int, alpha float64, a []float64, lda int, beta float64, cc []float64, ldc int) {
	c.syrk++
	c.blasImpl.dsyrk(tA, n, k, alpha, a, lda, beta, cc, ldc)
}

func (c *countingBLAS) ssyrk(tA bool, n, k int, alpha float32, a []float32, lda int, beta float32, cc []float32, ldc int) {
	c.syrk++
	c.blasImpl.ssyrk(tA, n, k, alpha, a, lda, beta, cc, ldc)
}

// counting makes backend name count its calls until the returned function
// restores the previous backend.
func counting(t *testing.T, name string) (*countingBLAS, func()) {
	t.Helper()
	var impl blasImpl = gonumBLAS{}
	if name == "openblas" {
		c, err := loadCBLAS()
		// The OpenBLAS rows need the library: CI installs it where it runs as
		// root with apt-get (.ci/run); the gonum rows run everywhere.
		if err != nil {
			t.Skipf("no C BLAS loaded (%v)", err)
		}
		impl = c
	}
	prev := backend()
	cb := &countingBLAS{blasImpl: impl}
	var b blasImpl = cb
	blasCur.Store(&b)
	return cb, func() { blasCur.Store(&prev) }
}

// TestSymmetricPaths checks which BLAS routine each product calls, and that
// the symmetric routines give GEMM's numbers up to rounding.
func TestSymmetricPaths(t *testing.T) {
	for _, name := range []string{"gonum", "openblas"} {
		for _, dt := range []DType{Float64, Float32} {
			t.Run(fmt.Sprintf("%s/%v", name, dt), func(t *testing.T) {
				cb, restore := counting(t, name)
				defer restore()
				tol := 1e-12
				if dt == Float32 {
					tol = 1e-4
				}
				rng := rand.New(rand.NewPCG(7, uint64(dt)))
				const n, m = 7, 5
				// The Hessian helper's form: rows of HVPs, concatenated
				// and symmetrized.
				rows := make([]*Tensor, n)
				for i := range rows {
					rows[i] = RandN(rng, dt, 1, n)
				}
				h := Symmetrize(Concat(0, rows...))
				if !h.IsSymmetric() {
					t.Fatal("Symmetrize's result is not marked symmetric")
				}
				plain := h.Clone() // the same elements, unmarked
				bm := RandN(rng, dt, n, m)
				bt := RandN(rng, dt, m, n)
				v := RandN(rng, dt, n)
				for _, c := range []struct {
					name             string
					got, want        func() *Tensor
					gemm, symm, syrk int
				}{
					{"MatMul(h, b)", func() *Tensor { return MatMul(h, bm) }, func() *Tensor { return MatMul(plain, bm) }, 0, 1, 0},
					{"MatMul(bᵀ, h)", func() *Tensor { return MatMul(bt, h) }, func() *Tensor { return MatMul(bt, plain) }, 0, 1, 0},
					{"MatMulT(h, b, true, false)", func() *Tensor { return MatMulT(h, bm, true, false) }, func() *Tensor { return MatMulT(plain, bm, true, false) }, 0, 1, 0},
					{"MatMulT(bᵀ, h, false, true)", func() *Tensor { return MatMulT(bt, h, false, true) }, func() *Tensor { return MatMulT(bt, plain, false, true) }, 0, 1, 0},
					{"MatMulT(b, h, true, true)", func() *Tensor { return MatMulT(bm, h, true, true) }, func() *Tensor { return MatMulT(bm, plain, true, true) }, 1, 0, 0},
					{"MatMulT(h, bᵀ, false, true)", func() *Tensor { return MatMulT(h, bt, false, true) }, func() *Tensor { return MatMulT(plain, bt, false, true) }, 1, 0, 0},
					{"MatMul(h, v)", func() *Tensor { return MatMul(h, v) }, func() *Tensor { return MatMul(plain, v) }, 0, 1, 0},
					{"MatMul(h, h)", func() *Tensor { return MatMul(h, h) }, func() *Tensor { return MatMul(plain, plain) }, 0, 1, 0},
					{"MatMul(Transpose(h), b)", func() *Tensor { return MatMul(Transpose(h), bm) }, func() *Tensor { return MatMul(plain, bm) }, 0, 1, 0},
					{"MatMulGradA(g, b, h)", func() *Tensor { return MatMulGradA(bt, bt, h, false, false) }, func() *Tensor { return MatMulT(bt, plain, false, true) }, 0, 1, 0},
					{"MatMul(Unsqueeze(h, 0), b)", func() *Tensor { return MatMul(Unsqueeze(h, 0), bm) }, func() *Tensor { return Unsqueeze(MatMul(plain, bm), 0) }, 1, 0, 0},
					{"Gram(b, false)", func() *Tensor { return Gram(bm, false) }, func() *Tensor { return MatMulT(bm, bm, false, true) }, 0, 0, 1},
					{"Gram(b, true)", func() *Tensor { return Gram(bm, true) }, func() *Tensor { return MatMulT(bm, bm, true, false) }, 0, 0, 1},
				} {
					want := c.want()
					*cb = countingBLAS{blasImpl: cb.blasImpl}
					got := c.got()
					if cb.gemm != c.gemm || cb.symm != c.symm || cb.syrk != c.syrk {
						t.Errorf("%s: %d GEMM, %d SYMM, %d SYRK calls, want %d, %d, %d", c.name, cb.gemm, cb.symm, cb.syrk, c.gemm, c.symm, c.syrk)
					}
					if d := MaxAbsDiff(got, want); !(d <= tol) {
						t.Errorf("%s: differs from GEMM's result by %v", c.name, d)
					}
				}
				g := Gram(bm, true)
				if !g.IsSymmetric() {
					t.Error("Gram's result is not marked symmetric")
				}
				for i := range m {
					for j := range m {
						if g.At(i, j) != g.At(j, i) {
							t.Fatalf("Gram not exactly symmetric at (%d, %d): %v, %v", i, j, g.At(i, j), g.At(j, i))
						}
					}
				}
			})
		}
	}
}

// TestSymmetricMark checks which ops keep the mark: only the tensor itself
// (and Transpose's copy); writes through the package clear it.
func TestSymmetricMark(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	mk := func() *Tensor { return Symmetrize(RandN(rng, Float64, 4, 4)) }
	h := mk()
	for _, c := range []struct {
		name string
		t    *Tensor
		want bool
	}{
		{"Symmetrize", h, true},
		{"Transpose", Transpose(h), true},
		{"Contiguous", h.Contiguous(), true},
		{"Add(nil, h)", Add(nil, h), true},
		{"Gram", Gram(h, false), true},
		{"Clone", h.Clone(), false},
		{"Reshape", Reshape(h, 4, 4), false},
		{"Unsqueeze", Unsqueeze(h, 0), false},
		{"Slice", Slice(h, 0, 0, 2), false},
		{"Scale", Scale(h, 2), false},
		{"AsStrided", AsStrided(h, []int{4, 4}, []int{4, 1}, 0), false},
		{"MatMul", MatMul(h, h), false},
		{"Gram of a batch", Gram(RandN(rng, Float64, 2, 3, 4), true), false},
	} {
		if got := c.t.IsSymmetric(); got != c.want {
			t.Errorf("%s: IsSymmetric() = %v, want %v", c.name, got, c.want)
		}
	}
	for _, w := range []struct {
		name  string
		write func(h *Tensor)
	}{
		{"Set", func(h *Tensor) { h.Set(1, 0, 1) }},
		{"ScaleTo", func(h *Tensor) { ScaleTo(h, h, 2) }},
		{"AddInto", func(h *Tensor) { AddInto(h, Ones(4, 4)) }},
		{"Accumulate", func(h *Tensor) { Accumulate(h, Ones(4)) }},
		{"Gemm", func(h *Tensor) { Gemm(h, 1, Ones(4, 4), false, Ones(4, 4), false, 1) }},
		{"MatMulTo", func(h *Tensor) { MatMulTo(h, Ones(4, 4), Ones(4, 4)) }},
	} {
		h := mk()
		w.write(h)
		if h.IsSymmetric() {
			t.Errorf("%s into a symmetric tensor: still marked", w.name)
		}
	}
}
