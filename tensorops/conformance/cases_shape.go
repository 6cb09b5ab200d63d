package conformance

import (
	"fmt"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

func testShape(t *testing.T, c *ctx) {
	t.Run("Transpose", func(t *testing.T) { testShapeTranspose(t, c) })
	t.Run("Reshape", func(t *testing.T) { testShapeReshape(t, c) })
	t.Run("Squeeze", func(t *testing.T) { testShapeSqueeze(t, c) })
	t.Run("Slice", func(t *testing.T) { testShapeSlice(t, c) })
	t.Run("Concat", func(t *testing.T) { testShapeConcat(t, c) })
	t.Run("Broadcast", func(t *testing.T) { testShapeBroadcast(t, c) })
	t.Run("Diag", func(t *testing.T) { testShapeDiag(t, c) })
	t.Run("Dim", func(t *testing.T) { testShapeDim(t, c) })
}

// testShapeTranspose runs testShape's Transpose cases.
func testShapeTranspose(t *testing.T, c *ctx) {
	c.skip(t, "Transpose")
	cases := []struct {
		shape, perm []int
	}{
		{[]int{3, 5}, nil},
		{[]int{7}, nil},
		{[]int{}, nil},
		{[]int{2, 3, 4}, []int{1, 0, 2}},
		{[]int{2, 3, 4}, []int{2, 0, 1}},
		{[]int{2, 3, 4}, nil},
		{[]int{2, 1, 4, 3}, []int{3, 1, 0, 2}},
		{[]int{3, 40, 50}, []int{0, 2, 1}},
		{[]int{40, 3, 50}, []int{2, 1, 0}},
		{[]int{17, 33}, nil},
		{bigShape, nil},
	}
	for _, tc := range cases {
		a := c.rand(-1, 1, tc.shape...)
		want := refTranspose(a, tc.perm)
		for _, l := range layoutsFor(tc.shape) {
			name := fmt.Sprintf("Transpose(%s %v, %v)", shapeName(tc.shape), l, tc.perm)
			x := c.tensor(a, l)
			got := T.Transpose(x, tc.perm...)
			c.check(t, name, got, want, exact)
			c.check(t, "TransposeBack of "+name, T.TransposeBack(c.tensor(want, l), tc.perm...), a, exact)
		}
	}
	x := c.tensor(newArr(2, 3), contig)
	mustPanic(t, "Transpose perm", func() { T.Transpose(x, 0, 0) }, "tensorops: Transpose: perm [0 0]", "[2 3]")
	mustPanic(t, "Transpose perm", func() { T.Transpose(x, 1) }, "tensorops: Transpose: perm [1]")
	mustPanic(t, "TransposeBack perm", func() { T.TransposeBack(x, 2, 0) }, "tensorops: TransposeBack: perm [2 0]")
}

// testShapeReshape runs testShape's Reshape cases.
func testShapeReshape(t *testing.T, c *ctx) {
	c.skip(t, "Reshape")
	cases := []struct{ from, to, want []int }{
		{[]int{2, 3, 4}, []int{6, -1}, []int{6, 4}},
		{[]int{6}, []int{2, 3}, []int{2, 3}},
		{[]int{2, 3}, []int{-1}, []int{6}},
		{[]int{1}, []int{}, []int{}},
		{[]int{}, []int{1, 1}, []int{1, 1}},
		{[]int{0, 3}, []int{3, 0}, []int{3, 0}},
	}
	for _, tc := range cases {
		a := c.rand(-1, 1, tc.from...)
		want := &arr{shape: tc.want, v: a.v}
		for _, l := range allLayouts {
			name := fmt.Sprintf("Reshape(%s %v, %v)", shapeName(tc.from), l, tc.to)
			c.check(t, name, T.Reshape(c.tensor(a, l), tc.to...), want, exact)
			c.check(t, "ReshapeLike"+name, T.ReshapeLike(c.tensor(a, l), c.tensor(newArr(tc.want...), contig)), want, exact)
		}
	}
	x := c.tensor(newArr(2, 3), contig)
	mustPanic(t, "Reshape sizes", func() { T.Reshape(x, 4, 5) }, "tensorops: Reshape: shapes [2 3] and [4 5]")
	mustPanic(t, "Reshape -1", func() { T.Reshape(x, 4, -1) }, "tensorops: Reshape: shapes [2 3] and [4 -1]")
	mustPanic(t, "ReshapeLike sizes", func() { T.ReshapeLike(x, c.tensor(newArr(4, 5), contig)) }, "tensorops: ReshapeLike: shapes [2 3] and [4 5]")
}

// testShapeSqueeze runs testShape's Squeeze cases.
func testShapeSqueeze(t *testing.T, c *ctx) {
	c.skip(t, "Squeeze")
	a := c.rand(-1, 1, 3, 4)
	for _, l := range allLayouts {
		x := c.tensor(a, l)
		for _, tc := range []struct {
			axis  int
			shape []int
		}{{0, []int{1, 3, 4}}, {1, []int{3, 1, 4}}, {2, []int{3, 4, 1}}, {-1, []int{3, 4, 1}}, {-2, []int{3, 1, 4}}, {-3, []int{1, 3, 4}}} {
			u := T.Unsqueeze(x, tc.axis)
			want := &arr{shape: tc.shape, v: a.v}
			c.check(t, fmt.Sprintf("Unsqueeze(%v, %d)", l, tc.axis), u, want, exact)
			ax := normAx(tc.axis, 3)
			c.check(t, fmt.Sprintf("Squeeze(Unsqueeze(%v, %d))", l, tc.axis), T.Squeeze(u, ax), a, exact)
			c.check(t, fmt.Sprintf("Add(Unsqueeze(%v, %d), 1)", l, tc.axis), T.AddScalar(u, 1), refUnary(want, func(x float64) float64 { return c.round(x + 1) }), exact)
		}
		mustPanic(t, "Squeeze size", func() { T.Squeeze(x, 0) }, "tensorops: Squeeze: axis 0 of shape [3 4] has size 3")
		mustPanic(t, "Unsqueeze axis", func() { T.Unsqueeze(x, 3) }, "tensorops: Unsqueeze: axis 3 out of range for shape [3 4]")
	}
}

// testShapeSlice runs testShape's Slice cases.
func testShapeSlice(t *testing.T, c *ctx) {
	c.skip(t, "Slice")
	cases := []struct {
		shape          []int
		axis, lo, hi   int
		before, after_ int
	}{
		{[]int{5, 7}, 1, 2, 5, 2, 1},
		{[]int{5, 7}, 0, 0, 5, 0, 3},
		{[]int{5, 7}, -1, 6, 7, 1, 0},
		{[]int{5, 7}, 0, 2, 2, 0, 0},
		{[]int{2, 3, 4}, 1, 1, 3, 1, 1},
		{[]int{9}, 0, 3, 8, 4, 0},
	}
	for _, tc := range cases {
		a := c.rand(-1, 1, tc.shape...)
		ax := normAx(tc.axis, len(tc.shape))
		ws := append([]int{}, tc.shape...)
		ws[ax] = tc.hi - tc.lo
		want := newArr(ws...)
		forEach(ws, func(idx []int) {
			src := append([]int{}, idx...)
			src[ax] += tc.lo
			want.set(idx, a.at(src))
		})
		ps := append([]int{}, tc.shape...)
		ps[ax] += tc.before + tc.after_
		wantPad := newArr(ps...)
		forEach(tc.shape, func(idx []int) {
			dst := append([]int{}, idx...)
			dst[ax] += tc.before
			wantPad.set(dst, a.at(idx))
		})
		// SliceGrad of g (shape ws) into like (shape of a).
		g := c.rand(-1, 1, ws...)
		wantSG := newArr(tc.shape...)
		forEach(ws, func(idx []int) {
			dst := append([]int{}, idx...)
			dst[ax] += tc.lo
			wantSG.set(dst, g.at(idx))
		})
		for _, l := range allLayouts {
			name := fmt.Sprintf("(%s %v, %d, %d, %d)", shapeName(tc.shape), l, tc.axis, tc.lo, tc.hi)
			x := c.tensor(a, l)
			c.check(t, "Slice"+name, T.Slice(x, tc.axis, tc.lo, tc.hi), want, exact)
			c.check(t, "Pad"+name, T.Pad(x, tc.axis, tc.before, tc.after_), wantPad, exact)
			c.check(t, "PadGrad"+name, T.PadGrad(c.tensor(wantPad, l), x, tc.axis, tc.before), a, exact)
			c.check(t, "SliceGrad"+name, T.SliceGrad(c.tensor(g, l), x, tc.axis, tc.lo), wantSG, exact)
		}
	}
	x := c.tensor(newArr(5, 7), contig)
	mustPanic(t, "Slice range", func() { T.Slice(x, 1, 3, 8) }, "tensorops: Slice: [3:8] out of range along axis 1 of shape [5 7]")
	mustPanic(t, "Slice axis", func() { T.Slice(x, 2, 0, 1) }, "tensorops: Slice: axis 2 out of range for shape [5 7]")
	mustPanic(t, "Pad negative", func() { T.Pad(x, 0, -1, 0) }, "tensorops: Pad: ")
	mustPanic(t, "SliceGrad fit", func() { T.SliceGrad(c.tensor(newArr(5, 3), contig), x, 1, 5) }, "tensorops: SliceGrad: shapes [5 3] and [5 7]")
	mustPanic(t, "PadGrad fit", func() { T.PadGrad(c.tensor(newArr(5, 3), contig), x, 1, 0) }, "tensorops: PadGrad: shapes [5 3] and [5 7]")
}

// testShapeConcat runs testShape's Concat cases.
func testShapeConcat(t *testing.T, c *ctx) {
	c.skip(t, "Concat")
	for _, axis := range []int{0, 1, -1, 2} {
		ax := normAx(axis, 3)
		sizes := []int{2, 1, 3}
		var parts []*arr
		var ts []*T.Tensor
		for i, s := range sizes {
			sh := []int{2, 3, 4}
			sh[ax] = s
			p := c.rand(-1, 1, sh...)
			parts = append(parts, p)
			ts = append(ts, c.tensor(p, allLayouts[i%len(allLayouts)]))
		}
		ws := []int{2, 3, 4}
		ws[ax] = 6
		want := newArr(ws...)
		forEach(ws, func(idx []int) {
			j := idx[ax]
			k := 0
			for j >= sizes[k] {
				j -= sizes[k]
				k++
			}
			src := append([]int{}, idx...)
			src[ax] = j
			want.set(idx, parts[k].at(src))
		})
		c.check(t, fmt.Sprintf("Concat(%d)", axis), T.Concat(axis, ts...), want, exact)
	}
	x, y := c.tensor(newArr(2, 3), contig), c.tensor(newArr(2, 4), contig)
	mustPanic(t, "Concat shapes", func() { T.Concat(0, x, y) }, "tensorops: Concat: shapes [2 3] and [2 4] differ outside axis 0")
	mustPanic(t, "Concat none", func() { T.Concat(0) }, "tensorops: Concat: ")
}

// testShapeBroadcast runs testShape's Broadcast cases.
func testShapeBroadcast(t *testing.T, c *ctx) {
	c.skip(t, "Broadcast")
	for _, p := range [][2][]int{{{3, 1}, {2, 3, 4}}, {{}, {2, 2}}, {{4}, {3, 4}}, {{3, 4}, {3, 4}}, {{1, 1}, {0, 5}}} {
		a := c.rand(-1, 1, p[0]...)
		want := refBroadcast(a, p[1])
		for _, l := range allLayouts {
			name := fmt.Sprintf("(%s %v, %v)", shapeName(p[0]), l, p[1])
			c.check(t, "Broadcast"+name, T.Broadcast(c.tensor(a, l), p[1]...), want, exact)
			c.check(t, "BroadcastLike"+name, T.BroadcastLike(c.tensor(a, l), c.tensor(newArr(p[1]...), contig)), want, exact)
		}
	}
	x := c.tensor(newArr(2, 3), contig)
	mustPanic(t, "Broadcast shapes", func() { T.Broadcast(x, 4, 5) }, "tensorops: Broadcast: shapes [2 3] and [4 5]")
	mustPanic(t, "BroadcastLike shapes", func() { T.BroadcastLike(x, c.tensor(newArr(3), contig)) }, "tensorops: BroadcastLike: shapes [2 3] and [3]")
}

// testShapeDiag runs testShape's Diag cases.
func testShapeDiag(t *testing.T, c *ctx) {
	c.skip(t, "Diag")
	for _, n := range []int{1, 4, 7} {
		v := c.rand(-1, 1, n)
		want := newArr(n, n)
		for i := 0; i < n; i++ {
			want.set([]int{i, i}, v.v[i])
		}
		m := c.rand(-1, 1, n, n)
		wantPart := newArr(n)
		for i := 0; i < n; i++ {
			wantPart.v[i] = m.at([]int{i, i})
		}
		for _, l := range allLayouts {
			c.check(t, fmt.Sprintf("Diag(%d %v)", n, l), T.Diag(c.tensor(v, l)), want, exact)
			c.check(t, fmt.Sprintf("DiagPart(%d %v)", n, l), T.DiagPart(c.tensor(m, l)), wantPart, exact)
		}
	}
	mustPanic(t, "Diag 2-D", func() { T.Diag(c.tensor(newArr(2, 2), contig)) }, "tensorops: Diag: shape [2 2] is not 1-D")
	mustPanic(t, "DiagPart square", func() { T.DiagPart(c.tensor(newArr(2, 3), contig)) }, "tensorops: DiagPart: shape [2 3] is not a square matrix")
}

// testShapeDim runs testShape's Dim cases.
func testShapeDim(t *testing.T, c *ctx) {
	x := c.tensor(newArr(2, 3, 4), padded)
	for _, tc := range []struct{ axis, want int }{{0, 2}, {1, 3}, {2, 4}, {-1, 4}, {-3, 2}} {
		if got := T.Dim(x, tc.axis); got != tc.want {
			t.Errorf("Dim(x, %d): got %d, want %d", tc.axis, got, tc.want)
		}
	}
	if got := T.Size(x); got != 24 {
		t.Errorf("Size: got %d, want 24", got)
	}
	mustPanic(t, "Dim axis", func() { T.Dim(x, 3) }, "tensorops: Dim: axis 3 out of range for shape [2 3 4]")
}
