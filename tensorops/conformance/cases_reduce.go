package conformance

import (
	"fmt"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

type axisCase struct {
	shape []int
	axis  int
}

// reduceCases are shapes and axes of the reductions; the last two are above
// the parallel threshold, one reducing rows and one columns.
var reduceCases = []axisCase{
	{[]int{7}, 0},
	{[]int{3, 5}, 0},
	{[]int{3, 5}, 1},
	{[]int{3, 5}, -1},
	{[]int{2, 3, 4}, 0},
	{[]int{2, 3, 4}, 1},
	{[]int{2, 3, 4}, 2},
	{[]int{2, 3, 4}, -2},
	{[]int{4, 1, 6}, 1},
	{[]int{1, 5}, 0},
	{[]int{0, 3}, 1},
	{[]int{9001, 5}, 1},
	{[]int{5, 9001}, 0},
	{[]int{3, 7001, 2}, 1},
}

func testReduce(t *testing.T, c *ctx) {
	ops := []struct {
		name string
		f    func(*T.Tensor, int) *T.Tensor
		ref  func([]float64) float64
		ints bool
	}{
		{"Sum", T.Sum, fsum, false},
		{"Mean", T.Mean, fmean, false},
		{"Max", T.Max, fmax, false},
		{"Max", T.Max, fmax, true},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			c.skip(t, op.name)
			for _, rc := range reduceCases {
				if op.name == "Max" && numel(rc.shape) == 0 {
					continue
				}
				a := c.rand(-2, 2, rc.shape...)
				if op.ints {
					a = c.randInt(-2, 2, rc.shape...)
				}
				ax := normAx(rc.axis, len(rc.shape))
				want := refReduce(a, rc.axis, op.ref)
				tl := c.sumTol(rc.shape[ax], 2)
				for _, l := range layoutsFor(rc.shape) {
					name := fmt.Sprintf("%s(%s %v, %d)", op.name, shapeName(rc.shape), l, rc.axis)
					c.check(t, name, op.f(c.tensor(a, l), rc.axis), want, tl)
				}
			}
			x := c.tensor(newArr(3, 5), contig)
			mustPanic(t, op.name+" axis", func() { op.f(x, 2) }, "tensorops: "+op.name+": axis 2 out of range for shape [3 5]")
			mustPanic(t, op.name+" axis", func() { op.f(x, -3) }, "tensorops: "+op.name+": axis -3 out of range for shape [3 5]")
		})
	}
	t.Run("Max/empty", func(t *testing.T) {
		mustPanic(t, "Max empty", func() { T.Max(c.tensor(newArr(0, 3), contig), 0) }, "tensorops: Max: axis 0 of shape [0 3] is empty")
		mustPanic(t, "MaxAll empty", func() { T.MaxAll(c.tensor(newArr(2, 0), contig)) }, "tensorops: MaxAll: shape [2 0] is empty")
	})
	t.Run("ArgMax", func(t *testing.T) {
		c.skip(t, "ArgMax")
		for _, rc := range reduceCases {
			if numel(rc.shape) == 0 {
				continue
			}
			a := c.randInt(-3, 3, rc.shape...) // ties: the first maximum wins
			ax := normAx(rc.axis, len(rc.shape))
			want := refReduce(a, rc.axis, func(v []float64) float64 { return float64(fargmax(v)) })
			for _, l := range []layout{contig, permuted} {
				got := T.ArgMax(c.tensor(a, l), rc.axis)
				if len(got) != len(want.v) {
					t.Errorf("ArgMax(%s, %d): got %d indices, want %d", shapeName(rc.shape), rc.axis, len(got), len(want.v))
					continue
				}
				for i := range got {
					if float64(got[i]) != want.v[i] {
						t.Errorf("ArgMax(%s %v, %d) [%d]: got %d, want %v", shapeName(rc.shape), l, ax, i, got[i], want.v[i])
						break
					}
				}
			}
		}
	})
	t.Run("All", func(t *testing.T) {
		c.skip(t, "SumAll")
		for _, shape := range [][]int{{}, {1}, {7}, {3, 5}, {2, 3, 4}, {0, 4}, {100003}, {313, 317}} {
			a := c.rand(-2, 2, shape...)
			n := numel(shape)
			for _, l := range layoutsFor(shape) {
				x := c.tensor(a, l)
				name := fmt.Sprintf("(%s %v)", shapeName(shape), l)
				c.checkScalar(t, "SumAll"+name, T.SumAll(x), fsum(a.v), c.sumTol(n, 2))
				c.checkScalar(t, "MeanAll"+name, T.MeanAll(x), fsum(a.v)/float64(n), c.sumTol(n, 2))
				if n > 0 {
					c.checkScalar(t, "MaxAll"+name, T.MaxAll(x), fmax(a.v), exact)
				}
			}
		}
	})
}

