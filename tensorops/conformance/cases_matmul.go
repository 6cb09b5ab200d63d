package conformance

import (
	"fmt"
	"math"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// mmCases are the shapes of op(a) and op(b) of the matrix product tests:
// odd sizes, sizes that are multiples of no block size, batches that
// broadcast, vectors and an empty inner dimension.
var mmCases = [][2][]int{
	{{3, 4}, {4, 5}},
	{{1, 1}, {1, 1}},
	{{7, 1}, {1, 9}},
	{{5, 13}, {13, 1}},
	{{1, 6}, {6, 3}},
	{{65, 67}, {67, 63}},
	{{130, 67}, {67, 129}},
	{{2, 3, 4}, {4, 5}},
	{{2, 3, 4}, {2, 4, 5}},
	{{2, 1, 3, 4}, {5, 4, 2}},
	{{3, 4}, {2, 4, 5}},
	{{1, 3, 4}, {2, 4, 5}},
	{{4}, {4, 5}},
	{{3, 4}, {4}},
	{{4}, {4}},
	{{4}, {2, 4, 5}},
	{{2, 3, 4}, {4}},
	{{3, 0}, {0, 4}},
}

// stored returns the stored shape of an operand whose op shape is s.
func stored(s []int, trans bool) []int {
	r := append([]int{}, s...)
	if trans && len(r) >= 2 {
		r[len(r)-1], r[len(r)-2] = r[len(r)-2], r[len(r)-1]
	}
	return r
}

func testMatMul(t *testing.T, c *ctx) {
	t.Run("MatMulT", func(t *testing.T) {
		c.skip(t, "MatMulT")
		for _, mc := range mmCases {
			for _, f := range transFlags {
				ta, tb := f[0], f[1]
				if (ta && len(mc[0]) == 1) || (tb && len(mc[1]) == 1) {
					continue
				}
				a := c.rand(-1, 1, stored(mc[0], ta)...)
				b := c.rand(-1, 1, stored(mc[1], tb)...)
				want := refMatMul(a, b, ta, tb)
				k := mc[1][0]
				if len(mc[1]) >= 2 {
					k = mc[1][len(mc[1])-2]
				}
				tl := c.sumTol(k, 1)
				g := c.rand(-1, 1, want.shape...)
				wantA, wantB := refMatMulGrads(g, a, b, ta, tb)
				tlGrad := c.sumTol(max(numel(want.shape), 1), 1)
				for _, l := range allLayouts {
					name := fmt.Sprintf("MatMulT(%s, %s, %v, %v; %v)", shapeName(mc[0]), shapeName(mc[1]), ta, tb, l)
					x, y := c.tensor(a, l), c.tensor(b, l)
					c.check(t, name, T.MatMulT(x, y, ta, tb), want, tl)
					if !ta && !tb {
						c.check(t, "MatMul"+name[7:], T.MatMul(x, y), want, tl)
					}
					gt := c.tensor(g, l)
					c.check(t, "MatMulGradA of "+name, T.MatMulGradA(gt, x, y, ta, tb), wantA, tlGrad)
					c.check(t, "MatMulGradB of "+name, T.MatMulGradB(gt, x, y, ta, tb), wantB, tlGrad)
					if !ta && !tb {
						// A slice of the product, along each axis.
						for ax := range want.shape {
							n := want.shape[ax]
							for _, r := range [][2]int{{0, n}, {n / 3, n - n/3}, {n / 2, n / 2}} {
								what := fmt.Sprintf("MatMulSlice(%s, axis %d, %d, %d)", name, ax, r[0], r[1])
								c.check(t, what, T.MatMulSlice(x, y, ax, r[0], r[1]), refSlice(want, ax, r[0], r[1]), tl)
							}
						}
					}
					if !ta {
						// The merged forms: x twice (stacked when x is a
						// vector or a matrix) and a nil between them.
						each := T.MatMulEach(y, tb, x, nil, x)
						c.check(t, "MatMulEach[0] of "+name, each[0], want, tl)
						c.check(t, "MatMulEach[2] of "+name, each[2], want, tl)
						if each[1] != nil {
							t.Errorf("MatMulEach[1] of %s: %v for a nil operand", name, each[1])
						}
						grads := T.MatMulGradAEach(x, y, tb, gt, nil, gt)
						c.check(t, "MatMulGradAEach[0] of "+name, grads[0], wantA, tlGrad)
						c.check(t, "MatMulGradAEach[2] of "+name, grads[2], wantA, tlGrad)
						if grads[1] != nil {
							t.Errorf("MatMulGradAEach[1] of %s: %v for a nil operand", name, grads[1])
						}
					}
					// Into a strided dst (row-major with gaps) and a
					// column-major one.
					for _, dl := range []layout{padded, permuted} {
						dst := c.tensor(newArr(want.shape...), dl)
						if !ta && !tb {
							T.MatMulTo(dst, x, y)
						} else {
							T.MatMulTTo(dst, x, y, ta, tb)
						}
						c.check(t, fmt.Sprintf("%s into %v dst", name, dl), dst, want, tl)
					}
				}
				// Gemm: dst = alpha op(a) op(b) + beta dst.
				d0 := c.rand(-1, 1, want.shape...)
				wg := newArr(want.shape...)
				for i := range wg.v {
					wg.v[i] = 1.5*want.v[i] - 0.5*d0.v[i]
				}
				for _, dl := range []layout{contig, padded, permuted} {
					dst := c.tensor(d0, dl)
					T.Gemm(dst, 1.5, c.tensor(a, padded), ta, c.tensor(b, contig), tb, -0.5)
					c.check(t, fmt.Sprintf("Gemm(%s, %s, %v, %v, beta -0.5; %v dst)", shapeName(mc[0]), shapeName(mc[1]), ta, tb, dl), dst, wg, c.sumTol(k+1, 1.5))
				}
				// beta = 0 ignores dst's elements, NaNs included.
				nan := newArr(want.shape...)
				for i := range nan.v {
					nan.v[i] = math.NaN()
				}
				dst := c.tensor(nan, contig)
				T.Gemm(dst, 1, c.tensor(a, contig), ta, c.tensor(b, contig), tb, 0)
				c.check(t, fmt.Sprintf("Gemm(%s, %s, %v, %v, beta 0) on NaNs", shapeName(mc[0]), shapeName(mc[1]), ta, tb), dst, want, tl)
			}
		}
	})
	t.Run("panics", func(t *testing.T) {
		x, y := c.tensor(newArr(2, 3), contig), c.tensor(newArr(4, 5), contig)
		mustPanic(t, "MatMul shapes", func() { T.MatMul(x, y) }, "tensorops: MatMul: shapes [2 3] and [4 5]")
		mustPanic(t, "MatMulT shapes", func() { T.MatMulT(x, y, true, false) }, "tensorops: MatMulT: shapes [2 3] and [4 5]")
		mustPanic(t, "MatMulT batch", func() {
			T.MatMulT(c.tensor(newArr(2, 3, 4), contig), c.tensor(newArr(3, 4, 5), contig), false, false)
		}, "tensorops: MatMulT: shapes [2 3 4] and [3 4 5]", "batch")
		mustPanic(t, "MatMulTo dst", func() { T.MatMulTo(c.tensor(newArr(2, 2), contig), x, c.tensor(newArr(3, 5), contig)) }, "tensorops: MatMulTo: dst shape [2 2] and result shape [2 5]")
		mustPanic(t, "Gemm dst", func() { T.Gemm(c.tensor(newArr(2, 2), contig), 1, x, true, x, false, 0) }, "tensorops: Gemm: dst shape [2 2] and result shape [3 3]")
		mustPanic(t, "MatMul 0-D", func() { T.MatMul(c.tensor(newArr(), contig), x) }, "tensorops: MatMul: shapes [] and [2 3]")
		mustPanic(t, "MatMulGradA g", func() {
			T.MatMulGradA(c.tensor(newArr(3, 3), contig), x, c.tensor(newArr(3, 5), contig), false, false)
		}, "tensorops: MatMulGradA: shapes [3 3] and [2 5]")
		mustPanic(t, "MatMulSlice shapes", func() { T.MatMulSlice(x, y, 0, 0, 1) }, "tensorops: MatMul: shapes [2 3] and [4 5]")
		mustPanic(t, "MatMulSlice range", func() {
			T.MatMulSlice(x, c.tensor(newArr(3, 5), contig), 1, 2, 6)
		}, "tensorops: Slice: [2:6] out of range along axis 1 of shape [2 5]")
		mustPanic(t, "MatMulEach shapes", func() { T.MatMulEach(y, false, x, x) }, "tensorops: MatMulT: shapes [2 3] and [4 5]")
		mustPanic(t, "MatMulGradAEach g", func() {
			g := c.tensor(newArr(3, 3), contig)
			T.MatMulGradAEach(x, c.tensor(newArr(3, 5), contig), false, g, g)
		}, "tensorops: MatMulGradA: shapes [3 3] and [2 5]")
		mustPanic(t, "MatMulGradB g", func() {
			T.MatMulGradB(c.tensor(newArr(3, 3), contig), x, c.tensor(newArr(3, 5), contig), false, false)
		}, "tensorops: MatMulGradB: shapes [3 3] and [2 5]")
	})
	t.Run("Dot", func(t *testing.T) {
		c.skip(t, "Dot")
		for _, shape := range [][]int{{}, {7}, {3, 5}, {2, 3, 4}, {0}, bigShape} {
			a, b := c.rand(-1, 1, shape...), c.rand(-1, 1, shape...)
			want := 0.0
			for i := range a.v {
				want += a.v[i] * b.v[i]
			}
			for _, l := range layoutsFor(shape) {
				c.checkScalar(t, fmt.Sprintf("Dot(%s %v)", shapeName(shape), l), T.Dot(c.tensor(a, l), c.tensor(b, contig)), want, c.sumTol(numel(shape), 1))
			}
		}
		mustPanic(t, "Dot shapes", func() { T.Dot(c.tensor(newArr(2, 3), contig), c.tensor(newArr(3, 2), contig)) }, "tensorops: Dot: shapes [2 3] and [3 2]")
	})
	t.Run("Outer", func(t *testing.T) {
		c.skip(t, "Outer")
		a, b := c.rand(-1, 1, 3), c.rand(-1, 1, 5)
		want := newArr(3, 5)
		forEach(want.shape, func(idx []int) { want.set(idx, c.round(a.v[idx[0]]*b.v[idx[1]])) })
		for _, l := range allLayouts {
			c.check(t, fmt.Sprintf("Outer(%v)", l), T.Outer(c.tensor(a, l), c.tensor(b, l)), want, exact)
		}
		mustPanic(t, "Outer 2-D", func() { T.Outer(c.tensor(newArr(2, 3), contig), c.tensor(newArr(3), contig)) }, "tensorops: Outer: shapes [2 3] and [3]")
	})
}

// refSlice returns a[..., lo:hi, ...] along axis ax.
func refSlice(a *arr, ax, lo, hi int) *arr {
	shape := append([]int{}, a.shape...)
	shape[ax] = hi - lo
	out := newArr(shape...)
	forEach(shape, func(idx []int) {
		src := append([]int{}, idx...)
		src[ax] += lo
		out.set(idx, a.at(src))
	})
	return out
}
