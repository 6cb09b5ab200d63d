package conformance

import (
	"fmt"
	"math"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

var nnCases = []axisCase{
	{[]int{3, 5}, 1},
	{[]int{3, 5}, 0},
	{[]int{7}, 0},
	{[]int{2, 3, 4}, 1},
	{[]int{2, 3, 4}, -1},
	{[]int{1, 1}, 1},
	{[]int{400, 100}, 1},
}

func testNN(t *testing.T, c *ctx) {
	t.Run("Softmax", func(t *testing.T) {
		c.skip(t, "Softmax")
		for _, nc := range nnCases {
			a := c.rand(-5, 5, nc.shape...)
			if len(a.v) > 2 {
				a.v[1] = 1000 // stability: no overflow
			}
			ax := normAx(nc.axis, len(nc.shape))
			n := nc.shape[ax]
			tl := c.tl(tol{1e-12, 1e-14}, tol{2e-6, 1e-7})
			want := refSoftmax(a, nc.axis)
			wantLog := refLogSoftmax(a, nc.axis)
			wantLSE := refReduce(a, nc.axis, flse)
			// Tangents and adjoints.
			dx := c.rand(-1, 1, nc.shape...)
			s := refUnary(want, c.round)
			ls := refUnary(wantLog, c.round)
			sdx := refBinary(s, dx, func(x, y float64) float64 { return x * y })
			sum := refReduce(sdx, nc.axis, fsum)
			wantSJ := newArr(nc.shape...)
			pdx := refBinary(refUnary(ls, math.Exp), dx, func(x, y float64) float64 { return x * y })
			psum := refReduce(pdx, nc.axis, fsum)
			gsum := refReduce(dx, nc.axis, fsum)
			wantLJ := newArr(nc.shape...)
			wantLV := newArr(nc.shape...)
			forEach(nc.shape, func(idx []int) {
				r := dropAxis(idx, ax)
				wantSJ.set(idx, s.at(idx)*(dx.at(idx)-sum.at(r)))
				wantLJ.set(idx, dx.at(idx)-psum.at(r))
				wantLV.set(idx, dx.at(idx)-math.Exp(ls.at(idx))*gsum.at(r))
			})
			for _, l := range layoutsFor(nc.shape) {
				name := fmt.Sprintf("(%s %v, %d)", shapeName(nc.shape), l, nc.axis)
				x := c.tensor(a, l)
				c.check(t, "Softmax"+name, T.Softmax(x, nc.axis), want, tl)
				c.check(t, "LogSoftmax"+name, T.LogSoftmax(x, nc.axis), wantLog, tl)
				c.check(t, "LogSumExp"+name, T.LogSumExp(x, nc.axis), wantLSE, tl)
				st, lt, dt := c.tensor(s, l), c.tensor(ls, l), c.tensor(dx, l)
				gt := c.sumTol(n, 4)
				c.check(t, "SoftmaxJVP"+name, T.SoftmaxJVP(st, dt, nc.axis), wantSJ, gt)
				c.check(t, "LogSoftmaxJVP"+name, T.LogSoftmaxJVP(lt, dt, nc.axis), wantLJ, gt)
				c.check(t, "LogSoftmaxVJP"+name, T.LogSoftmaxVJP(lt, dt, nc.axis), wantLV, gt)
			}
		}
		// A row of −Inf: the log-sum-exp is −Inf.
		inf := newArr(2, 3)
		for i := range inf.v {
			inf.v[i] = math.Inf(-1)
		}
		inf.v[3], inf.v[4], inf.v[5] = 0, 1, 2
		want := refReduce(inf, 1, func(v []float64) float64 {
			if math.IsInf(v[0], -1) {
				return math.Inf(-1)
			}
			return flse(v)
		})
		c.check(t, "LogSumExp(-Inf row)", T.LogSumExp(c.tensor(inf, contig), 1), want, c.tl(tol{1e-12, 1e-14}, tol{2e-6, 1e-7}))
		x := c.tensor(newArr(3, 5), contig)
		mustPanic(t, "Softmax axis", func() { T.Softmax(x, 2) }, "tensorops: Softmax: axis 2 out of range for shape [3 5]")
		mustPanic(t, "SoftmaxJVP shapes", func() { T.SoftmaxJVP(x, c.tensor(newArr(5, 3), contig), 1) }, "tensorops: SoftmaxJVP: shapes [3 5] and [5 3]")
	})
	t.Run("CrossEntropy", func(t *testing.T) {
		c.skip(t, "SoftmaxCrossEntropy")
		for _, shape := range [][]int{{6, 5}, {1, 3}, {300, 10}} {
			n, k := shape[0], shape[1]
			logits := c.rand(-3, 3, shape...)
			onehot := newArr(shape...)
			probs := c.rand(0, 1, shape...)
			for i := 0; i < n; i++ {
				onehot.v[i*k+c.rng.IntN(k)] = 1
				s := 0.0
				for j := 0; j < k; j++ {
					s += probs.v[i*k+j]
				}
				for j := 0; j < k; j++ {
					probs.v[i*k+j] = c.round(probs.v[i*k+j] / s)
				}
			}
			unnorm := c.rand(0, 2, shape...) // rows not summing to 1
			ls := refLogSoftmax(logits, 1)
			p := refSoftmax(logits, 1)
			for _, lab := range []struct {
				name string
				y    *arr
			}{{"onehot", onehot}, {"probs", probs}, {"unnormalized", unnorm}} {
				want := 0.0
				for i := range ls.v {
					want -= lab.y.v[i] * ls.v[i]
				}
				want /= float64(n)
				wantG := newArr(shape...)
				for i := 0; i < n; i++ {
					rs := 0.0
					for j := 0; j < k; j++ {
						rs += lab.y.v[i*k+j]
					}
					for j := 0; j < k; j++ {
						wantG.v[i*k+j] = 1.7 * (p.v[i*k+j]*rs - lab.y.v[i*k+j]) / float64(n)
					}
				}
				for _, l := range allLayouts {
					name := fmt.Sprintf("(%s %v, %s)", shapeName(shape), l, lab.name)
					x, y := c.tensor(logits, l), c.tensor(lab.y, l)
					c.checkScalar(t, "SoftmaxCrossEntropy"+name, T.SoftmaxCrossEntropy(x, y), want, c.tl(tol{1e-12, 1e-13}, tol{1e-5, 1e-6}))
					c.check(t, "SoftmaxCrossEntropyGrad"+name, T.SoftmaxCrossEntropyGrad(x, y, 1.7), wantG, c.tl(tol{1e-12, 1e-14}, tol{1e-5, 1e-7}))
				}
			}
		}
		x := c.tensor(newArr(3, 5), contig)
		mustPanic(t, "SoftmaxCrossEntropy shapes", func() { T.SoftmaxCrossEntropy(x, c.tensor(newArr(3, 4), contig)) }, "tensorops: SoftmaxCrossEntropy: shapes [3 5] and [3 4]")
		mustPanic(t, "SoftmaxCrossEntropyGrad shapes", func() { T.SoftmaxCrossEntropyGrad(x, c.tensor(newArr(5), contig), 1) }, "tensorops: SoftmaxCrossEntropyGrad: shapes [3 5] and [5]")
	})
}

func testConv(t *testing.T, c *ctx) {
	c.skip(t, "Conv2D")
	cases := []struct {
		x, w        []int
		stride, pad int
	}{
		{[]int{2, 3, 7, 6}, []int{4, 3, 3, 2}, 1, 0},
		{[]int{2, 3, 7, 6}, []int{4, 3, 3, 2}, 2, 1},
		{[]int{1, 1, 5, 5}, []int{2, 1, 5, 5}, 1, 0},
		{[]int{3, 2, 9, 8}, []int{5, 2, 3, 3}, 2, 2},
		{[]int{1, 2, 4, 4}, []int{1, 2, 1, 1}, 3, 0},
	}
	for _, cc := range cases {
		x, w := c.rand(-1, 1, cc.x...), c.rand(-1, 1, cc.w...)
		want := refConv2D(x, w, cc.stride, cc.pad, 1)
		g := c.rand(-1, 1, want.shape...)
		wantX, wantW := refConv2DGrads(g, x, w, cc.stride, cc.pad, 1)
		k := cc.w[1] * cc.w[2] * cc.w[3]
		for _, l := range []layout{contig, padded, permuted} {
			name := fmt.Sprintf("(%s, %s, stride %d, pad %d; %v)", shapeName(cc.x), shapeName(cc.w), cc.stride, cc.pad, l)
			xt, wt, gt := c.tensor(x, l), c.tensor(w, l), c.tensor(g, l)
			c.check(t, "Conv2D"+name, T.Conv2D(xt, wt, cc.stride, cc.pad), want, c.sumTol(k, 1))
			c.check(t, "Conv2DGradX"+name, T.Conv2DGradX(gt, xt, wt, cc.stride, cc.pad), wantX, c.sumTol(numel(want.shape), 1))
			c.check(t, "Conv2DGradW"+name, T.Conv2DGradW(gt, xt, wt, cc.stride, cc.pad), wantW, c.sumTol(numel(want.shape), 1))
		}
	}
	x, w := c.tensor(newArr(1, 3, 5, 5), contig), c.tensor(newArr(2, 2, 3, 3), contig)
	mustPanic(t, "Conv2D channels", func() { T.Conv2D(x, w, 1, 0) }, "tensorops: Conv2D: shapes [1 3 5 5] and [2 2 3 3]")
	mustPanic(t, "Conv2D stride", func() { T.Conv2D(x, c.tensor(newArr(2, 3, 3, 3), contig), 0, 0) }, "tensorops: Conv2D: shapes [1 3 5 5] and [2 3 3 3]", "stride 0")
	mustPanic(t, "Conv2D kernel", func() { T.Conv2D(x, c.tensor(newArr(2, 3, 7, 3), contig), 1, 0) }, "tensorops: Conv2D: shapes [1 3 5 5] and [2 3 7 3]")
	if T.Conv2DGradX(nil, x, w, 1, 0) != nil || T.Conv2DGradW(nil, x, w, 1, 0) != nil {
		t.Errorf("Conv2DGradX, Conv2DGradW with a nil adjoint: got non-nil")
	}
	// Bilinear: nil (zero) in either operand gives nil.
	w3, g := c.tensor(newArr(2, 3, 3, 3), contig), c.tensor(newArr(1, 2, 3, 3), contig)
	if T.Conv2D(nil, w3, 1, 0) != nil || T.Conv2D(x, nil, 1, 0) != nil || T.Conv2DGradX(g, x, nil, 1, 0) != nil || T.Conv2DGradW(g, nil, w3, 1, 0) != nil {
		t.Errorf("Conv2D, Conv2DGradX, Conv2DGradW with a nil operand: got non-nil")
	}
}
