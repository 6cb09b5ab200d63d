package conformance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	T "github.com/gadgen/gadgen/tensorops"
)

// testBasic checks construction, accessors, copies and the gonum interop.
func testBasic(t *testing.T, c *ctx) {
	t.Run("construct", func(t *testing.T) {
		c.skip(t, "New")
		for _, shape := range [][]int{{}, {0}, {3}, {2, 3}, {2, 0, 4}} {
			zero := newArr(shape...)
			full := newArr(shape...)
			for i := range full.v {
				full.v[i] = c.round(0.1)
			}
			ones := refUnary(zero, func(float64) float64 { return 1 })
			x := T.New(c.dt, shape...)
			c.check(t, "New"+shapeName(shape), c.in(x), zero, exact)
			c.check(t, "Full"+shapeName(shape), c.in(T.Full(c.dt, 0.1, shape...)), full, exact)
			c.check(t, "FullLike"+shapeName(shape), T.FullLike(c.in(x), 0.1), full, exact)
			c.check(t, "ZerosLike"+shapeName(shape), T.ZerosLike(c.in(T.Full(c.dt, 2, shape...))), zero, exact)
			c.check(t, "ZerosOf"+shapeName(shape), c.in(T.ZerosOf(c.dt, shape...)), zero, exact)
			c.check(t, "OnesOf"+shapeName(shape), c.in(T.OnesOf(c.dt, shape...)), ones, exact)
			if c.dt == T.Float64 {
				c.check(t, "Zeros"+shapeName(shape), c.in(T.Zeros(shape...)), zero, exact)
				c.check(t, "Ones"+shapeName(shape), c.in(T.Ones(shape...)), ones, exact)
			}
			if got := x.Shape(); !sameInts(got, shape) {
				t.Errorf("New(%v).Shape(): got %v, want %v", shape, got, shape)
			}
			if x.Dims() != len(shape) || x.Size() != numel(shape) || x.DType() != c.dt || x.Device() != T.CPU {
				t.Errorf("New(%v): got Dims %d Size %d DType %v Device %v", shape, x.Dims(), x.Size(), x.DType(), x.Device())
			}
		}
		mustPanic(t, "New negative", func() { T.New(c.dt, 2, -1) }, "tensorops: New: negative dimension in shape [2 -1]")
		mustPanic(t, "ZerosOf negative", func() { T.ZerosOf(c.dt, -1) }, "tensorops: ZerosOf: negative dimension in shape [-1]")
		mustPanic(t, "OnesOf dtype", func() { T.OnesOf(T.DType(9), 2) }, "tensorops: OnesOf: unknown dtype")
		s := T.Scalar(2.5)
		if s.Dims() != 0 || s.Item() != 2.5 || s.Size() != 1 {
			t.Errorf("Scalar(2.5): got Dims %d Item %v Size %d, want 0, 2.5, 1", s.Dims(), s.Item(), s.Size())
		}
		mustPanic(t, "Item", func() { T.New(c.dt, 2).Item() }, "tensorops: Item: shape [2] has 2 elements")
		if got := T.Float64.String() + " " + T.Float32.String(); got != "float64 float32" {
			t.Errorf("DType.String: got %q, want %q", got, "float64 float32")
		}
		if got := T.CPU.String() + " " + (T.Device{Kind: T.CUDAKind, ID: 1}).String(); got != "cpu cuda:1" {
			t.Errorf("Device.String: got %q, want %q", got, "cpu cuda:1")
		}
	})
	t.Run("random", func(t *testing.T) {
		c.skip(t, "RandN")
		a := T.RandN(rand.New(rand.NewPCG(1, 2)), c.dt, 50, 40)
		b := T.RandN(rand.New(rand.NewPCG(1, 2)), c.dt, 50, 40)
		if !T.AllClose(a, b, 0, 0) {
			t.Errorf("RandN with one seed: got different tensors")
		}
		if m, s := T.MeanAll(a), math.Sqrt(T.MeanAll(T.Square(a))); math.Abs(m) > 0.1 || math.Abs(s-1) > 0.1 {
			t.Errorf("RandN: got mean %v and rms %v, want about 0 and 1", m, s)
		}
		u := T.RandU(rand.New(rand.NewPCG(3, 4)), c.dt, -2, 3, 1000)
		if lo, hi := -T.MaxAll(T.Neg(u)), T.MaxAll(u); lo < -2 || hi >= 3 || lo > -1.9 || hi < 2.9 {
			t.Errorf("RandU(-2, 3): got range [%v, %v]", lo, hi)
		}
		if a.DType() != c.dt || u.DType() != c.dt {
			t.Errorf("RandN, RandU: got dtypes %v, %v, want %v", a.DType(), u.DType(), c.dt)
		}
	})
	t.Run("OneHot", func(t *testing.T) {
		c.skip(t, "OneHot")
		want := newArr(3, 4)
		for i, l := range []int{2, 0, 3} {
			want.set([]int{i, l}, 1)
		}
		c.check(t, "OneHot", c.in(T.OneHot([]int{2, 0, 3}, 4, c.dt)), want, exact)
		mustPanic(t, "OneHot range", func() { T.OneHot([]int{4}, 4, c.dt) }, "tensorops: OneHot: label 4")
	})
	t.Run("AsType", func(t *testing.T) {
		c.skip(t, "AsType")
		a := c.rand(-1, 1, 3, 5)
		for _, l := range allLayouts {
			x := c.tensor(a, l)
			y := T.AsType(x, T.Float64)
			if y.DType() != T.Float64 {
				t.Errorf("AsType(Float64): got dtype %v", y.DType())
			}
			c.check(t, fmt.Sprintf("AsType round trip %v", l), T.AsType(y, c.dt), a, exact)
			if T.AsType(x, c.dt) == x {
				t.Errorf("AsType to the same dtype: got the operand, want a copy")
			}
		}
	})
	t.Run("Copy", func(t *testing.T) {
		c.skip(t, "Copy")
		a := c.rand(-1, 1, 3, 1)
		want := refBroadcast(a, []int{2, 3, 4})
		for _, l := range allLayouts {
			dst := c.tensor(newArr(2, 3, 4), l)
			T.Copy(dst, c.tensor(a, l))
			c.check(t, fmt.Sprintf("Copy broadcast %v", l), dst, want, exact)
		}
		// Converting copies.
		other := T.Float32
		if c.dt == T.Float32 {
			other = T.Float64
		}
		b := c.rand(-1, 1, 4, 5)
		o := c.in(T.New(other, 4, 5))
		T.Copy(o, c.tensor(b, padded))
		back := c.tensor(newArr(4, 5), permuted)
		T.Copy(back, o)
		c.check(t, "Copy through "+other.String(), back, refUnary(b, func(x float64) float64 { return c.round(float64(float32(x))) }), exact)
		mustPanic(t, "Copy shapes", func() { T.Copy(c.tensor(newArr(2, 3), contig), c.tensor(newArr(3, 2), contig)) }, "tensorops: Copy: shapes [2 3] and [3 2]")
		// Fill writes only the view's elements.
		for _, l := range allLayouts {
			dst := c.tensor(c.rand(-1, 1, 3, 4), l)
			T.Fill(dst, 0.5)
			c.check(t, fmt.Sprintf("Fill %v", l), dst, refUnary(newArr(3, 4), func(float64) float64 { return 0.5 }), exact)
		}
	})
	t.Run("compare", func(t *testing.T) {
		c.skip(t, "AllClose")
		a := c.rand(-1, 1, 3, 4)
		b := a.clone()
		b.v[5] += 1e-3
		x, y := c.tensor(a, padded), c.tensor(b, contig)
		if !T.AllClose(x, x, 0, 0) || T.AllClose(x, y, 0, 1e-4) || !T.AllClose(x, y, 0, 2e-3) {
			t.Errorf("AllClose: wrong verdicts around a difference of 1e-3")
		}
		if T.AllClose(x, c.tensor(newArr(4, 3), contig), 1, 1) {
			t.Errorf("AllClose of shapes [3 4] and [4 3]: got true")
		}
		if d := T.MaxAbsDiff(x, y); math.Abs(d-1e-3) > 1e-6 {
			t.Errorf("MaxAbsDiff: got %v, want 1e-3", d)
		}
		mustPanic(t, "MaxAbsDiff shapes", func() { T.MaxAbsDiff(x, c.tensor(newArr(4, 3), contig)) }, "tensorops: MaxAbsDiff: shapes [3 4] and [4 3]")
	})
	t.Run("host", func(t *testing.T) {
		c.skip(t, "host")
		testHost(t, c)
	})
}

