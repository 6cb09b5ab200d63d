package conformance

// The pooling ops (MaxPool2D, AvgPool2D and their derivative helpers),
// Gather, Embedding and GatherGrad, the dilated convolution, and the
// fused derivatives of the activations.

import (
	"fmt"
	"math"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// poolCase is a pooling configuration: x [n, c, h, w] and square windows.
type poolCase struct {
	x                 []int
	size, stride, pad int
}

var poolCases = []poolCase{
	{[]int{2, 3, 7, 6}, 3, 2, 1},
	{[]int{1, 2, 5, 5}, 2, 2, 0},
	{[]int{2, 1, 8, 9}, 3, 1, 1}, // overlapping windows
	{[]int{1, 1, 4, 4}, 4, 1, 2}, // windows mostly in the padding
	{[]int{3, 2, 6, 7}, 1, 1, 0}, // the identity
	{[]int{1, 2, 3, 3}, 3, 3, 0}, // one window per plane
	{[]int{2, 2, 5, 3}, 2, 3, 1}, // stride beyond the window
	{[]int{4, 8, 33, 31}, 3, 2, 1},
}

// outShape returns the shape of the pooled result.
func (pc poolCase) outShape() []int {
	o := func(n int) int { return (n+2*pc.pad-pc.size)/pc.stride + 1 }
	return []int{pc.x[0], pc.x[1], o(pc.x[2]), o(pc.x[3])}
}

// covers returns the most windows that cover an element of x.
func (pc poolCase) covers() int {
	n := (pc.size + pc.stride - 1) / pc.stride
	return n * n
}

func (pc poolCase) name(l layout) string {
	return fmt.Sprintf("(%s, size %d, stride %d, pad %d; %v)", shapeName(pc.x), pc.size, pc.stride, pc.pad, l)
}

// poolWindow returns the input positions of window (i, j): rows and
// columns clipped to the input.
func poolWindow(pc poolCase, h, w, i, j int) (ys, xs []int) {
	for p := 0; p < pc.size; p++ {
		if y := i*pc.stride + p - pc.pad; y >= 0 && y < h {
			ys = append(ys, y)
		}
		if x := j*pc.stride + p - pc.pad; x >= 0 && x < w {
			xs = append(xs, x)
		}
	}
	return ys, xs
}

// refPool returns, for x and the adjoint or tangent inputs, MaxPool2D,
// MaxPool2DJVP (of dx), MaxPool2DGrad (of g), AvgPool2D and AvgPool2DGrad
// (of g) by their definitions: the maximum is the first in row-major
// order of the window (the first NaN), the padding never wins and counts
// as zero in the mean, whose divisor is always size².
func refPool(pc poolCase, x, dx, g *arr) (mx, mjvp, mgrad, avg, agrad *arr) {
	h, w := x.shape[2], x.shape[3]
	mx, mjvp, avg = newArr(pc.outShape()...), newArr(pc.outShape()...), newArr(pc.outShape()...)
	mgrad, agrad = newArr(x.shape...), newArr(x.shape...)
	area := float64(pc.size * pc.size)
	forEach(mx.shape, func(idx []int) {
		b, ch, i, j := idx[0], idx[1], idx[2], idx[3]
		ys, xs := poolWindow(pc, h, w, i, j)
		var best []int
		s := 0.0
		for _, y := range ys {
			for _, xx := range xs {
				at := []int{b, ch, y, xx}
				v := x.at(at)
				s += v
				if best == nil || (!math.IsNaN(x.at(best)) && (v > x.at(best) || math.IsNaN(v))) {
					best = at
				}
			}
		}
		mx.set(idx, x.at(best))
		mjvp.set(idx, dx.at(best))
		mgrad.set(best, mgrad.at(best)+g.at(idx))
		avg.set(idx, s/area)
		for _, y := range ys {
			for _, xx := range xs {
				at := []int{b, ch, y, xx}
				agrad.set(at, agrad.at(at)+g.at(idx)/area)
			}
		}
	})
	return mx, mjvp, mgrad, avg, agrad
}

func testPool(t *testing.T, c *ctx) {
	t.Run("MaxPool2D", func(t *testing.T) {
		c.skip(t, "MaxPool2D")
		for ci, pc := range poolCases {
			x := c.randInt(-3, 3, pc.x...) // ties
			if ci == 0 {
				x.v[5], x.v[40] = math.NaN(), math.NaN()
			}
			dx, g := c.rand(-1, 1, pc.x...), c.rand(-1, 1, pc.outShape()...)
			want, wantJVP, wantGrad, _, _ := refPool(pc, x, dx, g)
			for _, l := range []layout{contig, padded, permuted} {
				xt := c.tensor(x, l)
				c.check(t, "MaxPool2D"+pc.name(l), T.MaxPool2D(xt, pc.size, pc.stride, pc.pad), want, exact)
				c.check(t, "MaxPool2DJVP"+pc.name(l), T.MaxPool2DJVP(xt, c.tensor(dx, l), pc.size, pc.stride, pc.pad), wantJVP, exact)
				c.check(t, "MaxPool2DGrad"+pc.name(l), T.MaxPool2DGrad(xt, c.tensor(g, l), pc.size, pc.stride, pc.pad), wantGrad, c.sumTol(pc.covers(), 1))
			}
		}
		x := c.tensor(newArr(2, 3, 5, 5), contig)
		if T.MaxPool2DJVP(x, nil, 2, 2, 0) != nil || T.MaxPool2DGrad(x, nil, 2, 2, 0) != nil {
			t.Errorf("MaxPool2DJVP, MaxPool2DGrad with a nil tangent or adjoint: got non-nil, want nil")
		}
		mustPanic(t, "MaxPool2D nil", func() { T.MaxPool2D(nil, 2, 2, 0) }, "tensorops: MaxPool2D: nil tensor")
		mustPanic(t, "MaxPool2D 3-D", func() { T.MaxPool2D(c.tensor(newArr(3, 5, 5), contig), 2, 2, 0) }, "tensorops: MaxPool2D: shape [3 5 5]")
		mustPanic(t, "MaxPool2D pad", func() { T.MaxPool2D(x, 2, 1, 2) }, "tensorops: MaxPool2D: shape [2 3 5 5]", "pad 2")
		mustPanic(t, "MaxPool2D stride", func() { T.MaxPool2D(x, 2, 0, 0) }, "tensorops: MaxPool2D: shape [2 3 5 5]", "stride 0")
		mustPanic(t, "MaxPool2D window", func() { T.MaxPool2D(x, 8, 1, 1) }, "tensorops: MaxPool2D: shape [2 3 5 5]", "larger than the padded input")
		mustPanic(t, "MaxPool2D empty", func() { T.MaxPool2D(c.tensor(newArr(1, 1, 0, 3), contig), 1, 1, 0) }, "tensorops: MaxPool2D: shape [1 1 0 3]", "empty")
		mustPanic(t, "MaxPool2DGrad shape", func() { T.MaxPool2DGrad(x, c.tensor(newArr(2, 3, 3, 3), contig), 2, 2, 0) },
			"tensorops: MaxPool2DGrad: shapes [2 3 3 3] and [2 3 2 2]")
		mustPanic(t, "MaxPool2DJVP shape", func() { T.MaxPool2DJVP(x, c.tensor(newArr(2, 3, 5, 4), contig), 2, 2, 0) },
			"tensorops: MaxPool2DJVP: shapes [2 3 5 4] and [2 3 5 5]")
	})
	t.Run("AvgPool2D", func(t *testing.T) {
		c.skip(t, "AvgPool2D")
		for _, pc := range poolCases {
			x, g := c.rand(-1, 1, pc.x...), c.rand(-1, 1, pc.outShape()...)
			_, _, _, want, wantGrad := refPool(pc, x, x, g)
			for _, l := range []layout{contig, padded, permuted} {
				xt := c.tensor(x, l)
				c.check(t, "AvgPool2D"+pc.name(l), T.AvgPool2D(xt, pc.size, pc.stride, pc.pad), want, c.sumTol(pc.size*pc.size, 1))
				c.check(t, "AvgPool2DGrad"+pc.name(l), T.AvgPool2DGrad(c.tensor(g, l), xt, pc.size, pc.stride, pc.pad), wantGrad, c.sumTol(pc.covers(), 1))
			}
		}
		x := c.tensor(newArr(2, 3, 5, 5), contig)
		if T.AvgPool2D(nil, 2, 2, 0) != nil || T.AvgPool2DGrad(nil, x, 2, 2, 0) != nil {
			t.Errorf("AvgPool2D, AvgPool2DGrad of nil: got non-nil, want nil")
		}
		mustPanic(t, "AvgPool2D pad", func() { T.AvgPool2D(x, 3, 1, 2) }, "tensorops: AvgPool2D: shape [2 3 5 5]", "pad 2")
		mustPanic(t, "AvgPool2DGrad shape", func() { T.AvgPool2DGrad(c.tensor(newArr(2, 3, 2, 3), contig), x, 2, 2, 0) },
			"tensorops: AvgPool2DGrad: shapes [2 3 2 3] and [2 3 2 2]")
	})
}

// gatherCase gathers along axis of a tensor of shape the indices idx.
type gatherCase struct {
	shape []int
	axis  int
	idx   []int
}

func gatherCases(c *ctx) []gatherCase {
	big := make([]int, 3001)
	for i := range big {
		big[i] = c.rng.IntN(500)
	}
	return []gatherCase{
		{[]int{5, 3}, 0, []int{4, 0, 4, 2}},
		{[]int{2, 5, 3}, 1, []int{1, 1, 3}},
		{[]int{2, 3, 5}, -1, []int{0, 4, 4, 4, 2, 1}},
		{[]int{7}, 0, []int{6, 0}},
		{[]int{4, 3}, 0, []int{}},
		{[]int{3, 0}, 0, []int{2, 2}},
		{[]int{500, 37}, 0, big},
	}
}

// refGather returns Gather(a, axis, idx) and GatherGrad(g, a, axis, idx)
// by their definitions, the scatter-add in increasing k.
func refGather(a, g *arr, axis int, idx []int) (out, grad *arr) {
	ax := normAx(axis, len(a.shape))
	shape := append([]int{}, a.shape...)
	shape[ax] = len(idx)
	out, grad = newArr(shape...), newArr(a.shape...)
	forEach(shape, func(at []int) {
		src := append([]int{}, at...)
		src[ax] = idx[at[ax]]
		out.set(at, a.at(src))
		if g != nil {
			grad.set(src, grad.at(src)+g.at(at))
		}
	})
	return out, grad
}

func testGather(t *testing.T, c *ctx) {
	c.skip(t, "Gather")
	for _, gc := range gatherCases(c) {
		a := c.rand(-1, 1, gc.shape...)
		want, _ := refGather(a, nil, gc.axis, gc.idx)
		g := c.rand(-1, 1, want.shape...)
		_, wantGrad := refGather(a, g, gc.axis, gc.idx)
		for _, l := range layoutsFor(gc.shape) {
			name := fmt.Sprintf("(%s %v, %d, %d indices)", shapeName(gc.shape), l, gc.axis, len(gc.idx))
			at := c.tensor(a, l)
			c.check(t, "Gather"+name, T.Gather(at, gc.axis, gc.idx), want, exact)
			c.check(t, "GatherGrad"+name, T.GatherGrad(c.tensor(g, l), at, gc.axis, gc.idx), wantGrad, c.sumTol(len(gc.idx), 1))
			if len(gc.shape) == 2 && gc.axis == 0 {
				c.check(t, "Embedding"+name, T.Embedding(at, gc.idx), want, exact)
			}
		}
	}
	a := c.tensor(newArr(6, 4), contig)
	if T.Gather(nil, 0, []int{1}) != nil || T.Embedding(nil, []int{1}) != nil || T.GatherGrad(nil, a, 0, []int{1}) != nil {
		t.Errorf("Gather, Embedding, GatherGrad of nil: got non-nil, want nil")
	}
	mustPanic(t, "Gather index", func() { T.Gather(a, 1, []int{0, 4}) }, "tensorops: Gather: shape [6 4]: index 4 (at 1) out of range [0, 4) along axis 1")
	mustPanic(t, "Gather negative index", func() { T.Gather(a, 0, []int{-1}) }, "tensorops: Gather: shape [6 4]: index -1 (at 0)")
	mustPanic(t, "Gather axis", func() { T.Gather(a, 2, []int{0}) }, "tensorops: Gather: axis 2 out of range for shape [6 4]")
	mustPanic(t, "Embedding id", func() { T.Embedding(a, []int{5, 6}) }, "tensorops: Embedding: shape [6 4]: index 6 (at 1) out of range [0, 6)")
	mustPanic(t, "Embedding 1-D", func() { T.Embedding(c.tensor(newArr(6), contig), []int{1}) }, "tensorops: Embedding: shape [6]: want a table [rows d]")
	mustPanic(t, "GatherGrad shape", func() { T.GatherGrad(c.tensor(newArr(3, 4), contig), a, 0, []int{1, 2}) },
		"tensorops: GatherGrad: shapes [3 4] and [2 4]")
}

func testConvDilated(t *testing.T, c *ctx) {
	c.skip(t, "Conv2DDilated")
	cases := []struct {
		x, w             []int
		stride, pad, dil int
	}{
		{[]int{2, 3, 9, 8}, []int{4, 3, 3, 2}, 1, 2, 2},
		{[]int{1, 2, 11, 10}, []int{3, 2, 3, 3}, 2, 1, 3},
		{[]int{2, 1, 7, 7}, []int{2, 1, 2, 2}, 1, 0, 1},
		{[]int{1, 3, 6, 9}, []int{2, 3, 2, 4}, 2, 0, 2},
	}
	for _, cc := range cases {
		x, w := c.rand(-1, 1, cc.x...), c.rand(-1, 1, cc.w...)
		want := refConv2D(x, w, cc.stride, cc.pad, cc.dil)
		g := c.rand(-1, 1, want.shape...)
		wantX, wantW := refConv2DGrads(g, x, w, cc.stride, cc.pad, cc.dil)
		k := cc.w[1] * cc.w[2] * cc.w[3]
		for _, l := range []layout{contig, padded, permuted} {
			name := fmt.Sprintf("(%s, %s, stride %d, pad %d, dilation %d; %v)", shapeName(cc.x), shapeName(cc.w), cc.stride, cc.pad, cc.dil, l)
			xt, wt, gt := c.tensor(x, l), c.tensor(w, l), c.tensor(g, l)
			c.check(t, "Conv2DDilated"+name, T.Conv2DDilated(xt, wt, cc.stride, cc.pad, cc.dil), want, c.sumTol(k, 1))
			c.check(t, "Conv2DDilatedGradX"+name, T.Conv2DDilatedGradX(gt, xt, wt, cc.stride, cc.pad, cc.dil), wantX, c.sumTol(numel(want.shape), 1))
			c.check(t, "Conv2DDilatedGradW"+name, T.Conv2DDilatedGradW(gt, xt, wt, cc.stride, cc.pad, cc.dil), wantW, c.sumTol(numel(want.shape), 1))
		}
	}
	x, w := c.tensor(newArr(1, 3, 5, 5), contig), c.tensor(newArr(2, 3, 3, 3), contig)
	g := c.tensor(newArr(1, 2, 1, 1), contig)
	for _, h := range []struct {
		name string
		got  *T.Tensor
	}{
		{"Conv2DDilated(nil, w)", T.Conv2DDilated(nil, w, 1, 0, 2)},
		{"Conv2DDilated(x, nil)", T.Conv2DDilated(x, nil, 1, 0, 2)},
		{"Conv2DDilatedGradX(nil, x, w)", T.Conv2DDilatedGradX(nil, x, w, 1, 0, 2)},
		{"Conv2DDilatedGradX(g, x, nil)", T.Conv2DDilatedGradX(g, x, nil, 1, 0, 2)},
		{"Conv2DDilatedGradW(nil, x, w)", T.Conv2DDilatedGradW(nil, x, w, 1, 0, 2)},
		{"Conv2DDilatedGradW(g, nil, w)", T.Conv2DDilatedGradW(g, nil, w, 1, 0, 2)},
	} {
		if h.got != nil {
			t.Errorf("%s: got %v, want nil", h.name, h.got)
		}
	}
	mustPanic(t, "Conv2DDilated dilation", func() { T.Conv2DDilated(x, w, 1, 0, 0) }, "tensorops: Conv2DDilated: shapes [1 3 5 5] and [2 3 3 3]", "dilation 0")
	mustPanic(t, "Conv2DDilated kernel", func() { T.Conv2DDilated(x, w, 1, 0, 3) }, "tensorops: Conv2DDilated: shapes [1 3 5 5] and [2 3 3 3]", "larger than the padded input")
	mustPanic(t, "Conv2DDilatedGradX shape", func() { T.Conv2DDilatedGradX(c.tensor(newArr(1, 2, 3, 3), contig), x, w, 1, 0, 2) },
		"tensorops: Conv2DDilatedGradX: shapes [1 2 3 3] and [1 2 1 1]", "Conv2DDilated's result shape")
}

// The exact GELU, SiLU and their derivatives by their definitions: Φ by
// the error function, σ as 1/(1 + e^−x).
func refPhi(x float64) float64     { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }
func refSigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func refGELUGrad(x float64) float64 {
	return refPhi(x) + x*math.Exp(-x*x/2)/math.Sqrt(2*math.Pi)
}

func refSiLUGrad(x float64) float64 { return refSigmoid(x) * (1 + x*(1-refSigmoid(x))) }

func testActivationGrads(t *testing.T, c *ctx) {
	for _, ac := range []struct {
		name string
		f    func(x, dx *T.Tensor) *T.Tensor
		ref  func(float64) float64
	}{
		{"GELUJVP", T.GELUJVP, refGELUGrad},
		{"SiLUJVP", T.SiLUJVP, refSiLUGrad},
	} {
		t.Run(ac.name, func(t *testing.T) {
			c.skip(t, ac.name)
			for _, shape := range [][]int{{}, {7}, {3, 5}, {2, 0}, bigShape} {
				x, dx := c.rand(-7, 7, shape...), c.rand(-2, 2, shape...)
				want := refBinary(x, dx, func(x, d float64) float64 { return c.round(d * ac.ref(x)) })
				for _, l := range layoutsFor(shape) {
					name := fmt.Sprintf("%s(%s %v)", ac.name, shapeName(shape), l)
					c.check(t, name, ac.f(c.tensor(x, l), c.tensor(dx, l)), want, c.tl(math64, math32))
				}
			}
			x := c.tensor(newArr(3, 5), contig)
			if ac.f(x, nil) != nil {
				t.Errorf("%s(x, nil): got non-nil, want nil", ac.name)
			}
			mustPanic(t, ac.name+" shapes", func() { ac.f(x, c.tensor(newArr(5), contig)) }, "tensorops: "+ac.name+": shapes [3 5] and [5] differ")
		})
	}
	t.Run("Softplus/stable", func(t *testing.T) {
		c.skip(t, "Softplus")
		x := &arr{shape: []int{5}, v: []float64{800, -800, 40, -40, 0}}
		want := &arr{shape: []int{5}, v: []float64{800, 0, 40, c.round(math.Exp(-40)), c.round(math.Ln2)}}
		c.check(t, "Softplus(large)", T.Softplus(c.tensor(x, contig)), want, c.tl(math64, math32))
	})
}
