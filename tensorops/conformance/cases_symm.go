package conformance

import (
	"fmt"
	"math"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// symCases are the sizes n of a symmetric matrix H [n, n] and m of the
// other operand of the products with it ([n, m] or [m, n]).
var symCases = [][2]int{{1, 1}, {1, 4}, {3, 5}, {7, 1}, {4, 4}, {65, 67}, {130, 3}, {3, 0}, {0, 3}}

// gramCases are the shapes of a in Gram(a, trans): odd sizes, an empty
// dimension, batches and a vector, which go to MatMulT.
var gramCases = [][]int{{1, 1}, {3, 4}, {4, 3}, {7, 1}, {1, 9}, {65, 67}, {130, 67}, {3, 0}, {0, 3}, {2, 3, 4}, {2, 1, 3, 4}, {4}}

// randSym returns a reference symmetric n×n array.
func (c *ctx) randSym(n int) *arr {
	s := newArr(n, n)
	for i := range n {
		for j := i; j < n; j++ {
			v := c.round(2*c.rng.Float64() - 1)
			s.set([]int{i, j}, v)
			s.set([]int{j, i}, v)
		}
	}
	return s
}

// symmetric returns the device tensor of the symmetric array s marked
// symmetric: Symmetrize of s, which is s exactly.
func (c *ctx) symmetric(t *testing.T, s *arr, l layout) *T.Tensor {
	t.Helper()
	h := T.Symmetrize(c.tensor(s, l))
	if c.b.Skip != nil {
		if _, skip := c.b.Skip("host"); skip {
			return h
		}
	}
	if !c.out(h).IsSymmetric() {
		t.Errorf("Symmetrize(%s %v) is not marked symmetric", shapeName(s.shape), l)
	}
	return h
}

// transFlags are the four combinations of a product's transpose flags.
var transFlags = [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}}

func testSymmetric(t *testing.T, c *ctx) {
	t.Run("products", func(t *testing.T) { testSymmetricProducts(t, c) })
	t.Run("Gram", func(t *testing.T) { testSymmetricGram(t, c) })
	t.Run("marks", func(t *testing.T) { testSymmetricMarks(t, c) })
}