// testHost checks views of Go slices and gonum matrices, and the accessors
// of the host.
func testHost(t *testing.T, c *ctx) {
	if c.dt == T.Float64 {
		d := []float64{1, 2, 3, 4, 5, 6}
		x := T.FromFloat64s(d, 2, 3)
		x.Set(10, 1, 2)
		if d[5] != 10 || x.At(0, 1) != 2 {
			t.Errorf("FromFloat64s: got no view of the slice")
		}
		if got := T.Reshape(x, 3, 2); got.Float64s()[5] != 10 {
			t.Errorf("Reshape of a contiguous tensor: got %v, want a view", got)
		} else {
			got.Set(11, 2, 1)
			if d[5] != 11 {
				t.Errorf("Reshape of a contiguous tensor: writes not seen through the view")
			}
		}
		mustPanic(t, "FromFloat64s length", func() { T.FromFloat64s(d, 2, 2) }, "tensorops: FromFloat64s: shape [2 2] needs 4 elements, data has 6")
		// gonum views.
		m := mat.NewDense(4, 5, nil)
		for i := 0; i < 4; i++ {
			for j := 0; j < 5; j++ {
				m.Set(i, j, float64(10*i+j))
			}
		}
		v := m.Slice(1, 3, 1, 4).(*mat.Dense)
		tv := T.FromDense(v)
		if tv.IsContiguous() || !sameInts(tv.Shape(), []int{2, 3}) || !sameInts(tv.Strides(), []int{5, 1}) || tv.At(1, 2) != 23 {
			t.Errorf("FromDense of a view: got shape %v strides %v contiguous %v At(1,2) %v", tv.Shape(), tv.Strides(), tv.IsContiguous(), tv.At(1, 2))
		}
		tv.Set(-1, 0, 0)
		if m.At(1, 1) != -1 {
			t.Errorf("FromDense: got no view of the matrix")
		}
		dv := tv.Dense()
		dv.Set(1, 1, -2)
		if m.At(2, 2) != -2 {
			t.Errorf("Tensor.Dense: got no view")
		}
		mustPanic(t, "Float64s strided", func() { tv.Float64s() }, "tensorops: Float64s: shape [2 3] with strides [5 1] is not contiguous")
		mustPanic(t, "Dense transposed", func() { T.AsStrided(tv, []int{3, 2}, []int{1, 5}, 0).Dense() }, "tensorops: Dense: shape [3 2] with strides [1 5]")
		cv := m.ColView(2).(*mat.VecDense)
		tc := T.FromVecDense(cv)
		if !sameInts(tc.Shape(), []int{4}) || tc.At(3) != 32 || tc.IsContiguous() {
			t.Errorf("FromVecDense of a column: got shape %v At(3) %v", tc.Shape(), tc.At(3))
		}
		tc.VecDense().SetVec(0, 7)
		if m.At(0, 2) != 7 {
			t.Errorf("Tensor.VecDense: got no view")
		}
		sh := x.Shape()
		sh[0] = 99
		if x.Dim(0) != 2 {
			t.Errorf("Shape: got the tensor's own slice, want a copy")
		}
		if cl := x.Clone(); cl.At(0, 0) != 1 || !cl.IsContiguous() {
			t.Errorf("Clone: got %v", cl)
		} else if cl.Set(5, 0, 0); x.At(0, 0) != 1 {
			t.Errorf("Clone: got a view, want a copy")
		}
		if x.Contiguous() != x {
			t.Errorf("Contiguous of a contiguous tensor: got a copy, want the tensor")
		}
		if tv.Contiguous() == tv || !tv.Contiguous().IsContiguous() {
			t.Errorf("Contiguous of a strided tensor: got no contiguous copy")
		}
		if s := x.String(); s != "float64[2 3] [[1 2 3] [4 5 11]]" {
			t.Errorf("String: got %q, want %q", s, "float64[2 3] [[1 2 3] [4 5 11]]")
		}
		if !x.SameShape(T.New(T.Float64, 2, 3)) || x.SameShape(T.New(T.Float64, 3, 2)) {
			t.Errorf("SameShape: wrong verdicts")
		}
		mustPanic(t, "At range", func() { x.At(2, 0) }, "tensorops: At: index [2 0] out of range for shape [2 3]")
		mustPanic(t, "Set count", func() { x.Set(1, 0) }, "tensorops: Set: 1 indices for shape [2 3]")
	} else {
		d := []float32{1, 2, 3, 4}
		x := T.FromFloat32s(d, 2, 2)
		x.Set(9, 1, 1)
		if d[3] != 9 || x.Float32s()[3] != 9 {
			t.Errorf("FromFloat32s: got no view of the slice")
		}
		mustPanic(t, "Float64s of float32", func() { x.Float64s() }, "tensorops: Float64s: dtype float32")
		mustPanic(t, "Dense of float32", func() { x.Dense() }, "tensorops: Dense: shape [2 2] of dtype float32")
	}
	big := T.New(c.dt, 300, 200)
	if s := big.String(); len(s) > 2000 || !strings.Contains(s, "...") {
		t.Errorf("String of a big tensor: got %d bytes, want a short summary", len(s))
	}
}
