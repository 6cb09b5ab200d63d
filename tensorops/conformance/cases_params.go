package conformance

import (
	"fmt"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// testParams checks the view of a list of tensors as one vector
// (ParamsSize, ParamsBasis, ParamsFlatten, ParamsUnflatten,
// ParamsOrZeros, ParamsHessian): a matrix, a nil tensor (no elements), a scalar, an
// empty tensor and a vector, on the backend's device.
func testParams(t *testing.T, c *ctx) {
	c.skip(t, "Params")
	shapes := [][]int{{2, 3}, nil, {}, {0, 4}, {5}}
	var arrs []*arr
	var like []*T.Tensor
	n := 0
	for _, s := range shapes {
		if s == nil {
			arrs, like = append(arrs, nil), append(like, nil)
			continue
		}
		a := c.rand(-1, 1, s...)
		arrs, like = append(arrs, a), append(like, c.tensor(a, contig))
		n += numel(s)
	}
	if got := T.ParamsSize(like); got != n {
		t.Errorf("ParamsSize: got %d, want %d", got, n)
	}
	// The vector of like's elements, and their places.
	want := newArr(n)
	var owner, at []int
	k := 0
	for j, a := range arrs {
		if a == nil {
			continue
		}
		for i, v := range a.v {
			want.v[k] = v
			owner, at = append(owner, j), append(at, i)
			k++
		}
	}
	c.check(t, "ParamsFlatten", T.ParamsFlatten(like, like), want, exact)
	for i := -1; i <= n; i++ {
		u := T.ParamsBasis(like, i)
		if len(u) != len(like) {
			t.Fatalf("ParamsBasis(%d): %d tensors, want %d", i, len(u), len(like))
		}
		for j, e := range u {
			if i < 0 || i >= n || j != owner[i] {
				if e != nil {
					t.Errorf("ParamsBasis(%d) [%d]: got a tensor, want nil", i, j)
				}
				continue
			}
			w := newArr(shapes[j]...)
			w.v[at[i]] = 1
			c.check(t, fmt.Sprintf("ParamsBasis(%d) [%d]", i, j), e, w, exact)
		}
	}
	// A derivative with nil tensors: zeros in their place.
	ts := []*T.Tensor{like[0], nil, nil, nil, like[4]}
	zs := want.clone()
	for i := range zs.v {
		if owner[i] != 0 && owner[i] != 4 {
			zs.v[i] = 0
		}
	}
	c.check(t, "ParamsFlatten with nil tensors", T.ParamsFlatten(ts, like), zs, exact)
	dense := T.ParamsOrZeros(ts, like)
	for j, d := range dense {
		switch {
		case like[j] == nil:
			if d != nil {
				t.Errorf("ParamsOrZeros [%d]: got a tensor for a nil one, want nil", j)
			}
		case ts[j] != nil:
			if d != ts[j] {
				t.Errorf("ParamsOrZeros [%d]: got a new tensor, want the one given", j)
			}
		default:
			c.check(t, fmt.Sprintf("ParamsOrZeros [%d]", j), d, newArr(shapes[j]...), exact)
		}
	}
	// Back from float64s, to like's dtype and device.
	back := T.ParamsUnflatten(want.v, like)
	for j, b := range back {
		if like[j] == nil {
			if b != nil {
				t.Errorf("ParamsUnflatten [%d]: got a tensor for a nil one, want nil", j)
			}
			continue
		}
		if b.Device() != like[j].Device() {
			t.Errorf("ParamsUnflatten [%d]: on %v, want %v", j, b.Device(), like[j].Device())
		}
		c.check(t, fmt.Sprintf("ParamsUnflatten [%d]", j), b, arrs[j], exact)
	}
	empty := T.ParamsFlatten([]*T.Tensor{nil}, []*T.Tensor{nil})
	if empty.DType() != T.Float64 || empty.Size() != 0 {
		t.Errorf("ParamsFlatten of no tensors: got %v %v, want an empty float64 vector", empty.DType(), empty.Shape())
	}
	mustPanic(t, "ParamsFlatten count", func() { T.ParamsFlatten(ts[:2], like) }, "tensorops: ParamsFlatten: 2 tensors for 5")
	mustPanic(t, "ParamsFlatten shape", func() { T.ParamsFlatten([]*T.Tensor{like[4], nil, nil, nil, like[4]}, like) },
		"tensorops: ParamsFlatten: tensor 0 has shape [5], want [2 3]")
	mustPanic(t, "ParamsUnflatten length", func() { T.ParamsUnflatten(want.v[1:], like) }, fmt.Sprintf("tensorops: ParamsUnflatten: %d elements for tensors of %d", n-1, n))
	mustPanic(t, "ParamsOrZeros count", func() { T.ParamsOrZeros(ts[:1], like) }, "tensorops: ParamsOrZeros: 1 tensors for 5")
	testParamsHessian(t, c, like, n)
}

// testParamsHessian checks the Hessian from its rows over the tensors
// like of n elements in all: rows as vectors, as [3, n/3] matrices and
// nil (zeros), made symmetric; an empty one for no elements.
func testParamsHessian(t *testing.T, c *ctx, like []*T.Tensor, n int) {
	rows := make([]*T.Tensor, n)
	h := newArr(n, n)
	for i := range rows {
		if i == 1 {
			continue // nil: zeros
		}
		r := c.rand(-1, 1, n)
		copy(h.v[i*n:], r.v)
		if i%2 == 0 {
			r = &arr{shape: []int{3, n / 3}, v: r.v}
		}
		rows[i] = c.tensor(r, contig)
	}
	want := newArr(n, n)
	for i := range n {
		for j := range n {
			want.v[i*n+j] = c.round(h.v[i*n+j]+h.v[j*n+i]) * 0.5
		}
	}
	got := T.ParamsHessian(rows, like...)
	c.check(t, "ParamsHessian", got, want, c.tl(tight64, tight32))
	if !got.IsSymmetric() {
		t.Errorf("ParamsHessian: not marked symmetric")
	}
	empty := T.ParamsHessian(nil, like[1], like[3])
	c.check(t, "ParamsHessian of no elements", empty, newArr(0, 0), exact)
	if !empty.IsSymmetric() {
		t.Errorf("ParamsHessian of no elements: not marked symmetric")
	}
	none := T.ParamsHessian(nil)
	if none.DType() != T.Float64 || !sameInts(none.Shape(), []int{0, 0}) || none.Device() != T.CPU {
		t.Errorf("ParamsHessian of no tensors: got %v %v on %v, want an empty float64 [0 0] on the CPU", none.DType(), none.Shape(), none.Device())
	}
	mustPanic(t, "ParamsHessian count", func() { T.ParamsHessian(rows[1:], like...) },
		fmt.Sprintf("tensorops: ParamsHessian: %d rows for %d elements", n-1, n))
	bad := append([]*T.Tensor{like[0]}, rows[1:]...)
	mustPanic(t, "ParamsHessian row", func() { T.ParamsHessian(bad, like...) },
		fmt.Sprintf("tensorops: ParamsHessian: row 0 has shape %v, not a multiple of %d elements", like[0].Shape(), n))
	// Rows in blocks, as the HVPs along stacked directions give them:
	// rows 2 and 3 in one [2, n] tensor, the others one by one.
	if n >= 4 {
		block := T.Concat(0, T.Reshape(rows[2], 1, n), T.Reshape(rows[3], 1, n))
		inBlocks := append(append(append([]*T.Tensor(nil), rows[:2]...), block), rows[4:]...)
		c.check(t, "ParamsHessian of blocks of rows", T.ParamsHessian(inBlocks, like...), want, c.tl(tight64, tight32))
	}
}