// testSymmetricProducts runs testSymmetric's products cases.
func testSymmetricProducts(t *testing.T, c *ctx) {
	c.skip(t, "MatMulT")
	c.skip(t, "Symmetrize")
	for _, sc := range symCases {
		n, m := sc[0], sc[1]
		s := c.randSym(n)
		h := c.symmetric(t, s, padded) // the input's layout does not matter
		tl := c.sumTol(n, 1)
		for _, f := range transFlags {
			ta, tb := f[0], f[1]
			// H on the left: op(H)·op(b), op(b) [n, m]; then on the
			// right: op(b')·op(H), op(b') [m, n]. A transposed other
			// operand, or one stored column-major, goes to GEMM.
			b := c.rand(-1, 1, stored([]int{n, m}, tb)...)
			b2 := c.rand(-1, 1, stored([]int{m, n}, ta)...)
			want := refMatMul(s, b, ta, tb)
			want2 := refMatMul(b2, s, ta, tb)
			for _, l := range allLayouts {
				name := fmt.Sprintf("MatMulT(H%s, %s, %v, %v; %v)", shapeName(s.shape), shapeName(b.shape), ta, tb, l)
				x := c.tensor(b, l)
				c.check(t, name, T.MatMulT(h, x, ta, tb), want, tl)
				name2 := fmt.Sprintf("MatMulT(%s, H%s, %v, %v; %v)", shapeName(b2.shape), shapeName(s.shape), ta, tb, l)
				x2 := c.tensor(b2, l)
				c.check(t, name2, T.MatMulT(x2, h, ta, tb), want2, tl)
				if !ta && !tb {
					c.check(t, "MatMul"+name[7:], T.MatMul(h, x), want, tl)
					c.check(t, "MatMul"+name2[7:], T.MatMul(x2, h), want2, tl)
				}
				// The gradients multiply by H too.
				g := c.rand(-1, 1, want.shape...)
				wantA, wantB := refMatMulGrads(g, s, b, ta, tb)
				gt := c.tensor(g, l)
				tlGrad := c.sumTol(max(m, n), 1)
				c.check(t, "MatMulGradA of "+name, T.MatMulGradA(gt, h, x, ta, tb), wantA, tlGrad)
				c.check(t, "MatMulGradB of "+name, T.MatMulGradB(gt, h, x, ta, tb), wantB, tlGrad)
				g2 := c.rand(-1, 1, want2.shape...)
				wantA2, wantB2 := refMatMulGrads(g2, b2, s, ta, tb)
				gt2 := c.tensor(g2, l)
				c.check(t, "MatMulGradA of "+name2, T.MatMulGradA(gt2, x2, h, ta, tb), wantA2, tlGrad)
				c.check(t, "MatMulGradB of "+name2, T.MatMulGradB(gt2, x2, h, ta, tb), wantB2, tlGrad)
			}
			// Gemm into strided and column-major dsts, beta −0.5.
			d0 := c.rand(-1, 1, want.shape...)
			wg := newArr(want.shape...)
			for i := range wg.v {
				wg.v[i] = 1.5*want.v[i] - 0.5*d0.v[i]
			}
			for _, dl := range []layout{contig, padded, permuted} {
				dst := c.tensor(d0, dl)
				T.Gemm(dst, 1.5, h, ta, c.tensor(b, contig), tb, -0.5)
				c.check(t, fmt.Sprintf("Gemm(H%s, %s, %v, %v, beta -0.5; %v dst)", shapeName(s.shape), shapeName(b.shape), ta, tb, dl), dst, wg, c.sumTol(n+1, 1.5))
			}
			// beta = 0 ignores dst's elements, NaNs included.
			nan := newArr(want.shape...)
			for i := range nan.v {
				nan.v[i] = math.NaN()
			}
			dst := c.tensor(nan, contig)
			T.Gemm(dst, 1, h, ta, c.tensor(b, contig), tb, 0)
			c.check(t, fmt.Sprintf("Gemm(H%s, %s, %v, %v, beta 0) on NaNs", shapeName(s.shape), shapeName(b.shape), ta, tb), dst, want, tl)
			nan2 := newArr(want2.shape...)
			for i := range nan2.v {
				nan2.v[i] = math.NaN()
			}
			dst = c.tensor(nan2, contig)
			T.Gemm(dst, 1, c.tensor(b2, contig), ta, h, tb, 0)
			c.check(t, fmt.Sprintf("Gemm(%s, H%s, %v, %v, beta 0) on NaNs", shapeName(b2.shape), shapeName(s.shape), ta, tb), dst, want2, tl)
		}
		// Vectors, and batches (H broadcast along them), which go to
		// GEMM.
		v := c.rand(-1, 1, n)
		c.check(t, fmt.Sprintf("MatMul(H%s, [%d])", shapeName(s.shape), n), T.MatMul(h, c.tensor(v, padded)), refMatMul(s, v, false, false), tl)
		c.check(t, fmt.Sprintf("MatMul([%d], H%s)", n, shapeName(s.shape)), T.MatMul(c.tensor(v, contig), h), refMatMul(v, s, false, false), tl)
		b3 := c.rand(-1, 1, 2, n, m)
		c.check(t, fmt.Sprintf("MatMul(H%s, %s)", shapeName(s.shape), shapeName(b3.shape)), T.MatMul(h, c.tensor(b3, padded)), refMatMul(s, b3, false, false), tl)
		b4 := c.rand(-1, 1, 2, 1, m, n)
		c.check(t, fmt.Sprintf("MatMul(%s, H%s)", shapeName(b4.shape), shapeName(s.shape)), T.MatMul(c.tensor(b4, permuted), h), refMatMul(b4, s, false, false), tl)
		c.check(t, fmt.Sprintf("MatMul(Unsqueeze(H%s, 0), %s)", shapeName(s.shape), shapeName(b3.shape)), T.MatMul(T.Unsqueeze(h, 0), c.tensor(b3, contig)), refMatMul(s, b3, false, false), tl)
		// H times itself, and its transpose (still symmetric).
		c.check(t, fmt.Sprintf("MatMul(H%s, H)", shapeName(s.shape)), T.MatMul(h, h), refMatMul(s, s, false, false), tl)
		c.check(t, fmt.Sprintf("MatMul(Transpose(H%s), H)", shapeName(s.shape)), T.MatMul(T.Transpose(h), h), refMatMul(s, s, false, false), tl)
	}
}

