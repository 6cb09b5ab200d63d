package tensorops_test

import (
	"math/rand/v2"
	"testing"

	T "github.com/gadgen/gadgen/tensorops"
)

// TestSliceFor checks F(SliceFor(a, …, b), SliceFor(b, …, a)) against
// Slice(F(a, b), …) for broadcasting shapes, along every axis, and
// MatMulSlice with a frame against the slice of the product's broadcast.
func TestSliceFor(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct{ a, b []int }{
		{[]int{6, 4}, []int{6, 4}},
		{[]int{6, 4}, []int{4}},
		{[]int{6, 1}, []int{1, 4}},
		{[]int{1, 4}, []int{3, 6, 4}},
		{[]int{5}, []int{1}},
	} {
		a, b := T.RandN(rng, T.Float64, c.a...), T.RandN(rng, T.Float64, c.b...)
		full := T.Mul(a, b)
		for ax := -full.Dims(); ax < full.Dims(); ax++ {
			n := full.Dim((ax + full.Dims()) % full.Dims())
			lo, hi := n/3, n-n/3
			want := T.Slice(full, ax, lo, hi)
			got := T.Mul(T.SliceFor(a, ax, lo, hi, b), T.SliceFor(b, ax, lo, hi, a))
			if !got.SameShape(want) || T.MaxAbsDiff(got, want) != 0 {
				t.Errorf("%v ⊙ %v, axis %d [%d:%d]: %v, want %v", c.a, c.b, ax, lo, hi, got, want)
			}
		}
	}
	x, y := T.RandN(rng, T.Float64, 6, 3), T.RandN(rng, T.Float64, 3, 4)
	z, col := T.RandN(rng, T.Float64, 6, 4), T.RandN(rng, T.Float64, 6, 1)
	for _, frame := range []*T.Tensor{z, col} {
		for ax := range 2 {
			want := T.Slice(T.Mul(T.MatMul(x, y), frame), ax, 1, 3)
			got := T.Mul(T.MatMulSlice(x, y, ax, 1, 3, frame), T.SliceFor(frame, ax, 1, 3, T.MatMulShape(x, y)))
			if d := T.MaxAbsDiff(got, want); !got.SameShape(want) || !(d <= 1e-14) {
				t.Errorf("MatMulSlice with a frame %v, axis %d: differs by %v", frame.Shape(), ax, d)
			}
		}
	}
	if s := T.MatMulShape(x, y); !s.SameShape(T.MatMul(x, y)) || T.MaxAll(T.Abs(s)) != 0 {
		t.Errorf("MatMulShape: %v", s)
	}
}
