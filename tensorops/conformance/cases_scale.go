package conformance

import (
	"fmt"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// refDiag returns the square matrix with v on its diagonal.
func refDiag(v *arr) *arr {
	n := v.shape[0]
	d := newArr(n, n)
	for i := range n {
		d.set([]int{i, i}, v.v[i])
	}
	return d
}

// testScale checks the forms of the optimizer's rewrites: ScaleRows and
// ScaleCols against the products by the diagonal matrix (by the
// definition), ScaleRowsGradV against the adjoint of that product,
// Repeats, and SliceBroadcast and its adjoint against slices of the
// broadcast operand.
func testScale(t *testing.T, c *ctx) {
	t.Run("ScaleRows", func(t *testing.T) { testScaleScaleRows(t, c) })
	t.Run("ScaleCols", func(t *testing.T) { testScaleScaleCols(t, c) })
	t.Run("Repeats", func(t *testing.T) { testScaleRepeats(t, c) })
	t.Run("SliceBroadcast", func(t *testing.T) { testScaleSliceBroadcast(t, c) })
	t.Run("SliceLike", func(t *testing.T) { testScaleSliceLike(t, c) })
}

// testScaleScaleRows runs testScale's ScaleRows cases.
func testScaleScaleRows(t *testing.T, c *ctx) {
	c.skip(t, "ScaleRows")
	for _, shape := range [][]int{{4}, {4, 3}, {1, 5}, {2, 4, 3}, {2, 1, 4, 6}, {4, 0}, {0}, {0, 3}} {
		ax := max(len(shape)-2, 0)
		n := shape[ax]
		v, a, g := c.rand(-1, 1, n), c.rand(-1, 1, shape...), c.rand(-1, 1, shape...)
		want := refMatMul(refDiag(v), a, false, false)
		// The adjoint in v of Diag(v)·a: Σ g⊙a over all axes but a's rows.
		wantV := newArr(n)
		forEach(shape, func(idx []int) { wantV.v[idx[ax]] += g.at(idx) * a.at(idx) })
		for _, l := range layoutsFor(shape) {
			name := fmt.Sprintf("ScaleRows(%d, %s %v)", n, shapeName(shape), l)
			c.check(t, name, T.ScaleRows(c.tensor(v, l), c.tensor(a, l)), want, c.tl(exact, tight32))
			c.check(t, "ScaleRowsGradV of "+name, T.ScaleRowsGradV(c.tensor(g, l), c.tensor(a, l)), wantV,
				c.sumTol(numel(shape)/max(n, 1), 1))
		}
	}
	v, m := c.tensor(newArr(3), contig), c.tensor(newArr(3, 2), contig)
	mustPanic(t, "ScaleRows 2-D v", func() { T.ScaleRows(m, nil) }, "tensorops: ScaleRows: shape [3 2] is not 1-D")
	mustPanic(t, "ScaleRows rows", func() { T.ScaleRows(v, c.tensor(newArr(2, 3), contig)) }, "tensorops: ScaleRows: shapes [3] and [2 3]")
	mustPanic(t, "ScaleRows 1-D", func() { T.ScaleRows(v, c.tensor(newArr(2), contig)) }, "tensorops: ScaleRows: shapes [3] and [2]")
	mustPanic(t, "ScaleRows 0-D", func() { T.ScaleRows(v, c.tensor(newArr(), contig)) }, "tensorops: ScaleRows: shape []")
	other := T.New(T.Float64, 3, 2)
	if c.dt == T.Float64 {
		other = T.New(T.Float32, 3, 2)
	}
	mustPanic(t, "ScaleRows dtypes", func() { T.ScaleRows(v, c.in(other)) }, "tensorops: ScaleRows:", "dtypes")
	mustPanic(t, "ScaleRowsGradV shapes", func() { T.ScaleRowsGradV(m, c.tensor(newArr(2, 3), contig)) }, "tensorops: ScaleRowsGradV: shapes [3 2] and [2 3] differ")
	if T.ScaleRows(nil, m) != nil || T.ScaleRows(v, nil) != nil || T.ScaleRowsGradV(nil, m) != nil || T.ScaleRowsGradV(m, nil) != nil {
		t.Errorf("ScaleRows, ScaleRowsGradV: a nil operand gives a non-nil result")
	}
}

// testScaleScaleCols runs testScale's ScaleCols cases.
func testScaleScaleCols(t *testing.T, c *ctx) {
	c.skip(t, "ScaleCols")
	for _, shape := range [][]int{{4}, {3, 4}, {5, 1}, {2, 3, 4}, {2, 1, 6, 4}, {0, 4}, {0}} {
		n := shape[len(shape)-1]
		v, a := c.rand(-1, 1, n), c.rand(-1, 1, shape...)
		want := refMatMul(a, refDiag(v), false, false)
		for _, l := range layoutsFor(shape) {
			c.check(t, fmt.Sprintf("ScaleCols(%s %v, %d)", shapeName(shape), l, n), T.ScaleCols(c.tensor(a, l), c.tensor(v, l)), want, c.tl(exact, tight32))
		}
	}
	v, m := c.tensor(newArr(3), contig), c.tensor(newArr(3, 2), contig)
	mustPanic(t, "ScaleCols 2-D v", func() { T.ScaleCols(nil, m) }, "tensorops: ScaleCols: shape [3 2] is not 1-D")
	mustPanic(t, "ScaleCols columns", func() { T.ScaleCols(m, v) }, "tensorops: ScaleCols: shapes [3 2] and [3] do not match")
	mustPanic(t, "ScaleCols broadcast", func() { T.ScaleCols(c.tensor(newArr(2, 1), contig), v) }, "tensorops: ScaleCols: shapes [2 1] and [3] do not match")
	mustPanic(t, "ScaleCols 0-D", func() { T.ScaleCols(c.tensor(newArr(), contig), v) }, "tensorops: ScaleCols: shapes [] and [3]")
	if T.ScaleCols(nil, v) != nil || T.ScaleCols(m, nil) != nil {
		t.Errorf("ScaleCols: a nil operand gives a non-nil result")
	}
}

// testScaleRepeats runs testScale's Repeats cases.
func testScaleRepeats(t *testing.T, c *ctx) {
	c.skip(t, "Repeats")
	for _, tc := range []struct {
		a, like []int
		want    float64
	}{
		{[]int{3}, []int{2, 3}, 2},
		{[]int{2, 1}, []int{4, 2, 5}, 20},
		{[]int{2, 3}, []int{2, 3}, 1},
		{[]int{}, []int{3, 4}, 12},
		{[]int{1}, []int{0}, 0},
		{[]int{0}, []int{2, 0}, 1},
	} {
		a, like := c.tensor(newArr(tc.a...), contig), c.tensor(newArr(tc.like...), contig)
		c.checkScalar(t, fmt.Sprintf("Repeats(%v, %v)", tc.a, tc.like), T.Repeats(a, like), tc.want, exact)
		c.checkScalar(t, fmt.Sprintf("RepeatsShape(%v, %v)", tc.a, tc.like), T.RepeatsShape(a, tc.like...), tc.want, exact)
	}
	c.checkScalar(t, "Repeats(nil, nil)", T.Repeats(nil, nil), 1, exact)
	c.checkScalar(t, "RepeatsShape(nil, -1)", T.RepeatsShape(nil, -1), 1, exact)
	x := c.tensor(newArr(2, 3), contig)
	mustPanic(t, "Repeats shapes", func() { T.Repeats(x, c.tensor(newArr(3, 2), contig)) }, "tensorops: Repeats: shapes [2 3] and [3 2]")
	mustPanic(t, "Repeats nil like", func() { T.Repeats(x, nil) }, "tensorops: Repeats: nil tensor")
	mustPanic(t, "RepeatsShape shapes", func() { T.RepeatsShape(x, 3) }, "tensorops: RepeatsShape: shapes [2 3] and [3]")
}

// testScaleSliceBroadcast runs testScale's SliceBroadcast cases.
func testScaleSliceBroadcast(t *testing.T, c *ctx) {
	c.skip(t, "SliceBroadcast")
	for _, tc := range []struct {
		a, other     []int
		axis, lo, hi int
		wantAxis     int // a's axis sliced, −1 for none
	}{
		{a: []int{3, 5}, other: []int{3, 5}, axis: 1, lo: 1, hi: 4, wantAxis: 1},
		{a: []int{5}, other: []int{3, 5}, axis: 1, lo: 0, hi: 2, wantAxis: 0},
		{a: []int{5}, other: []int{3, 5}, axis: 0, lo: 1, hi: 3, wantAxis: -1},
		{a: []int{3, 5}, other: []int{5}, axis: 0, lo: 1, hi: 3, wantAxis: 0},
		{a: []int{3, 1}, other: []int{2, 3, 5}, axis: -1, lo: 2, hi: 5, wantAxis: -1},
		{a: []int{3, 1}, other: []int{2, 1, 5}, axis: 1, lo: 0, hi: 2, wantAxis: 0},
		{a: []int{2, 1}, other: []int{1}, axis: 1, lo: 1, hi: 1, wantAxis: 1},
		{a: []int{}, other: []int{4}, axis: 0, lo: 1, hi: 2, wantAxis: -1},
		{a: []int{4}, other: []int{4}, axis: 0, lo: 2, hi: 2, wantAxis: 0},
	} {
		a := c.rand(-1, 1, tc.a...)
		other := c.tensor(newArr(tc.other...), contig)
		want, wantShape := a, tc.a
		if tc.wantAxis >= 0 {
			wantShape = append([]int{}, tc.a...)
			wantShape[tc.wantAxis] = tc.hi - tc.lo
			want = newArr(wantShape...)
			forEach(wantShape, func(idx []int) {
				src := append([]int{}, idx...)
				src[tc.wantAxis] += tc.lo
				want.set(idx, a.at(src))
			})
		}
		// The adjoint places g back: zeros outside [lo, hi).
		g := c.rand(-1, 1, wantShape...)
		wantG := g
		if tc.wantAxis >= 0 {
			wantG = newArr(tc.a...)
			forEach(wantShape, func(idx []int) {
				dst := append([]int{}, idx...)
				dst[tc.wantAxis] += tc.lo
				wantG.set(dst, g.at(idx))
			})
		}
		for _, l := range layoutsFor(tc.a) {
			name := fmt.Sprintf("SliceBroadcast(%s %v, %v, %d, %d, %d)", shapeName(tc.a), l, tc.other, tc.axis, tc.lo, tc.hi)
			c.check(t, name, T.SliceBroadcast(c.tensor(a, l), other, tc.axis, tc.lo, tc.hi), want, exact)
			c.check(t, "SliceBroadcastGrad of "+name,
				T.SliceBroadcastGrad(c.tensor(g, l), c.tensor(a, l), other, tc.axis, tc.lo, tc.hi), wantG, exact)
		}
	}
	x, other := c.tensor(newArr(2, 3), contig), c.tensor(newArr(4, 2, 3), contig)
	mustPanic(t, "SliceBroadcast shapes", func() { T.SliceBroadcast(x, c.tensor(newArr(3, 2), contig), 0, 0, 1) }, "tensorops: SliceBroadcast: shapes [2 3] and [3 2] do not broadcast")
	mustPanic(t, "SliceBroadcast axis", func() { T.SliceBroadcast(x, other, 3, 0, 1) }, "tensorops: SliceBroadcast: axis 3 out of range for shape [4 2 3]")
	mustPanic(t, "SliceBroadcast range", func() { T.SliceBroadcast(x, other, 0, 2, 5) }, "tensorops: SliceBroadcast: [2:5] out of range along axis 0 of shape [4 2 3]")
	mustPanic(t, "SliceBroadcastGrad g", func() { T.SliceBroadcastGrad(x, x, other, 2, 0, 2) }, "tensorops: SliceBroadcastGrad: shapes [2 3] and [2 2]")
	if T.SliceBroadcast(nil, other, 0, 0, 1) != nil || T.SliceBroadcastGrad(nil, x, other, 0, 0, 1) != nil {
		t.Errorf("SliceBroadcast, SliceBroadcastGrad: a nil operand gives a non-nil result")
	}
	// A nil other has a's shape: a is sliced.
	a := c.rand(-1, 1, 2, 3)
	want := newArr(2, 2)
	forEach(want.shape, func(idx []int) { want.set(idx, a.at([]int{idx[0], idx[1] + 1})) })
	c.check(t, "SliceBroadcast(a, nil, …)", T.SliceBroadcast(c.tensor(a, contig), nil, 1, 1, 3), want, exact)
	back := newArr(2, 3)
	forEach(want.shape, func(idx []int) { back.set([]int{idx[0], idx[1] + 1}, want.at(idx)) })
	c.check(t, "SliceBroadcastGrad(g, a, nil, …)", T.SliceBroadcastGrad(c.tensor(want, contig), x, nil, 1, 1, 3), back, exact)
}

// testScaleSliceLike runs testScale's SliceLike cases.
func testScaleSliceLike(t *testing.T, c *ctx) {
	c.skip(t, "SliceLike")
	for _, tc := range []struct {
		y, like  []int
		axis, lo int
	}{
		{[]int{3, 7}, []int{3, 4}, 1, 2},
		{[]int{6, 2}, []int{3, 2}, 0, 3},
		{[]int{2, 5, 3}, []int{2, 2, 3}, -2, 0},
		{[]int{4}, []int{0}, 0, 4},
	} {
		y := c.rand(-1, 1, tc.y...)
		ax := normAx(tc.axis, len(tc.y))
		want := newArr(tc.like...)
		forEach(tc.like, func(idx []int) {
			src := append([]int{}, idx...)
			src[ax] += tc.lo
			want.set(idx, y.at(src))
		})
		like := c.tensor(newArr(tc.like...), contig)
		for _, l := range layoutsFor(tc.y) {
			c.check(t, fmt.Sprintf("SliceLike(%s %v, %v, %d, %d)", shapeName(tc.y), l, tc.like, tc.axis, tc.lo),
				T.SliceLike(c.tensor(y, l), like, tc.axis, tc.lo), want, exact)
		}
	}
	y := c.tensor(newArr(3, 4), contig)
	mustPanic(t, "SliceLike fit", func() { T.SliceLike(y, c.tensor(newArr(3, 3), contig), 1, 2) }, "tensorops: SliceLike: shapes [3 4] and [3 3]")
	mustPanic(t, "SliceLike outside axis", func() { T.SliceLike(y, c.tensor(newArr(2, 1), contig), 1, 0) }, "tensorops: SliceLike: shapes [3 4] and [2 1]")
	mustPanic(t, "SliceLike axis", func() { T.SliceLike(y, y, 2, 0) }, "tensorops: SliceLike: axis 2 out of range")
	if T.SliceLike(nil, y, 0, 0) != nil || T.SliceLike(y, nil, 0, 0) != nil {
		t.Errorf("SliceLike: a nil operand gives a non-nil result")
	}
}