func testSumLike(t *testing.T, c *ctx) {
	c.skip(t, "SumLike")
	pairs := [][2][]int{
		{{3, 4}, {4}},
		{{3, 4}, {1, 4}},
		{{3, 4}, {3, 1}},
		{{2, 3, 4}, {3, 1}},
		{{2, 3, 4}, {}},
		{{2, 3, 4}, {1, 1, 1}},
		{{2, 3, 4}, {2, 1, 4}},
		{{5, 1, 4}, {1, 4}},
		{bigShape, {131}},
		{bigShape, {301, 1}},
	}
	for _, p := range pairs {
		g := c.rand(-1, 1, p[0]...)
		like := c.tensor(newArr(p[1]...), contig)
		want := refSumTo(g, p[1])
		n := numel(p[0]) / max(numel(p[1]), 1)
		for _, l := range layoutsFor(p[0]) {
			name := fmt.Sprintf("SumLike(%s %v, %s)", shapeName(p[0]), l, shapeName(p[1]))
			c.check(t, name, T.SumLike(c.tensor(g, l), like), want, c.sumTol(n, 1))
		}
		// SumLikeFull(w, v, like) is SumLike(FullLike(w, v), like).
		w := c.tensor(newArr(p[0]...), contig)
		fw := newArr(p[0]...)
		for i := range fw.v {
			fw.v[i] = c.round(-0.75)
		}
		name := fmt.Sprintf("SumLikeFull(%s, -0.75, %s)", shapeName(p[0]), shapeName(p[1]))
		c.check(t, name, T.SumLikeFull(w, -0.75, like), refSumTo(fw, p[1]), c.sumTol(n, 1))
	}
	if T.SumLikeFull(c.tensor(newArr(3, 4), contig), 2, nil) != nil {
		t.Errorf("SumLikeFull(w, 2, nil): got non-nil, want nil (the adjoint of a nil operand)")
	}
	g := c.tensor(c.rand(-1, 1, 3, 4), padded)
	if got := T.SumLike(g, c.tensor(newArr(3, 4), contig)); got != g {
		t.Errorf("SumLike of equal shapes: got a new tensor, want g itself")
	}
	mustPanic(t, "SumLike shapes", func() { T.SumLike(g, c.tensor(newArr(5), contig)) }, "tensorops: SumLike: shapes [3 4] and [5]")
	mustPanic(t, "SumLike shapes", func() { T.SumLike(g, c.tensor(newArr(2, 3, 4), contig)) }, "tensorops: SumLike: shapes [3 4] and [2 3 4]")
}

// testMaxGrad checks the derivative helpers of Max, MaxAll and Mean.
func testMaxGrad(t *testing.T, c *ctx) {
	c.skip(t, "MaxGrad")
	for _, rc := range reduceCases {
		if numel(rc.shape) == 0 || numel(rc.shape) > 10000 {
			continue
		}
		a := c.randInt(-2, 2, rc.shape...) // ties
		ax := normAx(rc.axis, len(rc.shape))
		arg := refReduce(a, rc.axis, func(v []float64) float64 { return float64(fargmax(v)) })
		g := c.rand(-1, 1, dropAxis(rc.shape, ax)...)
		da := c.rand(-1, 1, rc.shape...)
		wantGrad := newArr(rc.shape...)
		wantJVP := newArr(g.shape...)
		forEach(g.shape, func(idx []int) {
			full := insertAxis(idx, ax, int(arg.at(idx)))
			wantGrad.set(full, g.at(idx))
			wantJVP.set(idx, da.at(full))
		})
		for _, l := range []layout{contig, permuted} {
			name := fmt.Sprintf("(%s %v, %d)", shapeName(rc.shape), l, rc.axis)
			x := c.tensor(a, l)
			c.check(t, "MaxGrad"+name, T.MaxGrad(x, c.tensor(g, l), rc.axis), wantGrad, exact)
			c.check(t, "MaxJVP"+name, T.MaxJVP(x, c.tensor(da, l), rc.axis), wantJVP, exact)
			// Mean's adjoint and ExpandAxis, the adjoint of Sum.
			n := float64(rc.shape[ax])
			wantMean := newArr(rc.shape...)
			wantExp := newArr(rc.shape...)
			forEach(rc.shape, func(idx []int) {
				v := g.at(dropAxis(idx, ax))
				wantExp.set(idx, v)
				wantMean.set(idx, c.round(c.round(v)*c.round(1/n)))
			})
			c.check(t, "ExpandAxis"+name, T.ExpandAxis(c.tensor(g, l), x, rc.axis), wantExp, exact)
			c.check(t, "MeanGrad"+name, T.MeanGrad(c.tensor(g, l), x, rc.axis), wantMean, c.tl(tight64, tight32))
		}
	}
	for _, shape := range [][]int{{}, {7}, {3, 5}, {2, 3, 4}} {
		a := c.randInt(-2, 2, shape...)
		arg := fargmax(a.v)
		da := c.rand(-1, 1, shape...)
		want := newArr(shape...)
		want.v[arg] = c.round(1.5)
		for _, l := range []layout{contig, permuted} {
			x := c.tensor(a, l)
			name := fmt.Sprintf("(%s %v)", shapeName(shape), l)
			c.check(t, "MaxAllGrad"+name, T.MaxAllGrad(x, 1.5), want, exact)
			c.checkScalar(t, "MaxAllJVP"+name, T.MaxAllJVP(x, c.tensor(da, l)), da.v[arg], exact)
			mg := newArr(shape...)
			for i := range mg.v {
				mg.v[i] = c.round(2.5 / float64(numel(shape)))
			}
			c.check(t, "MeanAllGrad"+name, T.MeanAllGrad(x, 2.5), mg, c.tl(tight64, tight32))
		}
	}
	x := c.tensor(newArr(3, 5), contig)
	mustPanic(t, "MaxGrad shapes", func() { T.MaxGrad(x, c.tensor(newArr(3), contig), 0) }, "tensorops: MaxGrad: shapes [3] and [5]")
	mustPanic(t, "ExpandAxis shapes", func() { T.ExpandAxis(c.tensor(newArr(3), contig), x, 0) }, "tensorops: ExpandAxis: shapes [3] and [5]")
	mustPanic(t, "MaxJVP shapes", func() { T.MaxJVP(x, c.tensor(newArr(5, 3), contig), 0) }, "tensorops: MaxJVP: shapes [5 3] and [3 5]")
}