// testSymmetricGram runs testSymmetric's Gram cases.
func testSymmetricGram(t *testing.T, c *ctx) {
	c.skip(t, "Gram")
	for _, shape := range gramCases {
		for _, trans := range []bool{false, true} {
			if trans && len(shape) == 1 {
				continue
			}
			a := c.rand(-1, 1, shape...)
			want := refMatMul(a, a, trans, !trans)
			k := shape[len(shape)-1]
			if trans && len(shape) >= 2 {
				k = shape[len(shape)-2]
			}
			tl := c.sumTol(k, 1)
			for _, l := range layoutsFor(shape) {
				name := fmt.Sprintf("Gram(%s, %v; %v)", shapeName(shape), trans, l)
				got := T.Gram(c.tensor(a, l), trans)
				c.check(t, name, got, want, tl)
				if len(shape) != 2 {
					continue
				}
				// Exactly symmetric: the triangle is mirrored.
				h := c.out(got)
				r := h.Dim(0)
				for i := 0; i < r; i++ {
					for j := 0; j < i; j++ {
						if x, y := h.At(i, j), h.At(j, i); x != y {
							t.Fatalf("%s: at [%d %d] %v, at [%d %d] %v: not symmetric", name, i, j, x, j, i, y)
						}
					}
				}
				// A product with the result (marked) as with its
				// elements.
				b := c.rand(-1, 1, r, 3)
				wb := refMatMul(want, b, false, false)
				c.check(t, "MatMul("+name+", b)", T.MatMul(got, c.tensor(b, contig)), wb, c.sumTol(r*(k+1), 1))
			}
		}
	}
	if T.Gram(nil, true) != nil {
		t.Error("Gram(nil, true): got a tensor, want nil")
	}
	mustPanic(t, "Gram 0-D", func() { T.Gram(c.tensor(newArr(), contig), true) }, "tensorops: Gram: shapes [] and []")
}

// testSymmetricMarks runs testSymmetric's marks cases.
func testSymmetricMarks(t *testing.T, c *ctx) {
	c.skip(t, "host")
	s := c.randSym(4)
	h := c.symmetric(t, s, contig)
	for _, tc := range []struct {
		name string
		t    *T.Tensor
		want bool
	}{
		{"Symmetrize", h, true},
		{"Transpose", T.Transpose(h), true},
		{"Gram", T.Gram(c.tensor(c.rand(-1, 1, 3, 4), padded), true), true},
		{"Gram of a batch", T.Gram(c.tensor(c.rand(-1, 1, 2, 3, 4), contig), true), false},
		{"Clone", h.Clone(), false},
		{"Reshape", T.Reshape(h, 4, 4), false},
		{"Slice", T.Slice(h, 0, 0, 2), false},
		{"Scale", T.Scale(h, 2), false},
	} {
		if got := tc.t.IsSymmetric(); got != tc.want {
			t.Errorf("%s: IsSymmetric() = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Written into as a destination, H is no longer known symmetric,
	// and its products see its new elements.
	T.ScaleTo(h, c.tensor(c.rand(-1, 1, 4, 4), contig), 1)
	if h.IsSymmetric() {
		t.Error("ScaleTo into a symmetric tensor: still marked")
	}
	hs := newArr(4, 4)
	forEach(hs.shape, func(idx []int) { hs.set(idx, h.At(idx...)) })
	b := c.rand(-1, 1, 4, 2)
	c.check(t, "MatMul(H after ScaleTo, b)", T.MatMul(h, c.tensor(b, contig)), refMatMul(hs, b, false, false), c.sumTol(4, 1))
}
